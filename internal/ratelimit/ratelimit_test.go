package ratelimit

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestSaysRateLimit(t *testing.T) {
	for _, tc := range []struct {
		body string
		want bool
	}{
		{"You have exceeded a secondary rate limit.", true},
		{"API RATE LIMIT exceeded", true},
		{"Rate Limit", true},
		{"rate  limit", false},
		{"rate-limit", false},
		{"ratelimit", false},
		{"rate limi", false},
		{"", false},
		{strings.Repeat("rate lim", 100) + "it", true},
		{"rate l\u0130mit", false}, // not ASCII
	} {
		if got := SaysRateLimit([]byte(tc.body)); got != tc.want {
			t.Errorf("SaysRateLimit(%q) = %v, want %v", tc.body, got, tc.want)
		}
	}
}

func TestReset(t *testing.T) {
	now := time.Date(2026, 12, 1, 13, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		h    http.Header
		want time.Duration
		ok   bool
	}{
		{"GitHub", http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {"1796130060"}}, 60 * time.Second, true},
		{"GitLab seconds", http.Header{"Ratelimit-Remaining": {" 0 "}, "Ratelimit-Reset": {"7"}}, 7 * time.Second, true},
		{"remaining not 0", http.Header{"X-Ratelimit-Remaining": {"1"}, "X-Ratelimit-Reset": {"7"}}, 0, false},
		{"no reset", http.Header{"X-Ratelimit-Remaining": {"0"}}, 0, false},
		{"none", http.Header{}, 0, false},
	} {
		if got, ok := Reset(tc.h, now); got != tc.want || ok != tc.ok {
			t.Errorf("%s: Reset = %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestRefusal(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	retry := http.Header{"Retry-After": {"30"}}
	spent := http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {"7"}}
	both := http.Header{"Retry-After": {"30"}, "Ratelimit-Remaining": {"0"}, "Ratelimit-Reset": {"7"}}
	bad := http.Header{"Retry-After": {"soon"}}
	for _, tc := range []struct {
		status int
		h      http.Header
		body   string
		wait   time.Duration
		kind   Kind
	}{
		{429, retry, "", 30 * time.Second, ByRetryAfter},
		{503, retry, "", 30 * time.Second, ByRetryAfter},
		{403, retry, "", 30 * time.Second, ByRetryAfter},
		{500, retry, "rate limit", 0, None},
		{429, both, "", 30 * time.Second, ByRetryAfter},
		{403, spent, "", 7 * time.Second, ByReset},
		{503, spent, "rate limit", 0, None},
		{429, bad, "", 0, NoTime},
		{429, http.Header{}, "", 0, NoTime},
		{403, http.Header{"X-Ratelimit-Remaining": {"12"}}, "a Secondary Rate Limit", 0, InBody},
		{403, http.Header{}, "forbidden", 0, None},
		{403, nil, "", 0, None},
		{503, bad, "rate limit", 0, None},
	} {
		wait, kind := Refusal(tc.status, tc.h, []byte(tc.body), now)
		if wait != tc.wait || kind != tc.kind {
			t.Errorf("Refusal(%d, %v, %q) = %v, %d; want %v, %d", tc.status, tc.h, tc.body, wait, kind, tc.wait, tc.kind)
		}
	}
}

// errAfter yields its bytes and then err, as a connection that breaks
// mid-body does.
type errAfter struct {
	b   []byte
	err error
}

func (r *errAfter) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, r.err
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

// endless is a body that never ends.
type endless struct{ read int }

func (r *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	r.read += len(p)
	return len(p), nil
}

// TestReadBody: a body that never ends is read only up to BodyBytes, a
// read error ends the body with what came before it, and an empty body
// gives nil.
func TestReadBody(t *testing.T) {
	r := &endless{}
	if got := ReadBody(r); len(got) != BodyBytes || r.read != BodyBytes {
		t.Errorf("ReadBody(endless) = %d bytes, read %d; want %d, %d", len(got), r.read, BodyBytes, BodyBytes)
	}
	if got := ReadBody(&errAfter{[]byte("rate limit"), errors.New("reset")}); string(got) != "rate limit" {
		t.Errorf("ReadBody(broken) = %q, want %q", got, "rate limit")
	}
	if got := ReadBody(strings.NewReader("")); got != nil {
		t.Errorf("ReadBody(empty) = %q, want nil", got)
	}
}
