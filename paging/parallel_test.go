package paging_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/memtest"
	"github.com/weblinking/weblink/paging"
)

// Rule 7: with slow pages answering at random, the pages come in order,
// each requested once, and no more than n are requested at once.
func TestParallelOrder(t *testing.T) {
	const pages = 30
	for _, n := range []int{2, 4, 8} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			c := &concurrency{delay: func(*http.Request) time.Duration {
				return time.Duration(rand.IntN(20)) * time.Millisecond
			}}
			a := newAPI(t, pages, numbered(pages), c.wrap)
			client, tr := newClient(t)
			defer noLeak(t, tr)()
			r := collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(n)))
			r.check(t, itemsUpTo(1, pages), nil)
			seen := map[int]int{}
			for _, uri := range a.uris() {
				seen[pageOf(uri)]++
			}
			for p := 1; p <= pages; p++ {
				if seen[p] != 1 {
					t.Errorf("page %d requested %d times", p, seen[p])
				}
			}
			if m := c.max.Load(); m > int64(n) || m < 2 {
				t.Errorf("%d requests at once, want 2 to %d", m, n)
			}
			t.Logf("at most %d requests at once", c.max.Load())
		})
	}
}

// Rule 7: one page that answers slowly holds up none of the others'
// requests, and is still yielded in its place; while it is awaited, no
// more than n pages are requested past it.
func TestParallelSlowPageKeepsOrder(t *testing.T) {
	const pages = 12
	var (
		mu       sync.Mutex
		answered []int // pages, in the order the server answered them
		arrived  = map[int]int{}
	)
	a := newAPI(t, pages, numbered(pages), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p, _ := strconv.Atoi(r.URL.Query().Get("page"))
			mu.Lock()
			arrived[p] = len(answered) // pages answered before p arrived
			mu.Unlock()
			if p == 3 {
				time.Sleep(300 * time.Millisecond)
			}
			mu.Lock()
			answered = append(answered, p)
			mu.Unlock()
			items.ServeHTTP(w, r)
		})
	})
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	var order []int
	for resp, err := range paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(4)) {
		if err != nil {
			t.Fatal(err)
		}
		order = append(order, pageOf(resp.Request.URL.RequestURI()))
	}
	if !slices.Equal(order, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}) {
		t.Errorf("order %v", order)
	}
	mu.Lock()
	defer mu.Unlock()
	if i := slices.Index(answered, 3); i < 4 {
		t.Errorf("answered in the order %v: pages 4 to 6 waited for page 3", answered)
	}
	// Page 7 is requested only once page 3 is taken: answered were 1, 2,
	// 4, 5, 6 and 3.
	if arrived[7] < 6 {
		t.Errorf("page 7 requested after %d answers (order %v), before page 3 was in", arrived[7], answered)
	}
}

// pagesRequested returns the page numbers a has been asked for.
func pagesRequested(a *api) []int {
	var out []int
	for _, uri := range a.uris() {
		out = append(out, pageOf(uri))
	}
	return out
}

// Rule 6: only a next and a last link one page-number series apart are
// predicted; everything else is paged one page at a time, as without
// Parallel.
func TestParallelNotPredicted(t *testing.T) {
	const pages = 6
	other := newAPI(t, pages, nextOnly(pages))
	for _, tc := range []struct {
		name  string
		links func(base string, p int) []string
	}{
		{"cursor paging: no last link", nextOnly(pages)},
		{"last on another origin", func(base string, p int) []string {
			return append(nextOnly(pages)(base, p), fmt.Sprintf(`<%s/items?page=%d>; rel="last"`, other.URL, pages))
		}},
		{"last on another scheme", func(base string, p int) []string {
			return append(nextOnly(pages)(base, p), fmt.Sprintf(`<%s/items?page=%d>; rel="last"`, strings.Replace(base, "http:", "https:", 1), pages))
		}},
		{"last on another path", func(base string, p int) []string {
			return append(nextOnly(pages)(base, p), fmt.Sprintf(`<%s/v2/items?page=%d>; rel="last"`, base, pages))
		}},
		{"two parameters differ", func(base string, p int) []string {
			return append(nextOnly(pages)(base, p), fmt.Sprintf(`<%s/items?page=%d&x=1>; rel="last"`, base, pages))
		}},
		{"a cursor, not a number", func(base string, p int) []string {
			return append(nextOnly(pages)(base, p), fmt.Sprintf(`<%s/items?page=%dz>; rel="last"`, base, pages))
		}},
		{"a leading zero", func(base string, p int) []string {
			return append(nextOnly(pages)(base, p), fmt.Sprintf(`<%s/items?page=0%d>; rel="last"`, base, pages))
		}},
		{"next is not the current page plus one", func(base string, p int) []string {
			links := []string{fmt.Sprintf(`<%s/items?page=%d>; rel="last"`, base, pages)}
			if p < pages {
				links = append(links, fmt.Sprintf(`<%s/items?page=%d&skip=1>; rel="next"`, base, p+1))
			}
			return links
		}},
		{"next beyond last", func(base string, p int) []string {
			return append(nextOnly(pages)(base, p), fmt.Sprintf(`<%s/items?page=1>; rel="last"`, base))
		}},
		{"last anchored elsewhere", func(base string, p int) []string {
			return append(nextOnly(pages)(base, p), fmt.Sprintf(`<%s/items?page=%d>; rel="last"; anchor="/other"`, base, pages))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &concurrency{delay: func(*http.Request) time.Duration { return 5 * time.Millisecond }}
			a := newAPI(t, pages, tc.links, c.wrap)
			client, tr := newClient(t)
			defer noLeak(t, tr)()
			r := collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(4)))
			r.check(t, itemsUpTo(1, pages), nil)
			if m := c.max.Load(); m != 1 {
				t.Errorf("%d requests at once, want 1", m)
			}
			if got := pagesRequested(a); !slices.Equal(got, []int{1, 2, 3, 4, 5, 6}) {
				t.Errorf("requested %v", got)
			}
			if len(other.requests()) != 0 {
				t.Errorf("the other origin got %v", other.uris())
			}
		})
	}
}

// Rule 6: a first URL without the page parameter is page 1, as GitHub's
// and GitLab's first requests are.
func TestParallelFirstPageWithoutNumber(t *testing.T) {
	const pages = 8
	c := &concurrency{delay: func(*http.Request) time.Duration { return 10 * time.Millisecond }}
	a := newAPI(t, pages, numbered(pages), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.RawQuery == "per_page=3" {
				r.URL.RawQuery = "page=1&per_page=3"
			}
			c.wrap(items).ServeHTTP(w, r)
		})
	})
	req, err := http.NewRequest(http.MethodGet, a.URL+"/items?per_page=3", nil)
	if err != nil {
		t.Fatal(err)
	}
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	collect(t, paging.Pages(context.Background(), client, req, paging.Parallel(3))).check(t, itemsUpTo(1, pages), nil)
	if m := c.max.Load(); m < 2 {
		t.Errorf("%d requests at once: not predicted", m)
	}
}

