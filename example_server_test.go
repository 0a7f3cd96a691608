package weblink_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/textproto"
	"net/url"

	"github.com/weblinking/weblink"
)

func ExampleMiddleware() {
	schema := weblink.Link{Target: "/schema.json", Rel: []string{weblink.RelDescribedBy}}
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Set replaces only what the handler set; the middleware adds its
		// links when the head is written.
		w.Header().Set("Link", `</help>; rel="help"`)
		io.WriteString(w, `{"items": []}`)
	})
	h := weblink.Middleware(schema)(api)

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/items", nil))
	for _, line := range rec.Result().Header["Link"] {
		fmt.Println(line)
	}
	// Output:
	// </help>; rel="help"
	// </schema.json>; rel="describedby"
}

// getWithHints requests url and prints the 103 responses and the final one.
func getWithHints(client *http.Client, url string) {
	trace := &httptrace.ClientTrace{Got1xxResponse: func(code int, h textproto.MIMEHeader) error {
		fmt.Println(code, h)
		return nil
	}}
	req, _ := http.NewRequest("GET", url, nil)
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), trace))
	resp, err := client.Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode, resp.Header["Set-Cookie"], resp.Header["Link"])
}

func ExampleEarlyHints() {
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "id", Value: "1"})
		if r.ProtoAtLeast(1, 1) { // no 1xx responses for HTTP/1.0 clients
			// Only the Link field goes into the 103; the cookie waits for
			// the final response.
			err := weblink.EarlyHints(w, weblink.Link{
				Target: "/style.css", Rel: []string{weblink.RelPreload},
				Params: []weblink.Param{{Name: "as", Value: "style"}},
			})
			if err != nil {
				fmt.Println(err)
			}
		}
		// ... render the page ...
		io.WriteString(w, "<!doctype html>")
	})
	srv := httptest.NewServer(page)
	defer srv.Close()
	getWithHints(srv.Client(), srv.URL)
	// Output:
	// 103 map[Link:[</style.css>; rel="preload"; as=style]]
	// 200 [id=1] []
}

func ExampleEarlyHintsMiddleware() {
	links := []weblink.Link{
		{Target: "/app.css", Rel: []string{weblink.RelPreload}, Params: []weblink.Param{{Name: "as", Value: "style"}}},
		{Target: "https://fonts.example", Rel: []string{weblink.RelPreconnect}},
		{Target: "/about", Rel: []string{"author"}},
	}
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<!doctype html>")
	})
	// Over HTTP/2, as browsers use Early Hints: over HTTP/1.1 the
	// middleware sends no 103 unless told to (see EarlyHintsHTTP1).
	srv := httptest.NewUnstartedServer(weblink.EarlyHintsMiddleware(links...)(page))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	// The 103 holds the preload and preconnect links; the final response
	// has all three.
	getWithHints(srv.Client(), srv.URL)
	// Output:
	// 103 map[Link:[</app.css>; rel="preload"; as=style, <https://fonts.example>; rel="preconnect"]]
	// 200 [] [</app.css>; rel="preload"; as=style, <https://fonts.example>; rel="preconnect", </about>; rel="author"]
}

func ExampleEarlyHintsFunc() {
	// What each page preloads, here a hand-written list. A font needs
	// crossorigin (fonts load in CORS mode), and every hinted resource
	// needs Cache-Control for the browser to use the early response.
	style := func(target string) weblink.Link {
		return weblink.Link{Target: target, Rel: []string{weblink.RelPreload}, Params: []weblink.Param{{Name: "as", Value: "style"}}}
	}
	preloads := map[string]weblink.Links{
		"/": {style("/app.css")},
		"/docs": {
			style("/docs.css"),
			{Target: "/fonts/text.woff2", Rel: []string{weblink.RelPreload}, Type: "font/woff2",
				Params: []weblink.Param{{Name: "as", Value: "font"}, {Name: "crossorigin"}}},
			{Target: "/docs/toc.json", Rel: []string{"index"}}, // not a hint: final response only
		},
	}
	hints := func(r *http.Request) weblink.Links { return preloads[r.URL.Path] }
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<!doctype html>")
	})
	srv := httptest.NewUnstartedServer(weblink.EarlyHintsFunc(hints)(page))
	srv.EnableHTTP2 = true // the 103 goes to HTTP/2 requests
	srv.StartTLS()
	defer srv.Close()
	getWithHints(srv.Client(), srv.URL+"/docs")
	getWithHints(srv.Client(), srv.URL+"/about") // no links: no 103
	// Output:
	// 103 map[Link:[</docs.css>; rel="preload"; as=style, </fonts/text.woff2>; rel="preload"; type="font/woff2"; as=font; crossorigin]]
	// 200 [] [</docs.css>; rel="preload"; as=style, </fonts/text.woff2>; rel="preload"; type="font/woff2"; as=font; crossorigin, </docs/toc.json>; rel="index"]
	// 200 [] []
}

