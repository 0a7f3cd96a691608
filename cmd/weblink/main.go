// The entry point: the environment of a run (standard streams, terminal,
// clock, interrupts) and the wiring of a mode's stages.

//go:generate go test -run=^TestDoc$ -fixdoc

package main

// The command's files follow its data path, from a source through heads
// and the report stage to a renderer; a mode is a choice of one source, one
// reporter and one renderer. Sources never use a renderer, nor renderers a
// source (TestCommandLayers in the root package's layers_test.go).
//
//	main.go            the process: signals, standard files, exit statuses
//	flags.go, help.go  the options, and -h (doc.go is generated from help.go)
//	version.go         -version
//	mode.go            the source, reporter and renderer the options choose
//	command.go         a run: source -> command.show -> renderer, counting
//
//	sources, each a func(*command) error that calls c.show(page) per page:
//	source_args.go      link values given as arguments
//	source_stdin.go     standard input: response heads, a header block,
//	                    field values, a linkset+json document
//	source_stdin_curl.go  curl -v output: its response lines, on standard
//	                    input and in arguments
//	source_fetch.go     -url, -all: fetched responses and their 103 Early
//	                    Hints (client.go: the client)
//	source_discover.go  -url -discover: the links of a header and a body
//	source_linkformat.go  -linkformat, and -url answered with
//	                    application/link-format: a link-format document
//	source_apicatalog.go  -url -api-catalog: the links of an API catalog
//	source_signposting.go  -signposting: what signposting.Fetch read
//
//	head.go  page, head (status, URL, Link and Link-Template fields) and
//	         field; parsing them into links, resolved, and templated links,
//	         never expanded
//	report.go  the report stage: pageLinks, what a renderer gets, and the
//	         reporter that takes what parsing finds wrong (standard error,
//	         or -check's renderer)
//
//	renderers, each a renderer (page per page, end once):
//	render_table.go   the default table, and the SOURCE table of -discover
//	render_rel.go     -rel
//	render_next.go    -next
//	render_format.go  -format
//	render_json.go    -json
//	render_check.go   -check (its renderer is its reporter too), and
//	                  render_check_template.go for Link-Template fields
//	render_signposting.go  -signposting
//
//	text.go      escaping and widths
//	progress.go  the progress line of -all (columns*.go: the terminal's width)
//
// To add a mode: add its flag to options and newFlagSet (flags.go) and its
// line to flagDocs (help.go, then go generate), rule out the combinations
// that make no sense in parseArgs, write the source or the renderer in a
// file of its own, choose it in options.mode (mode.go), and test it through
// the built binary (binary in main_test.go) as the other tests do.

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/signal"
	"time"
)

func main() {
	// An interrupt (Ctrl-C) ends a fetch cleanly: the progress line is
	// cleared, what was printed stays, and the exit status is 130, as a
	// shell reports a command that SIGINT killed. What does not stop on
	// the context (reading standard input) gets interruptGrace to end,
	// then the process exits anyway.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	done := make(chan int, 1)
	go func() { done <- runEnv(ctx, os.Args[1:], systemEnv(os.Stdin, os.Stdout, os.Stderr, os.Getenv)) }()
	var code int
	select {
	case code = <-done:
	case <-ctx.Done():
		select {
		case code = <-done:
		case <-time.After(interruptGrace):
		}
	}
	if ctx.Err() != nil {
		code = exitInterrupted
	}
	os.Exit(code)
}

// interruptGrace is how long an interrupted run may take to end.
const interruptGrace = time.Second

// Exit statuses.
const (
	exitOK          = 0
	exitNone        = 1   // no links, no -rel match, input too large, fetch failed
	exitProblem     = 2   // usage errors and -check problems
	exitMalformed   = 3   // a link-value dropped as malformed (command.dropped); -next: and no next link; no usable next link in a body (paging.ErrNextLink)
	exitInterrupted = 130 // SIGINT (Ctrl-C): 128 + its number
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
	columns        func() int        // the width of the terminal on standard error; 0 when unknown
	tick           time.Duration     // how often the progress line is redrawn; 0: only as the fetch moves
	transport      http.RoundTripper // nil: a clone of http.DefaultTransport; tests route host names
}

// systemEnv returns the env of a process with these files.
func systemEnv(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) env {
	return env{
		stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv,
		stdinTerminal:  isTerminal(stdin),
		stdoutTerminal: isTerminal(stdout),
		stderrTerminal: isTerminal(stderr),
		now:            time.Now,
		columns:        func() int { return columns(getenv, func() int { return terminalColumns(stderr) }) },
		tick:           progressTick,
	}
}

// progressTick is how often the progress line is redrawn during a
// request, so that its elapsed time moves.
const progressTick = 500 * time.Millisecond

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
	if opts.url != "" {
		// -timeout is the deadline of the whole run: every request,
		// redirect, page and linkset (rule 17 of package discover bounds how many).
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.timeout)
		defer cancel()
	}
	out := bufio.NewWriter(e.stdout)
	src, report, render := opts.mode(values, e.stdin)
	c := &command{
		ctx:    ctx,
		opts:   opts,
		out:    out,
		stderr: e.stderr,
		colour: e.stdoutTerminal && plainTerminal(e.getenv),
		client: newClient(opts, e.transport),
		now:    e.now,
		report: report,
		render: render,
	}
	if opts.all && e.stderrTerminal && plainTerminal(e.getenv) {
		c.progress = &progress{w: e.stderr, start: e.now(), now: e.now, columns: e.columns}
		if e.columns == nil {
			c.progress.columns = func() int { return columns(e.getenv, nil) }
		}
	}
	if len(values) == 0 && opts.url == "" && e.stdinTerminal {
		io.WriteString(e.stderr, example)
		return exitProblem
	}
	stopTicker := c.progress.tick(e.tick)
	code = c.run(src)
	stopTicker()
	if err := out.Flush(); err != nil && code == exitOK {
		c.errorf("writing output: %v", err)
		code = exitNone
	}
	return code
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
