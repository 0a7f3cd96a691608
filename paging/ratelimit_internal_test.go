package paging

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weblinking/weblink/internal/ratelimit"
)

func TestRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true},
		{"120", 2 * time.Minute, true},
		{" 5 ", 5 * time.Second, true},
		{"007", 7 * time.Second, true},
		{"99999999999999999999", ratelimit.MaxSeconds * time.Second, true}, // capped, not wrapped
		{"Tue, 01 Dec 2026 13:00:30 GMT", 30 * time.Second, true},          // IMF-fixdate
		{"Tuesday, 01-Dec-26 13:01:00 GMT", time.Minute, true},             // RFC 850
		{"Tue Dec  1 13:00:02 2026", 2 * time.Second, true},                // asctime
		{"Tue, 01 Dec 2026 12:00:00 GMT", 0, true},                         // in the past: now
		{"", 0, false},
		{"-1", 0, false},
		{"1.5", 0, false}, // delay-seconds has no fraction
		{"1e3", 0, false},
		{"0x10", 0, false},
		{"NaN", 0, false},
		{"soon", 0, false},
		{"5 seconds", 0, false},
	} {
		got, ok := ratelimit.RetryAfter(tc.in, testNow)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ratelimit.RetryAfter(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestResetTime(t *testing.T) {
	unix := testNow.Unix()
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true},
		{"60", time.Minute, true},
		{"1.5", 1500 * time.Millisecond, true},
		{"0.000000001", time.Nanosecond, true},
		{"0.0000000019", time.Nanosecond, true}, // nanoseconds at most
		{"999999999", 999999999 * time.Second, true},
		{strconv.FormatInt(unix+90, 10), 90 * time.Second, true}, // ≥ 1e9: a Unix time
		{strconv.FormatInt(unix+1, 10) + ".25", 1250 * time.Millisecond, true},
		{strconv.FormatInt(unix-90, 10), 0, true}, // in the past: now
		{"1000000000", 0, true},
		{"99999999999999999999", time.Unix(ratelimit.MaxSeconds, 0).Sub(testNow), true},
		{"", 0, false},
		{"1.", 0, false},
		{".5", 0, false},
		{"1.5.5", 0, false},
		{"-5", 0, false},
		{"+5", 0, false},
		{"1e3", 0, false},
		{"NaN", 0, false},
		{"Inf", 0, false},
		{"0x1p-1", 0, false},
		{"5 s", 0, false},
		{"Tue, 01 Dec 2026 13:00:30 GMT", 0, false},
	} {
		got, ok := ratelimit.ResetTime(tc.in, testNow)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ratelimit.ResetTime(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestRefusedWait(t *testing.T) {
	reset := strconv.FormatInt(testNow.Unix()+30, 10)
	for _, tc := range []struct {
		name   string
		status int
		h      http.Header
		want   time.Duration
		kind   refusal
	}{
		{"429 Retry-After", 429, http.Header{"Retry-After": {"3"}}, 3 * time.Second, told},
		{"503 Retry-After", 503, http.Header{"Retry-After": {"3"}}, 3 * time.Second, told},
		{"403 Retry-After", 403, http.Header{"Retry-After": {"3"}}, 3 * time.Second, told},
		{"first Retry-After line", 429, http.Header{"Retry-After": {"3", "9"}}, 3 * time.Second, told},
		{"500 Retry-After", 500, http.Header{"Retry-After": {"3"}}, 0, notLimited},
		{"301 Retry-After", 301, http.Header{"Retry-After": {"3"}}, 0, notLimited},
		{"GitHub 403", 403, http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {reset}}, 30 * time.Second, told},
		{"GitHub 429", 429, http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {reset}}, 30 * time.Second, told},
		{"GitLab 429", 429, http.Header{"Ratelimit-Remaining": {"0"}, "Ratelimit-Reset": {reset}}, 30 * time.Second, told},
		{"IETF draft seconds", 429, http.Header{"Ratelimit-Remaining": {"0"}, "Ratelimit-Reset": {"7"}}, 7 * time.Second, told},
		{"remaining 00", 403, http.Header{"X-Ratelimit-Remaining": {" 00 "}, "X-Ratelimit-Reset": {"7"}}, 7 * time.Second, told},
		{"503 with only a reset", 503, http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {reset}}, 0, notLimited},
		{"Retry-After wins", 429, http.Header{"Retry-After": {"3"}, "X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {reset}}, 3 * time.Second, told},
		{"bad Retry-After, good reset", 429, http.Header{"Retry-After": {"x"}, "X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {"4"}}, 4 * time.Second, told},
		{"remaining not 0", 403, http.Header{"X-Ratelimit-Remaining": {"1"}, "X-Ratelimit-Reset": {reset}}, 0, notLimited},
		{"remaining empty", 403, http.Header{"X-Ratelimit-Remaining": {""}, "X-Ratelimit-Reset": {reset}}, 0, notLimited},
		{"remaining -0", 403, http.Header{"X-Ratelimit-Remaining": {"-0"}, "X-Ratelimit-Reset": {reset}}, 0, notLimited},
		{"reset of the other family", 403, http.Header{"X-Ratelimit-Remaining": {"0"}, "Ratelimit-Reset": {reset}}, 0, notLimited},
		{"second family", 403, http.Header{"X-Ratelimit-Remaining": {"5"}, "X-Ratelimit-Reset": {"1"}, "Ratelimit-Remaining": {"0"}, "Ratelimit-Reset": {"2"}}, 2 * time.Second, told},
		{"403 plain", 403, http.Header{}, 0, notLimited},
		{"429 plain", 429, http.Header{}, 0, untold},
		{"429 remaining 0, no reset", 429, http.Header{"X-Ratelimit-Remaining": {"0"}}, 0, untold},
		{"429 Retry-After not a delay", 429, http.Header{"Retry-After": {"soon"}}, 0, untold},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, kind := refusedWait(&http.Response{StatusCode: tc.status, Header: tc.h}, nil, testNow)
			if got != tc.want || kind != tc.kind {
				t.Errorf("refusedWait = %v, %v; want %v, %v", got, kind, tc.want, tc.kind)
			}
		})
	}
}

func TestCredentialsTo(t *testing.T) {
	for _, tc := range []struct {
		req, to string
		want    bool
	}{
		{"http://h/", "http://h/", true},
		{"http://h/", "http://H:80/", true},
		{"http://h/", "https://h/", true}, // the https upgrade
		{"http://h:80/", "https://h:443/", true},
		{"https://h/", "https://h:443/", true},
		{"https://h/", "http://h/", false}, // a downgrade
		{"http://h:8080/", "https://h/", false},
		{"http://h/", "https://h:8443/", false},
		{"http://h/", "https://www.h/", false},
		{"http://h/", "http://h:8080/", false},
		{"http://h/", "http://g/", false},
	} {
		r, _ := url.Parse(tc.req)
		to, _ := url.Parse(tc.to)
		p := pager{reqOrigin: originOf(r)}
		if got := p.credentialsTo(originOf(to)); got != tc.want {
			t.Errorf("credentials of %s to %s: %v, want %v", tc.req, tc.to, got, tc.want)
		}
	}
}

// TestWaitRateLimitsClock pages with a clock of the test's own: the reset
// of page 1, a Unix time far from the real one, is 300 ms after the clock's
// now, so Pages waits 300 ms of real time before page 2.
func TestWaitRateLimitsClock(t *testing.T) {
	const reset = 4000000000 // 2096
	clock := time.Unix(reset, 0).Add(-300 * time.Millisecond)
	var mu sync.Mutex
	var times []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		times = append(times, time.Now())
		mu.Unlock()
		if r.URL.Query().Get("page") == "" {
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", strconv.Itoa(reset))
			w.Header().Set("Link", `<?page=2>; rel="next"`)
		}
	}))
	defer srv.Close()
	req, err := http.NewRequest(http.MethodGet, srv.URL+"/items", nil)
	if err != nil {
		t.Fatal(err)
	}
	fake := Option(func(c *config) { c.now = func() time.Time { return clock } })
	n := 0
	for _, err := range Pages(context.Background(), nil, req, WaitRateLimits(time.Second), fake) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	mu.Lock()
	defer mu.Unlock()
	if n != 2 || len(times) != 2 {
		t.Fatalf("%d pages, %d requests; want 2", n, len(times))
	}
	if d := times[1].Sub(times[0]); d < 290*time.Millisecond || d > 1500*time.Millisecond {
		t.Errorf("page 2 came %v after page 1, want about 300 ms", d)
	}
}

