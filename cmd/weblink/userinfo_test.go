package main

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/weblinking/weblink/internal/weborigin"
)

// TestNoUserinfo: the command never prints the userinfo of -url or -base
// (a user name is often a token), in any mode or message; the server still
// gets it, as Basic credentials.
func TestNoUserinfo(t *testing.T) {
	var mu sync.Mutex
	var auth []string
	a := &api{pages: 2}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		user, pass, _ := r.BasicAuth()
		auth = append(auth, user+":"+pass)
		mu.Unlock()
		a.ServeHTTP(w, r)
	}))
	defer srv.Close()
	closed := httptest.NewServer(a)
	closed.Close()
	secret := func(u string) string { return strings.Replace(u, "http://", "http://alice:s3cret@", 1) }
	u := secret(srv.URL)
	const base = "http://bob:B4SE@e.x/dir/"
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"-url", u + "/items?page=1"}, exitOK},
		{[]string{"-url", u + "/items?page=1", "-all"}, exitOK},
		{[]string{"-url", u + "/items?page=1", "-json"}, exitOK},
		{[]string{"-url", u + "/items?page=1", "-all", "-json"}, exitOK},
		{[]string{"-url", u + "/items?page=1", "-rel", "next"}, exitOK},
		{[]string{"-url", u + "/items?page=1", "-format"}, exitOK},
		{[]string{"-url", u + "/items?page=1", "-check"}, exitOK},
		{[]string{"-url", u + "/missing"}, exitNone},
		{[]string{"-url", u + "/items?page=1", "-all", "-max-pages", "1"}, exitNone},
		{[]string{"-url", secret(closed.URL) + "/items?page=1"}, exitNone},
		{[]string{"-url", "ftp://alice:s3cret@e.x/"}, exitProblem},
		{[]string{"-url", "http://alice:s3cret@e.x/%zz"}, exitProblem},
		{[]string{"-url", "http://alice:s3cret@/"}, exitProblem},
		{[]string{"-base", "//bob:B4SE@e.x/", "<a>; rel=next"}, exitProblem},
		{[]string{"-base", base, "<a>; rel=next"}, exitOK},
		{[]string{"-base", base, "-json", "<a>; rel=next"}, exitOK},
		{[]string{"-base", base, "-rel", "next", "<a>; rel=next"}, exitOK},
		{[]string{"-base", base, "-format", "<a>; rel=next"}, exitOK},
		{[]string{"-base", base, "-check", "<a>; rel=next; anchor=#x"}, exitOK},
		{[]string{"-base", base, "-check", "<a>; rel=next; type=bogus"}, exitProblem},
	} {
		r := runCmd(t, "", c.args...)
		out := r.stdout + r.stderr
		if r.code != c.code || out == "" {
			t.Errorf("%q: exit %d, want %d; output %q", c.args, r.code, c.code, out)
		}
		for _, s := range []string{"alice", "s3cret", "bob", "B4SE"} {
			if strings.Contains(out, s) {
				t.Errorf("%q: output shows %q:\n%s", c.args, s, out)
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, got := range auth {
		if got != "alice:s3cret" {
			t.Errorf("server got credentials %q, want alice:s3cret", got)
		}
	}
	if len(auth) < 8 {
		t.Errorf("%d requests", len(auth))
	}
}

func TestWithoutUserinfo(t *testing.T) {
	for in, want := range map[string]string{
		"http://alice:s3cret@e.x/p?q#f": "http://e.x/p?q#f",
		"http://tok@e.x":                "http://e.x",
		"//a:b@c@e.x/":                  "//e.x/",
		"http://e.x/@path":              "http://e.x/@path",
		"http://e.x?u=a@b":              "http://e.x?u=a@b",
		"relative@x":                    "x",
		"tok@e.x/p@q":                   "e.x/p@q",
		"http://a:b@[::1":               "http://[::1",
	} {
		if got := withoutUserinfo(in); got != want {
			t.Errorf("withoutUserinfo(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSameOrigin(t *testing.T) {
	o := func(s string) origin {
		u, err := url.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return weborigin.Of(u)
	}
	for _, c := range []struct {
		to, home string
		want     bool
	}{
		{"http://e.x/a", "http://e.x/b", true},
		{"http://E.X:80/a", "http://e.x/b", true},
		{"https://e.x/", "http://e.x/", true}, // the https upgrade
		{"https://e.x:8443/", "http://e.x/", false},
		{"https://e.x/", "http://e.x:8080/", false},
		{"http://e.x/", "https://e.x/", false}, // no downgrade
		{"http://e.x:8080/", "http://e.x/", false},
		{"http://api.e.x/", "http://e.x/", false},
		{"http://e.x.evil/", "http://e.x/", false},
	} {
		if got := sameOrigin(o(c.to), o(c.home)); got != c.want {
			t.Errorf("sameOrigin(%s, %s) = %v, want %v", c.to, c.home, got, c.want)
		}
	}
}

// mustParse parses the URL s.
func mustParse(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
