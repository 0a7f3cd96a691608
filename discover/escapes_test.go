package discover

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLinksKeepEscapes: resolution never decodes an escaped reserved
// character (weblink's rule 32), in the header, the body and a <base>.
func TestLinksKeepEscapes(t *testing.T) {
	srv := httptest.NewServer(respond(200, "text/html; charset=utf-8",
		`<link rel="a" href="a%2fb/ä"><base href="/b%2fc/ä/"><link rel="b" href="x%3Fy"><link rel="c" href="../ä%2f..%2f/">`,
		`</h%2fi/ä>; rel="h"`))
	defer srv.Close()
	links, err := get(t, srv.URL+"/d/p")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"h /h%2fi/%C3%A4", "a /b%2fc/%C3%A4/a%2fb/%C3%A4", "b /b%2fc/%C3%A4/x%3Fy", "c /b%2fc/%C3%A4%2f..%2f/"}
	if got := summary(links, srv.URL); !cmp.Equal(got, want) {
		t.Errorf("links %s\nwant  %s", strings.Join(got, ", "), strings.Join(want, ", "))
	}
}

// TestLinksKeepUserinfoEscapes: the user information of a reference is
// kept as written too (weblink's rule 32), where net/url writes a%3Db%2Cc
// back as a=b,c and "!" as %21, in the header and the body.
func TestLinksKeepUserinfoEscapes(t *testing.T) {
	srv := httptest.NewServer(respond(200, "text/html; charset=utf-8",
		`<link rel="b" href="//u!:p%2a@h3/%2f">`,
		`<//a%3Db%2Cc@h2/x>; rel="h"`))
	defer srv.Close()
	links, err := get(t, srv.URL+"/d/p")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"h http://a%3Db%2Cc@h2/x", "b http://u!:p%2a@h3/%2f"}
	if got := summary(links, srv.URL); !cmp.Equal(got, want) {
		t.Errorf("links %s\nwant  %s", strings.Join(got, ", "), strings.Join(want, ", "))
	}
}
