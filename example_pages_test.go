package weblink_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"

	"github.com/weblinking/weblink"
)

// ExamplePages pages through a small API that lists fruit, three pages of
// two items, linked with rel="next" as GitHub does (the server side uses
// PageLinks).
func ExamplePages() {
	fruit := [][]string{{"apple", "banana"}, {"cherry", "damson"}, {"elderberry", "fig"}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		if page < 1 || page > len(fruit) {
			http.NotFound(w, r)
			return
		}
		// first, prev, next and last links, relative to the request URL
		weblink.Add(w.Header(), weblink.PageLinks(r.URL, "page", page, len(fruit))...)
		_ = json.NewEncoder(w).Encode(fruit[page-1])
	}))
	defer srv.Close()

	ctx := context.Background()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/fruit?page=1", nil)
	if err != nil {
		log.Fatal(err)
	}
	for resp, err := range weblink.Pages(ctx, nil, req, weblink.MaxPages(100)) {
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

// ExampleNextURL finds the next page of a response by hand.
func ExampleNextURL() {
	req, _ := http.NewRequest(http.MethodGet, "https://api.example/v2/items?page=1", nil)
	resp := &http.Response{
		Request: req,
		Header: http.Header{"Link": {
			`<?page=1>; rel="first", <?page=9>; rel="last"`,
			`<?page=2>; rel="next"`,
		}},
	}
	if next, ok := weblink.NextURL(resp); ok {
		fmt.Println(next)
	}
	// Output: https://api.example/v2/items?page=2
}
