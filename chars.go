package weblink

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

// Character classes of the URIs that resolve to themselves (plainAbsolute),
// in a second table.
const (
	isHostChar     = 1 << iota // ALPHA / DIGIT / "." / "-": a host name
	isPlainURIChar             // unreserved / sub-delims / ":" / "@" / "/" / "?" (RFC 3986 §3.3, §3.4, §3.5)
)

var uriClass = func() (t [256]uint8) {
	for _, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-" {
		t[c] |= isHostChar
	}
	for _, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?" {
		t[c] |= isPlainURIChar
	}
	return t
}()

var charClass = func() (t [256]uint8) {
	for c := '0'; c <= '9'; c++ {
		t[c] |= isTchar | isAttrChar
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] |= isTchar | isAttrChar
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] |= isTchar | isAttrChar | isUpper
	}
	// tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." /
	//         "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
	for _, c := range "!#$%&'*+-.^_`|~" {
		t[c] |= isTchar
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

// upperHex holds the digits of upper-case %HH escapes.
const upperHex = "0123456789ABCDEF"

// isToken reports whether s is a non-empty token (RFC 9110 §5.6.2).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if charClass[s[i]]&isTchar == 0 {
			return false
		}
	}
	return true
}

// lower returns s with ASCII letters lower-cased, allocating only when s
// holds an upper-case letter.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if charClass[s[i]]&isUpper != 0 {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if charClass[b[j]]&isUpper != 0 {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

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

// equalFold reports whether a and b are equal with ASCII letters folded, the
// case-insensitive comparison of relation types and parameter names (RFC
// 8288 §2.1.1, §2.1.2, §3). Unlike strings.EqualFold it does not fold
// non-ASCII characters: the Kelvin sign is not "k".
func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if charClass[x]&isUpper != 0 {
			x += 'a' - 'A'
		}
		if charClass[y]&isUpper != 0 {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// isPrintableASCII reports whether every byte of s is in 0x20-0x7E, which a
// quoted-string carries as it is.
func isPrintableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// appendPercent appends the percent-encoding %HH of c (RFC 3986 §2.1).
func appendPercent(b []byte, c byte) []byte {
	return append(b, '%', upperHex[c>>4], upperHex[c&15])
}
