package discover_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/textproto"
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/discover"
	"github.com/weblinking/weblink/paging"
)

// Webmention endpoint discovery (W3C Webmention §3.1.2): the first
// webmention link of the Link header, else of the first <link> or <a>
// element in document order, resolved against the page's URL.
func ExampleLinks() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><title>Post</title>
<!-- <link rel="webmention" href="/not-this"> -->
<p>Reply by <a rel="webmention" href="mentions?post=1">webmention</a>.
<link rel="webmention" href="/too-late">`)
	}))
	defer srv.Close()

	req, _ := http.NewRequest("GET", srv.URL+"/2026/12/post", nil)
	links, err := discover.Links(context.Background(), nil, req, discover.Hyperlinks())
	if err != nil {
		fmt.Println(err)
		return
	}
	if endpoint, ok := links.Rel("webmention"); ok {
		fmt.Println(strings.TrimPrefix(endpoint.Target, srv.URL))
	}
	// Output:
	// /2026/12/mentions?post=1
}

// WebSub hub discovery (W3C WebSub §4): the hub and self links of the Link
// header come first, then those of the feed, here an RSS channel served as
// text/xml.
func ExampleLinks_webSub() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/xml")
		w.Header().Add("Link", `<https://hub.example/>; rel="hub"`)
		io.WriteString(w, `<?xml version="1.0"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>
<title>Example</title><link>https://blog.example/</link>
<atom:link rel="hub" href="https://other-hub.example/"/>
<atom:link rel="self" href="https://blog.example/feed.xml"/>
<item><link>https://blog.example/post</link></item>
</channel></rss>`)
	}))
	defer srv.Close()

	req, _ := http.NewRequest("GET", srv.URL+"/feed.xml", nil)
	links, err := discover.Links(context.Background(), nil, req)
	if err != nil {
		fmt.Println(err)
		return
	}
	hub, _ := links.Rel("hub")
	self, _ := links.Rel("self")
	fmt.Println("hub: ", hub.Target)
	fmt.Println("self:", self.Target)
	fmt.Println("every hub:", len(links.AllRel("hub")))
	// Output:
	// hub:  https://hub.example/
	// self: https://blog.example/feed.xml
	// every hub: 2
}

