package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/weblinking/weblink"
)

// command is one run of weblink: its options, where it writes, and what it
// has counted so far.
type command struct {
	ctx      context.Context // ends a fetch early
	opts     options
	out      *bufio.Writer
	stderr   io.Writer
	colour   bool // whether the table may use ANSI colours
	client   *http.Client
	now      func() time.Time
	progress *progress // -all on a terminal; nil otherwise

	pages        int            // sources shown
	links        int            // links found
	matches      int            // -rel: targets printed
	problems     int            // -check: problems found
	warnings     int            // -check: warnings
	unregistered bool           // table: some relation type was marked "?"
	collected    weblink.Links  // -json: every link, printed at the end
	failed       bool           // a fetch failed, and said so
	capped       bool           // -check: Check listed its most problems for some field value
	last         *http.Response // the last page shown, its body closed
}

// main reads the input named by the options and values, shows it, and
// returns the exit status.
func (c *command) main(values []string, stdin io.Reader) int {
	switch {
	case c.opts.url != "":
		fetch := c.fetch
		if c.opts.discover {
			fetch = c.discoverLinks
		}
		if err := fetch(); err != nil {
			c.fail(err)
			c.failed = true
			return max(c.finish(), exitNone)
		}
	case len(values) > 0:
		c.show(argsSource(values))
	default:
		src, err := readInput(stdin)
		if err != nil {
			c.errorf("reading standard input: %v", err)
			return exitNone
		}
		c.show(src)
	}
	return c.finish()
}

// maxCheckProblems is the most problems weblink.Check lists for one field
// value; the last then says how many more it found.
const maxCheckProblems = 256

// fromHints marks what comes from a 103 Early Hints head in messages.
const fromHints = "(103 Early Hints)"

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

// show parses the links of src, resolves them against -base or the URL src
// was fetched from, and shows them in the output mode.
func (c *command) show(src source) {
	c.pages++
	base := c.opts.baseURL
	if base == nil && src.url != "" {
		base, _ = url.Parse(src.url)
	}
	links, hints := c.parse(src)
	if base != nil {
		links = links.Resolve(base)
	}
	c.links += len(links)
	switch {
	case c.opts.rel != "":
		for _, l := range links {
			if l.HasRel(c.opts.rel) {
				c.matches++
				c.out.WriteString(shellSafe(l.Target))
				c.out.WriteByte('\n')
			}
		}
	case c.opts.json:
		for _, l := range links {
			if l.Anchor == "" && base != nil {
				l.Anchor = base.String() // the context of a link is its base (RFC 8288 §3.2)
			}
			c.collected = append(c.collected, l)
		}
	case c.opts.check:
		c.validate(links, hints, src.jsonSet)
	case c.opts.format:
		for _, l := range links {
			c.out.WriteString(l.String())
			c.out.WriteByte('\n')
		}
	default:
		c.table(src.url, links, hints)
	}
}

// parse parses the Link field values or the JSON document of src and
// reports what could not be parsed: with carets on standard output for
// -check, as warnings on standard error otherwise. The first hints links
// are from 103 Early Hints heads.
func (c *command) parse(src source) (links weblink.Links, hints int) {
	if src.jsonSet {
		var links weblink.Links
		err := links.UnmarshalJSON(src.json)
		var le *weblink.LinksetError
		switch {
		case errors.As(err, &le) && le.Offset >= 0:
			msg := "invalid linkset: " + le.Msg
			if le.Path != "" {
				msg = "invalid linkset: " + le.Path + ": " + le.Msg
			}
			if cause := errors.Unwrap(le); cause != nil {
				msg += ": " + cause.Error()
			}
			f := field{label: "input", line: src.jsonLine, text: string(src.json)}
			c.positioned(f, int(le.Offset), msg, false)
		case err != nil:
			c.problem("input", err)
		}
		return links, 0
	}
	var all weblink.Links
	for _, f := range src.fields {
		links, err := weblink.Parse(f.text) // CR and LF are whitespace, as in application/linkset
		all = append(all, links...)
		if f.hint {
			hints += len(links)
		}
		if c.opts.check {
			// Check reports what Parse does, at the same offsets, and more.
			problems := weblink.Check(f.text)
			for _, p := range problems {
				c.positioned(f, p.Offset, p.Msg, p.Warning)
			}
			c.capped = c.capped || len(problems) >= maxCheckProblems
			continue
		}
		for _, e := range leaves(err) {
			var se *weblink.SyntaxError
			if errors.As(e, &se) {
				c.positioned(f, se.Offset, se.Msg, false)
			} else {
				c.problem(f.label, e)
			}
		}
	}
	return all, hints
}

