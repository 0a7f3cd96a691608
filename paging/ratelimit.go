package paging

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/weblinking/weblink/internal/ratelimit"
)

// ErrRateLimited is wrapped by the error that ends a [Pages] or [Items]
// iteration when [WaitRateLimits] gives up. Test for it with [errors.Is].
//
// It gives up when the waits of the iteration would add up to more than
// its maxWait, or a page would be requested more than 11 times (the first
// request and 10 retries; see rule 5).
var ErrRateLimited = errors.New("paging: rate limited for longer than WaitRateLimits waits")

// maxRetries is how many times WaitRateLimits requests one page again.
const maxRetries = 10

// WaitRateLimits makes [Pages] (and [Items]) wait out the rate limits of an
// API, for at most maxWait in all during one iteration.
//
// A maxWait of 0 or less makes the option do nothing.
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
// present.
//
// A 429 that has neither a usable Retry-After nor a remaining count of 0
// with a usable reset, and a 403 whose body says "rate limit" (in any ASCII
// case, within its first 2 KiB, whatever its remaining count: GitHub's
// secondary rate limits answer so) are backed off, as GitHub's REST API
// documentation asks: the page is requested again after 60 s, then after
// 120 s, 240 s and so on for each further such refusal of the same page
// (rule 1). Refusals that said how long to wait are waited as above and do
// not count. A 403 without these fields or words is an ordinary
// [*StatusError], as is a 503 without Retry-After, whatever its body says.
// The body is read for this before the response is yielded, and put back:
// resp.Body in the loop still reads from its first byte.
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
//
// Each request is also taken from the remaining count that the API's
// responses report, so that the requests of [Parallel] stay within it
// (rules 12 to 15).
//
// The waits are the iteration's own; to share them between iterations
// against one API, use a [RateLimiter]. Of WaitRateLimits and
// [RateLimiter.Option], the last one given wins, unless it does
// nothing (a maxWait of 0 or less).
func WaitRateLimits(maxWait time.Duration) Option {
	return func(c *config) {
		if maxWait > 0 {
			c.maxWait, c.limits = maxWait, rateLimits{}
		}
	}
}

// backoff is the first wait for a rate-limit refusal that does not say how
// long to wait (rule 1): GitHub's documented rule is to wait at least a
// minute, and exponentially longer for each further refusal.
const backoff = time.Minute

// retryWait returns how long to wait before requesting again the page that
// resp, the response to attempt try (0 for the first), refused; body is the
// start of resp's body (see readAhead) and backoffs the refusals of this page
// so far that said neither Retry-After nor a reset, which it counts. It
// returns a negative wait when resp is not a refusal that WaitRateLimits
// waits out, and an error wrapping ErrRateLimited and serr when it will not
// wait. The limiter learns of the wait, which is not charged to the
// iteration yet: awaitLimit does that when it sleeps.
func (p *pager) retryWait(resp *http.Response, body []byte, try int, backoffs *int, serr *StatusError) (time.Duration, error) {
	if p.cfg.maxWait <= 0 {
		return -1, nil
	}
	now := p.now()
	wait, kind := refusedWait(resp, body, now)
	switch kind {
	case notLimited:
		p.learnCount(resp.Header, time.Time{})
		return -1, nil
	case untold:
		wait = backoff << min(*backoffs, maxRetries)
		*backoffs++
	}
	p.learnCount(resp.Header, now.Add(wait))
	// A limiter shared with other iterations may know of a later time:
	// the retry waits for it too, so the budget must hold that wait.
	wait = max(wait, p.limits.mem.until().Sub(now))
	if try >= maxRetries {
		return 0, fmt.Errorf("%w: refused %d times, the first request and %d retries: %w", ErrRateLimited, try+1, maxRetries, serr)
	}
	if err := p.budget.fits(now, now.Add(wait)); err != nil {
		return 0, fmt.Errorf("%w: %w", err, serr)
	}
	return wait, nil
}

