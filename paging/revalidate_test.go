package paging_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weblinking/weblink/paging"
)

// quotaAPI is a GitHub-like API on a loopback port: GET /items?page=P&per_page=S
// answers the items of page P of its collection, of the caller's own (the
// items name the token of the Authorization field), with Link next and
// last, an ETag that is a hash of the body, and a Last-Modified; it answers
// If-None-Match with 304 Not Modified, and charges its quota only for 200s
// (as GitHub does for a conditional request with Authorization). Every
// response says what is left of the quota.
type quotaAPI struct {
	*httptest.Server
	mu       sync.Mutex
	items    int                                               // the size of the collection
	quota    int                                               // the requests answered 200 so far
	status   map[int]int                                       // the requests answered so far, by status
	bodies   int64                                             // the bytes of the bodies of 200s written
	seen     []http.Header                                     // the header of every request
	extra    func(h http.Header, page int, notMod bool)        // fields to set on a response, if any
	rewrite  func(w http.ResponseWriter, r *http.Request) bool // a handler taking over a request, if any
	lastMods string
}

// newQuotaAPI starts a quotaAPI with a collection of items.
func newQuotaAPI(t *testing.T, items int) *quotaAPI {
	t.Helper()
	a := &quotaAPI{items: items, status: make(map[int]int), lastMods: "Mon, 02 Jan 2006 15:04:05 GMT"}
	a.Server = httptest.NewServer(http.HandlerFunc(a.serve))
	t.Cleanup(a.Close)
	return a
}

func (a *quotaAPI) serve(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seen = append(a.seen, r.Header.Clone())
	if a.rewrite != nil && a.rewrite(w, r) {
		return
	}
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	size, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	if page < 1 || size < 1 {
		http.NotFound(w, r)
		return
	}
	last := max(1, (a.items+size-1)/size)
	token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	var items []string
	for i := (page-1)*size + 1; i <= min(page*size, a.items); i++ {
		items = append(items, token+":"+strconv.Itoa(i))
	}
	body, _ := json.Marshal(items)
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	h := w.Header()
	link := func(rel string, p int) {
		h.Add("Link", fmt.Sprintf(`<%s/items?page=%d&per_page=%d>; rel="%s"`, a.URL, p, size, rel))
	}
	if page < last {
		link("next", page+1)
		link("last", last)
	}
	h.Set("ETag", etag)
	h.Set("Last-Modified", a.lastMods)
	h.Set("Content-Type", "application/json")
	notMod := r.Header.Get("If-None-Match") == etag
	if !notMod {
		a.quota++
	}
	h.Set("X-RateLimit-Limit", "5000")
	h.Set("X-RateLimit-Remaining", strconv.Itoa(5000-a.quota))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10))
	if a.extra != nil {
		a.extra(h, page, notMod)
	}
	if notMod {
		a.status[304]++
		w.WriteHeader(http.StatusNotModified)
		return
	}
	a.status[200]++
	a.bodies += int64(len(body))
	_, _ = w.Write(body)
}

// counts returns and resets the quota used and the responses by status.
func (a *quotaAPI) counts() (quota int, status map[int]int, bodies int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	quota, status, bodies = a.quota, a.status, a.bodies
	a.quota, a.status, a.bodies, a.seen = 0, make(map[int]int), 0, nil
	return quota, status, bodies
}

// requests returns the header of every request so far.
func (a *quotaAPI) requests() []http.Header {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.seen)
}

// page returns a request for page 1 of a's collection, size items a page,
// with token as its bearer token ("" for none).
func (a *quotaAPI) page(t *testing.T, size int, token string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/items?page=1&per_page=%d", a.URL, size), nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req
}

// resync is one run of Items over req: the items, how many pages came
// from the store, and the error that ended it.
type resync struct {
	items       []string
	revalidated int
	pages       int
	err         error
}

