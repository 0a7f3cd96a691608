package paging_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weblinking/weblink/paging"
)

// bodyPage is a page of bodyAPI: its Link header and body, where "{base}"
// stands for the server's URL, and its status (0: 200).
type bodyPage struct {
	link, body string
	status     int
}

// bodyAPI serves pages by their request URI, and records the requests.
type bodyAPI struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string
	auth []string // the credentials of each request, Authorization|Cookie|X-Api-Key
	home string   // what "{home}" in a page stands for
}

func newBodyAPI(t *testing.T, pages map[string]bodyPage) *bodyAPI {
	t.Helper()
	a := &bodyAPI{}
	a.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.seen = append(a.seen, r.URL.RequestURI())
		a.auth = append(a.auth, r.Header.Get("Authorization")+"|"+r.Header.Get("Cookie")+"|"+r.Header.Get("X-Api-Key"))
		a.mu.Unlock()
		p, ok := pages[r.URL.RequestURI()]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if p.link != "" {
			w.Header().Set("Link", strings.ReplaceAll(p.link, "{base}", a.URL))
		}
		if p.status != 0 {
			w.WriteHeader(p.status)
		}
		io.WriteString(w, strings.NewReplacer("{base}", a.URL, "{home}", a.home).Replace(p.body))
	}))
	t.Cleanup(a.Close)
	return a
}

// credentials returns the credentials each request carried.
func (a *bodyAPI) credentials() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.auth)
}

func (a *bodyAPI) requests() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.seen)
}

// bodyPages ranges over Pages from path with opts, checking that each
// page's body reads whole from its first byte as served (rule 30), and
// returns the request URIs of the pages yielded and the error.
func bodyPages(t *testing.T, a *bodyAPI, pages map[string]bodyPage, path string, opts ...paging.Option) ([]string, error) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, a.URL+path, nil)
	var got []string
	for resp, err := range paging.Pages(context.Background(), a.Client(), req, opts...) {
		if err != nil {
			return got, err
		}
		uri := resp.Request.URL.RequestURI()
		got = append(got, uri)
		b, rerr := io.ReadAll(resp.Body)
		if want := strings.ReplaceAll(pages[uri].body, "{base}", a.URL); rerr != nil || string(b) != want {
			t.Errorf("page %s reads %q (error %v), want the body from its first byte, %q", uri, shortText(string(b)), rerr, shortText(want))
		}
	}
	return got, nil
}

func shortText(s string) string {
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}

