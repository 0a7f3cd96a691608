package weblink_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"

	"github.com/weblinking/weblink"
)

// A Link is a plain value: build it as a struct literal and write it with
// String, which quotes, escapes and encodes whatever it holds.
func ExampleLink() {
	l := weblink.Link{
		Target: "/items?page=2",
		Rel:    []string{"next"},
		Title:  "Page 2 — Seite 2",
		Params: []weblink.Param{{Name: "crossorigin"}},
	}
	fmt.Println(l)
	// Output:
	// </items?page=2>; rel="next"; title*=UTF-8''Page%202%20%E2%80%94%20Seite%202; crossorigin
}

// Links is what the parse functions return; its methods find links by
// relation type.
func ExampleLinks() {
	links, _ := weblink.Parse(`<https://example.com/a.css>; rel=preload; as=style, <https://example.com/b.js>; rel=preload; as=script, <https://example.com/about>; rel=author`)
	for _, l := range links.AllRel("preload") {
		as, _ := l.Param("as")
		fmt.Println(as.Value, l.Target)
	}
	author, _ := links.Rel("author")
	fmt.Println(author.Target)
	// Output:
	// style https://example.com/a.css
	// script https://example.com/b.js
	// https://example.com/about
}

// A Param is an extension target attribute; one that came from an ext-value
// (name*) is decoded and keeps its language.
func ExampleParam() {
	links, _ := weblink.Parse(`</doc>; rel=alternate; x-label*=UTF-8'de'Gr%C3%BC%C3%9Fe; x-flag`)
	for _, p := range links[0].Params {
		fmt.Printf("%q %q %q\n", p.Name, p.Value, p.Lang)
	}
	// Output:
	// "x-label" "Grüße" "de"
	// "x-flag" "" ""
}

// An ExtValue is the decoded form of an RFC 8187 ext-value, such as a
// title* parameter.
func ExampleExtValue() {
	v, err := weblink.ParseExtValue("iso-8859-1'en'%A3%20rates")
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s %q %q\n", v.Charset, v.Lang, v.Value)
	// Output:
	// iso-8859-1 "en" "£ rates"
}

// A Relation is an entry of the IANA link relations registry.
func ExampleRelation() {
	r, _ := weblink.LookupRelation("NEXT")
	fmt.Println(r.Name, "—", r.Reference)
	// Output:
	// next — [HTML]
}

// Each Problem says where in the field value it is and what to write
// instead; warnings are links that are allowed but will not work as meant.
func ExampleProblem() {
	for _, p := range weblink.Check(`</app.js>; rel=preload`) {
		fmt.Println(p.Offset, p.Warning)
	}
	// Output:
	// 0 true
}

// errors.As finds the *SyntaxError at the first problem; the well-formed
// links are returned all the same.
func ExampleSyntaxError() {
	links, err := weblink.Parse(`</a>; rel=next, junk, </b>; rel=last`)
	var se *weblink.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(len(links), "links; first problem at byte", se.Offset)
	}
	// Output:
	// 2 links; first problem at byte 16
}

// A target that net/url cannot parse is left as written, and
// ParseResponse reports it as a *ResolveError.
func ExampleResolveError() {
	resp := &http.Response{
		Header:  http.Header{"Link": {`<http://[::1>; rel=broken, </ok>; rel=next`}},
		Request: &http.Request{URL: &url.URL{Scheme: "https", Host: "api.example.com", Path: "/items"}},
	}
	links, err := weblink.ParseResponse(resp)
	var re *weblink.ResolveError
	if errors.As(err, &re) {
		fmt.Printf("%q left as written; next is %s\n", re.Ref, links[1].Target)
	}
	// Output:
	// "http://[::1" left as written; next is https://api.example.com/ok
}

// Parser.ParseHeader reads every Link field line of a header, reusing the
// memory of its previous result: copy what you keep past the next call.
func ExampleParser_ParseHeader() {
	var p weblink.Parser
	for _, h := range []http.Header{
		{"Link": {`</2>; rel=next`, `</9>; rel=last`}},
		{"Link": {`</3>; rel=next`}},
	} {
		links, _ := p.ParseHeader(h)
		fmt.Println(len(links), links[0].Target)
	}
	// Output:
	// 2 /2
	// 1 /3
}

// Every problem the parse functions report matches ErrSyntax.
func ExampleParse_errSyntax() {
	_, err := weblink.Parse(`<a>; rel="unclosed`)
	fmt.Println(errors.Is(err, weblink.ErrSyntax))
	// Output:
	// true
}

// ErrCharset tells an ext-value in a charset weblink does not decode from
// other syntax errors.
func ExampleParseExtValue_errCharset() {
	_, err := weblink.ParseExtValue("Shift_JIS''%82%A0")
	fmt.Println(errors.Is(err, weblink.ErrCharset))
	// Output:
	// true
}

// ErrInvalidLink is wrapped by every problem Link.Validate reports.
func ExampleLink_Validate_errInvalidLink() {
	err := weblink.Link{Target: "/a"}.Validate() // no rel
	fmt.Println(errors.Is(err, weblink.ErrInvalidLink))
	// Output:
	// true
}

// ErrInvalidLinkset is wrapped by every error of the linkset JSON reader
// and writer.
func ExampleParseLinksetJSON_errInvalidLinkset() {
	_, err := weblink.ParseLinksetJSON([]byte(`{"linkset": {}}`))
	fmt.Println(errors.Is(err, weblink.ErrInvalidLinkset))
	// Output:
	// true
}

// Under the middlewares, EarlyHints returns ErrHeadersWritten once the
// final response head is written: a 103 can only come before it.
func ExampleEarlyHints_errHeadersWritten() {
	h := weblink.Middleware()(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		err := weblink.EarlyHints(w, weblink.Link{Target: "/a.css", Rel: []string{"preload"}})
		fmt.Println(errors.Is(err, weblink.ErrHeadersWritten))
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	// Output:
	// true
}
