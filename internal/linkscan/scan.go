package linkscan

import (
	"strings"

	"github.com/weblinking/weblink/internal/ascii"
)

// QuotedEnd returns the index just past the quoted-string starting at s[i],
// whether it holds a quoted-pair, and whether it is closed (len(s) when it
// is not) (RFC 9110 §5.6.4):
//
//	quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE
//	quoted-pair   = "\\" ( HTAB / SP / VCHAR / obs-text )
func QuotedEnd(s string, i int) (end int, escaped, closed bool) {
	i++
	for pairs := 0; pairs < denseEscapes; pairs++ {
		// Runs of qdtext a word at a time, up to a quote or backslash.
		j := ascii.IndexEither(s, i, '"', '\\')
		switch {
		case j == len(s):
			return len(s), escaped, false
		case s[j] == '"':
			return j + 1, escaped, true
		}
		escaped = true
		i = j + 2 // past the quoted-pair
	}
	// Many quoted-pairs, such as x\" repeated: the runs between them are
	// too short for a word at a time to pay.
	for ; i < len(s); i++ {
		if quoteStop[s[i]] {
			if s[i] == '"' {
				return i + 1, true, true
			}
			i++ // the escaped byte
		}
	}
	return len(s), true, false
}

// denseEscapes is how many quoted-pairs QuotedEnd skips a word at a time
// before it goes on byte by byte.
const denseEscapes = 4

// quoteStop marks the bytes that end a run of qdtext: DQUOTE and
// backslash. It is never written.
var quoteStop = [256]bool{'"': true, '\\': true}

// SkipElement returns the index just past the next comma at or after i
// that is outside quoted-strings and <...>, or len(s): where parsing
// resumes after a malformed link-value (rule 8 of package weblink), the way
// browsers split the field.
func SkipElement(s string, i int) int {
	i, _ = NextElement(s, i)
	return i
}

// NextElement is SkipElement that also reports whether it found that
// comma, rather than the end of s.
func NextElement(s string, i int) (next int, comma bool) {
	for i < len(s) {
		switch s[i] {
		case ',':
			return i + 1, true
		case '"':
			i, _, _ = QuotedEnd(s, i)
		case '<':
			j := strings.IndexByte(s[i:], '>')
			if j < 0 {
				return len(s), false
			}
			i += j + 1
		default:
			i++
		}
	}
	return i, false
}

// StrayOpen reports, for the link-value whose "<" is at s[open] and whose
// first ">" is at s[gt], where it is malformed when its target holds a
// "<", which no URI-reference or IRI holds (RFC 3986 §2, RFC 3987 §2.2):
// the ">" is almost always missing and the "<" opens the next link-value.
// It returns the comma before the last such "<" when only whitespace
// separates them (comma set: the ">" is missing there, and parsing resumes
// after it), else that "<"; and -1 when the target holds no "<".
func StrayOpen(s string, open, gt int) (off int, comma bool) {
	lt := strings.LastIndexByte(s[open+1:gt], '<')
	if lt < 0 {
		return -1, false
	}
	lt += open + 1
	j := lt
	for j > open+1 && isWhitespace(s[j-1]) {
		j--
	}
	if j > open+1 && s[j-1] == ',' {
		return j - 1, true
	}
	return lt, false
}

// isWhitespace reports whether c is OWS (SP, HTAB) or CR or LF.
func isWhitespace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
