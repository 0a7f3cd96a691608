package paging_test

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
	"github.com/weblinking/weblink/paging"
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
	limiter := paging.NewRateLimiter(15 * time.Minute) // one per API and token
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
			for _, err := range paging.Items(ctx, nil, req, paging.JSONItems[int], limiter.Option()) {
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
	limiter := paging.NewRateLimiter(time.Hour) // each repository waits an hour at most
	for _, repo := range []string{"tools", "net", "text"} {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/repos/"+repo+"/issues", nil)
		if err != nil {
			log.Fatal(err)
		}
		n := 0
		for _, err := range paging.Items(ctx, nil, req, paging.JSONItems[int], limiter.Option()) {
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
func ExampleRateLimiter_Option() {
	srv := repoAPI()
	defer srv.Close()

	ctx := context.Background()
	limiter := paging.NewRateLimiter(time.Minute)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/repos/tools/issues", nil)
	if err != nil {
		log.Fatal(err)
	}
	n := 0
	for resp, err := range paging.Pages(ctx, nil, req, limiter.Option(), paging.MaxPages(2)) {
		if errors.Is(err, paging.ErrMaxPages) {
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

// ErrRateLimited ends a WaitRateLimits iteration whose waits would pass
// maxWait: here the server asks for an hour, and the iteration gives up at
// once instead of sleeping.
func ExampleWaitRateLimits_errRateLimited() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/items", nil)
	for _, err := range paging.Pages(context.Background(), nil, req, paging.WaitRateLimits(time.Minute)) {
		var se *paging.StatusError
		fmt.Println(errors.Is(err, paging.ErrRateLimited), errors.As(err, &se) && se.StatusCode == 429)
	}
	// Output:
	// true true
}
