package paging

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestRateLimiterCancelledWaiters: 50 goroutines waiting on one limiter
// return promptly with the error of their context when it is cancelled
// mid-wait, having sent nothing, and leave no goroutine behind.
func TestRateLimiterCancelledWaiters(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
	}))
	defer srv.Close()
	before := runtime.NumGoroutine()
	limiter := NewRateLimiter(2 * time.Hour)
	limiter.limit.learned(time.Now().Add(time.Hour))
	ctx, cancel := context.WithCancel(context.Background())
	const n = 50
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
			for _, err := range Pages(ctx, nil, req, limiter.Option()) {
				errs <- err
			}
		}()
	}
	time.Sleep(100 * time.Millisecond) // they are waiting
	cancelled := time.Now()
	cancel()
	wg.Wait()
	if d := time.Since(cancelled); d > 5*time.Second { // at once, with very wide slack
		t.Errorf("the waiters returned %v after the cancel", d)
	}
	close(errs)
	got := 0
	for err := range errs {
		got++
		if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrRateLimited) && !strings.Contains(err.Error(), "waiting") {
			t.Errorf("error %v; want the wait ended by context.Canceled", err)
		}
	}
	if got != n || requests.Load() != 0 {
		t.Errorf("%d errors and %d requests; want %d errors and no request", got, requests.Load(), n)
	}
	var after int
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if after = runtime.NumGoroutine(); after <= before || time.Now().After(deadline) {
			break
		}
	}
	if after > before {
		t.Errorf("%d goroutines after, %d before", after, before)
	}
}

// TestRateLimiterMaxWaitNotPositive: a RateLimiter made with a maxWait of
// 0 or less, its zero value and a nil one wait for nothing, as
// WaitRateLimits(0) does: a 429 is an ordinary *StatusError, and the
// limiter learns nothing from it.
func TestRateLimiterMaxWaitNotPositive(t *testing.T) {
	for name, l := range map[string]*RateLimiter{
		"NewRateLimiter(0)":  NewRateLimiter(0),
		"NewRateLimiter(-1)": NewRateLimiter(-time.Hour),
		"zero value":         new(RateLimiter),
		"nil":                nil,
	} {
		t.Run(name, func(t *testing.T) {
			api := &scriptedAPI{refusals: []answer{{429, http.Header{"Retry-After": {"5"}}, ""}}, forever: true}
			clock := newFakeClock()
			_, statuses, err := scriptedPages(t, api, l.Option(), clock.option())
			if !errors.Is(err, ErrStatus) || errors.Is(err, ErrRateLimited) || !slices.Equal(statuses, []int{200, 429}) {
				t.Errorf("yielded %v, error %v; want the 429 with a *StatusError", statuses, err)
			}
			if requests, _ := api.log(); len(requests) != 2 || len(clock.sleeps()) != 0 {
				t.Errorf("requests %v, slept %v; want each page once, no wait", requests, clock.sleeps())
			}
			if l != nil && !l.limit.until().IsZero() {
				t.Errorf("the limiter learned %v", l.limit.until())
			}
		})
	}
}