// learnCount tells the iteration's limiter, and the shared store if any,
// what h, the header of a response, says of the rate limit (rule 14): its
// remaining count and reset, and until, when the API refuses requests
// until then (zero: not refused). A 2xx page whose count is 0 makes the
// next request wait for its reset.
func (p *pager) learnCount(h http.Header, until time.Time) {
	if p.cfg.maxWait <= 0 {
		return
	}
	now := p.now()
	l := Limit{Remaining: -1, Until: until}
	// A count of 0 with a Retry-After is not learned: Retry-After wins
	// (rule 1), and the wait for it is until.
	if n, reset, ok := ratelimit.Count(h, now); ok && (n > 0 || !hasRetryAfter(h, now)) {
		l.Remaining, l.Reset = n, now.Add(reset)
	}
	p.learn(now, l)
}

// hasRetryAfter reports whether h has a Retry-After field that
// [WaitRateLimits] reads.
func hasRetryAfter(h http.Header, now time.Time) bool {
	v := h["Retry-After"]
	if len(v) == 0 {
		return false
	}
	_, ok := ratelimit.RetryAfter(v[0], now)
	return ok
}

// awaitLimit waits until the iteration's limiter, or the shared store,
// lets its next request go ([pager.take], rules 12 to 17), charging the
// waits to the iteration's maxWait: every request of an iteration goes
// through it before it is sent. A clock that did not move while it slept
// counts as having moved to the end of the wait. A wait that would bring
// the iteration's waits past maxWait is not slept (an error wrapping
// ErrRateLimited). The wait also ends when ctx is done, or the
// iteration's ctx or req.Context(). It is safe to call from several
// goroutines of one iteration.
func (p *pager) awaitLimit(ctx context.Context) error {
	if p.cfg.maxWait <= 0 {
		return nil
	}
	var slept time.Time // until when it has waited
	for {
		now := p.now()
		if now.Before(slept) {
			now = slept
		}
		wait := p.take(ctx, now)
		if wait <= 0 {
			return nil
		}
		t := now.Add(wait)
		if err := p.budget.take(now, t); err != nil {
			return err
		}
		if err := p.sleep(ctx, wait); err != nil {
			return fmt.Errorf("waiting %v for the rate limit: %w", wait.Round(time.Millisecond), err)
		}
		slept = t
	}
}

// sleep waits for d, or until ctx, the iteration's ctx or req.Context() is
// done.
func (p *pager) sleep(ctx context.Context, d time.Duration) error {
	if p.cfg.sleep != nil {
		if err := p.cfg.sleep(ctx, d); err != nil {
			return err
		}
	} else if d > 0 {
		timer := time.NewTimer(d)
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-ctx.Done():
		case <-p.ctx.Done():
		}
	}
	if err := p.ctxErr(); err != nil {
		return err
	}
	return ctx.Err()
}

// waitBudget is what an iteration has waited of its maxWait; safe for
// concurrent use. A wait is charged for the time it adds to the waits
// already charged: the requests of one iteration waiting at once for the
// same time ([Parallel]'s) are charged once; one after another, each is
// charged whole.
type waitBudget struct {
	mu      sync.Mutex
	max     time.Duration
	waited  time.Duration
	charged time.Time // the end of the last wait charged
}

// fits returns nil when a wait from now until t fits in what is left of the
// budget, or an error wrapping ErrRateLimited.
func (b *waitBudget) fits(now, t time.Time) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.check(b.added(now, t))
}

// take charges a wait from now until t to the budget, or returns the
// error of fits.
func (b *waitBudget) take(now, t time.Time) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	wait := b.added(now, t)
	if err := b.check(wait); err != nil {
		return err
	}
	b.waited += wait
	if t.After(b.charged) {
		b.charged = t
	}
	return nil
}

// added is how much a wait from now until t adds to the waits charged.
func (b *waitBudget) added(now, t time.Time) time.Duration {
	if b.charged.After(now) {
		now = b.charged
	}
	return max(t.Sub(now), 0)
}

func (b *waitBudget) check(wait time.Duration) error {
	if wait > b.max-b.waited {
		return fmt.Errorf("%w: the server asks to wait %v, and %v has been waited of WaitRateLimits(%v)",
			ErrRateLimited, wait.Round(time.Millisecond), b.waited.Round(time.Millisecond), b.max)
	}
	return nil
}

