package signposting

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/memtest"
)

// site is what a test server serves: the landing page at /record with
// header (Link field values, "{base}" replaced by the server's URL) and
// html (the <head> content), and more documents by path.
type site struct {
	header []string
	html   string
	status int                  // of /record; 0 means 200
	docs   map[string][2]string // path: content type, body
}

// serve starts a server for st and returns its URL.
func serve(t *testing.T, st site) string {
	t.Helper()
	var base string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/record" {
			for _, h := range st.header {
				w.Header().Add("Link", strings.ReplaceAll(h, "{base}", base))
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			if st.status != 0 {
				w.WriteHeader(st.status)
			}
			fmt.Fprintf(w, "<!doctype html><html><head>%s</head><body>record</body></html>", strings.ReplaceAll(st.html, "{base}", base))
			return
		}
		d, ok := st.docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", d[0])
		fmt.Fprint(w, strings.ReplaceAll(d[1], "{base}", base))
	}))
	t.Cleanup(srv.Close)
	base = srv.URL
	return base
}

// fetchSite serves st and fetches its landing page.
func fetchSite(t *testing.T, st site) *Signposts {
	t.Helper()
	base := serve(t, st)
	req, _ := http.NewRequest(http.MethodGet, base+"/record", nil)
	s, err := Fetch(context.Background(), nil, req)
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	return s
}

var ruleRE = regexp.MustCompile(`\(rule (\d+)\)$`)

