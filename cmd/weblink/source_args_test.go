package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestPastedArguments: a header pasted as an argument is read however it
// was copied: with whitespace before the field name (copied from an
// indented page), as several header lines (copied from curl -i or a
// browser's network panel, other fields ignored, a folded line joined), or
// with curl -v's "< " before each line. Before, the first gave "link-value
// must start with "<"", the second dropped the second Link line with a
// syntax error, and curl -v's was read as a link whose target is
// "link: <https://a.example/2".
func TestPastedArguments(t *testing.T) {
	const table = "REL   TARGET\nnext  https://a.example/2\nprev  https://a.example/1\n"
	for _, c := range []struct {
		name, arg, stdout string
	}{
		{"leading space", ` Link: <https://a.example/2>; rel="next", <https://a.example/1>; rel="prev"`, table},
		{"leading tab and newline", "\n\tlink: <https://a.example/2>; rel=\"next\", <https://a.example/1>; rel=\"prev\"", table},
		{"two lines", "Link: <https://a.example/2>; rel=\"next\"\nLink: <https://a.example/1>; rel=\"prev\"", table},
		{"a header block", "Content-Type: text/html\r\nlink: <https://a.example/2>; rel=\"next\"\r\nVary: Accept\r\nLINK: <https://a.example/1>; rel=\"prev\"\r\n", table},
		{"an indented block", "    Link: <https://a.example/2>; rel=\"next\"\n    Link: <https://a.example/1>;\n      rel=\"prev\"\n", table},
		{"a folded line", "Link: <https://a.example/2>; rel=\"next\",\n  <https://a.example/1>; rel=\"prev\"\nVary: Accept", table},
		{"curl -v", `< link: <https://a.example/2>; rel="next", <https://a.example/1>; rel="prev"`, table},
		{"curl -v, two lines", "< link: <https://a.example/2>; rel=\"next\"\r\n< x-request-id: 1\r\n< link: <https://a.example/1>; rel=\"prev\"\r\n", table},
		{"curl -v, a template", "< link: <https://a.example/2>; rel=\"next\"\n< link-template: \"/{x}\"; rel=\"item\"",
			"FROM      REL   TARGET\n          next  https://a.example/2\ntemplate  item  /{x}\n"},
		// Before, "link-value must start with "<"" for "* Connected",
		// and after "< link:" alone a warning that "{ [5 bytes data]" was
		// not read.
		{"curl -v, all of it", "* Connected to a.example (192.0.2.1) port 443 (#0)\n> GET / HTTP/2\n> Host: a.example\n>\n" +
			"< HTTP/2 200\n< link: <https://a.example/2>; rel=\"next\"\n< link: <https://a.example/1>; rel=\"prev\"\n<\n{ [5 bytes data]\n", table},
		{"curl -v, a data marker after", "< link: <https://a.example/2>; rel=\"next\", <https://a.example/1>; rel=\"prev\"\n<\n{ [5 bytes data]\n", table},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runCmd(t, "", c.arg)
			r.want(t, exitOK, c.stdout)
			if r.stderr != "" {
				t.Errorf("stderr %q", r.stderr)
			}
		})
	}
	// A problem in a later line says which line of which argument.
	r := runCmd(t, "", `<https://a.example/0>; rel="first"`, "Link: <https://a.example/2>; rel=\"next\"\nLink: https://a.example/1; rel=\"prev\"")
	r.want(t, exitMalformed, "REL    TARGET\nfirst  https://a.example/0\nnext   https://a.example/2\n")
	if want := "weblink: argument 2, line 2, byte 0: link-value must start with \"<\""; !strings.HasPrefix(r.stderr, want) {
		t.Errorf("stderr %q, want it to start %q", r.stderr, want)
	}
	// A link-value that starts with "<" and a space is not curl -v's.
	r = runCmd(t, "", `< https://a.example/2>; rel="next"`)
	r.want(t, exitOK, "REL   TARGET\nnext  https://a.example/2\n")
}

// TestHelpWord: "weblink help" is a usage error that points to -h; it was
// a link-value that does not start with "<" and "no links found".
func TestHelpWord(t *testing.T) {
	for _, arg := range []string{"help", " HELP ", "-?"} {
		r := runCmd(t, "", arg)
		r.want(t, exitProblem, "")
		r.wantErr(t, "weblink -h")
	}
}