// run pages req with Items, counting the pages Revalidated.
func run(client *http.Client, req *http.Request, opts ...paging.Option) resync {
	var r resync
	decode := func(resp *http.Response) ([]string, error) {
		r.pages++
		if paging.Revalidated(resp) {
			r.revalidated++
		}
		return paging.JSONItems[string](resp)
	}
	for it, err := range paging.Items(context.Background(), client, req, decode, opts...) {
		if err != nil {
			r.err = err
			break
		}
		r.items = append(r.items, it)
	}
	return r
}

// tokenItems returns the items token sees in a collection of n.
func tokenItems(token string, n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, token+":"+strconv.Itoa(i))
	}
	return out
}

// failingStore is a PageStore whose Get and Put fail with the errors set.
type failingStore struct {
	paging.PageStore
	get, put error
}

func (s failingStore) Get(ctx context.Context, key string) (paging.StoredPage, bool, error) {
	if s.get != nil {
		return paging.StoredPage{}, false, s.get
	}
	return s.PageStore.Get(ctx, key)
}

func (s failingStore) Put(ctx context.Context, key string, p paging.StoredPage) error {
	if s.put != nil {
		return s.put
	}
	return s.PageStore.Put(ctx, key, p)
}

// recordingStore is a memory store that records every page stored and the
// key it was stored under.
type recordingStore struct {
	paging.PageStore
	mu   sync.Mutex
	keys []string
	put  []paging.StoredPage
}

func (s *recordingStore) Put(ctx context.Context, key string, p paging.StoredPage) error {
	s.mu.Lock()
	s.keys, s.put = append(s.keys, key), append(s.put, p)
	s.mu.Unlock()
	return s.PageStore.Put(ctx, key, p)
}

// editingStore is a memory store whose Get edits the page it returns.
type editingStore struct {
	paging.PageStore
	edit func(*paging.StoredPage)
}

func (s editingStore) Get(ctx context.Context, key string) (paging.StoredPage, bool, error) {
	p, ok, err := s.PageStore.Get(ctx, key)
	if ok {
		s.edit(&p)
	}
	return p, ok, err
}