// FAIR Signposting: a landing page points to its persistent identifier
// (cite-as) and metadata (describedby) in the header, in HTML, or in a
// linkset that FollowLinksets fetches.
func ExampleFollowLinksets() {
	mux := http.NewServeMux()
	mux.HandleFunc("/record/42", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Link", `</signposting/42>; rel="linkset"; type="application/linkset+json"`)
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<link rel="cite-as" href="https://doi.org/10.5555/42">`)
	})
	mux.Handle("/signposting/42", weblink.LinksetHandler(weblink.Links{
		{Anchor: "/record/42", Target: "/record/42/meta.xml", Rel: []string{"describedby"}, Type: "application/vnd.datacite.datacite+xml"},
		{Anchor: "/record/42", Target: "/record/42/data.csv", Rel: []string{"item"}, Type: "text/csv"},
	}))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	req, _ := http.NewRequest("GET", srv.URL+"/record/42", nil)
	links, err := discover.Links(context.Background(), nil, req, discover.FollowLinksets())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, rel := range []string{"cite-as", "describedby", "item"} {
		if l, ok := links.Rel(rel); ok {
			context := "the page" // an empty Anchor: the resource fetched
			if l.Anchor != "" {
				context = strings.TrimPrefix(l.Anchor, srv.URL)
			}
			fmt.Printf("%s: %s %q of %s\n", rel, strings.TrimPrefix(l.Target, srv.URL), l.Type, context)
		}
	}
	// Output:
	// cite-as: https://doi.org/10.5555/42 "" of the page
	// describedby: /record/42/meta.xml "application/vnd.datacite.datacite+xml" of /record/42
	// item: /record/42/data.csv "text/csv" of /record/42
}

// The links of a built index.html (as a bundler writes it) become the
// Early Hints of the server that serves it: stylesheets turn into
// preloads as=style, module preloads and preloads stay as they are.
func ExampleHTML() {
	const indexHTML = `<!doctype html><html><head>
<meta charset="UTF-8"><title>App</title>
<script type="module" crossorigin src="/assets/index-Dk3s9.js"></script>
<link rel="modulepreload" crossorigin href="/assets/vendor-B7x2q.js">
<link rel="stylesheet" crossorigin href="/assets/index-C4f8a.css">
<link rel="preload" href="/assets/inter.woff2" as="font" type="font/woff2" crossorigin>
<link rel="icon" href="/favicon.svg">
</head><body><div id="app"></div></body></html>`
	links, err := discover.HTML(strings.NewReader(indexHTML), nil) // nil: keep the paths as written
	if err != nil {
		fmt.Println(err)
		return
	}
	var hints weblink.Links
	for _, l := range links {
		switch {
		case l.HasRel(weblink.RelStylesheet):
			hints = append(hints, weblink.Link{Target: l.Target, Rel: []string{weblink.RelPreload},
				Params: append([]weblink.Param{{Name: "as", Value: "style"}}, l.Params...)})
		case l.HasRel(weblink.RelPreload), l.HasRel(weblink.RelModulePreload):
			hints = append(hints, l)
		}
	}
	app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, indexHTML) })
	// Over HTTP/2, where the middleware sends its 103 (rule 25 of package weblink).
	srv := httptest.NewUnstartedServer(weblink.EarlyHintsMiddleware(hints...)(app))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()

	trace := &httptrace.ClientTrace{Got1xxResponse: func(code int, h textproto.MIMEHeader) error {
		fmt.Println(code)
		for _, l := range h["Link"] {
			fmt.Println(strings.ReplaceAll(l, ", <", ",\n<"))
		}
		return nil
	}}
	req, _ := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace), "GET", srv.URL, nil)
	resp, err := srv.Client().Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode)
	// Output:
	// 103
	// </assets/vendor-B7x2q.js>; rel="modulepreload"; crossorigin,
	// </assets/index-C4f8a.css>; rel="preload"; as=style; crossorigin,
	// </assets/inter.woff2>; rel="preload"; type="font/woff2"; as=font; crossorigin
	// 200
}

// Feed returns the feed-level links of an Atom feed, not those of its
// entries, resolved against xml:base.
func ExampleFeed() {
	const atom = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://blog.example/">
  <title>Example</title>
  <link href="/"/>
  <link rel="self" type="application/atom+xml" href="feed.atom"/>
  <link rel="hub" href="https://hub.example/"/>
  <link rel="next" href="feed.atom?page=2"/>
  <entry><title>Post</title><link href="/post"/></entry>
</feed>`
	base, _ := url.Parse("https://blog.example/feed.atom")
	links, err := discover.Feed(strings.NewReader(atom), base)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range links {
		fmt.Println(l)
	}
	// Output:
	// <https://blog.example/>; rel="alternate"
	// <https://blog.example/feed.atom>; rel="self"; type="application/atom+xml"
	// <https://hub.example/>; rel="hub"
	// <https://blog.example/feed.atom?page=2>; rel="next"
}

// Hyperlinks adds <a> and <area> elements to the <link> elements: rel="me"
// and rel="license" are mostly written on <a>.
func ExampleHyperlinks() {
	const page = `<link rel="canonical" href="/about">
<footer><a rel="me" href="https://social.example/@me">Social</a>
<a href="/contact">Contact</a> <a rel="license" href="https://creativecommons.org/licenses/by/4.0/">CC BY</a></footer>`
	base, _ := url.Parse("https://me.example/about?ref=x")
	links, _ := discover.HTML(strings.NewReader(page), base)
	fmt.Println(len(links), "without Hyperlinks")
	links, _ = discover.HTML(strings.NewReader(page), base, discover.Hyperlinks())
	for _, l := range links {
		fmt.Println(l.Rel, l.Target)
	}
	// Output:
	// 1 without Hyperlinks
	// [canonical] https://me.example/about
	// [me] https://social.example/@me
	// [license] https://creativecommons.org/licenses/by/4.0/
}

// MaxBytes bounds what a server can make Links read; a longer body gives
// the links found so far and ErrTruncated.
func ExampleMaxBytes() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<link rel="icon" href="/favicon.ico">`)
		io.WriteString(w, strings.Repeat("<p>padding</p>", 10_000))
		io.WriteString(w, `<link rel="stylesheet" href="/late.css">`)
	}))
	defer srv.Close()

	req, _ := http.NewRequest("GET", srv.URL, nil)
	links, err := discover.Links(context.Background(), nil, req, discover.MaxBytes(64<<10))
	fmt.Println(len(links), "link:", strings.TrimPrefix(links[0].Target, srv.URL))
	fmt.Println(errors.Is(err, discover.ErrTruncated))
	// Output:
	// 1 link: /favicon.ico
	// true
}

// Options combine: a crawler that wants every link of a page, at most
// 256 KiB of it, keeps them in one slice for its calls of HTML and Links.
func ExampleOption() {
	opts := []discover.Option{discover.Hyperlinks(), discover.MaxBytes(256 << 10)}
	page := `<link rel="canonical" href="/a"><a rel="next" href="/a?page=2">next</a>`
	base, _ := url.Parse("https://example.com/a")
	links, err := discover.HTML(strings.NewReader(page), base, opts...)
	fmt.Println(links, err)
	// Output:
	// <https://example.com/a>; rel="canonical", <https://example.com/a?page=2>; rel="next" <nil>
}

// ErrTruncated says that a document was longer than MaxBytes: the links
// returned are those of the part that was read.
func ExampleHTML_errTruncated() {
	page := `<link rel="icon" href="/favicon.ico">` + strings.Repeat(" ", 1000) + `<link rel="manifest" href="/app.webmanifest">`
	links, err := discover.HTML(strings.NewReader(page), nil, discover.MaxBytes(512))
	if errors.Is(err, discover.ErrTruncated) {
		fmt.Println("cut:", err)
	}
	fmt.Println(links)
	// Output:
	// cut: discover: body cut at MaxBytes: read the first 512 bytes of the HTML document, which is longer; links after them are missing
	// </favicon.ico>; rel="icon"
}

// A linkset that answers 500 is that linkset's problem, a *FollowError;
// the resource itself answered 200, and its links and the other linkset's
// are there. FollowLinksets fetches at most 16 linksets: more would be
// reported with ErrLinksetLimit.
func ExampleFollowError() {
	mux := http.NewServeMux()
	mux.HandleFunc("/record", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Link", `</broken>; rel="linkset"`)
		w.Header().Add("Link", `</ls>; rel="linkset"`)
	})
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "oops", http.StatusInternalServerError)
	})
	mux.HandleFunc("/ls", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/linkset")
		io.WriteString(w, `<https://doi.example/42>; rel="cite-as"; anchor="/record"`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	req, _ := http.NewRequest("GET", srv.URL+"/record", nil)
	links, err := discover.Links(context.Background(), nil, req, discover.FollowLinksets())
	fmt.Println(len(links), "links")
	var le *discover.FollowError
	var status *paging.StatusError
	if errors.As(err, &le) && errors.As(le, &status) {
		fmt.Println(strings.TrimPrefix(le.URL, srv.URL), "answered", status.StatusCode)
	}
	fmt.Println("limit reached:", errors.Is(err, discover.ErrLinksetLimit))
	// Output:
	// 3 links
	// /broken answered 500
	// limit reached: false
}

