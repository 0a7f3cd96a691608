// How the command words a rate limit: the wait a refusal asks for, and the
// advice printed when it is too long to wait.

package main

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/weblinking/weblink/internal/quote"
	"github.com/weblinking/weblink/internal/ratelimit"
	"github.com/weblinking/weblink/paging"
)

// toldWait says, for the message of a refused page, what the server asked
// to wait and which -wait would wait it out: "; Retry-After: 30 — use -wait
// 1m to wait it out". What it says comes from se's header and body, read
// as -wait reads them (paging.WaitRateLimits), and is written as numbers
// and durations only, never as the server's text. limited is whether -wait
// gave up (paging.ErrRateLimited). It is "" for a refusal that is not a
// rate limit.
func (c *command) toldWait(se *paging.StatusError, limited bool) string {
	told, wait, ok := describeRefusal(se, time.Now())
	if !ok {
		return ""
	}
	return told + c.waitAdvice(wait, limited)
}

// tooLong is the longest wait the messages suggest -wait for: a server
// asking for more is not one to wait out in a run of the command.
const tooLong = 24 * time.Hour

// waitAdvice is the end of the message of a rate limit that asks to wait
// for wait: which -wait waits it out. limited is whether -wait gave up
// (paging.ErrRateLimited): when wait fits in -wait, the page was refused
// again after the retries -wait allows (too many retries, or waits that
// added up to more than -wait; the error does not say which).
func (c *command) waitAdvice(wait time.Duration, limited bool) string {
	switch {
	case wait > tooLong:
		return " — more than a day: try again later"
	case limited && c.opts.wait >= wait:
		return " — still refused after retrying within -wait " + shortDuration(c.opts.wait) + ": try again later, or with a longer -wait"
	case limited:
		return " — more than -wait " + shortDuration(c.opts.wait) + " allows; use -wait " + shortDuration(wait) + " to wait it out"
	}
	return " — use -wait " + shortDuration(wait) + " to wait it out"
}

// limitedBefore is the message for err, a paging.ErrRateLimited that came
// without a refused page: last, the last page shown, said that its rate
// limit is spent until a reset beyond -wait, and the next page was not
// requested. ok is false when last says no such thing.
func (c *command) limitedBefore(last *http.Response) (msg string, ok bool) {
	if last == nil {
		return "", false
	}
	d, ok := ratelimit.Reset(last.Header, time.Now())
	if !ok {
		return "", false
	}
	return fmt.Sprintf("stopped after %d %s: %s says its rate limit is spent, reset in %s%s",
		c.pages, quote.Plural(c.pages, "page"), messageURL(last.Request.URL.String()), shortDuration(d), c.waitAdvice(roundUp(d), true)), true
}

// backoffAdvice is the -wait suggested for a refusal that gives no time: a
// few rounds of the backoff (60 s, 120 s, 240 s: 7 minutes).
const backoffAdvice = 10 * time.Minute

// describeRefusal returns what se says about its rate limit, the wait it
// asks for (at least a minute, rounded up to whole minutes) and whether it
// is a refusal that -wait waits out at all.
func describeRefusal(se *paging.StatusError, now time.Time) (told string, wait time.Duration, ok bool) {
	d, kind := ratelimit.Refusal(se.StatusCode, se.Header, se.Body, now)
	switch kind {
	case ratelimit.ByRetryAfter:
		if isDigits(strings.Trim(se.Header["Retry-After"][0], " \t")) {
			told = "; Retry-After: " + strconv.FormatInt(int64(d/time.Second), 10)
		} else {
			told = "; Retry-After: an HTTP-date " + shortDuration(d) + " from now"
		}
		return told, roundUp(d), true
	case ratelimit.ByReset:
		return "; rate limit spent, reset in " + shortDuration(d), roundUp(d), true
	case ratelimit.NoTime:
		return "; no Retry-After", backoffAdvice, true
	case ratelimit.InBody:
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
