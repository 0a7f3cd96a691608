package paging

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// The leases and waits of the store's rules (rules 12 to 14).
const (
	// probeLease is how long the probe of rule 13 holds off the other
	// requests when its response never comes (its process died, say):
	// after it, another request is let go as the probe.
	probeLease = 30 * time.Second

	// probeWait is how long a request waits for the probe's response
	// before it asks the store again.
	probeWait = 20 * time.Millisecond

	// minStoreWait is the shortest wait a LimitStore's answer makes:
	// a store saying "wait 1 ns" again and again is asked at most about
	// a hundred times a second (rule 17).
	minStoreWait = 10 * time.Millisecond

	// storeTimeout bounds each call of a LimitStore: a store that
	// hangs is an error after it, and paging goes on (rule 16).
	storeTimeout = 2 * time.Second

	// sameWindow is how far apart two resets may be and still be one
	// window: an API that gives its reset in whole seconds from now
	// (the IETF drafts) says a slightly different time in each response.
	sameWindow = time.Second
)

// memLimits is the in-memory [LimitStore] of a [RateLimiter], and of an
// iteration with [WaitRateLimits]: the rules 12 to 14 under a mutex. Its
// methods with a now take the caller's clock, so that the pager's clock
// (a test's) rules it.
type memLimits struct {
	mu     sync.Mutex
	t      time.Time // Until: the API refuses requests until then
	reset  time.Time // the end of the window whose count is known; zero: no count known
	count  int       // requests left in that window, those taken included
	free   bool      // the last response gave no count: requests go freely
	probed time.Time // the lease of the probe out ends then; zero or past: none out
}

// Take reserves one request by the rules 12 to 14, on the clock of the
// host.
func (m *memLimits) Take(context.Context) (time.Duration, error) {
	return m.takeAt(time.Now()), nil
}

// Learned records what a response said (rule 14).
func (m *memLimits) Learned(_ context.Context, l Limit) error {
	m.learnedAt(time.Now(), l)
	return nil
}

// takeAt reserves one request at now: 0 means send it now; otherwise
// wait that long and call it again.
func (m *memLimits) takeAt(now time.Time) time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	if now.Before(m.t) {
		return m.t.Sub(now)
	}
	if !m.reset.IsZero() {
		if now.Before(m.reset) {
			if m.count > 0 {
				m.count--
				return 0
			}
			return m.reset.Sub(now)
		}
		m.reset, m.count = time.Time{}, 0 // the window has reset: count unknown
	}
	if m.free {
		return 0
	}
	if now.Before(m.probed) {
		return min(probeWait, m.probed.Sub(now))
	}
	m.probed = now.Add(probeLease)
	return 0
}

// learnedAt records at now what a response said.
func (m *memLimits) learnedAt(now time.Time, l Limit) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if l.Until.After(m.t) {
		m.t = l.Until
	}
	if l.Remaining < 0 || l.Reset.IsZero() {
		m.reset, m.count, m.free, m.probed = time.Time{}, 0, true, time.Time{}
		return
	}
	m.free, m.probed = false, time.Time{}
	switch {
	case m.reset.IsZero() || !now.Before(m.reset) || l.Reset.Sub(m.reset) >= sameWindow:
		m.reset, m.count = l.Reset, l.Remaining // a new window
	case m.reset.Sub(l.Reset) >= sameWindow:
		// A response of a window that has passed: its count is not this one's.
	default:
		m.count = min(m.count, l.Remaining)
		if l.Reset.After(m.reset) {
			m.reset = l.Reset
		}
	}
}

// learned records that the API refuses requests until t; a t before the
// one known changes nothing.
func (m *memLimits) learned(t time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if t.After(m.t) {
		m.t = t
	}
}

// until is when the API refuses requests until, as far as m knows; zero,
// or a past time: not refused.
func (m *memLimits) until() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.t
}

// rateLimits is the rate limit of an iteration with [WaitRateLimits] or a
// [RateLimiter] (rules 12 to 17): as this process knows it, and, with
// [NewSharedRateLimiter], as every process sharing its store knows it.
type rateLimits struct {
	mem    *memLimits // this process's: the iteration's own, or a RateLimiter's
	shared LimitStore // NewSharedRateLimiter's store; nil: this process's knowledge only
}

// take reserves the next request of the iteration (rules 12 to 17): from
// the shared store when there is one, else, or when the store fails (an
// error reported to StoreErrors), from what the process knows. A store's
// answer is bounded: a negative wait is none, a positive one at least
// minStoreWait, and none shorter than the refusal the process knows of
// itself (rule 12): a store that says "wait 0" does not send a request
// that a Retry-After this iteration received asks to hold.
func (p *pager) take(ctx context.Context, now time.Time) time.Duration {
	if s := p.limits.shared; s != nil {
		d, err := p.callStore(ctx, s.Take)
		if err == nil {
			d = max(d, p.limits.mem.until().Sub(now))
			if d > 0 {
				return max(d, minStoreWait)
			}
			return 0
		}
		if ctx.Err() == nil { // else the iteration ends, and says why
			p.cfg.storeError(fmt.Errorf("paging: LimitStore.Take: %w", err))
		}
	}
	return p.limits.mem.takeAt(now)
}

// learn records l, what a response said at now, in the iteration's
// memory and in the shared store, if any; a store error is reported to
// StoreErrors.
func (p *pager) learn(now time.Time, l Limit) {
	p.limits.mem.learnedAt(now, l)
	if s := p.limits.shared; s != nil {
		_, err := p.callStore(p.ctx, func(ctx context.Context) (time.Duration, error) {
			return 0, s.Learned(ctx, l)
		})
		if err != nil {
			p.cfg.storeError(fmt.Errorf("paging: LimitStore.Learned: %w", err))
		}
	}
}

// callStore calls f, a store's method, with ctx bounded by storeTimeout.
// A panic of the store is not recovered: it is the caller's code.
func (p *pager) callStore(ctx context.Context, f func(context.Context) (time.Duration, error)) (time.Duration, error) {
	timeout := storeTimeout
	if p.cfg.storeTimeout > 0 {
		timeout = p.cfg.storeTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return f(ctx)
}
