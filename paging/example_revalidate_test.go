package paging_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/paging"
)

// newConditionalFruitAPI is newFruitAPI with an ETag on every page, which
// answers If-None-Match with 304 Not Modified, as GitHub does; sent304
// counts the 304s.
func newConditionalFruitAPI(sent304 *int) *httptest.Server {
	fruit := [][]string{{"apple", "banana"}, {"cherry", "damson"}, {"elderberry", "fig"}}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		if page < 1 || page > len(fruit) {
			http.NotFound(w, r)
			return
		}
		weblink.Add(w.Header(), weblink.PageLinks(r.URL, "page", page, len(fruit))...)
		body, _ := json.Marshal(fruit[page-1])
		sum := sha256.Sum256(body)
		etag := `"` + hex.EncodeToString(sum[:8]) + `"`
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			*sent304++
			w.WriteHeader(http.StatusNotModified)
			return
		}
		_, _ = w.Write(body)
	}))
}

// ExampleRevalidate pages the same API twice with one store: the second
// time, every page but the last, which is always asked for afresh, is
// answered 304 Not Modified and its items read from the store.
func ExampleRevalidate() {
	var sent304 int
	srv := newConditionalFruitAPI(&sent304)
	defer srv.Close()

	store := paging.NewMemoryStore(64 << 20)
	ctx := context.Background()
	for run := 1; run <= 2; run++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/fruit?page=1", nil)
		if err != nil {
			log.Fatal(err)
		}
		var items []string
		for item, err := range paging.Items(ctx, nil, req, paging.JSONItems[string], paging.Revalidate(store)) {
			if err != nil {
				log.Fatal(err)
			}
			items = append(items, item)
		}
		fmt.Println(run, items, sent304, "pages answered 304 so far")
	}
	// Output:
	// 1 [apple banana cherry damson elderberry fig] 0 pages answered 304 so far
	// 2 [apple banana cherry damson elderberry fig] 2 pages answered 304 so far
}

// ExampleRevalidated tells the pages read from the store from those the
// server sent again.
func ExampleRevalidated() {
	var sent304 int
	srv := newConditionalFruitAPI(&sent304)
	defer srv.Close()

	store := paging.NewMemoryStore(64 << 20)
	ctx := context.Background()
	for run := 1; run <= 2; run++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/fruit?page=1", nil)
		if err != nil {
			log.Fatal(err)
		}
		for resp, err := range paging.Pages(ctx, nil, req, paging.Revalidate(store)) {
			if err != nil {
				log.Fatal(err)
			}
			fmt.Println(run, resp.Request.URL.RawQuery, resp.StatusCode, paging.Revalidated(resp))
		}
	}
	// Output:
	// 1 page=1 200 false
	// 1 page=2 200 false
	// 1 page=3 200 false
	// 2 page=1 200 true
	// 2 page=2 200 true
	// 2 page=3 200 false
}

// ExampleNewMemoryStore shares one store of 64 MiB between the iterations
// of a process, and reports its errors (a memory store has none; a store
// on disk or a server may), which never end paging.
func ExampleNewMemoryStore() {
	var sent304 int
	srv := newConditionalFruitAPI(&sent304)
	defer srv.Close()

	store := paging.NewMemoryStore(64 << 20)
	opts := []paging.Option{
		paging.Revalidate(store),
		paging.StoreErrors(func(err error) { log.Print(err) }),
	}
	ctx := context.Background()
	for range 3 {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/fruit?page=1", nil)
		if err != nil {
			log.Fatal(err)
		}
		for _, err := range paging.Pages(ctx, nil, req, opts...) {
			if err != nil {
				log.Fatal(err)
			}
		}
	}
	fmt.Println(sent304, "pages answered 304")
	// Output:
	// 4 pages answered 304
}

// ExampleErrNotModified shows the error that ends paging when a server
// answers 304 Not Modified with an entity tag that is not the stored
// page's: the stored page is not yielded.
func ExampleRevalidate_errNotModified() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") != "" {
			w.Header().Set("ETag", `"another"`)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		if r.URL.Path == "/fruit" {
			w.Header().Set("Link", `</fruit/2>; rel="next"`)
		}
		w.Header().Set("ETag", `"v1"`)
		fmt.Fprintln(w, `["apple"]`)
	}))
	defer srv.Close()

	store := paging.NewMemoryStore(1 << 20)
	ctx := context.Background()
	for run := 1; run <= 2; run++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/fruit", nil)
		if err != nil {
			log.Fatal(err)
		}
		for resp, err := range paging.Pages(ctx, nil, req, paging.Revalidate(store)) {
			if err != nil {
				fmt.Println(run, errors.Is(err, paging.ErrNotModified))
				break
			}
			fmt.Println(run, resp.Request.URL.Path)
		}
	}
	// Output:
	// 1 /fruit
	// 1 /fruit/2
	// 2 true
}
