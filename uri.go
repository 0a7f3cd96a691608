package weblink

import (
	"net/url"
	"unicode/utf8"

	"github.com/weblinking/weblink/internal/ascii"
	"github.com/weblinking/weblink/internal/plainuri"
)

// appendURI appends ref converted to a URI-reference: the bytes of non-ASCII
// characters percent-encoded (RFC 3987 §3.1: an IRI is mapped to a URI by
// encoding it as UTF-8 and percent-encoding the octets that are not allowed
// in a URI), and so is every other byte that RFC 3986 §2 does not allow, as
// well as a "%" that does not start a %HH escape.
func appendURI(b []byte, ref string) []byte {
	for i := 0; i < len(ref); {
		// Runs that need no escaping, usually all of ref, are copied whole.
		j := uriRun(ref, i)
		b = append(b, ref[i:j]...)
		if j == len(ref) {
			break
		}
		if escapeAt(ref, j) {
			b = append(b, '%')
		} else {
			b = ascii.AppendPercent(b, ref[j], ascii.UpperHex)
		}
		i = j + 1
	}
	return b
}

// asURI returns s with every byte that a URI cannot hold percent-encoded,
// as appendURI writes it, or s itself when there is none.
func asURI(s string) string {
	for i := uriRun(s, 0); i < len(s); i = uriRun(s, i+3) {
		if !escapeAt(s, i) {
			return string(appendURI(nil, s))
		}
	}
	return s
}

// uriRun returns the index of the first byte at or after i that is not
// allowed as it is in a URI-reference (RFC 3986 §2.2, §2.3): a "%" or a
// byte to be percent-encoded.
func uriRun(s string, i int) int { return ascii.ClassRun(&charClass, s, i, isURIChar) }

// checkURI reports the first byte of ref that makes it neither a
// URI-reference (RFC 3986 §4.1) nor an IRI-reference (RFC 3987 §2.2), which
// String converts to a URI: a byte outside both grammars, a "%" that does not
// start a %HH escape, invalid UTF-8, or a character that is not ucschar
// (iprivate is allowed only in the query, and the bidirectional formatting
// characters of RFC 3987 §4.1 nowhere). It returns -1 when there is none.
func checkURI(ref string) int {
	inQuery := false
	for i := 0; i < len(ref); {
		c := ref[i]
		switch {
		case escapeAt(ref, i):
			i += 3
		case charClass[c]&isURIChar != 0:
			switch c {
			case '?':
				inQuery = true
			case '#':
				inQuery = false
			}
			i++
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(ref[i:])
			if r == utf8.RuneError && n <= 1 || !isUcschar(r) && !(inQuery && isIprivate(r)) {
				return i
			}
			i += n
		default:
			return i
		}
	}
	return -1
}

// isUcschar reports whether r is a ucschar of RFC 3987 §2.2 and not one of
// the bidirectional formatting characters that §4.1 forbids in IRIs.
//
//	ucschar = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF
//	        / %x10000-1FFFD / %x20000-2FFFD / ... / %xE1000-EFFFD
func isUcschar(r rune) bool {
	switch {
	case r == 0x200E || r == 0x200F || 0x202A <= r && r <= 0x202E: // LRM, RLM, LRE..RLO
		return false
	case 0xA0 <= r && r <= 0xD7FF, 0xF900 <= r && r <= 0xFDCF, 0xFDF0 <= r && r <= 0xFFEF:
		return true
	case 0x10000 <= r && r <= 0xEFFFD:
		return r&0xFFFF <= 0xFFFD && (r < 0xE0000 || r >= 0xE1000)
	}
	return false
}

// isIprivate reports whether r is an iprivate character of RFC 3987 §2.2,
// allowed only in the query of an IRI.
//
//	iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD
func isIprivate(r rune) bool {
	return 0xE000 <= r && r <= 0xF8FF || 0xF0000 <= r && r <= 0xFFFFD || 0x100000 <= r && r <= 0x10FFFD
}

// isAbsoluteURI reports whether s is a URI with a scheme (RFC 3986 §3), as
// an extension relation type must be (RFC 8288 §2.1.2), that net/url parses.
func isAbsoluteURI(s string) bool {
	if !hasURIScheme(s) || !ascii.IsPrint(s) || checkURI(s) >= 0 {
		return false
	}
	_, err := url.Parse(s)
	return err == nil
}

// hasURIScheme reports whether s starts with a URI scheme and a colon, as an
// absolute URI does (RFC 3986 §3.1, §4.3):
//
//	scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
func hasURIScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

// resolveRef resolves ref against base (RFC 3986 §5.2), returning ref
// unchanged with an error when net/url cannot parse it. A plain absolute
// http or https URL (plainuri.Absolute) is returned as written without
// net/url, which would give back the same string.
func resolveRef(base *url.URL, ref string) (string, error) {
	if plainuri.Absolute(ref) {
		return ref, nil
	}
	s, err := plainuri.Resolve(base, ref) // keeps every %HH as written (rule 32)
	if err != nil {
		return ref, &ResolveError{Ref: ref, Err: err}
	}
	return s, nil
}
