package paging

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a clock whose sleeps return at once and move it on: the
// rate-limit tests wait minutes of its time in no time.
type fakeClock struct {
	mu    sync.Mutex
	t     time.Time
	slept []time.Duration
}

func newFakeClock() *fakeClock { return &fakeClock{t: testNow} }

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	c.slept = append(c.slept, d)
	return ctx.Err()
}

func (c *fakeClock) sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.slept)
}

// option makes an iteration use the clock.
func (c *fakeClock) option() Option {
	return func(cfg *config) {
		cfg.now = c.now
		cfg.sleep = c.sleep
	}
}

// answer is a response of scriptedAPI.
type answer struct {
	status int
	h      http.Header
	body   string
}

// scriptedAPI is an http.RoundTripper serving pages 1 to 3 of
// http://api.test/items, each holding its number, with next links: page 2
// is answered with the refusals first, in order (the last one again and
// again when forever is set).
type scriptedAPI struct {
	refusals []answer
	forever  bool

	mu       sync.Mutex
	requests []string // the page of each request
	open     int      // bodies not closed
}

func (s *scriptedAPI) client() *http.Client { return &http.Client{Transport: s} }

func (s *scriptedAPI) RoundTrip(r *http.Request) (*http.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	page := r.URL.Query().Get("page")
	if page == "" {
		page = "1"
	}
	refusedBefore := 0
	for _, p := range s.requests {
		if p == page {
			refusedBefore++
		}
	}
	s.requests = append(s.requests, page)
	a := answer{status: 200, h: http.Header{}, body: page}
	if page == "2" && len(s.refusals) > 0 && (refusedBefore < len(s.refusals) || s.forever) {
		a = s.refusals[min(refusedBefore, len(s.refusals)-1)]
	} else if page != "3" {
		n, _ := strconv.Atoi(page)
		a.h.Set("Link", "</items?page="+strconv.Itoa(n+1)+`>; rel="next"`)
	}
	s.open++
	return &http.Response{
		StatusCode: a.status,
		Status:     strconv.Itoa(a.status) + " " + http.StatusText(a.status),
		Header:     a.h.Clone(),
		Body:       &trackedBody{Reader: strings.NewReader(a.body), api: s},
		Request:    r,
	}, nil
}

type trackedBody struct {
	io.Reader
	api    *scriptedAPI
	closed bool
}

func (b *trackedBody) Close() error {
	b.api.mu.Lock()
	defer b.api.mu.Unlock()
	if !b.closed {
		b.closed = true
		b.api.open--
	}
	return nil
}

func (s *scriptedAPI) log() (requests []string, open int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests), s.open
}

// scriptedPages ranges over the pages of api and returns their bodies (read
// inside the loop body, from the start) and the last error.
func scriptedPages(t *testing.T, api *scriptedAPI, opts ...Option) (bodies []string, statuses []int, err error) {
	t.Helper()
	req, rerr := http.NewRequest(http.MethodGet, "http://api.test/items", nil)
	if rerr != nil {
		t.Fatal(rerr)
	}
	for resp, e := range Pages(context.Background(), api.client(), req, opts...) {
		if resp != nil {
			b, rerr := io.ReadAll(resp.Body)
			if rerr != nil {
				t.Errorf("reading page %s: %v", resp.Request.URL, rerr)
			}
			bodies = append(bodies, string(b))
			statuses = append(statuses, resp.StatusCode)
		}
		err = e
	}
	return bodies, statuses, err
}

const secondaryLimit = `{"message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",` +
	`"documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`