// FuzzRateLimitFields checks that no Retry-After or reset value panics or
// gives a negative wait, and that whole seconds below 1e9 read back as the
// number written.
func FuzzRateLimitFields(f *testing.F) {
	for _, s := range []string{"0", "120", "1.5", "1733058000", "1733058000.25", "Tue, 01 Dec 2026 13:00:30 GMT",
		"99999999999999999999", "9223372036.854775807", "1e3", "NaN", "-1", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, parse := range map[string]func(string, time.Time) (time.Duration, bool){"RetryAfter": ratelimit.RetryAfter, "ResetTime": ratelimit.ResetTime} {
			d, ok := parse(s, testNow)
			if d < 0 || !ok && d != 0 {
				t.Fatalf("%s(%q) = %v, %v", name, s, d, ok)
			}
		}
		if n, err := strconv.ParseUint(s, 10, 32); err == nil && n < 1e9 {
			want := time.Duration(n) * time.Second
			if d, ok := ratelimit.RetryAfter(s, testNow); !ok || d != want {
				t.Fatalf("ratelimit.RetryAfter(%q) = %v, %v; want %v", s, d, ok, want)
			}
			if d, ok := ratelimit.ResetTime(s, testNow); !ok || d != want {
				t.Fatalf("ratelimit.ResetTime(%q) = %v, %v; want %v", s, d, ok, want)
			}
		}
		h := http.Header{"Retry-After": {s}, "X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {s}}
		if d, kind := refusedWait(&http.Response{StatusCode: 429, Header: h}, nil, testNow); d < 0 || kind == notLimited || kind == untold && d != 0 {
			t.Fatalf("refusedWait(%q) = %v, %v", s, d, kind)
		}
	})
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
		// A refusal that reports a remaining count is learned (rule 14):
		// once the retries have spent it, the next retry waits for its
		// reset before it is sent, and a reset beyond maxWait ends the
		// iteration there, the error alone naming the page (the
		// WaitRateLimits doc).
		forReset := remain != "" && len(statuses) == 1 && errors.Is(err, ErrRateLimited) && strings.Contains(err.Error(), "not requested again")
		if !forReset && (err == nil || len(statuses) != 2 || statuses[1] != status || bodies[1] != string(body)) {
			t.Fatalf("yielded %v, error %v; want page 1 and the refusal, its whole body, with an error", statuses, err)
		}
	})
}

