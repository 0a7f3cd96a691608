package paging_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/paging"
)

// perPage is the number of items on each page of an api.
const perPage = 3

// api is a real HTTP server with a paginated collection: GET .../items?page=P
// (any path ending in /items) answers a JSON array of the item numbers of
// page P, with the Link field lines links returns. It records every request
// and counts its open connections.
type api struct {
	*httptest.Server
	mu       sync.Mutex
	seen     []seenRequest
	open     atomic.Int64 // connections accepted and not yet closed
	accepted atomic.Int64 // connections accepted
}

type seenRequest struct {
	Method string
	Host   string
	URI    string // path and query
	Header http.Header
}

// newAPI starts an api with pages pages. wrap, if given, wraps the items
// handler (to add routes, errors or delays).
func newAPI(t *testing.T, pages int, links func(base string, page int) []string, wrap ...func(http.Handler) http.Handler) *api {
	t.Helper()
	a := &api{}
	var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, err := strconv.Atoi(r.URL.Query().Get("page"))
		if !strings.HasSuffix(r.URL.Path, "/items") || err != nil || page < 1 || page > pages {
			http.NotFound(w, r)
			return
		}
		for _, l := range links(a.URL, page) {
			w.Header().Add("Link", l)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(pageItems(page))
	})
	for _, f := range wrap {
		h = f(h)
	}
	a.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.seen = append(a.seen, seenRequest{Method: r.Method, Host: r.Host, URI: r.URL.RequestURI(), Header: r.Header.Clone()})
		a.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	a.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		switch s {
		case http.StateNew:
			a.open.Add(1)
			a.accepted.Add(1)
		case http.StateClosed, http.StateHijacked:
			a.open.Add(-1)
		}
	}
	a.Start()
	t.Cleanup(a.Close)
	return a
}

// requests returns the requests the api has received so far.
func (a *api) requests() []seenRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.seen)
}

// uris returns the path and query of each request received so far.
func (a *api) uris() []string {
	var out []string
	for _, r := range a.requests() {
		out = append(out, r.URI)
	}
	return out
}

// pageItems returns the item numbers on page p.
func pageItems(p int) []int {
	items := make([]int, perPage)
	for i := range items {
		items[i] = (p-1)*perPage + i + 1
	}
	return items
}

// itemsUpTo returns the items of pages first to last.
func itemsUpTo(first, last int) []int {
	var out []int
	for p := first; p <= last; p++ {
		out = append(out, pageItems(p)...)
	}
	return out
}

// nextOnly returns a links function with one absolute rel="next" link on
// every page but the last.
func nextOnly(pages int) func(string, int) []string {
	return func(base string, p int) []string {
		if p == pages {
			return nil
		}
		return []string{fmt.Sprintf(`<%s/items?page=%d>; rel="next"`, base, p+1)}
	}
}

// result is what ranging over a Pages sequence gave.
type result struct {
	items []int // decoded from every page yielded without error
	pages int   // responses yielded, with or without error
	err   error // the error yielded, nil if none
}

// collect ranges over seq, decoding every page, and checks that nothing is
// yielded after an error.
func collect(t *testing.T, seq iter.Seq2[*http.Response, error]) result {
	t.Helper()
	var r result
	for resp, err := range seq {
		if r.err != nil {
			t.Fatalf("yielded (%v, %v) after the error %v", resp, err, r.err)
		}
		if resp != nil {
			r.pages++
		}
		if err != nil {
			r.err = err
			continue
		}
		var items []int
		if err := json.NewDecoder(resp.Body).Decode(&items); err != nil {
			t.Fatalf("page %d (%s): %v", r.pages, resp.Request.URL, err)
		}
		r.items = append(r.items, items...)
	}
	return r
}

// check fails t unless r has the given items and an error matching want
// (nil: no error).
func (r result) check(t *testing.T, items []int, want error) {
	t.Helper()
	if !slices.Equal(r.items, items) {
		t.Errorf("items = %v, want %v", r.items, items)
	}
	if !errors.Is(r.err, want) {
		t.Errorf("error = %v, want %v", r.err, want)
	}
}

// getItems returns a GET request for page 1 of the items of base.
func getItems(t *testing.T, base string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+"/items?page=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// newClient returns a client with a transport of its own, closed with the
// test.
func newClient(t *testing.T) (*http.Client, *http.Transport) {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}, tr
}

