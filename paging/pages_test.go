package paging_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	"github.com/weblinking/weblink/internal/benchdata"
	"github.com/weblinking/weblink/internal/memtest"
	"github.com/weblinking/weblink/internal/rawpeer"
	"github.com/weblinking/weblink/paging"
)

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

// TestPagesLookalikeHost follows a next link to a host that differs from
// the first page's only by a character outside ASCII: strings.ToLower makes
// api.gİthub.test api.github.test, but net/http sends the request to
// api.xn--github-qyd.test, another host. Every host that is not plain
// ASCII is another origin than every other host (rule 30 of package weblink): not followed
// without AllowCrossOrigin, and without credentials with it.
func TestPagesLookalikeHost(t *testing.T) {
	for _, tc := range []struct{ name, home, next string }{
		// net/http dials api.xn--github-qyd.test.
		{"dotted capital I", "http://api.github.test", "http://api.g%C4%B0thub.test"},
		// strings.ToLower makes ẞ ß, but net/http dials api.githuss.test
		// for ẞ and api.xn--githu-9ua.test for ß.
		{"capital sharp s", "http://api.githu%C3%9F.test", "http://api.githu%E1%BA%9E.test"},
		// The Kelvin sign: net/http dials k.example, the same host; still
		// another origin, as every host that is not plain ASCII.
		{"Kelvin sign", "http://k.example", "http://%E2%84%AA.example"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newHostSim(t, func(w http.ResponseWriter, r *http.Request, u string) {
				if strings.HasSuffix(u, "?page=1") {
					page(w, 1, tc.next+"/items?page=2")
					return
				}
				page(w, 2, "")
			})
			checkOtherOrigin(t, s, withCredentials(getItems(t, tc.home)))
		})
	}
}

// checkOtherOrigin pages req twice on s, whose first page links to a
// second and last page on another origin: without AllowCrossOrigin, it is
// not requested (ErrCrossOrigin); with it, it is, without credentials.
func checkOtherOrigin(t *testing.T, s *hostSim, req *http.Request) {
	t.Helper()
	collect(t, paging.Pages(context.Background(), s.client, req)).check(t, pageItems(1), paging.ErrCrossOrigin)
	collect(t, paging.Pages(context.Background(), s.client, req, paging.AllowCrossOrigin())).check(t, itemsUpTo(1, 2), nil)
	got := s.requests()
	if len(got) != 3 {
		t.Fatalf("%d requests, want 3", len(got))
	}
	checkCredentials(t, got[0], true)
	checkCredentials(t, got[1], true)
	checkCredentials(t, got[2], false)
}

// hostSim serves example.com and its subdomains over http (as port 80) and
// https (as port 443) from two servers on 127.0.0.1, with a client that
// dials them whatever the host. route answers each request, given its
// scheme, host and page.
type hostSim struct {
	client *http.Client
	mu     sync.Mutex
	seen   []seenRequest // URI is scheme://host/path?query
}

func newHostSim(t *testing.T, route func(w http.ResponseWriter, r *http.Request, url string)) *hostSim {
	s := &hostSim{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		u := scheme + "://" + r.Host + r.URL.RequestURI()
		s.mu.Lock()
		s.seen = append(s.seen, seenRequest{Method: r.Method, Host: r.Host, URI: u, Header: r.Header.Clone()})
		s.mu.Unlock()
		route(w, r, u)
	})
	plain := httptest.NewServer(h)
	t.Cleanup(plain.Close)
	secure := httptest.NewTLSServer(h)
	t.Cleanup(secure.Close)
	tr := secure.Client().Transport.(*http.Transport).Clone()
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		_, port, _ := net.SplitHostPort(addr)
		to := plain.Listener.Addr().String()
		if port == "443" {
			to = secure.Listener.Addr().String()
		}
		var d net.Dialer
		return d.DialContext(ctx, network, to)
	}
	// The test certificate is for example.com, and since Go 1.23.x for
	// *.example.com too: every host is verified as example.com, so that the
	// client verifies the certificate on every Go the module supports.
	tr.TLSClientConfig.ServerName = "example.com"
	t.Cleanup(tr.CloseIdleConnections)
	s.client = &http.Client{Transport: tr}
	return s
}

func (s *hostSim) requests() []seenRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.seen)
}

// sent is a request that a hostSim should have received, and whether it
// carried the credentials.
type sent struct {
	uri   string
	creds bool
}

// check fails t unless s received the requests want, in order.
func (s *hostSim) check(t *testing.T, want []sent) {
	t.Helper()
	got := s.requests()
	if len(got) != len(want) {
		t.Fatalf("%d requests, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].URI != w.uri {
			t.Errorf("request %d: %s, want %s", i+1, got[i].URI, w.uri)
		}
		checkCredentials(t, got[i], w.creds)
	}
}

