package paging_test

import (
	"context"
	"errors"
	"fmt"
	"io"
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

	"github.com/weblinking/weblink/paging"
)

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

// bodies is a RoundTripper that counts the response bodies it has handed
// out and not seen closed.
type bodies struct {
	rt   http.RoundTripper
	open atomic.Int64
}

func (b *bodies) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := b.rt.RoundTrip(req)
	if err == nil {
		b.open.Add(1)
		resp.Body = &trackedClose{ReadCloser: resp.Body, open: &b.open}
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

type trackedClose struct {
	io.ReadCloser
	open *atomic.Int64
	once sync.Once
}

func (c *trackedClose) Close() error {
	c.once.Do(func() { c.open.Add(-1) })
	return c.ReadCloser.Close()
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
