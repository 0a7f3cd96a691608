package paging

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/weblinking/weblink/internal/ratelimit"
)

// testNow is the clock of the table tests.
var testNow = time.Date(2026, 12, 1, 13, 0, 0, 0, time.UTC)

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
