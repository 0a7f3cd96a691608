package main

import (
	"strings"
	"testing"

	"github.com/weblinking/weblink/internal/rawpeer"
)

func TestDiscoverStatusLineEscapes(t *testing.T) {
	// The reason phrase of the resource, of a linkset it names and of an
	// API catalog is the server's, as for -url (TestStatusLineEscapes):
	// what reaches the terminal is printable ASCII.
	const status = "HTTP/1.1 500 \x1b]0;PWNED\x07\x1b[2J\x1b[31mboom"
	u := rawpeer.Serve(t, func(path string) string {
		if path == "/1" {
			return "HTTP/1.1 200 OK\r\nLink: </2>; rel=linkset\r\nContent-Type: text/plain\r\nContent-Length: 0\r\n\r\n"
		}
		return status + "\r\nContent-Length: 0\r\n\r\n"
	})
	const phrase = ` answered 500 "\x1b]0;PWNED\a\x1b[2J\x1b[31mboom"` + "\n"
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"-url", u + "/2", "-discover"}, exitNone, "weblink: " + u + "/2" + phrase},
		{[]string{"-url", u + "/1", "-discover"}, exitOK, "weblink: linkset " + u + "/2" + phrase},
		{[]string{"-url", u + "/1", "-api-catalog"}, exitNone, "weblink: " + u + "/.well-known/api-catalog" + phrase},
	} {
		r := runCmd(t, "", tc.args...)
		if strings.ContainsAny(r.stdout+r.stderr, "\x1b\x07") {
			t.Errorf("%q: terminal escapes reach the output:\n%q\n%q", tc.args, r.stdout, r.stderr)
		}
		if r.code != tc.code || r.stderr != tc.stderr {
			t.Errorf("%q: exit %d, stderr\n%q\nwant exit %d, stderr\n%q", tc.args, r.code, r.stderr, tc.code, tc.stderr)
		}
	}
}
