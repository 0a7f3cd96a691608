package main

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/weblinking/weblink"
)

// A page is what a source hands on for one resource: the response heads
// it got (or one head standing for the input), a linkset+json document, or
// the links a discovery found.
type page struct {
	// heads are the 103 Early Hints heads, in order, then the final head,
	// whose links are the resource's: every head but the last is a 103.
	heads      []head
	linkset    *document   // an application/linkset+json document, instead of heads
	discovered *discovered // -discover: the links of a header and a body, instead of heads
}

// A head is one response head, or what stands for one: the link values
// given as arguments, a header block, field values read from standard
// input.
type head struct {
	status    int     // its status code; 0 when the input has no status line
	url       string  // the URL it answers, after redirects, as shown (showURL); "" when unknown
	links     []field // its Link field values
	templates []field // its Link-Template field values (RFC 9652), as sent; not shown yet
}

// field is one Link field value to parse.
type field struct {
	label string // where it is from: "argument 2", "line 7", "Link line 1"
	line  int    // its first line in standard input; 0 when not from there
	text  string // as written; line breaks are whitespace to the parser
	hint  bool   // whether it is from a 103 Early Hints head
}

// document is an input that is one document rather than field values: an
// application/linkset+json document.
type document struct {
	text []byte
	line int // the line of standard input where it starts
}

// discovered is what discover.Links found: links already resolved, each
// with where it came from.
type discovered struct {
	links   weblink.Links
	sources []string // header, link, a, area, feed or linkset, one per link
	base    *url.URL // the URL the requests were redirected to, without userinfo
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
}

// fromHints marks what comes from a 103 Early Hints head in messages.
const fromHints = "(103 Early Hints)"

// linksOf parses the heads or the document of p, reporting what could not
// be parsed, and resolves the links against -base or the URL of its final
// head.
func (c *command) linksOf(p page) *pageLinks {
	if d := p.discovered; d != nil {
		return &pageLinks{base: d.base, links: d.links, sources: d.sources}
	}
	pl := &pageLinks{}
	if n := len(p.heads); n > 0 {
		pl.url = p.heads[n-1].url
	}
	base := c.opts.baseURL
	if base == nil && pl.url != "" {
		base, _ = url.Parse(pl.url)
	}
	if p.linkset != nil {
		pl.links, pl.linkset = c.parseLinkset(p.linkset), true
	} else {
		pl.links, pl.hints = c.parseHeads(p.heads)
	}
	if base != nil {
		pl.links = pl.links.Resolve(base)
	}
	pl.base = base
	return pl
}

// parseLinkset parses a linkset+json document and reports what makes it
// invalid.
func (c *command) parseLinkset(doc *document) weblink.Links {
	var links weblink.Links
	err := links.UnmarshalJSON(doc.text)
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
		f := field{label: "input", line: doc.line, text: string(doc.text)}
		c.positioned(f, int(le.Offset), msg, false)
	case err != nil:
		c.problem("input", err)
	}
	return links
}

// parseHeads parses the Link field values of heads and reports what could
// not be parsed, or with -check what weblink.Check finds. The first hints
// links are from 103 Early Hints heads.
func (c *command) parseHeads(heads []head) (all weblink.Links, hints int) {
	fc, checking := c.render.(fieldChecker)
	for i, h := range heads {
		for _, f := range h.links {
			f.hint = i < len(heads)-1
			links, err := weblink.Parse(f.text) // CR and LF are whitespace, as in application/linkset
			all = append(all, links...)
			if f.hint {
				hints += len(links)
			}
			if checking {
				fc.checkField(c, f)
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

// A fieldChecker is a renderer that checks each field value itself, and
// shows on standard output, rather than on standard error, what parsing
// finds wrong: the renderer of -check.
type fieldChecker interface {
	renderer
	// checkField shows the problems of f.
	checkField(c *command, f field)
	// positioned shows a problem at byte off of f, where says where.
	positioned(c *command, f field, off int, where, msg string, warning bool)
	// problem shows a problem without a position.
	problem(c *command, label, msg string)
}

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
	msg = clean(msg)
	if fc, ok := c.render.(fieldChecker); ok {
		fc.positioned(c, f, off, where, msg, warning)
		return
	}
	c.errorf("%s: %s", where, msg)
}

// problem reports an error without a position.
func (c *command) problem(label string, err error) {
	msg := strings.TrimPrefix(err.Error(), "weblink: ")
	if fc, ok := c.render.(fieldChecker); ok {
		fc.problem(c, label, msg)
		return
	}
	c.errorf("%s: %s", label, msg)
}