// stamp is a request as the server of TestRateLimiterShared saw it.
type stamp struct {
	at     time.Time
	uri    string
	status int
}

// TestRateLimiterShared checks rule 2 against a real server, from the
// timestamps it records: iteration a is refused once with Retry-After: 1;
// iteration b, whose first page was in flight, and 50 iterations started
// after the refusal, each in its own goroutine, send no request before the
// second is over, and all of them finish.
func TestRateLimiterShared(t *testing.T) {
	t.Parallel() // it waits a second
	var (
		mu       sync.Mutex
		log      []stamp
		refusedA bool
		refusal  time.Time
	)
	learned := make(chan struct{})  // closed when the limiter knows of the refusal
	bArrived := make(chan struct{}) // closed when b's first request has come
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		now := time.Now()
		status := http.StatusOK
		page := r.URL.Query().Get("page")
		switch {
		case r.URL.Path == "/a" && page == "2" && !refusedA:
			refusedA, refusal, status = true, now, http.StatusTooManyRequests
		case page == "":
			w.Header().Set("Link", `<?page=2>; rel="next"`)
		}
		log = append(log, stamp{now, r.URL.RequestURI(), status})
		mu.Unlock()
		switch {
		case r.URL.Path == "/a" && page == "":
			<-bArrived // b's first request comes before a's refusal
		case r.URL.Path == "/b" && page == "":
			close(bArrived)
			<-learned // and is answered after it
		}
		if status != http.StatusOK {
			w.Header().Set("Retry-After", "1")
		}
		w.WriteHeader(status)
	}))
	defer srv.Close()
	limiter := NewRateLimiter(time.Minute)
	// An earlier response gave no count: requests go freely (rule 13), and
	// b's first request need not wait for the probe, a's.
	limiter.limit.learnedAt(time.Now(), Limit{Remaining: -1})
	pages := func(path string) error {
		req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		if err != nil {
			return err
		}
		n := 0
		for _, err := range Pages(context.Background(), nil, req, limiter.Option()) {
			if err != nil {
				return err
			}
			n++
		}
		if n != 2 {
			return fmt.Errorf("%s: %d pages, want 2", path, n)
		}
		return nil
	}
	var wg sync.WaitGroup
	errs := make(chan error, 52)
	run := func(path string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- pages(path)
		}()
	}
	run("/a")
	run("/b")
	for deadline := time.Now().Add(10 * time.Second); limiter.limit.until().IsZero(); { // a has read the refusal
		if time.Now().After(deadline) {
			close(learned)
			t.Fatal("the limiter did not learn of the refusal")
		}
		time.Sleep(time.Millisecond)
	}
	close(learned)
	for i := range 50 {
		run(fmt.Sprintf("/c%d", i))
	}
	wg.Wait()
	reportErrors(t, errs)
	mu.Lock()
	defer mu.Unlock()
	if len(log) != 2+2+1+50*2 {
		t.Errorf("%d requests, want 105", len(log))
	}
	slices.SortFunc(log, func(a, b stamp) int { return a.at.Compare(b.at) })
	end := refusal.Add(time.Second)
	var early, after []string
	for _, s := range log {
		d := s.at.Sub(refusal)
		switch {
		case s.at.Before(refusal) || s.status != http.StatusOK && d == 0:
		case s.at.Before(end):
			early = append(early, fmt.Sprintf("%s at %v", s.uri, d))
		case d > 6*time.Second: // very wide: the machine may be busy
			t.Errorf("%s came %v after the refusal, long after the wait", s.uri, d)
		default:
			after = append(after, s.uri)
		}
	}
	if len(early) > 0 {
		t.Errorf("requests during the wait of 1 s after the refusal: %v", early)
	}
	if len(after) != 1+1+50*2 { // a's retry, b's page 2, the 50 iterations' pages
		t.Errorf("%d requests after the wait, want 102", len(after))
	}
	first := log[0].at
	t.Logf("server-side, from the first request: refusal (429, Retry-After: 1) at %v; first request after it at %v, i.e. %v after the refusal; last request at %v",
		refusal.Sub(first).Round(time.Millisecond), log[len(log)-len(after)].at.Sub(first).Round(time.Millisecond),
		log[len(log)-len(after)].at.Sub(refusal).Round(time.Millisecond), log[len(log)-1].at.Sub(first).Round(time.Millisecond))
}