// codes returns the problems as "L<level> <E|W><rule>", sorted, each
// once.
func codes(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		m := ruleRE.FindStringSubmatch(p.Msg)
		kind := "E"
		if p.Warning {
			kind = "W"
		}
		c := fmt.Sprintf("L%d %s%s", p.Level, kind, m[1])
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// level1 is a landing page's complete Level 1 header.
var level1 = []string{
	`<https://doi.org/10.5281/zenodo.1>; rel="cite-as"`,
	`<{base}/meta.json>; rel="describedby"; type="application/ld+json"`,
	`<{base}/data.csv>; rel="item"; type="text/csv"`,
	`<https://spdx.org/licenses/CC0-1.0>; rel="license"`,
	`<https://schema.org/Dataset>; rel="type", <https://schema.org/AboutPage>; rel="type"`,
	`<https://orcid.org/0000-0002-1825-0097>; rel="author"`,
	`<{base}/linkset>; rel="linkset"; type="application/linkset+json"`,
}

// goodLinkset is a complete Level 2 linkset for /record.
const goodLinkset = `{"linkset":[
 {"anchor":"{base}/record",
  "cite-as":[{"href":"https://doi.org/10.5281/zenodo.1"}],
  "describedby":[{"href":"{base}/meta.json","type":"application/ld+json"}],
  "item":[{"href":"{base}/data.csv","type":"text/csv"}],
  "license":[{"href":"https://spdx.org/licenses/CC0-1.0"}],
  "type":[{"href":"https://schema.org/Dataset"},{"href":"https://schema.org/AboutPage"}],
  "author":[{"href":"https://orcid.org/0000-0002-1825-0097"}]},
 {"anchor":"{base}/data.csv","collection":[{"href":"{base}/record","type":"text/html"}]},
 {"anchor":"{base}/meta.json","describes":[{"href":"{base}/record","type":"text/html"}]}]}`

// without returns level1 without the lines that contain s.
func without(s string) []string {
	var out []string
	for _, l := range level1 {
		if !strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return out
}

// with returns level1 with more lines.
func with(more ...string) []string { return append(slices.Clone(level1), more...) }

// linksetDoc is a site with header and the linkset doc at /linkset.
func linksetSite(header []string, doc string) site {
	return site{header: header, docs: map[string][2]string{"/linkset": {weblink.LinksetJSONType, doc}}}
}

// TestRules has a case for every rule of the package documentation.
func TestRules(t *testing.T) {
	good := linksetSite(level1, goodLinkset)
	tests := []struct {
		name  string
		site  site
		want  []string // codes
		level int
	}{
		{"complete Level 2", good, nil, 2},
		{"rule 1: no cite-as", linksetSite(without("cite-as"), goodLinkset), []string{"L1 E1"}, 0},
		{"rule 1: two cite-as", linksetSite(with(`<https://doi.org/10.5281/zenodo.2>; rel="cite-as"`), goodLinkset), []string{"L1 E1"}, 0},
		{"rule 1 at Level 2: no cite-as in the linkset", linksetSite(level1, strings.Replace(goodLinkset, `"cite-as":[{"href":"https://doi.org/10.5281/zenodo.1"}],`, "", 1)), []string{"L2 E1"}, 1},
		{"rule 2: header and HTML cite-as differ",
			site{header: level1, html: `<link rel="cite-as" href="https://doi.org/10.5281/zenodo.9">`, docs: good.docs}, []string{"L1 E2"}, 0},
		{"rule 2: the same cite-as in header and HTML is fine",
			site{header: level1, html: `<link rel="cite-as" href="https://doi.org/10.5281/zenodo.1">`, docs: good.docs}, nil, 2},
		{"rule 3: no describedby", linksetSite(without("describedby"), goodLinkset), []string{"L1 E3"}, 0},
		{"rule 3: describedby without type", linksetSite(with(`<{base}/meta.xml>; rel="describedby"`), goodLinkset), []string{"L1 E3"}, 0},
		{"rule 4: item without type", linksetSite(with(`<{base}/b.csv>; rel="item"`), goodLinkset), []string{"L1 E4"}, 0},
		{"rule 5: two licenses", linksetSite(with(`<https://spdx.org/licenses/MIT>; rel="license"`), goodLinkset), []string{"L1 E5"}, 0},
		{"rule 6: no type", linksetSite(without(`rel="type"`), goodLinkset), []string{"L1 E6"}, 0},
		{"rule 6: three types", linksetSite(with(`<https://schema.org/Photograph>; rel="type"`), goodLinkset), []string{"L1 E6"}, 0},
		{"rule 7: file with two collections", linksetSite(level1, strings.Replace(goodLinkset, `"collection":[`, `"collection":[{"href":"{base}/other"},`, 1)), []string{"L2 E7"}, 1},
		{"rule 8: metadata with two describes", linksetSite(level1, strings.Replace(goodLinkset, `"describes":[`, `"describes":[{"href":"{base}/other"},`, 1)), []string{"L2 E8"}, 1},
		{"rule 9: a link twice in the header", linksetSite(with(level1[3]), goodLinkset), []string{"L1 W9"}, 2},
		{"rule 9: a link twice in the linkset", linksetSite(level1, strings.Replace(goodLinkset, `"license":[{"href":"https://spdx.org/licenses/CC0-1.0"}]`, `"license":[{"href":"https://spdx.org/licenses/CC0-1.0"},{"href":"https://spdx.org/licenses/CC0-1.0"}]`, 1)), []string{"L2 W9"}, 2},
		{"rule 10: type csv", linksetSite(with(`<{base}/b.csv>; rel="item"; type="csv"`), goodLinkset), []string{"L1 E10"}, 0},
		{"rule 10: type with parameters is fine", linksetSite(with(`<{base}/b.csv>; rel="item"; type="text/csv;charset=UTF-8"`), goodLinkset), nil, 2},
		{"rule 11: cite-as with a control byte in HTML",
			site{header: without("cite-as"), html: "<link rel=\"cite-as\" href=\"https://doi.org/10.5281/\x01zenodo.1\">", docs: good.docs}, []string{"L1 E11"}, 0},
		{"rule 12: cite-as on the repository's origin", linksetSite(append(without("cite-as"), `<{base}/handle/123456789/5>; rel="cite-as"`), strings.Replace(goodLinkset, "https://doi.org/10.5281/zenodo.1", "{base}/handle/123456789/5", 1)), []string{"L1 W12", "L2 W12"}, 2},
		{"rule 13: a header that does not parse", linksetSite(with(`<{base}/x; rel="item"`), goodLinkset), []string{"L1 E13"}, 0},
		{"rule 13: HTML cut at MaxBytes", site{header: level1, html: "<!--" + strings.Repeat(" ", 5<<20) + `--><link rel="item" href="{base}/late.csv" type="text/csv">`, docs: good.docs}, []string{"L1 E13"}, 0},
		{"rule 14: linkset without type", linksetSite(append(without("linkset"), `<{base}/linkset>; rel="linkset"`), goodLinkset), []string{"L2 E14"}, 1},
		{"rule 15: relative anchor and target", linksetSite(level1, strings.Replace(goodLinkset, `"anchor":"{base}/data.csv","collection":[{"href":"{base}/record"`, `"anchor":"data.csv","collection":[{"href":"record"`, 1)), []string{"L2 E15"}, 1},
		{"rule 16: no context for the landing page", linksetSite(level1, strings.Replace(goodLinkset, `"anchor":"{base}/record"`, `"anchor":"{base}/elsewhere"`, 1)), []string{"L2 E16"}, 1},
		{"rule 16: no item at Level 2", linksetSite(level1, strings.Replace(goodLinkset, `"item":[{"href":"{base}/data.csv","type":"text/csv"}],`, "", 1)), []string{"L2 E16"}, 1},
		{"rule 17: no linkset", site{header: without("linkset")}, []string{"L2 E17"}, 1},
		{"rule 17: linkset 404", site{header: level1}, []string{"L2 E17"}, 1},
		{"rule 17: not a linkset", linksetSite(level1, `{"hello":1}`), []string{"L2 E17"}, 1},
		{"rule 18: profile as a string", linksetSite(level1, strings.Replace(goodLinkset, `"type":"application/ld+json"}`, `"type":"application/ld+json","profile":"https://datapackage.org/profiles/2.0/datapackage.json"}`, 1)), []string{"L2 W18"}, 2},
		{"rule 19: the data envelope", linksetSite(level1, `{"status":"OK","data":`+goodLinkset+`}`), []string{"L2 E19"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := fetchSite(t, tt.site)
			ps := s.Check()
			if got := codes(ps); !slices.Equal(got, tt.want) {
				t.Errorf("problems %v, want %v", got, tt.want)
				for _, p := range ps {
					t.Logf("  %d %v %s %v", p.Level, p.Warning, p.Msg, p.Link)
				}
			}
			if got := s.Level(); got != tt.level {
				t.Errorf("Level() = %d, want %d", got, tt.level)
			}
		})
	}
}

// TestCheckOncePerLink checks that a problem is reported once: a link
// with two relation types of the profile and a bad type (rule 10) or
// target (rule 11), and a link written three times (rule 9: one warning).
func TestCheckOncePerLink(t *testing.T) {
	const rest = `, <https://doi.org/10.1/x>; rel="cite-as", <https://schema.org/Dataset>; rel="type"`
	tests := []struct {
		name, field, rule string
		want              int
	}{
		{"rule 10: two relation types, one link", `<https://r.example/m>; rel="describedby item"; type="csv"` + rest, "10", 1},
		{"rule 11: two relation types, one link", "<https://r.example/m\x01>; rel=\"describedby item\"; type=\"text/csv\"" + rest, "11", 1},
		{"rule 9: a link three times", `<https://r.example/m>; rel="describedby"; type="text/csv", <https://r.example/m>; rel="describedby"; type="text/csv", <https://r.example/m>; rel="describedby"; type="text/csv"` + rest, "9", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			links, err := weblink.Parse(tt.field)
			if err != nil {
				t.Fatal(err)
			}
			got := 0
			for _, p := range FromLinks("https://r.example/r", links).Check() {
				if m := ruleRE.FindStringSubmatch(p.Msg); m[1] == tt.rule {
					got++
					t.Logf("%s %v", p.Msg, p.Link)
				}
			}
			if got != tt.want {
				t.Errorf("%d problems of rule %s, want %d", got, tt.rule, tt.want)
			}
		})
	}
}

// TestHostile reads what a hostile landing page sends: 10,000 signposts,
// a linkset that lists itself, a linkset of 100 MB, a header and HTML
// that disagree on everything. Each finishes quickly, with each problem
// once and at most 16 per rule and level.
func TestHostile(t *testing.T) {
	var many []string
	for i := range 10000 {
		many = append(many, fmt.Sprintf(`<{base}/f%d>; rel="item"; type="csv"`, i))
	}
	self := `{"linkset":[{"anchor":"{base}/linkset","linkset":[{"href":"{base}/linkset","type":"application/linkset+json"}]}]}`
	huge := `{"linkset":[{"anchor":"{base}/record","item":[` + strings.Repeat(`{"href":"{base}/x","type":"text/csv"},`, 100<<20/40) + `{"href":"{base}/y"}]}]}`
	tests := []struct {
		name string
		site site
	}{
		{"10000 signposts", site{header: many}},
		{"a linkset that lists itself", linksetSite(level1, self)},
		{"a linkset of 100 MB", linksetSite(level1, huge)},
		{"header and HTML disagree on everything", site{header: level1, html: `<link rel="cite-as" href="https://doi.org/other"><link rel="type" href="https://schema.org/A"><link rel="type" href="https://schema.org/B"><link rel="license" href="https://spdx.org/licenses/MIT"><link rel="describedby" href="{base}/x">`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			s := fetchSite(t, tt.site)
			ps := s.Check()
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %v", d)
			}
			seen := map[string]bool{}
			perRule := map[string]int{}
			for _, p := range ps {
				k := fmt.Sprint(p.Level, p.Msg, p.Link)
				if seen[k] {
					t.Errorf("reported twice: %s", k)
				}
				seen[k] = true
				perRule[fmt.Sprint(p.Level, ruleRE.FindString(p.Msg))]++
			}
			for k, n := range perRule {
				if n > maxPerRule+1 {
					t.Errorf("%d problems for %s", n, k)
				}
			}
			if len(ps) == 0 {
				t.Error("no problem found")
			}
		})
	}
}