// TestWaitRateLimitsBackoff checks rule 1: a 429 that says neither how long
// to wait nor when the limit resets, and a 403 whose body says "rate limit",
// are waited out 60 s, then 120 s, 240 s... for the refusals of one page;
// refusals that say how long do not count.
func TestWaitRateLimitsBackoff(t *testing.T) {
	none := http.Header{}
	retry := func(v string) http.Header { return http.Header{"Retry-After": {v}} }
	reset := func(v string) http.Header {
		return http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {v}}
	}
	const min = time.Minute
	for _, tc := range []struct {
		name     string
		refusals []answer
		forever  bool
		maxWait  time.Duration
		slept    []time.Duration
		err      error // nil: every page
		requests int   // for page 2
	}{
		{"429 without headers", []answer{{429, none, ""}}, false, time.Hour,
			[]time.Duration{min}, nil, 2},
		{"429 thrice", []answer{{429, none, ""}, {429, none, ""}, {429, none, ""}}, false, time.Hour,
			[]time.Duration{min, 2 * min, 4 * min}, nil, 4},
		{"429 with a Retry-After that is not a delay", []answer{{429, retry("soon"), ""}}, false, time.Hour,
			[]time.Duration{min}, nil, 2},
		{"429 with a remaining count but no reset", []answer{{429, http.Header{"X-Ratelimit-Remaining": {"0"}}, ""}}, false, time.Hour,
			[]time.Duration{min}, nil, 2},
		{"403 secondary rate limit", []answer{{403, http.Header{"X-Ratelimit-Remaining": {"4987"}}, secondaryLimit}, {403, none, secondaryLimit}}, false, time.Hour,
			[]time.Duration{min, 2 * min}, nil, 3},
		{"403 RATE LIMIT in capitals", []answer{{403, none, "RATE LIMIT"}}, false, time.Hour,
			[]time.Duration{min}, nil, 2},
		{"403 rate limit ending at byte 2048", []answer{{403, none, strings.Repeat("x", 2038) + "rate limit"}}, false, time.Hour,
			[]time.Duration{min}, nil, 2},
		{"403 rate limit cut at byte 2048", []answer{{403, none, strings.Repeat("x", 2039) + "rate limit"}}, false, time.Hour,
			nil, ErrStatus, 1},
		{"403 rate-limit with a hyphen", []answer{{403, none, "rate-limit"}}, false, time.Hour,
			nil, ErrStatus, 1},
		{"403 ratelimit without a space", []answer{{403, none, "ratelimit"}}, false, time.Hour,
			nil, ErrStatus, 1},
		{"503 without Retry-After, rate limit in the body", []answer{{503, none, "rate limit"}}, false, time.Hour,
			nil, ErrStatus, 1},
		{"500 rate limit", []answer{{500, none, "rate limit"}}, false, time.Hour,
			nil, ErrStatus, 1},
		{"Retry-After between backoffs does not count", []answer{{429, none, ""}, {429, retry("5"), ""}, {403, none, "rate limit"}}, false, time.Hour,
			[]time.Duration{min, 5 * time.Second, 2 * min}, nil, 4},
		{"a reset between backoffs does not count", []answer{{403, reset("30"), "API rate limit exceeded"}, {429, none, ""}, {429, reset("7"), ""}, {429, none, ""}}, false, time.Hour,
			[]time.Duration{30 * time.Second, min, 7 * time.Second, 2 * min}, nil, 5},
		{"beyond maxWait", []answer{{429, none, ""}}, true, 2*min + 59*time.Second,
			[]time.Duration{min}, ErrRateLimited, 2},
		{"maxWait below a minute", []answer{{429, none, ""}}, true, 59 * time.Second,
			nil, ErrRateLimited, 1},
		{"the retry bound", []answer{{429, none, ""}}, true, 1 << 62,
			[]time.Duration{min, 2 * min, 4 * min, 8 * min, 16 * min, 32 * min, 64 * min, 128 * min, 256 * min, 512 * min}, ErrRateLimited, 11},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := &scriptedAPI{refusals: tc.refusals, forever: tc.forever}
			clock := newFakeClock()
			bodies, statuses, err := scriptedPages(t, api, WaitRateLimits(tc.maxWait), clock.option())
			if tc.err == nil && err != nil || tc.err != nil && !errors.Is(err, tc.err) {
				t.Errorf("error %v, want %v", err, tc.err)
			}
			if got := clock.sleeps(); !slices.Equal(got, tc.slept) {
				t.Errorf("slept %v, want %v", got, tc.slept)
			}
			requests, open := api.log()
			if n := strings.Count(strings.Join(requests, ""), "2"); n != tc.requests {
				t.Errorf("page 2 requested %d times (%v), want %d", n, requests, tc.requests)
			}
			if open != 0 {
				t.Errorf("%d bodies left open", open)
			}
			if tc.err == nil {
				if want := []string{"1", "2", "3"}; !slices.Equal(bodies, want) {
					t.Errorf("bodies %q, want %q", bodies, want)
				}
				return
			}
			// The refused page is yielded last, its body whole.
			last := tc.refusals[len(tc.refusals)-1]
			if len(bodies) != 2 || bodies[1] != last.body || statuses[1] != last.status {
				t.Errorf("yielded %v %q, want page 1 and the refused page with its body", statuses, bodies)
			}
		})
	}
}