// Rule 8: when a page's own next link is not the one predicted (an item
// was inserted and the server's links moved to a new snapshot), the pages
// requested after it are discarded unread and paging goes on from its next
// link, one page at a time.
func TestParallelFallback(t *testing.T) {
	const pages = 10
	var inserted atomic.Bool
	c := &concurrency{delay: func(*http.Request) time.Duration { return 5 * time.Millisecond }}
	a := newAPI(t, pages, nil, func(http.Handler) http.Handler {
		return c.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p, _ := strconv.Atoi(r.URL.Query().Get("page"))
			snapshot := r.URL.Query().Get("snapshot")
			if p == 4 {
				inserted.Store(true) // an item is inserted while page 4 is served
			}
			links := numbered(pages)("", p)
			items := pageItems(p)
			switch {
			case snapshot == "2":
				// After the insertion: the items moved by one.
				for i := range items {
					items[i] += 100
				}
				fallthrough
			case p == 4:
				for i, l := range links {
					links[i] = strings.Replace(l, "&per_page", "&snapshot=2&per_page", 1)
				}
			}
			for _, l := range links {
				w.Header().Add("Link", l)
			}
			fmt.Fprintf(w, "%s", strings.ReplaceAll(fmt.Sprint(items), " ", ","))
		}))
	})
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	var bodies []*http.Response
	r := collect(t, func(yield func(*http.Response, error) bool) {
		for resp, err := range paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(4)) {
			bodies = append(bodies, resp)
			if !yield(resp, err) {
				return
			}
		}
	})
	want := itemsUpTo(1, 4)
	for p := 5; p <= pages; p++ {
		for _, item := range pageItems(p) {
			want = append(want, item+100)
		}
	}
	r.check(t, want, nil)
	if !inserted.Load() {
		t.Fatal("page 4 not served")
	}
	// Pages 5 to 8 of the old snapshot were requested ahead (no more than
	// n), then each page of the new one once, one at a time.
	old, snap := 0, 0
	for _, uri := range a.uris() {
		switch {
		case strings.Contains(uri, "snapshot=2"):
			snap++
		case pageOf(uri) > 4:
			old++
		}
	}
	if old > 4 || snap != pages-4 {
		t.Errorf("%d pages of the old snapshot after page 4 (want at most 4), %d of the new (want %d): %q", old, snap, pages-4, a.uris())
	}
	waitFor(t, "connections to close or idle", func() bool { tr.CloseIdleConnections(); return a.open.Load() == 0 })
}

// Rule 8: a page without a next link before the predicted last (items
// were deleted) is the last page; what was requested after it is discarded.
func TestParallelShrinks(t *testing.T) {
	const pages = 10
	a := newAPI(t, pages, func(base string, p int) []string {
		if p == 5 {
			return numbered(5)(base, p) // the collection now ends here
		}
		return numbered(pages)(base, p)
	})
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	r := collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(4)))
	r.check(t, itemsUpTo(1, 5), nil)
	if got := slices.Max(pagesRequested(a)); got > 9 {
		t.Errorf("requested up to page %d, want at most 5 + 4", got)
	}
}

// Rule 8: the last page having a next link after all (items were added)
// is followed, one page at a time.
func TestParallelGrows(t *testing.T) {
	a := newAPI(t, 8, func(base string, p int) []string {
		if p == 1 {
			return numbered(5)(base, p) // page 1 said 5 pages
		}
		return numbered(8)(base, p)
	})
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(4))).check(t, itemsUpTo(1, 8), nil)
	seen := map[int]int{}
	for _, p := range pagesRequested(a) {
		seen[p]++
	}
	if len(seen) != 8 || slices.Max(slices.Collect(mapValues(seen))) != 1 {
		t.Errorf("requests %v", a.uris())
	}
}

func mapValues(m map[int]int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for _, v := range m {
			if !yield(v) {
				return
			}
		}
	}
}

// Rule 9: MaxPages(m) counts yielded pages and no page beyond m is ever
// requested.
func TestParallelMaxPages(t *testing.T) {
	const pages = 20
	for _, m := range []int{1, 2, 3, 5, 7} {
		t.Run(strconv.Itoa(m), func(t *testing.T) {
			a := newAPI(t, pages, numbered(pages))
			client, tr := newClient(t)
			defer noLeak(t, tr)()
			r := collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(4), paging.MaxPages(m)))
			r.check(t, itemsUpTo(1, m), paging.ErrMaxPages)
			if r.pages != m {
				t.Errorf("%d pages yielded, want %d", r.pages, m)
			}
			got := pagesRequested(a)
			slices.Sort(got)
			if want := slices.Collect(func(yield func(int) bool) {
				for p := 1; p <= m && yield(p); p++ {
				}
			}); !slices.Equal(got, want) {
				t.Errorf("requested %v, want %v", got, want)
			}
		})
	}
}

// Rule 7: break cancels the requests in flight (the server sees them go)
// and leaves no goroutine; so does a loop body that panics.
func TestParallelBreak(t *testing.T) {
	const pages = 20
	for _, stopAt := range []int{1, 3} {
		for _, panics := range []bool{false, true} {
			t.Run(fmt.Sprintf("page %d panic %v", stopAt, panics), func(t *testing.T) {
				c := &concurrency{delay: func(r *http.Request) time.Duration {
					if p, _ := strconv.Atoi(r.URL.Query().Get("page")); p > stopAt {
						return time.Minute // answers only when the client gives up
					}
					return 0
				}}
				a := newAPI(t, pages, numbered(pages), c.wrap)
				client, tr := newClient(t)
				defer noLeak(t, tr)()
				start := time.Now()
				func() {
					defer func() {
						if v := recover(); (v != nil) != panics {
							t.Errorf("recovered %v", v)
						}
					}()
					n := 0
					for _, err := range paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(4)) {
						if err != nil {
							t.Fatal(err)
						}
						if n++; n == stopAt {
							waitFor(t, "requests ahead", func() bool { return c.now.Load() == 4 })
							if panics {
								panic("loop body")
							}
							break
						}
					}
				}()
				waitFor(t, "the server to see the requests cancelled", func() bool { return c.cancelled.Load() == 4 && c.now.Load() == 0 })
				if d := time.Since(start); d > 20*time.Second {
					t.Errorf("took %v", d)
				}
			})
		}
	}
}

// Bad input: a last page of 10^12 makes the client request no more than n
// pages ahead of the loop.
func TestParallelHugeLast(t *testing.T) {
	const last = 1_000_000_000_000
	a := newAPI(t, last, numbered(last))
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	b := memtest.Allocated(func() {
		n := 0
		for _, err := range paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(4)) {
			if err != nil {
				t.Fatal(err)
			}
			if n++; n == 10 {
				break
			}
		}
	})
	if got := len(a.requests()); got > 10+4 {
		t.Errorf("%d requests for 10 pages, want at most 14", got)
	}
	if b > 4<<20 { // the client's and the server's, for 14 requests
		t.Errorf("%d bytes allocated for 10 pages", b)
	}
}

// Rule 8: a predicted page that redirects to another origin is checked as
// a followed one: the redirect gets no credentials, and that page's next
// link, on the other origin, ends paging.
func TestParallelRedirectToOtherOrigin(t *testing.T) {
	const pages = 8
	b := newAPI(t, pages, func(_ string, p int) []string { return numbered(pages)("", p) }) // relative links
	a := newAPI(t, pages, numbered(pages), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("page") == "3" {
				http.Redirect(w, r, b.URL+"/items?page=3&per_page=3", http.StatusFound)
				return
			}
			items.ServeHTTP(w, r)
		})
	})
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	r := collect(t, paging.Pages(context.Background(), client, withCredentials(getItems(t, a.URL)), paging.Parallel(4)))
	r.check(t, itemsUpTo(1, 3), paging.ErrCrossOrigin)
	for _, req := range a.requests() {
		checkCredentials(t, req, true)
	}
	if got := b.uris(); !slices.Equal(got, []string{"/items?page=3&per_page=3"}) {
		t.Errorf("b got %q", got)
	}
	for _, req := range b.requests() {
		checkCredentials(t, req, false)
	}
}

// Rule 8: the pages predicted on the origin where the first page ended up
// (a canonical host) get no credentials, which go to req's origin only.
func TestParallelCredentials(t *testing.T) {
	const pages = 6
	b := newAPI(t, pages, numbered(pages))
	a := newAPI(t, 0, nil, func(http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, b.URL+r.URL.RequestURI(), http.StatusMovedPermanently)
		})
	})
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	r := collect(t, paging.Pages(context.Background(), client, withCredentials(getItems(t, a.URL)), paging.Parallel(4)))
	r.check(t, itemsUpTo(1, pages), nil)
	if len(b.requests()) != pages {
		t.Errorf("b got %q", b.uris())
	}
	for _, req := range b.requests() {
		checkCredentials(t, req, false)
	}
}

