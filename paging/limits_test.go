package paging_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/weblinking/weblink/paging"
)

// TestRateLimiterCountsParallel checks rule 15 in one process: three
// iterations at once, each with Parallel(4), against a GitHub-like API
// allowing 8 requests a window, take their requests from the count of one
// NewRateLimiter and are never refused; with WaitRateLimits, each
// iteration counting alone, they are (which shows the test can fail).
func TestRateLimiterCountsParallel(t *testing.T) {
	t.Parallel() // it waits for 3 windows or more
	for _, shared := range []bool{true, false} {
		t.Run(fmt.Sprintf("shared %v", shared), func(t *testing.T) {
			t.Parallel()
			s := newGitHubSim(t, 8, 1, 8, false)
			limiter := paging.NewRateLimiter(time.Minute)
			var wg sync.WaitGroup
			items := make([][]int, 3)
			for i := range items {
				wg.Add(1)
				go func() {
					defer wg.Done()
					req, _ := http.NewRequest(http.MethodGet, s.URL+fmt.Sprintf("/repos/o/r%d/issues?per_page=1", i), nil)
					req.Header.Set("Authorization", "Bearer ghp_test")
					limit := paging.WaitRateLimits(time.Minute)
					if shared {
						limit = limiter.Option()
					}
					for it, err := range paging.Items(context.Background(), nil, req, paging.JSONItems[issue], limit, paging.Parallel(4)) {
						if err != nil {
							t.Error(err)
							return
						}
						items[i] = append(items[i], it.Number)
					}
				}()
			}
			wg.Wait()
			for i, got := range items {
				if want := []int{1, 2, 3, 4, 5, 6, 7, 8}; !slices.Equal(got, want) {
					t.Errorf("iteration %d: issues %v, want %v", i, got, want)
				}
			}
			s.mu.Lock()
			refused := s.refused
			s.mu.Unlock()
			t.Logf("%d requests, %d refused", len(s.requests()), refused)
			if shared && refused != 0 {
				t.Errorf("%d requests refused, want 0", refused)
			}
			if !shared && refused == 0 {
				t.Error("no request refused without a shared count: the test cannot fail")
			}
		})
	}
}