// TestRateLimiterWakesEveryWaiter has 50 iterations wait on one limiter,
// whose time moves later while they wait: every one of them wakes, after
// the later time, and sends its request.
func TestRateLimiterWakesEveryWaiter(t *testing.T) {
	const n = 50
	limiter := NewRateLimiter(10 * time.Second)
	var mu sync.Mutex
	var sent []time.Time
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		sent = append(sent, time.Now())
		mu.Unlock()
		return &http.Response{StatusCode: 200, Status: "200 OK", Header: http.Header{}, Body: http.NoBody, Request: r}, nil
	})}
	start := time.Now()
	first, later := start.Add(100*time.Millisecond), start.Add(250*time.Millisecond)
	limiter.limit.learned(first)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodGet, "http://api.test/items", nil)
			for _, err := range Pages(context.Background(), client, req, limiter.Option()) {
				errs <- err
			}
		}()
	}
	time.Sleep(50 * time.Millisecond)
	limiter.limit.learned(later)
	limiter.limit.learned(first) // earlier: changes nothing
	wg.Wait()
	reportErrors(t, errs)
	mu.Lock()
	defer mu.Unlock()
	if len(sent) != n {
		t.Fatalf("%d requests, want %d", len(sent), n)
	}
	for _, at := range sent {
		if at.Before(later) {
			t.Errorf("a request at %v, before the limit ended at %v", at.Sub(start), later.Sub(start))
		}
	}
	t.Logf("limit until %v; requests from %v to %v", later.Sub(start), slices.MinFunc(sent, time.Time.Compare).Sub(start), slices.MaxFunc(sent, time.Time.Compare).Sub(start))
}