// TestWaitRateLimitsHostileRefusals: field values that are huge, negative,
// not numbers, or that say "now" forever never sleep past maxWait nor ask
// a page more than 11 times (rule 5).
func TestWaitRateLimitsHostileRefusals(t *testing.T) {
	retry := func(v string) http.Header { return http.Header{"Retry-After": {v}} }
	reset := func(v string) http.Header {
		return http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {v}}
	}
	for _, tc := range []struct {
		name     string
		refusal  answer
		err      error
		requests int // of page 2
		slept    []time.Duration
	}{
		{"Retry-After huge", answer{429, retry("99999999999999999999999"), ""}, ErrRateLimited, 1, nil},
		{"Retry-After far-future date", answer{503, retry("Fri, 31 Dec 9999 23:59:59 GMT"), ""}, ErrRateLimited, 1, nil},
		{"Retry-After 0 forever", answer{429, retry("0"), ""}, ErrRateLimited, 11, nil},
		{"Retry-After past date forever", answer{503, retry("Thu, 01 Jan 1970 00:00:00 GMT"), ""}, ErrRateLimited, 11, nil},
		{"Retry-After negative on a 429: backed off", answer{429, retry("-30"), ""}, ErrRateLimited, 3, []time.Duration{time.Minute, 2 * time.Minute}},
		{"Retry-After 1e300 on a 429: backed off", answer{429, retry("1e300"), ""}, ErrRateLimited, 3, []time.Duration{time.Minute, 2 * time.Minute}},
		{"Retry-After NaN on a 403", answer{403, retry("NaN"), "forbidden"}, ErrStatus, 1, nil},
		{"Retry-After NaN on a 503 saying rate limit", answer{503, retry("NaN"), "rate limit"}, ErrStatus, 1, nil},
		{"reset in the far past forever", answer{403, reset("1000000000"), ""}, ErrRateLimited, 11, nil},
		{"reset in the far future", answer{429, reset("99999999999"), ""}, ErrRateLimited, 1, nil},
		{"reset 1e300 on a 403", answer{403, reset("1e300"), "no"}, ErrStatus, 1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := &scriptedAPI{refusals: []answer{tc.refusal}, forever: true}
			clock := newFakeClock()
			bodies, statuses, err := scriptedPages(t, api, WaitRateLimits(5*time.Minute), clock.option())
			if !errors.Is(err, tc.err) || !errors.Is(err, ErrStatus) {
				t.Errorf("error %v; want %v with the *StatusError", err, tc.err)
			}
			if !slices.Equal(statuses, []int{200, tc.refusal.status}) || bodies[1] != tc.refusal.body {
				t.Errorf("yielded %v %q; want page 1 and the refusal with its body", statuses, bodies)
			}
			requests, open := api.log()
			if n := len(requests) - 1; n != tc.requests || open != 0 {
				t.Errorf("page 2 requested %d times, %d bodies open; want %d, none", n, open, tc.requests)
			}
			if s := clock.sleeps(); !slices.Equal(s, tc.slept) {
				t.Errorf("slept %v, want %v", s, tc.slept)
			}
		})
	}
}

// failingBody is a response body that gives its text, then err; it
// records its Close.
type failingBody struct {
	r      io.Reader
	err    error
	closed atomic.Bool
}

func (b *failingBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.EOF {
		err = b.err
	}
	return n, err
}

func (b *failingBody) Close() error { b.closed.Store(true); return nil }

// TestStatusErrorBodyFailsMidRead: a refused page's body that fails after
// 100 bytes gives the StatusError those bytes, and the body yielded reads
// them from the first byte, then the same error; closing it closes the
// original body.
func TestStatusErrorBodyFailsMidRead(t *testing.T) {
	errCut := errors.New("connection reset mid-body")
	text := strings.Repeat("r", 100)
	body := &failingBody{r: strings.NewReader(text), err: errCut}
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 403, Status: "403 Forbidden", Header: http.Header{"X": {"y"}}, Body: body, Request: r}, nil
	})}
	req, _ := http.NewRequest(http.MethodGet, "http://api.test/", nil)
	yielded := 0
	for resp, err := range Pages(context.Background(), client, req, WaitRateLimits(time.Hour)) {
		yielded++
		var se *StatusError
		if !errors.As(err, &se) || string(se.Body) != text || se.Header.Get("X") != "y" {
			t.Fatalf("error %v; want a *StatusError with the 100 bytes and the header", err)
		}
		b, rerr := io.ReadAll(resp.Body)
		if string(b) != text || !errors.Is(rerr, errCut) {
			t.Errorf("read %d bytes, error %v; want the 100 bytes, then %v", len(b), rerr, errCut)
		}
		if resp.Body.Close(); !body.closed.Load() {
			t.Error("closing resp.Body did not close the original body")
		}
	}
	if yielded != 1 {
		t.Errorf("%d yields, want 1", yielded)
	}
}

