// Text for a terminal: display width, escaping what a terminal would
// interpret, shortening.

package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

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
func shorten(s string) string { return shortenTo(s, 80) }

// shortenTo cuts s to at most n bytes and a rune boundary, ending it with
// "..." when it was cut.
func shortenTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

// truncate cuts s, printable text, to at most n columns, ending it with
// "..." when it was cut.
func truncate(s string, n int) string {
	if textWidth(s) <= n {
		return s
	}
	var b strings.Builder
	w := 0
	for _, r := range s {
		rw := runeWidth(r)
		if w+rw > n-3 {
			break
		}
		b.WriteRune(r)
		w += rw
	}
	return b.String() + "..."
}

// quoteUnlessPrintable returns s, or s quoted with only ASCII in the quotes
// when it holds anything but printable ASCII.
func quoteUnlessPrintable(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return strconv.QuoteToASCII(s)
		}
	}
	return s
}
