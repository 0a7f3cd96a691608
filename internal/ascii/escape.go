package ascii

import "unicode/utf8"

// Escapes is an escape table: how [Escapes.Append] writes each byte of a
// value. Package weblink (Link fields, ASCII only) and package linkformat
// (link-format documents, UTF-8) write their quoted-strings, relation
// types and targets with the tables they build by [NewEscapes], so that
// the two formatters share one set of byte classes and one escaping loop.
type Escapes struct {
	ascii [utf8.RuneSelf]uint8
	utf8  bool // UTF-8 as is (AppendNonASCII); else every byte >= 0x80 percent-encoded
}

// How Append writes an ASCII byte.
const (
	asIs      = iota
	percent   // %HH
	backslash // \c, in a quoted-string
	lower     // an upper-case letter, lower-cased
)

// NewEscapes returns an escape table that percent-encodes the C0 controls,
// DEL and the bytes of pct, escapes those of escaped with a backslash,
// lower-cases upper-case letters when lowerCase is set, and writes every
// other ASCII byte as is. Bytes from 0x80 on are percent-encoded one by one,
// unless utf8 is set: then valid UTF-8 is written as is, save the C1
// controls (AppendNonASCII).
func NewEscapes(pct, escaped string, lowerCase, utf8 bool) *Escapes {
	e := &Escapes{utf8: utf8}
	for c := range byte(' ') {
		e.ascii[c] = percent
	}
	e.ascii[0x7f] = percent
	for i := range len(pct) {
		e.ascii[pct[i]] = percent
	}
	for i := range len(escaped) {
		e.ascii[escaped[i]] = backslash
	}
	if lowerCase {
		for c := byte('A'); c <= 'Z'; c++ {
			e.ascii[c] = lower
		}
	}
	return e
}

// Append appends s written as the table says, percent-escapes in the
// digits hex (UpperHex or LowerHex). Runs of bytes written as is, usually
// all of s, are copied whole.
func (e *Escapes) Append(b []byte, s, hex string) []byte {
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] < utf8.RuneSelf && e.ascii[s[j]] == asIs {
			j++
		}
		b = append(b, s[i:j]...)
		if j == len(s) {
			break
		}
		c := s[j]
		i = j + 1
		switch {
		case c >= utf8.RuneSelf && e.utf8:
			var size int
			b, size = AppendNonASCII(b, s[j:], hex)
			i = j + size
		case c >= utf8.RuneSelf:
			b = AppendPercent(b, c, hex)
		case e.ascii[c] == percent:
			b = AppendPercent(b, c, hex)
		case e.ascii[c] == backslash:
			b = append(b, '\\', c)
		case e.ascii[c] == lower:
			b = append(b, ToLower(c))
		}
	}
	return b
}

// AppendNonASCII appends the UTF-8 sequence that s starts with, or its
// first byte when that is not valid UTF-8, and returns how many bytes of s
// it took. The sequence is appended as is, unless it is invalid or a C1
// control (U+0080 to U+009F): then it is percent-encoded byte by byte.
// RFC 3987 §2.2 leaves the C1 controls out of the characters of an IRI,
// and a terminal may read U+009B as CSI, the start of an escape sequence.
func AppendNonASCII(b []byte, s, hex string) ([]byte, int) {
	r, size := utf8.DecodeRuneInString(s)
	if size > 1 && r > 0x9f {
		return append(b, s[:size]...), size
	}
	for i := range size {
		b = AppendPercent(b, s[i], hex)
	}
	return b, size
}
