package paging_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
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

func TestWaitRateLimitsGitHub(t *testing.T) {
	t.Parallel() // it waits 2 to 4 s
	// 10 issues, 3 a page: 4 pages. Two requests a window, and the first
	// window already spent: page 1 is refused with a 403, waited out; page
	// 2 says remaining 0, so page 3 waits for the reset instead of being
	// refused; page 4, the last, says remaining 0 and nothing waits.
	s := newGitHubSim(t, 10, 3, 2, true)
	req, err := http.NewRequest(http.MethodGet, s.URL+"/repos/o/r/issues?per_page=3", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer ghp_test")
	req.Header.Set("Accept", "application/vnd.github+json")
	start := time.Now()
	var got []int
	var lastItem time.Time
	for it, err := range paging.Items(context.Background(), nil, req, paging.JSONItems[issue], paging.WaitRateLimits(time.Minute)) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, it.Number)
		lastItem = time.Now()
	}
	end := time.Now()
	if want := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}; !slices.Equal(got, want) {
		t.Errorf("issues %v, want %v", got, want)
	}
	log := s.requests()
	var statuses []int
	for _, r := range log {
		statuses = append(statuses, r.status)
		if !r.auth {
			t.Errorf("%s sent without the token", r.uri)
		}
	}
	if want := []int{403, 200, 200, 200, 200}; !slices.Equal(statuses, want) {
		t.Fatalf("statuses %v, want %v", statuses, want)
	}
	// Two waits of 1 to 2 s: one after the 403, one before page 3.
	for _, w := range []struct{ from, to int }{{0, 1}, {2, 3}} {
		d := log[w.to].at.Sub(log[w.from].at)
		t.Logf("%s -> %s: waited %v", log[w.from].uri, log[w.to].uri, d.Round(time.Millisecond))
		if d < 900*time.Millisecond || d > 3*time.Second {
			t.Errorf("%s came %v after %s, want 1 to 2 s", log[w.to].uri, d, log[w.from].uri)
		}
	}
	if d := log[1].at.Sub(log[0].at) + log[3].at.Sub(log[2].at); end.Sub(start) > d+2*time.Second {
		t.Errorf("took %v, %v more than the waits", end.Sub(start), end.Sub(start)-d)
	}
	if d := end.Sub(lastItem); d > 500*time.Millisecond {
		t.Errorf("waited %v after the last page", d)
	}
}

// gitLabSim is a GitLab-like API on 127.0.0.1 with keyset pagination
// (GET /api/v4/projects?pagination=keyset&id_after=N, a rel="next" link
// while there are more) and RateLimit-* fields: it refuses the first request
// for each page after the first with a 429 whose RateLimit-Reset is a Unix
// time with a fraction, reset after the refusal.
type gitLabSim struct {
	*httptest.Server
	mu    sync.Mutex
	log   []simRequest
	reset time.Duration
	seen  map[string]bool
}

func newGitLabSim(t *testing.T, projects, perPage int, reset time.Duration) *gitLabSim {
	s := &gitLabSim{reset: reset, seen: map[string]bool{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		now := time.Now()
		after, _ := strconv.Atoi(r.URL.Query().Get("id_after"))
		h := w.Header()
		h.Set("RateLimit-Limit", "600")
		if after > 0 && !s.seen[r.URL.RawQuery] {
			s.seen[r.URL.RawQuery] = true
			s.log = append(s.log, simRequest{at: now, uri: r.URL.RequestURI(), status: 429})
			h.Set("RateLimit-Remaining", "0")
			reset := float64(now.Add(s.reset).UnixNano()) / 1e9
			h.Set("RateLimit-Reset", strconv.FormatFloat(reset, 'f', 3, 64))
			http.Error(w, `{"message":"429 Too Many Requests"}`, http.StatusTooManyRequests)
			return
		}
		s.log = append(s.log, simRequest{at: now, uri: r.URL.RequestURI(), status: 200})
		h.Set("RateLimit-Remaining", "599")
		var ids []int
		for id := after + 1; id <= min(after+perPage, projects); id++ {
			ids = append(ids, id)
		}
		if len(ids) > 0 && ids[len(ids)-1] < projects {
			h.Set("Link", fmt.Sprintf(`<%s/api/v4/projects?id_after=%d&order_by=id&pagination=keyset&per_page=%d&sort=asc>; rel="next"`,
				s.URL, ids[len(ids)-1], perPage))
		}
		_ = json.NewEncoder(w).Encode(ids)
	}))
	t.Cleanup(s.Close)
	return s
}

