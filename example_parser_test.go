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

// ExampleParser_Parse parses field values with one Parser. The second call
// overwrites the Links of the first: to keep a result beyond the next call,
// clone it (slices.Clone copies the Links; their Rel, Rev, Hreflang and
// Params slices are the Parser's until then too, so clone those you keep).
func ExampleParser_Parse() {
	var p weblink.Parser
	first, _ := p.Parse(`<https://api.example/items?page=2>; rel="next"`)
	kept := first[0].Target // strings are never overwritten
	second, _ := p.Parse(`<https://api.example/items?page=1>; rel="prev"`)
	fmt.Println(kept)
	fmt.Println(second[0].Target, second[0].Rel)
	// Output:
	// https://api.example/items?page=2
	// https://api.example/items?page=1 [prev]
}
