package weblink_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/weblinking/weblink"
)

func ExampleAPICatalogHandler() {
	apis := weblink.Links{
		{Target: "https://developer.example.com/apis/foo_api", Rel: []string{"item"}},
		{Target: "https://developer.example.com/apis/foo_api/openapi.json", Rel: []string{"service-desc"},
			Anchor: "https://developer.example.com/apis/foo_api", Type: "application/vnd.oai.openapi+json"},
	}
	mux := http.NewServeMux()
	mux.Handle("/.well-known/api-catalog", weblink.APICatalogHandler("https://www.example.com/.well-known/api-catalog", apis))

	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("HEAD", "/.well-known/api-catalog", nil))
	fmt.Println(rec.Code, rec.Header().Get("Link"), rec.Body.Len())

	req := httptest.NewRequest("GET", "/.well-known/api-catalog", nil)
	req.Header.Set("Accept", weblink.LinksetType)
	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	fmt.Println(rec.Header().Get("Content-Type"))
	fmt.Print(rec.Body)
	// Output:
	// 200 </.well-known/api-catalog>; rel="api-catalog" 0
	// application/linkset; profile="https://www.rfc-editor.org/info/rfc9727"
	// <https://developer.example.com/apis/foo_api>; rel="item"; anchor="https://www.example.com/.well-known/api-catalog",
	// <https://developer.example.com/apis/foo_api/openapi.json>; rel="service-desc"; anchor="https://developer.example.com/apis/foo_api"; type="application/vnd.oai.openapi+json"
}