// FuzzCheck feeds FromLinks and Check any Link field: no panic, and every
// problem names its rule.
func FuzzCheck(f *testing.F) {
	f.Add(`<https://doi.org/1>; rel="cite-as", <m>; rel="describedby"; type="text/csv"`)
	f.Add("<\x01>; rel=\"cite-as item\"; type=\"a/\"")
	f.Fuzz(func(t *testing.T, field string) {
		links, _ := weblink.Parse(field)
		s := FromLinks("https://repo.example/r", links)
		for _, p := range s.Check() {
			if !ruleRE.MatchString(p.Msg) || p.Level < 1 || p.Level > 2 {
				t.Fatalf("problem %+v", p)
			}
		}
		_ = s.Level()
	})
}

// TestLinksetProblemWords checks the words of rule 17's problems: they are
// this package's, without the "paging: " of discover's status error or
// the "discover: " of its cut, which named another package.
func TestLinksetProblemWords(t *testing.T) {
	big := `{"linkset":[` + strings.Repeat(" ", 5<<20) + `]}`
	tests := []struct {
		name string
		site site
		want string
	}{
		{"404", site{header: level1}, `the linkset answered 404 Not Found (rule 17)`},
		{"cut", linksetSite(level1, big), `the linkset could not be read: "body cut at MaxBytes: read the first 4194304 bytes of it, which is longer; a cut linkset gives no links" (rule 17)`},
		{"not a linkset", linksetSite(level1, `{"hello":1}`), `the linkset could not be read: "invalid linkset: `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, p := range fetchSite(t, tt.site).Check() {
				if ruleRE.FindStringSubmatch(p.Msg)[1] == "17" {
					got = append(got, p.Msg)
				}
			}
			if len(got) != 1 || !strings.HasPrefix(got[0], tt.want) {
				t.Errorf("rule 17 problems %q, want one starting %q", got, tt.want)
			}
		})
	}
	t.Run("404 after a redirect", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/record":
				w.Header().Set("Link", `</linkset>; rel="linkset"; type="application/linkset+json"`)
			case "/linkset":
				http.Redirect(w, r, "/moved", http.StatusFound)
			default:
				http.NotFound(w, r)
			}
		}))
		defer srv.Close()
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/record", nil)
		s, err := Fetch(context.Background(), nil, req)
		if err != nil {
			t.Fatal(err)
		}
		want := `the linkset answered 404 Not Found at "` + srv.URL + `/moved", where it redirected (rule 17)`
		var got []string
		for _, p := range s.Check() {
			if ruleRE.FindStringSubmatch(p.Msg)[1] == "17" {
				got = append(got, p.Msg)
			}
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("rule 17 problems %q, want %q", got, want)
		}
	})
}