func TestNextInBody(t *testing.T) {
	long := strings.Repeat("a", 70<<10)
	for _, tc := range []struct {
		name  string
		rule  int
		ptr   string
		pages map[string]bodyPage
		opts  []paging.Option
		want  []string // request URIs of the pages yielded
		err   error    // errors.Is; nil: none
		msg   string   // in the error
	}{
		{name: "header first", rule: 28, ptr: "/next",
			pages: map[string]bodyPage{
				"/1": {link: `</2>; rel="next"`, body: `{"next": "/3"}`},
				"/2": {body: `{"next": null}`},
			},
			want: []string{"/1", "/2"}},
		{name: "malformed header, body link", rule: 28, ptr: "/next",
			pages: map[string]bodyPage{
				"/1": {link: `</x>; rel="prev", <broken`, body: `{"next": "/2"}`},
				"/2": {body: `{}`},
			},
			want: []string{"/1", "/2"}},
		{name: "malformed header, no body link", rule: 28, ptr: "/next",
			pages: map[string]bodyPage{"/1": {link: `<broken`, body: `{}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink},
		{name: "string", rule: 29, ptr: "/links/next",
			pages: map[string]bodyPage{
				"/1": {body: `{"data": [1, {"a": [2, "x"]}], "links": {"self": "/1", "next": "{base}/2"}}`},
				"/2": {body: `{"data": [], "links": {"next": "/3"}, "meta": {}}`},
				"/3": {body: `{"links": {"self": "/3"}}`},
			},
			want: []string{"/1", "/2", "/3"}},
		{name: "link object", rule: 29, ptr: "/links/next",
			pages: map[string]bodyPage{
				"/1": {body: `{"links": {"next": {"meta": {"href": 1}, "href": "/2"}}}`},
				"/2": {body: `{"links": {"next": null}}`},
			},
			want: []string{"/1", "/2"}},
		{name: "empty string", rule: 29, ptr: "/links/next",
			pages: map[string]bodyPage{"/1": {body: `{"links": {"next": ""}}`}}, want: []string{"/1"}},
		{name: "null on the way", rule: 29, ptr: "/links/next",
			pages: map[string]bodyPage{"/1": {body: `{"links": null}`}}, want: []string{"/1"}},
		{name: "number", rule: 29, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": 2}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "number"},
		{name: "array", rule: 29, ptr: "/_links/next",
			pages: map[string]bodyPage{"/1": {body: `{"_links": {"next": [{"href": "/2"}]}}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "array"},
		{name: "boolean", rule: 29, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": true}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "bool"},
		{name: "object without href", rule: 29, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": {"url": "/2"}}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: `without "href"`},
		{name: "href not a string", rule: 29, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": {"href": null}}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: `"href" is null`},
		{name: "scalar on the way", rule: 29, ptr: "/links/next",
			pages: map[string]bodyPage{"/1": {body: `{"links": "/2"}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: `"/links" is string`},
		{name: "not JSON", rule: 29, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `<html>next</html>`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "invalid character"},
		{name: "empty body", rule: 29, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: ``}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "empty"},
		{name: "cut inside the value", rule: 29, ptr: "/links/next",
			pages: map[string]bodyPage{"/1": {body: `{"links": {"self": "/1", "next": {"hr`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "unexpected EOF"},
		{name: "read up to the value only", rule: 30, ptr: "/next",
			pages: map[string]bodyPage{
				"/1": {body: `{"next": "/2", "data": [` + strings.Repeat(`"x",`, 1000) + `"x"]} and then no JSON`},
				"/2": {body: `{}`},
			},
			want: []string{"/1", "/2"}},
		{name: "first member counts", rule: 30, ptr: "/next",
			pages: map[string]bodyPage{
				"/1": {body: `{"next": "/2", "next": "/9"}`},
				"/2": {body: `{"next": null, "next": "/9"}`},
			},
			want: []string{"/1", "/2"}},
		{name: "no content", rule: 30, ptr: "/next",
			pages: map[string]bodyPage{"/1": {status: http.StatusNoContent}}, want: []string{"/1"}},
		{name: "relative to the page", rule: 31, ptr: "/@odata.nextLink",
			pages: map[string]bodyPage{
				"/a/1?x=1": {body: `{"@odata.nextLink": "2?x=2"}`},
				"/a/2?x=2": {body: `{"value": []}`},
			},
			want: []string{"/a/1?x=1", "/a/2?x=2"}},
		{name: "javascript:", rule: 31, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": "javascript:alert(1)"}`}},
			want:  []string{"/1"}, err: paging.ErrScheme},
		{name: "another origin", rule: 31, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": "https://example.com/2"}`}},
			want:  []string{"/1"}, err: paging.ErrCrossOrigin},
		{name: "loop", rule: 31, ptr: "/next",
			pages: map[string]bodyPage{
				"/1": {body: `{"next": "/2"}`},
				"/2": {body: `{"next": "/1#again"}`},
			},
			want: []string{"/1", "/2"}, err: paging.ErrLoop},
		{name: "max pages", rule: 31, ptr: "/next", opts: []paging.Option{paging.MaxPages(1)},
			pages: map[string]bodyPage{"/1": {body: `{"next": "/2"}`}},
			want:  []string{"/1"}, err: paging.ErrMaxPages},
		{name: "too long", rule: 31, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": "/` + long + `"}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "64 KiB"},
		{name: "invalid UTF-8", rule: 31, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: "{\"next\": \"/2\xff\"}"}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "UTF-8"},
		{name: "lone surrogate", rule: 31, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": "/2\ud800"}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "UTF-8"},
		{name: "control character", rule: 31, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": "/2\r\nX-Evil: 1"}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "control"},
		{name: "not a URI reference", rule: 31, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": "http://[::1"}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "not a URI reference"},
		{name: "escapes", rule: 32, ptr: "/a~1b/c~0d",
			pages: map[string]bodyPage{
				"/1": {body: `{"a": {"c~d": "/x"}, "a/b": {"c/d": "/x", "c~d": "/2"}}`},
				"/2": {body: `{"a/b": {"c~d": null}}`},
			},
			want: []string{"/1", "/2"}},
		{name: "array index", rule: 32, ptr: "/links/1",
			pages: map[string]bodyPage{
				"/1": {body: `{"links": ["/9", "/2"]}`},
				"/2": {body: `{"links": ["/9"]}`},
			},
			want: []string{"/1", "/2"}},
		{name: "dash", rule: 32, ptr: "/links/-",
			pages: map[string]bodyPage{"/1": {body: `{"links": ["/9", "/2"]}`}}, want: []string{"/1"}},
		{name: "name in an array", rule: 32, ptr: "/links/next",
			pages: map[string]bodyPage{"/1": {body: `{"links": ["/2"]}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "not an index"},
		{name: "leading zero", rule: 32, ptr: "/links/01",
			pages: map[string]bodyPage{"/1": {body: `{"links": ["/2", "/3"]}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "not an index"},
		{name: "without a slash", rule: 32, ptr: "links/next",
			pages: map[string]bodyPage{"/1": {body: `{}`}}, msg: `write "/links/next"`},
		{name: "fragment form", rule: 32, ptr: "#/links/next",
			pages: map[string]bodyPage{"/1": {body: `{}`}}, msg: `without the "#"`},
		{name: "bad escape", rule: 32, ptr: "/a~b",
			pages: map[string]bodyPage{"/1": {body: `{}`}}, msg: `write "/a~0b"`},
		{name: "10 000 levels", rule: 33, ptr: "/next",
			pages: map[string]bodyPage{
				"/1": {body: `{"deep": ` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `, "next": "/2"}`},
				"/2": {body: `{}`},
			},
			want: []string{"/1", "/2"}},
		{name: "deeper", rule: 33, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"deep": ` + strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000) + `, "next": "/2"}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "deeper than 10000"},
		{name: "parallel pages one at a time", rule: 35, ptr: "/next", opts: []paging.Option{paging.Parallel(4)},
			pages: map[string]bodyPage{
				"/p?page=1": {link: `</p?page=2>; rel="next", </p?page=3>; rel="last"`, body: `{}`},
				"/p?page=2": {link: `</p?page=3>; rel="next", </p?page=3>; rel="last"`, body: `{}`},
				"/p?page=3": {link: `</p?page=3>; rel="last"`, body: `{"next": "/p?page=4"}`},
				"/p?page=4": {body: `{}`},
			},
			want: []string{"/p?page=1", "/p?page=2", "/p?page=3", "/p?page=4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newBodyAPI(t, tc.pages)
			start := "/1"
			if tc.want != nil {
				start = tc.want[0]
			}
			opts := append([]paging.Option{paging.NextInBody(tc.ptr)}, tc.opts...)
			got, err := bodyPages(t, a, tc.pages, start, opts...)
			if !slices.Equal(got, tc.want) {
				t.Errorf("rule %d: pages %q, want %q", tc.rule, got, tc.want)
			}
			switch {
			case tc.err == nil && tc.msg == "" && err != nil:
				t.Errorf("rule %d: error %v, want none", tc.rule, err)
			case tc.err != nil && !errors.Is(err, tc.err):
				t.Errorf("rule %d: error %v, want %v", tc.rule, err, tc.err)
			case tc.msg != "" && (err == nil || !strings.Contains(err.Error(), tc.msg)):
				t.Errorf("rule %d: error %v, want one saying %q", tc.rule, err, tc.msg)
			}
			if tc.want == nil && len(a.requests()) > 0 {
				t.Errorf("rule %d: %d requests sent with an invalid pointer", tc.rule, len(a.requests()))
			}
			if tc.rule == 35 {
				if reqs := a.requests(); !slices.Equal(reqs, tc.want) {
					t.Errorf("requests %q, want one per page, in order: %q", reqs, tc.want)
				}
			}
		})
	}
}

// TestNextInBodyCredentials follows, with AllowCrossOrigin, a body link to
// another origin and one from there back: the credentials of the request
// go to its origin only, never to the other one (rule 31), as for links
// of a Link header.
func TestNextInBodyCredentials(t *testing.T) {
	other := newBodyAPI(t, map[string]bodyPage{
		"/2": {body: `{"next": "{home}/3"}`},
	})
	home := newBodyAPI(t, map[string]bodyPage{
		"/1": {body: `{"next": "` + other.URL + `/2"}`},
		"/3": {body: `{"next": null}`},
	})
	other.home = home.URL
	req, _ := http.NewRequest(http.MethodGet, home.URL+"/1", nil)
	req.Header.Set("Authorization", "Bearer secret")
	req.Header.Set("Cookie", "session=secret")
	req.Header.Set("X-Api-Key", "secret")
	var got []string
	for resp, err := range paging.Pages(context.Background(), http.DefaultClient, req, paging.NextInBody("/next"), paging.AllowCrossOrigin()) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, resp.Request.URL.String())
	}
	if want := []string{home.URL + "/1", other.URL + "/2", home.URL + "/3"}; !slices.Equal(got, want) {
		t.Errorf("pages %q, want %q", got, want)
	}
	if auth := home.credentials(); !slices.Equal(auth, []string{"Bearer secret|session=secret|secret", "Bearer secret|session=secret|secret"}) {
		t.Errorf("the origin of the request got credentials %q, want them on both of its pages", auth)
	}
	if auth := other.credentials(); !slices.Equal(auth, []string{"||"}) {
		t.Errorf("the other origin got credentials %q, want none", auth)
	}
}

// TestNextInBodyRateLimit pages with WaitRateLimits through a page whose
// first answer is a 429: the page is asked for again after the wait and
// the link in the body of its 200 is followed; the body of the 429, which
// is not a page, is not read for a link (rules 28 and 31).
func TestNextInBodyRateLimit(t *testing.T) {
	var mu sync.Mutex
	refused := false
	var seen []string
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, r.URL.RequestURI())
		switch r.URL.RequestURI() {
		case "/1":
			io.WriteString(w, `{"next": "/2"}`)
		case "/2":
			if !refused {
				refused = true
				w.Header().Set("Retry-After", "0")
				w.WriteHeader(http.StatusTooManyRequests)
				io.WriteString(w, `{"next": "/refused"}`)
				return
			}
			io.WriteString(w, `{"next": "/3"}`)
		case "/3":
			io.WriteString(w, `{"next": null}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer s.Close()
	req, _ := http.NewRequest(http.MethodGet, s.URL+"/1", nil)
	var got []string
	for resp, err := range paging.Pages(context.Background(), s.Client(), req, paging.NextInBody("/next"), paging.WaitRateLimits(5*time.Second)) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, resp.Request.URL.RequestURI())
	}
	if want := []string{"/1", "/2", "/3"}; !slices.Equal(got, want) {
		t.Errorf("pages %q, want %q", got, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"/1", "/2", "/2", "/3"}; !slices.Equal(seen, want) {
		t.Errorf("requests %q, want %q (the refused page asked for again)", seen, want)
	}
}
