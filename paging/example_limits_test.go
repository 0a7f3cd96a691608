package paging_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"time"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/paging"
)

// countedAPI serves three pages of one item each, saying in
// X-RateLimit-Remaining and X-RateLimit-Reset that 4999 requests are left
// of the hour, then 4998, then 4997.
func countedAPI() *httptest.Server {
	var mu sync.Mutex
	left := 5000
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		left--
		w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(left))
		mu.Unlock()
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10))
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = max(page, 1)
		weblink.Add(w.Header(), weblink.PageLinks(r.URL, "page", page, 3)...)
		fmt.Fprintf(w, "[%d]", page)
	}))
}

// printingStore is a LimitStore that lets every request go and prints
// what it learns: a store of your own (a database's, say) implements the
// rules of package paging in Take and Learned, each one atomic step.
type printingStore struct{}

func (printingStore) Take(context.Context) (time.Duration, error) { return 0, nil }

func (printingStore) Learned(_ context.Context, l paging.Limit) error {
	fmt.Printf("learned: %d left, reset said: %v, refused: %v\n", l.Remaining, !l.Reset.IsZero(), !l.Until.IsZero())
	return nil
}

// ExampleNewSharedRateLimiter pages with a rate limiter whose requests are
// taken from a store that every process shares; in production the store is
// package redisstore's (see docs/pagination.md).
func ExampleNewSharedRateLimiter() {
	srv := countedAPI()
	defer srv.Close()
	limiter := paging.NewSharedRateLimiter(10*time.Minute, printingStore{})
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/issues", nil)
	for n, err := range paging.Items(context.Background(), nil, req, paging.JSONItems[int], limiter.Option()) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("item", n)
	}
	// Output:
	// learned: 4999 left, reset said: true, refused: false
	// item 1
	// learned: 4998 left, reset said: true, refused: false
	// item 2
	// learned: 4997 left, reset said: true, refused: false
	// item 3
}

// ExampleLimitStore shows the contract of a LimitStore: Take reserves a
// request or says how long to wait; Learned records what a response said.
func ExampleLimitStore() {
	var store paging.LimitStore = printingStore{}
	ctx := context.Background()
	if wait, err := store.Take(ctx); err == nil && wait == 0 {
		fmt.Println("send the request")
	}
	_ = store.Learned(ctx, paging.Limit{Remaining: 41, Reset: time.Now().Add(time.Hour)})
	// Output:
	// send the request
	// learned: 41 left, reset said: true, refused: false
}

// ExampleLimit is what a 403 of GitHub's spent rate limit says: no request
// left, and none until the reset.
func ExampleLimit() {
	reset := time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)
	l := paging.Limit{Remaining: 0, Reset: reset, Until: reset}
	fmt.Println(l.Remaining, l.Until.Format(time.RFC3339))
	// Output: 0 2026-12-01T14:00:00Z
}

// downStore is a LimitStore whose every call fails, as a Redis that has
// gone away.
type downStore struct{}

func (downStore) Take(context.Context) (time.Duration, error) {
	return 0, errors.New("dial tcp 10.0.0.7:6379: connection refused")
}

func (downStore) Learned(context.Context, paging.Limit) error {
	return errors.New("dial tcp 10.0.0.7:6379: connection refused")
}

// ExampleStoreErrors shows that a store error does not end paging: the
// iteration goes on with what its process knows, and the errors go to the
// function given (to a log, a metric).
func ExampleStoreErrors() {
	srv := countedAPI()
	defer srv.Close()
	var mu sync.Mutex
	failed := 0
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/issues", nil)
	for n, err := range paging.Items(context.Background(), nil, req, paging.JSONItems[int],
		paging.NewSharedRateLimiter(10*time.Minute, downStore{}).Option(),
		paging.StoreErrors(func(err error) {
			mu.Lock()
			defer mu.Unlock()
			failed++
		})) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("item", n)
	}
	fmt.Println(failed, "store errors")
	// Output:
	// item 1
	// item 2
	// item 3
	// 6 store errors
}

// mapStore is a PageStore in a map, safe for concurrent use.
type mapStore struct {
	mu    sync.Mutex
	pages map[string]paging.StoredPage
}

func (s *mapStore) Get(_ context.Context, key string) (paging.StoredPage, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.pages[key]
	return p, ok, nil
}

func (s *mapStore) Put(_ context.Context, key string, p paging.StoredPage) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[key] = p
	return nil
}

// ExamplePageStore keeps a page and reads it back: a store of your own
// implements Get and Put; package redisstore has one in Redis.
func ExamplePageStore() {
	var store paging.PageStore = &mapStore{pages: map[string]paging.StoredPage{}}
	ctx := context.Background()
	_ = store.Put(ctx, "https://api.example/items?page=2", paging.StoredPage{
		URL:    "https://api.example/items?page=2",
		Header: http.Header{"Etag": {`"v7"`}},
		Body:   []byte(`[3, 4]`),
	})
	p, ok, err := store.Get(ctx, "https://api.example/items?page=2")
	fmt.Println(ok, err, p.Header.Get("ETag"), string(p.Body))
	// Output: true <nil> "v7" [3, 4]
}

// ExampleStoredPage is a page as a PageStore keeps it: its URL after
// redirects, the 200 response's header, and its whole body.
func ExampleStoredPage() {
	p := paging.StoredPage{URL: "https://api.example/items", Header: http.Header{"Last-Modified": {"Tue, 01 Dec 2026 12:00:00 GMT"}}, Body: []byte("[]")}
	fmt.Println(p.URL, p.Header.Get("Last-Modified"), len(p.Body))
	// Output: https://api.example/items Tue, 01 Dec 2026 12:00:00 GMT 2
}
