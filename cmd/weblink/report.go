// The report stage: what a renderer gets for a page (pageLinks), and the
// reporter that takes what parsing finds wrong, between the sources
// (source_*.go, head.go) and the renderers (render_*.go).

package main

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/linktemplate"
	"github.com/weblinking/weblink/signposting"
)

// field is one Link field value to parse.
type field struct {
	label string // where it is from: "argument 2", "line 7", "Link line 1"
	line  int    // its first line in standard input; 0 when not from there
	text  string // as written; line breaks are whitespace to the parser
	hint  bool   // whether it is from a 103 Early Hints head
}

// pageLinks is what a renderer gets for a page: its links, parsed and
// resolved.
type pageLinks struct {
	url     string        // the URL of the final head, as shown; "" when unknown
	base    *url.URL      // what the links resolve against: -base or url; nil when neither
	links   weblink.Links // the links of the 103 heads, then those of the final head
	hints   int           // how many of links are from 103 heads
	sources []string      // -discover: where each link came from
	linkset bool          // whether links are from a linkset+json document, which Check has not seen
	// malformed is whether what stands for the final head (its Link
	// fields, a linkset or link-format document, the header -discover
	// read) had a link-value dropped: it may have been the next link.
	malformed bool
	// linkformat is whether the links are from a link-format document,
	// resolved by linkformat.Resolve (RFC 6690 §2.1) rather than
	// Links.Resolve.
	linkformat bool
	// templates are the templated links of the Link-Template fields of
	// the heads (RFC 9652), as sent: shown, never expanded or resolved;
	// the first hintTemplates are from 103 Early Hints heads.
	templates     []linktemplate.Template
	hintTemplates int
	// signposts is what -signposting read, instead of links.
	signposts *signposted
}

// signposted is what signposting.Fetch read for -signposting, and whether
// the fetch failed (and said so).
type signposted struct {
	s      *signposting.Signposts
	failed bool
}

// final returns the links of the final head: those of the resource, not
// the 103 Early Hints for it.
func (p *pageLinks) final() weblink.Links { return p.links[p.hints:] }

// finalTemplates returns the templated links of the final head.
func (p *pageLinks) finalTemplates() []linktemplate.Template {
	return p.templates[p.hintTemplates:]
}

// fromHints marks what comes from a 103 Early Hints head in messages.
const fromHints = "(103 Early Hints)"

// parseProblems reports each problem of err, what parsing f found: at its
// byte when it is a *weblink.SyntaxError.
func (c *command) parseProblems(f field, err error) {
	for _, e := range leaves(err) {
		var se *weblink.SyntaxError
		if errors.As(e, &se) {
			c.positioned(f, se.Offset, se.Msg, false)
		} else {
			c.problem(f.label, e)
		}
	}
}

// leaves returns the errors that err joins (errors.Join), or err itself:
// each problem that Parse or Validate found. Only the top level is split:
// an error that wraps a *weblink.SyntaxError with its cause stays whole.
func leaves(err error) []error {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		if err == nil {
			return nil
		}
		return []error{err}
	}
	var out []error
	for _, e := range j.Unwrap() {
		out = append(out, leaves(e)...)
	}
	return out
}

// A reporter is the report stage: it takes what parsing finds wrong in
// the input, so that the sources and head.go never call a renderer. The
// mode picks it with the renderer (mode.go): -check's renderer, which
// shows problems on standard output and checks each field value itself,
// or stderrReport.
type reporter interface {
	// field reports the problems of f, one Link field value, whose
	// parse returned err.
	field(c *command, f field, err error)
	// positioned reports a problem at byte off of f; where says where.
	positioned(c *command, f field, off int, where, msg string, warning bool)
	// problem reports a problem without a position.
	problem(c *command, label, msg string)
}

// stderrReport is the reporter of every mode but -check: each problem on a
// line of standard error.
type stderrReport struct{}

func (stderrReport) field(c *command, f field, err error) { c.parseProblems(f, err) }

func (stderrReport) positioned(c *command, _ field, _ int, where, msg string, _ bool) {
	c.errorf("%s: %s", where, msg)
}

func (stderrReport) problem(c *command, label, msg string) { c.errorf("%s: %s", label, msg) }

// positioned reports a problem at byte off of f: a link-value that Parse
// dropped, a parameter it could not decode, what makes a linkset+json
// document invalid, or with -check what weblink.Check found.
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
	c.report.positioned(c, f, off, where, clean(msg), warning)
}

// problem reports an error without a position.
func (c *command) problem(label string, err error) {
	c.report.problem(c, label, strings.TrimPrefix(err.Error(), "weblink: "))
}
