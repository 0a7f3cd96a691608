// Package ratelimit reads what an HTTP response says about a rate limit:
// Retry-After (RFC 9110 §10.2.3), the X-RateLimit-* fields of GitHub and
// the RateLimit-* fields of GitLab and the IETF drafts, and the "rate limit"
// that GitHub's secondary limits write in a 403's body. Package weblink
// waits with it (WaitRateLimits); the weblink command says with
// it how long a refused page asked to wait. Every value is a remote peer's:
// nothing here panics, and no value reads as a negative or overflowing
// wait.
package ratelimit

import (
	"io"
	"net/http"
	"time"

	"github.com/weblinking/weblink/internal/ascii"
)

// Kind is what kind of rate-limit refusal a response is.
type Kind int

const (
	None         Kind = iota // not a refusal that WaitRateLimits waits out
	ByRetryAfter             // Retry-After says how long to wait
	ByReset                  // a remaining count of 0 and its reset say how long
	NoTime                   // a 429 that says neither: backed off
	InBody                   // a 403 whose body says "rate limit": backed off
)

// Refusal returns how long a response with status, header h and body
// (its first bytes) asks to wait before the request is sent again, and
// what kind of refusal it is: a 429, 503 or 403 with a usable Retry-After
// (ByRetryAfter); a 403 or 429 whose remaining count is 0 with a usable
// reset (ByReset, read by Reset); else a 429 (NoTime) or a 403 whose body
// says "rate limit" (InBody), which say no time; anything else, a 503
// without Retry-After among them, is None.
func Refusal(status int, h http.Header, body []byte, now time.Time) (time.Duration, Kind) {
	switch status {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable, http.StatusForbidden:
	default:
		return 0, None
	}
	if v := h["Retry-After"]; len(v) > 0 {
		if d, ok := RetryAfter(v[0], now); ok {
			return d, ByRetryAfter
		}
	}
	if status == http.StatusServiceUnavailable {
		return 0, None
	}
	if d, ok := Reset(h, now); ok {
		return d, ByReset
	}
	switch {
	case status == http.StatusTooManyRequests:
		return 0, NoTime
	case SaysRateLimit(body):
		return 0, InBody
	}
	return 0, None
}

// The rate-limit fields, in canonical form so that looking them up
// allocates nothing: GitHub's, then GitLab's and the IETF drafts'.
var rateLimitFields = [...]struct{ remaining, reset string }{
	{"X-Ratelimit-Remaining", "X-Ratelimit-Reset"},
	{"Ratelimit-Remaining", "Ratelimit-Reset"},
}

// Reset returns the time until the reset of a rate limit whose remaining
// count h says is 0 (X-RateLimit-Remaining, GitHub's, or RateLimit-Remaining,
// GitLab's and the IETF drafts'), read from the matching reset field with
// ResetTime, and whether h says so and has a usable reset.
func Reset(h http.Header, now time.Time) (time.Duration, bool) {
	for _, f := range rateLimitFields {
		if !isZero(firstValue(h, f.remaining)) {
			continue
		}
		if d, ok := ResetTime(firstValue(h, f.reset), now); ok {
			return d, true
		}
	}
	return 0, false
}

// firstValue is the first value of the canonical field name in h.
func firstValue(h http.Header, name string) string {
	if v := h[name]; len(v) > 0 {
		return trimOWS(v[0])
	}
	return ""
}

// isZero reports whether s is a non-empty run of "0" digits.
func isZero(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '0' {
			return false
		}
	}
	return s != ""
}

// MaxSeconds bounds the seconds read from a field: a value beyond it (about
// 285 years, close to the longest time.Duration) waits as long as it, which
// no maxWait allows.
const MaxSeconds = 9e9

// RetryAfter returns the delay of a Retry-After field value (RFC 9110
// §10.2.3), and whether it is one: Retry-After = HTTP-date /
// delay-seconds, delay-seconds = 1*DIGIT. An HTTP-date in the past means
// now.
func RetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = trimOWS(v)
	if sec, rest, ok := digits(v); ok && rest == "" {
		return time.Duration(sec) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// ResetTime returns the time until the reset that a X-RateLimit-Reset or
// RateLimit-Reset value gives: 1*DIGIT [ "." 1*DIGIT ], a Unix time when it
// is 1e9 or more, else seconds from now. A time in the past means now.
func ResetTime(v string, now time.Time) (time.Duration, bool) {
	sec, rest, ok := digits(v)
	if !ok {
		return 0, false
	}
	var nsec int64
	if rest != "" {
		if rest[0] != '.' {
			return 0, false
		}
		frac := rest[1:]
		if _, tail, ok := digits(frac); !ok || tail != "" {
			return 0, false
		}
		// The first nine digits of the fraction are nanoseconds.
		for i := range 9 {
			nsec *= 10
			if i < len(frac) {
				nsec += int64(frac[i] - '0')
			}
		}
	}
	if sec >= 1e9 {
		return max(time.Unix(sec, nsec).Sub(now), 0), true
	}
	return time.Duration(sec)*time.Second + time.Duration(nsec), true
}

// digits reads 1*DIGIT at the start of s as a number of seconds, at most
// MaxSeconds, and returns it with the rest of s.
func digits(s string) (n int64, rest string, ok bool) {
	i := 0
	for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
		if n < MaxSeconds {
			n = n*10 + int64(s[i]-'0')
		}
	}
	return min(n, MaxSeconds), s[i:], i > 0
}

// SaysRateLimit reports whether b holds "rate limit", in any ASCII case.
func SaysRateLimit(b []byte) bool {
	const phrase = "rate limit"
	for i := 0; i+len(phrase) <= len(b); i++ {
		j := 0
		for j < len(phrase) && ascii.ToLower(b[i+j]) == phrase[j] {
			j++
		}
		if j == len(phrase) {
			return true
		}
	}
	return false
}

// trimOWS removes the spaces and tabs around s (RFC 9110 §5.6.3).
func trimOWS(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

// BodyBytes is how much of the body of a refused response is read: enough
// for the JSON message of an API (GitHub's {"message": ...}) and for a 403
// of GitHub's secondary rate limits to say "rate limit", and what a
// *paging.StatusError carries.
const BodyBytes = 2 << 10

// ReadBody reads the first BodyBytes of r and returns them, nil when there
// are none. An error ends the read with what came before it.
func ReadBody(r io.Reader) []byte {
	b := make([]byte, BodyBytes)
	n, _ := io.ReadFull(r, b)
	if n == 0 {
		return nil
	}
	return b[:n:n]
}

// MaxCount bounds a remaining count read from a field: a larger one, 10^30
// say, reads as MaxCount.
const MaxCount = 1e9

// Count returns the remaining count and the time until the reset that h
// says (X-RateLimit-Remaining and X-RateLimit-Reset, GitHub's, or
// RateLimit-Remaining and RateLimit-Reset, GitLab's and the IETF drafts'),
// and whether h says both: a count of digits (at most MaxCount) and a reset
// that ResetTime reads. When both families say so, the lower count wins.
func Count(h http.Header, now time.Time) (remaining int, reset time.Duration, ok bool) {
	for _, f := range rateLimitFields {
		n, rest, isNum := digits(firstValue(h, f.remaining))
		if !isNum || rest != "" {
			continue
		}
		d, hasReset := ResetTime(firstValue(h, f.reset), now)
		if !hasReset {
			continue
		}
		if c := int(min(n, MaxCount)); !ok || c < remaining {
			remaining, reset, ok = c, d, true
		}
	}
	return remaining, reset, ok
}