// Rule 9: a page refused by a rate limit pauses every request not yet
// sent until the time the server gave; the refused page is requested again
// then, and the pages come in order. Page 5 is refused at once while pages
// 2 and 3 are slow: pages 6 and 7, launched when those are taken, wait for
// the pause.
func TestParallelRateLimitPauses(t *testing.T) {
	const pages = 12
	var (
		mu      sync.Mutex
		refused time.Time
		times   []time.Time
	)
	a := newAPI(t, pages, numbered(pages), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			page := r.URL.Query().Get("page")
			mu.Lock()
			now := time.Now()
			times = append(times, now)
			first := page == "5" && refused.IsZero()
			if first {
				refused = now
			}
			mu.Unlock()
			if first {
				w.Header().Set("Retry-After", "1")
				http.Error(w, "slow down", http.StatusTooManyRequests)
				return
			}
			if page == "2" || page == "3" {
				time.Sleep(300 * time.Millisecond)
			}
			items.ServeHTTP(w, r)
		})
	})
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	start := time.Now()
	r := collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(4), paging.WaitRateLimits(time.Minute)))
	r.check(t, itemsUpTo(1, pages), nil)
	if d := time.Since(start); d < time.Second {
		t.Errorf("took %v, less than the Retry-After", d)
	}
	mu.Lock()
	defer mu.Unlock()
	// Requests already sent when the 429 came may arrive just after it;
	// none may arrive later in the pause.
	for _, at := range times {
		if d := at.Sub(refused); d > 100*time.Millisecond && d < 900*time.Millisecond {
			t.Errorf("a request arrived %v after the 429, in the pause", d)
		}
	}
	if len(times) != pages+1 {
		t.Errorf("%d requests, want %d", len(times), pages+1)
	}
}

// Rule 9: a wait WaitRateLimits will not make ends the iteration in page
// order with ErrRateLimited, and nothing more is sent: with the 429 of page
// 4, or, for a page before it that had not been sent yet when the 429 came,
// with that page not requested.
func TestParallelRateLimitGivesUp(t *testing.T) {
	const pages = 12
	a := newAPI(t, pages, numbered(pages), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("page") == "4" {
				w.Header().Set("Retry-After", "3600")
				http.Error(w, "slow down", http.StatusTooManyRequests)
				return
			}
			time.Sleep(10 * time.Millisecond)
			items.ServeHTTP(w, r)
		})
	})
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	r := collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(4), paging.WaitRateLimits(time.Minute)))
	if !errors.Is(r.err, paging.ErrRateLimited) {
		t.Fatalf("error %v, want ErrRateLimited", r.err)
	}
	var se *paging.StatusError
	switch {
	case errors.As(r.err, &se):
		if se.StatusCode != http.StatusTooManyRequests || r.pages != 4 || !slices.Equal(r.items, itemsUpTo(1, 3)) {
			t.Errorf("%d responses, items %v, error %v; want pages 1 to 3, then the 429", r.pages, r.items, r.err)
		}
	case r.pages < 1 || r.pages > 3 || !slices.Equal(r.items, itemsUpTo(1, r.pages)):
		t.Errorf("%d responses, items %v, error %v", r.pages, r.items, r.err)
	}
	if got := slices.Max(pagesRequested(a)); got > 7 {
		t.Errorf("requested up to page %d, want at most 4 + 3", got)
	}
}

// Rule 9: a 2xx page saying no request is left pauses the requests not yet
// sent until its reset. Page 2 answers after page 3; page 4, launched when
// page 2 is taken, waits for the reset.
func TestParallelRemainingZeroPauses(t *testing.T) {
	const pages = 8
	var (
		mu    sync.Mutex
		spent time.Time
		late  []string
	)
	a := newAPI(t, pages, numbered(pages), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			if !spent.IsZero() && time.Since(spent) < 900*time.Millisecond {
				late = append(late, r.URL.RequestURI())
			}
			mu.Unlock()
			if r.URL.Query().Get("page") == "2" {
				time.Sleep(100 * time.Millisecond)
				w.Header().Set("X-RateLimit-Remaining", "0")
				w.Header().Set("X-RateLimit-Reset", "1")
				mu.Lock()
				spent = time.Now()
				mu.Unlock()
			}
			items.ServeHTTP(w, r)
		})
	})
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	r := collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(2), paging.WaitRateLimits(time.Minute)))
	r.check(t, itemsUpTo(1, pages), nil)
	mu.Lock()
	defer mu.Unlock()
	if len(late) > 0 {
		t.Errorf("sent in the pause: %q", late)
	}
}

// Rule 10: BeforeNext runs for each request before it is sent, in the
// goroutine of the loop, and what it sets is sent.
func TestParallelBeforeNext(t *testing.T) {
	const pages = 9
	a := newAPI(t, pages, numbered(pages))
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	var calls []string
	hook := paging.BeforeNext(func(prev *http.Response, next *http.Request) error {
		calls = append(calls, next.URL.RequestURI()) // no lock: the loop's goroutine
		next.Header.Set("X-Signature", strconv.Itoa(len(calls)))
		return nil
	})
	collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(3), hook)).check(t, itemsUpTo(1, pages), nil)
	if len(calls) != pages-1 {
		t.Errorf("BeforeNext ran for %q", calls)
	}
	for _, r := range a.requests()[1:] {
		if r.Header.Get("X-Signature") == "" {
			t.Errorf("%s sent without what BeforeNext set", r.URI)
		}
	}
}

// Rule 10: a BeforeNext refusal comes in page order, after the pages before
// it.
func TestParallelBeforeNextRefuses(t *testing.T) {
	const pages = 9
	a := newAPI(t, pages, numbered(pages))
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	errBudget := errors.New("budget spent")
	hook := paging.BeforeNext(func(prev *http.Response, next *http.Request) error {
		if next.URL.Query().Get("page") == "6" {
			return errBudget
		}
		return nil
	})
	r := collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(3), hook))
	r.check(t, itemsUpTo(1, 5), errBudget)
	if got := slices.Max(pagesRequested(a)); got != 5 {
		t.Errorf("requested up to page %d, want 5", got)
	}
}

// A BeforeNext that panics ends the iteration with its panic, as without
// Parallel: the page it was called for was never sent, and the iteration
// does not wait for it.
func TestParallelBeforeNextPanics(t *testing.T) {
	const pages = 5
	a := newAPI(t, pages, numbered(pages))
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	hook := paging.BeforeNext(func(prev *http.Response, next *http.Request) error { panic("boom") })
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		for range paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(3), hook) {
		}
	}()
	select {
	case v := <-done:
		if v != "boom" {
			t.Errorf("recovered %v, want the panic of BeforeNext", v)
		}
	case <-time.After(10 * time.Second): // at once, with very wide slack
		t.Fatal("the panic of BeforeNext never came out of the loop")
	}
}

// Items with Parallel yields the items of every page in order, as without.
func TestParallelItems(t *testing.T) {
	const pages = 15
	c := &concurrency{delay: func(*http.Request) time.Duration { return time.Duration(rand.IntN(10)) * time.Millisecond }}
	a := newAPI(t, pages, numbered(pages), c.wrap)
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	var got []int
	for item, err := range paging.Items(context.Background(), client, getItems(t, a.URL), paging.JSONItems[int], paging.Parallel(4)) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, item)
	}
	if !slices.Equal(got, itemsUpTo(1, pages)) {
		t.Errorf("items %v", got)
	}
}