// TestRateLimiterLaterIterations checks that an iteration started after
// another learned of a limit waits for it before its first request, and
// that a shared limit beyond maxWait ends an iteration at once, sending
// nothing and sleeping nothing.
func TestRateLimiterLaterIterations(t *testing.T) {
	clock := newFakeClock()
	spentOnLast := func(api *scriptedAPI) *http.Client {
		return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			resp, err := api.RoundTrip(r)
			if r.URL.Query().Get("page") == "3" {
				resp.Header.Set("X-RateLimit-Remaining", "0")
				resp.Header.Set("X-RateLimit-Reset", "30")
			}
			return resp, err
		})}
	}
	limiter := NewRateLimiter(time.Minute)
	req, _ := http.NewRequest(http.MethodGet, "http://api.test/items", nil)
	count := func(seq func(func(*http.Response, error) bool)) (pages int, err error) {
		for resp, e := range seq {
			if resp != nil {
				pages++
			}
			err = e
		}
		return pages, err
	}

	// The last page says the limit is spent for 30 s: the iteration ends
	// without waiting; the next one waits 30 s before its first request.
	api := &scriptedAPI{}
	if n, err := count(Pages(context.Background(), spentOnLast(api), req, limiter.Option(), clock.option())); n != 3 || err != nil {
		t.Fatalf("first iteration: %d pages, %v", n, err)
	}
	if s := clock.sleeps(); len(s) != 0 {
		t.Fatalf("first iteration slept %v", s)
	}
	var firstAt time.Time
	api2 := &scriptedAPI{}
	client2 := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if firstAt.IsZero() {
			firstAt = clock.now()
		}
		return api2.RoundTrip(r)
	})}
	if n, err := count(Pages(context.Background(), client2, req, limiter.Option(), clock.option())); n != 3 || err != nil {
		t.Fatalf("second iteration: %d pages, %v", n, err)
	}
	if s := clock.sleeps(); !slices.Equal(s, []time.Duration{30 * time.Second}) || !firstAt.Equal(testNow.Add(30*time.Second)) {
		t.Errorf("second iteration slept %v, first request at %v; want 30s, at %v", s, firstAt, testNow.Add(30*time.Second))
	}

	// A refusal asks for an hour, more than the minute of the limiter: that
	// iteration ends, and so does the next, at once.
	api3 := &scriptedAPI{refusals: []answer{{429, http.Header{"Retry-After": {"3600"}}, ""}}}
	if _, err := count(Pages(context.Background(), api3.client(), req, limiter.Option(), clock.option())); !errors.Is(err, ErrRateLimited) {
		t.Fatalf("third iteration: %v, want ErrRateLimited", err)
	}
	api4 := &scriptedAPI{}
	slept := len(clock.sleeps())
	n, err := count(Pages(context.Background(), api4.client(), req, limiter.Option(), clock.option()))
	if requests, _ := api4.log(); n != 0 || !errors.Is(err, ErrRateLimited) || len(requests) != 0 || len(clock.sleeps()) != slept {
		t.Errorf("fourth iteration: %d pages, %d requests, slept %v, error %v; want nothing sent or slept, ErrRateLimited",
			n, len(requests), clock.sleeps()[slept:], err)
	}
	if err != nil && !strings.Contains(err.Error(), "page 1 of") {
		t.Errorf("error %q does not name page 1", err)
	}

	// WaitRateLimits given after the option: an iteration of its own.
	api5 := &scriptedAPI{}
	if n, err := count(Pages(context.Background(), api5.client(), req, limiter.Option(), WaitRateLimits(time.Minute), clock.option())); n != 3 || err != nil {
		t.Errorf("iteration with WaitRateLimits last: %d pages, %v; want 3, no error", n, err)
	}
	// A nil limiter's option does nothing.
	if n, err := count(Pages(context.Background(), api5.client(), req, (*RateLimiter)(nil).Option())); n != 3 || err != nil {
		t.Errorf("nil limiter: %d pages, %v", n, err)
	}
}

