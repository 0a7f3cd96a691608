// The test harness of package paging: the fake paged API and the
// helpers that the external tests of several files share.

package paging_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
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

// unsafeInError reports the first byte or rune of s that must not reach a
// terminal: a C0 or C1 control, DEL, or a bidi formatting character.
func unsafeInError(s string) (rune, bool) {
	for _, r := range s {
		switch {
		case r < 0x20, r >= 0x7f && r <= 0x9f,
			r == 0x061c, r == 0x200e, r == 0x200f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069,
			r == 0xfffd: // an invalid byte, written raw
			return r, true
		}
	}
	return 0, false
}

// trickle writes n bytes to w, one every d, until the client gives up.
func trickle(w http.ResponseWriter, r *http.Request, n int, d time.Duration) {
	for range n {
		if _, err := w.Write([]byte{'x'}); err != nil {
			return
		}
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
			return
		case <-time.After(d):
		}
	}
}

// hostileRoundTripper answers in memory as a hostile server would, for
// hosts that only a proxy could reach.
type hostileRoundTripper func(*http.Request) *http.Response

func (f hostileRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	resp := f(req)
	resp.Request = req
	if resp.Body == nil {
		resp.Body = http.NoBody
	}
	return resp, nil
}

// memPages is an http.RoundTripper that answers GET /items?page=P, P from 1
// to n, from memory: a small JSON body and a GitHub-like Link header whose
// next link leads to page P+1. It measures what Pages itself costs per page,
// without a network.
type memPages struct{ n int }

func (rt memPages) RoundTrip(req *http.Request) (*http.Response, error) {
	p, _ := strconv.Atoi(req.URL.Query().Get("page"))
	h := http.Header{"Content-Type": {"application/json"}}
	base := "https://" + req.URL.Host + "/items?page="
	links := `<` + base + `1>; rel="first", <` + base + strconv.Itoa(rt.n) + `>; rel="last"`
	if p < rt.n {
		links += `, <` + base + strconv.Itoa(p+1) + `>; rel="next"`
	}
	h.Set("Link", links)
	return &http.Response{
		StatusCode: http.StatusOK,
		Status:     "200 OK",
		Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  h,
		Body:    io.NopCloser(bytes.NewReader([]byte(`[1,2,3]`))),
		Request: req,
	}, nil
}