// A page that is not 2xx ends the iteration in its place, with what was
// requested after it discarded.
func TestParallelStatusError(t *testing.T) {
	const pages = 10
	a := newAPI(t, pages, numbered(pages), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("page") == "5" {
				http.Error(w, "boom", http.StatusInternalServerError)
				return
			}
			items.ServeHTTP(w, r)
		})
	})
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	r := collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(4)))
	r.check(t, itemsUpTo(1, 4), paging.ErrStatus)
	if r.pages != 5 {
		t.Errorf("%d responses, want 5", r.pages)
	}
}

// The caller's context ends the iteration while pages are in flight.
func TestParallelContextCancelled(t *testing.T) {
	const pages = 10
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := &concurrency{delay: func(r *http.Request) time.Duration {
		if r.URL.Query().Get("page") == "3" {
			cancel()
			return time.Minute
		}
		return 0
	}}
	a := newAPI(t, pages, numbered(pages), c.wrap)
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	r := collect(t, paging.Pages(ctx, client, getItems(t, a.URL), paging.Parallel(4)))
	if !errors.Is(r.err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", r.err)
	}
	// Page 2 may have come before the cancellation or not.
	if !slices.Equal(r.items, itemsUpTo(1, 1)) && !slices.Equal(r.items, itemsUpTo(1, 2)) {
		t.Errorf("items %v", r.items)
	}
}

// Rule 9: four requests refused at once for the same second are one pause
// of the iteration, charged once to maxWait: a maxWait of 1.5 s is enough.
// The server holds the first requests of pages 2 to 5 until all four are
// in, then refuses them.
func TestParallelRefusalsChargedOnce(t *testing.T) {
	const pages = 9
	var (
		mu      sync.Mutex
		refused = map[string]bool{}
	)
	allIn := make(chan struct{})
	a := newAPI(t, pages, numbered(pages), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p := r.URL.Query().Get("page")
			mu.Lock()
			first := p != "1" && !refused[p] && len(refused) < 4
			if first {
				if refused[p] = true; len(refused) == 4 {
					close(allIn)
				}
			}
			mu.Unlock()
			if first {
				select {
				case <-allIn:
				case <-time.After(5 * time.Second):
				}
				w.Header().Set("Retry-After", "1")
				http.Error(w, "slow down", http.StatusTooManyRequests)
				return
			}
			items.ServeHTTP(w, r)
		})
	})
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	r := collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(4), paging.WaitRateLimits(1500*time.Millisecond)))
	r.check(t, itemsUpTo(1, pages), nil)
	mu.Lock()
	defer mu.Unlock()
	if len(refused) != 4 {
		t.Errorf("%d pages refused, want 4", len(refused))
	}
}

// Rule 9: with a RateLimiter, a refusal in a Parallel iteration pauses the
// other iterations given its option too, before their first request.
func TestParallelRateLimiterShared(t *testing.T) {
	const pages = 8
	var (
		mu      sync.Mutex
		refused time.Time
		other   time.Time // when the other iteration's first request came
	)
	refusedNow := make(chan struct{})
	a := newAPI(t, pages, numbered(pages), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			if r.URL.Query().Get("other") != "" && other.IsZero() {
				other = time.Now()
			}
			first := r.URL.Query().Get("page") == "3" && refused.IsZero()
			if first {
				refused = time.Now()
			}
			mu.Unlock()
			if first {
				w.Header().Set("Retry-After", "1")
				http.Error(w, "slow down", http.StatusTooManyRequests)
				close(refusedNow)
				return
			}
			items.ServeHTTP(w, r)
		})
	})
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	limiter := paging.NewRateLimiter(time.Minute)
	done := make(chan result)
	go func() {
		<-refusedNow
		time.Sleep(50 * time.Millisecond) // the client has had the 429
		req, err := http.NewRequest(http.MethodGet, a.URL+"/items?page=1&other=1", nil)
		if err != nil {
			panic(err)
		}
		done <- collect(t, paging.Pages(context.Background(), client, req, limiter.Option()))
	}()
	r := collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(4), limiter.Option()))
	r.check(t, itemsUpTo(1, pages), nil)
	(<-done).check(t, itemsUpTo(1, pages), nil)
	mu.Lock()
	defer mu.Unlock()
	if d := other.Sub(refused); d < 900*time.Millisecond {
		t.Errorf("the other iteration's first request came %v after the 429 with Retry-After: 1", d)
	}
}

// Rule 10: with Parallel, the checkpoint is NextURL of the last page the
// loop body finished, although BeforeNext has seen requests further on: a
// run stopped in the middle of page 5 and resumed from it yields every item
// of the finished pages once.
func TestParallelResume(t *testing.T) {
	const pages = 12
	a := newAPI(t, pages, numbered(pages))
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	var (
		items      []int
		checkpoint string
		seen       []string // the requests BeforeNext saw
	)
	hook := paging.BeforeNext(func(_ *http.Response, next *http.Request) error {
		seen = append(seen, next.URL.String())
		return nil
	})
	for resp, err := range paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(4), hook) {
		if err != nil {
			t.Fatal(err)
		}
		if pageOf(resp.Request.URL.RequestURI()) == 5 {
			break // a crash in the middle of page 5
		}
		r := collect(t, func(yield func(*http.Response, error) bool) { yield(resp, nil) })
		items = append(items, r.items...)
		next, _ := weblink.NextURL(resp)
		checkpoint = next.String() // page done: its next page is where to resume
	}
	if len(seen) < 5 || pageOf(seen[len(seen)-1]) <= 5 {
		t.Errorf("BeforeNext saw %q: not ahead of the loop", seen)
	}
	req, err := http.NewRequest(http.MethodGet, checkpoint, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := collect(t, paging.Pages(context.Background(), client, req, paging.Parallel(4)))
	if err := r.err; err != nil {
		t.Fatal(err)
	}
	if items = append(items, r.items...); !slices.Equal(items, itemsUpTo(1, pages)) {
		t.Errorf("items %v, want each of pages 1 to %d once", items, pages)
	}
}

// Rule 8: the body of a predicted page that the loop body leaves unread
// is drained for at most a second, as one page at a time does, also when
// the server trickles it: the run ahead is cut (the pages requested after
// it discarded), and paging goes on from that page's own next link, one
// page at a time, with every page still yielded in order.
func TestParallelDrainBoundedInTime(t *testing.T) {
	const pages, bodyLen = 6, 400
	a := newAPI(t, pages, numbered(pages), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("page") != "2" {
				items.ServeHTTP(w, r)
				return
			}
			for _, l := range numbered(pages)(a0(r), 2) {
				w.Header().Add("Link", l)
			}
			w.Header().Set("Content-Length", strconv.Itoa(bodyLen))
			w.WriteHeader(http.StatusOK)
			trickle(w, r, bodyLen, 50*time.Millisecond) // 20 s
		})
	})
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	var (
		got   []int
		left  time.Time
		delay time.Duration
	)
	for resp, err := range paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(3)) {
		if err != nil {
			t.Fatal(err)
		}
		p := pageOf(resp.Request.URL.RequestURI())
		got = append(got, p)
		switch p {
		case 2:
			left = time.Now() // its body unread
		case 3:
			delay = time.Since(left)
		}
	}
	if !slices.Equal(got, []int{1, 2, 3, 4, 5, 6}) {
		t.Fatalf("pages %v, want 1 to 6 in order", got)
	}
	t.Logf("page 3 came %v after page 2's loop body; requests %q", delay.Round(time.Millisecond), a.uris())
	if delay > 3*time.Second {
		t.Errorf("page 3 waited %v for page 2's unread body (the drain's bound is 1 s)", delay)
	}
}

// a0 is the scheme and host a request reached, for links written by a
// handler that has no api at hand.
func a0(r *http.Request) string { return "http://" + r.Host }

