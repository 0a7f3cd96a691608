package linktemplate_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/linktemplate"
)

func ExampleParse() {
	ts, err := linktemplate.Parse(`"/books/{book_id}/author"; rel="author"; anchor="#{book_id}", "/author"; rel="author"; title=%"Bj%c3%b6rn J%c3%a4rnsida"`)
	if err != nil {
		panic(err)
	}
	for _, t := range ts {
		fmt.Printf("%s rel=%v anchor=%q params=%v\n", t.Template, t.Rel, t.Anchor, t.Params)
	}
	// Output:
	// /books/{book_id}/author rel=[author] anchor="#{book_id}" params=[]
	// /author rel=[author] anchor="" params=[{title Björn Järnsida }]
}

func ExampleParseHeader() {
	h := http.Header{}
	h.Add("Link-Template", `"/widgets/{widget_id}"; rel="item"`)
	h.Add("Link-Template", `"/search{?q}"; rel="search"`)
	ts, err := linktemplate.ParseHeader(h)
	fmt.Println(len(ts), ts[1].Template, err)
	// Output: 2 /search{?q} <nil>
}

func ExampleFormat() {
	v, err := linktemplate.Format(
		linktemplate.Template{Template: "/widgets/{widget_id}", Rel: []string{"item"}, VarBase: "https://example.org/vars/"},
		linktemplate.Template{Template: "/author", Rel: []string{"author"}, Params: []weblink.Param{{Name: "title", Value: "Björn Järnsida"}}},
	)
	fmt.Println(v, err)
	_, err = linktemplate.Format(linktemplate.Template{Template: "/a\r\nSet-Cookie: x=1"})
	fmt.Println(err)
	// Output:
	// "/widgets/{widget_id}";rel="item";var-base="https://example.org/vars/", "/author";rel="author";title=%"Bj%c3%b6rn J%c3%a4rnsida" <nil>
	// linktemplate: template 1 ("/a\r\nSet-Cookie: x=1"): the template holds controls or non-ASCII, which a String cannot (pct-encode non-ASCII)
}

func ExampleTemplate() {
	h := http.Header{"Link-Template": {`"/users/{user}/repos{?sort,per_page}"; rel="repos"`}}
	ts, _ := linktemplate.ParseHeader(h)
	link, _ := ts[0].Expand(map[string]any{"user": "rené", "sort": "updated", "per_page": 50})
	base, _ := url.Parse("https://api.example/")
	fmt.Println(weblink.Links{link}.Resolve(base))
	// Output: <https://api.example/users/ren%C3%A9/repos?sort=updated&per_page=50>; rel="repos"
}

func ExampleTemplate_Expand() {
	t := linktemplate.Template{Template: "/books/{book_id}/author{?fields*}", Rel: []string{"author"}, Anchor: "#{book_id}"}
	link, err := t.Expand(map[string]any{
		"book_id": "978-0",
		"fields":  [][2]string{{"name", "full"}, {"lang", "sv"}}, // an associative array, in this order
	})
	fmt.Println(link, err)
	// Output: </books/978-0/author?name=full&lang=sv>; rel="author"; anchor="#978-0" <nil>
}

func ExampleTemplate_Variables() {
	t := linktemplate.Template{Template: "/widgets/{widget_id}{?fields}", VarBase: "https://example.org/vars/"}
	fmt.Println(t.Variables())
	// Output: [https://example.org/vars/widget_id https://example.org/vars/fields]
}

func ExampleSyntaxError() {
	_, err := linktemplate.Parse(`"/a"; rel="next", "/b"; rel=prev`)
	var se *linktemplate.SyntaxError
	fmt.Println(errors.As(err, &se), se.Offset, se.Member, errors.Is(err, weblink.ErrSyntax))
	fmt.Println(err)
	// Output:
	// true 24 2 true
	// linktemplate: syntax error at offset 24 (member 2): the rel parameter is a Token, not a String (RFC 9652 §2); the field is ignored
}

func ExampleTemplateError() {
	_, err := linktemplate.Template{Template: "/search{?q,lang:0}"}.Expand(nil)
	var te *linktemplate.TemplateError
	fmt.Println(errors.As(err, &te), te.Offset)
	fmt.Println(err)
	// Output:
	// true 16
	// linktemplate: template "/search{?q,lang:0}" at offset 16: a prefix modifier's length is a number from 1 to 9999 without leading zero (RFC 6570 §2.4.1), found "0"
}

// An expansion longer than MaxExpansion bytes (here "/" and 64 KiB) is
// refused with an error wrapping ErrTooLong.
func ExampleTemplate_Expand_maxExpansion() {
	_, err := linktemplate.Template{Template: "/{+v}"}.Expand(map[string]any{"v": strings.Repeat("x", linktemplate.MaxExpansion)})
	fmt.Println(errors.Is(err, linktemplate.ErrTooLong))
	// Output: true
}

// A template that would expand past MaxExpansion is refused before
// anything is built; the error wraps ErrTooLong.
func ExampleTemplate_Expand_errTooLong() {
	many := make([]string, 1_000_000)
	for i := range many {
		many[i] = "id"
	}
	_, err := linktemplate.Template{Template: "/items{?id*}"}.Expand(map[string]any{"id": many})
	fmt.Println(err)
	// Output: linktemplate: template "/items{?id*}" at offset 6: the expansion is longer than 65536 bytes (MaxExpansion)
}
