package weblink_test

import (
	"fmt"
	"net/http"

	"github.com/weblinking/weblink"
)

// ExampleParser parses the Link header of many responses with one Parser,
// which reuses its memory from call to call. A result is valid only until
// the Parser's next call: keep the strings you need (they are never
// overwritten), not the Links.
func ExampleParser() {
	headers := []http.Header{
		{"Link": {`<https://api.example/items?page=2>; rel="next"`}},
		{"Link": {`<https://api.example/items?page=3>; rel="next", <https://api.example/items?page=1>; rel="prev"`}},
	}
	var p weblink.Parser
	var next []string
	for _, h := range headers {
		links, err := p.ParseHeader(h)
		if err != nil {
			fmt.Println(err)
		}
		if l, ok := links.Rel("next"); ok {
			next = append(next, l.Target) // a string: safe to keep
		}
	}
	fmt.Println(next)
	// Output:
	// [https://api.example/items?page=2 https://api.example/items?page=3]
}
