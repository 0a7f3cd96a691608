package discover_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/discover"
)

// A publisher serves its catalog on one domain and redirects the others'
// well-known URL there; APICatalog follows and lists the APIs, with the
// nested catalog's APIs after them.
func ExampleAPICatalog() {
	mux := http.NewServeMux()
	mux.Handle("/.well-known/api-catalog", weblink.APICatalogHandler("https://example.com/", weblink.Links{
		{Target: "/apis/orders", Rel: []string{"item"}},
		{Target: "/catalogs/partners", Rel: []string{"api-catalog"}},
	}))
	mux.Handle("/catalogs/partners", weblink.APICatalogHandler("https://example.com/", weblink.Links{
		{Target: "/apis/partners/v2", Rel: []string{"item"}},
	}))
	canonical := httptest.NewServer(mux)
	defer canonical.Close()
	other := httptest.NewServer(http.RedirectHandler(canonical.URL+"/.well-known/api-catalog", http.StatusMovedPermanently))
	defer other.Close()

	origin, _ := url.Parse(other.URL)
	links, err := discover.APICatalog(context.Background(), nil, origin)
	if err != nil {
		panic(err)
	}
	for _, l := range links.AllRel("item") {
		u, _ := url.Parse(l.Target)
		fmt.Println(u.Path)
	}
	// Output:
	// /apis/orders
	// /apis/partners/v2
}

// An https origin whose catalog redirects to http is refused: the error
// wraps ErrInsecureRedirect.
func ExampleAPICatalog_errInsecureRedirect() {
	plain := httptest.NewServer(weblink.APICatalogHandler("https://example.com/", nil))
	defer plain.Close()
	secure := httptest.NewTLSServer(http.RedirectHandler(plain.URL+"/.well-known/api-catalog", http.StatusFound))
	defer secure.Close()

	origin, _ := url.Parse(secure.URL)
	_, err := discover.APICatalog(context.Background(), secure.Client(), origin)
	fmt.Println(errors.Is(err, discover.ErrInsecureRedirect))
	// Output: true
}
