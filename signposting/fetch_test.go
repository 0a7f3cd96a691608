package signposting

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/paging"
)

// TestFetchArguments: a nil context, a nil request or one without a URL,
// and a method other than GET or HEAD are errors that start with the
// package name and say what to do, never a panic.
func TestFetchArguments(t *testing.T) {
	post, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:1/record", nil)
	get, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1:1/record", nil)
	for _, tc := range []struct {
		name string
		ctx  context.Context
		req  *http.Request
		want string
	}{
		{"nil context", nil, get, "signposting: Fetch needs a non-nil context; use context.Background() if there is none"},
		{"nil request", context.Background(), nil, "signposting: Fetch needs a request with a URL; create it with http.NewRequestWithContext"},
		{"no URL", context.Background(), &http.Request{Method: http.MethodGet}, "signposting: Fetch needs a request with a URL; create it with http.NewRequestWithContext"},
		{"POST", context.Background(), post, `signposting: POST "http://127.0.0.1:1/record" not sent: Fetch sends GET or HEAD requests`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Fetch(tc.ctx, nil, tc.req)
			if s != nil || err == nil || err.Error() != tc.want {
				t.Fatalf("Fetch = %v, %q; want nil, %q", s, err, tc.want)
			}
			if strings.Contains(err.Error(), "discover:") {
				t.Errorf("error names package discover, which the caller did not call: %q", err)
			}
		})
	}
}

// oddCiteAs and oddItem are signpost targets holding a comma and a
// semicolon, the separators of a Link field: F-UJI cut such a cite-as at
// the comma.
const (
	oddCiteAs = "https://doi.org/10.1/a,b;c"
	oddItem   = "{base}/data,1;v=2.csv"
)

// odd replaces the cite-as and item targets of s with oddCiteAs and
// oddItem.
func odd(s string) string {
	return strings.NewReplacer("https://doi.org/10.5281/zenodo.1", oddCiteAs, "{base}/data.csv", oddItem).Replace(s)
}

// oddLinkset is goodLinkset with the odd targets, as an application/linkset
// document (RFC 9264 §4.1).
const oddLinkset = `<https://doi.org/10.1/a,b;c>; rel="cite-as"; anchor="{base}/record",
 <{base}/meta.json>; rel="describedby"; type="application/ld+json"; anchor="{base}/record",
 <{base}/data,1;v=2.csv>; rel="item"; type="text/csv"; anchor="{base}/record",
 <https://spdx.org/licenses/CC0-1.0>; rel="license"; anchor="{base}/record",
 <https://schema.org/Dataset>; rel="type"; anchor="{base}/record",
 <https://schema.org/AboutPage>; rel="type"; anchor="{base}/record",
 <https://orcid.org/0000-0002-1825-0097>; rel="author"; anchor="{base}/record",
 <{base}/record>; rel="collection"; type="text/html"; anchor="{base}/data,1;v=2.csv",
 <{base}/record>; rel="describes"; type="text/html"; anchor="{base}/meta.json"
`