// Rule 8: the page after which nothing more is predicted (the last one,
// or one whose next link is not the predicted one) is read whole: the
// requests discarded after it are cancelled, not its own, also when its
// body is larger than what the transport has buffered.
func TestParallelLastPageReadWhole(t *testing.T) {
	const pages, size = 5, 4 << 20
	pad := strings.Repeat(" ", size)
	for _, name := range []string{"last", "fallback"} {
		t.Run(name, func(t *testing.T) {
			a := newAPI(t, pages, nil, func(http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					p, _ := strconv.Atoi(r.URL.Query().Get("page"))
					links := numbered(pages)(a0(r), p)
					if name == "fallback" && p == 3 {
						links = numbered(pages)(a0(r)+"/v2", p) // moved: pages 4 and 5 are discarded, then requested at /v2
					}
					for _, l := range links {
						w.Header().Add("Link", l)
					}
					fmt.Fprintf(w, "%s%d", pad, p)
				})
			})
			client, tr := newClient(t)
			defer noLeak(t, tr)()
			n := 0
			for resp, err := range paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(4)) {
				if err != nil {
					t.Fatal(err)
				}
				n++
				time.Sleep(20 * time.Millisecond) // the discarded requests are cancelled meanwhile
				body, err := io.ReadAll(resp.Body)
				if err != nil || len(body) != size+1 {
					t.Fatalf("page %d: read %d bytes, %v; want %d bytes", pageOf(resp.Request.URL.RequestURI()), len(body), err, size+1)
				}
			}
			if n != pages {
				t.Errorf("%d pages, want %d", n, pages)
			}
			if v2 := slices.Contains(a.uris(), "/v2/items?page=4&per_page=3"); v2 != (name == "fallback") {
				t.Errorf("requests %q", a.uris())
			}
		})
	}
}

// Rule 8: a page discarded after BeforeNext changed its URL no longer
// counts as visited under either URL. The API echoes the parameters of a
// request in its links, as GitHub's does: the sig that BeforeNext adds to
// page 2 moves page 2's next link off the prediction, and paging goes on
// one page at a time through the URLs BeforeNext gave the pages discarded.
func TestParallelBeforeNextDiscardedURLs(t *testing.T) {
	const pages = 8
	a := newAPI(t, pages, nil, func(http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p, _ := strconv.Atoi(r.URL.Query().Get("page"))
			for _, l := range numbered(pages)(a0(r), p) {
				if r.URL.Query().Has("sig") {
					l = strings.Replace(l, ">;", "&sig=1>;", 1) // in the order of url.Values.Encode
				}
				w.Header().Add("Link", l)
			}
			fmt.Fprint(w, strings.ReplaceAll(fmt.Sprint(pageItems(p)), " ", ","))
		})
	})
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	sign := paging.BeforeNext(func(_ *http.Response, next *http.Request) error {
		q := next.URL.Query()
		q.Set("sig", "1")
		u := *next.URL
		u.RawQuery = q.Encode()
		next.URL = &u
		return nil
	})
	r := collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(4), sign))
	r.check(t, itemsUpTo(1, pages), nil)
}

// Rule 7: Parallel(n) with an n above 64 sends no more than 64 requests
// at a time.
func TestParallelAtMost64(t *testing.T) {
	const pages = 200
	c := &concurrency{delay: func(*http.Request) time.Duration { return 50 * time.Millisecond }}
	a := newAPI(t, pages, numbered(pages), c.wrap)
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	r := collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(math.MaxInt)))
	r.check(t, itemsUpTo(1, pages), nil)
	t.Logf("at most %d requests at once", c.max.Load())
	if m := c.max.Load(); m > 64 || m < 2 {
		t.Errorf("%d requests at once, want 2 to 64", m)
	}
}

// Rule 8: discarding a page whose URL BeforeNext changed to one already
// visited does not forget that visit: a later link back to it is still a
// loop. Page 5's request is sent to page 2's URL; page 3's next link moves
// to /v2, so pages 4 to 6 are discarded; /v2's page 4 links back to page 2.
func TestParallelBeforeNextVisitedURLKept(t *testing.T) {
	const pages = 8
	a := newAPI(t, pages, nil, func(http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p, _ := strconv.Atoi(r.URL.Query().Get("page"))
			links := numbered(pages)(a0(r), p)
			switch {
			case strings.HasPrefix(r.URL.Path, "/v2/"):
				links = []string{fmt.Sprintf(`<%s/items?page=2&per_page=%d>; rel="next"`, a0(r), perPage)}
			case p == 3:
				links = numbered(pages)(a0(r)+"/v2", p)
			}
			for _, l := range links {
				w.Header().Add("Link", l)
			}
			fmt.Fprint(w, strings.ReplaceAll(fmt.Sprint(pageItems(p)), " ", ","))
		})
	})
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	toPage2 := paging.BeforeNext(func(_ *http.Response, next *http.Request) error {
		if next.URL.Path == "/items" && next.URL.Query().Get("page") == "5" {
			u := *next.URL
			u.RawQuery = "page=2&per_page=" + strconv.Itoa(perPage)
			next.URL = &u
		}
		return nil
	})
	r := collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(4), toPage2))
	r.check(t, itemsUpTo(1, 4), paging.ErrLoop)
}

// Rule 8, over HTTP/2 against a hostile server: a predicted page whose
// stream the server resets before its head (http.ErrAbortHandler sends
// RST_STREAM) ends the iteration in its place, after the pages before it,
// with the pages requested after it discarded; one reset in the middle of
// its body is yielded, and its loop body sees the read fail. No goroutine
// is left either way.
func TestParallelHTTP2StreamReset(t *testing.T) {
	const pages = 8
	for _, when := range []string{"before the head", "in the body"} {
		t.Run(when, func(t *testing.T) {
			var srv *httptest.Server
			srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				p, _ := strconv.Atoi(r.URL.Query().Get("page"))
				for _, l := range numbered(pages)(srv.URL, p) {
					w.Header().Add("Link", l)
				}
				if p == 3 {
					if when == "in the body" {
						w.Write([]byte("[1,"))
						w.(http.Flusher).Flush()
					}
					panic(http.ErrAbortHandler)
				}
				fmt.Fprint(w, strings.ReplaceAll(fmt.Sprint(pageItems(p)), " ", ","))
			}))
			srv.EnableHTTP2 = true
			srv.Config.ErrorLog = log.New(io.Discard, "", 0)
			srv.StartTLS()
			defer srv.Close()
			client := srv.Client()
			tr := client.Transport.(*http.Transport)
			defer noLeak(t, tr)()
			var (
				got     []int
				lastErr error
				readErr error
			)
			for resp, err := range paging.Pages(context.Background(), client, getItems(t, srv.URL), paging.Parallel(4)) {
				if err != nil {
					lastErr = err
					break
				}
				if resp.ProtoMajor != 2 {
					t.Fatalf("protocol %s, want HTTP/2", resp.Proto)
				}
				got = append(got, pageOf(resp.Request.URL.RequestURI()))
				if _, err := io.ReadAll(resp.Body); err != nil {
					readErr = err
				}
			}
			want := []int{1, 2}
			if when == "in the body" {
				want = []int{1, 2, 3, 4, 5, 6, 7, 8}
			}
			if !slices.Equal(got, want) {
				t.Errorf("pages %v, want %v", got, want)
			}
			if when == "before the head" && (lastErr == nil || readErr != nil) {
				t.Errorf("error %v (body read: %v), want the reset as the iteration's error", lastErr, readErr)
			}
			if when == "in the body" && (readErr == nil || lastErr != nil) {
				t.Errorf("body read error %v, iteration error %v: want the reset seen in page 3's body only", readErr, lastErr)
			}
		})
	}
}

// Rule 8: a predicted page that is not 2xx and trickles its body is read
// ahead (its first 2 KiB, for the StatusError) for at most a second, as one
// page at a time reads it, and ends the iteration in its place; the pages
// before it are yielded whole.
func TestParallelStatusBodyTrickles(t *testing.T) {
	const pages = 6
	a := newAPI(t, pages, numbered(pages), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("page") != "3" {
				items.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Length", strconv.Itoa(400))
			w.WriteHeader(http.StatusInternalServerError)
			trickle(w, r, 400, 50*time.Millisecond) // 20 s
		})
	})
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	start := time.Now()
	r := collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(4)))
	r.check(t, itemsUpTo(1, 2), paging.ErrStatus)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the iteration took %v: page 3's body was read ahead for more than a second", d)
	}
}

