package weblink_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/weblinking/weblink"
)

// repoAPI serves /repos/{name}/issues in three pages of one issue each,
// and refuses the very first request it gets with a 429 Retry-After: 0.
func repoAPI() *httptest.Server {
	var refused atomic.Bool
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !refused.Swap(true) {
			w.Header().Set("Retry-After", "0")
			http.Error(w, `{"message": "slow down"}`, http.StatusTooManyRequests)
			return
		}
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = max(page, 1)
		weblink.Add(w.Header(), weblink.PageLinks(r.URL, "page", page, 3)...)
		fmt.Fprintf(w, "[%d]", page)
	}))
}

// ExampleRateLimiter pages two repositories at once with one token: when
// the API refuses one of them, both wait, instead of the other being
// refused in turn.
func ExampleRateLimiter() {
	srv := repoAPI()
	defer srv.Close()

	ctx := context.Background()
	limiter := weblink.NewRateLimiter(15 * time.Minute) // one per API and token
	repos := []string{"tools", "net"}
	counts := make([]int, len(repos))
	var wg sync.WaitGroup
	for i, repo := range repos {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/repos/"+repo+"/issues", nil)
			if err != nil {
				log.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer ghp_example")
			for _, err := range weblink.Items(ctx, nil, req, weblink.JSONItems[int], limiter.PageOption()) {
				if err != nil {
					log.Fatal(err)
				}
				counts[i]++
			}
		}()
	}
	wg.Wait()
	for i, repo := range repos {
		fmt.Println(repo, counts[i], "issues")
	}
	// Output:
	// tools 3 issues
	// net 3 issues
}

// ExampleNewRateLimiter syncs repositories one after another, as a nightly
// job does: a limit that one of them ran into is waited out before the
// next one starts.
func ExampleNewRateLimiter() {
	srv := repoAPI()
	defer srv.Close()

	ctx := context.Background()
	limiter := weblink.NewRateLimiter(time.Hour) // each repository waits an hour at most
	for _, repo := range []string{"tools", "net", "text"} {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/repos/"+repo+"/issues", nil)
		if err != nil {
			log.Fatal(err)
		}
		n := 0
		for _, err := range weblink.Items(ctx, nil, req, weblink.JSONItems[int], limiter.PageOption()) {
			if err != nil {
				log.Fatal(err)
			}
			n++
		}
		fmt.Println(repo, n, "issues")
	}
	// Output:
	// tools 3 issues
	// net 3 issues
	// text 3 issues
}

// ExampleRateLimiter_PageOption gives a limiter's option with others.
func ExampleRateLimiter_PageOption() {
	srv := repoAPI()
	defer srv.Close()

	ctx := context.Background()
	limiter := weblink.NewRateLimiter(time.Minute)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/repos/tools/issues", nil)
	if err != nil {
		log.Fatal(err)
	}
	n := 0
	for resp, err := range weblink.Pages(ctx, nil, req, limiter.PageOption(), weblink.MaxPages(2)) {
		if errors.Is(err, weblink.ErrMaxPages) {
			fmt.Println("stopped after page", n)
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		n++
		fmt.Println("page", n, resp.Status)
	}
	// Output:
	// page 1 200 OK
	// page 2 200 OK
	// stopped after page 2
}