func TestPagesGitHubStyle(t *testing.T) {
	const pages = 7
	a := newAPI(t, pages, func(base string, p int) []string {
		link := func(p int, rel string) string {
			return fmt.Sprintf(`<%s/items?page=%d&per_page=%d>; rel="%s"`, base, p, perPage, rel)
		}
		var ls []string
		if p > 1 {
			ls = append(ls, link(p-1, "prev"))
		}
		if p < pages {
			ls = append(ls, link(p+1, "next"))
		}
		ls = append(ls, link(pages, "last"), link(1, "first"))
		return []string{strings.Join(ls, ", ")}
	})
	var items []int
	var prev *http.Response
	n := 0
	for resp, err := range paging.Pages(context.Background(), nil, getItems(t, a.URL)) {
		n++
		if err != nil {
			t.Fatalf("page %d: %v", n, err)
		}
		// No prefetching: page n+1 is requested only after this body returns.
		if got := len(a.requests()); got != n {
			t.Errorf("page %d: the server has had %d requests", n, got)
		}
		// The previous page's body was closed when its loop body returned.
		if prev != nil {
			if _, err := prev.Body.Read(make([]byte, 1)); err == nil || err == io.EOF {
				t.Errorf("page %d: previous body still readable (err %v)", n, err)
			}
		}
		prev = resp
		var page []int
		if err := json.NewDecoder(resp.Body).Decode(&page); err != nil {
			t.Fatal(err)
		}
		items = append(items, page...)
	}
	if n != pages {
		t.Errorf("%d pages, want %d", n, pages)
	}
	if want := itemsUpTo(1, pages); !slices.Equal(items, want) {
		t.Errorf("items = %v, want %v", items, want)
	}
	// One connection serves every page.
	if got := a.accepted.Load(); got != 1 {
		t.Errorf("%d connections, want 1", got)
	}
	want := []string{"/items?page=1"}
	for p := 2; p <= pages; p++ {
		want = append(want, fmt.Sprintf("/items?page=%d&per_page=%d", p, perPage))
	}
	if got := a.uris(); !slices.Equal(got, want) {
		t.Errorf("requests = %q, want %q", got, want)
	}
}

func TestPagesRelativeLinksAfterRedirect(t *testing.T) {
	// /v1/items?page=1 moved to /v2/items?page=1; the relative links resolve
	// against /v2/ (the final URL), and /v1/items?page=2 does not exist.
	a := newAPI(t, 3, func(_ string, p int) []string {
		if p == 3 {
			return nil
		}
		return []string{fmt.Sprintf(`<items?page=%d>; rel="next"`, p+1)}
	}, redirect("/v1/items?page=1", "/v2/items?page=1"))
	req, err := http.NewRequest(http.MethodGet, a.URL+"/v1/items?page=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	collect(t, paging.Pages(context.Background(), nil, req)).check(t, itemsUpTo(1, 3), nil)
	want := []string{"/v1/items?page=1", "/v2/items?page=1", "/v2/items?page=2", "/v2/items?page=3"}
	if got := a.uris(); !slices.Equal(got, want) {
		t.Errorf("requests = %q, want %q", got, want)
	}
}

// redirect returns a wrapper for an api handler that redirects from, a path
// and query, to to, and answers 404 for other queries on the path of from.
func redirect(from, to string) func(http.Handler) http.Handler {
	path, _, _ := strings.Cut(from, "?")
	return func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.URL.RequestURI() == from:
				http.Redirect(w, r, to, http.StatusMovedPermanently)
			case r.URL.Path == path:
				http.NotFound(w, r)
			default:
				items.ServeHTTP(w, r)
			}
		})
	}
}

func TestPagesNextInSecondLinkLine(t *testing.T) {
	a := newAPI(t, 4, func(base string, p int) []string {
		lines := []string{fmt.Sprintf(`<%s/items?page=1>; rel="first", <%s/items?page=4>; rel="last"`, base, base)}
		if p < 4 {
			// A second field line, with the relation type in upper case.
			lines = append(lines, fmt.Sprintf(`</items?page=%d>; rel="Next"`, p+1))
		}
		return lines
	})
	collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL))).check(t, itemsUpTo(1, 4), nil)
	if got := len(a.requests()); got != 4 {
		t.Errorf("%d requests, want 4", got)
	}
}

func TestPagesLoop(t *testing.T) {
	for _, tc := range []struct {
		name  string
		next  string // target of the next link of page 3
		pages int    // pages yielded
	}{
		{"back to the first request", "/start", 3},
		{"back to where it redirected", "/items?page=1", 3},
		{"back with a fragment", "/items?page=2#top", 3},
		{"to itself", "", 3},
		{"to itself with a fragment", "#more", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAPI(t, 5, func(_ string, p int) []string {
				if p == 3 {
					return []string{fmt.Sprintf(`<%s>; rel="next"`, tc.next)}
				}
				return []string{fmt.Sprintf(`</items?page=%d>; rel="next"`, p+1)}
			}, redirect("/start", "/items?page=1"))
			req, err := http.NewRequest(http.MethodGet, a.URL+"/start", nil)
			if err != nil {
				t.Fatal(err)
			}
			// MaxPages ends the test if the loop is not detected.
			r := collect(t, paging.Pages(context.Background(), nil, req, paging.MaxPages(10)))
			r.check(t, itemsUpTo(1, 3), paging.ErrLoop)
			if got := len(a.requests()); got != 4 { // with the redirect
				t.Errorf("%d requests, want 4", got)
			}
		})
	}
}

