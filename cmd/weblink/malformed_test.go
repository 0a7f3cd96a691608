package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestMalformedExitStatus: the table, -rel and -format exit with status 3
// when a link-value (or a parameter, a Link-Template field, a linkset) was
// dropped as malformed, after printing what could be read; -next exits 3
// only when the final head is malformed and has no usable next link. Before,
// every one of these exited 0, or 1 for -next, as on a last page.
func TestMalformedExitStatus(t *testing.T) {
	const broken = `<http://x/a>; rel="alternate", "bad"`
	const dropped = `weblink: argument 1, byte 31: link-value must start with "<" (expected <URI-Reference>; params...); link-value dropped` + "\n"
	for _, c := range []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout string
		stderr string
	}{
		{"table", []string{broken}, "", exitMalformed, "REL        TARGET\nalternate  http://x/a\n", dropped},
		{"-rel", []string{"-rel", "alternate", broken}, "", exitMalformed, "http://x/a\n", dropped},
		{"-rel matching nothing", []string{"-rel", "next", broken}, "", exitMalformed, "",
			dropped + "weblink: no link has relation type \"next\"\n"},
		{"-format", []string{"-format", broken}, "", exitMalformed, "<http://x/a>; rel=\"alternate\"\n", dropped},
		{"table, nothing readable", []string{`<http://x/a`}, "", exitMalformed, "",
			"weblink: argument 1, byte 0: \"<\" is never closed by \">\"; link-value dropped\nweblink: no links found\n"},
		{"a parameter dropped", []string{"-format", `<http://x/a>; rel=next; title*=nope`}, "", exitMalformed, "<http://x/a>; rel=\"next\"\n", ""},
		{"a 103's dropped link-value", []string{"-rel", "next"},
			"HTTP/1.1 103 Early Hints\r\nLink: bad\r\n\r\nHTTP/1.1 200 OK\r\nLink: </2>; rel=next\r\n\r\n", exitMalformed, "/2\n", ""},
		{"an invalid linkset document", []string{}, `{"linkset": 1}`, exitMalformed, "", ""},
		{"an ignored Link-Template field", []string{}, "Link-Template: \"/{x}\"; rel=1\r\n\r\n", exitMalformed, "", ""},

		{"-next: malformed, no next link", []string{"-next", "-base", "http://x/", broken}, "", exitMalformed, "",
			dropped + "weblink: no usable next link: the Link header is malformed (the broken part may be the next link)\n"},
		{"-next: a next link beside a dropped one", []string{"-next", "-base", "http://x/", `<http://x/2>; rel=next, "bad"`}, "", exitOK, "http://x/2\n", ""},
		{"-next: a 103 malformed, no next link", []string{"-next", "-base", "http://x/"},
			"HTTP/1.1 103 Early Hints\r\nLink: bad\r\n\r\nHTTP/1.1 200 OK\r\nLink: </1>; rel=prev\r\n\r\n", exitNone, "", ""},
		{"-next: no next link, nothing malformed", []string{"-next", `</1>; rel=prev`}, "", exitNone, "", ""},

		// Well-formed input keeps its statuses.
		{"table, well-formed", []string{`<http://x/a>; rel=next`}, "", exitOK, "REL   TARGET\nnext  http://x/a\n", ""},
		{"-rel matching nothing, well-formed", []string{"-rel", "prev", `<http://x/a>; rel=next`}, "", exitNone, "", "weblink: no link has relation type \"prev\"\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runBinary(t, c.stdin, c.args...)
			if r.code != c.code || r.stdout != c.stdout {
				t.Errorf("exit %d, stdout %q; want %d, %q (stderr %q)", r.code, r.stdout, c.code, c.stdout, r.stderr)
			}
			if c.stderr != "" && r.stderr != c.stderr {
				t.Errorf("stderr\n%s\nwant\n%s", r.stderr, c.stderr)
			}
			if c.code == exitMalformed && r.stderr == "" {
				t.Error("exit 3 without a message")
			}
		})
	}
}

// TestMalformedExitStatusURL: the statuses of -url are those of the same
// head piped in, and -all exits 3 when some page dropped a link-value.
func TestMalformedExitStatusURL(t *testing.T) {
	u := serveFunc(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/broken":
			w.Header().Set("Link", `</2>; rel=next, "bad"`)
		case "/2":
			w.Header().Set("Link", `</1>; rel=prev, "bad"`)
		case "/last":
			w.Header().Set("Link", `</1>; rel=prev`)
		}
	})
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"-url", u + "/broken"}, exitMalformed},
		{[]string{"-url", u + "/broken", "-next"}, exitOK},
		{[]string{"-url", u + "/2", "-next"}, exitMalformed},
		{[]string{"-url", u + "/last", "-next"}, exitNone},
		{[]string{"-url", u + "/broken", "-all", "-rel", "prev"}, exitMalformed},
		{[]string{"-url", u + "/last", "-all"}, exitOK},
	} {
		r := runBinary(t, "", c.args...)
		if r.code != c.code {
			t.Errorf("%q: exit %d, want %d (stdout %q, stderr %q)", c.args, r.code, c.code, r.stdout, r.stderr)
		}
	}
}

// TestCheckWithoutLinks: -check on a head without Link fields has nothing
// to fix and exits 0, so that a lint loop over pages goes on; it exited 1
// ("no links found"). An empty input still exits 1: nothing was checked.
func TestCheckWithoutLinks(t *testing.T) {
	for _, in := range []string{
		"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n",
		"HTTP/1.1 204 No Content\r\n\r\n",
		"Content-Type: text/html\n",
	} {
		r := runBinary(t, in, "-check")
		r.want(t, exitOK, "0 links: 0 errors, 0 warnings\n")
		if r.stderr != "" {
			t.Errorf("%q: stderr %q", in, r.stderr)
		}
	}
	u := serveFunc(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
	})
	runBinary(t, "", "-url", u, "-check").want(t, exitOK, "0 links: 0 errors, 0 warnings\n")
	r := runBinary(t, "", "-check")
	if r.code != exitNone || !strings.Contains(r.stderr, "no links found") {
		t.Errorf("empty input: exit %d, stderr %q; want 1, no links found", r.code, r.stderr)
	}
}

// serveFunc serves h on 127.0.0.1 until the test ends and returns its URL.
func serveFunc(t *testing.T, h http.HandlerFunc) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}