// TestRevalidateRules has a case for each rule of conditional paging, 20
// to 27, against a quotaAPI: a first run fills the store, then the case's
// own second run.
func TestRevalidateRules(t *testing.T) {
	const n, size = 10, 3 // 4 pages, the last one not full
	cases := []struct {
		rule string
		// setup changes the API or the store before the first run.
		setup func(a *quotaAPI)
		store func() paging.PageStore
		// second runs the second run and checks it, with the store errors.
		second func(t *testing.T, a *quotaAPI, store paging.PageStore, errs *[]error)
	}{
		{rule: "20 credentials are in the key, never in the store", second: func(t *testing.T, a *quotaAPI, store paging.PageStore, _ *[]error) {
			rec := &recordingStore{PageStore: store}
			other := run(http.DefaultClient, a.page(t, size, "tokenB"), paging.Revalidate(rec))
			if !slices.Equal(other.items, tokenItems("tokenB", n)) || other.revalidated != 0 {
				t.Errorf("another token: %d pages revalidated, items %q; want its own items, none from the store", other.revalidated, other.items)
			}
			for i, p := range rec.put {
				all := rec.keys[i] + p.URL + fmt.Sprint(p.Header)
				if strings.Contains(all, "tokenB") || strings.Contains(all, "Set-Cookie") {
					t.Errorf("stored key %q, page %q %v: holds a credential", rec.keys[i], p.URL, p.Header)
				}
			}
			if len(rec.put) != 4 {
				t.Errorf("%d pages stored for tokenB, want 4", len(rec.put))
			}
			for _, token := range []string{"tokenA", "tokenB", "tokenA"} { // both now stored: each revalidates its own
				r := run(http.DefaultClient, a.page(t, size, token), paging.Revalidate(store))
				if r.err != nil || r.revalidated != 3 || !slices.Equal(r.items, tokenItems(token, n)) {
					t.Errorf("%s again: %v, %d revalidated, items %q", token, r.err, r.revalidated, r.items)
				}
			}
		}},
		{rule: "20 HEAD is not stored", second: func(t *testing.T, a *quotaAPI, store paging.PageStore, _ *[]error) {
			rec := &recordingStore{PageStore: store}
			req := a.page(t, size, "tokenA")
			req.Method = http.MethodHead
			for _, err := range paging.Pages(context.Background(), nil, req, paging.Revalidate(rec)) {
				if err != nil {
					t.Fatal(err)
				}
			}
			for _, h := range a.requests() {
				if h.Get("If-None-Match") != "" || h.Get("If-Modified-Since") != "" {
					t.Errorf("HEAD sent with validators: %v", h)
				}
			}
			if len(rec.put) != 0 {
				t.Errorf("HEAD stored %d pages", len(rec.put))
			}
		}},
		{rule: "21 a stored page is asked for with its validators", second: func(t *testing.T, a *quotaAPI, store paging.PageStore, _ *[]error) {
			r := run(http.DefaultClient, a.page(t, size, "tokenA"), paging.Revalidate(store))
			if r.err != nil || !slices.Equal(r.items, tokenItems("tokenA", n)) {
				t.Fatalf("second run: %v, items %q", r.err, r.items)
			}
			hs := a.requests()
			for i, h := range hs[:3] {
				if !strings.HasPrefix(h.Get("If-None-Match"), `"`) || h.Get("If-Modified-Since") != a.lastMods {
					t.Errorf("page %d sent with If-None-Match %q, If-Modified-Since %q", i+1, h.Get("If-None-Match"), h.Get("If-Modified-Since"))
				}
			}
		}},
		{rule: "21 the caller's own validator is sent as it is, and its 304 is a StatusError", second: func(t *testing.T, a *quotaAPI, store paging.PageStore, _ *[]error) {
			resp, err := http.DefaultClient.Do(a.page(t, size, "tokenA"))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			req := a.page(t, size, "tokenA")
			req.Header.Set("If-None-Match", resp.Header.Get("ETag"))
			r := run(http.DefaultClient, req, paging.Revalidate(store))
			var se *paging.StatusError
			if !errors.As(r.err, &se) || se.StatusCode != http.StatusNotModified || r.items != nil {
				t.Errorf("got %v, items %q; want the 304 as a StatusError", r.err, r.items)
			}
		}},
		{rule: "22 a 304 is the stored page, with the 304's rate-limit fields", setup: func(a *quotaAPI) {
			reset := strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10)
			a.extra = func(h http.Header, page int, notMod bool) {
				if !notMod { // every 200 says the limit is spent
					h.Set("X-RateLimit-Remaining", "0")
					h.Set("X-RateLimit-Reset", reset)
					h.Set("Set-Cookie", "session=secret")
				} else {
					h.Set("X-Fresh", "from the 304")
				}
				if notMod && page == 2 { // says nothing of the limit: nor may the stored page
					h.Del("X-RateLimit-Remaining")
					h.Del("X-RateLimit-Reset")
				}
			}
		}, second: func(t *testing.T, a *quotaAPI, store paging.PageStore, _ *[]error) {
			var headers []http.Header
			opt := paging.BeforeNext(func(prev *http.Response, _ *http.Request) error {
				headers = append(headers, prev.Header)
				return nil
			})
			start := time.Now()
			r := run(http.DefaultClient, a.page(t, size, "tokenA"), paging.Revalidate(store), paging.WaitRateLimits(time.Second), opt)
			if r.err != nil || r.revalidated != 3 || !slices.Equal(r.items, tokenItems("tokenA", n)) {
				t.Fatalf("second run: %v, %d revalidated, items %q", r.err, r.revalidated, r.items)
			}
			if d := time.Since(start); d > 500*time.Millisecond {
				t.Errorf("second run took %v: it waited for a stored X-RateLimit-Remaining: 0", d)
			}
			for i, h := range headers {
				if h.Get("X-RateLimit-Remaining") == "0" || i == 1 && h.Get("X-RateLimit-Reset") != "" || h.Get("Set-Cookie") != "" || h.Get("X-Fresh") == "" ||
					h.Get("Content-Type") != "application/json" || len(h.Values("Link")) != 2 {
					t.Errorf("page %d rebuilt with header %v", i+1, h)
				}
			}
		}},
		{rule: "23 no-store, Vary: * and a bad ETag are not stored", setup: func(a *quotaAPI) {
			a.extra = func(h http.Header, page int, _ bool) {
				switch page {
				case 1:
					h.Set("Cache-Control", "private, No-Store")
				case 2:
					h.Set("Vary", "Accept, *")
				case 3:
					h.Set("ETag", `"`+strings.Repeat("e", 1<<20)+`"`)
					h.Del("Last-Modified")
				}
			}
		}, second: func(t *testing.T, a *quotaAPI, store paging.PageStore, _ *[]error) {
			r := run(http.DefaultClient, a.page(t, size, "tokenA"), paging.Revalidate(store))
			if r.err != nil || r.revalidated != 0 || !slices.Equal(r.items, tokenItems("tokenA", n)) {
				t.Errorf("second run: %v, %d revalidated, items %q", r.err, r.revalidated, r.items)
			}
			for i, h := range a.requests() {
				if h.Get("If-None-Match") != "" {
					t.Errorf("page %d sent with If-None-Match", i+1)
				}
			}
		}},
		{rule: "24 re-paging N unchanged pages costs one unit of quota: the last page", second: func(t *testing.T, a *quotaAPI, store paging.PageStore, _ *[]error) {
			r := run(http.DefaultClient, a.page(t, size, "tokenA"), paging.Revalidate(store))
			quota, status, _ := a.counts()
			if r.err != nil || quota != 1 || status[304] != 3 || !slices.Equal(r.items, tokenItems("tokenA", n)) {
				t.Errorf("second run: %v, quota %d, statuses %v, items %q; want quota 1, 3 304s", r.err, quota, status, r.items)
			}
		}},
		{rule: "24 a collection grown past a full last page is paged to its new end", setup: func(a *quotaAPI) {
			a.items = 12 // 4 full pages
		}, second: func(t *testing.T, a *quotaAPI, store paging.PageStore, _ *[]error) {
			a.mu.Lock()
			a.items = 17
			a.mu.Unlock()
			r := run(http.DefaultClient, a.page(t, size, "tokenA"), paging.Revalidate(store))
			quota, status, _ := a.counts()
			if r.err != nil || !slices.Equal(r.items, tokenItems("tokenA", 17)) {
				t.Fatalf("grown: %v, items %q", r.err, r.items)
			}
			if quota != 3 || status[304] != 3 { // page 4 (old last), 5 and 6
				t.Errorf("grown: quota %d, statuses %v; want 3 and 3 304s", quota, status)
			}
		}},
		{rule: "25 Parallel's pages revalidate too", second: func(t *testing.T, a *quotaAPI, store paging.PageStore, _ *[]error) {
			r := run(http.DefaultClient, a.page(t, size, "tokenA"), paging.Revalidate(store), paging.Parallel(4))
			quota, status, _ := a.counts()
			if r.err != nil || r.revalidated != 3 || quota != 1 || status[304] != 3 || !slices.Equal(r.items, tokenItems("tokenA", n)) {
				t.Errorf("Parallel: %v, %d revalidated, quota %d, %v, items %q", r.err, r.revalidated, quota, status, r.items)
			}
		}},
		{rule: "26 a store that fails: no validators, not stored, paging goes on", second: func(t *testing.T, a *quotaAPI, store paging.PageStore, errs *[]error) {
			fail := failingStore{PageStore: store, get: errors.New("disk on fire"), put: errors.New("disk full")}
			r := run(http.DefaultClient, a.page(t, size, "tokenA"), paging.Revalidate(fail), paging.StoreErrors(func(err error) { *errs = append(*errs, err) }))
			if r.err != nil || r.revalidated != 0 || !slices.Equal(r.items, tokenItems("tokenA", n)) {
				t.Errorf("failing store: %v, %d revalidated, items %q", r.err, r.revalidated, r.items)
			}
			if len(*errs) != 8 || !strings.Contains((*errs)[0].Error(), "disk on fire") || !strings.Contains((*errs)[1].Error(), "disk full") {
				t.Errorf("store errors %q, want 4 of Get and 4 of Put", *errs)
			}
		}},
		{rule: "26 a stored body shorter than its Content-Length is not used", second: func(t *testing.T, a *quotaAPI, store paging.PageStore, errs *[]error) {
			cut := editingStore{PageStore: store, edit: func(p *paging.StoredPage) { p.Body = p.Body[:len(p.Body)-2] }}
			r := run(http.DefaultClient, a.page(t, size, "tokenA"), paging.Revalidate(cut), paging.StoreErrors(func(err error) { *errs = append(*errs, err) }))
			if r.err != nil || r.revalidated != 0 || !slices.Equal(r.items, tokenItems("tokenA", n)) {
				t.Errorf("truncated pages: %v, %d revalidated, items %q", r.err, r.revalidated, r.items)
			}
			if len(*errs) != 4 || !strings.Contains((*errs)[0].Error(), "truncated") {
				t.Errorf("store errors %q, want 4 saying truncated", *errs)
			}
		}},
		{rule: "27 a memory store too small for a page stores nothing", store: func() paging.PageStore { return paging.NewMemoryStore(100) },
			second: func(t *testing.T, a *quotaAPI, store paging.PageStore, _ *[]error) {
				r := run(http.DefaultClient, a.page(t, size, "tokenA"), paging.Revalidate(store))
				if r.err != nil || r.revalidated != 0 {
					t.Errorf("tiny store: %v, %d revalidated", r.err, r.revalidated)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			a := newQuotaAPI(t, n)
			if c.setup != nil {
				c.setup(a)
			}
			store := paging.NewMemoryStore(1 << 20)
			if c.store != nil {
				store = c.store()
			}
			first := run(http.DefaultClient, a.page(t, size, "tokenA"), paging.Revalidate(store))
			a.mu.Lock()
			want := tokenItems("tokenA", a.items)
			a.mu.Unlock()
			if first.err != nil || first.revalidated != 0 || !slices.Equal(first.items, want) {
				t.Fatalf("first run: %v, %d revalidated, items %q", first.err, first.revalidated, first.items)
			}
			a.counts()
			var errs []error
			c.second(t, a, store, &errs)
		})
	}
}

