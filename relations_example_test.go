package weblink_test

import (
	"fmt"

	"github.com/weblinking/weblink"
)

func ExampleLookupRelation() {
	r, ok := weblink.LookupRelation("Next")
	fmt.Println(ok, r.Name, r.Reference)
	fmt.Println(r.Description)

	_, ok = weblink.LookupRelation("nxt")
	fmt.Println(ok)
	// Output:
	// true next [HTML]
	// Indicates that the link's context is a part of a series, and that the next in the series is the link target.
	// false
}

func ExampleRelations() {
	rs := weblink.Relations()
	fmt.Println(len(rs), "registered relation types")
	for _, r := range rs[:3] {
		fmt.Println(r.Name)
	}
	// Output:
	// 127 registered relation types
	// about
	// acl
	// alternate
}

func ExampleLink_Unregistered() {
	l := weblink.Link{
		Target: "/items?page=2",
		Rel:    []string{weblink.RelNext, "nxt", "https://example.com/rel/more"},
	}
	fmt.Printf("%q\n", l.Unregistered())
	// Output:
	// ["nxt"]
}