// Rule 7: a BeforeNext that panics, whether for the requests launched
// with the first page or for one launched further on, leaves no response
// body open: the page it was called with is closed too.
func TestParallelBeforeNextPanicsClosesBodies(t *testing.T) {
	const pages = 8
	for _, at := range []int{2, 6} {
		t.Run(strconv.Itoa(at), func(t *testing.T) {
			a := newAPI(t, pages, numbered(pages))
			client, tr, b := newCountingClient(t)
			defer noLeak(t, tr)()
			hook := paging.BeforeNext(func(prev *http.Response, next *http.Request) error {
				if pageOf(next.URL.RequestURI()) == at {
					panic("boom")
				}
				return nil
			})
			func() {
				defer func() {
					if v := recover(); v != "boom" {
						t.Errorf("recovered %v, want the panic of BeforeNext", v)
					}
				}()
				for resp, err := range paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(3), hook) {
					if err != nil {
						t.Fatal(err)
					}
					_ = resp
				}
			}()
			if n := b.open.Load(); n != 0 {
				t.Errorf("%d response bodies left open", n)
			}
		})
	}
}

// Rule 8: a predicted page that a redirect leads to the URL of another
// page counts that page as visited, as one page at a time does: a next
// link to it later is a loop (ErrLoop), with the same pages yielded
// before it as without Parallel, whether the redirect lands on the page
// predicted next, on one launched further on (which the fallback
// discards), or on one beyond the window, which is then not launched.
func TestParallelRedirectIsVisited(t *testing.T) {
	const pages = 8
	for _, tc := range []struct {
		name string
		n    int
		to   int            // page 3 redirects to this page's URL
		next map[int]string // the next links of these pages, after "page="
	}{
		{"to next, self link", 4, 4, map[int]string{4: "4"}},
		{"to next, last links back", 4, 4, map[int]string{8: "4"}},
		{"further, last links back", 4, 5, map[int]string{8: "5"}},
		{"beyond the window", 2, 5, map[int]string{5: "4"}},
		// Page 4's next link, with a fragment, is not the one predicted:
		// the pages after it are discarded, page 5 among them.
		{"beyond the window, fragment", 2, 5, map[int]string{5: "4", 4: "5&per_page=3#x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAPI(t, pages, nil, func(http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					p, _ := strconv.Atoi(r.URL.Query().Get("page"))
					if p == 3 {
						http.Redirect(w, r, fmt.Sprintf("/items?page=%d&per_page=%d", tc.to, perPage), http.StatusFound)
						return
					}
					links := numbered(pages)(a0(r), p)
					if next, ok := tc.next[p]; ok {
						if !strings.Contains(next, "&") {
							next += fmt.Sprintf("&per_page=%d", perPage)
						}
						links = []string{fmt.Sprintf(`<%s/items?page=%s>; rel="next"`, a0(r), next), links[len(links)-1]}
					}
					for _, l := range links {
						w.Header().Add("Link", l)
					}
					fmt.Fprint(w, strings.ReplaceAll(fmt.Sprint(pageItems(p)), " ", ","))
				})
			})
			client, tr := newClient(t)
			defer noLeak(t, tr)()
			want := collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL)))
			if !errors.Is(want.err, paging.ErrLoop) {
				t.Fatalf("one page at a time: %v, want ErrLoop", want.err)
			}
			got := collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(tc.n)))
			got.check(t, want.items, paging.ErrLoop)
		})
	}
}

// cloning is a RoundTripper that sends a clone of each request, as
// middleware that adds headers does: the response's Request is the clone.
type cloning struct{ rt http.RoundTripper }

func (c cloning) RoundTrip(req *http.Request) (*http.Response, error) {
	return c.rt.RoundTrip(req.Clone(req.Context()))
}

// Rule 8: a response whose Request is a clone of the one sent (same URL)
// is not taken for a redirect: the pages are requested once each, with
// more than one in flight.
func TestParallelClonedRequestNotRedirect(t *testing.T) {
	const pages = 12
	c := &concurrency{delay: func(*http.Request) time.Duration { return 5 * time.Millisecond }}
	a := newAPI(t, pages, numbered(pages), c.wrap)
	client, tr := newClient(t)
	client.Transport = cloning{tr}
	defer noLeak(t, tr)()
	r := collect(t, paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(4)))
	r.check(t, itemsUpTo(1, pages), nil)
	var want []int
	for p := 1; p <= pages; p++ {
		want = append(want, p)
	}
	if got := slices.Sorted(slices.Values(pagesRequested(a))); !slices.Equal(got, want) {
		t.Errorf("pages requested %v, want 1 to %d once each", got, pages)
	}
	if m := c.max.Load(); m < 2 {
		t.Errorf("%d requests at once, want more than 1", m)
	}
}

// Rule 7: a series whose last page is the largest int (reached through a
// redirect of the first page, which the server chose) ends: counting past
// the last page requested does not wrap around.
func TestParallelLastIsMaxInt(t *testing.T) {
	const last = math.MaxInt
	for _, n := range []int{2, 4} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				p, err := strconv.Atoi(r.URL.Query().Get("page"))
				if err != nil || p < 1 {
					http.Redirect(w, r, "/items?page="+strconv.Itoa(last-2), http.StatusFound)
					return
				}
				if p < last {
					w.Header().Add("Link", fmt.Sprintf(`</items?page=%d>; rel="next"`, p+1))
				}
				w.Header().Add("Link", fmt.Sprintf(`</items?page=%d>; rel="last"`, last))
				fmt.Fprint(w, "[]")
			}))
			defer srv.Close()
			client, tr := newClient(t)
			defer noLeak(t, tr)()
			req, err := http.NewRequest(http.MethodGet, srv.URL+"/items", nil)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			done := make(chan result, 1)
			go func() { done <- collect(t, paging.Pages(ctx, client, req, paging.Parallel(n))) }()
			select {
			case r := <-done:
				if r.err != nil || r.pages != 3 {
					t.Errorf("%d pages, %v; want 3 pages and no error", r.pages, r.err)
				}
			case <-time.After(20 * time.Second): // at once, with very wide slack
				t.Fatal("the iteration never ended (nor when its context did)")
			}
		})
	}
}

// Rules 9 and 6: MaxPages(m) counts the pages yielded, not page numbers:
// an iteration resumed at page 5 (or whose first page is page 0) yields m
// pages, as without Parallel, and requests none beyond them.
func TestParallelMaxPagesFromPageFive(t *testing.T) {
	const pages = 20
	for _, tc := range []struct{ first, m int }{{5, 10}, {5, 3}, {12, 5}, {0, 4}} {
		t.Run(fmt.Sprintf("page %d, MaxPages(%d)", tc.first, tc.m), func(t *testing.T) {
			a := newAPI(t, pages, nil, func(http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					p, _ := strconv.Atoi(r.URL.Query().Get("page"))
					for _, l := range numbered(pages)(a0(r), p) {
						w.Header().Add("Link", l)
					}
					fmt.Fprint(w, strings.ReplaceAll(fmt.Sprint(pageItems(p)), " ", ","))
				})
			})
			client, tr := newClient(t)
			defer noLeak(t, tr)()
			req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/items?page=%d&per_page=%d", a.URL, tc.first, perPage), nil)
			if err != nil {
				t.Fatal(err)
			}
			want := collect(t, paging.Pages(context.Background(), client, req, paging.MaxPages(tc.m)))
			sequential := len(a.uris())
			got := collect(t, paging.Pages(context.Background(), client, req, paging.MaxPages(tc.m), paging.Parallel(4)))
			got.check(t, want.items, paging.ErrMaxPages)
			if got.pages != tc.m {
				t.Errorf("%d pages yielded, want %d", got.pages, tc.m)
			}
			if n := len(a.uris()) - sequential; n != sequential {
				t.Errorf("%d requests, want %d: %q", n, sequential, a.uris()[sequential:])
			}
		})
	}
}