// TestRevalidateBadPeer sends, to a store filled by a first run, 304s that
// do not fit: each ends paging with a clear error, and no stored page is
// yielded for another URL.
func TestRevalidateBadPeer(t *testing.T) {
	const n, size = 6, 3
	cases := []struct {
		name    string
		rewrite func(a *quotaAPI) func(w http.ResponseWriter, r *http.Request) bool
		edit    func(p *paging.StoredPage)
		want    error
	}{
		{"a 304 to a request without validators", func(*quotaAPI) func(w http.ResponseWriter, r *http.Request) bool {
			return func(w http.ResponseWriter, r *http.Request) bool {
				w.WriteHeader(http.StatusNotModified)
				return true
			}
		}, func(p *paging.StoredPage) { p.Header.Del("ETag"); p.Header.Del("Last-Modified") }, paging.ErrStatus},
		{"a 304 with another ETag", func(*quotaAPI) func(w http.ResponseWriter, r *http.Request) bool {
			return func(w http.ResponseWriter, r *http.Request) bool {
				w.Header().Set("ETag", `"other"`)
				w.WriteHeader(http.StatusNotModified)
				return true
			}
		}, nil, paging.ErrNotModified},
		{"a 304 with a Content-Length", func(*quotaAPI) func(w http.ResponseWriter, r *http.Request) bool {
			return func(w http.ResponseWriter, r *http.Request) bool {
				conn, buf, err := w.(http.Hijacker).Hijack() // net/http drops it from a 304
				if err != nil {
					panic(err)
				}
				defer conn.Close()
				_, _ = buf.WriteString("HTTP/1.1 304 Not Modified\r\nContent-Length: 12345\r\nConnection: close\r\n\r\n")
				_ = buf.Flush()
				return true
			}
		}, nil, paging.ErrNotModified},
		{"a stored page of another URL", nil, func(p *paging.StoredPage) {
			p.URL = strings.Replace(p.URL, "page=1", "page=2", 1)
		}, paging.ErrNotModified},
		{"a 304 after a redirect", func(a *quotaAPI) func(w http.ResponseWriter, r *http.Request) bool {
			return func(w http.ResponseWriter, r *http.Request) bool {
				if r.URL.Query().Get("moved") == "" {
					http.Redirect(w, r, r.URL.String()+"&moved=1", http.StatusFound)
					return true
				}
				w.WriteHeader(http.StatusNotModified)
				return true
			}
		}, nil, paging.ErrNotModified},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := newQuotaAPI(t, n)
			store := paging.NewMemoryStore(1 << 20)
			if first := run(http.DefaultClient, a.page(t, size, "tokenA"), paging.Revalidate(store)); first.err != nil {
				t.Fatal(first.err)
			}
			if c.rewrite != nil {
				a.mu.Lock()
				a.rewrite = c.rewrite(a)
				a.mu.Unlock()
			}
			var s paging.PageStore = store
			if c.edit != nil {
				s = editingStore{PageStore: store, edit: c.edit}
			}
			var pages []string
			var err error
			for resp, e := range paging.Pages(context.Background(), nil, a.page(t, size, "tokenA"), paging.Revalidate(s)) {
				if e != nil {
					err = e
					break
				}
				body, _ := io.ReadAll(resp.Body)
				pages = append(pages, string(body))
			}
			if !errors.Is(err, c.want) || len(pages) != 0 {
				t.Errorf("got %v after pages %q; want %v and no page", err, pages, c.want)
			}
			if err != nil && strings.ContainsAny(err.Error(), "\r\n\x1b") {
				t.Errorf("error %q holds a control byte", err)
			}
		})
	}
}