// TestWaitRateLimitsBackoffPerPage checks that the backoff starts again at
// 60 s for each page.
func TestWaitRateLimitsBackoffPerPage(t *testing.T) {
	api := &scriptedAPI{}
	refused := map[string]int{}
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		p := r.URL.Query().Get("page")
		if p != "" && refused[p] < 2 {
			refused[p]++
			return &http.Response{StatusCode: 429, Status: "429 Too Many Requests", Header: http.Header{},
				Body: http.NoBody, Request: r}, nil
		}
		return api.RoundTrip(r)
	})}
	clock := newFakeClock()
	req, _ := http.NewRequest(http.MethodGet, "http://api.test/items", nil)
	n := 0
	for _, err := range Pages(context.Background(), client, req, WaitRateLimits(time.Hour), clock.option()) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	min := time.Minute
	if want := []time.Duration{min, 2 * min, min, 2 * min}; n != 3 || !slices.Equal(clock.sleeps(), want) {
		t.Errorf("%d pages, slept %v; want 3 pages, slept %v", n, clock.sleeps(), want)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// FuzzRateLimitBody checks the recognition of rule 1 and its bounds (rule
// 5) for any refusal, answered again and again: the kind of refusal
// follows the status, the fields and the first 2 KiB of the body; the waits
// never add up past maxWait, a page is requested at most 11 times, and the
// refused response yielded still reads its whole body.
func FuzzRateLimitBody(f *testing.F) {
	big := strings.Repeat("9", 400)
	for _, tc := range []struct {
		status                    int
		retryAfter, remain, reset string
		body                      string
		maxWait                   int64
	}{
		{429, "", "", "", "", int64(time.Hour)},
		{429, "0", "", "", "", int64(time.Hour)}, // Retry-After: 0 forever
		{429, "-5", "", "", "", 1 << 62},
		{429, "1e300", "", "", "", 1 << 62},
		{429, big, "", "", "", 1 << 62},
		{403, "", "0", "1e300", "API rate limit exceeded", 1 << 62},
		{403, "", "0", big, "", int64(time.Hour)},
		{403, "", "0", "-1", "", int64(time.Hour)},
		{403, "", "4999", "", secondaryLimit, 1 << 62},
		{403, "", "", "", strings.Repeat("x", 2040) + "Rate Limit", int64(time.Hour)},
		{403, "", "", "", strings.Repeat("x", 2039) + "rate limit", int64(time.Hour)},
		{503, "", "", "", "rate limit", int64(time.Hour)},
		{503, "0", "", "", "", int64(time.Hour)},
		{429, "", "", "", "", -1},
		{429, "", "", "", "", 0},
		{403, "Fri, 31 Dec 9999 23:59:59 GMT", "", "", "", 1 << 62},
	} {
		f.Add(tc.status, tc.retryAfter, tc.remain, tc.reset, []byte(tc.body), tc.maxWait)
	}
	f.Fuzz(func(t *testing.T, status int, retryAfter, remain, reset string, body []byte, maxWait int64) {
		if status < 100 || status > 999 || len(body) > 3*statusBodyBytes {
			return
		}
		h := http.Header{}
		for k, v := range map[string]string{"Retry-After": retryAfter, "X-Ratelimit-Remaining": remain, "X-Ratelimit-Reset": reset} {
			if v != "" {
				h.Set(k, v)
			}
		}
		resp := &http.Response{StatusCode: status, Header: h}
		d, kind := refusedWait(resp, body[:min(len(body), statusBodyBytes)], testNow)
		lower := make([]byte, min(len(body), statusBodyBytes))
		for i := range lower {
			lower[i] = body[i]
			if 'A' <= lower[i] && lower[i] <= 'Z' {
				lower[i] += 'a' - 'A'
			}
		}
		switch {
		case d < 0:
			t.Fatalf("wait %v", d)
		case kind == untold && (d != 0 || status != 429 && !(status == 403 && strings.Contains(string(lower), "rate limit"))):
			t.Fatalf("status %d, body %q: backed off", status, body)
		case kind != notLimited && status != 429 && status != 403 && status != 503:
			t.Fatalf("status %d: a rate limit", status)
		case status == 429 && kind == notLimited:
			t.Fatalf("429 not a rate limit")
		}

		if status < 400 {
			return // not a refusal: 1xx, 2xx and redirects are net/http's or paged
		}
		api := &scriptedAPI{refusals: []answer{{status, h, string(body)}}, forever: true}
		clock := newFakeClock()
		bodies, statuses, err := scriptedPages(t, api, WaitRateLimits(time.Duration(maxWait)), clock.option())
		var total time.Duration
		for _, s := range clock.sleeps() {
			if s < 0 {
				t.Fatalf("slept %v", s)
			}
			total += s
		}
		if total > max(time.Duration(maxWait), 0) {
			t.Fatalf("slept %v in all, beyond maxWait %v", total, time.Duration(maxWait))
		}
		requests, open := api.log()
		if n := len(requests) - 1; n > 1+maxRetries {
			t.Fatalf("page 2 requested %d times", n)
		}
		if open != 0 {
			t.Fatalf("%d bodies left open", open)
		}
		if err == nil || len(statuses) != 2 || statuses[1] != status || bodies[1] != string(body) {
			t.Fatalf("yielded %v, error %v; want page 1 and the refusal, its whole body, with an error", statuses, err)
		}
	})
}
