package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"

	"github.com/weblinking/weblink"
)

// ANSI escape sequences for the table on a terminal.
const (
	bold   = "\x1b[1m"
	yellow = "\x1b[33m"
	red    = "\x1b[31m"
	reset  = "\x1b[0m"
)

// maxColumn is the widest a table column is padded to; a longer cell
// overflows into the next column rather than making every row that wide.
const maxColumn = 60

// cell is one table cell: its text, and the same with colours.
type cell struct {
	text, styled string
}

// table prints links as a table: relation types, target, title and other
// attributes. A column that is empty in every row is left out. pageURL,
// when set, is printed above the table. When the first hints links are from
// 103 Early Hints heads, a first column FROM tells them ("103") from those
// of the final response ("final").
func (c *command) table(pageURL string, links weblink.Links, hints int) {
	if pageURL != "" && c.opts.all {
		if c.pages > 1 {
			c.out.WriteByte('\n')
		}
		c.out.WriteString(c.style(bold, "page "+strconv.Itoa(c.pages)+": "+clean(pageURL)) + "\n")
	}
	if len(links) == 0 {
		if c.opts.all {
			c.out.WriteString("(no links)\n")
		}
		return
	}
	rows := [][]cell{{c.header("FROM"), c.header("REL"), c.header("TARGET"), c.header("TITLE"), c.header("ATTRIBUTES")}}
	for i, l := range links {
		from := cell{}
		if hints > 0 {
			from = cell{"final", "final"}
			if i < hints {
				from = cell{"103", c.style(yellow, "103")}
			}
		}
		rows = append(rows, []cell{from, c.relCell(l), plain(l.Target), cut(title(l)), plain(attributes(l))})
	}
	var widths [5]int // 0 for a column left out
	for _, row := range rows {
		for i, cl := range row {
			widths[i] = max(widths[i], min(textWidth(cl.text), maxColumn))
		}
	}
	for _, i := range [...]int{0, 3, 4} {
		if !hasText(rows[1:], i) {
			widths[i] = 0 // no hints, or a title or attributes column with nothing in it
		}
	}
	var b strings.Builder
	for _, row := range rows {
		b.Reset()
		pad := 0 // spaces owed before the next non-empty cell
		for i, cl := range row {
			if widths[i] == 0 {
				continue
			}
			w := textWidth(cl.text)
			if w > 0 {
				b.WriteString(strings.Repeat(" ", pad))
				b.WriteString(cl.styled)
				pad = 0
			}
			pad += max(widths[i]-w, 0) + 2
		}
		c.out.WriteString(b.String())
		c.out.WriteByte('\n')
	}
}

// hasText reports whether some row has text in column i.
func hasText(rows [][]cell, i int) bool {
	for _, row := range rows {
		if row[i].text != "" {
			return true
		}
	}
	return false
}

// style wraps s in an ANSI colour when colours are on.
func (c *command) style(colour, s string) string {
	if !c.colour {
		return s
	}
	return colour + s + reset
}

// header returns a column heading.
func (c *command) header(s string) cell {
	return cell{s, c.style(bold, s)}
}

// plain returns a cell without colour for the printable form of s, a
// target or the attributes, without the userinfo of the URLs in it.
func plain(s string) cell {
	s = clean(redactUserinfo(s))
	return cell{s, s}
}

// cut returns a cell for the printable form of s, truncated to maxColumn
// columns: a title, which can be read in part (a target is shown whole, to
// be copied, and the attributes, in the last column, overflow nothing).
func cut(s string) cell {
	s = truncate(clean(s), maxColumn)
	return cell{s, s}
}

// textWidth returns the number of terminal columns s takes: two for each
// East Asian wide or fullwidth character (CJK, most emoji), none for
// combining marks and other zero-width characters, one for the others
// (golang.org/x/text/width, Unicode's East Asian Width property).
func textWidth(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

// runeWidth returns the number of terminal columns r takes.
func runeWidth(r rune) int {
	switch {
	case r < 0x300:
		return 1
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// relCell returns the relation types of l, each one that is neither
// registered nor a URI marked with "?".
func (c *command) relCell(l weblink.Link) cell {
	if len(l.Rel) == 0 {
		return cell{"-", "-"}
	}
	unreg := l.Unregistered()
	var text, styled []string
	for _, r := range l.Rel {
		shown := clean(r)
		if len(unreg) > 0 && unreg[0] == r {
			unreg = unreg[1:]
			c.unregistered = true
			text = append(text, shown+"?")
			styled = append(styled, c.style(yellow, shown+"?"))
			continue
		}
		text = append(text, shown)
		styled = append(styled, shown)
	}
	return cell{strings.Join(text, " "), strings.Join(styled, " ")}
}

// title returns the title of l with its language, if any.
func title(l weblink.Link) string {
	if l.TitleLang != "" {
		return l.Title + " (" + l.TitleLang + ")"
	}
	return l.Title
}

// attributes returns the target attributes of l other than its relation
// types and title, as name=value pairs.
func attributes(l weblink.Link) string {
	var attrs []string
	add := func(name, value, lang string) {
		a := name
		if value != "" {
			a += "=" + quoteIfNeeded(value)
		}
		if lang != "" {
			a += " (" + lang + ")"
		}
		attrs = append(attrs, a)
	}
	if l.Anchor != "" {
		add("anchor", l.Anchor, "")
	}
	if len(l.Rev) > 0 {
		add("rev", strings.Join(l.Rev, " "), "")
	}
	for _, h := range l.Hreflang {
		add("hreflang", h, "")
	}
	if l.Media != "" {
		add("media", l.Media, "")
	}
	if l.Type != "" {
		add("type", l.Type, "")
	}
	for _, p := range l.Params {
		add(p.Name, p.Value, p.Lang)
	}
	return strings.Join(attrs, " ")
}

// quoteIfNeeded quotes a value that holds a space or a quote, so that the
// attributes of a row stay apart.
func quoteIfNeeded(s string) string {
	if strings.ContainsAny(s, " \t\"") {
		return strconv.Quote(s)
	}
	return s
}

// clean returns s with what a terminal would interpret or could not show
// escaped: control characters as \xHH or \t, invalid UTF-8 bytes as \xHH,
// other unprintable characters as \uHHHH. Each rune of the result takes one
// column, except wide characters.
func clean(s string) string {
	ok := true
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !strconv.IsPrint(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += n
	}
	return b.String()
}

// shorten cuts a long value for a message.
func shorten(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	i := max
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

// shellSafe returns a target for -rel output: bytes that would end the line,
// split a shell word or drive a terminal (controls, space, DEL, and the
// bytes of non-ASCII characters, among them the C1 controls) are
// percent-encoded, as they must be in a URI anyway (RFC 3987 §3.1 maps an
// IRI to a URI so).
func shellSafe(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
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
