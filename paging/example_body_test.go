package paging_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/paging"
)

// newShapeAPI starts an API of three pages at /orders?page=N, each written
// by body with the relative URL of the next page ("" on the last) and the
// page's two items, as a JSON string list.
func newShapeAPI(body func(next, items string) string) *httptest.Server {
	names := [][]string{{"apple", "banana"}, {"cherry", "damson"}, {"elderberry", "fig"}}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		if page < 1 || page > len(names) {
			http.NotFound(w, r)
			return
		}
		next := ""
		if page < len(names) {
			next = "/orders?page=" + strconv.Itoa(page+1)
		}
		items := `"` + strings.Join(names[page-1], `", "`) + `"`
		fmt.Fprint(w, body(next, items))
	}))
}

// orNull writes s as a JSON string, or null for "".
func orNull(s string) string {
	if s == "" {
		return "null"
	}
	return strconv.Quote(s)
}

// printItems prints the items of every page of srv, decoded at items,
// following the next links at next.
func printItems(srv *httptest.Server, next, items string) {
	ctx := context.Background()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/orders?page=1", nil)
	if err != nil {
		log.Fatal(err)
	}
	for item, err := range paging.Items(ctx, nil, req, paging.JSONItemsAt[string](items), paging.NextInBody(next)) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(item)
	}
}

// ExampleNextInBody pages through a JSON:API collection: the next link is
// the member "next" of the top-level "links" (a string, or a link object
// with "href"; null on the last page), the items are in "data".
func ExampleNextInBody() {
	srv := newShapeAPI(func(next, items string) string {
		return `{"data": [` + items + `], "links": {"self": "/orders", "next": ` + orNull(next) + `}}`
	})
	defer srv.Close()
	printItems(srv, "/links/next", "/data")
	// Output:
	// apple
	// banana
	// cherry
	// damson
	// elderberry
	// fig
}

// ExampleNextInBody_hal pages through a HAL collection, as Spring Data REST
// serves it: the next link is the "href" of "_links"."next", absent on the
// last page, and the items are embedded under their relation name.
func ExampleNextInBody_hal() {
	srv := newShapeAPI(func(next, items string) string {
		links := `"self": {"href": "/orders"}`
		if next != "" {
			links += `, "next": {"href": "` + next + `"}`
		}
		return `{"_links": {` + links + `}, "_embedded": {"orders": [` + items + `]}, "page": {"size": 2}}`
	})
	defer srv.Close()
	printItems(srv, "/_links/next/href", "/_embedded/orders")
	// Output:
	// apple
	// banana
	// cherry
	// damson
	// elderberry
	// fig
}

// ExampleNextInBody_odata pages through an OData 4.0 collection, as
// Microsoft Graph serves every list: the next link is "@odata.nextLink",
// absent on the last page, and the items are in "value". OData 4.01
// services write "@nextLink" (see ExampleNextInBody_odata401), Azure
// "nextLink" ("/nextLink").
func ExampleNextInBody_odata() {
	srv := newShapeAPI(func(next, items string) string {
		link := ""
		if next != "" {
			link = `, "@odata.nextLink": "` + next + `"`
		}
		return `{"@odata.context": "/$metadata#orders", "value": [` + items + `]` + link + `}`
	})
	defer srv.Close()
	printItems(srv, "/@odata.nextLink", "/value")
	// Output:
	// apple
	// banana
	// cherry
	// damson
	// elderberry
	// fig
}

// ExampleNextInBody_odata401 pages through an OData 4.01 collection, whose
// control information drops the "odata." prefix: the next link is
// "@nextLink", absent on the last page, the items in "value".
func ExampleNextInBody_odata401() {
	srv := newShapeAPI(func(next, items string) string {
		link := ""
		if next != "" {
			link = `, "@nextLink": "` + next + `"`
		}
		return `{"@context": "/$metadata#orders", "value": [` + items + `]` + link + `}`
	})
	defer srv.Close()
	printItems(srv, "/@nextLink", "/value")
	// Output:
	// apple
	// banana
	// cherry
	// damson
	// elderberry
	// fig
}

// ExampleNextInBody_azure pages through an Azure Resource Manager list: the
// next link is "nextLink", null on the last page, the items in "value".
func ExampleNextInBody_azure() {
	srv := newShapeAPI(func(next, items string) string {
		return `{"value": [` + items + `], "nextLink": ` + orNull(next) + `}`
	})
	defer srv.Close()
	printItems(srv, "/nextLink", "/value")
	// Output:
	// apple
	// banana
	// cherry
	// damson
	// elderberry
	// fig
}

// ExampleJSONItemsAt decodes the items of a search as GitHub answers it:
// wrapped in an object with their "total_count", the next link in the
// Link header, which needs no NextInBody.
func ExampleJSONItemsAt() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		weblink.Add(w.Header(), weblink.PageLinks(r.URL, "page", page, 2)...)
		fmt.Fprintf(w, `{"total_count": 4, "incomplete_results": false, "items": [{"number": %d}, {"number": %d}]}`, 2*page-1, 2*page)
	}))
	defer srv.Close()

	type issue struct {
		Number int `json:"number"`
	}
	ctx := context.Background()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/search/issues?q=bug&page=1", nil)
	if err != nil {
		log.Fatal(err)
	}
	for it, err := range paging.Items(ctx, nil, req, paging.JSONItemsAt[issue]("/items")) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(it.Number)
	}
	// Output:
	// 1
	// 2
	// 3
	// 4
}
