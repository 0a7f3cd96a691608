package main

import (
	"strings"
	"testing"

	"github.com/weblinking/weblink/internal/rawpeer"
)

func TestStatusLineEscapes(t *testing.T) {
	// The reason phrase and the URL are the server's; what reaches the
	// terminal is printable ASCII.
	const status = "HTTP/1.1 500 \x1b]0;PWNED\x07\x1b[2J\x1b[31mboom"
	u := rawpeer.Serve(t, func(path string) string {
		if path == "/1" {
			return "HTTP/1.1 200 OK\r\nLink: </2>; rel=next\r\nContent-Length: 0\r\n\r\n"
		}
		return status + "\r\nContent-Length: 0\r\n\r\n"
	})
	for _, args := range [][]string{
		{"-url", u + "/2"},
		{"-url", u + "/1", "-all"},
		{"-url", u + "/1", "-all", "-json"},
		{"-url", u + "/2", "-check"},
	} {
		r := runCmd(t, "", args...)
		if r.code != exitNone {
			t.Errorf("%q: exit %d, want %d", args, r.code, exitNone)
		}
		if strings.ContainsAny(r.stdout+r.stderr, "\x1b\x07") {
			t.Errorf("%q: terminal escapes reach the output:\n%q\n%q", args, r.stdout, r.stderr)
		}
		want := "weblink: " + u + `/2 answered 500 "\x1b]0;PWNED\a\x1b[2J\x1b[31mboom"` + "\n"
		if r.stderr != want {
			t.Errorf("%q: stderr\n%q\nwant\n%q", args, r.stderr, want)
		}
	}
}