// Rule 7: whatever page the loop body breaks at, panics at or cancels the
// context at, with the window full or not, the pages come in order, every
// response body is closed and no goroutine is left.
func TestParallelStopAnywhere(t *testing.T) {
	const pages, n = 10, 3
	for _, mode := range []string{"break", "panic", "cancel"} {
		for stopAt := 1; stopAt <= pages; stopAt++ {
			t.Run(fmt.Sprintf("%s at %d", mode, stopAt), func(t *testing.T) {
				c := &concurrency{delay: func(*http.Request) time.Duration {
					return time.Duration(rand.IntN(3)) * time.Millisecond
				}}
				a := newAPI(t, pages, numbered(pages), c.wrap)
				client, tr, b := newCountingClient(t)
				defer noLeak(t, tr)()
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				var (
					got     []int
					lastErr error
				)
				func() {
					defer func() {
						if v := recover(); (v != nil) != (mode == "panic") {
							t.Errorf("recovered %v", v)
						}
					}()
					for resp, err := range paging.Pages(ctx, client, getItems(t, a.URL), paging.Parallel(n)) {
						if err != nil {
							lastErr = err
							continue
						}
						got = append(got, pageOf(resp.Request.URL.RequestURI()))
						if len(got) == stopAt {
							time.Sleep(time.Duration(rand.IntN(5)) * time.Millisecond) // the window fills, or not
							switch mode {
							case "break":
								return
							case "panic":
								panic("loop body")
							case "cancel":
								cancel()
							}
						}
					}
				}()
				for i, p := range got {
					if p != i+1 {
						t.Fatalf("pages %v, not in order", got)
					}
				}
				switch {
				case mode != "cancel" && len(got) != stopAt:
					t.Errorf("pages %v, want 1 to %d", got, stopAt)
				case mode == "cancel" && stopAt < pages && !errors.Is(lastErr, context.Canceled):
					t.Errorf("pages %v, error %v, want context.Canceled", got, lastErr)
				}
				if open := b.open.Load(); open != 0 {
					t.Errorf("%d response bodies left open", open)
				}
			})
		}
	}
}

// Rules 8 and 9: a drain cut short (page 2's body trickles, unread) while
// a worker waits out a refusal of page 4 (Retry-After: 2) discards the
// pages ahead, the waiting one among them, and paging goes on one page at
// a time, still paused until the time the server gave: every page comes,
// in order, with every body closed; or, when ctx is cancelled during the
// drain or during the pause, the iteration ends with its error at once.
func TestParallelCutDuringPause(t *testing.T) {
	const pages = 7
	for _, cancelAt := range []string{"", "drain", "pause"} {
		t.Run(cancelAt, func(t *testing.T) {
			var refused atomic.Bool
			refusedAt := make(chan time.Time, 1)
			a := newAPI(t, pages, numbered(pages), func(items http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					switch r.URL.Query().Get("page") {
					case "2":
						for _, l := range numbered(pages)(a0(r), 2) {
							w.Header().Add("Link", l)
						}
						w.Header().Set("Content-Length", "400")
						w.WriteHeader(http.StatusOK)
						trickle(w, r, 400, 50*time.Millisecond)
						return
					case "4":
						if refused.CompareAndSwap(false, true) {
							w.Header().Set("Retry-After", "2")
							http.Error(w, "slow down", http.StatusTooManyRequests)
							refusedAt <- time.Now()
							return
						}
					}
					items.ServeHTTP(w, r)
				})
			})
			client, tr, b := newCountingClient(t)
			defer noLeak(t, tr)()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var (
				got []int
				err error
			)
			start := time.Now()
			for resp, e := range paging.Pages(ctx, client, getItems(t, a.URL), paging.Parallel(3), paging.WaitRateLimits(10*time.Second)) {
				if e != nil {
					err = e
					continue
				}
				p := pageOf(resp.Request.URL.RequestURI())
				got = append(got, p)
				if p == 2 {
					<-refusedAt // the worker of page 4 is pausing
					switch cancelAt {
					case "drain":
						time.AfterFunc(300*time.Millisecond, cancel)
					case "pause":
						time.AfterFunc(1300*time.Millisecond, cancel) // after the drain's second
					}
				}
			}
			d := time.Since(start)
			t.Logf("pages %v, %v, in %v; requests %q", got, err, d.Round(time.Millisecond), a.uris())
			if cancelAt == "" {
				if err != nil || !slices.Equal(got, []int{1, 2, 3, 4, 5, 6, 7}) {
					t.Errorf("pages %v, %v; want 1 to %d, no error", got, err, pages)
				}
			} else {
				if !errors.Is(err, context.Canceled) || !slices.Equal(got, []int{1, 2}) {
					t.Errorf("pages %v, %v; want 1 and 2, then context.Canceled", got, err)
				}
				if d > 8*time.Second {
					t.Errorf("took %v after a cancel", d)
				}
			}
			if open := b.open.Load(); open != 0 {
				t.Errorf("%d response bodies left open", open)
			}
		})
	}
}

// panicking is a RoundTripper that panics for the requests of one page.
type panicking struct {
	rt   http.RoundTripper
	page int
}

func (p panicking) RoundTrip(req *http.Request) (*http.Response, error) {
	if pageOf(req.URL.RequestURI()) == p.page {
		panic("round trip")
	}
	return p.rt.RoundTrip(req)
}

// Rule 7: a client whose RoundTripper (or CheckRedirect) panics for a
// page requested ahead panics in the loop, where the caller can recover
// it, as one page at a time does: not in a goroutine of Parallel's, which
// would end the program. The pages before it are yielded first.
func TestParallelRoundTripPanics(t *testing.T) {
	const pages = 8
	for _, at := range []int{2, 5} {
		t.Run(strconv.Itoa(at), func(t *testing.T) {
			a := newAPI(t, pages, numbered(pages))
			client, tr, b := newCountingClient(t)
			client.Transport = panicking{b, at}
			defer noLeak(t, tr)()
			var got []int
			func() {
				defer func() {
					if v := recover(); v != "round trip" {
						t.Errorf("recovered %v, want the RoundTripper's panic", v)
					}
				}()
				for resp, err := range paging.Pages(context.Background(), client, getItems(t, a.URL), paging.Parallel(3)) {
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, pageOf(resp.Request.URL.RequestURI()))
				}
			}()
			if want := itemsUpTo1(at - 1); !slices.Equal(got, want) {
				t.Errorf("pages %v, want %v", got, want)
			}
			if open := b.open.Load(); open != 0 {
				t.Errorf("%d response bodies left open", open)
			}
		})
	}
}

// itemsUpTo1 returns 1 to n.
func itemsUpTo1(n int) []int {
	var out []int
	for p := 1; p <= n; p++ {
		out = append(out, p)
	}
	return out
}