// TestStatusErrorTrickle: a 403 whose body comes one byte a second holds
// the iteration up for about a second (the read ahead is cut there, so a
// "rate limit" that would come later is not seen), and a context cancelled
// during that read ends it at once.
func TestStatusErrorTrickle(t *testing.T) {
	t.Parallel() // it waits a second
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		for _, c := range []byte("the rate limit was exceeded") {
			w.Write([]byte{c})
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(time.Second):
			}
		}
	}))
	defer srv.Close()
	run := func(ctx context.Context) (body string, d time.Duration, err error) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
		start := time.Now()
		for resp, e := range Pages(ctx, nil, req, WaitRateLimits(time.Hour)) {
			err = e
			if resp != nil {
				b, _ := io.ReadAll(resp.Body)
				body = string(b)
			}
		}
		return body, time.Since(start), err
	}
	body, d, err := run(context.Background())
	var se *StatusError
	if !errors.As(err, &se) || errors.Is(err, ErrRateLimited) || !strings.HasPrefix("the rate limit", body) || body == "" {
		t.Errorf("error %v, body %q; want the *StatusError of the 403, its first bytes", err, body)
	}
	if d > 5*time.Second { // a second, with very wide slack
		t.Errorf("the trickling body held Pages for %v", d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, d, err = run(ctx)
	if !errors.As(err, &se) || !errors.Is(err, context.DeadlineExceeded) { // the 403 came before the context was done
		t.Errorf("error %v; want the 403's *StatusError and the context's error", err)
	}
	if d > 900*time.Millisecond { // the cancel, not the second of the read ahead
		t.Errorf("ended %v after the start; the context was done at 200ms", d)
	}
}

// TestWaitRateLimitsZeroDoesNothing: WaitRateLimits with a maxWait of 0 or
// less, and the option of a RateLimiter made so, do nothing: they leave the
// waiting that an earlier option set up in place.
func TestWaitRateLimitsZeroDoesNothing(t *testing.T) {
	shared := NewRateLimiter(time.Hour)
	for name, opts := range map[string][]Option{
		"WaitRateLimits(0) after WaitRateLimits":            {WaitRateLimits(time.Hour), WaitRateLimits(0)},
		"WaitRateLimits(-1) after a RateLimiter":            {shared.Option(), WaitRateLimits(-1)},
		"NewRateLimiter(0).Option() after WaitRateLimits":   {WaitRateLimits(time.Hour), NewRateLimiter(0).Option()},
		"a nil RateLimiter's Option() after WaitRateLimits": {WaitRateLimits(time.Hour), (*RateLimiter)(nil).Option()},
	} {
		t.Run(name, func(t *testing.T) {
			api := &scriptedAPI{refusals: []answer{{429, http.Header{"Retry-After": {"5"}}, ""}}}
			clock := newFakeClock()
			_, statuses, err := scriptedPages(t, api, append(opts, clock.option())...)
			if err != nil || !slices.Equal(statuses, []int{200, 200, 200}) || !slices.Equal(clock.sleeps(), []time.Duration{5 * time.Second}) {
				t.Errorf("yielded %v, error %v, slept %v; want the 429 waited out, 5s", statuses, err, clock.sleeps())
			}
		})
	}
}

// TestStatusErrorReadCutByContext: when the context is done while Pages
// reads the start of a refused page's body, the error yielded with it
// matches the context's error too, not only the *StatusError.
func TestStatusErrorReadCutByContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		body := &failingBody{r: strings.NewReader("the rate"), err: context.Canceled}
		cancel() // while the body is under way
		return &http.Response{StatusCode: 403, Status: "403 Forbidden", Header: http.Header{}, Body: body, Request: r}, nil
	})}
	req, _ := http.NewRequest(http.MethodGet, "http://api.test/", nil)
	for _, err := range Pages(ctx, client, req, WaitRateLimits(time.Hour)) {
		var se *StatusError
		if !errors.As(err, &se) || !errors.Is(err, context.Canceled) {
			t.Errorf("error %v; want the *StatusError and context.Canceled", err)
		}
	}
}