func ExampleEarlyHintsHTTP1() {
	links := []weblink.Link{
		{Target: "/app.css", Rel: []string{weblink.RelPreload}, Params: []weblink.Param{{Name: "as", Value: "style"}}},
	}
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<!doctype html>")
	})
	// A server behind Apache's mod_proxy_http or Caddy, which talk
	// HTTP/1.1 to it and pass a 103 on to the browser. Not behind nginx
	// before 1.29: it takes the 103 for the final response.
	hinted := weblink.EarlyHintsMiddleware(links...)(page)
	behindApache := httptest.NewServer(weblink.EarlyHintsHTTP1(hinted))
	defer behindApache.Close()
	behindNginx := httptest.NewServer(hinted)
	defer behindNginx.Close()

	getWithHints(behindApache.Client(), behindApache.URL) // HTTP/1.1, with a 103
	getWithHints(behindNginx.Client(), behindNginx.URL)   // HTTP/1.1, no 103
	// Output:
	// 103 map[Link:[</app.css>; rel="preload"; as=style]]
	// 200 [] [</app.css>; rel="preload"; as=style]
	// 200 [] [</app.css>; rel="preload"; as=style]
}

func ExamplePageLinks() {
	u, _ := url.Parse("https://api.example/items?sort=name&page=2&tag=a&tag=b#results")
	for _, l := range weblink.PageLinks(u, "page", 2, 4) {
		fmt.Println(l)
	}

	// A server's r.URL is relative, and so are the links.
	h := http.Header{}
	r := httptest.NewRequest("GET", "/items?page=4", nil)
	weblink.Add(h, weblink.PageLinks(r.URL, "page", 4, 4)...)
	fmt.Println(h.Get("Link"))

	fmt.Println(weblink.PageLinks(u, "page", 5, 4) == nil)
	// Output:
	// <https://api.example/items?sort=name&page=1&tag=a&tag=b>; rel="first"
	// <https://api.example/items?sort=name&page=1&tag=a&tag=b>; rel="prev"
	// <https://api.example/items?sort=name&page=3&tag=a&tag=b>; rel="next"
	// <https://api.example/items?sort=name&page=4&tag=a&tag=b>; rel="last"
	// </items?page=1>; rel="first", </items?page=3>; rel="prev", </items?page=4>; rel="last"
	// true
}

func ExampleMaxLinkBytes() {
	// Many preloads: more than a proxy's buffer holds in a real site.
	var links []weblink.Link
	for _, js := range []string{"/app.js", "/vendor.js", "/chunk-1.js", "/chunk-2.js"} {
		links = append(links, weblink.Link{Target: js, Rel: []string{weblink.RelModulePreload}})
	}
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<!doctype html>")
	})
	logDropped := func(r *http.Request, dropped weblink.Links) {
		fmt.Printf("%s: %d links left out: %s\n", r.URL.Path, len(dropped), dropped)
	}
	// Outermost, so that it sees every link the inner middleware adds (use
	// 3500 for nginx's default 4 KiB buffer; 80 here to show the cut).
	h := weblink.MaxLinkBytes(80, logDropped)(weblink.EarlyHintsMiddleware(links...)(page))

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	fmt.Println(rec.Result().Header["Link"])
	// Output:
	// /: 2 links left out: </chunk-1.js>; rel="modulepreload", </chunk-2.js>; rel="modulepreload"
	// [</app.js>; rel="modulepreload", </vendor.js>; rel="modulepreload"]
}
