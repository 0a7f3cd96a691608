package paging_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weblinking/weblink/paging"
)

// A server refusing every page once, asking for a short wait each time:
// the waits add up over the pages until the next one would pass maxWait.
func TestWaitRateLimitsAlternatingAddUp(t *testing.T) {
	var mu sync.Mutex
	var at []time.Time
	a := newAPI(t, 10, nextOnly(10), refusing("", 1, http.StatusTooManyRequests,
		map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "0.2"}, &at, &mu)) // seconds from now
	start := time.Now()
	var statuses []int
	var last error
	for resp, err := range paging.Pages(context.Background(), nil, getItems(t, a.URL), paging.WaitRateLimits(700*time.Millisecond)) {
		if resp != nil {
			statuses = append(statuses, resp.StatusCode)
		}
		last = err
	}
	d := time.Since(start)
	// 0.2 s for each of pages 1-3 (0.6 s); page 4's would be 0.8 s > 0.7 s.
	want := []int{200, 200, 200, 429}
	if fmt.Sprint(statuses) != fmt.Sprint(want) || !errors.Is(last, paging.ErrRateLimited) || !errors.Is(last, paging.ErrStatus) {
		t.Errorf("statuses %v, error %v; want %v and ErrRateLimited with its *StatusError", statuses, last, want)
	}
	if len(at) != 7 {
		t.Errorf("%d requests, want 7", len(at))
	}
	if d < 550*time.Millisecond || d > 3*time.Second {
		t.Errorf("took %v, want about 0.6 s", d)
	}
}

// A 429 storm: every page refused twice. MaxPages counts pages, not
// requests, and BeforeNext runs once per page.
func TestWaitRateLimitsStormMaxPages(t *testing.T) {
	var mu sync.Mutex
	var at []time.Time
	a := newAPI(t, 50, nextOnly(50), refusing("", 2, http.StatusServiceUnavailable, map[string]string{"Retry-After": "0"}, &at, &mu))
	hooks := 0
	r := collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL), paging.WaitRateLimits(time.Second), paging.MaxPages(5),
		paging.BeforeNext(func(*http.Response, *http.Request) error { hooks++; return nil })))
	r.check(t, itemsUpTo(1, 5), paging.ErrMaxPages)
	if len(at) != 15 || hooks != 4 || r.pages != 5 {
		t.Errorf("%d requests, BeforeNext %d times, %d pages; want 15, 4, 5", len(at), hooks, r.pages)
	}
}

// Hostile Retry-After and reset values: none makes Pages sleep, panic or
// wait for a negative time; each is either a refusal waited out at once or
// an ordinary *StatusError.
func TestWaitRateLimitsHostileValues(t *testing.T) {
	huge := strings.Repeat("9", 100000)
	for _, tc := range []struct {
		name   string
		h      map[string]string
		waited bool // ErrRateLimited (the doomed wait) rather than a plain *StatusError
	}{
		{"negative", map[string]string{"Retry-After": "-5"}, false},
		{"garbage", map[string]string{"Retry-After": "soon"}, false},
		{"fraction", map[string]string{"Retry-After": "1.5"}, false},
		{"100000 digits", map[string]string{"Retry-After": huge}, true},
		{"year 9999", map[string]string{"Retry-After": "Fri, 31 Dec 9999 23:59:59 GMT"}, true},
		{"reset 1e30", map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1e30"}, false},
		{"reset 1e30 in digits", map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1000000000000000000000000000000"}, true},
		{"reset far future", map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": strconv.FormatInt(time.Now().Add(100*365*24*time.Hour).Unix(), 10)}, true},
		{"reset negative", map[string]string{"RateLimit-Remaining": "0", "RateLimit-Reset": "-1"}, false},
		{"remaining -0", map[string]string{"RateLimit-Remaining": "-0", "RateLimit-Reset": "1"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var at []time.Time
			// 403, not 429: a 429 that says no usable wait is backed off
			// (rule 1), a 403 whose body does not say "rate limit" is not.
			a := newAPI(t, 3, nextOnly(3), refusing("1", -1, 403, tc.h, &at, &mu))
			start := time.Now()
			r := collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL), paging.WaitRateLimits(time.Hour)))
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v", d)
			}
			var se *paging.StatusError
			if !errors.As(r.err, &se) || se.StatusCode != 403 || errors.Is(r.err, paging.ErrRateLimited) != tc.waited || len(at) != 1 {
				t.Errorf("error %v after %d requests; want a *StatusError 403, ErrRateLimited %v, 1 request", r.err, len(at), tc.waited)
			}
		})
	}
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