// reportErrors closes errs and reports each error in it.
func reportErrors(t *testing.T, errs chan error) {
	t.Helper()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// TestRateLimiterLaterLimitYieldsRefusal: when a page is refused while the
// shared limiter already knows of a later time (another iteration was told
// to wait longer) that does not fit in what is left of maxWait, the refused
// response is yielded with ErrRateLimited and its *StatusError (rule 2),
// as for a refusal of its own, rather than released unread for an error
// without it.
func TestRateLimiterLaterLimitYieldsRefusal(t *testing.T) {
	limiter := NewRateLimiter(10 * time.Minute)
	clock := newFakeClock()
	api := &scriptedAPI{refusals: []answer{{429, http.Header{"Retry-After": {"5"}}, `{"message": "slow down"}`}}}
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if r.URL.Query().Get("page") == "2" { // meanwhile, another iteration is told to wait an hour
			limiter.limit.learned(clock.now().Add(time.Hour))
		}
		return api.RoundTrip(r)
	})}
	req, _ := http.NewRequest(http.MethodGet, "http://api.test/items", nil)
	var statuses []int
	var bodies []string
	var err error
	for resp, e := range Pages(context.Background(), client, req, limiter.Option(), clock.option()) {
		if resp != nil {
			b, _ := io.ReadAll(resp.Body)
			statuses, bodies = append(statuses, resp.StatusCode), append(bodies, string(b))
		}
		err = e
	}
	var se *StatusError
	if !errors.Is(err, ErrRateLimited) || !errors.As(err, &se) || se.StatusCode != 429 {
		t.Errorf("error %v; want ErrRateLimited with the 429's *StatusError", err)
	}
	if want := []int{200, 429}; !slices.Equal(statuses, want) || bodies[len(bodies)-1] != `{"message": "slow down"}` {
		t.Errorf("yielded %v %q; want %v, the refusal with its body", statuses, bodies, want)
	}
	if s := clock.sleeps(); len(s) != 0 {
		t.Errorf("slept %v; a wait beyond maxWait is not slept", s)
	}
	if requests, open := api.log(); len(requests) != 2 || open != 0 {
		t.Errorf("requests %v, %d bodies open; want pages 1 and 2 once, all closed", requests, open)
	}
}

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