// credentials are request headers that must reach only the first origin:
// the three net/http knows, the API keys of GitLab (PRIVATE-TOKEN) and
// others, and a name of the caller's own, set under a lower-case key as
// net/http sends it (rule 31 of package weblink).
var credentials = []string{"Authorization", "Cookie", "Proxy-Authorization", "PRIVATE-TOKEN", "X-Api-Key", "Api-Key", "X-Auth-Token", "X-Trace"}

// withCredentials sets credentials and the header fields that go to every
// origin on req.
func withCredentials(req *http.Request) *http.Request {
	req.Header.Set("Authorization", "Bearer secret")
	req.Header.Set("Cookie", "session=secret")
	req.Header.Set("Proxy-Authorization", "Basic c2VjcmV0")
	req.Header["PRIVATE-TOKEN"] = []string{"glpat-secret"}
	req.Header.Set("X-Api-Key", "secret")
	req.Header.Set("Api-Key", "secret")
	req.Header.Set("X-Auth-Token", "secret")
	req.Header["x-trace"] = []string{"abc"}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "weblink-test")
	return req
}

// checkCredentials fails t unless r carries the credentials exactly when
// want is true, and always carries Accept and User-Agent.
func checkCredentials(t *testing.T, r seenRequest, want bool) {
	t.Helper()
	for _, h := range credentials {
		if got := r.Header.Get(h) != ""; got != want {
			t.Errorf("%s %s: %s present = %v, want %v", r.Host, r.URI, h, got, want)
		}
	}
	if r.Header.Get("Accept") != "application/json" || r.Header.Get("User-Agent") != "weblink-test" {
		t.Errorf("%s %s: Accept %q, User-Agent %q, want application/json, weblink-test", r.Host, r.URI, r.Header.Get("Accept"), r.Header.Get("User-Agent"))
	}
}

func TestPagesCrossOrigin(t *testing.T) {
	// a's page 1 links to b's page 1 (another port: another origin), which
	// links back to a's page 2.
	var b *api
	a := newAPI(t, 2, func(_ string, p int) []string {
		if p == 1 {
			return []string{fmt.Sprintf(`<%s/items?page=1>; rel="next"`, b.URL)}
		}
		return nil
	})
	b = newAPI(t, 1, func(string, int) []string {
		return []string{fmt.Sprintf(`<%s/items?page=2>; rel="next"`, a.URL)}
	})

	t.Run("not followed by default", func(t *testing.T) {
		r := collect(t, paging.Pages(context.Background(), nil, withCredentials(getItems(t, a.URL))))
		r.check(t, pageItems(1), paging.ErrCrossOrigin)
		if got := b.requests(); len(got) != 0 {
			t.Errorf("the other origin got %d requests", len(got))
		}
	})
	before := len(a.requests())

	t.Run("AllowCrossOrigin", func(t *testing.T) {
		req := withCredentials(getItems(t, a.URL))
		req.Host = "api.example" // kept for a's pages only
		r := collect(t, paging.Pages(context.Background(), nil, req, paging.AllowCrossOrigin()))
		r.check(t, slices.Concat(pageItems(1), pageItems(1), pageItems(2)), nil)
		bs := b.requests()
		if len(bs) != 1 {
			t.Fatalf("the other origin got %d requests, want 1", len(bs))
		}
		checkCredentials(t, bs[0], false)
		if want := b.Listener.Addr().String(); bs[0].Host != want {
			t.Errorf("the other origin got Host %q, want %q", bs[0].Host, want)
		}
		as := a.requests()[before:]
		if len(as) != 2 {
			t.Fatalf("the first origin got %d requests, want 2", len(as))
		}
		for _, r := range as {
			checkCredentials(t, r, true)
			if r.Host != req.Host {
				t.Errorf("%s: Host %q, want %q", r.URI, r.Host, req.Host)
			}
		}
	})
}