func TestWaitRateLimitsGitLab(t *testing.T) {
	const reset = 400 * time.Millisecond
	s := newGitLabSim(t, 7, 3, reset)
	req, err := http.NewRequest(http.MethodGet, s.URL+"/api/v4/projects?pagination=keyset&per_page=3&order_by=id&sort=asc", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("PRIVATE-TOKEN", "glpat-test")
	var beforeNext int
	got, err := collectItems(t, paging.Items(context.Background(), nil, req, paging.JSONItems[int],
		paging.WaitRateLimits(10*time.Second), paging.MaxPages(3),
		paging.BeforeNext(func(*http.Response, *http.Request) error { beforeNext++; return nil })))
	if err != nil || !slices.Equal(got, []int{1, 2, 3, 4, 5, 6, 7}) {
		t.Fatalf("projects %v, error %v", got, err)
	}
	if beforeNext != 2 {
		t.Errorf("BeforeNext ran %d times, want 2 (once per new page)", beforeNext)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var statuses []int
	for _, r := range s.log {
		statuses = append(statuses, r.status)
	}
	if want := []int{200, 429, 200, 429, 200}; !slices.Equal(statuses, want) {
		t.Fatalf("statuses %v, want %v", statuses, want)
	}
	for _, i := range []int{2, 4} {
		d := s.log[i].at.Sub(s.log[i-1].at)
		if d < reset-50*time.Millisecond || d > reset+1500*time.Millisecond {
			t.Errorf("%s retried after %v, want about %v", s.log[i].uri, d, reset)
		}
	}
}

// httpDateIn reads "{now+D}".
func httpDateIn(v string) (time.Duration, bool) {
	if len(v) < 7 || v[:5] != "{now+" || v[len(v)-1] != '}' {
		return 0, false
	}
	d, err := time.ParseDuration(v[5 : len(v)-1])
	return d, err == nil
}

func TestWaitRateLimitsRetry(t *testing.T) {
	for _, tc := range []struct {
		name     string
		status   int
		h        map[string]string
		min, max time.Duration // of the wait
	}{
		{"429 Retry-After seconds", 429, map[string]string{"Retry-After": "1"}, 950 * time.Millisecond, 2500 * time.Millisecond},
		{"503 Retry-After HTTP-date", 503, map[string]string{"Retry-After": "{now+2s}"}, 900 * time.Millisecond, 3 * time.Second},
		{"403 Retry-After (secondary limit)", 403, map[string]string{"Retry-After": "1"}, 950 * time.Millisecond, 2500 * time.Millisecond},
		{"Retry-After 0", 429, map[string]string{"Retry-After": "0"}, 0, 1500 * time.Millisecond},
		{"HTTP-date in the past", 503, map[string]string{"Retry-After": "Sun, 06 Nov 1994 08:49:37 GMT"}, 0, 1500 * time.Millisecond},
		{"Retry-After wins over the reset", 429, map[string]string{"Retry-After": "0", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "3600"}, 0, 1500 * time.Millisecond},
		{"429 reset in seconds", 429, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "0.5"}, 450 * time.Millisecond, 2 * time.Second},
		{"403 reset as a Unix time in the past", 403, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1000000000"}, 0, 1500 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var at []time.Time
			a := newAPI(t, 3, nextOnly(3), refusing("2", 1, tc.status, tc.h, &at, &mu))
			r := collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL), paging.WaitRateLimits(5*time.Second)))
			r.check(t, itemsUpTo(1, 3), nil)
			mu.Lock()
			defer mu.Unlock()
			if len(at) != 4 {
				t.Fatalf("%d requests, want 4", len(at))
			}
			d := at[2].Sub(at[1])
			t.Logf("waited %v", d.Round(time.Millisecond))
			if d < tc.min || d > tc.max {
				t.Errorf("waited %v, want %v to %v", d, tc.min, tc.max)
			}
		})
	}
}

