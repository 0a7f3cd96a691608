// The harness of the tests inside package paging: the fake clock, the
// round tripper and the helpers that several of their files share. (The
// external tests need nothing from the internals; their harness is
// harness_test.go.)

package paging

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"
)

// testNow is the clock of the table tests.
var testNow = time.Date(2026, 12, 1, 13, 0, 0, 0, time.UTC)

// fakeClock is a clock whose sleeps return at once and move it on: the
// rate-limit tests wait minutes of its time in no time.
type fakeClock struct {
	mu    sync.Mutex
	t     time.Time
	slept []time.Duration
}

func newFakeClock() *fakeClock { return &fakeClock{t: testNow} }

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	c.slept = append(c.slept, d)
	return ctx.Err()
}

func (c *fakeClock) sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.slept)
}

// option makes an iteration use the clock.
func (c *fakeClock) option() Option {
	return func(cfg *config) {
		cfg.now = c.now
		cfg.sleep = c.sleep
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func parse(t *testing.T, s string) *url.URL {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