func TestPagesOriginDefaultPort(t *testing.T) {
	// Every connection goes to one server whatever the URL's host, so that
	// the URLs can use default ports and other spellings of a host.
	a := newAPI(t, 3, func(_ string, p int) []string {
		switch p {
		case 1: // the same origin as http://api.example
			return []string{`<HTTP://API.Example:80/items?page=2>; rel="next"`}
		case 2: // another port, another origin
			return []string{`<http://api.example:8080/items?page=3>; rel="next"`}
		}
		return nil
	})
	client, tr := newClient(t)
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, a.Listener.Addr().String())
	}
	first := func() *http.Request { return withCredentials(getItems(t, "http://api.example")) }

	r := collect(t, paging.Pages(context.Background(), client, first()))
	r.check(t, itemsUpTo(1, 2), paging.ErrCrossOrigin)

	before := len(a.requests())
	r = collect(t, paging.Pages(context.Background(), client, first(), paging.AllowCrossOrigin()))
	r.check(t, itemsUpTo(1, 3), nil)
	got := a.requests()[before:]
	if len(got) != 3 {
		t.Fatalf("%d requests, want 3", len(got))
	}
	for i, want := range []bool{true, true, false} {
		checkCredentials(t, got[i], want)
	}
}

func TestPagesStatusError(t *testing.T) {
	a := newAPI(t, 5, nextOnly(5), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("page") == "3" {
				w.Header().Set("Link", `</items?page=4>; rel="next"`)
				http.Error(w, "database on fire", http.StatusInternalServerError)
				return
			}
			items.ServeHTTP(w, r)
		})
	})
	n := 0
	var gotErr error
	for resp, err := range paging.Pages(context.Background(), nil, getItems(t, a.URL)) {
		n++
		if n < 3 {
			if err != nil {
				t.Fatalf("page %d: %v", n, err)
			}
			continue
		}
		if resp == nil || err == nil {
			t.Fatalf("page %d: resp %v, err %v; want both", n, resp, err)
		}
		gotErr = err
		body, rerr := io.ReadAll(resp.Body)
		if rerr != nil || string(body) != "database on fire\n" {
			t.Errorf("body = %q, %v", body, rerr)
		}
	}
	if n != 3 {
		t.Errorf("%d yields, want 3", n)
	}
	var se *paging.StatusError
	if !errors.Is(gotErr, paging.ErrStatus) || !errors.As(gotErr, &se) {
		t.Fatalf("error %v is not a *StatusError matching ErrStatus", gotErr)
	}
	if se.StatusCode != 500 || se.Status != "500 Internal Server Error" || se.URL != a.URL+"/items?page=3" {
		t.Errorf("StatusError = %+v", *se)
	}
	if !strings.Contains(gotErr.Error(), "500") {
		t.Errorf("message %q does not give the status", gotErr)
	}
	if got := len(a.requests()); got != 3 {
		t.Errorf("%d requests, want 3", got)
	}
}

func TestPagesCancelInFlight(t *testing.T) {
	arrived := make(chan struct{})
	a := newAPI(t, 3, nextOnly(3), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("page") == "2" {
				close(arrived)
				select { // slow: answers only when the client gives up
				case <-r.Context().Done():
				case <-time.After(10 * time.Second):
				}
			}
			items.ServeHTTP(w, r)
		})
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-arrived
		cancel()
	}()
	start := time.Now()
	r := collect(t, paging.Pages(ctx, nil, getItems(t, a.URL)))
	r.check(t, pageItems(1), context.Canceled)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v after cancellation", d)
	}
	if r.pages != 1 {
		t.Errorf("%d responses yielded, want 1", r.pages)
	}
}

func TestPagesCancelBetweenPages(t *testing.T) {
	a := newAPI(t, 3, nextOnly(3))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec := &recorder{next: http.DefaultTransport}
	var r result
	for resp, err := range paging.Pages(ctx, &http.Client{Transport: rec}, getItems(t, a.URL)) {
		if resp != nil {
			r.pages++
		}
		r.err = err
		cancel()
	}
	if r.pages != 1 || !errors.Is(r.err, context.Canceled) {
		t.Errorf("pages %d, error %v; want 1 page and context.Canceled", r.pages, r.err)
	}
	if len(rec.urls) != 1 {
		t.Errorf("requests attempted: %q, want only page 1", rec.urls)
	}
}

// recorder is an http.RoundTripper that records the URL of every request
// before passing it on.
type recorder struct {
	mu   sync.Mutex
	urls []string
	next http.RoundTripper
}

func (rt *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	rt.mu.Lock()
	rt.urls = append(rt.urls, req.URL.String())
	rt.mu.Unlock()
	return rt.next.RoundTrip(req)
}