// now is the pager's clock.
func (p *pager) now() time.Time {
	if p.cfg.now != nil {
		return p.cfg.now()
	}
	return time.Now()
}

// refusal is what kind of rate-limit refusal a response is.
type refusal int

const (
	notLimited refusal = iota // not a refusal that WaitRateLimits waits out
	told                      // one that says how long: Retry-After, or a reset
	untold                    // a 429, or a 403 saying "rate limit", that does not: backed off (rule 1)
)

// refusedWait returns how long resp, a response that is not 2xx, asks to
// wait before the request is sent again, and what kind of refusal it is
// (see WaitRateLimits); body is the start of resp's body, where a 403 of
// GitHub's secondary rate limits says "rate limit".
func refusedWait(resp *http.Response, body []byte, now time.Time) (time.Duration, refusal) {
	d, kind := ratelimit.Refusal(resp.StatusCode, resp.Header, body, now)
	switch kind {
	case ratelimit.None:
		return 0, notLimited
	case ratelimit.NoTime, ratelimit.InBody:
		return 0, untold
	}
	return d, told
}

// RateLimiter is [WaitRateLimits] shared by the [Pages] and [Items]
// iterations given its [RateLimiter.Option], and, with
// [NewSharedRateLimiter], by processes.
//
// The iterations may be concurrent or one after another; with
// NewSharedRateLimiter, every process sharing its [LimitStore] counts
// too. What one of them learns (a Retry-After, a reset, the
// backoff of WaitRateLimits, a remaining count) holds for all: a request is
// sent only after taking one from the count the API last reported, so
// that the requests of every iteration together stay within it, and when
// the API refuses requests until a time T, every request waits until T,
// the first of an iteration started meanwhile included (rules 2 and 12 to
// 15). Each iteration's own waits, those for the others' limits included,
// still add up to at most maxWait: a wait that would pass it is not slept,
// and the iteration ends at once with an error wrapping [ErrRateLimited].
//
// Use one RateLimiter per API, credential and rate-limit resource (rule
// 18): a token's limits are the same whichever repository it pages. A
// RateLimiter is safe for concurrent use and starts no goroutine: each
// waiting iteration sleeps on a timer of its own, in its own goroutine.
// Create one with [NewRateLimiter] or [NewSharedRateLimiter]; the zero
// value waits for nothing.
type RateLimiter struct {
	maxWait time.Duration
	limit   memLimits  // what this process knows
	store   LimitStore // what every process sharing it knows; nil: none
}

// NewRateLimiter returns a [RateLimiter] whose iterations each wait out rate
// limits for at most maxWait in all, as [WaitRateLimits](maxWait) does.
//
// They share the rate limit in memory by the rules of a [LimitStore]
// (rules 12 to 15), so that the goroutines of one process and the
// requests of [Parallel] take their requests from one count. A maxWait of
// 0 or less makes it do nothing.
func NewRateLimiter(maxWait time.Duration) *RateLimiter {
	return &RateLimiter{maxWait: maxWait}
}

// NewSharedRateLimiter returns a [RateLimiter] like [NewRateLimiter]'s
// that takes its requests from store, shared by every process paging the
// API with one credential.
//
// With such a store (the Redis store of package
// github.com/weblinking/weblink/paging/redisstore, say), the processes
// are not refused either. A store error never ends paging (see rule 16).
// A nil store makes it NewRateLimiter's.
func NewSharedRateLimiter(maxWait time.Duration, store LimitStore) *RateLimiter {
	return &RateLimiter{maxWait: maxWait, store: store}
}

// Option returns the option that makes an iteration of [Pages] or
// [Items] wait out rate limits with l, sharing what it learns with l's
// other iterations.
//
// It waits as [WaitRateLimits] does. Of this option
// and WaitRateLimits, the last one given wins. A nil l, or one whose
// maxWait is 0 or less, gives an option that does nothing.
func (l *RateLimiter) Option() Option {
	return func(c *config) {
		if l != nil && l.maxWait > 0 {
			c.maxWait, c.limits = l.maxWait, rateLimits{mem: &l.limit, shared: l.store}
		}
	}
}
