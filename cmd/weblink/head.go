// What a source hands on (page, head, document, discovered) and the parsing
// of it into the links a renderer gets (linksOf): Link and Link-Template
// fields, linkset+json and link-format documents. Problems go to the report
// stage (report.go).

package main

import (
	"errors"
	"net/http"
	"net/url"

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
	signposts  *signposted // -signposting: what signposting.Fetch read, instead of heads
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

// linksOf parses the heads or the document of p, reporting what could not
// be parsed, and resolves the links against the base of its final head
// (-base for a document).
func (c *command) linksOf(p page) *pageLinks {
	if p.signposts != nil {
		return &pageLinks{signposts: p.signposts}
	}
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

// parseHeads parses the Link field values of heads and hands each, with
// its error, to the report stage (with -check, it shows what weblink.Check
// finds). The first hints
// links are from 103 Early Hints heads; malformed is whether a link-value
// of the final head was dropped.
func (c *command) parseHeads(heads []head) (all weblink.Links, hints int, malformed bool) {
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
			c.report.field(c, f, err)
		}
	}
	return all, hints, malformed
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