func TestPagesNonHTTPNeverRequested(t *testing.T) {
	for _, target := range []string{
		"ftp://example.com/items?page=2",
		"file:///etc/passwd",
		"javascript:alert(1)",
		"mailto:admin@example.com",
		"data:text/plain,page2",
		"gopher://example.com/1",
		"http:/items?page=2", // no host
		"urn:isbn:0451450523",
	} {
		t.Run(target, func(t *testing.T) {
			a := newAPI(t, 2, func(string, int) []string {
				return []string{fmt.Sprintf(`<%s>; rel="next"`, target)}
			})
			_, tr := newClient(t)
			rec := &recorder{next: tr}
			r := collect(t, paging.Pages(context.Background(), &http.Client{Transport: rec}, getItems(t, a.URL)))
			r.check(t, pageItems(1), paging.ErrScheme)
			if want := []string{a.URL + "/items?page=1"}; !slices.Equal(rec.urls, want) {
				t.Errorf("requests attempted: %q, want %q", rec.urls, want)
			}
		})
	}
	t.Run("first request", func(t *testing.T) {
		rec := &recorder{next: http.DefaultTransport}
		req, err := http.NewRequest(http.MethodGet, "ftp://example.com/items", nil)
		if err != nil {
			t.Fatal(err)
		}
		collect(t, paging.Pages(context.Background(), &http.Client{Transport: rec}, req)).check(t, nil, paging.ErrScheme)
		if len(rec.urls) != 0 {
			t.Errorf("requests attempted: %q", rec.urls)
		}
	})
}

func TestPagesKeepsCallerHeaders(t *testing.T) {
	a := newAPI(t, 3, nextOnly(3))
	req := getItems(t, a.URL)
	req.Header.Set("Accept", "application/vnd.example+json")
	req.Header.Set("User-Agent", "weblink-test/1")
	req.Header.Add("X-Api-Version", "2024-01-01")
	req.Header.Add("X-Api-Version", "beta")
	withCredentials(req)
	collect(t, paging.Pages(context.Background(), nil, req)).check(t, itemsUpTo(1, 3), nil)
	seen := a.requests()
	if len(seen) != 3 {
		t.Fatalf("%d requests, want 3", len(seen))
	}
	for _, r := range seen {
		checkCredentials(t, r, true)
		for _, h := range []string{"Accept", "User-Agent", "X-Api-Version"} {
			if got, want := r.Header.Values(h), req.Header.Values(h); !slices.Equal(got, want) {
				t.Errorf("%s: %s = %q, want %q", r.URI, h, got, want)
			}
		}
	}
	if req.URL.String() != a.URL+"/items?page=1" {
		t.Errorf("the caller's request was modified: %s", req.URL)
	}
}

func TestPagesBreakLeaksNothing(t *testing.T) {
	const pages = 5
	goroutines := runtime.NumGoroutine()
	for breakAt := 1; breakAt <= pages; breakAt++ {
		for _, read := range []bool{false, true} {
			t.Run(fmt.Sprintf("page %d read %v", breakAt, read), func(t *testing.T) {
				a := newAPI(t, pages, nextOnly(pages))
				client, tr := newClient(t)
				var last *http.Response
				n := 0
				for resp, err := range paging.Pages(context.Background(), client, getItems(t, a.URL)) {
					if err != nil {
						t.Fatal(err)
					}
					n++
					if read {
						if _, err := io.ReadAll(resp.Body); err != nil {
							t.Fatal(err)
						}
					}
					if n == breakAt {
						last = resp
						break
					}
				}
				if _, err := last.Body.Read(make([]byte, 1)); err == nil || err == io.EOF {
					t.Errorf("body still open after break (read: %v)", err)
				}
				if got := len(a.requests()); got != breakAt {
					t.Errorf("%d requests, want %d", got, breakAt)
				}
				tr.CloseIdleConnections()
				waitFor(t, "connections to close", func() bool { return a.open.Load() == 0 })
			})
		}
	}
	waitFor(t, "goroutines to end", func() bool { return runtime.NumGoroutine() <= goroutines })
}

// waitFor fails t unless cond becomes true within 5 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	waitWithin(t, 5*time.Second, what, cond)
}

