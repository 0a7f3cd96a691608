package discover

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLinksKeepEscapes: resolution never decodes an escaped reserved
// character (rule 32 of package weblink), in the header, the body and a <base>.
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
// kept as written too (rule 32 of package weblink), where net/url writes a%3Db%2Cc
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

// TestBaseKeepsUserinfoEscapes: the user information of a <base href> or
// an xml:base is kept as written too (rule 32 of package weblink) in the links
// resolved against it that have no authority of their own; they got it
// decoded ("a@b:p:q") or re-escaped as net/url writes it.
func TestBaseKeepsUserinfoEscapes(t *testing.T) {
	docURL, _ := url.Parse("http://example.com/d/p")
	for _, base := range []string{"http://a%40b:p%3Aq@h/", "http://a%40b:p%3Aq@h", "//a%40b:p%3Aq@h/", "http://u%21:p!%2a@h/"} {
		prefix := strings.TrimSuffix(base, "/")
		if strings.HasPrefix(prefix, "//") {
			prefix = "http:" + prefix
		}
		query := prefix + "/?q"
		if !strings.HasSuffix(base, "/") {
			query = prefix + "?q" // the base's empty path (RFC 3986 §5.2.2)
		}
		page := `<base href="` + base + `"><link rel="a" href="rel"><link rel="b" href="/abs%2f"><link rel="c" href="?q"><link rel="d" href="../x/./y">`
		links, err := HTML(strings.NewReader(page), docURL)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"a " + prefix + "/rel", "b " + prefix + "/abs%2f", "c " + query, "d " + prefix + "/x/y"}
		if got := summary(links, ""); !cmp.Equal(got, want) {
			t.Errorf("<base href=%q>: links %s\nwant  %s", base, strings.Join(got, ", "), strings.Join(want, ", "))
		}
		feed := `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="` + base + `"><link href="rel"/><link rel="next" href="../x/./y"/></feed>`
		links, err = Feed(strings.NewReader(feed), docURL)
		if err != nil {
			t.Fatal(err)
		}
		want = []string{"alternate " + prefix + "/rel", "next " + prefix + "/x/y"}
		if got := summary(links, ""); !cmp.Equal(got, want) {
			t.Errorf("xml:base=%q: links %s\nwant  %s", base, strings.Join(got, ", "), strings.Join(want, ", "))
		}
	}
}
