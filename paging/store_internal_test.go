package paging

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// TestStoreErrors checks rule 16: a store that fails, or hangs until its
// context is done, never ends paging; each request asks it again, and
// StoreErrors receives each error.
func TestStoreErrors(t *testing.T) {
	broken := errors.New("store down")
	for _, tc := range []struct {
		name  string
		store *recordingStore
	}{
		{"errors", &recordingStore{
			take:  func(context.Context, int) (time.Duration, error) { return 0, broken },
			learn: func(context.Context) error { return broken }}},
		{"hangs", &recordingStore{
			take: func(ctx context.Context, _ int) (time.Duration, error) { <-ctx.Done(); return 0, ctx.Err() },
			learn: func(ctx context.Context) error {
				<-ctx.Done()
				return ctx.Err()
			}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := pagedServer(t, 3, http.Header{"X-Ratelimit-Remaining": {"100"}, "X-Ratelimit-Reset": {"60"}})
			req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
			var reported atomic.Int32
			short := Option(func(c *config) { c.storeTimeout = 50 * time.Millisecond })
			n := 0
			for _, err := range Pages(context.Background(), nil, req, NewSharedRateLimiter(time.Minute, tc.store).Option(),
				StoreErrors(func(err error) {
					if !errors.Is(err, broken) && !errors.Is(err, context.DeadlineExceeded) {
						t.Errorf("reported %v", err)
					}
					reported.Add(1)
				}), short) {
				if err != nil {
					t.Fatal(err)
				}
				n++
			}
			if n != 3 || tc.store.takes != 3 || len(tc.store.learned) != 3 || reported.Load() != 6 {
				t.Errorf("%d pages, %d takes, %d learned, %d reported; want 3, 3, 3, 6", n, tc.store.takes, len(tc.store.learned), reported.Load())
			}
		})
	}
}