// waitWithin fails t unless cond becomes true within d.
func waitWithin(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func TestPagesMethodRejected(t *testing.T) {
	a := newAPI(t, 2, nextOnly(2))
	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, "PROPFIND"} {
		req, err := http.NewRequest(method, a.URL+"/items?page=1", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		r := collect(t, paging.Pages(context.Background(), nil, req))
		r.check(t, nil, paging.ErrMethod)
		if r.pages != 0 {
			t.Errorf("%s: %d responses", method, r.pages)
		}
	}
	if got := a.requests(); len(got) != 0 {
		t.Errorf("%d requests sent", len(got))
	}
	r := collect(t, paging.Pages(context.Background(), nil, nil))
	if r.err == nil || !strings.Contains(r.err.Error(), "NewRequest") {
		t.Errorf("nil request: error %v does not say how to make one", r.err)
	}
}

func TestPagesHead(t *testing.T) {
	a := newAPI(t, 3, nextOnly(3))
	req, err := http.NewRequest(http.MethodHead, a.URL+"/items?page=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, err := range paging.Pages(context.Background(), nil, req) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	var methods []string
	for _, r := range a.requests() {
		methods = append(methods, r.Method)
	}
	if n != 3 || !slices.Equal(methods, []string{"HEAD", "HEAD", "HEAD"}) {
		t.Errorf("%d pages, methods %q; want 3 HEAD", n, methods)
	}
}

func TestPagesBeforeNext(t *testing.T) {
	a := newAPI(t, 4, nextOnly(4), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-RateLimit-Remaining", "page "+r.URL.Query().Get("page"))
			items.ServeHTTP(w, r)
		})
	})
	page := func(u *url.URL) string { return u.Query().Get("page") }

	t.Run("modify", func(t *testing.T) {
		var calls []string
		hook := paging.BeforeNext(func(prev *http.Response, next *http.Request) error {
			calls = append(calls, page(prev.Request.URL)+"->"+page(next.URL)+" "+prev.Header.Get("X-RateLimit-Remaining"))
			next.Header.Set("X-Signature", "sig-"+page(next.URL))
			return nil
		})
		collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL), hook)).check(t, itemsUpTo(1, 4), nil)
		if want := []string{"1->2 page 1", "2->3 page 2", "3->4 page 3"}; !slices.Equal(calls, want) {
			t.Errorf("BeforeNext calls = %q, want %q", calls, want)
		}
		for _, r := range a.requests() {
			want := "sig-" + strings.TrimPrefix(r.URI, "/items?page=")
			if r.URI == "/items?page=1" {
				want = ""
			}
			if got := r.Header.Get("X-Signature"); got != want {
				t.Errorf("%s: X-Signature = %q, want %q", r.URI, got, want)
			}
		}
	})

	t.Run("refuse", func(t *testing.T) {
		errWait := errors.New("rate limit exhausted")
		before := len(a.requests())
		hook := paging.BeforeNext(func(_ *http.Response, next *http.Request) error {
			if page(next.URL) == "3" {
				return errWait
			}
			return nil
		})
		r := collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL), hook))
		r.check(t, itemsUpTo(1, 2), errWait)
		if got := len(a.requests()) - before; got != 2 {
			t.Errorf("%d requests, want 2", got)
		}
	})
}

func TestPagesMaxPages(t *testing.T) {
	const pages = 5
	for _, tc := range []struct {
		n     int
		pages int
		err   error
	}{
		{1, 1, paging.ErrMaxPages},
		{2, 2, paging.ErrMaxPages},
		{4, 4, paging.ErrMaxPages},
		{5, 5, nil}, // the 5th page has no next link
		{6, 5, nil},
		{0, 5, nil},  // no limit
		{-1, 5, nil}, // no limit
	} {
		t.Run(strconv.Itoa(tc.n), func(t *testing.T) {
			a := newAPI(t, pages, nextOnly(pages))
			r := collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL), paging.MaxPages(tc.n)))
			r.check(t, itemsUpTo(1, tc.pages), tc.err)
			if got := len(a.requests()); got != tc.pages {
				t.Errorf("%d requests, want %d", got, tc.pages)
			}
			if tc.err != nil && !strings.Contains(r.err.Error(), "MaxPages") {
				t.Errorf("message %q does not say how to raise the limit", r.err)
			}
			// "1 page fetched", not "1 pages" (#37).
			if want := fmt.Sprintf(": %d %s fetched", tc.n, map[bool]string{true: "page", false: "pages"}[tc.n == 1]); tc.err != nil && !strings.Contains(r.err.Error(), want) {
				t.Errorf("message %q does not say %q", r.err, want)
			}
		})
	}
}

func TestPagesMalformedLinkHeader(t *testing.T) {
	for _, tc := range []struct {
		name   string
		header string // Link of page 1; page 2 has none
		pages  int
		err    []error
	}{
		{"cut short", `</items?page=2>; rel="next"; title="Page 2 of`, 1, []error{paging.ErrNextLink, weblink.ErrSyntax}},
		{"next link broken", `</items?page=2> rel="next"`, 1, []error{paging.ErrNextLink, weblink.ErrSyntax}},
		{"next target not a URI", `<http://[::1/items?page=2>; rel="next"`, 1, []error{paging.ErrNextLink}},
		{"usable next despite a broken link-value", `junk; rel="last", </items?page=2>; rel="next"`, 2, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAPI(t, 2, func(_ string, p int) []string {
				if p == 1 {
					return []string{tc.header}
				}
				return nil
			})
			r := collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL)))
			for _, want := range tc.err {
				r.check(t, itemsUpTo(1, tc.pages), want)
			}
			if tc.err == nil {
				r.check(t, itemsUpTo(1, tc.pages), nil)
			}
			if got := len(a.requests()); got != tc.pages {
				t.Errorf("%d requests, want %d", got, tc.pages)
			}
		})
	}
}

