package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// limitedAPI answers the first refuse requests with status, the header
// fields h and body, then pages 1 and 2 of a collection. It counts the
// requests.
type limitedAPI struct {
	status int
	h      map[string]string
	body   string
	refuse int
	noHead bool // HEAD answers 405, so that the command asks with GET

	mu       sync.Mutex
	requests int
}

func (a *limitedAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if a.noHead && r.Method == http.MethodHead {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	a.mu.Lock()
	a.requests++
	n := a.requests
	a.mu.Unlock()
	if n <= a.refuse {
		for k, v := range a.h {
			w.Header().Set(k, v)
		}
		w.WriteHeader(a.status)
		w.Write([]byte(a.body))
		return
	}
	if r.URL.Query().Get("page") == "" {
		w.Header().Set("Link", `<?page=2>; rel="next"`)
	}
}

func (a *limitedAPI) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.requests
}

// TestWaitMessage checks that a refused page's message says what the server
// asked to wait, as numbers and durations only, and which -wait waits it
// out.
func TestWaitMessage(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		h      map[string]string
		body   string
		args   []string
		msg    string // the end of the message
	}{
		{"Retry-After", 429, map[string]string{"Retry-After": "30"}, "", nil,
			"answered 429 Too Many Requests; Retry-After: 30 — use -wait 1m to wait it out\n"},
		{"Retry-After of 90 s", 503, map[string]string{"Retry-After": "90"}, "", []string{"-all"},
			"answered 503 Service Unavailable; Retry-After: 90 — use -wait 2m to wait it out\n"},
		{"Retry-After beyond -wait", 429, map[string]string{"Retry-After": "3600"}, "", []string{"-wait", "1m"},
			"answered 429 Too Many Requests; Retry-After: 3600 — more than -wait 1m allows; use -wait 1h to wait it out\n"},
		{"a spent limit", 403, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "125"}, `{"message": "API rate limit exceeded"}`, nil,
			"answered 403 Forbidden; rate limit spent, reset in 2m5s — use -wait 3m to wait it out\n"},
		{"a 429 that says nothing", 429, nil, "", nil,
			"answered 429 Too Many Requests; no Retry-After — use -wait 10m to wait it out\n"},
		{"GitHub's secondary limit", 403, map[string]string{"X-RateLimit-Remaining": "4999"}, `{"message": "You have exceeded a secondary rate limit"}`, nil,
			"answered 403 Forbidden; the body says \"rate limit\" — use -wait 10m to wait it out\n"},
		{"a 403 that is not a limit", 403, nil, "go away", nil, "answered 403 Forbidden\n"},
		{"a 503 without Retry-After", 503, nil, "rate limit", nil, "answered 503 Service Unavailable\n"},
		{"a hostile Retry-After", 429, map[string]string{"Retry-After": "1e300\u202e"}, "\x1b[31m", nil,
			"answered 429 Too Many Requests; no Retry-After — use -wait 10m to wait it out\n"},
		{"a huge Retry-After", 429, map[string]string{"Retry-After": strings.Repeat("9", 300)}, "", nil,
			"answered 429 Too Many Requests; Retry-After: 9000000000 — more than a day: try again later\n"},
		{"a Retry-After of two days", 429, map[string]string{"Retry-After": "172800"}, "", []string{"-wait", "1m"},
			"answered 429 Too Many Requests; Retry-After: 172800 — more than a day: try again later\n"},
		{"Retry-After 0 forever", 429, map[string]string{"Retry-After": "0"}, "", []string{"-wait", "1m"},
			"answered 429 Too Many Requests; Retry-After: 0 — still refused after retrying within -wait 1m: try again later, or with a longer -wait\n"},
		{"a 403 rate limit with escapes", 403, nil, "\x1b[2Jrate limit\x1b]0;owned\x07", nil,
			"answered 403 Forbidden; the body says \"rate limit\" — use -wait 10m to wait it out\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(&limitedAPI{status: tc.status, h: tc.h, body: tc.body, refuse: 1 << 20, noHead: tc.body != ""})
			defer srv.Close()
			r := runCmd(t, "", append([]string{"-url", srv.URL + "/items"}, tc.args...)...)
			r.wantErr(t, tc.msg)
			if r.code != exitNone || !strings.HasSuffix(r.stderr, tc.msg) || strings.Contains(r.stderr, "\x1b") || strings.Contains(r.stderr, "\u202e") {
				t.Errorf("exit status %d, stderr %q; want %d and a message ending %q", r.code, r.stderr, exitNone, tc.msg)
			}
		})
	}
}

