package weblink_test

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/weblinking/weblink"
)

// Example reads the pagination links of a response, as a client of the
// GitHub API gets them, and writes links for a response of its own.
func Example() {
	// Reading: parse the Link header and resolve it against the request URL.
	req, _ := http.NewRequest(http.MethodGet, "https://api.example/v1/issues?page=3", nil)
	resp := &http.Response{Request: req, Header: http.Header{}}
	resp.Header.Set("Link", `<?page=4>; rel="next", <?page=9>; REL="last", <?page=2>; rel=prev; title*=UTF-8'de'zur%C3%BCck`)
	links, err := weblink.ParseResponse(resp)
	if err != nil {
		fmt.Println(err)
	}
	if next, ok := links.Rel(weblink.RelNext); ok {
		fmt.Println("next:", next.Target)
	}
	if prev, ok := links.Rel("Prev"); ok { // relation types compare case-insensitively
		fmt.Printf("prev: %s (%s: %s)\n", prev.Target, prev.TitleLang, prev.Title)
	}

	// Writing: whatever a Link holds, the header value is safe ASCII.
	h := http.Header{}
	u, _ := url.Parse("/v1/issues?page=3")
	weblink.Add(h, weblink.Link{Target: "/docs/ü", Rel: []string{"help"}, Title: "Hilfe & Übersicht"})
	weblink.Add(h, weblink.PageLinks(u, "page", 3, 9)...)
	for _, line := range h["Link"] {
		fmt.Println(line)
	}
	// Output:
	// next: https://api.example/v1/issues?page=4
	// prev: https://api.example/v1/issues?page=2 (de: zurück)
	// </docs/%C3%BC>; rel="help"; title*=UTF-8''Hilfe%20&%20%C3%9Cbersicht
	// </v1/issues?page=1>; rel="first", </v1/issues?page=2>; rel="prev", </v1/issues?page=4>; rel="next", </v1/issues?page=9>; rel="last"
}