// Items with Parallel yields every item of pages of a megabyte or more,
// whose bodies wait in their slots beyond what the transport buffers, in
// order; breaking out in the middle of a page leaves no body open.
func TestParallelItemsLargePages(t *testing.T) {
	const pages, perPageItems = 5, 1000
	pad := strings.Repeat(" ", 1<<20) // a megabyte of JSON whitespace a page
	a := newAPI(t, pages, nil, func(http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p, _ := strconv.Atoi(r.URL.Query().Get("page"))
			for _, l := range numbered(pages)(a0(r), p) {
				w.Header().Add("Link", l)
			}
			var sb strings.Builder
			sb.WriteByte('[')
			for i := range perPageItems {
				if i > 0 {
					sb.WriteByte(',')
				}
				sb.WriteString(strconv.Itoa((p-1)*perPageItems + i))
			}
			sb.WriteString(pad)
			sb.WriteByte(']')
			_, _ = io.WriteString(w, sb.String())
		})
	})
	for _, stopAt := range []int{-1, 2*perPageItems + 10} {
		t.Run(strconv.Itoa(stopAt), func(t *testing.T) {
			client, tr, b := newCountingClient(t)
			defer noLeak(t, tr)()
			next := 0
			for item, err := range paging.Items(context.Background(), client, getItems(t, a.URL), paging.JSONItems[int], paging.Parallel(4)) {
				if err != nil {
					t.Fatal(err)
				}
				if item != next {
					t.Fatalf("item %d, want %d", item, next)
				}
				if next++; next == stopAt {
					break
				}
			}
			if stopAt < 0 && next != pages*perPageItems {
				t.Errorf("%d items, want %d", next, pages*perPageItems)
			}
			if open := b.open.Load(); open != 0 {
				t.Errorf("%d response bodies left open", open)
			}
		})
	}
}

// Rules 7 to 9, at random: pages slow, refused once (429), failing
// (500), or whose links move; a loop body that breaks, panics or cancels
// at random; BeforeNext refusing a page at random; MaxPages at random.
// Whatever happens, the iteration ends, the pages come in order, each
// once, every body is closed and no goroutine is left.
func TestParallelRandomStress(t *testing.T) {
	const pages = 12
	rng := rand.New(rand.NewPCG(25, 47))
	for i := range 60 {
		var (
			n        = 2 + rng.IntN(5)
			kind     = map[int]int{} // page: 0 ok, 1 refused once, 2 fails, 3 links moved
			stopAt   = 1 + rng.IntN(pages+3)
			how      = rng.IntN(3)
			refuseAt = 2 + rng.IntN(pages+3)
			maxPages = rng.IntN(pages + 2)
		)
		for p := 2; p <= pages; p++ {
			if rng.IntN(6) == 0 {
				kind[p] = 1 + rng.IntN(3)
			}
		}
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			var refused sync.Map
			a := newAPI(t, pages, nil, func(http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					p, _ := strconv.Atoi(r.URL.Query().Get("page"))
					time.Sleep(time.Duration(rand.IntN(3)) * time.Millisecond)
					switch kind[p] {
					case 1:
						if _, again := refused.LoadOrStore(r.URL.RawQuery, true); !again {
							w.Header().Set("Retry-After", "0")
							http.Error(w, "slow down", http.StatusTooManyRequests)
							return
						}
					case 2:
						http.Error(w, "boom", http.StatusInternalServerError)
						return
					}
					base := a0(r)
					if kind[p] == 3 || strings.HasPrefix(r.URL.Path, "/v2") {
						base += "/v2"
					}
					for _, l := range numbered(pages)(base, p) {
						w.Header().Add("Link", l)
					}
					fmt.Fprint(w, strings.ReplaceAll(fmt.Sprint(pageItems(p)), " ", ","))
				})
			})
			client, tr, b := newCountingClient(t)
			defer noLeak(t, tr)()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			hook := paging.BeforeNext(func(_ *http.Response, next *http.Request) error {
				if pageOf(next.URL.RequestURI()) == refuseAt {
					return errors.New("refused")
				}
				return nil
			})
			done := make(chan []int, 1)
			go func() {
				var got []int
				defer func() {
					if v := recover(); v != nil && v != "loop body" {
						t.Errorf("panic %v", v)
					}
					done <- got
				}()
				for resp, err := range paging.Pages(ctx, client, getItems(t, a.URL), paging.Parallel(n), hook, paging.MaxPages(maxPages), paging.WaitRateLimits(5*time.Second)) {
					if err != nil {
						continue
					}
					got = append(got, pageOf(resp.Request.URL.RequestURI()))
					if len(got) == stopAt {
						switch how {
						case 0:
							return
						case 1:
							panic("loop body")
						case 2:
							cancel()
						}
					}
				}
			}()
			select {
			case got := <-done:
				for j, p := range got {
					if p != j+1 {
						t.Errorf("pages %v (n %d, kinds %v, stop at %d by %d, BeforeNext refuses %d, MaxPages %d)", got, n, kind, stopAt, how, refuseAt, maxPages)
						break
					}
				}
			case <-time.After(30 * time.Second): // at once, with very wide slack
				t.Fatalf("the iteration never ended (n %d, kinds %v, stop at %d by %d, BeforeNext refuses %d, MaxPages %d)", n, kind, stopAt, how, refuseAt, maxPages)
			}
			if open := b.open.Load(); open != 0 {
				t.Errorf("%d response bodies left open", open)
			}
		})
	}
}

// TestParallelJSONServer pages a real page-number API, json-server 0.17.4,
// which sends Link first, prev, next and last with _page and _limit: with
// Parallel(4), Items yields the same items in the same order as one page
// at a time, with more than one request in flight.
func TestParallelJSONServer(t *testing.T) {
	base, want := startJSONServer(t, 103)
	tr := &http.Transport{MaxIdleConnsPerHost: 8}
	defer noLeak(t, tr)()
	counter := &inFlight{rt: tr}
	client := &http.Client{Transport: counter}
	items := func(opts ...paging.Option) []jsonItem {
		req, err := http.NewRequest(http.MethodGet, base+"/items?_page=1&_limit=7", nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []jsonItem
		for it, err := range paging.Items(context.Background(), client, req, paging.JSONItems[jsonItem], opts...) {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, it)
		}
		return out
	}
	sequential := items()
	if m := counter.max.Swap(0); m != 1 {
		t.Errorf("one page at a time: %d requests in flight", m)
	}
	parallel := items(paging.Parallel(4))
	if !slices.Equal(parallel, sequential) || !slices.Equal(sequential, want) {
		t.Errorf("Parallel(4) gave %d items, one at a time %d, want the %d of the database in order", len(parallel), len(sequential), len(want))
	}
	if m := counter.max.Load(); m < 2 || m > 4 {
		t.Errorf("Parallel(4): %d requests in flight, want 2 to 4", m)
	}
}

// BenchmarkParallelPages ranges over 40 numbered pages of a server on
// 127.0.0.1 that answers each request after 50 ms, as a distant API would:
// one page at a time, then with Parallel(4) and Parallel(8). The client's
// transport keeps 8 idle connections, so that the parallel runs reuse
// theirs. Allocations include the server's, which are the same per page
// in every run.
func BenchmarkParallelPages(b *testing.B) {
	const pages, latency = 40, 50 * time.Millisecond
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := strconv.Atoi(r.URL.Query().Get("page"))
		weblink.Add(w.Header(), weblink.PageLinks(r.URL, "page", max(p, 1), pages)...)
		time.Sleep(latency)
		_, _ = w.Write([]byte(`[1,2,3]`))
	}))
	defer srv.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: 8}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	req, err := http.NewRequest(http.MethodGet, srv.URL+"/items?per_page=3&page=1", nil)
	if err != nil {
		b.Fatal(err)
	}
	benchPages(b, client, req, pages, "", 1, 4, 8)
}

// BenchmarkParallelPagesInMemory ranges over the 40 and the 400 pages of
// memPages, one at a time and with Parallel(4): what Parallel costs on the
// client, without a network or a server. The difference between the two
// lengths is the cost of a page; the rest is that of a run.
func BenchmarkParallelPagesInMemory(b *testing.B) {
	for _, pages := range []int{40, 400} {
		client := &http.Client{Transport: memPages{pages}}
		req, err := http.NewRequest(http.MethodGet, "https://api.example/items?page=1", nil)
		if err != nil {
			b.Fatal(err)
		}
		benchPages(b, client, req, pages, "/pages="+strconv.Itoa(pages), 1, 4)
	}
}
