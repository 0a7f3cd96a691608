package main

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/ratelimit"
)

// toldWait says, for the message of a refused page, what the server asked
// to wait and which -wait would wait it out: "; Retry-After: 30 — use -wait
// 1m to wait it out". What it says comes from se's header and body, read
// as -wait reads them (weblink.WaitRateLimits), and is written as numbers
// and durations only, never as the server's text. limited is whether -wait
// gave up (weblink.ErrRateLimited). It is "" for a refusal that is not a
// rate limit.
func (c *command) toldWait(se *weblink.StatusError, limited bool) string {
	told, wait, ok := describeRefusal(se, time.Now())
	if !ok {
		return ""
	}
	switch {
	case limited && c.opts.wait >= wait:
		return told + " — refused again within -wait " + shortDuration(c.opts.wait) + " (a page is retried at most 10 times)"
	case limited:
		return told + " — more than -wait " + shortDuration(c.opts.wait) + " allows; use -wait " + shortDuration(wait) + " to wait it out"
	}
	return told + " — use -wait " + shortDuration(wait) + " to wait it out"
}

// backoffAdvice is the -wait suggested for a refusal that gives no time: a
// few rounds of the backoff (60 s, 120 s, 240 s: 7 minutes).
const backoffAdvice = 10 * time.Minute

// describeRefusal returns what se says about its rate limit, the wait it
// asks for (at least a minute, rounded up to whole minutes) and whether it
// is a refusal that -wait waits out at all.
func describeRefusal(se *weblink.StatusError, now time.Time) (told string, wait time.Duration, ok bool) {
	h := se.Header
	switch se.StatusCode {
	case http.StatusTooManyRequests, http.StatusForbidden, http.StatusServiceUnavailable:
	default:
		return "", 0, false
	}
	if v := h["Retry-After"]; len(v) > 0 {
		if d, ok := ratelimit.RetryAfter(v[0], now); ok {
			if isDigits(strings.Trim(v[0], " \t")) {
				told = "; Retry-After: " + strconv.FormatInt(int64(d/time.Second), 10)
			} else {
				told = "; Retry-After: an HTTP-date " + shortDuration(d) + " from now"
			}
			return told, roundUp(d), true
		}
	}
	if se.StatusCode == http.StatusServiceUnavailable {
		return "", 0, false
	}
	if d, ok := ratelimit.Reset(h, now); ok {
		return "; rate limit spent, reset in " + shortDuration(d), roundUp(d), true
	}
	switch {
	case se.StatusCode == http.StatusTooManyRequests:
		return "; no Retry-After", backoffAdvice, true
	case ratelimit.SaysRateLimit(se.Body):
		return "; the body says \"rate limit\"", backoffAdvice, true
	}
	return "", 0, false
}

// isDigits reports whether s is 1*DIGIT.
func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// roundUp rounds d up to whole minutes, at least one.
func roundUp(d time.Duration) time.Duration {
	if d <= time.Minute {
		return time.Minute
	}
	if r := d.Truncate(time.Minute); r < d && r < ratelimit.MaxSeconds*time.Second {
		return r + time.Minute
	}
	return d.Truncate(time.Minute)
}

// shortDuration writes d as -wait takes it, without zero units: 1m, 1h30m,
// 45s.
func shortDuration(d time.Duration) string {
	s := d.Round(time.Second).String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}
