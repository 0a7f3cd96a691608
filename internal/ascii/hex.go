package ascii

import "bytes"

// UpperHex are the digits of a percent-encoding (RFC 3986 §2.1):
// upper-case, which §2.1 asks producers to use, relation types included.
// LowerHex are those of Go's \x escapes in error messages.
const (
	UpperHex = "0123456789ABCDEF"
	LowerHex = "0123456789abcdef"
)

// AppendPercent appends the percent-encoding of c to b: "%" and the two
// digits of c in hex, such as UpperHex (RFC 3986 §2.1).
func AppendPercent(b []byte, c byte, hex string) []byte {
	return append(b, '%', hex[c>>4], hex[c&15])
}

// UpperEscapes upper-cases, in place, the hex digits of every %HH escape
// in b: they are case-insensitive, and RFC 3986 §2.1 and §6.2.2.1 ask that
// producers and normalisers use upper case. Other bytes are left alone.
func UpperEscapes(b []byte) {
	for i := bytes.IndexByte(b, '%'); i >= 0 && i+2 < len(b); {
		if isHex(b[i+1]) && isHex(b[i+2]) {
			b[i+1], b[i+2] = toUpper(b[i+1]), toUpper(b[i+2])
		}
		j := bytes.IndexByte(b[i+1:], '%')
		if j < 0 {
			break
		}
		i += 1 + j
	}
}

// isHex reports whether c is a hex digit (RFC 3986 §2.1: HEXDIG, either
// case).
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f'
}

// toUpper returns c upper-cased when it is an ASCII lower-case letter.
func toUpper(c byte) byte {
	if c-'a' < 26 {
		c -= 'a' - 'A'
	}
	return c
}