// TestWait checks -wait: a refusal is waited out, for -url and -all; -url
// alone fetches one page.
func TestWait(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		out      string
		requests int
	}{
		{nil, "next  /items?page=2\n", 3}, // HEAD refused twice, then HEAD
		{[]string{"-all"}, "next  /items?page=2\n", 4},
	} {
		a := &limitedAPI{status: 429, h: map[string]string{"Retry-After": "0"}, refuse: 2}
		srv := httptest.NewServer(a)
		r := runCmd(t, "", append([]string{"-url", srv.URL + "/items", "-wait", "1m", "-rel", "next"}, tc.args...)...)
		srv.Close()
		want := srv.URL + "/items?page=2\n"
		r.want(t, exitOK, want)
		if a.count() != tc.requests {
			t.Errorf("%v: %d requests, want %d", tc.args, a.count(), tc.requests)
		}
	}
}

func TestWaitUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-wait", "-1s", "-url", "http://127.0.0.1/"}, "-wait must be 0"},
		{[]string{"-wait", "1m", "<a>; rel=next"}, "-wait needs -url"},
		{[]string{"-wait", "1m", "-url", "http://127.0.0.1/", "-discover"}, "does not apply to -discover"},
		{[]string{"-wait", "soon", "-url", "http://127.0.0.1/"}, "-wait"},
	} {
		r := runCmd(t, "", tc.args...)
		r.wantErr(t, tc.msg)
		if r.code != exitProblem {
			t.Errorf("%v: exit status %d, want %d", tc.args, r.code, exitProblem)
		}
	}
}

// TestWaitMessageBeforeNextPage: a page that says its rate limit is spent
// until a reset beyond -wait stops -all before the next page, with a
// message in the command's terms that says when the reset is and which
// -wait waits for it.
func TestWaitMessageBeforeNextPage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("page") == "" {
			w.Header().Set("Link", `<?page=2>; rel="next"`)
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", "3600")
		}
	}))
	defer srv.Close()
	r := runCmd(t, "", "-url", srv.URL+"/items", "-all", "-wait", "1m")
	msg := "stopped after 1 page: " + srv.URL + "/items says its rate limit is spent, reset in 1h — more than -wait 1m allows; use -wait 1h to wait it out\n"
	if r.code != exitNone || !strings.HasSuffix(r.stderr, msg) {
		t.Errorf("exit status %d, stderr %q; want %d and a message ending %q", r.code, r.stderr, exitNone, msg)
	}
}

// countedAPI allows 2 requests a window of a whole Unix second, says how
// many are left in X-RateLimit-Remaining and X-RateLimit-Reset, refuses
// with 403 past them, and pages 1 to 4.
type countedAPI struct {
	mu      sync.Mutex
	window  int64
	used    int
	refused int
}

func (a *countedAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := time.Now().Unix()
	if now != a.window {
		a.window, a.used = now, 0
	}
	w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(now+1, 10))
	if a.used >= 2 {
		a.refused++
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.WriteHeader(http.StatusForbidden)
		return
	}
	a.used++
	w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(2-a.used))
	if page, _ := strconv.Atoi(r.URL.Query().Get("page")); page < 4 {
		w.Header().Set("Link", fmt.Sprintf(`<?page=%d>; rel="next"`, max(page, 1)+1))
	}
}

// TestWaitCounts checks that -all -wait takes each request from the count
// the API reported (paging.NewRateLimiter): 4 pages, 2 requests a second,
// and no request refused.
func TestWaitCounts(t *testing.T) {
	a := &countedAPI{}
	srv := httptest.NewServer(a)
	defer srv.Close()
	r := runCmd(t, "", "-url", srv.URL+"/items", "-all", "-wait", "15m", "-rel", "next")
	r.want(t, exitOK, srv.URL+"/items?page=2\n"+srv.URL+"/items?page=3\n"+srv.URL+"/items?page=4\n")
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.refused != 0 {
		t.Errorf("%d requests refused, want 0", a.refused)
	}
}
