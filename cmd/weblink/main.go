// Command weblink shows, checks and follows HTTP Link headers (RFC 8288).
//
// Usage:
//
//	weblink [flags] [link-value ...]
//
// Each argument is one Link field value, as if each were its own "Link:"
// line:
//
//	weblink '<https://api.example.com/items?page=2>; rel="next"'
//
// Without arguments, weblink reads standard input (at most 1 MiB) and
// recognises it by its first non-blank line:
//
//   - "HTTP/...": one or more response heads, as curl -sI or curl -i print
//     them. When there are several (103 Early Hints, redirects followed with
//     curl -L), the last one is used, and reading stops at its blank line:
//     the body is never read.
//   - "Name: value": a bare header block, up to its first blank line.
//   - "{": an application/linkset+json document (RFC 9264 §4.2).
//   - anything else: Link field values, or an application/linkset document
//     (RFC 9264 §4.1), in which line breaks are whitespace.
//
// Header names match in any letter case, obsolete line folding is joined,
// and lines may end in CRLF or LF.
//
// With -url, weblink fetches the URL itself (HEAD, or GET when the server
// answers HEAD with 405 or 501) and reads the Link header fields of the
// response; with -all it follows rel="next" through every page. Targets are
// resolved against -base when it is given, else against the fetched URL.
//
// The flags may come before or after the values; "--" ends the flags.
//
//	-url URL   fetch URL and read its Link headers
//	-all       with -url: follow rel="next" through every page
//	-base URL  resolve targets and anchors against URL
//	-rel NAME  print the target of every link with relation type NAME
//	-json      print the links as JSON (see below)
//	-check     validate strictly, showing where each problem is
//	-format    print the links as weblink would send them
//	-h         print the flags, each with an example
//
// Without a mode flag, weblink prints a table, one row per link: its
// relation types (an unregistered one is marked with "?"), its target, its
// title (with the language of the title, if any) and its other attributes.
// Colour is used only when standard output is a terminal and NO_COLOR is
// unset or empty.
//
// -rel prints only targets, one per line, so that a shell can use it:
//
//	next=$(curl -sI "$u" | weblink -rel next -base "$u")
//
// -json prints an application/linkset+json document (RFC 9264 §4.2, written
// by weblink.Links.MarshalJSON). With -url, a link without an anchor is put
// in a context object anchored at the URL of the page that sent it, so that
// -all gives one linkset with a context object per page. A link the format
// cannot represent, such as one without a relation type, is left out with a
// warning.
//
// -check prints every problem on standard output: for a syntax error, the
// field value with a caret under the offending byte and the reason; then
// what Link.Validate finds in each link. A relation type that is neither
// registered nor a URI is a warning. -check exits with status 2 when it
// found problems (warnings do not count).
//
// -format prints each link as one link-value per line, in the canonical
// form of Link.String.
//
// Exit status: 0 on success; 1 when no links were found, -rel matched
// nothing, the input was larger than 1 MiB or a fetch failed (a non-2xx
// status included); 2 for usage errors and for -check problems. Errors are
// printed on standard error with the prefix "weblink: ".
package main

import (
	"bufio"
	"io"
	"net/http"
	"net/url"
	"os"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

// Exit statuses.
const (
	exitOK      = 0
	exitNone    = 1 // no links, no -rel match, input too large, fetch failed
	exitProblem = 2 // usage errors and -check problems
)

// run is the whole command: it parses args, reads stdin or fetches, writes
// its results to stdout and its errors to stderr, and returns the exit
// status. getenv looks up environment variables.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	opts, values, code, ok := parseArgs(args, stdout, stderr)
	if !ok {
		return code
	}
	out := bufio.NewWriter(stdout)
	c := &command{
		opts:   opts,
		out:    out,
		stderr: stderr,
		colour: useColour(stdout, getenv),
		client: newClient(opts),
	}
	code = c.main(values, stdin)
	if err := out.Flush(); err != nil && code == exitOK {
		c.errorf("writing output: %v", err)
		code = exitNone
	}
	return code
}

// newClient returns the HTTP client for -url: it gives the userinfo of
// -url only to that URL's origin.
func newClient(opts options) *http.Client {
	tr := http.DefaultTransport
	if opts.url != "" {
		u, _ := url.Parse(opts.url) // parseArgs checked it
		tr = &credentials{base: tr, home: originOf(u), user: opts.user}
	}
	return &http.Client{Transport: tr, Timeout: 30 * time.Second}
}

// useColour reports whether the table may use colours: only on a terminal,
// and not when NO_COLOR is set to something (https://no-color.org).
func useColour(stdout io.Writer, getenv func(string) string) bool {
	return isTerminal(stdout) && getenv("NO_COLOR") == ""
}

// isTerminal reports whether f is a terminal (a character device), without
// a dependency on golang.org/x/term.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	if !ok {
		return false
	}
	fi, err := file.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
