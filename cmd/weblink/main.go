//go:generate go test -run=^TestDoc$ -fixdoc

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
