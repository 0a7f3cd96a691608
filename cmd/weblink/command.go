package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// command is one run of weblink: its options, where it writes, the
// renderer of its mode, and what it has counted so far.
type command struct {
	ctx      context.Context // ends a fetch early
	opts     options
	out      *bufio.Writer
	stderr   io.Writer
	colour   bool // whether the table may use ANSI colours
	client   *http.Client
	now      func() time.Time
	progress *progress // -all on a terminal; nil otherwise
	render   renderer  // shows the links of each page

	pages  int            // pages shown
	links  int            // links found
	failed bool           // the source failed, and said so
	last   *http.Response // the last page fetched and shown, its body closed
}

// run reads the pages of src, shows them with the renderer of c, and
// returns the exit status. When src fails, what it showed before stays,
// its error is printed, and the status is at least exitNone.
func (c *command) run(src source) int {
	if err := src(c); err != nil {
		c.fail(err)
		c.failed = true
		return max(c.finish(), exitNone)
	}
	return c.finish()
}

// show takes the links of p (heads.go: parsed, resolved and counted) to
// the renderer. An error from the renderer stops the source.
func (c *command) show(p page) error {
	c.pages++
	pl := c.linksOf(p)
	c.links += len(pl.links)
	return c.render.page(c, pl)
}

// finish prints what is printed once at the end and returns the exit
// status.
func (c *command) finish() int {
	if c.failed && c.pages == 0 {
		return exitNone // the failure was the whole story
	}
	return c.render.end(c)
}

// noLinks says that no links were found, unless a failure said more, and
// returns the exit status for it.
func (c *command) noLinks() int {
	if !c.failed {
		c.errorf("no links found")
	}
	return exitNone
}

// errorf prints an error on standard error, without the userinfo of any
// URL in it.
func (c *command) errorf(format string, args ...any) {
	c.progress.clear()
	io.WriteString(c.stderr, "weblink: "+redactUserinfo(fmt.Sprintf(format, args...))+"\n")
}

// fail prints err, whose message may already start with "weblink: ", with
// what a terminal would interpret escaped.
func (c *command) fail(err error) {
	c.errorf("%s", clean(strings.TrimPrefix(err.Error(), "weblink: ")))
}
