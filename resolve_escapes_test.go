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

// checkResolved checks that the next link <ref> resolves against base to
// want through Links.Resolve and ParseResponse, and returns the response
// it gave ParseResponse.
func checkResolved(t *testing.T, base *url.URL, ref, want string) *http.Response {
	t.Helper()
	field := "<" + ref + `>; rel="next"`
	links, err := weblink.Parse(field)
	if err != nil || len(links) != 1 {
		t.Fatalf("Parse(%q) = %v, %v", field, links, err)
	}
	if got := links.Resolve(base)[0].Target; got != want {
		t.Errorf("Resolve: %s -> %s, want %s", ref, got, want)
	}
	resp := &http.Response{Header: http.Header{"Link": {field}}, Request: &http.Request{URL: base}}
	if got, err := weblink.ParseResponse(resp); err != nil || got[0].Target != want {
		t.Errorf("ParseResponse: %s -> %v, %v; want %s", ref, got, err, want)
	}
	return resp
}

// TestResolveKeepsEscapes checks rule 32 through Links.Resolve,
// ParseResponse and NextURL.
func TestResolveKeepsEscapes(t *testing.T) {
	base, _ := url.Parse("http://x/d/p")
	for _, tc := range escapeShapes {
		resp := checkResolved(t, base, tc.ref, tc.want)
		if u, ok := weblink.NextURL(resp); !ok || u.String() != tc.want {
			t.Errorf("NextURL: %s -> %v, %v; want %s", tc.ref, u, ok, tc.want)
		}
	}
}

// TestResolveKeepsUserinfoEscapes checks rule 32 on the user information
// of a reference: net/url decodes it (a%3Db%2Cc is the user name "a=b,c")
// and writes it back with only ":", "@", "/" and "?" escaped, so alone it
// resolves <//a%3Db%2Cc@h/x> to http://a=b,c@h/x. Links.Resolve and
// ParseResponse keep it as written; NextURL's URL holds it decoded, as a
// url.URL holds user information, and net/http sends that as the user name.
func TestResolveKeepsUserinfoEscapes(t *testing.T) {
	base, _ := url.Parse("http://x/d/p")
	for _, tc := range []struct{ ref, want, user, password string }{
		{"//a%3Db%2Cc@h/x", "http://a%3Db%2Cc@h/x", "a=b,c", ""},
		{"https://u:p%40ss%3a@h/", "https://u:p%40ss%3a@h/", "u", "p@ss:"},
		{"http://u!:p*w@h/", "http://u!:p*w@h/", "u!", "p*w"},
		{"http://u:p:q@h/", "http://u:p:q@h/", "u", "p:q"},
		{"http://u:p@ss@h/", "http://u:p%40ss@h/", "u", "p@ss"}, // "@" is no userinfo byte (RFC 3986 §3.2.1)
		{"//%41@h/%2f\u00e4", "http://%41@h/%2f%C3%A4", "A", ""},
	} {
		resp := checkResolved(t, base, tc.ref, tc.want)
		u, ok := weblink.NextURL(resp)
		if !ok || u.User == nil {
			t.Errorf("NextURL: %s -> %v, %v; want user %q", tc.ref, u, ok, tc.user)
			continue
		}
		if p, _ := u.User.Password(); u.User.Username() != tc.user || p != tc.password {
			t.Errorf("NextURL: %s -> user %q, password %q; want %q, %q", tc.ref, u.User.Username(), p, tc.user, tc.password)
		}
	}
}