// TestFetchCommaInTarget reads a cite-as and an item whose targets hold a
// comma and a semicolon, in the Link header, the HTML, a JSON linkset
// and an application/linkset one: each is read whole, at both levels,
// and Check reports nothing (the page is Level 2 otherwise).
func TestFetchCommaInTarget(t *testing.T) {
	var header []string
	for _, l := range level1 {
		header = append(header, odd(l))
	}
	var noCiteAs []string
	for _, l := range header {
		if !strings.Contains(l, "cite-as") {
			noCiteAs = append(noCiteAs, l)
		}
	}
	jsonDocs := map[string][2]string{"/linkset": {weblink.LinksetJSONType, odd(goodLinkset)}}
	tests := []struct {
		name string
		site site
	}{
		{"Link header, JSON linkset", site{header: header, docs: jsonDocs}},
		{"Link header, application/linkset", site{
			header: append(slices.Clone(noCiteAs[:len(noCiteAs)-1]), `<https://doi.org/10.1/a,b;c>; rel="cite-as"`, `<{base}/linkset>; rel="linkset"; type="application/linkset"`),
			docs:   map[string][2]string{"/linkset": {weblink.LinksetType, oddLinkset}}}},
		{"HTML cite-as", site{header: noCiteAs, html: `<link rel="cite-as" href="https://doi.org/10.1/a,b;c">`, docs: jsonDocs}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := serve(t, tt.site)
			req, _ := http.NewRequest(http.MethodGet, base+"/record", nil)
			s, err := Fetch(context.Background(), nil, req)
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			item := strings.ReplaceAll(oddItem, "{base}", base)
			if got := targets(s.CiteAs); !slices.Equal(got, []string{oddCiteAs}) {
				t.Errorf("CiteAs %q, want %q", got, oddCiteAs)
			}
			if got := targets(s.Items); !slices.Equal(got, []string{item}) {
				t.Errorf("Items %q, want %q", got, item)
			}
			var citeAs, items, collections []string
			for _, l := range s.Level2 {
				switch l.Rel[0] {
				case "cite-as":
					citeAs = append(citeAs, l.Target)
				case "item":
					items = append(items, l.Target)
				case "collection":
					collections = append(collections, l.Anchor)
				}
			}
			if !slices.Equal(citeAs, []string{oddCiteAs}) || !slices.Equal(items, []string{item}) || !slices.Equal(collections, []string{item}) {
				t.Errorf("Level2 cite-as %q, item %q, collection anchors %q; want %q, %q, %q", citeAs, items, collections, oddCiteAs, item, item)
			}
			if ps := s.Check(); len(ps) != 0 || s.Level() != 2 {
				t.Errorf("Level() = %d, Check():", s.Level())
				for _, p := range ps {
					t.Errorf("  %s %v", p.Msg, p.Link)
				}
			}
		})
	}
}

// targets returns the targets of links.
func targets(links weblink.Links) []string {
	var out []string
	for _, l := range links {
		out = append(out, l.Target)
	}
	return out
}

// TestFetchStatus fetches a Level 2 landing page (its author link in the
// HTML) answering 200, 410 Gone and 404: a 410 is a tombstone and is read
// like a 200, its HTML and linkset too, at Level 2; a 404 is an error
// whose Signposts hold the header's links only.
func TestFetchStatus(t *testing.T) {
	tests := []struct {
		status  int
		err     bool // a *paging.StatusError
		authors int  // from the HTML
		level2  bool // the linkset was read
	}{
		{http.StatusOK, false, 1, true},
		{http.StatusGone, false, 1, true},
		{http.StatusNotFound, true, 0, false},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.status), func(t *testing.T) {
			st := site{
				header: without(`rel="author"`),
				html:   `<link rel="author" href="https://orcid.org/0000-0002-1825-0097">`,
				status: tt.status,
				docs:   map[string][2]string{"/linkset": {weblink.LinksetJSONType, goodLinkset}},
			}
			base := serve(t, st)
			req, _ := http.NewRequest(http.MethodGet, base+"/record", nil)
			s, err := Fetch(context.Background(), nil, req)
			var se *paging.StatusError
			if got := errors.As(err, &se); got != tt.err || (got && se.StatusCode != tt.status) {
				t.Fatalf("Fetch error %v; want a *paging.StatusError: %v", err, tt.err)
			}
			if s == nil {
				t.Fatal("Fetch returned no Signposts")
			}
			if s.StatusCode != tt.status {
				t.Errorf("StatusCode %d, want %d", s.StatusCode, tt.status)
			}
			if got := targets(s.CiteAs); !slices.Equal(got, []string{"https://doi.org/10.5281/zenodo.1"}) {
				t.Errorf("CiteAs %q, want the header's", got)
			}
			if len(s.Authors) != tt.authors {
				t.Errorf("%d authors, want %d (from the HTML)", len(s.Authors), tt.authors)
			}
			if got := len(s.Level2) > 0; got != tt.level2 {
				t.Errorf("%d links at Level 2; want the linkset read: %v", len(s.Level2), tt.level2)
			}
			if !tt.err {
				if s.Level() != 2 {
					t.Errorf("Level() = %d, want 2", s.Level())
				}
				for _, p := range s.Check() {
					t.Errorf("problem: %s %v", p.Msg, p.Link)
				}
			}
		})
	}
}