func TestWaitRateLimitsNotARateLimit(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		h      map[string]string
		opts   []paging.Option
	}{
		{"403 without the fields", 403, nil, []paging.Option{paging.WaitRateLimits(time.Minute)}},
		{"403 remaining but no reset", 403, map[string]string{"X-RateLimit-Remaining": "0"}, []paging.Option{paging.WaitRateLimits(time.Minute)}},
		{"403 remaining not 0", 403, map[string]string{"X-RateLimit-Remaining": "5", "X-RateLimit-Reset": "1"}, []paging.Option{paging.WaitRateLimits(time.Minute)}},
		{"403 reset not a number", 403, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "NaN"}, []paging.Option{paging.WaitRateLimits(time.Minute)}},
		{"503 without Retry-After", 503, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "0"}, []paging.Option{paging.WaitRateLimits(time.Minute)}},
		{"500 with Retry-After", 500, map[string]string{"Retry-After": "0"}, []paging.Option{paging.WaitRateLimits(time.Minute)}},
		{"403 Retry-After not a delay", 403, map[string]string{"Retry-After": "soon"}, []paging.Option{paging.WaitRateLimits(time.Minute)}},
		{"no option", 429, map[string]string{"Retry-After": "0"}, nil},
		{"maxWait 0", 429, map[string]string{"Retry-After": "0"}, []paging.Option{paging.WaitRateLimits(0)}},
		{"maxWait negative", 429, map[string]string{"Retry-After": "0"}, []paging.Option{paging.WaitRateLimits(-time.Second)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var at []time.Time
			a := newAPI(t, 3, nextOnly(3), refusing("2", 1, tc.status, tc.h, &at, &mu))
			r := collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL), tc.opts...))
			r.check(t, pageItems(1), paging.ErrStatus)
			if errors.Is(r.err, paging.ErrRateLimited) {
				t.Errorf("error %v is ErrRateLimited", r.err)
			}
			var se *paging.StatusError
			if !errors.As(r.err, &se) || se.StatusCode != tc.status {
				t.Errorf("error %v, want a *StatusError %d", r.err, tc.status)
			}
			if len(at) != 2 {
				t.Errorf("%d requests, want 2", len(at))
			}
		})
	}
}

func TestWaitRateLimitsBeyondMaxWait(t *testing.T) {
	for _, tc := range []struct {
		name     string
		status   int
		h        map[string]string
		requests int // received
		pages    int // yielded
	}{
		{"Retry-After an hour", 429, map[string]string{"Retry-After": "3600"}, 2, 2},
		{"Retry-After an HTTP-date tomorrow", 503, map[string]string{"Retry-After": "{now+24h}"}, 2, 2},
		{"Retry-After beyond time.Duration", 429, map[string]string{"Retry-After": "99999999999999999999999"}, 2, 2},
		{"reset a Unix time next year", 403, map[string]string{"X-RateLimit-Remaining": "0",
			"X-RateLimit-Reset": strconv.FormatInt(time.Now().Add(365*24*time.Hour).Unix(), 10)}, 2, 2},
		{"reset far beyond", 429, map[string]string{"RateLimit-Remaining": "0", "RateLimit-Reset": "999999999.5"}, 2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var at []time.Time
			a := newAPI(t, 3, nextOnly(3), refusing("2", -1, tc.status, tc.h, &at, &mu))
			start := time.Now()
			var pages int
			var last *http.Response
			var gotErr error
			for resp, err := range paging.Pages(context.Background(), nil, getItems(t, a.URL), paging.WaitRateLimits(2*time.Second)) {
				if resp != nil {
					pages++
					last = resp
				}
				gotErr = err
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v: slept a wait it would not finish", d)
			}
			var se *paging.StatusError
			if !errors.Is(gotErr, paging.ErrRateLimited) || !errors.As(gotErr, &se) || se.StatusCode != tc.status {
				t.Fatalf("error %v, want ErrRateLimited with a *StatusError %d", gotErr, tc.status)
			}
			if pages != tc.pages || last.StatusCode != tc.status {
				t.Errorf("%d responses, the last %d; want %d, the refused one last", pages, last.StatusCode, tc.pages)
			}
			if len(at) != tc.requests {
				t.Errorf("%d requests, want %d", len(at), tc.requests)
			}
		})
	}
}

func TestWaitRateLimitsAddUp(t *testing.T) {
	t.Parallel()
	// Waits of 1 s each with maxWait 1.5 s: the first is slept, the second
	// would pass maxWait and is not.
	var mu sync.Mutex
	var at []time.Time
	a := newAPI(t, 3, nextOnly(3), refusing("2", -1, 429, map[string]string{"Retry-After": "1"}, &at, &mu))
	start := time.Now()
	r := collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL), paging.WaitRateLimits(1500*time.Millisecond)))
	d := time.Since(start)
	if !errors.Is(r.err, paging.ErrRateLimited) || len(at) != 3 || r.pages != 2 {
		t.Errorf("error %v, %d requests, %d responses; want ErrRateLimited, 3, 2", r.err, len(at), r.pages)
	}
	if d < 950*time.Millisecond || d > 2500*time.Millisecond {
		t.Errorf("took %v, want about 1 s", d)
	}
}

