// Package ascii holds the ASCII helpers that the weblink package and the
// weblink command share: letter case, case-folding comparison, the printable
// check, the token test of RFC 9110 §5.6.2, percent-encoding
// (AppendPercent), and the scanners that read a machine word at a time:
// ClassRun, which scans runs of a byte class, and IndexEither, which finds
// the first of two bytes.
//
// Unlike strings.ToLower and strings.EqualFold, they leave every byte that
// is not an ASCII letter alone: the names and relation types of RFC 8288
// compare ASCII case-insensitively (RFC 8288 §2.1.1, §2.1.2, §3), so the
// Kelvin sign U+212A is not "k".
package ascii

// ToLower returns c lower-cased when it is an ASCII upper-case letter, and c
// otherwise.
func ToLower(c byte) byte {
	if c-'A' < 26 {
		c += 'a' - 'A'
	}
	return c
}

// Lower returns s with its ASCII letters lower-cased, allocating only when s
// holds an upper-case letter.
func Lower(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i]-'A' < 26 {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = ToLower(b[j])
			}
			return string(b)
		}
	}
	return s
}

// AppendLower appends s to b with its ASCII letters lower-cased.
func AppendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		b = append(b, ToLower(s[i]))
	}
	return b
}

// EqualFold reports whether a and b are equal with ASCII letters folded.
func EqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if ToLower(a[i]) != ToLower(b[i]) {
			return false
		}
	}
	return true
}

// IsPrint reports whether every byte of s is printable ASCII, 0x20 to 0x7E,
// which a quoted-string carries as it is (RFC 9110 §5.6.4).
func IsPrint(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// IsTokenChar reports whether c is a tchar (RFC 9110 §5.6.2):
//
//	tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." /
//	        "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
func IsTokenChar(c byte) bool { return tchar[c] }

// IsToken reports whether s is a non-empty token (RFC 9110 §5.6.2):
//
//	token = 1*tchar
func IsToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !tchar[s[i]] {
			return false
		}
	}
	return true
}

// tchar marks the bytes that are a tchar. It is never written.
var tchar = [256]bool{
	'!': true, '#': true, '$': true, '%': true, '&': true, '\'': true, '*': true,
	'+': true, '-': true, '.': true, '^': true, '_': true, '`': true, '|': true, '~': true,
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true,
	'8': true, '9': true,
	'A': true, 'B': true, 'C': true, 'D': true, 'E': true, 'F': true, 'G': true, 'H': true,
	'I': true, 'J': true, 'K': true, 'L': true, 'M': true, 'N': true, 'O': true, 'P': true,
	'Q': true, 'R': true, 'S': true, 'T': true, 'U': true, 'V': true, 'W': true, 'X': true,
	'Y': true, 'Z': true,
	'a': true, 'b': true, 'c': true, 'd': true, 'e': true, 'f': true, 'g': true, 'h': true,
	'i': true, 'j': true, 'k': true, 'l': true, 'm': true, 'n': true, 'o': true, 'p': true,
	'q': true, 'r': true, 's': true, 't': true, 'u': true, 'v': true, 'w': true, 'x': true,
	'y': true, 'z': true,
}

// ClassRun returns the index of the first byte of s at or after i whose
// class in the table t does not have a bit of class, or len(s). It tests
// eight bytes at a time, and-ing their classes, which costs about half as
// many instructions a byte as a byte loop on runs such as a URI.
func ClassRun(t *[256]uint8, s string, i int, class uint8) int {
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8]
		if t[w[0]]&t[w[1]]&t[w[2]]&t[w[3]]&t[w[4]]&t[w[5]]&t[w[6]]&t[w[7]]&class == 0 {
			break
		}
	}
	for i < len(s) && t[s[i]]&class != 0 {
		i++
	}
	return i
}
