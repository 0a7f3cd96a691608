package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptrace"
	"net/textproto"
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

func TestEarlyHintsFlood(t *testing.T) {
	// Since Go 1.24, net/http leaves the limits on 1xx responses to a
	// client that sees them: the command stops a request after 100 of
	// them, or when its 103 heads hold more than 1 MiB together; under
	// that, it shows them, escaped. Before Go 1.24, net/http ends a request
	// at its sixth 1xx response itself, before the command's count is
	// reached, and the command shows that error.
	limit, tooMany := maxInterim, "more than 100 interim (1xx) responses"
	if netHTTPLimits1xx(t) {
		limit, tooMany = 5, "net/http: too many 1xx informational responses"
	}
	hint := func(n int) string {
		return "HTTP/1.1 103 Early Hints\r\nLink: <" + strings.Repeat("a", n) + ">; rel=preload; title*=UTF-8''%1B%5B2J\r\n\r\n"
	}
	const final = "HTTP/1.1 200 OK\r\nLink: </next>; rel=next\r\nContent-Length: 0\r\n\r\n"
	for _, c := range []struct {
		name, response, msg string
	}{
		{fmt.Sprint(limit, " small hints"), strings.Repeat(hint(10), limit) + final, ""},
		{fmt.Sprint(limit+1, " small hints"), strings.Repeat(hint(10), limit+1) + final, tooMany},
		{fmt.Sprint(limit+1, " interim responses"), strings.Repeat("HTTP/1.1 102 Processing\r\n\r\n", limit+1) + final, tooMany},
		// Under net/http's count of old, for the size to be what ends it.
		{"4 hints of 250 KiB", strings.Repeat(hint(250<<10), 4) + final, ""},
		{"5 hints of 250 KiB", strings.Repeat(hint(250<<10), 5) + final, "the 103 Early Hints heads are larger than 1 MiB together"},
	} {
		u := rawpeer.Serve(t, func(string) string { return c.response })
		r := runCmd(t, "", "-url", u+"/")
		switch {
		case strings.ContainsAny(r.stdout+r.stderr, "\x1b"):
			t.Errorf("%s: terminal escapes reach the output", c.name)
		case c.msg == "" && (r.code != exitOK || !strings.Contains(r.stdout, "final  next") || r.stderr != ""):
			t.Errorf("%s: exit %d, stderr %.300q", c.name, r.code, r.stderr)
		case c.msg != "" && (r.code != exitNone || r.stdout != "" || !strings.Contains(r.stderr, c.msg)):
			t.Errorf("%s: exit %d, stdout %.100q, stderr %.300q; want %q", c.name, r.code, r.stdout, r.stderr, c.msg)
		}
	}
}

// netHTTPLimits1xx reports whether net/http's client ends a request at
// its sixth 1xx response even when a Got1xxResponse hook sees them, as it
// does before Go 1.24.
func netHTTPLimits1xx(t *testing.T) bool {
	u := rawpeer.Serve(t, func(string) string {
		return strings.Repeat("HTTP/1.1 102 Processing\r\n\r\n", 6) + "HTTP/1.1 204 No Content\r\n\r\n"
	})
	trace := &httptrace.ClientTrace{Got1xxResponse: func(int, textproto.MIMEHeader) error { return nil }}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace), http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if strings.Contains(err.Error(), "too many 1xx informational responses") {
			return true
		}
		t.Fatal(err)
	}
	resp.Body.Close()
	return false
}

func TestClientErrorShortened(t *testing.T) {
	// net/http quotes a malformed header line whole in its error: the
	// message shows its start, escaped.
	u := rawpeer.Serve(t, func(string) string {
		return "HTTP/1.1 200 OK\r\nLink: <" + strings.Repeat("a", 512<<10) + ">; title=\"\x1b[2J\"\r\n\r\n"
	})
	r := runCmd(t, "", "-url", u+"/")
	if r.code != exitNone || len(r.stderr) > 500 || !strings.Contains(r.stderr, "malformed MIME header line") ||
		strings.Contains(r.stderr, "\x1b") {
		t.Errorf("exit %d, %d bytes of stderr: %.400q", r.code, len(r.stderr), r.stderr)
	}
}

func TestLongURLShortened(t *testing.T) {
	// A server can redirect to a URL of nearly 1 MiB: a message shows its
	// start, as it does of a reason phrase. Before, the whole URL was
	// printed, 900 KB on one line.
	long := strings.Repeat("a", 900_000)
	u := rawpeer.Serve(t, func(path string) string {
		switch path {
		case "/to-404":
			return "HTTP/1.1 302 Found\r\nLocation: /" + long + "\r\nContent-Length: 0\r\n\r\n"
		case "/to-nowhere":
			return "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:1/" + long + "\r\nContent-Length: 0\r\n\r\n"
		}
		return "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
	})
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-url", u + "/to-404"}, " answered 404 Not Found"},
		{[]string{"-url", u + "/to-404", "-discover"}, " answered 404 Not Found"},
		{[]string{"-url", u + "/to-404", "-linkformat"}, " answered 404 Not Found"},
		{[]string{"-url", u + "/to-nowhere"}, "weblink: HEAD http://127.0.0.1:1/aaa"},
	} {
		r := runBinary(t, "", c.args...)
		if r.code != exitNone || len(r.stderr) > 1000 || !strings.Contains(r.stderr, c.msg) || !strings.Contains(r.stderr, "a...") {
			t.Errorf("%q: exit %d, %d bytes of stderr: %.300q; want it short, with %q", c.args, r.code, len(r.stderr), r.stderr, c.msg)
		}
	}
}

// TestWaitMessageLongURLShortened: the page named by the message of a
// rate limit spent before the next page (TestWaitMessageBeforeNextPage) is
// the server's URL, after a redirect of nearly 1 MiB: the message shows its
// start, as TestLongURLShortened's do.
func TestWaitMessageLongURLShortened(t *testing.T) {
	long := strings.Repeat("a", 900_000)
	u := rawpeer.Serve(t, func(path string) string {
		if path == "/items" {
			return "HTTP/1.1 302 Found\r\nLocation: /" + long + "\r\nContent-Length: 0\r\n\r\n"
		}
		return "HTTP/1.1 200 OK\r\nLink: <?page=2>; rel=next\r\nX-RateLimit-Remaining: 0\r\nX-RateLimit-Reset: 3600\r\nContent-Length: 0\r\n\r\n"
	})
	r := runCmd(t, "", "-url", u+"/items", "-all", "-wait", "1m")
	const msg = "a... says its rate limit is spent, reset in 1h — more than -wait 1m allows; use -wait 1h to wait it out\n"
	if r.code != exitNone || len(r.stderr) > 1000 || !strings.HasSuffix(r.stderr, msg) {
		t.Errorf("exit %d, %d bytes of stderr: %.300q; want %d, short, ending %q", r.code, len(r.stderr), r.stderr, exitNone, msg)
	}
}
