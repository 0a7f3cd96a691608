package weblink_test

import (
	"fmt"
	"net/http"

	"github.com/weblinking/weblink"
)

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

// ExampleLinks_AllRel lists every alternate certificate chain an ACME
// server offers (RFC 8555 §7.4.2); Rel would give only the first.
func ExampleLinks_AllRel() {
	links, _ := weblink.Parse(`<https://acme.example/cert/1/1>; rel="alternate", ` +
		`<https://acme.example/directory>; rel="index", ` +
		`<https://acme.example/cert/1/2>; rel="Alternate"`)
	for _, l := range links.AllRel("alternate") {
		fmt.Println(l.Target)
	}
	fmt.Println(links.AllRel("up") == nil)
	// Output:
	// https://acme.example/cert/1/1
	// https://acme.example/cert/1/2
	// true
}
