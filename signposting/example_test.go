package signposting_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/signposting"
)

// publish serves a record the way the profile wants it at Level 2: the
// landing page, its file and its metadata each with their Level 1 links
// (weblink.Middleware), and one linkset with the links of all three, each
// with an absolute anchor (weblink.LinksetHandler). It returns the
// landing page's URL.
func publish() (string, func()) {
	srv := httptest.NewServer(nil)
	base := srv.URL
	page, file, meta, set := base+"/records/1", base+"/records/1/files/data.csv", base+"/api/records/1", base+"/api/records/1/linkset"
	landing := weblink.Links{
		{Target: "https://doi.org/10.5281/zenodo.1", Rel: []string{"cite-as"}},
		{Target: meta, Rel: []string{"describedby"}, Type: "application/ld+json"},
		{Target: file, Rel: []string{"item"}, Type: "text/csv"},
		{Target: "https://spdx.org/licenses/CC-BY-4.0", Rel: []string{"license"}},
		{Target: "https://schema.org/Dataset", Rel: []string{"type"}},
		{Target: "https://schema.org/AboutPage", Rel: []string{"type"}},
		{Target: "https://orcid.org/0000-0002-1825-0097", Rel: []string{"author"}},
	}
	toLinkset := weblink.Link{Target: set, Rel: []string{"linkset"}, Type: weblink.LinksetJSONType}
	collection := weblink.Link{Target: page, Rel: []string{"collection"}, Type: "text/html"}
	describes := weblink.Link{Target: page, Rel: []string{"describes"}, Type: "text/html"}

	// The linkset: every link with its context as an absolute anchor.
	var linkset weblink.Links
	for _, l := range landing {
		l.Anchor = page
		linkset = append(linkset, l)
	}
	collection.Anchor, describes.Anchor = file, meta
	linkset = append(linkset, collection, describes)
	collection.Anchor, describes.Anchor = "", ""

	body := func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "<!doctype html><title>Record 1</title>")
	}
	mux := http.NewServeMux()
	mux.Handle("/records/1", weblink.Middleware(append(landing, toLinkset)...)(http.HandlerFunc(body)))
	mux.Handle("/records/1/files/data.csv", weblink.Middleware(collection, toLinkset)(http.HandlerFunc(body)))
	mux.Handle("/api/records/1", weblink.Middleware(describes, toLinkset)(http.HandlerFunc(body)))
	mux.Handle("/api/records/1/linkset", weblink.LinksetHandler(linkset))
	srv.Config.Handler = mux
	return page, srv.Close
}

// A repository publishes Level 1 and Level 2 with weblink's Middleware and
// LinksetHandler, and Fetch and Check confirm it.
func Example() {
	page, stop := publish()
	defer stop()
	req, _ := http.NewRequest(http.MethodGet, page, nil)
	s, err := signposting.Fetch(context.Background(), nil, req)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("level", s.Level(), "problems", len(s.Check()))
	fmt.Println("cite as", s.CiteAs[0].Target)
	fmt.Println("Level 2 links", len(s.Level2))
	// Output:
	// level 2 problems 0
	// cite as https://doi.org/10.5281/zenodo.1
	// Level 2 links 9
}

// Fetch reads a landing page's signposts; a file of the record is a
// content resource, with one collection link.
func ExampleFetch() {
	page, stop := publish()
	defer stop()
	req, _ := http.NewRequest(http.MethodGet, page+"/files/data.csv", nil)
	s, err := signposting.Fetch(context.Background(), nil, req)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.StatusCode, s.Collections[0].Target == page, s.Level())
	// Output: 200 true 2
}

// Fetch reads a metadata record's signposts: its Level 1 links are one
// describes link to the landing page and the linkset, and the linkset
// gives its describes link at Level 2 too.
func ExampleFetch_metadata() {
	page, stop := publish()
	defer stop()
	req, _ := http.NewRequest(http.MethodGet, strings.Replace(page, "/records/", "/api/records/", 1), nil)
	s, err := signposting.Fetch(context.Background(), nil, req)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.StatusCode, len(s.Describes), s.Describes[0].Target == page, s.Describes[0].Type)
	fmt.Println(len(s.Linksets), s.Linksets[0].Type)
	fmt.Println("level", s.Level(), "problems", len(s.Check()))
	// Output:
	// 200 1 true text/html
	// 1 application/linkset+json
	// level 2 problems 0
}

// FromLinks reads Level 1 from links you already have, such as a Link
// header.
func ExampleFromLinks() {
	links, _ := weblink.Parse(`<https://doi.org/10.5061/dryad.1>; rel="cite-as", </meta.xml>; rel="describedby"; type="application/xml"`)
	s := signposting.FromLinks("https://repo.example/record/1", links)
	fmt.Println(s.CiteAs[0].Target)
	fmt.Println(s.DescribedBy[0].Target)
	// Output:
	// https://doi.org/10.5061/dryad.1
	// https://repo.example/meta.xml
}

// Check lists the problems, each with the level it breaks and the link at
// fault.
func ExampleSignposts_Check() {
	links, _ := weblink.Parse(`<https://doi.org/10.5061/dryad.1>; rel="cite-as", <https://repo.example/data>; rel="item"; type="csv"`)
	s := signposting.FromLinks("https://repo.example/record/1", links)
	for _, p := range s.Check() {
		fmt.Println(p.Level, p.Warning, p.Msg)
	}
	// Output:
	// 1 false type="csv" is not a media type: write type/subtype, such as "text/csv" (rule 10)
	// 1 false no describedby link: a landing page links to at least one metadata record, with its type (rule 3)
	// 1 false no type link: a landing page has one or two, such as <https://schema.org/Dataset> and <https://schema.org/AboutPage> (rule 6)
	// 2 false no rel="linkset" link: Level 2 needs a linkset with the signposts of the landing page, its files and its metadata (rule 17)
}

// Level says which level of the profile holds: FromLinks reads no
// linkset, so at most Level 1.
func ExampleSignposts_Level() {
	links, _ := weblink.Parse(`<https://doi.org/10.5061/dryad.1>; rel="cite-as", <https://repo.example/m.xml>; rel="describedby"; type="application/xml", <https://schema.org/Dataset>; rel="type"`)
	fmt.Println(signposting.FromLinks("https://repo.example/record/1", links).Level())
	// Output: 1
}

// The relation fields hold the Level 1 signposts, each link once.
func ExampleSignposts() {
	links, _ := weblink.Parse(`<https://orcid.org/0000-0002-1825-0097>; rel="author", <https://ror.org/008pnp284>; rel="author"`)
	s := signposting.FromLinks("https://repo.example/record/1", links)
	for _, a := range s.Authors {
		fmt.Println(a.Target)
	}
	// Output:
	// https://orcid.org/0000-0002-1825-0097
	// https://ror.org/008pnp284
}

// A Problem names the link at fault; Link is nil for a link that is
// missing.
func ExampleProblem() {
	links, _ := weblink.Parse(`<https://doi.org/10.1/a>; rel="cite-as", <https://doi.org/10.1/b>; rel="cite-as"`)
	for _, p := range signposting.FromLinks("https://repo.example/record/1", links).Check() {
		if p.Link != nil {
			fmt.Println(p.Link.Target, p.Msg)
		}
	}
	// Output: https://doi.org/10.1/b more than one cite-as link: a landing page has exactly one persistent identifier (rule 1)
}
