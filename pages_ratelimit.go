package weblink

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// ErrRateLimited is wrapped by the error that ends a [Pages] or [Items]
// iteration when [WaitRateLimits] gives up: the waits of the iteration would
// add up to more than its maxWait, or a page would be requested more than 11
// times (the first request and 10 retries). Test for it with [errors.Is].
var ErrRateLimited = errors.New("weblink: rate limited for longer than WaitRateLimits waits")

// maxRetries is how many times WaitRateLimits requests one page again.
const maxRetries = 10

// WaitRateLimits makes [Pages] (and [Items]) wait out the rate limits of an API,
// for at most maxWait in all during one iteration; a maxWait of 0 or less
// makes the option do nothing.
//
// A page answered 429 (Too Many Requests), 503 (Service Unavailable) or 403
// (Forbidden, as GitHub's secondary rate limits answer) with a Retry-After
// field (RFC 9110 §10.2.3: delay-seconds, or an HTTP-date; 0 means now) is
// requested again after that delay. A page answered 403 or 429 whose
// X-RateLimit-Remaining (GitHub) or RateLimit-Remaining (GitLab, the IETF
// drafts) is 0 is requested again at the matching X-RateLimit-Reset or
// RateLimit-Reset: a value of 1e9 or more is a Unix time, a smaller one a
// number of seconds from now, fractions allowed (digits, then optionally "."
// and digits; anything else is no reset). Retry-After wins when both are
// present. A 403 without these fields is an ordinary [*StatusError], as is a
// 503 without Retry-After.
//
// A 2xx page whose remaining count is 0 and that has a next link makes Pages
// wait for its reset before it requests the next page, instead of sending a
// request that would be refused; it does not wait after the last page. This
// wait comes after the checks of the next link and before [BeforeNext].
//
// Waits end when ctx or req.Context() is done, with an error matching it.
// When a wait would bring the waits of the iteration past maxWait, it is not
// slept: the iteration ends at once with an error wrapping [ErrRateLimited],
// yielded with the refused response and wrapping its *StatusError too, or
// yielded alone, naming the next page, when the wait was for a reset before
// it. So does the 11th refusal of one page (10 retries). A page requested
// again is one page for [MaxPages], and BeforeNext runs once for it. A retry
// sends the same request again (with a new body from GetBody, if it has
// one; a request whose body cannot be had again is not retried).
func WaitRateLimits(maxWait time.Duration) PageOption {
	return func(c *pageConfig) { c.maxWait = maxWait }
}

// retryWait returns how long to wait before requesting again the page that
// resp, the response to attempt try (0 for the first), refused. It returns a
// negative wait when resp is not a refusal that WaitRateLimits waits out,
// and an error wrapping ErrRateLimited and serr when it will not wait.
func (p *pager) retryWait(resp *http.Response, try int, serr *StatusError) (time.Duration, error) {
	if p.cfg.maxWait <= 0 {
		return -1, nil
	}
	wait, ok := refusedWait(resp, p.now())
	if !ok {
		return -1, nil
	}
	if try >= maxRetries {
		return 0, fmt.Errorf("%w: refused %d times, the first request and %d retries: %w", ErrRateLimited, try+1, maxRetries, serr)
	}
	if err := p.admit(wait); err != nil {
		return 0, fmt.Errorf("%w: %w", err, serr)
	}
	return wait, nil
}

// waitReset waits, before the n-th page (to) is requested, for the reset of
// a rate limit that prev, the page before it, says is spent.
func (p *pager) waitReset(prev *http.Response, n int, to *url.URL) error {
	if p.cfg.maxWait <= 0 {
		return nil
	}
	wait, ok := resetWait(prev.Header, p.now())
	if !ok {
		return nil
	}
	if err := p.admit(wait); err != nil {
		return fmt.Errorf("weblink: page %d of %s not requested: %w", n, showURL(to), err)
	}
	if err := p.sleep(wait); err != nil {
		return fmt.Errorf("weblink: page %d of %s not requested: waiting %v for the rate limit to reset: %w", n, showURL(to), wait, err)
	}
	return nil
}

