package weblink_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/weblinking/weblink"
)

func ExampleParseLinkset() {
	doc := []byte(`<https://example.org/resource1?version=3>
   ; rel="latest-version"
   ; type="text/html"
   ; anchor="https://example.org/resource1",
<https://authors.example.net/alice>
   ; rel="author"
   ; anchor="https://example.org/resource1#comment=1"
`)
	links, err := weblink.ParseLinkset(doc)
	if err != nil {
		fmt.Println(err)
	}
	for _, l := range links {
		fmt.Println(l.Anchor, l.Rel, l.Target)
	}
	// Output:
	// https://example.org/resource1 [latest-version] https://example.org/resource1?version=3
	// https://example.org/resource1#comment=1 [author] https://authors.example.net/alice
}

func ExampleFormatLinkset() {
	links := weblink.Links{
		{Target: "https://example.org/resource1?version=3", Rel: []string{"latest-version"}, Anchor: "https://example.org/resource1"},
		{Target: "https://authors.example.net/alice", Rel: []string{"author"}, Anchor: "https://example.org/resource1#comment=1"},
	}
	fmt.Print(string(weblink.FormatLinkset(links)))
	// Output:
	// <https://example.org/resource1?version=3>; rel="latest-version"; anchor="https://example.org/resource1",
	// <https://authors.example.net/alice>; rel="author"; anchor="https://example.org/resource1#comment=1"
}

func ExampleFormatLinksetJSON() {
	links := weblink.Links{
		{Target: "https://example.com/foo", Rel: []string{"next"}, Anchor: "https://example.net/bar",
			Type: "text/html", Hreflang: []string{"en", "de"}},
		{Target: "https://example.com/foo2", Rel: []string{"https://example.com/relations/baz"}, Anchor: "https://example.net/boo",
			Params: []weblink.Param{{Name: "bar", Value: "barone"}, {Name: "bar", Value: "bartwo"}}},
	}
	b, err := weblink.FormatLinksetJSON(links)
	if err != nil {
		fmt.Println(err)
	}
	fmt.Println(string(b))
	// Output:
	// {
	//   "linkset": [
	//     {
	//       "anchor": "https://example.net/bar",
	//       "next": [
	//         { "href": "https://example.com/foo", "type": "text/html", "hreflang": ["en", "de"] }
	//       ]
	//     },
	//     {
	//       "anchor": "https://example.net/boo",
	//       "https://example.com/relations/baz": [
	//         { "href": "https://example.com/foo2", "bar": ["barone", "bartwo"] }
	//       ]
	//     }
	//   ]
	// }
}

func ExampleParseLinksetJSON() {
	doc := []byte(`{ "linkset": [
	  { "anchor": "https://example.net/bar",
	    "item": [
	      {"href": "https://example.com/foo1"},
	      {"href": "https://example.com/foo2", "title*": [{"value": "Zweites", "language": "de"}]}
	    ]
	  }
	]}`)
	links, err := weblink.ParseLinksetJSON(doc)
	if err != nil {
		fmt.Println(err)
	}
	for _, l := range links {
		fmt.Printf("%s %v %s title=%q lang=%q\n", l.Anchor, l.Rel, l.Target, l.Title, l.TitleLang)
	}

	_, err = weblink.ParseLinksetJSON([]byte(`{"linkset": [{"next": [{"type": "text/html"}]}]}`))
	fmt.Println(errors.Is(err, weblink.ErrInvalidLinkset))
	fmt.Println(err)
	// Output:
	// https://example.net/bar [item] https://example.com/foo1 title="" lang=""
	// https://example.net/bar [item] https://example.com/foo2 title="Zweites" lang="de"
	// true
	// weblink: invalid linkset: linkset[0].next[0].href: missing; every link target object needs "href" ("" for the linkset resource itself, RFC 9264 §4.2.3)
}

func ExampleLinksetHandler() {
	links := weblink.Links{
		{Target: "https://example.org/resource1?version=3", Rel: []string{"latest-version"}, Anchor: "https://example.org/resource1"},
	}
	mux := http.NewServeMux()
	mux.Handle("/links/resource1", weblink.LinksetHandler(links))
	mux.HandleFunc("/resource1", func(w http.ResponseWriter, r *http.Request) {
		weblink.Add(w.Header(), weblink.Link{Target: "/links/resource1", Rel: []string{"linkset"}, Type: weblink.LinksetType})
		fmt.Fprintln(w, "resource 1")
	})

	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("HEAD", "/resource1", nil))
	fmt.Println(rec.Header().Get("Link"))

	req := httptest.NewRequest("GET", "/links/resource1", nil)
	req.Header.Set("Accept", weblink.LinksetType)
	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"))
	fmt.Print(rec.Body)

	req.Header.Set("If-None-Match", rec.Header().Get("ETag"))
	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	fmt.Println(rec.Code)
	// Output:
	// </links/resource1>; rel="linkset"; type="application/linkset"
	// 200 application/linkset
	// <https://example.org/resource1?version=3>; rel="latest-version"; anchor="https://example.org/resource1"
	// 304
}

// A program that shows where a linkset document is wrong takes the path and
// the offset from the *LinksetError.
func ExampleLinksetError() {
	doc := []byte(`{"linkset": [{"next": [{"href": "/a", "title": 7}]}]}`)
	_, err := weblink.ParseLinksetJSON(doc)
	var le *weblink.LinksetError
	if errors.As(err, &le) {
		fmt.Println(le.Path)
		fmt.Println(string(doc[le.Offset:]))
		fmt.Println(le.Msg)
	}
	// Output:
	// linkset[0].next[0].title
	// 7}]}]}
	// must be a string (RFC 9264 §4.2.4.1), found a number
}