// page writes page p of the items with a next link to next, if any.
func page(w http.ResponseWriter, p int, next string) {
	if next != "" {
		w.Header().Set("Link", "<"+next+`>; rel="next"`)
	}
	fmt.Fprint(w, "[")
	for i, item := range pageItems(p) {
		if i > 0 {
			fmt.Fprint(w, ",")
		}
		fmt.Fprint(w, item)
	}
	fmt.Fprint(w, "]")
}

func TestPagesCanonicalHostRedirect(t *testing.T) {
	// example.com redirects to its canonical host www.example.com, whose
	// pages link on www (followed: the first page ended up there), then
	// back to example.com (followed: req's origin), then elsewhere (not).
	s := newHostSim(t, func(w http.ResponseWriter, r *http.Request, u string) {
		switch u {
		case "http://example.com/items?page=1":
			http.Redirect(w, r, "http://www.example.com/items?page=1", http.StatusMovedPermanently)
		case "http://www.example.com/items?page=1":
			page(w, 1, "http://www.example.com/items?page=2")
		case "http://www.example.com/items?page=2":
			page(w, 2, "http://example.com/items?page=3")
		case "http://example.com/items?page=3":
			page(w, 3, "http://api.example.com/items?page=4")
		default:
			http.NotFound(w, r)
		}
	})
	req := withCredentials(getItems(t, "http://example.com"))
	collect(t, paging.Pages(context.Background(), s.client, req)).check(t, itemsUpTo(1, 3), paging.ErrCrossOrigin)
	s.check(t, []sent{
		{"http://example.com/items?page=1", true},
		{"http://www.example.com/items?page=1", false}, // another host: no credentials, though net/http would send them to a subdomain
		{"http://www.example.com/items?page=2", false},
		{"http://example.com/items?page=3", true},
	})
}

func TestPagesHTTPSUpgrade(t *testing.T) {
	// http://example.com redirects to https://example.com, where paging goes
	// on with the credentials (its https upgrade); page 2 redirects to
	// www.example.com, which does not move the origin: its next link is
	// not followed, and it gets no credentials.
	s := newHostSim(t, func(w http.ResponseWriter, r *http.Request, u string) {
		switch u {
		case "http://example.com/items?page=1":
			http.Redirect(w, r, "https://example.com/items?page=1", http.StatusMovedPermanently)
		case "https://example.com/items?page=1":
			page(w, 1, "/items?page=2")
		case "https://example.com/items?page=2":
			http.Redirect(w, r, "https://www.example.com/items?page=2", http.StatusFound)
		case "https://www.example.com/items?page=2":
			page(w, 2, "/items?page=3")
		default:
			http.NotFound(w, r)
		}
	})
	req := withCredentials(getItems(t, "http://example.com"))
	collect(t, paging.Pages(context.Background(), s.client, req)).check(t, itemsUpTo(1, 2), paging.ErrCrossOrigin)
	s.check(t, []sent{
		{"http://example.com/items?page=1", true},
		{"https://example.com/items?page=1", true},
		{"https://example.com/items?page=2", true},
		{"https://www.example.com/items?page=2", false},
	})
}

func TestPagesCredentialsNotDowngraded(t *testing.T) {
	// From https, the http origin of the same host is not an upgrade: a
	// next link there is another origin, and gets no credentials even with
	// AllowCrossOrigin.
	s := newHostSim(t, func(w http.ResponseWriter, r *http.Request, u string) {
		switch u {
		case "https://example.com/items?page=1":
			page(w, 1, "http://example.com/items?page=2")
		case "http://example.com/items?page=2":
			page(w, 2, "")
		default:
			http.NotFound(w, r)
		}
	})
	checkOtherOrigin(t, s, withCredentials(getItems(t, "https://example.com")))
}

func TestPagesRequestContext(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	for _, tc := range []struct {
		name     string
		ctx, req context.Context
		want     error
	}{
		{"req.Context() cancelled", context.Background(), cancelled, context.Canceled},
		{"req.Context() past its deadline", context.Background(), expired, context.DeadlineExceeded},
		{"ctx cancelled", cancelled, context.Background(), context.Canceled},
		{"both", expired, cancelled, context.DeadlineExceeded}, // ctx is looked at first
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAPI(t, 2, nextOnly(2))
			rec := &recorder{next: http.DefaultTransport}
			req := getItems(t, a.URL).WithContext(tc.req)
			n := 0
			var got error
			for resp, err := range paging.Pages(tc.ctx, &http.Client{Transport: rec}, req) {
				n++
				if resp != nil {
					t.Errorf("a response was yielded")
				}
				got = err
			}
			if n != 1 || !errors.Is(got, tc.want) {
				t.Errorf("%d yields, error %v; want one, %v", n, got, tc.want)
			}
			if len(rec.urls) != 0 {
				t.Errorf("requests sent: %q", rec.urls)
			}
		})
	}
}