// A page that lists more linksets than FollowLinksets fetches (16): the
// links of the first 16 are there, and the error wraps ErrLinksetLimit,
// saying how many were left out and from which on.
func ExampleFollowLinksets_limit() {
	mux := http.NewServeMux()
	mux.HandleFunc("/record", func(w http.ResponseWriter, r *http.Request) {
		for i := range 20 {
			w.Header().Add("Link", fmt.Sprintf(`</ls/%d>; rel="linkset"`, i))
		}
	})
	var requested atomic.Int32 // each request is served on its own goroutine
	mux.HandleFunc("/ls/", func(w http.ResponseWriter, r *http.Request) {
		requested.Add(1)
		w.Header().Set("Content-Type", "application/linkset")
		fmt.Fprintf(w, `<https://doi.example/42>; rel="cite-as"; anchor="%s"`, r.URL.Path)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	req, _ := http.NewRequest("GET", srv.URL+"/record", nil)
	links, err := discover.Links(context.Background(), nil, req, discover.FollowLinksets())
	fmt.Println(requested.Load(), "linksets requested,", len(links.AllRel("cite-as")), "cite-as links")
	if errors.Is(err, discover.ErrLinksetLimit) {
		fmt.Println(strings.ReplaceAll(err.Error(), srv.URL, ""))
	}
	// Output:
	// 16 linksets requested, 16 cite-as links
	// discover: linkset limit reached: 4 linksets not followed, from "/ls/16" on: 16 were fetched, the most FollowLinksets fetches
}