func TestWaitRateLimitsBeforeNextPageBeyondMaxWait(t *testing.T) {
	// Page 1 says the limit is spent for an hour: page 2 is not requested,
	// and nothing is slept.
	a := newAPI(t, 3, nextOnly(3), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10))
			items.ServeHTTP(w, r)
		})
	})
	start := time.Now()
	r := collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL), paging.WaitRateLimits(time.Minute)))
	r.check(t, pageItems(1), paging.ErrRateLimited)
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v", d)
	}
	if got := len(a.requests()); got != 1 {
		t.Errorf("%d requests, want 1", got)
	}
	if errors.Is(r.err, paging.ErrStatus) {
		t.Errorf("error %v has a *StatusError, but page 1 was 200", r.err)
	}
}

func TestWaitRateLimits503Forever(t *testing.T) {
	var mu sync.Mutex
	var at []time.Time
	a := newAPI(t, 3, nextOnly(3), refusing("2", -1, 503, map[string]string{"Retry-After": "0"}, &at, &mu))
	var responses []*http.Response
	var gotErr error
	for resp, err := range paging.Pages(context.Background(), nil, getItems(t, a.URL), paging.WaitRateLimits(time.Hour), paging.MaxPages(2)) {
		if resp != nil {
			responses = append(responses, resp)
		}
		gotErr = err
	}
	var se *paging.StatusError
	if !errors.Is(gotErr, paging.ErrRateLimited) || !errors.As(gotErr, &se) || se.StatusCode != 503 {
		t.Fatalf("error %v, want ErrRateLimited with a *StatusError 503", gotErr)
	}
	// page 1, then page 2 requested 11 times: the first request and 10 retries
	if len(at) != 12 {
		t.Errorf("%d requests, want 12", len(at))
	}
	if len(responses) != 2 || responses[1].StatusCode != 503 {
		t.Errorf("%d responses yielded, want page 1 and the last 503", len(responses))
	}
	t.Logf("error: %v", gotErr)
}

func TestWaitRateLimitsRetryIsOnePage(t *testing.T) {
	var mu sync.Mutex
	var at []time.Time
	a := newAPI(t, 3, nextOnly(3), refusing("2", 2, 429, map[string]string{"Retry-After": "0"}, &at, &mu))
	calls := 0
	hook := paging.BeforeNext(func(*http.Response, *http.Request) error { calls++; return nil })
	r := collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL), paging.WaitRateLimits(time.Minute), paging.MaxPages(2), hook))
	r.check(t, itemsUpTo(1, 2), paging.ErrMaxPages)
	if len(at) != 4 || calls != 1 {
		t.Errorf("%d requests, BeforeNext %d times; want 4 and 1", len(at), calls)
	}
}

func TestWaitRateLimitsContextDoneDuringWait(t *testing.T) {
	for _, which := range []string{"ctx", "req.Context()"} {
		t.Run(which, func(t *testing.T) {
			var mu sync.Mutex
			var at []time.Time
			refused := make(chan struct{}, 1)
			a := newAPI(t, 3, nextOnly(3), refusing("2", -1, 429, map[string]string{"Retry-After": "30"}, &at, &mu),
				func(h http.Handler) http.Handler {
					return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						h.ServeHTTP(w, r)
						if r.URL.Query().Get("page") == "2" {
							refused <- struct{}{}
						}
					})
				})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			req := getItems(t, a.URL)
			outer := context.Background()
			if which == "ctx" {
				outer = ctx
			} else {
				req = req.WithContext(ctx)
			}
			go func() {
				<-refused
				time.Sleep(100 * time.Millisecond) // into the wait
				cancel()
			}()
			start := time.Now()
			r := collect(t, paging.Pages(outer, nil, req, paging.WaitRateLimits(time.Minute)))
			r.check(t, pageItems(1), context.Canceled)
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v after a cancellation at about 100 ms", d)
			}
			if len(at) != 2 {
				t.Errorf("%d requests, want 2", len(at))
			}
		})
	}
}

// The waits are in whole nanoseconds: a reset with a long fraction or a
// huge value must not overflow into a negative wait.
func TestWaitRateLimitsHugeReset(t *testing.T) {
	var mu sync.Mutex
	var at []time.Time
	v := strconv.FormatFloat(math.MaxInt64/1e9-1, 'f', 0, 64) + ".999999999999"
	a := newAPI(t, 3, nextOnly(3), refusing("2", -1, 429, map[string]string{"RateLimit-Remaining": "0", "RateLimit-Reset": v}, &at, &mu))
	r := collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL), paging.WaitRateLimits(time.Minute)))
	r.check(t, pageItems(1), paging.ErrRateLimited)
	if len(at) != 2 {
		t.Errorf("%d requests, want 2", len(at))
	}
}

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
