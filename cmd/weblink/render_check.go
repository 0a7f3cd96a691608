// The renderer of -check, which is also its reporter: each problem that
// weblink.Check finds under its field value with a caret, and a summary.

package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/quote"
)

// checker is the renderer of -check: each problem under its field value
// with a caret, marked error or warning, and a summary at the end.
type checker struct {
	problems int  // problems found
	warnings int  // warnings
	capped   bool // Check listed its most problems for some field value
}

// maxCheckProblems is the most problems weblink.Check lists for one field
// value; the last then says how many more it found.
const maxCheckProblems = 256

// field shows what weblink.Check finds in f: what Parse reports (err), at
// the same offsets, and more. The checker is the reporter of -check.
func (k *checker) field(c *command, f field, _ error) {
	problems := weblink.Check(f.text)
	for _, p := range problems {
		c.positioned(f, p.Offset, p.Msg, p.Warning)
	}
	k.capped = k.capped || len(problems) >= maxCheckProblems
}

// positioned shows a problem at byte off of f under the excerpt of f with
// a caret, marked as an error or a warning.
func (k *checker) positioned(c *command, f field, off int, where, msg string, warning bool) {
	shown, col := excerpt(f.text, off)
	fmt.Fprintf(c.out, "%s\n%s^\n%s: %s: %s\n", shown, strings.Repeat(" ", col), where, k.severity(c, warning), msg)
}

// problem shows a problem without a position.
func (k *checker) problem(c *command, label, msg string) {
	fmt.Fprintf(c.out, "%s: %s: %s\n", label, k.severity(c, false), msg)
}

// severity counts a problem and returns its mark: "error", or "warning"
// for what does not make -check fail.
func (k *checker) severity(c *command, warning bool) string {
	if warning {
		k.warnings++
		return c.style(yellow, "warning")
	}
	k.problems++
	return c.style(red, "error")
}

// page shows, for the links of a linkset+json document (whose field values
// Check has not seen), what Link.Validate finds in each link, and for every
// link the well-formed relation types that are neither registered nor URIs
// as warnings (a malformed one is an error already).
func (k *checker) page(c *command, p *pageLinks) error {
	defer k.templates(c, p)
	prefix := weblink.ErrInvalidLink.Error() + ": "
	for i, l := range p.links {
		name := "link " + strconv.Itoa(c.links-len(p.links)+i+1) + " <" + clean(shorten(redactUserinfo(l.Target))) + ">"
		if i < p.hints {
			name += " " + fromHints
		}
		if p.linkset && i >= p.hints { // a 103's links are from fields, which Check saw
			for _, e := range leaves(l.Validate()) {
				fmt.Fprintf(c.out, "%s: %s: %s\n", name, k.severity(c, false), clean(strings.TrimPrefix(e.Error(), prefix)))
			}
		}
		for _, r := range l.Unregistered() {
			if r == "" || !wellFormedRel(r) {
				continue // Check or Validate reported it as an error
			}
			fmt.Fprintf(c.out, "%s: %s: relation type %q is not registered and not a URI\n", name, k.severity(c, true), shorten(r))
		}
	}
	return nil
}

// wellFormedRel reports whether r is a relation type that Link.Validate
// accepts: the syntax of a registered name, or a URI.
func wellFormedRel(r string) bool {
	return weblink.Link{Target: "/", Rel: []string{r}}.Validate() == nil
}

// end prints the summary: links, errors and warnings. The exit status is
// exitProblem when there are errors; a head without Link fields has
// nothing to fix (exitOK), an empty input nothing checked (exitNone).
func (k *checker) end(c *command) int {
	more := ""
	if k.capped {
		more = " listed (more were found: see above)"
	}
	templates := ""
	if c.tmpls > 0 {
		templates = fmt.Sprintf(", %d templated %s", c.tmpls, quote.Plural(c.tmpls, "link"))
	}
	fmt.Fprintf(c.out, "%d %s%s: %d %s%s, %d %s\n", c.links, quote.Plural(c.links, "link"), templates,
		k.problems, quote.Plural(k.problems, "error"), more, k.warnings, quote.Plural(k.warnings, "warning"))
	switch {
	case k.problems > 0:
		return exitProblem
	case c.links == 0 && c.tmpls == 0 && (c.blank || c.failed):
		return c.noLinks()
	}
	return exitOK
}

// excerpt returns the line of text that holds byte off, printable (clean)
// and cut to a window around off when it is long, and the column of off in
// what it returns. The window starts before off and, unless off is at the
// end of the line, ends after it: a cut moves to a rune boundary by at most
// the length of one UTF-8 sequence, never past off, and bytes that are not
// UTF-8 are cut anywhere.
func excerpt(text string, off int) (shown string, col int) {
	const before, after = 60, 40
	start := strings.LastIndexByte(text[:off], '\n') + 1
	end := len(text)
	if i := strings.IndexByte(text[off:], '\n'); i >= 0 {
		end = off + i
	}
	end = max(start, off, trimCR(text, end))
	prefix, suffix := "", ""
	if off-start > before {
		start = runeStartBack(text, off-before, start)
		prefix = "..."
	}
	if end-off > after {
		end = runeStartForward(text, off+after, end)
		suffix = "..."
	}
	head := prefix + clean(text[start:off])
	return head + clean(text[off:end]) + suffix, textWidth(head)
}

// trimCR returns end, moved before a CR that ends the line.
func trimCR(text string, end int) int {
	if end > 0 && text[end-1] == '\r' {
		return end - 1
	}
	return end
}

// runeStartBack returns i, moved back to the start of the UTF-8 sequence it
// is in, but not below floor; i itself when no sequence start is within
// utf8.UTFMax bytes (the bytes are not UTF-8, and clean shows each alone).
func runeStartBack(s string, i, floor int) int {
	for j := i; j >= max(floor, i-utf8.UTFMax+1); j-- {
		if utf8.RuneStart(s[j]) {
			return j
		}
	}
	return i
}

// runeStartForward returns i, moved forward to the start of the next UTF-8
// sequence when it is inside one, but not beyond limit; i itself when no
// sequence start is within utf8.UTFMax bytes.
func runeStartForward(s string, i, limit int) int {
	for j := i; j < min(limit, i+utf8.UTFMax); j++ {
		if utf8.RuneStart(s[j]) {
			return j
		}
	}
	return i
}
