package paging_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/paging"
)

// newFruitAPI starts a small API that lists fruit, three pages of two
// items at /fruit?page=N, linked with rel="next" as GitHub does (the server
// side uses PageLinks).
func newFruitAPI() *httptest.Server {
	fruit := [][]string{{"apple", "banana"}, {"cherry", "damson"}, {"elderberry", "fig"}}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		if page < 1 || page > len(fruit) {
			http.NotFound(w, r)
			return
		}
		// first, prev, next and last links, relative to the request URL
		weblink.Add(w.Header(), weblink.PageLinks(r.URL, "page", page, len(fruit))...)
		_ = json.NewEncoder(w).Encode(fruit[page-1])
	}))
}

// ExamplePages pages through a small API that lists fruit (newFruitAPI),
// one response per page.
func ExamplePages() {
	srv := newFruitAPI()
	defer srv.Close()

	ctx := context.Background()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/fruit?page=1", nil)
	if err != nil {
		log.Fatal(err)
	}
	for resp, err := range paging.Pages(ctx, nil, req, paging.MaxPages(100)) {
		if err != nil {
			log.Fatal(err)
		}
		var items []string
		if err := json.NewDecoder(resp.Body).Decode(&items); err != nil {
			log.Fatal(err)
		}
		for _, item := range items {
			fmt.Println(item)
		}
	}
	// Output:
	// apple
	// banana
	// cherry
	// damson
	// elderberry
	// fig
}

// ExampleItems lists the items of every page of the fruit API
// (newFruitAPI) as they come: Items decodes each page and yields its items
// one by one.
func ExampleItems() {
	srv := newFruitAPI()
	defer srv.Close()

	ctx := context.Background()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/fruit?page=1", nil)
	if err != nil {
		log.Fatal(err)
	}
	for item, err := range paging.Items(ctx, nil, req, paging.JSONItems[string], paging.MaxPages(100)) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(item)
	}
	// Output:
	// apple
	// banana
	// cherry
	// damson
	// elderberry
	// fig
}

// ExampleJSONItems decodes the issues of a GitHub-like API, JSON arrays of
// objects, into a struct of the fields the program needs. An error names
// the page that did not decode.
func ExampleJSONItems() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("page") {
		case "":
			w.Header().Set("Link", `<?page=2>; rel="next"`)
			fmt.Fprint(w, `[{"number": 2, "title": "Fix the docs", "state": "open"}]`)
		case "2":
			w.Header().Set("Link", `<?page=3>; rel="next"`)
			fmt.Fprint(w, `[{"number": 1, "title": "First issue", "state": "closed"}]`)
		default:
			fmt.Fprint(w, `{"message": "Not an array"}`)
		}
	}))
	defer srv.Close()

	type Issue struct {
		Number int    `json:"number"`
		Title  string `json:"title"`
	}
	ctx := context.Background()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/repos/o/r/issues", nil)
	if err != nil {
		log.Fatal(err)
	}
	for issue, err := range paging.Items(ctx, nil, req, paging.JSONItems[Issue]) {
		if err != nil {
			var jerr *json.UnmarshalTypeError
			fmt.Println("stopped:", errors.As(err, &jerr), strings.Contains(err.Error(), "page 3"))
			break
		}
		fmt.Printf("#%d %s\n", issue.Number, issue.Title)
	}
	// Output:
	// #2 Fix the docs
	// #1 First issue
	// stopped: true true
}

// ExampleWaitRateLimits pages through an API that refuses the second page
// once with 429 Too Many Requests and Retry-After: 0, as a rate limiter
// does; WaitRateLimits requests it again instead of ending the loop.
func ExampleWaitRateLimits() {
	var refused atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		if page == 2 && !refused.Swap(true) {
			w.Header().Set("Retry-After", "0") // seconds, or an HTTP-date
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return
		}
		weblink.Add(w.Header(), weblink.PageLinks(r.URL, "page", page, 3)...)
		w.Header().Set("X-RateLimit-Remaining", "10")
		fmt.Fprintf(w, "[%d]", page)
	}))
	defer srv.Close()

	ctx := context.Background()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/items?page=1", nil)
	if err != nil {
		log.Fatal(err)
	}
	// Wait at most two minutes in all; a longer limit ends the loop with
	// an error wrapping paging.ErrRateLimited.
	for item, err := range paging.Items(ctx, nil, req, paging.JSONItems[int], paging.WaitRateLimits(2*time.Minute)) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("item", item)
	}
	// Output:
	// item 1
	// item 2
	// item 3
}
