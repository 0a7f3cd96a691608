package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestNextInBodyPiped: -next -next-in-body reads a body on standard input
// and prints its next link, resolved against -base; none is exit status 1.
func TestNextInBodyPiped(t *testing.T) {
	base := "https://api.example/items?page=1"
	runCmd(t, `{"data": [], "links": {"next": "?page=2"}}`, "-next", "-next-in-body", "/links/next", "-base", base).
		want(t, exitOK, "https://api.example/items?page=2\n")
	runCmd(t, `{"_links": {"next": {"href": "/items?page=3"}}}`, "-next", "-next-in-body", "/_links/next", "-base", base).
		want(t, exitOK, "https://api.example/items?page=3\n")
	runCmd(t, `{"links": {"next": null}}`, "-next", "-next-in-body", "/links/next", "-base", base).want(t, exitNone, "")
	for _, body := range []string{`{"links": {"next": 5}}`, `not JSON`} {
		r := runCmd(t, body, "-next", "-next-in-body", "/links/next", "-base", base)
		checkBodyLinkError(t, r, body)
	}
	r := runCmd(t, `{}`, "-next", "-next-in-body", "links/next", "-base", base)
	if r.code == exitOK || !strings.Contains(r.stderr, `write "/links/next"`) {
		t.Errorf("an invalid pointer: exit %d, stderr %q; want what to write", r.code, r.stderr)
	}
	if r := runCmd(t, `{}`, "-next", "-next-in-body", "/links/next"); r.code != exitProblem {
		t.Errorf("without -base: exit %d, want a usage error", r.code)
	}
}

// TestNextInBodyAll: -url -all -next-in-body follows the body links and
// -json shows them as the pages' next links.
func TestNextInBodyAll(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			t.Errorf("%s request; -next-in-body reads bodies", r.Method)
		}
		switch r.URL.Query().Get("page") {
		case "1":
			fmt.Fprint(w, `{"value": [1], "@odata.nextLink": "?page=2"}`)
		default:
			fmt.Fprint(w, `{"value": [2]}`)
		}
	}))
	defer srv.Close()
	r := runCmd(t, "", "-url", srv.URL+"/users?page=1", "-all", "-next-in-body", "/@odata.nextLink", "-json")
	if r.code != exitOK || !strings.Contains(r.stdout, `"next"`) || !strings.Contains(r.stdout, srv.URL+"/users?page=2") {
		t.Errorf("exit %d, stdout %s, stderr %s; want page 2 as the next link of page 1", r.code, r.stdout, r.stderr)
	}
}

// checkBodyLinkError checks that r, a run on a page whose body has no
// usable next link, printed paging's one error with the reason and ended
// with exit status 3, as -next for a malformed Link header.
func checkBodyLinkError(t *testing.T, r result, what string) {
	t.Helper()
	msg := "weblink: paging: no usable next link in the body of "
	if r.code != exitMalformed || !strings.Contains(r.stderr, msg) || strings.Count(r.stderr, "weblink: ") != 1 {
		t.Errorf("%s: exit %d, stderr %q; want exit %d and one error %q... with the reason", what, r.code, r.stderr, exitMalformed, msg)
	}
	if strings.Contains(what, "5") && !strings.Contains(r.stderr, "the value is number") ||
		strings.Contains(what, "JSON") && !strings.Contains(r.stderr, "invalid character") {
		t.Errorf("%s: stderr %q does not say what is wrong with the body", what, r.stderr)
	}
}

// TestNextInBodyURLError: -url with -next or -all on a page whose body's
// next link is a number prints the page's links as usual, then paging's
// error with the reason, and exits with status 3.
func TestNextInBodyURLError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"value": [1], "@odata.nextLink": 5}`)
	}))
	defer srv.Close()
	for _, mode := range []string{"-next", "-all"} {
		r := runCmd(t, "", "-url", srv.URL+"/users", mode, "-next-in-body", "/@odata.nextLink")
		checkBodyLinkError(t, r, mode+` on {"@odata.nextLink": 5}`)
	}
}

// TestNextInBodyCrossOrigin: -url -all names the body's next link that
// leads to another origin, as it names a header's.
func TestNextInBodyCrossOrigin(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"links": {"next": "https://other.example/users?page=2"}}`)
	}))
	defer srv.Close()
	r := runCmd(t, "", "-url", srv.URL+"/users", "-all", "-next-in-body", "/links/next")
	if want := "links to https://other.example/users?page=2, on another origin"; r.code == exitOK || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stderr %q; want an error saying %q", r.code, r.stderr, want)
	}
}