func TestPagesRequestContextCancelled(t *testing.T) {
	before := runtime.NumGoroutine()
	t.Run("between pages", func(t *testing.T) {
		a := newAPI(t, 3, nextOnly(3))
		rctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		r := result{}
		for resp, err := range paging.Pages(context.Background(), nil, getItems(t, a.URL).WithContext(rctx)) {
			if resp != nil {
				r.pages++
			}
			r.err = err
			cancel()
		}
		if r.pages != 1 || !errors.Is(r.err, context.Canceled) || len(a.requests()) != 1 {
			t.Errorf("%d pages, %d requests, error %v; want 1, 1, context.Canceled", r.pages, len(a.requests()), r.err)
		}
	})
	t.Run("in flight", func(t *testing.T) {
		arrived := make(chan struct{})
		a := newAPI(t, 3, nextOnly(3), func(items http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Query().Get("page") == "2" {
					close(arrived)
					select {
					case <-r.Context().Done():
					case <-time.After(10 * time.Second):
					}
				}
				items.ServeHTTP(w, r)
			})
		})
		rctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		go func() {
			<-arrived
			cancel()
		}()
		start := time.Now()
		r := collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL).WithContext(rctx)))
		r.check(t, pageItems(1), context.Canceled)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("took %v after req.Context() was cancelled", d)
		}
	})
	waitFor(t, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
}

// A body that never ends: breaking out of the loop body returns at once,
// requests nothing more and leaves no goroutine behind, for Pages and for
// Items whose decode reads part of the page.
func TestPagesEndlessBodyBreak(t *testing.T) {
	var handlers atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		handlers.Add(1)
		defer handlers.Add(-1)
		w.Header().Set("Link", `</items?page=2>; rel="next"`)
		buf := make([]byte, 4096)
		for i := range buf {
			buf[i] = '1'
		}
		for r.Context().Err() == nil {
			if _, err := w.Write(buf); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	before := runtime.NumGoroutine()
	client, tr := newClient(t)
	start := time.Now()
	n := 0
	for resp, err := range paging.Pages(context.Background(), client, getItems(t, srv.URL), paging.WaitRateLimits(time.Minute)) {
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(resp.Body, make([]byte, 100000)); err != nil {
			t.Fatal(err)
		}
		n++
		break
	}
	decode := func(resp *http.Response) ([]int, error) {
		_, err := io.ReadFull(resp.Body, make([]byte, 100000))
		return []int{1, 2, 3}, err
	}
	for item, err := range paging.Items(context.Background(), client, getItems(t, srv.URL), decode) {
		if err != nil {
			t.Fatal(err)
		}
		n += item
		if item == 2 {
			break
		}
	}
	if d := time.Since(start); d > 2*time.Second || n != 4 {
		t.Errorf("took %v, n %d", d, n)
	}
	tr.CloseIdleConnections()
	waitFor(t, "handlers to end", func() bool { return handlers.Load() == 0 })
	waitFor(t, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
}

// ctx cancelled while the drain waits on a trickling body: the iteration
// ends at once, with the context's error, and requests nothing more.
func TestPagesCancelDuringDrain(t *testing.T) {
	var requests atomic.Int32
	trickling := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Link", `</items?page=2>; rel="next"`)
		w.Write([]byte("["))
		w.(http.Flusher).Flush()
		trickling <- struct{}{}
		<-r.Context().Done()
	}))
	defer srv.Close()
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client, tr := newClient(t)
	var start time.Time
	var last error
	for _, err := range paging.Pages(ctx, client, getItems(t, srv.URL)) {
		if err != nil {
			last = err
			continue
		}
		<-trickling
		start = time.Now()
		time.AfterFunc(100*time.Millisecond, cancel) // while the drain waits
	}
	if d := time.Since(start); d > 700*time.Millisecond {
		t.Errorf("the drain went on %v after the cancellation at 100 ms", d)
	}
	if !errors.Is(last, context.Canceled) || requests.Load() != 1 {
		t.Errorf("error %v after %d requests; want context.Canceled after 1", last, requests.Load())
	}
	tr.CloseIdleConnections()
	waitFor(t, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
}