// admit adds wait to the waits of the iteration, or returns an error
// wrapping ErrRateLimited when that would pass maxWait.
func (p *pager) admit(wait time.Duration) error {
	if p.gate != nil {
		return p.gate.admit(wait, p.admitTo) // Parallel's requests share the waits
	}
	return p.admitTo(&p.waited, wait)
}

// admitTo adds wait to waited, or returns an error wrapping ErrRateLimited
// when that would pass maxWait.
func (p *pager) admitTo(waited *time.Duration, wait time.Duration) error {
	if wait > p.cfg.maxWait-*waited {
		return fmt.Errorf("%w: the server asks to wait %v, and %v has been waited of WaitRateLimits(%v)",
			ErrRateLimited, wait.Round(time.Millisecond), waited.Round(time.Millisecond), p.cfg.maxWait)
	}
	*waited += wait
	return nil
}

// sleep waits for d, or until ctx or req.Context() is done.
func (p *pager) sleep(d time.Duration) error {
	if d > 0 {
		timer := time.NewTimer(d)
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-p.ctx.Done():
		}
	}
	return p.ctxErr()
}

// now is the pager's clock.
func (p *pager) now() time.Time {
	if p.cfg.now != nil {
		return p.cfg.now()
	}
	return time.Now()
}

// refusedWait returns how long resp, a response that is not 2xx, asks to
// wait before the request is sent again, and whether it is a rate-limit
// refusal at all (see WaitRateLimits).
func refusedWait(resp *http.Response, now time.Time) (time.Duration, bool) {
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable, http.StatusForbidden:
	default:
		return 0, false
	}
	if v := resp.Header["Retry-After"]; len(v) > 0 {
		if d, ok := retryAfter(v[0], now); ok {
			return d, true
		}
	}
	if resp.StatusCode == http.StatusServiceUnavailable {
		return 0, false
	}
	return resetWait(resp.Header, now)
}

// The rate-limit fields, in canonical form so that looking them up
// allocates nothing: GitHub's, then GitLab's and the IETF drafts'.
var rateLimitFields = [...]struct{ remaining, reset string }{
	{"X-Ratelimit-Remaining", "X-Ratelimit-Reset"},
	{"Ratelimit-Remaining", "Ratelimit-Reset"},
}

// resetWait returns the time until the reset of a rate limit whose
// remaining count h says is 0, and whether h says so and has a reset.
func resetWait(h http.Header, now time.Time) (time.Duration, bool) {
	for _, f := range rateLimitFields {
		if !isZero(firstValue(h, f.remaining)) {
			continue
		}
		if d, ok := resetTime(firstValue(h, f.reset), now); ok {
			return d, true
		}
	}
	return 0, false
}

// firstValue is the first value of the canonical field name in h.
func firstValue(h http.Header, name string) string {
	if v := h[name]; len(v) > 0 {
		return trimSpace(v[0])
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

// maxSeconds bounds the seconds read from a field: a value beyond it (about
// 285 years, close to the longest time.Duration) waits as long as it, which
// no maxWait allows.
const maxSeconds = 9e9

// retryAfter returns the delay of a Retry-After field value (RFC 9110
// §10.2.3): Retry-After = HTTP-date / delay-seconds, delay-seconds =
// 1*DIGIT. An HTTP-date in the past means now.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	v = trimSpace(v)
	if sec, rest, ok := digits(v); ok && rest == "" {
		return time.Duration(sec) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// resetTime returns the time until the reset that a X-RateLimit-Reset or
// RateLimit-Reset value gives: 1*DIGIT [ "." 1*DIGIT ], a Unix time when it
// is 1e9 or more, else seconds from now. A time in the past means now.
func resetTime(v string, now time.Time) (time.Duration, bool) {
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
// maxSeconds, and returns it with the rest of s.
func digits(s string) (n int64, rest string, ok bool) {
	i := 0
	for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
		if n < maxSeconds {
			n = n*10 + int64(s[i]-'0')
		}
	}
	return min(n, maxSeconds), s[i:], i > 0
}