// TestHostileLinksetMemory bounds the memory a linkset of 100 MB costs:
// discover reads the first 4 MiB of it (MaxBytes), and a linkset cut
// there is not parsed (rule 13 of package discover), so Fetch allocates a
// few bytes per byte read, for the read itself (2.4, 10 MB). Parsing the
// cut 4 MiB before failing on their end allocated 36 bytes per byte read
// (151 MB).
func TestHostileLinksetMemory(t *testing.T) {
	const read = 4 << 20 // discover's default MaxBytes
	// A server of its own, which writes the linkset without a copy of it
	// for each request.
	var base string
	var huge []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/linkset" {
			w.Header().Set("Content-Type", weblink.LinksetJSONType)
			w.Write(huge)
			return
		}
		for _, h := range level1 {
			w.Header().Add("Link", strings.ReplaceAll(h, "{base}", base))
		}
	}))
	defer srv.Close()
	base = srv.URL
	huge = []byte(`{"linkset":[{"anchor":"` + base + `/record","item":[` + strings.Repeat(`{"href":"`+base+`/x","type":"text/csv"},`, 100<<20/60) + `{"href":"` + base + `/y"}]}]}`)
	fetch := func() {
		req, _ := http.NewRequest(http.MethodGet, base+"/record", nil)
		if _, err := Fetch(context.Background(), nil, req); err != nil {
			t.Fatalf("Fetch: %v", err)
		}
	}
	fetch() // the server's and the client's first allocations
	// The counts are process-wide and the server allocates too: the
	// least of three runs.
	least := memtest.Allocated(fetch)
	for range 2 {
		least = min(least, memtest.Allocated(fetch))
	}
	perByte := float64(least) / read
	t.Logf("Fetch of a 100 MB linkset allocated %d bytes, %.2f per byte read", least, perByte)
	if perByte > 8 {
		t.Errorf("Fetch allocated %.1f bytes per byte read (%d bytes), want at most 8: the cut linkset was parsed", perByte, least)
	}
}

