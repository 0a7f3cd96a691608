//go:generate go test -run=^TestDoc$ -fixdoc

package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"time"
)

func main() {
	// An interrupt ends a fetch cleanly: the progress line is cleared and
	// what was printed stays.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(runEnv(ctx, os.Args[1:], systemEnv(os.Stdin, os.Stdout, os.Stderr, os.Getenv)))
}

// Exit statuses.
const (
	exitOK      = 0
	exitNone    = 1 // no links, no -rel match, input too large, fetch failed
	exitProblem = 2 // usage errors and -check problems
)

// env is what a run of the command works with besides its arguments: its
// standard files, which of them are terminals, the environment and a
// clock. Tests fake the terminals and the clock.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	stdinTerminal  bool // nothing to read: show an example rather than wait
	stdoutTerminal bool // colours in the table
	stderrTerminal bool // the progress line of -all
	now            func() time.Time
}

// systemEnv returns the env of a process with these files.
func systemEnv(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) env {
	return env{
		stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv,
		stdinTerminal:  isTerminal(stdin),
		stdoutTerminal: isTerminal(stdout),
		stderrTerminal: isTerminal(stderr),
		now:            time.Now,
	}
}

// run is the whole command: it parses args, reads stdin or fetches, writes
// its results to stdout and its errors to stderr, and returns the exit
// status. getenv looks up environment variables.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return runEnv(context.Background(), args, systemEnv(stdin, stdout, stderr, getenv))
}

// runEnv is run in e; ctx ends a fetch early.
func runEnv(ctx context.Context, args []string, e env) int {
	opts, values, code, ok := parseArgs(args, e.stdout, e.stderr)
	if !ok {
		return code
	}
	out := bufio.NewWriter(e.stdout)
	c := &command{
		ctx:    ctx,
		opts:   opts,
		out:    out,
		stderr: e.stderr,
		colour: e.stdoutTerminal && plainTerminal(e.getenv),
		client: newClient(opts),
		now:    e.now,
	}
	if opts.all && e.stderrTerminal && plainTerminal(e.getenv) {
		c.progress = &progress{w: e.stderr, start: e.now(), now: e.now}
	}
	if len(values) == 0 && opts.url == "" && e.stdinTerminal {
		io.WriteString(e.stderr, example)
		return exitProblem
	}
	code = c.main(values, e.stdin)
	if err := out.Flush(); err != nil && code == exitOK {
		c.errorf("writing output: %v", err)
		code = exitNone
	}
	return code
}

// newClient returns the HTTP client for -url: it gives the headers of -H
// and the userinfo of -url only to that URL's origin, gives up on a
// request after -timeout, and reads at most maxInput bytes of a response
// head, as of standard input (net/http alone reads 10 MiB).
func newClient(opts options) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxResponseHeaderBytes = maxInput
	var tr http.RoundTripper = t
	if opts.url != "" {
		u, _ := url.Parse(opts.url) // parseArgs checked it
		tr = &credentials{base: tr, home: originOf(u), user: opts.user, headers: opts.headers}
	}
	return &http.Client{Transport: tr, Timeout: opts.timeout}
}

// plainTerminal reports whether a terminal may get colours and a progress
// line: not when NO_COLOR is set to something (https://no-color.org), nor
// when TERM is "dumb".
func plainTerminal(getenv func(string) string) bool {
	return getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

// isTerminal reports whether f is a terminal: a character device other
// than the null device (so that </dev/null reads as an empty input, like
// an empty pipe), without a dependency on golang.org/x/term.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	if !ok {
		return false
	}
	fi, err := file.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}
