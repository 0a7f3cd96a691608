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
	r := runCmd(t, `{"links": {"next": 5}}`, "-next", "-next-in-body", "/links/next", "-base", base)
	if r.code == exitOK || !strings.Contains(r.stderr, "number") {
		t.Errorf("a number: exit %d, stderr %q; want an error that says so", r.code, r.stderr)
	}
	r = runCmd(t, `{}`, "-next", "-next-in-body", "links/next", "-base", base)
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