// TestNoLinksSaysDiscover: -url on a page whose head has no links, as
// most HTML pages, says that its body may have them and how to read them
// (-discover); before, "no links found" only.
func TestNoLinksSaysDiscover(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/page":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<link rel="webmention" href="/wm">`)
		case "/data":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{}`)
		}
	}))
	defer srv.Close()
	for _, args := range [][]string{{"-url", srv.URL + "/page"}, {"-url", srv.URL + "/page", "-rel", "webmention"}} {
		r := runCmd(t, "", args...)
		r.want(t, exitNone, "")
		want := "weblink: no links found in the Link header of " + srv.URL + "/page; its body (text/html) may have some: weblink -url " + srv.URL + "/page -discover reads them\n"
		if r.stderr != want {
			t.Errorf("%q: stderr %q, want %q", args, r.stderr, want)
		}
	}
	// Not for a body that -discover does not read.
	r := runCmd(t, "", "-url", srv.URL+"/data")
	r.want(t, exitNone, "")
	if r.stderr != "weblink: no links found\n" {
		t.Errorf("stderr %q", r.stderr)
	}
	// -discover itself does not send the user round in a circle.
	r = runCmd(t, "", "-url", srv.URL+"/data", "-discover")
	if r.code != exitNone || strings.Contains(r.stderr, "-discover reads") {
		t.Errorf("-discover: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestPastedHead: a whole response head pasted as an argument (curl -i,
// curl -v) is read as its header block; what follows the blank line that
// ends it is said not to be read, never taken for links (a body's
// "<!doctype html>" would parse as a link-value).
func TestPastedHead(t *testing.T) {
	const table = "REL   TARGET\nnext  https://a.example/2\n"
	runCmd(t, "", "HTTP/2 200\r\ncontent-type: text/html\r\nlink: <https://a.example/2>; rel=\"next\"\r\n").want(t, exitOK, table)
	runCmd(t, "", "< HTTP/2 200\n< link: <https://a.example/2>; rel=\"next\"\n<\n").want(t, exitOK, table)
	r := runCmd(t, "", "HTTP/1.1 200 OK\nLink: <https://a.example/2>; rel=\"next\"\n\n<!doctype html>\n<p>hi")
	r.want(t, exitOK, table)
	if want := "weblink: argument 1: line 4 and after not read: the header ended at the blank line before it; pipe response heads into weblink, which reads each of them\n"; r.stderr != want {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}
}

// TestPastedNotHeader: an argument of several lines that starts like a
// header line but holds no Link or Link-Template field is read as a
// link-value, whose problem is said, rather than ignored.
func TestPastedNotHeader(t *testing.T) {
	r := runCmd(t, "", "urn:x\n<https://a.example/2>; rel=\"next\"")
	r.want(t, exitMalformed, "")
	r.wantErr(t, "argument 1, byte 0: link-value must start with \"<\"")
}

// TestBodyOnStdin: a response body piped in (curl without -I, the usual
// slip) is said to be one, with what to run instead; before, an HTML page
// gave a table of "links" such as "!doctype html" and exit status 0, and
// a JSON array a "link-value must start with "<"" for every "," in it,
// and a JSON object an invalid linkset.
func TestBodyOnStdin(t *testing.T) {
	for _, in := range []string{
		"<!doctype html>\n<html lang=\"en\">\n<link rel=\"stylesheet\" href=\"/s.css\">\n",
		"\n  <!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\">\n<html>",
		"<html lang=\"en\"><head><title>x</title>",
		"<html>\n<body>",
		"<?xml version=\"1.0\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">",
	} {
		r := runCmd(t, in)
		r.want(t, exitNone, "")
		if want := "weblink: reading standard input: it is a document (HTML or XML), not a response head: pipe the head (curl -sI URL | weblink), or let weblink read the links of the document: weblink -url URL -discover\n"; r.stderr != want {
			t.Errorf("%q: stderr %q, want %q", in, r.stderr, want)
		}
	}
	// A JSON array, such as the issues of the GitHub API.
	r := runCmd(t, "\n  [{\"id\": 1, \"title\": \"<b>\"}]\n")
	r.want(t, exitNone, "")
	if want := "weblink: reading standard input: it is a JSON array, not a response head or a linkset: pipe the head (curl -sI URL | weblink), or let weblink fetch it: weblink -url URL\n"; r.stderr != want {
		t.Errorf("JSON array: stderr %q, want %q", r.stderr, want)
	}
	// A JSON object without a "linkset" member, such as a search result
	// of the GitHub API; before, "invalid linkset: document: unexpected
	// member" and "no links found".
	for _, in := range []string{
		"{\"items\": []}\n",
		"{\n  \"total_count\": 2,\n  \"items\": [{\"id\": 1, \"linkset\": []}]\n}\n",
		"{\"items\": [1, 2", // cut short
	} {
		r := runCmd(t, in)
		r.want(t, exitNone, "")
		if want := "weblink: reading standard input: it is a JSON object without a \"linkset\" member, not a response head or a linkset: pipe the head (curl -sI URL | weblink), or let weblink fetch it: weblink -url URL\n"; r.stderr != want {
			t.Errorf("%q: stderr %q, want %q", in, r.stderr, want)
		}
	}
	// An object with a "linkset" member is a linkset, whatever is wrong
	// with it, and so is one that breaks before its first member name.
	for in, want := range map[string]string{
		`{"x": 1, "linkset": []}`: `unexpected member "x"`,
		`{"linkset": [], "x": 1}`: `unexpected member "x"`,
		`{linkset: []}`:           "invalid linkset",
		`{}`:                      `member "linkset" is missing`,
	} {
		r := runCmd(t, in)
		if r.code != exitMalformed || !strings.Contains(r.stderr, want) {
			t.Errorf("%q: exit %d, stderr %q; want a linkset error with %q", in, r.code, r.stderr, want)
		}
	}
	// A link-value whose target is "html" is one.
	runCmd(t, "<html>; rel=\"alternate\"\n").want(t, exitOK, "REL        TARGET\nalternate  html\n")
}
