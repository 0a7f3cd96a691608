package weblink_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/weblinking/weblink"
)

func ExampleParse() {
	links, err := weblink.Parse(`</page/2>; rel="next"; title="Page, the second", </style.css>; rel=preload; as=style; crossorigin`)
	if err != nil {
		fmt.Println("error:", err)
	}
	for _, l := range links {
		fmt.Printf("%s %q %q %v\n", l.Target, l.Rel, l.Title, l.Params)
	}
	// Output:
	// /page/2 ["next"] "Page, the second" []
	// /style.css ["preload"] "" [{as style } {crossorigin  }]
}

func ExampleParse_malformed() {
	// A header cut short by a proxy: the broken link-value is dropped whole,
	// the others are kept, and the error says where the problem is.
	links, err := weblink.Parse(`</a>; rel="next", </b>; rel="la`)
	fmt.Println(links)
	var se *weblink.SyntaxError
	if errors.As(err, &se) {
		fmt.Println("offset", se.Offset)
	}
	fmt.Println(err)
	// Output:
	// </a>; rel="next"
	// offset 28
	// weblink: syntax error at offset 28: quoted-string is never closed; link-value dropped
}

func ExampleParseHeader() {
	h := http.Header{}
	h.Add("Link", `</a>; rel=prev`)
	h.Add("Link", `</c>; REL=next`)
	links, _ := weblink.ParseHeader(h)
	fmt.Println(links)
	// Output:
	// </a>; rel="prev", </c>; rel="next"
}

func ExampleParseResponse() {
	// resp would come from http.Client.Do; its Request is the final one,
	// after redirects, so relative links resolve against the right URL.
	req, _ := http.NewRequest("GET", "https://api.example.com/v1/items?page=2", nil)
	resp := &http.Response{Request: req, Header: http.Header{}}
	resp.Header.Set("Link", `<?page=3>; rel="next", </v1/items?page=9>; rel="last"`)

	links, err := weblink.ParseResponse(resp)
	if err != nil {
		fmt.Println("error:", err)
	}
	if next, ok := links.Rel("next"); ok {
		fmt.Println("next page:", next.Target)
	}
	// Output:
	// next page: https://api.example.com/v1/items?page=3
}

func ExampleLinks_Rel() {
	links, _ := weblink.Parse(`</1>; rel="first", </3>; rel="NEXT"`)
	next, ok := links.Rel("next")
	fmt.Println(next.Target, ok)
	_, ok = links.Rel("prev")
	fmt.Println(ok)
	// Output:
	// /3 true
	// false
}

func ExampleLink_HasRel() {
	l := weblink.Link{Target: "/", Rel: []string{"start", "index"}}
	fmt.Println(l.HasRel("Index"), l.HasRel("next"))
	// Output: true false
}

func ExampleLink_Param() {
	links, _ := weblink.Parse(`</font.woff2>; rel=preload; as=font; crossorigin`)
	as, _ := links[0].Param("as")
	_, cors := links[0].Param("crossorigin")
	fmt.Println(as.Value, cors)
	// Output: font true
}

func ExampleLinks_Resolve() {
	base, _ := url.Parse("https://example.com/docs/guide/")
	links, _ := weblink.Parse(`<../api>; rel=related; anchor="#intro"`)
	fmt.Println(links.Resolve(base))
	// Output:
	// <https://example.com/docs/api>; rel="related"; anchor="https://example.com/docs/guide/#intro"
}

func ExampleLink_String() {
	l := weblink.Link{
		Target: "https://example.com/über",
		Rel:    []string{"alternate"},
		Title:  "Über uns",
		Params: []weblink.Param{{Name: "crossorigin"}},
	}
	fmt.Println(l)
	// Output:
	// <https://example.com/%C3%BCber>; rel="alternate"; title*=UTF-8''%C3%9Cber%20uns; crossorigin
}

func ExampleLinks_String() {
	links := weblink.Links{
		{Target: "/items?page=1", Rel: []string{"prev"}},
		{Target: "/items?page=3", Rel: []string{"next"}},
	}
	fmt.Println(links)
	// Output:
	// </items?page=1>; rel="prev", </items?page=3>; rel="next"
}

func ExampleAdd() {
	h := http.Header{}
	weblink.Add(h,
		weblink.Link{Target: "/items?page=3", Rel: []string{"next"}},
		weblink.Link{Target: "/items?page=9", Rel: []string{"last"}},
	)
	fmt.Println(h.Get("Link"))
	// Output:
	// </items?page=3>; rel="next", </items?page=9>; rel="last"
}

func ExampleLink_Validate() {
	l := weblink.Link{Target: "/a b", Rel: []string{"Next"}, Hreflang: []string{"en_US"}}
	fmt.Println(l.Validate())
	// Output:
	// weblink: invalid link: target "/a b" is not a URI-reference or IRI: byte 2 must be percent-encoded
	// weblink: invalid link: rel "Next" is neither a lower-case registered relation type name nor an absolute URI (RFC 8288 §2.1)
	// weblink: invalid link: hreflang "en_US" is not a well-formed language tag (RFC 5646)
}