// TestRevalidateBigPage pages a page whose body is over 8 MiB: it streams
// from the network as without Revalidate and is not stored.
func TestRevalidateBigPage(t *testing.T) {
	if testing.Short() {
		t.Skip("9 MiB through loopback")
	}
	big := strings.Repeat("x", 9<<20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"big"`)
		if r.Header.Get("If-None-Match") == `"big"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		if r.URL.Query().Get("chunked") == "" {
			w.Header().Set("Content-Length", strconv.Itoa(len(big)))
		}
		_, _ = io.WriteString(w, big)
	}))
	defer srv.Close()
	for _, path := range []string{"/", "/?chunked=1"} {
		rec := &recordingStore{PageStore: paging.NewMemoryStore(1 << 30)}
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		for resp, err := range paging.Pages(context.Background(), nil, req, paging.Revalidate(rec)) {
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			if err != nil || len(body) != len(big) {
				t.Errorf("%s: read %d bytes, %v", path, len(body), err)
			}
		}
		if len(rec.put) != 0 {
			t.Errorf("%s: a page over 8 MiB stored", path)
		}
	}
}

// TestRevalidateJSONServer pages a real API, json-server 0.17.4, twice with
// one store: the second run sends If-None-Match, gets 304s for every page
// but the last (rule 24), yields the same items in order, and reads from
// the network no body of a page answered 304; a third run does the same
// with Parallel. It first checks json-server's own 304s, so that a change
// there fails here, not as a puzzle below.
func TestRevalidateJSONServer(t *testing.T) {
	base, want := startJSONServer(t, 103)
	const first = "/items?_page=1&_limit=10" // 11 pages, the last of 3 items

	// json-server answers a GET with a weak ETag, and If-None-Match with
	// that ETag with a 304 without a body.
	resp, err := http.Get(base + first)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	etag := resp.Header.Get("ETag")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(etag, `W/"`) {
		t.Fatalf("json-server answered %s with ETag %q, want 200 and a weak ETag", resp.Status, etag)
	}
	req, _ := http.NewRequest(http.MethodGet, base+first, nil)
	req.Header.Set("If-None-Match", etag)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotModified || len(body) != 0 || resp.Header.Get("ETag") != etag {
		t.Fatalf("json-server answered If-None-Match with %s, ETag %q, %d bytes; want 304, the same ETag, no body", resp.Status, resp.Header.Get("ETag"), len(body))
	}

	counter := &bodies{rt: http.DefaultTransport}
	client := &http.Client{Transport: counter}
	store := paging.NewMemoryStore(1 << 20)
	var storeErrs []error
	page := func(opts ...paging.Option) (items []jsonItem, revalidated int, bodyBytes int64, conditional int) {
		counter.bytes.Store(0)
		counter.conditional.Store(0)
		req, _ := http.NewRequest(http.MethodGet, base+first, nil)
		decode := func(resp *http.Response) ([]jsonItem, error) {
			if paging.Revalidated(resp) {
				revalidated++
			}
			return paging.JSONItems[jsonItem](resp)
		}
		opts = append(opts, paging.Revalidate(store), paging.StoreErrors(func(err error) { storeErrs = append(storeErrs, err) }))
		for it, err := range paging.Items(context.Background(), client, req, decode, opts...) {
			if err != nil {
				t.Fatal(err)
			}
			items = append(items, it)
		}
		return items, revalidated, counter.bytes.Load(), int(counter.conditional.Load())
	}
	items, revalidated, full, _ := page()
	if !slices.Equal(items, want) || revalidated != 0 {
		t.Fatalf("first run: %d items, %d revalidated", len(items), revalidated)
	}
	lastPage := int64(len(`[
  {
    "id": 101,
    "name": "item 101"
  },
  {
    "id": 102,
    "name": "item 102"
  },
  {
    "id": 103,
    "name": "item 103"
  }
]`))
	for _, opts := range [][]paging.Option{nil, {paging.Parallel(4)}} {
		items, revalidated, bytes, conditional := page(opts...)
		if !slices.Equal(items, want) {
			t.Errorf("run with %d options: %d items, not those of the first run", len(opts), len(items))
		}
		if revalidated != 10 || conditional != 10 || bytes != lastPage {
			t.Errorf("run with %d options: %d pages revalidated, %d requests with If-None-Match, %d body bytes read of %d in all; want 10, 10 and the last page's %d",
				len(opts), revalidated, conditional, bytes, full, lastPage)
		}
		t.Logf("re-sync with %d options: 11 pages, %d answered 304, %d body bytes read from the network (first run %d)", len(opts), revalidated, bytes, full)
	}
	if len(storeErrs) != 0 {
		t.Errorf("store errors: %v", storeErrs)
	}
}

