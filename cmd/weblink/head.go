package main

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/linkformat"
	"github.com/weblinking/weblink/linktemplate"
)

// A page is what a source hands on for one resource: the response heads
// it got (or one head standing for the input), a linkset+json document, or
// the links a discovery found.
type page struct {
	// heads are the 103 Early Hints heads, in order, then the final head,
	// whose links are the resource's: every head but the last is a 103.
	heads      []head
	linkset    *document   // an application/linkset+json document, instead of heads
	linkformat *document   // an application/link-format document (RFC 6690), instead of the heads' links
	discovered *discovered // -discover: the links of a header and a body, instead of heads
	blank      bool        // the input was empty or blank: its one head stands for nothing read
}

// A head is one response head, or what stands for one: the link values
// given as arguments, a header block, field values read from standard
// input.
type head struct {
	status    int      // its status code; 0 when the input has no status line
	url       string   // the URL it answers, after redirects, as shown (showURL); "" when unknown
	base      *url.URL // what its links resolve against: -base, moved by redirects, or url; nil when unknown
	links     []field  // its Link field values
	templates []field  // its Link-Template field lines (RFC 9652), as sent
}

// field is one Link field value to parse.
type field struct {
	label string // where it is from: "argument 2", "line 7", "Link line 1"
	line  int    // its first line in standard input; 0 when not from there
	text  string // as written; line breaks are whitespace to the parser
	hint  bool   // whether it is from a 103 Early Hints head
}

// document is an input that is one document rather than field values: an
// application/linkset+json or an application/link-format document.
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
	// malformed is whether the header of the resource had a link-value
	// dropped.
	malformed bool
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

// linksOf parses the heads or the document of p, reporting what could not
// be parsed, and resolves the links against the base of its final head
// (-base for a document).
func (c *command) linksOf(p page) *pageLinks {
	if d := p.discovered; d != nil {
		return &pageLinks{base: d.base, links: d.links, sources: d.sources, malformed: d.malformed}
	}
	pl := &pageLinks{}
	base := c.opts.baseURL
	if n := len(p.heads); n > 0 {
		pl.url, base = p.heads[n-1].url, p.heads[n-1].base
	}
	// A link-format or linkset+json page's final head stands for the
	// document: only its 103 heads have fields.
	pl.links, pl.hints, pl.malformed = c.parseHeads(p.heads)
	pl.templates, pl.hintTemplates = c.parseTemplates(p.heads)
	if p.linkset != nil {
		links, malformed := c.parseLinkset(p.linkset)
		pl.links, pl.linkset = append(pl.links, links...), true
		pl.malformed = pl.malformed || malformed
	}
	if base != nil {
		pl.links = pl.links.Resolve(base)
	}
	if p.linkformat != nil {
		links, malformed := c.parseLinkFormat(p.linkformat)
		pl.links, pl.linkformat = append(pl.links, resolveLinkFormat(links, base)...), true
		pl.malformed = pl.malformed || malformed
	}
	pl.base = base
	return pl
}

// resolveLinkFormat resolves the links of a link-format document against
// base as RFC 6690 §2.1 says (linkformat.Resolve); without a base, their
// targets and anchors stay as written.
func resolveLinkFormat(links weblink.Links, base *url.URL) weblink.Links {
	if base == nil {
		return hostsByDefault(links)
	}
	return linkformat.Resolve(links, base)
}

// hostsByDefault gives each link of a link-format document that has no
// relation type the default one, hosts (RFC 6690 §2.2): what
// linkformat.Resolve does besides resolving, for a document without a
// base, whose targets and anchors stay as written.
func hostsByDefault(links weblink.Links) weblink.Links {
	for i := range links {
		if len(links[i].Rel) == 0 {
			links[i].Rel = []string{"hosts"}
		}
	}
	return links
}

// parseLinkset parses a linkset+json document and reports what makes it
// invalid; malformed is whether it is.
func (c *command) parseLinkset(doc *document) (links weblink.Links, malformed bool) {
	links, err := weblink.ParseLinksetJSON(doc.text)
	c.dropped = c.dropped || err != nil
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
	return links, err != nil
}

// parseLinkFormat parses a link-format document and reports, with their
// line and byte, the link-values it dropped; malformed is whether it
// dropped some.
func (c *command) parseLinkFormat(doc *document) (links weblink.Links, malformed bool) {
	links, err := linkformat.Parse(doc.text)
	c.parseProblems(field{label: "input", line: doc.line, text: string(doc.text)}, err)
	return links, err != nil
}

// parseHeads parses the Link field values of heads and reports what could
// not be parsed, or with -check what weblink.Check finds. The first hints
// links are from 103 Early Hints heads; malformed is whether a link-value
// of the final head was dropped.
func (c *command) parseHeads(heads []head) (all weblink.Links, hints int, malformed bool) {
	fc, checking := c.render.(fieldChecker)
	for i, h := range heads {
		for _, f := range h.links {
			f.hint = i < len(heads)-1
			links, err := weblink.Parse(f.text) // CR and LF are whitespace, as in application/linkset
			all = append(all, links...)
			if f.hint {
				hints += len(links)
			} else if err != nil {
				malformed = true
			}
			c.dropped = c.dropped || err != nil
			if checking {
				fc.checkField(c, f)
				continue
			}
			c.parseProblems(f, err)
		}
	}
	return all, hints, malformed
}

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

// parseTemplates parses the Link-Template field lines of each head as one
// field (RFC 9651 §4.2 combines the lines) and reports a field that
// linktemplate.Parse ignored: where, when the field is one line. The
// first hints templates are from 103 Early Hints heads.
func (c *command) parseTemplates(heads []head) (all []linktemplate.Template, hints int) {
	for i, h := range heads {
		if len(h.templates) == 0 {
			continue
		}
		lines := make([]string, len(h.templates))
		for j, f := range h.templates {
			lines[j] = f.text
		}
		ts, err := linktemplate.ParseHeader(http.Header{"Link-Template": lines})
		all = append(all, ts...)
		c.dropped = c.dropped || err != nil
		var se *linktemplate.SyntaxError
		f := h.templates[0]
		if f.hint = i < len(heads)-1; f.hint {
			hints += len(ts)
		}
		switch {
		case errors.As(err, &se) && len(lines) == 1 && se.Offset >= 0:
			c.positioned(f, se.Offset, "Link-Template: "+se.Msg, false)
		case err != nil:
			c.problem(f.label, err)
		}
	}
	return all, hints
}

// droppedInput reports whether err, a problem of discover.Links or
// discover.APICatalog, says that input was dropped as malformed: a
// link-value or a parameter (*weblink.SyntaxError), or a linkset
// (*weblink.LinksetError).
func droppedInput(err error) bool {
	var se *weblink.SyntaxError
	var le *weblink.LinksetError
	return errors.As(err, &se) || errors.As(err, &le)
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
