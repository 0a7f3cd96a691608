package signposting

import (
	"context"
	"fmt"
	"github.com/weblinking/weblink/internal/memtest"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/weblinking/weblink"
)

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