// TestCutLinksetOnce checks that a linkset longer than discover's 4 MiB is
// one rule 17 problem, the cut, naming the rel="linkset" link: it was two,
// "body cut at MaxBytes" and the "invalid JSON: unexpected EOF" of the cut
// document parsed.
func TestCutLinksetOnce(t *testing.T) {
	big := `{"linkset":[{"anchor":"{base}/record","item":[` + strings.Repeat(`{"href":"{base}/x","type":"text/csv"},`, 5<<20/40) + `{"href":"{base}/y"}]}]}`
	s := fetchSite(t, linksetSite(level1, big))
	var rule17 []Problem
	for _, p := range s.Check() {
		if ruleRE.FindStringSubmatch(p.Msg)[1] == "17" {
			rule17 = append(rule17, p)
		}
	}
	if len(rule17) != 1 || !strings.Contains(rule17[0].Msg, "cut at MaxBytes") || rule17[0].Level != 2 ||
		rule17[0].Link == nil || !strings.HasSuffix(rule17[0].Link.Target, "/linkset") {
		t.Errorf("rule 17 problems %+v; want one, at Level 2, saying the linkset was cut at MaxBytes and naming its link", rule17)
	}
	if s.Level() != 1 {
		t.Errorf("Level() = %d, want 1", s.Level())
	}
}
