// The renderer of -json: an application/linkset+json document (RFC 9264).

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/quote"
	"github.com/weblinking/weblink/linktemplate"
)

// linksetJSON is the renderer of -json: it collects the links of every
// page and prints them at the end as one application/linkset+json
// document (RFC 9264 §4.2).
type linksetJSON struct {
	collected weblink.Links           // every link so far
	templates []linktemplate.Template // every templated link so far (Link-Template)
}

// page collects the links and the templated links of the final head of p,
// each link without anchor anchored at the base of p: the context of a
// link is its base (RFC 8288 §3.2).
func (j *linksetJSON) page(c *command, p *pageLinks) error {
	for _, l := range p.final() {
		if l.Anchor == "" && p.base != nil {
			l.Anchor = p.base.String()
		}
		j.collected = append(j.collected, l)
	}
	j.templates = append(j.templates, p.finalTemplates()...)
	return nil
}

// end prints the document, an empty linkset when there are no links (so
// that a pipe into jq works), and then says that there were none. The exit
// status is exitNone also when every link was left out of the document,
// which the warnings explain.
func (j *linksetJSON) end(c *command) int {
	written, err := j.write(c)
	switch {
	case err != nil:
		c.fail(err)
		return exitNone
	case len(j.collected) == 0 && len(j.templates) == 0:
		return c.noLinks()
	case written == 0 && len(j.templates) == 0:
		return exitNone
	}
	return exitOK
}

// jsonSafe returns doc, a JSON text, with the characters that terminals and
// text renderers act on and encoding/json writes raw escaped as \uXXXX: the
// C1 controls (U+0080 to U+009F) and the bidi formatting characters
// (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069). Outside
// strings JSON is ASCII, so every one of them is inside a string, where the
// escape means the same character. doc is returned as it is when it holds
// none.
func jsonSafe(doc []byte) []byte {
	var out []byte
	done := 0 // doc[:done] is in out
	for i := 0; i < len(doc); i++ {
		if doc[i] < utf8.RuneSelf {
			continue
		}
		r, n := utf8.DecodeRune(doc[i:])
		if isTerminalFormat(r) {
			out = append(out, doc[done:i]...)
			out = fmt.Appendf(out, `\u%04x`, r)
			done = i + n
		}
		i += n - 1
	}
	if out == nil {
		return doc
	}
	return append(out, doc[done:]...)
}

// isTerminalFormat reports whether r is a C1 control or a bidi formatting
// character (Unicode's Bidi_Control property, as UAX #9 lists them).
func isTerminalFormat(r rune) bool {
	switch {
	case 0x80 <= r && r <= 0x9f, r == 0x061c, r == 0x200e, r == 0x200f,
		0x202a <= r && r <= 0x202e, 0x2066 <= r && r <= 0x2069:
		return true
	}
	return false
}

// write prints the links as an application/linkset+json document
// (RFC 9264 §4.2). A link the format cannot represent (one without a
// relation type, say) is left out with a warning on standard error; after
// maxReported of them, one line counts the rest. written is the number of
// links in the document.
func (j *linksetJSON) write(c *command) (written int, err error) {
	written = len(j.collected)
	doc, err := weblink.FormatLinksetJSON(j.collected)
	if err != nil {
		var ok weblink.Links
		left := 0 // links left out
		for _, l := range j.collected {
			_, err := weblink.FormatLinksetJSON(weblink.Links{l})
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
			c.errorf("-json leaves out %d more %s", more, quote.Plural(more, "link"))
		}
		if doc, err = weblink.FormatLinksetJSON(ok); err != nil {
			return 0, err
		}
		written = len(ok)
	}
	c.out.Write(jsonSafe(withTemplates(doc, j.templates)))
	c.out.WriteByte('\n')
	return written, nil
}

// withTemplates returns doc, a linkset document, with a "link-template"
// member after "linkset" when there are templated links: an array of one
// object per template, in order, with its URI Template as sent (never
// expanded), its relation types, anchor and var-base when present, and
// its other parameters in a "params" object, in order:
//
//	"link-template": [
//	  { "template": "/widgets/{id}", "rel": ["item"], "var-base": "https://example.org/vars/", "params": { "title": "Widget" } }
//	]
func withTemplates(doc []byte, ts []linktemplate.Template) []byte {
	if len(ts) == 0 {
		return doc
	}
	doc = bytes.TrimRight(doc, " \n")
	doc = append(bytes.TrimRight(doc[:len(doc)-1], " \n"), ",\n  \"link-template\": [\n"...)
	for i, t := range ts {
		doc = append(doc, `    { "template": `...)
		doc = appendJSONString(doc, t.Template)
		if len(t.Rel) > 0 {
			doc = append(doc, `, "rel": [`...)
			for k, r := range t.Rel {
				if k > 0 {
					doc = append(doc, ", "...)
				}
				doc = appendJSONString(doc, r)
			}
			doc = append(doc, ']')
		}
		for _, p := range [...][2]string{{"anchor", t.Anchor}, {"var-base", t.VarBase}} {
			if p[1] != "" {
				doc = append(doc, ", "...)
				doc = appendJSONString(doc, p[0])
				doc = append(doc, ": "...)
				doc = appendJSONString(doc, p[1])
			}
		}
		if len(t.Params) > 0 {
			doc = append(doc, `, "params": { `...)
			for k, p := range t.Params {
				if k > 0 {
					doc = append(doc, ", "...)
				}
				doc = appendJSONString(doc, p.Name)
				doc = append(doc, ": "...)
				doc = appendJSONString(doc, p.Value)
			}
			doc = append(doc, " }"...)
		}
		doc = append(doc, " }"...)
		if i < len(ts)-1 {
			doc = append(doc, ',')
		}
		doc = append(doc, '\n')
	}
	return append(doc, "  ]\n}"...)
}

// appendJSONString appends s as a JSON string.
func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
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