func TestPagesRestartsOnEachRange(t *testing.T) {
	a := newAPI(t, 2, nextOnly(2))
	seq := paging.Pages(context.Background(), nil, getItems(t, a.URL))
	for i := 0; i < 2; i++ {
		collect(t, seq).check(t, itemsUpTo(1, 2), nil)
	}
	if got := len(a.requests()); got != 4 {
		t.Errorf("%d requests, want 4", got)
	}
}

func TestPagesReusesConnectionWhenBodyUnread(t *testing.T) {
	a := newAPI(t, 4, nextOnly(4))
	n := 0
	for _, err := range paging.Pages(context.Background(), nil, getItems(t, a.URL)) {
		if err != nil {
			t.Fatal(err)
		}
		n++ // the body is not read: Pages drains it before the next request
	}
	if n != 4 || a.accepted.Load() != 1 {
		t.Errorf("%d pages over %d connections, want 4 over 1", n, a.accepted.Load())
	}
}

// noRequest is an http.RoundTripper that returns responses without their
// Request, as some test doubles do.
type noRequest struct{ next http.RoundTripper }

func (rt noRequest) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := rt.next.RoundTrip(req)
	if resp != nil {
		resp.Request = nil
	}
	return resp, err
}

func TestPagesTransportWithoutRequest(t *testing.T) {
	a := newAPI(t, 3, func(_ string, p int) []string {
		if p == 3 {
			return nil
		}
		return []string{fmt.Sprintf(`<?page=%d>; rel="next"`, p+1)}
	})
	_, tr := newClient(t)
	client := &http.Client{Transport: noRequest{tr}}
	collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL))).check(t, itemsUpTo(1, 3), nil)
}

func TestNextURL(t *testing.T) {
	base, err := url.Parse("https://api.example/v2/items?page=1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		lines []string
		req   bool // whether resp.Request is set
		want  string
	}{
		{"none", nil, true, ""},
		{"no next", []string{`<?page=9>; rel="last"`}, true, ""},
		{"relative", []string{`<?page=2>; rel="next"`}, true, "https://api.example/v2/items?page=2"},
		{"dot segments", []string{`<../v3/items?page=2>; rel="next"`}, true, "https://api.example/v3/items?page=2"},
		{"absolute", []string{`<http://other.example/p2>; rel="next"`}, true, "http://other.example/p2"},
		{"second line, upper case", []string{`<?page=9>; rel="last"`, `<?page=2>; REL="NEXT"`}, true, "https://api.example/v2/items?page=2"},
		{"first of two", []string{`<?page=2>; rel="prev next", <?page=3>; rel="next"`}, true, "https://api.example/v2/items?page=2"},
		{"not a URI", []string{`<http://[::1>; rel="next"`}, true, ""},
		{"malformed", []string{`<?page=2>; rel="next"; title="cut`}, true, ""},
		{"no request", []string{`<?page=2>; rel="next"`}, false, "?page=2"},
		{"anchored elsewhere", []string{`<?page=7>; rel="next"; anchor="/other", <?page=2>; rel="next"`}, true, "https://api.example/v2/items?page=2"},
		{"anchored at the page", []string{`<?page=2>; rel="next"; anchor="#results"`}, true, "https://api.example/v2/items?page=2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := &http.Response{Header: http.Header{"Link": tc.lines}}
			if tc.req {
				resp.Request = &http.Request{URL: base}
			}
			u, ok := weblink.NextURL(resp)
			if ok != (tc.want != "") || ok && u.String() != tc.want {
				t.Errorf("NextURL = %v, %v; want %q", u, ok, tc.want)
			}
		})
	}
}

func TestNextURLNil(t *testing.T) {
	if u, ok := weblink.NextURL(nil); ok || u != nil {
		t.Errorf("NextURL(nil) = %v, %v", u, ok)
	}
}

