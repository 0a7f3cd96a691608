package weblink

import (
	"github.com/weblinking/weblink/internal/ascii"
)

// Character classes of RFC 9110 §5.6 and RFC 8187 §3.2.1, as byte tables.
const (
	isTchar     = 1 << iota // tchar (RFC 9110 §5.6.2)
	isAttrChar              // attr-char (RFC 8187 §3.2.1)
	isSpace                 // OWS in a field value, plus CR and LF (linkset documents)
	isUpper                 // A-Z
	isURIChar               // unreserved, gen-delims and sub-delims (RFC 3986 §2.2, §2.3)
	isCharsetc              // mime-charsetc (RFC 8187 §3.2.1)
	isTagChar               // ALPHA / DIGIT / "-", the bytes of a language tag (RFC 5646 §2.1)
	isQuoteStop             // DQUOTE or backslash: ends the run of qdtext in a quoted-string (RFC 9110 §5.6.4)
)

var charClass = func() (t [256]uint8) {
	for c := range t {
		if ascii.IsTokenChar(byte(c)) {
			t[c] |= isTchar
		}
	}
	for c := '0'; c <= '9'; c++ {
		t[c] |= isAttrChar
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] |= isAttrChar
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] |= isAttrChar | isUpper
	}
	// attr-char = ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." /
	//             "^" / "_" / "`" / "|" / "~"
	for _, c := range "!#$&+-.^_`|~" {
		t[c] |= isAttrChar
	}
	// unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
	// gen-delims = ":" / "/" / "?" / "#" / "[" / "]" / "@"
	// sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
	for _, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=" {
		t[c] |= isURIChar
	}
	for _, c := range " \t\r\n" {
		t[c] |= isSpace
	}
	// mime-charsetc = ALPHA / DIGIT / "!" / "#" / "$" / "%" / "&" / "+" /
	//                 "-" / "^" / "_" / "`" / "{" / "}" / "~"
	for _, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&+-^_`{}~" {
		t[c] |= isCharsetc
	}
	for _, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-" {
		t[c] |= isTagChar
	}
	t['"'] |= isQuoteStop
	t['\\'] |= isQuoteStop
	return t
}()

// hexValue holds the value of each hex digit (RFC 5234 HEXDIG, in either
// case) and notHex for every other byte, so that hexValue[a]|hexValue[b]
// is below 16 exactly when both are hex digits.
var hexValue = func() (t [256]uint8) {
	for c := range t {
		t[c] = notHex
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = uint8(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = uint8(c - 'a' + 10)
		t[c-'a'+'A'] = uint8(c - 'a' + 10)
	}
	return t
}()

// escapeAt reports whether a pct-encoded octet starts at s[i] (RFC 3986
// §2.1, RFC 8187 §3.2.1):
//
//	pct-encoded = "%" HEXDIG HEXDIG
func escapeAt(s string, i int) bool {
	return s[i] == '%' && i+2 < len(s) && hexValue[s[i+1]]|hexValue[s[i+2]] < notHex
}

// notHex marks the bytes that are not hex digits in hexValue.
const notHex = 0x10

// skipSpace returns the index of the first byte at or after i that is not
// whitespace.
func skipSpace(s string, i int) int {
	// Every whitespace byte is at most ' ', so most bytes need no table.
	for i < len(s) && s[i] <= ' ' && charClass[s[i]]&isSpace != 0 {
		i++
	}
	return i
}

// trimSpace removes leading and trailing whitespace.
func trimSpace(s string) string {
	for len(s) > 0 && s[0] <= ' ' && charClass[s[0]]&isSpace != 0 {
		s = s[1:]
	}
	for len(s) > 0 && s[len(s)-1] <= ' ' && charClass[s[len(s)-1]]&isSpace != 0 {
		s = s[:len(s)-1]
	}
	return s
}