// leaves returns the errors that err joins (errors.Join), or err itself:
// each problem that Parse or Validate found. Only the top level is split:
// an error that wraps a *weblink.SyntaxError with its cause stays whole.
func leaves(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

// positioned reports a problem at byte off of f: a link-value that Parse
// dropped, a parameter it could not decode, what makes a linkset+json
// document invalid, or with -check what weblink.Check found. -check shows
// it under the excerpt with a caret, marked as an error or a warning.
func (c *command) positioned(f field, off int, msg string, warning bool) {
	off = min(max(off, 0), len(f.text))
	label := f.label
	if f.line > 0 {
		label = "line " + strconv.Itoa(f.line+strings.Count(f.text[:off], "\n"))
	}
	if f.hint {
		label += " " + fromHints
	}
	where := label + ", byte " + strconv.Itoa(off)
	msg = clean(msg)
	if !c.opts.check {
		c.errorf("%s: %s", where, msg)
		return
	}
	shown, col := excerpt(f.text, off)
	fmt.Fprintf(c.out, "%s\n%s^\n%s: %s: %s\n", shown, strings.Repeat(" ", col), where, c.severity(warning), msg)
}

// severity counts a -check problem and returns its mark: "error", or
// "warning" for what does not make -check fail.
func (c *command) severity(warning bool) string {
	if warning {
		c.warnings++
		return c.style(yellow, "warning")
	}
	c.problems++
	return c.style(red, "error")
}

// problem reports an error without a position.
func (c *command) problem(label string, err error) {
	msg := strings.TrimPrefix(err.Error(), "weblink: ")
	if !c.opts.check {
		c.errorf("%s: %s", label, msg)
		return
	}
	fmt.Fprintf(c.out, "%s: %s: %s\n", label, c.severity(false), msg)
}

// validate prints, for the links of a linkset+json document (whose field
// values Check has not seen), what Link.Validate finds in each link, and for
// every link the well-formed relation types that are neither registered nor
// URIs as warnings (a malformed one is an error already).
func (c *command) validate(links weblink.Links, hints int, fromJSON bool) {
	prefix := weblink.ErrInvalidLink.Error() + ": "
	for i, l := range links {
		name := "link " + strconv.Itoa(c.links-len(links)+i+1) + " <" + clean(shorten(redactUserinfo(l.Target))) + ">"
		if i < hints {
			name += " " + fromHints
		}
		if fromJSON {
			for _, e := range leaves(l.Validate()) {
				fmt.Fprintf(c.out, "%s: %s: %s\n", name, c.severity(false), clean(strings.TrimPrefix(e.Error(), prefix)))
			}
		}
		for _, r := range l.Unregistered() {
			if r == "" || !wellFormedRel(r) {
				continue // Check or Validate reported it as an error
			}
			fmt.Fprintf(c.out, "%s: %s: relation type %q is not registered and not a URI\n", name, c.severity(true), shorten(r))
		}
	}
}

// wellFormedRel reports whether r is a relation type that Link.Validate
// accepts: the syntax of a registered name, or a URI.
func wellFormedRel(r string) bool {
	return weblink.Link{Target: "/", Rel: []string{r}}.Validate() == nil
}

// finish prints what is printed once at the end and returns the exit
// status.
func (c *command) finish() int {
	if c.failed && c.pages == 0 {
		return exitNone // the failure was the whole story
	}
	if c.opts.check {
		more := ""
		if c.capped {
			more = " listed (more were found: see above)"
		}
		fmt.Fprintf(c.out, "%d %s: %d %s%s, %d %s\n", c.links, plural(c.links, "link"),
			c.problems, plural(c.problems, "error"), more, c.warnings, plural(c.warnings, "warning"))
		if c.problems > 0 {
			return exitProblem
		}
	}
	if c.links == 0 {
		if !c.failed {
			c.errorf("no links found")
		}
		return exitNone
	}
	switch {
	case c.opts.rel != "" && c.matches == 0:
		c.errorf("no link has relation type %q", c.opts.rel)
		return exitNone
	case c.opts.json:
		if err := c.writeJSON(); err != nil {
			c.fail(err)
			return exitNone
		}
	case c.unregistered:
		c.out.WriteString("? unregistered relation type\n")
	}
	return exitOK
}

// writeJSON prints the links as an application/linkset+json document
// (RFC 9264 §4.2). A link the format cannot represent (one without a
// relation type, say) is left out with a warning on standard error; after
// maxReported of them, one line counts the rest.
func (c *command) writeJSON() error {
	doc, err := c.collected.MarshalJSON()
	if err != nil {
		var ok weblink.Links
		left := 0 // links left out
		for _, l := range c.collected {
			_, err := (weblink.Links{l}).MarshalJSON()
			var le *weblink.LinksetError
			if errors.As(err, &le) {
				if left++; left <= maxReported {
					reason := le.Msg
					if !hasRel(l) {
						reason = "it has no relation type, and a linkset lists each link under its relation types (RFC 9264 §4.2.2); the table and -format show it"
					}
					c.errorf("-json leaves out <%s>: %s", clean(shorten(l.Target)), clean(reason))
				}
				continue
			}
			ok = append(ok, l)
		}
		if more := left - maxReported; more > 0 {
			c.errorf("-json leaves out %d more %s", more, plural(more, "link"))
		}
		if doc, err = ok.MarshalJSON(); err != nil {
			return err
		}
	}
	c.out.Write(jsonSafe(doc))
	c.out.WriteByte('\n')
	return nil
}

// maxReported is the most links that -json names as left out; the others
// are counted in one line.
const maxReported = 10

// hasRel reports whether l has a relation type.
func hasRel(l weblink.Link) bool {
	for _, r := range l.Rel {
		if r != "" {
			return true
		}
	}
	return false
}

// plural returns word, with an "s" unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