// issuePage returns a JSON array of n GitHub-like issues.
func issuePage(n int) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"number":` + strconv.Itoa(i) + `,"title":"` + string(bytes.Repeat([]byte("x"), 80)) + `","labels":["bug","help wanted"]}`)
	}
	b.WriteByte(']')
	return b.Bytes()
}

type benchIssue struct {
	Number int      `json:"number"`
	Title  string   `json:"title"`
	Labels []string `json:"labels"`
}

// benchPages runs one benchmark for each n, ranging over the pages that
// req begins with Parallel(n), or one at a time for an n of 1, named after
// it and suffix.
func benchPages(b *testing.B, client *http.Client, req *http.Request, pages int, suffix string, ns ...int) {
	for _, n := range ns {
		name, opts := "sequential", []paging.Option(nil)
		if n > 1 {
			name, opts = "Parallel"+strconv.Itoa(n), []paging.Option{paging.Parallel(n)}
		}
		b.Run(name+suffix, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				n := 0
				for _, err := range paging.Pages(context.Background(), client, req, opts...) {
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
				if n != pages {
					b.Fatalf("%d pages, want %d", n, pages)
				}
			}
		})
	}
}

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

// numbered returns a links function for page-number paging as GitHub
// sends it: first, next (but on the last page) and last, with per_page.
func numbered(pages int) func(string, int) []string {
	return func(base string, p int) []string {
		link := func(p int, rel string) string {
			return fmt.Sprintf(`<%s/items?page=%d&per_page=%d>; rel="%s"`, base, p, perPage, rel)
		}
		links := []string{link(1, "first")}
		if p < pages {
			links = append(links, link(p+1, "next"))
		}
		return append(links, link(pages, "last"))
	}
}

// concurrency is a handler wrapper that counts the requests being handled
// at once, each for delay(r) (stopping early when the client gives up),
// and how many the client gave up.
type concurrency struct {
	now, max  atomic.Int64
	cancelled atomic.Int64
	delay     func(r *http.Request) time.Duration
}

func (c *concurrency) wrap(items http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := c.now.Add(1)
		for m := c.max.Load(); n > m && !c.max.CompareAndSwap(m, n); m = c.max.Load() {
		}
		if c.delay != nil {
			timer := time.NewTimer(c.delay(r))
			select {
			case <-timer.C:
			case <-r.Context().Done():
				timer.Stop()
				c.cancelled.Add(1)
			}
		}
		c.now.Add(-1) // before the answer: the client may send another once it has it
		items.ServeHTTP(w, r)
	})
}

// noLeak records the goroutines running now; the returned function closes
// tr's idle connections and fails t unless the goroutines are back to that
// number (polling, as net/http's end a moment after their connection).
func noLeak(t *testing.T, tr *http.Transport) func() {
	t.Helper()
	before := runtime.NumGoroutine()
	return func() {
		t.Helper()
		tr.CloseIdleConnections()
		waitFor(t, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
	}
}

// pageOf returns the page number of a request URI.
func pageOf(uri string) int {
	_, q, _ := strings.Cut(uri, "?")
	for _, e := range strings.Split(q, "&") {
		if v, ok := strings.CutPrefix(e, "page="); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	return 0
}

// bodies is a RoundTripper that tracks the response bodies it hands out:
// how many are open (not seen closed), how many bytes were read from them,
// and how many requests were sent with If-None-Match.
type bodies struct {
	rt          http.RoundTripper
	open        atomic.Int64
	bytes       atomic.Int64
	conditional atomic.Int64
}

func (b *bodies) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("If-None-Match") != "" {
		b.conditional.Add(1)
	}
	resp, err := b.rt.RoundTrip(req)
	if err == nil {
		b.open.Add(1)
		resp.Body = &trackedClose{ReadCloser: resp.Body, b: b}
	}
	return resp, err
}

// newCountingClient returns newClient's client and transport, with the
// bodies counted.
func newCountingClient(t *testing.T) (*http.Client, *http.Transport, *bodies) {
	client, tr := newClient(t)
	b := &bodies{rt: tr}
	client.Transport = b
	return client, tr, b
}

// trackedClose is a body that bodies handed out.
type trackedClose struct {
	io.ReadCloser
	b    *bodies
	once sync.Once
}

func (c *trackedClose) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.b.bytes.Add(int64(n))
	return n, err
}

func (c *trackedClose) Close() error {
	c.once.Do(func() { c.b.open.Add(-1) })
	return c.ReadCloser.Close()
}

// jsonServerInstall is how .ci/run installs json-server, which
// TestParallelJSONServer runs.
const jsonServerInstall = "npm install --prefix ~/.cache/weblink-ci json-server@0.17.4"

// jsonServer returns the json-server command: $WEBLINK_JSON_SERVER, which
// .ci/run sets, or where .ci/run installs it. Without it the test skips,
// unless CI is set.
func jsonServer(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("WEBLINK_JSON_SERVER")
	if bin == "" {
		cache, err := os.UserCacheDir()
		if err == nil {
			bin = filepath.Join(cache, "weblink-ci", "node_modules", ".bin", "json-server")
		}
	}
	if _, err := os.Stat(bin); bin == "" || err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("json-server not found (%q); .ci/run installs it with %s", bin, jsonServerInstall)
		}
		t.Skipf("json-server not found (%q); install it with %s, or run .ci/run", bin, jsonServerInstall)
	}
	return bin
}

// inFlight is a RoundTripper that counts the requests it has in flight.
type inFlight struct {
	now, max atomic.Int64
	rt       http.RoundTripper
}

func (f *inFlight) RoundTrip(req *http.Request) (*http.Response, error) {
	n := f.now.Add(1)
	defer f.now.Add(-1)
	for m := f.max.Load(); n > m && !f.max.CompareAndSwap(m, n); m = f.max.Load() {
	}
	return f.rt.RoundTrip(req)
}

// jsonItem is an item of the collection that startJSONServer serves.
type jsonItem struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// startJSONServer starts json-server on a loopback port with a database
// of n items at /items, and returns its base URL and the items. It is
// stopped when the test ends.
func startJSONServer(t *testing.T, n int) (string, []jsonItem) {
	t.Helper()
	bin := jsonServer(t)
	var db struct {
		Items []jsonItem `json:"items"`
	}
	for i := 1; i <= n; i++ {
		db.Items = append(db.Items, jsonItem{ID: i, Name: "item " + strconv.Itoa(i)})
	}
	dir := t.TempDir()
	data, err := json.Marshal(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "db.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	base := startNode(t, nil, "/items?_page=1&_limit=1", bin, []string{"--host", "127.0.0.1", "--port"}, "--quiet", filepath.Join(dir, "db.json"))
	return base, db.Items
}

// collectItems ranges over seq and returns the items yielded before the
// error, and the error, checking that nothing follows the error.
func collectItems[T any](t *testing.T, seq func(func(T, error) bool)) ([]T, error) {
	t.Helper()
	var items []T
	var got error
	for item, err := range seq {
		if got != nil {
			t.Fatalf("yielded (%v, %v) after the error %v", item, err, got)
		}
		if err != nil {
			var zero T
			if !equalAny(item, zero) {
				t.Errorf("error %v yielded with item %v, want the zero value", err, item)
			}
			got = err
			continue
		}
		items = append(items, item)
	}
	return items, got
}

// refusing returns a wrapper for an api handler that answers the first
// times requests for page (for each page, counted apart, when page is "";
// every request when times < 0) with status and the header fields of h
// (values may use {now+D} for an HTTP-date D from now), and records when
// each request came.
func refusing(page string, times, status int, h map[string]string, at *[]time.Time, mu *sync.Mutex) func(http.Handler) http.Handler {
	refused := map[string]int{}
	return func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			*at = append(*at, time.Now())
			p := r.URL.Query().Get("page")
			refuse := (page == "" || p == page) && (times < 0 || refused[p] < times)
			if refuse {
				refused[p]++
			}
			mu.Unlock()
			if !refuse {
				items.ServeHTTP(w, r)
				return
			}
			for k, v := range h {
				if d, ok := httpDateIn(v); ok {
					v = time.Now().Add(d).UTC().Format(http.TimeFormat)
				}
				w.Header().Set(k, v)
			}
			w.Header().Set("Link", `</items?page=99>; rel="next"`) // never followed: not 2xx
			http.Error(w, "slow down", status)
		})
	}
}

// bodyPage is a page that newBodyAPI serves as written: its Link header
// and body, where "{base}" stands for the server's URL, and its status
// (0: 200).
type bodyPage struct {
	link, body string
	status     int
}

// newBodyAPI starts an api that serves pages by their request URI, as
// given, instead of numbered pages of items: for pages whose links and
// bodies a test writes out.
func newBodyAPI(t *testing.T, pages map[string]bodyPage) *api {
	t.Helper()
	var a *api
	a = newAPI(t, 0, nil, func(http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
			io.WriteString(w, strings.ReplaceAll(p.body, "{base}", a.URL))
		})
	})
	return a
}

// issue is an item of the GitHub-like simulator.
type issue struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
}

// gitHubSim is a GitHub-like API on 127.0.0.1: GET /repos/o/r/issues pages
// through issues as JSON arrays with next, prev, first and last links and
// X-RateLimit-* fields. It allows limit requests per window of about a
// second (the reset is a whole Unix second, as GitHub's), answers 403 with
// X-RateLimit-Remaining: 0 past it, and 401 without the token.
type gitHubSim struct {
	*httptest.Server
	issues, perPage, limit int

	mu      sync.Mutex
	used    int
	reset   time.Time // end of the current window
	log     []simRequest
	refused int
}

type simRequest struct {
	at     time.Time
	uri    string
	status int
	auth   bool
}

func newGitHubSim(t *testing.T, issues, perPage, limit int, spent bool) *gitHubSim {
	s := &gitHubSim{issues: issues, perPage: perPage, limit: limit}
	s.reset = nextWindow(time.Now())
	if spent {
		s.used = limit // another client spent this window
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// nextWindow is the end of a window that starts at now: the whole Unix
// second after the next one, so that a window lasts between 1 and 2 seconds.
func nextWindow(now time.Time) time.Time {
	return now.Truncate(time.Second).Add(2 * time.Second)
}

func (s *gitHubSim) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	status := http.StatusOK
	defer func() {
		s.log = append(s.log, simRequest{now, r.URL.RequestURI(), status, r.Header.Get("Authorization") == "Bearer ghp_test"})
	}()
	if r.Header.Get("Authorization") != "Bearer ghp_test" {
		status = http.StatusUnauthorized
		http.Error(w, `{"message": "Bad credentials"}`, status)
		return
	}
	if !now.Before(s.reset) {
		s.used, s.reset = 0, nextWindow(now)
	}
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(s.limit))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(s.reset.Unix(), 10))
	if s.used >= s.limit {
		status = http.StatusForbidden
		s.refused++
		h.Set("X-RateLimit-Remaining", "0")
		http.Error(w, `{"message": "API rate limit exceeded"}`, status)
		return
	}
	s.used++
	h.Set("X-RateLimit-Remaining", strconv.Itoa(s.limit-s.used))
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	if page == 0 {
		page = 1
	}
	last := (s.issues + s.perPage - 1) / s.perPage
	link := func(p int, rel string) weblink.Link {
		u := *r.URL
		q := u.Query()
		q.Set("page", strconv.Itoa(p))
		u.RawQuery = q.Encode()
		return weblink.Link{Target: s.URL + u.RequestURI(), Rel: []string{rel}}
	}
	var links weblink.Links
	if page < last {
		links = append(links, link(page+1, "next"), link(last, "last"))
	}
	if page > 1 {
		links = append(links, link(1, "first"), link(page-1, "prev"))
	}
	weblink.Add(h, links...)
	var out []issue
	for n := (page-1)*s.perPage + 1; n <= min(page*s.perPage, s.issues); n++ {
		out = append(out, issue{n, "issue " + strconv.Itoa(n)})
	}
	h.Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

func (s *gitHubSim) requests() []simRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.log)
}