// A page that redirects in a loop ends the iteration with client.Do's
// error naming it; a later page redirected to another origin gets no
// credentials, and its next links (on that origin) are not followed.
func TestPagesRedirectsMidIteration(t *testing.T) {
	b := newAPI(t, 5, func(string, int) []string { return []string{`</items?page=4>; rel="next"`} })
	a := newAPI(t, 5, nextOnly(5), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Query().Get("page") {
			case "2":
				http.Redirect(w, r, b.URL+"/items?page=3", http.StatusTemporaryRedirect)
			case "9":
				http.Redirect(w, r, "/items?page=9&x="+r.URL.Query().Get("x")+"x", http.StatusFound)
			default:
				items.ServeHTTP(w, r)
			}
		})
	})
	loop := newAPI(t, 1, func(string, int) []string { return []string{`</items?page=9>; rel="next"`} }, func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("page") == "9" {
				http.Redirect(w, r, "/items?page=9&x="+r.URL.Query().Get("x")+"x", http.StatusFound)
				return
			}
			items.ServeHTTP(w, r)
		})
	})
	before := runtime.NumGoroutine()
	r := collect(t, paging.Pages(context.Background(), nil, withCredentials(getItems(t, a.URL))))
	r.check(t, append(pageItems(1), pageItems(3)...), paging.ErrCrossOrigin)
	for _, req := range b.requests() {
		checkCredentials(t, req, false)
	}
	if len(b.requests()) != 1 {
		t.Errorf("b got %d requests, want 1", len(b.requests()))
	}

	r = collect(t, paging.Pages(context.Background(), nil, getItems(t, loop.URL)))
	if r.err == nil || errors.Is(r.err, paging.ErrStatus) || r.pages != 1 || len(loop.requests()) != 11 {
		t.Errorf("error %v, %d pages, %d requests; want client.Do's error after page 1 and 10 requests for page 9", r.err, r.pages, len(loop.requests()))
	}
	t.Logf("error: %v", r.err)
	if want := loop.URL + "/items?page=9"; !strings.Contains(r.err.Error(), want) {
		t.Errorf("error %v does not name the page, %s", r.err, want)
	}
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	waitFor(t, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
}

// Every kind of early end leaves no goroutine behind once the client's
// idle connections are closed.
func TestPagesEarlyEndsLeakNothing(t *testing.T) {
	b := newAPI(t, 3, nextOnly(3))
	a := newAPI(t, 4, func(base string, p int) []string {
		switch p {
		case 1:
			return []string{`</items?page=2>; rel="next"`}
		case 2:
			return []string{`<` + b.URL + `/items?page=1>; rel="next"`}
		}
		return []string{`</items?page=3>; rel="next"`}
	}, func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Query().Get("page") {
			case "1", "2", "3":
				items.ServeHTTP(w, r)
			case "4":
				w.Header().Set("Retry-After", "3600")
				http.Error(w, "later", http.StatusTooManyRequests)
			default:
				w.Write([]byte("[")) // trickles nothing more
				w.(http.Flusher).Flush()
				<-r.Context().Done()
			}
		})
	})
	refuse := errors.New("refused")
	for _, tc := range []struct {
		name string
		url  string
		opts []paging.Option
		want error
		ctx  time.Duration // > 0: a deadline
	}{
		{"cross origin", "/items?page=1", nil, paging.ErrCrossOrigin, 0},
		{"loop", "/items?page=3", nil, paging.ErrLoop, 0},
		{"max pages", "/items?page=1", []paging.Option{paging.MaxPages(1)}, paging.ErrMaxPages, 0},
		{"deadline in a body", "/items?page=9", []paging.Option{paging.WaitRateLimits(time.Minute)}, context.DeadlineExceeded, 200 * time.Millisecond},
		{"rate limited", "/items?page=4", []paging.Option{paging.WaitRateLimits(time.Minute)}, paging.ErrRateLimited, 0},
		{"BeforeNext", "/items?page=1", []paging.Option{paging.BeforeNext(func(*http.Response, *http.Request) error { return refuse })}, refuse, 0},
		{"cross origin allowed, b ends", "/items?page=2", []paging.Option{paging.AllowCrossOrigin()}, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client, tr := newClient(t)
			before := runtime.NumGoroutine()
			ctx := context.Background()
			if tc.ctx > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.ctx)
				defer cancel()
			}
			for _, items := range []bool{false, true} {
				var err error
				if items {
					req, _ := http.NewRequest(http.MethodGet, a.URL+tc.url, nil)
					_, err = collectItems(t, paging.Items(ctx, client, req, paging.JSONItems[int], tc.opts...))
				} else {
					req, _ := http.NewRequest(http.MethodGet, a.URL+tc.url, nil)
					var r result
					for resp, e := range paging.Pages(ctx, client, req, tc.opts...) {
						if e != nil {
							r.err = e
							continue
						}
						if _, e := io.Copy(io.Discard, resp.Body); e != nil {
							r.err = e // the deadline, in the loop body's read
						}
					}
					err = r.err
				}
				if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
					t.Errorf("items %v: error %v, want %v", items, err, tc.want)
				}
			}
			tr.CloseIdleConnections()
			waitFor(t, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
		})
	}
}