// TestRevalidateGzip304ContentLength pages twice a server that sends its
// page gzip-coded (net/http asks for it, and decodes it: the stored body is
// the decoded one) and answers the second request 304 with the
// Content-Length the 200 would have had, as RFC 9110 §8.6 allows: the
// coded length. That 304 fits the stored page (rule 22).
func TestRevalidateGzip304ContentLength(t *testing.T) {
	const page = `["a","b","c"]`
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	_, _ = io.WriteString(zw, page+strings.Repeat(" ", 200))
	_ = zw.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/last" {
			return // the last page: requested without validators (rule 24)
		}
		if r.Header.Get("If-None-Match") == `"v1"` {
			conn, buf, err := w.(http.Hijacker).Hijack() // net/http drops Content-Length from a 304
			if err != nil {
				panic(err)
			}
			defer conn.Close()
			_, _ = buf.WriteString("HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nContent-Length: " +
				strconv.Itoa(zipped.Len()) + "\r\nConnection: close\r\n\r\n")
			_ = buf.Flush()
			return
		}
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Link", `</last>; rel="next"`)
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", strconv.Itoa(zipped.Len()))
		_, _ = w.Write(zipped.Bytes())
	}))
	defer srv.Close()
	store := paging.NewMemoryStore(1 << 20)
	for run := range 2 {
		req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
		for resp, err := range paging.Pages(context.Background(), nil, req, paging.Revalidate(store)) {
			if err != nil {
				t.Fatalf("run %d: %v", run+1, err)
			}
			if resp.Request.URL.Path == "/last" {
				continue
			}
			body, _ := io.ReadAll(resp.Body)
			if !strings.HasPrefix(string(body), page) || paging.Revalidated(resp) != (run == 1) {
				t.Errorf("run %d: body %q, revalidated %v", run+1, body, paging.Revalidated(resp))
			}
		}
	}
}