// TestPagesRedirectToOtherOrigin checks that credentials do not follow a
// redirect to another port of the same host, which net/http alone allows.
func TestPagesRedirectToOtherOrigin(t *testing.T) {
	b := newAPI(t, 2, nextOnly(2))
	a := newAPI(t, 1, func(string, int) []string { return []string{`</moved>; rel="next"`} },
		func(items http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/moved" {
					http.Redirect(w, r, b.URL+"/items?page=2", http.StatusFound)
					return
				}
				items.ServeHTTP(w, r)
			})
		})
	client, _ := newClient(t)
	redirects := 0
	client.CheckRedirect = func(*http.Request, []*http.Request) error { redirects++; return nil }
	r := collect(t, paging.Pages(context.Background(), client, withCredentials(getItems(t, a.URL))))
	r.check(t, itemsUpTo(1, 2), nil)
	if redirects != 1 {
		t.Errorf("the client's CheckRedirect ran %d times, want 1", redirects)
	}
	got := a.requests()
	if len(got) != 2 {
		t.Fatalf("a got %d requests, want 2", len(got))
	}
	checkCredentials(t, got[0], true)
	checkCredentials(t, got[1], true) // /moved is on a's origin
	for _, req := range b.requests() {
		checkCredentials(t, req, false)
	}
	if len(b.requests()) != 1 {
		t.Errorf("b got %d requests, want 1", len(b.requests()))
	}
}

func TestPagesBeforeNextLeavesReqAlone(t *testing.T) {
	a := newAPI(t, 3, nextOnly(3))
	req := withCredentials(getItems(t, a.URL))
	want := req.Header.Clone()
	hook := paging.BeforeNext(func(_ *http.Response, next *http.Request) error {
		next.Header.Set("X-Signature", "sig")
		next.Header.Del("Authorization")
		next.URL.RawQuery += "&signed=1"
		return nil
	})
	collect(t, paging.Pages(context.Background(), nil, req, hook)).check(t, itemsUpTo(1, 3), nil)
	if !reflect.DeepEqual(req.Header, want) || req.URL.RawQuery != "page=1" {
		t.Errorf("req changed: header %v, query %q", req.Header, req.URL.RawQuery)
	}
	if got := a.uris(); !slices.Equal(got, []string{"/items?page=1", "/items?page=2&signed=1", "/items?page=3&signed=1"}) {
		t.Errorf("requests %q", got)
	}
}

// TestEndToEndPagination: a server that writes its links with PageLinks
// under Middleware, paged by Pages: every item once, in order, with the
// query parameters kept and the middleware's links on every page.
func TestEndToEndPagination(t *testing.T) {
	const perPage, total = 3, 10
	lastPage := (total + perPage - 1) / perPage
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page := 1
		if s := r.URL.Query().Get("page"); s != "" {
			var err error
			if page, err = strconv.Atoi(s); err != nil || page < 1 || page > lastPage {
				http.Error(w, "bad page", http.StatusBadRequest)
				return
			}
		}
		if r.URL.Query().Get("sort") != "name" {
			http.Error(w, "lost the sort parameter", http.StatusBadRequest)
			return
		}
		var items []int
		for i := (page-1)*perPage + 1; i <= min(page*perPage, total); i++ {
			items = append(items, i)
		}
		weblink.Add(w.Header(), weblink.PageLinks(r.URL, "page", page, lastPage)...)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(items)
	})
	schemaLink := weblink.Link{Target: "/schema.json", Rel: []string{"describedby"}, Type: "application/schema+json"}
	srv := httptest.NewServer(weblink.Middleware(schemaLink)(api))
	defer srv.Close()

	// The client side is the Pages iterator, following the links that
	// PageLinks wrote and Middleware kept.
	req, err := http.NewRequest(http.MethodGet, srv.URL+"/items?sort=name&per_page=3#top", nil)
	if err != nil {
		t.Fatal(err)
	}
	var all []int
	pages := 0
	for resp, err := range paging.Pages(context.Background(), srv.Client(), req, paging.MaxPages(lastPage+1)) {
		if err != nil {
			t.Fatal(err)
		}
		pages++
		var items []int
		if err := json.NewDecoder(resp.Body).Decode(&items); err != nil {
			t.Fatalf("page %d: %v", pages, err)
		}
		all = append(all, items...)
		links, err := weblink.ParseResponse(resp)
		if err != nil {
			t.Fatal(err)
		}
		if d, ok := links.Rel("describedby"); !ok || d.Target != srv.URL+"/schema.json" {
			t.Errorf("page %d: describedby %v, %v", pages, d, ok)
		}
		if f, _ := links.Rel("first"); f.Target != srv.URL+"/items?sort=name&per_page=3&page=1" {
			t.Errorf("page %d: first = %q", pages, f.Target)
		}
	}
	want := make([]int, total)
	for i := range want {
		want[i] = i + 1
	}
	if pages != lastPage || !slices.Equal(all, want) {
		t.Errorf("%d pages with %v, want %d pages with %v", pages, all, lastPage, want)
	}
}