// Over HTTP/2 too (GitHub's API speaks it): breaking out of an endless
// page, a drain cut short by a trickling page and a cancel in a wait end
// at once and leave no goroutine behind.
func TestPagesHTTP2EarlyEnds(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Query().Get("page")
		w.Header().Set("Link", `</items?page=`+p+`0>; rel="next"`)
		switch p {
		case "1": // endless
			buf := make([]byte, 8192)
			for r.Context().Err() == nil {
				if _, err := w.Write(buf); err != nil {
					return
				}
			}
		case "2": // trickles, then page 20 refuses for a minute
			w.Write([]byte("["))
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		case "20":
			w.Header().Set("Retry-After", "60")
			http.Error(w, "later", http.StatusTooManyRequests)
		}
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	client := srv.Client()
	before := runtime.NumGoroutine()
	start := time.Now()
	for resp, err := range paging.Pages(context.Background(), client, getItems(t, srv.URL)) {
		if err != nil || resp.ProtoMajor != 2 {
			t.Fatalf("error %v, protocol %s", err, resp.Proto)
		}
		io.ReadFull(resp.Body, make([]byte, 50000))
		break
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/items?page=2", nil)
	var last error
	pages := 0
	for _, err := range paging.Pages(ctx, client, req, paging.WaitRateLimits(2*time.Minute)) {
		pages++
		last = err
		if pages == 1 { // page 2: its drain is cut at 1 s, then page 20 is refused
			time.AfterFunc(1300*time.Millisecond, cancel) // in the wait for page 20
		}
	}
	if d := time.Since(start); d > 3*time.Second || !errors.Is(last, context.Canceled) {
		t.Errorf("took %v, error %v; want about 1.3 s and context.Canceled", d, last)
	}
	client.CloseIdleConnections()
	waitFor(t, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
}

// Errors name pages without their userinfo: a token is often the user name.
func TestPagesErrorsWithoutUserinfo(t *testing.T) {
	a := newAPI(t, 2, func(base string, p int) []string {
		return []string{`</items?page=` + fmt.Sprint(p+1) + `>; rel="next"`}
	})
	for _, user := range []string{"tok3n", "tok3n:pa55"} {
		req := getItems(t, strings.Replace(a.URL, "http://", "http://"+user+"@", 1))
		r := collect(t, paging.Pages(context.Background(), nil, req))
		var se *paging.StatusError
		if !errors.As(r.err, &se) {
			t.Fatalf("error %v, want a 404", r.err)
		}
		for _, s := range []string{r.err.Error(), se.URL} {
			if strings.Contains(s, "tok3n") || strings.Contains(s, "pa55") {
				t.Errorf("%q shows the userinfo", s)
			}
		}
	}
	// An error of client.Do names the URL as net/http writes it, with the
	// user name.
	base := rawpeer.Serve(t, func(string) string { return "NOT HTTP\r\n\r\n" })
	client, _ := newClient(t)
	r := collect(t, paging.Pages(context.Background(), client, getItems(t, strings.Replace(base, "http://", "http://tok3n@", 1))))
	if r.err == nil || strings.Contains(r.err.Error(), "tok3n") || !strings.Contains(r.err.Error(), base[len("http://"):]) {
		t.Errorf("error %v: want one naming the page without its userinfo", r.err)
	}
}

// A header line net/http rejects comes back in its error raw.
func TestPagesTransportErrorEscapes(t *testing.T) {
	base := rawpeer.Serve(t, func(string) string {
		return "HTTP/1.1 200 OK\r\nX\x1b]0;PWNED\x07: 1\r\n\x1b[2J\r\nContent-Length: 0\r\n\r\n"
	})
	client, _ := newClient(t)
	r := collect(t, paging.Pages(context.Background(), client, getItems(t, base)))
	if r.err == nil {
		t.Fatal("no error")
	}
	if c, bad := unsafeInError(r.err.Error()); bad {
		t.Fatalf("message %q carries %U raw", r.err, c)
	}
	t.Logf("message: %v", r.err)
}

// Credentials under a header name that is not canonical are credentials too.
func TestPagesCredentialsNonCanonicalKeys(t *testing.T) {
	b := newAPI(t, 2, nextOnly(2))
	a := newAPI(t, 1, func(string, int) []string { return []string{`<` + b.URL + `/items?page=1>; rel="next"`} })
	req := getItems(t, a.URL)
	req.Header["authorization"] = []string{"Bearer secret"}
	req.Header["COOKIE"] = []string{"session=secret"}
	req.Header["proxy-authorization"] = []string{"Basic c2VjcmV0"}
	r := collect(t, paging.Pages(context.Background(), nil, req, paging.AllowCrossOrigin()))
	r.check(t, append(pageItems(1), itemsUpTo(1, 2)...), nil)
	for _, s := range b.requests() {
		for k := range s.Header {
			if strings.EqualFold(k, "Authorization") || strings.EqualFold(k, "Cookie") || strings.EqualFold(k, "Proxy-Authorization") {
				t.Errorf("%s %s got %s", s.Host, s.URI, k)
			}
		}
	}
}

// The origin named by ErrCrossOrigin comes from a redirect of the server:
// it is quoted like the URLs.
func TestPagesCrossOriginMessageEscapes(t *testing.T) {
	const evil = "http://\u202eevil\u009b31m.example/"
	client := &http.Client{Transport: hostileRoundTripper(func(req *http.Request) *http.Response {
		h := http.Header{}
		if req.URL.Host == "127.0.0.1" {
			h.Set("Location", evil)
			return &http.Response{StatusCode: http.StatusFound, Header: h}
		}
		h.Set("Link", `<http://127.0.0.2/next>; rel="next"`)
		return &http.Response{StatusCode: http.StatusOK, Header: h, Body: io.NopCloser(strings.NewReader("[]"))}
	})}
	req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1/items", nil)
	r := collect(t, paging.Pages(context.Background(), client, req))
	if !errors.Is(r.err, paging.ErrCrossOrigin) {
		t.Fatalf("error %v, want ErrCrossOrigin", r.err)
	}
	if c, bad := unsafeInError(r.err.Error()); bad {
		t.Errorf("message %q carries %U raw", r.err, c)
	}
}

// An API URL is often longer than 64 bytes, and what tells its pages apart
// is at its end: the messages keep it.
func TestPagesErrorsNameLongURLs(t *testing.T) {
	const query = "/items?state=open&sort=updated&direction=desc&labels=bug,help%20wanted&per_page=100&page="
	a := newAPI(t, 36, func(base string, p int) []string {
		return []string{`<` + query + fmt.Sprint(p+1) + `>; rel="next"`}
	})
	r := collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL), paging.MaxPages(36)))
	if !errors.Is(r.err, paging.ErrMaxPages) || !strings.Contains(r.err.Error(), "page=36") || !strings.Contains(r.err.Error(), "page=37") {
		t.Errorf("error %v does not name page=36 and page=37", r.err)
	}
	r = collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL)))
	if !errors.Is(r.err, paging.ErrStatus) || !strings.Contains(r.err.Error(), "page=37") {
		t.Errorf("error %v does not name page=37", r.err)
	}
	long := "/items?" + strings.Repeat("x", 5000) + "&page=2"
	b := newAPI(t, 1, func(string, int) []string { return []string{`<` + long + `>; rel="next"`} })
	r = collect(t, paging.Pages(context.Background(), nil, getItems(t, b.URL)))
	if msg := r.err.Error(); !strings.Contains(msg, "page=2") || len(msg) > 600 {
		t.Errorf("%d-byte error %.300q...: want page=2 named in a short message", len(msg), msg)
	}
}

