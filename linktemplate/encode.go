package linktemplate

import (
	"strings"

	"github.com/weblinking/weblink/internal/ascii"
)

// Encoding of expanded values and literals (RFC 6570 §1.5, §3.1, §3.2.1).

// Character classes of RFC 3986 §2, for one byte.
const (
	unreserved = 1 << iota // ALPHA / DIGIT / "-" / "." / "_" / "~"
	reserved               // gen-delims / sub-delims: ":/?#[]@" and "!$&'()*+,;="
)

// classes holds the RFC 3986 class of each ASCII byte; bytes ≥ 0x80 (the
// UTF-8 of non-ASCII characters) are in neither class.
var classes = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = unreserved, unreserved
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = unreserved
	}
	for _, c := range "-._~" {
		t[c] = unreserved
	}
	for _, c := range ":/?#[]@!$&'()*+,;=" {
		t[c] = reserved
	}
	return t
}()

// keeps reports whether c is written as it is: unreserved, or reserved when
// allowReserved.
func keeps(c byte, allowReserved bool) bool {
	k := classes[c] & unreserved
	if allowReserved {
		k = classes[c]
	}
	return k != 0
}

// isPctEncoded reports whether s[i:] starts with a pct-encoded triplet
// (RFC 3986 §2.1): "%" HEXDIG HEXDIG.
func isPctEncoded(s string, i int) bool {
	return i+2 < len(s) && s[i] == '%' && isHex(s[i+1]) && isHex(s[i+2])
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// output is where an expansion goes. It runs twice over the same
// expansion code: first measuring (b nil, only n counts), so that an
// expansion longer than max is refused before any of it is built, then
// writing into b, grown once to the measured length.
type output struct {
	b         strings.Builder
	n         int  // length of the expansion so far
	measuring bool // count only
}

// str appends s as it is.
func (o *output) str(s string) {
	o.n += len(s)
	if !o.measuring {
		o.b.WriteString(s)
	}
}

// byte appends c as it is.
func (o *output) byte(c byte) {
	o.n++
	if !o.measuring {
		o.b.WriteByte(c)
	}
}

// encoded appends s with every byte outside the unreserved set (and, when
// allowReserved, the reserved set) pct-encoded with upper-case hex digits
// (RFC 6570 §3.2.1). Strings are UTF-8, so a non-ASCII character becomes
// the pct-encoding of its UTF-8 bytes (ü is %C3%BC). When allowReserved
// (the + and # operators, and literals), a pct-encoded triplet already in
// s is kept, not encoded again; a "%" that starts no triplet is %25.
func (o *output) encoded(s string, allowReserved bool) {
	for i := 0; i < len(s); {
		start := i
		for i < len(s) && (keeps(s[i], allowReserved) || allowReserved && isPctEncoded(s, i)) {
			if s[i] == '%' {
				i += 2
			}
			i++
		}
		o.str(s[start:i])
		if i < len(s) {
			c := s[i]
			o.n += 3
			if !o.measuring {
				o.b.WriteByte('%')
				o.b.WriteByte(ascii.UpperHex[c>>4])
				o.b.WriteByte(ascii.UpperHex[c&15])
			}
			i++
		}
	}
}
