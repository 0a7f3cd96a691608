// One run of the command: its state, the pipeline from a source to the
// renderer (run, show, finish), exit statuses and error messages.

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/weblinking/weblink/internal/quote"
	"github.com/weblinking/weblink/paging"
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
	report   reporter  // takes what parsing finds wrong
	render   renderer  // shows the links of each page

	pages  int            // pages shown
	links  int            // links found
	tmpls  int            // templated links found (Link-Template fields)
	failed bool           // the source failed, and said so
	last   *http.Response // the last page fetched and shown, its body closed
	// bodyNext and bodyErr are the next link that the body of the last
	// page gave with -next-in-body, or why it gave no usable one.
	bodyNext *url.URL
	bodyErr  error
	// dropped is whether some input could not be read and was left out,
	// each part said on standard error: a link-value or a parameter that
	// Parse dropped, a Link-Template field that linktemplate ignored, an
	// invalid linkset, a link-value of a link-format document.
	dropped bool
	blank   bool          // the input was empty or blank
	reval   *revalidation // -revalidate; nil without it
}

// run reads the pages of src, shows them with the renderer of c, and
// returns the exit status. When src fails, what it showed before stays,
// its error is printed, and the status is at least exitNone.
func (c *command) run(src source) int {
	if err := src(c); err != nil {
		c.fail(err)
		c.failed = true
		status := max(c.finish(), exitNone)
		if errors.Is(err, paging.ErrNextLink) {
			// A next link that paging could not use, in a malformed
			// header or a body (-next-in-body): malformed input, as
			// -next says of a malformed header.
			status = max(status, exitMalformed)
		}
		return status
	}
	return c.finish()
}

// show takes the links of p (head.go: parsed and resolved; counted here) to
// the renderer. An error from the renderer stops the source.
func (c *command) show(p page) error {
	c.pages++
	c.blank = c.blank || p.blank
	pl := c.linksOf(p)
	c.links += len(pl.links)
	c.tmpls += len(pl.templates)
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

// readable returns the exit status of a run that printed what it could
// read, status otherwise: exitMalformed when some input was dropped, so
// that a script can tell a malformed header from one without links.
func (c *command) readable(status int) int {
	if c.dropped {
		return exitMalformed
	}
	return status
}

// noLinks says that no links were found, unless a failure said more, and
// returns the exit status for it. Templated links, which only the table
// and -json show (and -check checks), are not links to -rel, -next or
// -format: they are named, so that their table rows are not a puzzle.
func (c *command) noLinks() int {
	switch {
	case c.failed:
	case c.tmpls > 0:
		c.errorf("no links found, only %d templated %s (Link-Template), which the table and -json show",
			c.tmpls, quote.Plural(c.tmpls, "link"))
	case c.bodyMayHaveLinks():
		c.errorf("no links found in the Link header of %s; its body (%s) may have some: weblink -url %s -discover reads them",
			messageURL(c.last.Request.URL.String()), mediaTypeOf(c.last), messageURL(c.opts.url))
	default:
		c.errorf("no links found")
	}
	return exitNone
}

// bodyMayHaveLinks reports whether the last response fetched, whose head
// had no links, is of a media type whose body -discover reads links from
// (HTML <link> and <a>, Atom and RSS feeds), and -url was given without
// -discover, which reads them, or -api-catalog or -linkformat, which read
// the body already.
func (c *command) bodyMayHaveLinks() bool {
	if c.last == nil || c.opts.discover || c.opts.catalog || c.opts.linkformat {
		return false
	}
	switch mediaTypeOf(c.last) {
	case "text/html", "application/xhtml+xml", "application/atom+xml", "application/rss+xml":
		return true
	}
	return false
}

// mediaTypeOf returns the media type of the Content-Type of resp, lower
// case, "" when there is none or it does not parse.
func mediaTypeOf(resp *http.Response) string {
	mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return mt
}

// errorf prints an error on standard error, without the userinfo of any
// URL in it.
func (c *command) errorf(format string, args ...any) {
	c.progress.clear()
	io.WriteString(c.stderr, "weblink: "+redactUserinfo(fmt.Sprintf(format, args...))+"\n")
}

// fail prints err, whose message may already start with "weblink: ", with
// what a terminal would interpret escaped: each problem it joins on a line
// of its own (messages).
func (c *command) fail(err error) {
	for _, msg := range messages(err) {
		c.errorf("%s", clean(msg))
	}
}

// messages returns the message of each problem err holds, without the
// "weblink: " that starts the library's errors: those that errors.Join
// joined, also inside an error that wraps a joined error with a prefix
// (ParseHeader's "Link field line N: "), each then with that prefix.
func messages(err error) []string {
	if joined(err) {
		var msgs []string
		for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
			msgs = append(msgs, messages(e)...)
		}
		return msgs
	}
	msg := err.Error()
	if inner := errors.Unwrap(err); inner != nil {
		if joined(inner) {
			if prefix, ok := strings.CutSuffix(msg, inner.Error()); ok {
				msgs := messages(inner)
				for i := range msgs {
					msgs[i] = prefix + msgs[i]
				}
				return msgs
			}
		}
	}
	return []string{strings.TrimPrefix(msg, "weblink: ")}
}

// joined reports whether err is made by errors.Join: its message is its
// errors' messages, one a line. An error that wraps several with a message
// of its own (paging's body errors wrap ErrNextLink and the reason) is one
// problem, whose message says it all.
func joined(err error) bool {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return false
	}
	var msgs []string
	for _, e := range j.Unwrap() {
		msgs = append(msgs, e.Error())
	}
	return err.Error() == strings.Join(msgs, "\n")
}