func TestPagesDrainBoundedInTime(t *testing.T) {
	t.Parallel()
	// Page 1 promises a long body and trickles it, one byte every 50 ms,
	// while the loop body reads none of it; the next page must follow
	// within a couple of seconds, not when the body is done (20 s).
	const bodyLen = 400
	trickling := make(chan struct{})
	a := newAPI(t, 2, nextOnly(2), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("page") != "1" {
				items.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Link", `</items?page=2>; rel="next"`)
			w.Header().Set("Content-Length", fmt.Sprint(bodyLen))
			w.WriteHeader(http.StatusOK)
			close(trickling)
			trickle(w, r, bodyLen, 50*time.Millisecond)
		})
	})
	client, _ := newClient(t)
	var left time.Time
	var delay time.Duration
	n := 0
	for _, err := range paging.Pages(context.Background(), client, getItems(t, a.URL)) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if n == 1 {
			<-trickling
			left = time.Now()
		} else {
			delay = time.Since(left)
		}
	}
	if n != 2 {
		t.Fatalf("%d pages, want 2", n)
	}
	t.Logf("page 2 followed page 1's loop body after %v", delay.Round(time.Millisecond))
	if delay > 3*time.Second {
		t.Errorf("page 2 waited %v for page 1's unread body", delay)
	}
}

