package weblink_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/weblinking/weblink"
)

// escapeShapes are references that mix an escaped reserved character with
// bytes a URI cannot hold as they are, and what they resolve to against
// http://x/d/p (rule 32): net/url drops what it parsed of the path as
// written when the path is not plain ASCII, and writes %2f back as "/".
var escapeShapes = []struct{ ref, want string }{
	{"http://x/a%2fb/\u00e4", "http://x/a%2fb/%C3%A4"},
	{"http://x/a%2Fb/c", "http://x/a%2Fb/c"},
	{"a%2fb/\u00e4", "http://x/d/a%2fb/%C3%A4"},
	{"/a%3Fb%23c/\u00e4?q=\u00e4", "http://x/a%3Fb%23c/%C3%A4?q=%C3%A4"},
	{"/a%2fb/c%20d e", "http://x/a%2fb/c%20d%20e"},
	{"/a%2fb/x{y}", "http://x/a%2fb/x%7By%7D"},
	{"#s%2f\u00e4", "http://x/d/p#s%2f%C3%A4"},
	{"../a%2f..%2f/\u00e4", "http://x/a%2f..%2f/%C3%A4"},
}

// TestResolveKeepsEscapes checks rule 32 through Links.Resolve,
// ParseResponse and NextURL.
func TestResolveKeepsEscapes(t *testing.T) {
	base, _ := url.Parse("http://x/d/p")
	for _, tc := range escapeShapes {
		field := "<" + tc.ref + `>; rel="next"`
		links, err := weblink.Parse(field)
		if err != nil || len(links) != 1 {
			t.Fatalf("Parse(%q) = %v, %v", field, links, err)
		}
		if got := links.Resolve(base)[0].Target; got != tc.want {
			t.Errorf("Resolve: %s -> %s, want %s", tc.ref, got, tc.want)
		}
		resp := &http.Response{Header: http.Header{"Link": {field}}, Request: &http.Request{URL: base}}
		if got, err := weblink.ParseResponse(resp); err != nil || got[0].Target != tc.want {
			t.Errorf("ParseResponse: %s -> %v, %v; want %s", tc.ref, got, err, tc.want)
		}
		if u, ok := weblink.NextURL(resp); !ok || u.String() != tc.want {
			t.Errorf("NextURL: %s -> %v, %v; want %s", tc.ref, u, ok, tc.want)
		}
	}
}