// TestFetchCredentials sends Fetch a request with Authorization, Cookie
// and User-Agent to a landing page on origin a, whose linksets are on a
// or on origin b (127.0.0.1 on another port, where net/http alone would
// send the credentials), and records what each request carried. As the
// package documentation says: a linkset on another origin is not
// requested at all (rule 14 of package discover); the linkset on the
// origin gets the User-Agent and no credentials; a redirect of the
// landing page keeps the credentials within the origin only (rule 15 of
// package discover).
func TestFetchCredentials(t *testing.T) {
	tests := []struct {
		name     string
		start    string   // the path on a that Fetch requests
		redirect string   // where a's /start redirects to
		linksets []string // the rel="linkset" targets of /record
		want     []string // the requests, "server path: header fields of the credentials"
		level    int
	}{
		{"linkset on the origin", "/record", "", []string{"{base}/linkset"},
			[]string{"a /record: Authorization Cookie", "a /linkset:"}, 2},
		{"linkset on another origin", "/record", "", []string{"{b}/linkset"},
			[]string{"a /record: Authorization Cookie"}, 1},
		{"linksets on both origins", "/record", "", []string{"{b}/linkset", "{base}/linkset"},
			[]string{"a /record: Authorization Cookie", "a /linkset:"}, 2},
		{"landing page redirected within the origin", "/start", "{a}/record", []string{"{base}/linkset"},
			[]string{"a /start: Authorization Cookie", "a /record: Authorization Cookie", "a /linkset:"}, 2},
		{"landing page redirected to another origin", "/start", "{b}/record", []string{"{base}/linkset"},
			[]string{"a /start: Authorization Cookie", "b /record:", "b /linkset:"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			var mu sync.Mutex
			bases := map[string]string{}
			server := func(name string) string {
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					fields := name + " " + r.URL.Path + ":"
					for _, h := range []string{"Authorization", "Cookie"} {
						if r.Header.Get(h) != "" {
							fields += " " + h
						}
					}
					if ua := r.Header.Get("User-Agent"); ua != "test-agent" {
						fields += " User-Agent " + strconv.Quote(ua)
					}
					mu.Lock()
					got = append(got, fields)
					mu.Unlock()
					fill := strings.NewReplacer("{base}", bases[name], "{a}", bases["a"], "{b}", bases["b"]).Replace
					switch r.URL.Path {
					case "/start":
						http.Redirect(w, r, fill(tt.redirect), http.StatusFound)
					case "/record":
						for _, h := range without(`rel="linkset"`) {
							w.Header().Add("Link", fill(h))
						}
						for _, ls := range tt.linksets {
							w.Header().Add("Link", fill("<"+ls+`>; rel="linkset"; type="application/linkset+json"`))
						}
					case "/linkset":
						w.Header().Set("Content-Type", weblink.LinksetJSONType)
						w.Write([]byte(fill(goodLinkset)))
					default:
						http.NotFound(w, r)
					}
				}))
				t.Cleanup(srv.Close)
				return srv.URL
			}
			bases["a"], bases["b"] = server("a"), server("b")
			req, _ := http.NewRequest(http.MethodGet, bases["a"]+tt.start, nil)
			req.Header.Set("Authorization", "Bearer secret")
			req.Header.Set("Cookie", "session=secret")
			req.Header.Set("User-Agent", "test-agent")
			s, err := Fetch(context.Background(), nil, req)
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if !slices.Equal(got, tt.want) {
				t.Errorf("requests\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
			if s.Level() != tt.level {
				t.Errorf("Level() = %d, want %d", s.Level(), tt.level)
				for _, p := range s.Check() {
					t.Logf("  %s %v", p.Msg, p.Link)
				}
			}
		})
	}
}