// TestPagesMemoryBound runs Pages against a local server whose first page
// sends a 4 MiB Link header (each memory shape, then the next link) and
// checks that the whole iteration, net/http's reading of the header
// included, allocates at most 40 bytes per header byte: weblink.NextURL's
// bound (32, which the one link-value being looked at may take when it
// holds a million parameters) and what net/http's reading of the header
// costs.
func TestPagesMemoryBound(t *testing.T) {
	const n = 4 << 20
	for _, tc := range memtest.Shapes {
		t.Run(tc.Name, func(t *testing.T) {
			value := tc.Build(n)
			lines := []string{value, `<?page=2>; rel="next"`} // as in the root's TestNextURLMemoryBound
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.RawQuery == "page=1" {
					w.Header()["Link"] = lines
				}
			}))
			srv.Config.MaxHeaderBytes = 16 << 20
			srv.Start()
			defer srv.Close()
			client := srv.Client()
			req, err := http.NewRequest(http.MethodGet, srv.URL+"/items?page=1", nil)
			if err != nil {
				t.Fatal(err)
			}
			pages := 0
			perByte := float64(memtest.Allocated(func() {
				for _, err := range paging.Pages(context.Background(), client, req) {
					if err != nil {
						t.Errorf("page %d: %v", pages+1, err)
						return
					}
					pages++
				}
			})) / float64(len(value))
			t.Logf("Pages: %.2f B/B", perByte)
			if pages != 2 && !strings.HasPrefix(tc.Name, "rel next") {
				t.Errorf("%d pages, want 2", pages)
			}
			// Under the race detector the worst shape measured 54 B/B.
			if bound := map[bool]float64{false: 40, true: 64}[raceEnabled]; perByte > bound {
				t.Errorf("Pages allocated %.2f bytes per header byte, want at most %v", perByte, bound)
			}
		})
	}
}

// BenchmarkPagesNextURL finds the next page of a response carrying the
// 4-link header GitHub sends.
func BenchmarkPagesNextURL(b *testing.B) {
	req, err := http.NewRequest(http.MethodGet, "https://api.github.com/repositories/1300192/issues?page=3", nil)
	if err != nil {
		b.Fatal(err)
	}
	resp := &http.Response{Request: req, Header: http.Header{"Link": {benchdata.GitHub4}}}
	b.SetBytes(int64(len(benchdata.GitHub4)))
	b.ReportAllocs()
	for range b.N {
		u, ok := weblink.NextURL(resp)
		if !ok || u.String() != benchdata.GitHub4Next {
			b.Fatalf("NextURL = %v, %v", u, ok)
		}
	}
}

