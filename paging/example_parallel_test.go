package paging_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/paging"
)

// ExampleParallel copies a collection of 12 numbered pages (first, next and
// last links, as GitHub and GitLab send) whose server takes 50 ms a page,
// four pages at a time: the items come in order, in about a quarter of the
// time one page at a time takes.
func ExampleParallel() {
	const pages = 12
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		weblink.Add(w.Header(), weblink.PageLinks(r.URL, "page", max(page, 1), pages)...)
		time.Sleep(50 * time.Millisecond)
		fmt.Fprintf(w, "[%d, %d]", 2*page-1, 2*page)
	}))
	defer srv.Close()

	// Keep a connection for each request in flight.
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	defer client.CloseIdleConnections()
	ctx := context.Background()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/items?page=1", nil)
	if err != nil {
		log.Fatal(err)
	}
	var items []int
	for item, err := range paging.Items(ctx, client, req, paging.JSONItems[int], paging.Parallel(4)) {
		if err != nil {
			log.Fatal(err)
		}
		items = append(items, item)
	}
	fmt.Println(items)
	// Output:
	// [1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24]
}
