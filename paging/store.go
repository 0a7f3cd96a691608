package paging

import (
	"context"
	"net/http"
	"time"
)

// Limit is what one response said about the API's rate limit.
type Limit struct {
	Remaining int       // requests left in the window after this one; -1: not said
	Reset     time.Time // when the window resets; zero: not said
	Until     time.Time // the API refuses requests until then (Retry-After, a refusal's reset, the backoff of rule 1); zero: not refused
}

// LimitStore holds the rate-limit state of one API and credential for
// every process using it, so that they take requests from one count.
type LimitStore interface {
	// Take reserves one request: 0 means send it now; otherwise wait that long and call Take again.
	Take(ctx context.Context) (time.Duration, error)
	// Learned records what a response said.
	Learned(ctx context.Context, l Limit) error
}

// PageStore keeps pages between runs, so that a page that has not changed
// is answered 304 Not Modified and read from the store.
type PageStore interface {
	// Get returns the page stored under key, and whether there is one.
	Get(ctx context.Context, key string) (StoredPage, bool, error)
	// Put stores p under key.
	Put(ctx context.Context, key string, p StoredPage) error
}

// StoredPage is a page as a [PageStore] keeps it.
type StoredPage struct {
	URL    string      // the page's URL after redirects
	Header http.Header // the 200 response's header as received
	Body   []byte      // its whole body
}

// StoreErrors sets a function that receives every error of a
// [LimitStore] or [PageStore], which never ends paging (see rules 16 and
// 26).
//
// This is the only place a store error shows. With nil, or without
// StoreErrors, they are dropped. f is called from the goroutine that made
// the store call, which with [Parallel] may be one of its workers: f must
// be safe for concurrent use.
func StoreErrors(f func(error)) Option {
	return func(c *config) { c.storeErrors = f }
}

// storeError reports err, a store's error, to the StoreErrors function.
func (c *config) storeError(err error) {
	if err != nil && c.storeErrors != nil {
		c.storeErrors(err)
	}
}