// BenchmarkPagesInMemory ranges over 10 pages served from memory, leaving
// each body for Pages to drain.
func BenchmarkPagesInMemory(b *testing.B) {
	const pages = 10
	client := &http.Client{Transport: memPages{pages}}
	req, err := http.NewRequest(http.MethodGet, "https://api.example/items?page=1", nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for range b.N {
		n := 0
		for _, err := range paging.Pages(ctx, client, req) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != pages {
			b.Fatalf("%d pages, want %d", n, pages)
		}
	}
}

// TestNilOption: Pages and Items ignore a nil Option wherever it stands
// among the options, whatever the iteration (one page at a time, Parallel,
// NextInBody, Revalidate, a RateLimiter's Option): the run gives what the
// same options give without it. A nil Option was a nil dereference.
func TestNilOption(t *testing.T) {
	ctx := context.Background()
	placements := []struct {
		name string
		with func([]paging.Option) []paging.Option
	}{
		{"first", func(o []paging.Option) []paging.Option { return append([]paging.Option{nil}, o...) }},
		{"last", func(o []paging.Option) []paging.Option { return append(slices.Clone(o), nil) }},
		{"around each", func(o []paging.Option) []paging.Option {
			out := []paging.Option{nil}
			for _, opt := range o {
				out = append(out, opt, nil)
			}
			return out
		}},
		{"three in a row", func(o []paging.Option) []paging.Option {
			return append(make([]paging.Option, 3), o...)
		}},
	}
	// Each case starts its servers and options afresh, passes its options
	// through with, and describes what the run gave.
	tests := []struct {
		name string
		run  func(t *testing.T, with func([]paging.Option) []paging.Option) string
	}{
		{"Pages", func(t *testing.T, with func([]paging.Option) []paging.Option) string {
			a := newAPI(t, 3, nextOnly(3))
			r := collect(t, paging.Pages(ctx, a.Client(), getItems(t, a.URL), with(nil)...))
			return fmt.Sprintf("items %v, pages %d, error %v, requests %q", r.items, r.pages, r.err, a.uris())
		}},
		{"Pages with MaxPages and BeforeNext", func(t *testing.T, with func([]paging.Option) []paging.Option) string {
			a := newAPI(t, 5, nextOnly(5))
			calls := 0
			before := paging.BeforeNext(func(*http.Response, *http.Request) error { calls++; return nil })
			r := collect(t, paging.Pages(ctx, a.Client(), getItems(t, a.URL), with([]paging.Option{paging.MaxPages(2), before})...))
			msg := strings.ReplaceAll(fmt.Sprint(r.err), a.URL, "{base}") // each run has a server of its own
			return fmt.Sprintf("items %v, pages %d, error %s (ErrMaxPages %t), BeforeNext %d calls, requests %q",
				r.items, r.pages, msg, errors.Is(r.err, paging.ErrMaxPages), calls, a.uris())
		}},
		{"Items", func(t *testing.T, with func([]paging.Option) []paging.Option) string {
			a := newAPI(t, 3, nextOnly(3))
			var items []int
			var err error
			for it, e := range paging.Items(ctx, a.Client(), getItems(t, a.URL), paging.JSONItems[int], with([]paging.Option{paging.MaxPages(10)})...) {
				if e != nil {
					err = e
					break
				}
				items = append(items, it)
			}
			return fmt.Sprintf("items %v, error %v, requests %q", items, err, a.uris())
		}},
		{"Pages with Parallel", func(t *testing.T, with func([]paging.Option) []paging.Option) string {
			a := newAPI(t, 6, numbered(6))
			r := collect(t, paging.Pages(ctx, a.Client(), getItems(t, a.URL), with([]paging.Option{paging.Parallel(3)})...))
			uris := a.uris()
			slices.Sort(uris) // sent three at a time
			return fmt.Sprintf("items %v, pages %d, error %v, requests %q", r.items, r.pages, r.err, uris)
		}},
		{"Items with Parallel and a RateLimiter", func(t *testing.T, with func([]paging.Option) []paging.Option) string {
			a := newAPI(t, 6, numbered(6))
			limiter := paging.NewRateLimiter(time.Minute)
			var items []int
			var err error
			for it, e := range paging.Items(ctx, a.Client(), getItems(t, a.URL), paging.JSONItems[int], with([]paging.Option{paging.Parallel(3), limiter.Option()})...) {
				if e != nil {
					err = e
					break
				}
				items = append(items, it)
			}
			uris := a.uris()
			slices.Sort(uris)
			return fmt.Sprintf("items %v, error %v, requests %q", items, err, uris)
		}},
		{"Pages with NextInBody", func(t *testing.T, with func([]paging.Option) []paging.Option) string {
			pages := map[string]bodyPage{
				"/1": {body: `{"next": "/2"}`},
				"/2": {body: `{"next": "{base}/3"}`},
				"/3": {body: `{"next": null}`},
			}
			a := newBodyAPI(t, pages)
			got, err := bodyPages(t, a, pages, "/1", with([]paging.Option{paging.NextInBody("/next")})...)
			return fmt.Sprintf("pages %q, error %v", got, err)
		}},
		{"Items with Revalidate and StoreErrors", func(t *testing.T, with func([]paging.Option) []paging.Option) string {
			a := newQuotaAPI(t, 7)
			store := paging.NewMemoryStore(1 << 20)
			var storeErrs []error
			opts := []paging.Option{paging.Revalidate(store), paging.StoreErrors(func(err error) { storeErrs = append(storeErrs, err) })}
			first := run(a.Client(), a.page(t, 3, "tok"), with(opts)...)
			second := run(a.Client(), a.page(t, 3, "tok"), with(opts)...)
			_, status, _ := a.counts()
			return fmt.Sprintf("first %+v, second %+v, status %v, store errors %v", first, second, status, storeErrs)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.run(t, func(o []paging.Option) []paging.Option { return o })
			t.Log(want)
			for _, p := range placements {
				got := func() (got string) {
					defer func() {
						if v := recover(); v != nil {
							got = fmt.Sprint("panic: ", v)
						}
					}()
					return tt.run(t, p.with)
				}()
				if got != want {
					t.Errorf("with nil options %s:\n%s\nwant, as without them:\n%s", p.name, got, want)
				}
			}
		})
	}
}