// TestRevalidate304TakesACount pins the known limitation of the package
// doc's "Re-syncing": a 304 takes a request from a RateLimiter's count
// (rule 13) and does not give it back (rule 14). A quotaAPI of 6 requests
// a window (an hour), 5 of them spent by a first run of 5 pages, is paged
// again with a RateLimiter: the API charges nothing for the 304s, but the
// limiter's count is 0 after two of them, and the wait for the reset,
// past maxWait, ends the re-sync with ErrRateLimited, though the API had
// a request left and refused none. Without a limiter (what the doc
// suggests for such a re-sync), the same re-sync yields every item and
// spends that last request. When a change lifts the limitation, this test
// fails: say so in the docs.
func TestRevalidate304TakesACount(t *testing.T) {
	const n, quota = 5, 6
	a := newQuotaAPI(t, n)
	spent := 0 // the 200s of the window, over the runs (counts resets a.quota)
	a.extra = func(h http.Header, _ int, notMod bool) {
		if !notMod {
			spent++
		}
		h.Set("X-RateLimit-Limit", strconv.Itoa(quota))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(quota-spent))
	}
	store := paging.NewMemoryStore(1 << 20)
	first := run(nil, a.page(t, 1, "tok"), paging.Revalidate(store))
	if used, _, _ := a.counts(); first.err != nil || used != n {
		t.Fatalf("first run: %v, quota %d; want no error, %d", first.err, used, n)
	}

	limited := run(nil, a.page(t, 1, "tok"), paging.Revalidate(store), paging.NewRateLimiter(time.Minute).Option())
	used, status, _ := a.counts()
	t.Logf("re-sync with a RateLimiter: %d items, %d pages revalidated, API quota %d, responses %v, %v", len(limited.items), limited.revalidated, used, status, limited.err)
	if !errors.Is(limited.err, paging.ErrRateLimited) || len(limited.items) != 2 || limited.revalidated != 2 ||
		used != 0 || status[304] != 2 || len(status) != 1 {
		t.Errorf("re-sync with a RateLimiter: %d items, %d revalidated, %v; API quota %d, responses %v; want 2 items both 304, ErrRateLimited, quota 0, no refusal",
			len(limited.items), limited.revalidated, limited.err, used, status)
	}

	free := run(nil, a.page(t, 1, "tok"), paging.Revalidate(store))
	used, status, _ = a.counts()
	if free.err != nil || !slices.Equal(free.items, tokenItems("tok", n)) || used != 1 || status[304] != n-1 {
		t.Errorf("re-sync without a limiter: %d items, %v; API quota %d, responses %v; want %d items, quota 1 (the last page), %d 304s",
			len(free.items), free.err, used, status, n, n-1)
	}
}
