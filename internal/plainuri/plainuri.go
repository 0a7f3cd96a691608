// Package plainuri recognises the URI references that resolve to themselves
// and that net/url parses and writes back unchanged: absolute http and
// https URLs, and paths from the root, of plain bytes with no "." or ".."
// segment. For those, resolution needs no net/url round trip; the weblink
// package (resolution of link targets, NextURL) and its discover
// subpackage (the links of a page) share these checks. Anything they do
// not recognise goes through net/url, so a false answer only costs time.
package plainuri

import (
	"net/url"
	"strings"

	"github.com/weblinking/weblink/internal/ascii"
)

// Character classes, in one table.
const (
	hostChar  = 1 << iota // ALPHA / DIGIT / "." / "-": a host name
	plainChar             // unreserved / sub-delims / ":" / "@" / "/" / "?" (RFC 3986 §3.3, §3.4, §3.5)
	pathChar              // the bytes of a path that net/url keeps as they are (URL)
)

var class = func() (t [256]uint8) {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	for _, c := range alnum + ".-" {
		t[c] |= hostChar
	}
	for _, c := range alnum + "-._~!$&'()*+,;=:@/?" {
		t[c] |= plainChar
	}
	for _, c := range alnum + "-._~$&+,;=:@/" {
		t[c] |= pathChar
	}
	return t
}()

// Absolute reports whether ref is an absolute http or https URL that
// resolves to itself against any base (RFC 3986 §5.2.2: a reference with a
// scheme keeps its authority, path and query, with remove_dot_segments
// applied to the path) and that net/url parses and writes back unchanged:
//
//	"http://" or "https://", lower-case
//	host  = 1*( ALPHA / DIGIT / "." / "-" ) [ ":" 1*DIGIT ]
//	then path, query and fragment as Path checks them
func Absolute(ref string) bool {
	var i int
	switch {
	case len(ref) > 7 && ref[:7] == "http://":
		i = 7
	case len(ref) > 8 && ref[:8] == "https://":
		i = 8
	default:
		return false
	}
	host := i
	i = ascii.ClassRun(&class, ref, i, hostChar)
	if i == host {
		return false
	}
	if i < len(ref) && ref[i] == ':' {
		i++
		port := i
		for i < len(ref) && '0' <= ref[i] && ref[i] <= '9' {
			i++
		}
		if i == port {
			return false
		}
	}
	return i == len(ref) || rest(ref[i:])
}

// Path reports whether ref is a path from the root ("/static/app.css")
// that, resolved against an http or https base, is the base's
// scheme://authority followed by ref as written (RFC 3986 §5.2.2) and that
// net/url writes back unchanged: the path, query and fragment of plain
// bytes checked by rest, not starting with "//" (which would be an
// authority).
func Path(ref string) bool {
	return len(ref) > 0 && ref[0] == '/' && rest(ref)
}

// rest reports whether s, the part of a reference after its authority,
// starts with "/", "?" or "#" and holds only unreserved characters,
// sub-delims, ":", "@", "/", "?" and pct-encoded, with at most one "#", not
// followed by nothing (net/url drops an empty fragment), no "." or ".."
// path segment (remove_dot_segments would change it) and no path starting
// with "//".
func rest(s string) bool {
	switch s[0] {
	case '/':
		if len(s) > 1 && s[1] == '/' {
			return false
		}
	case '?', '#':
	default:
		return false
	}
	pathEnd := len(s)
	for k := 0; k < len(s); k++ {
		k = ascii.ClassRun(&class, s, k, plainChar)
		if k == len(s) {
			break
		}
		switch c := s[k]; {
		case c == '%' && escapeAt(s, k):
			k += 2
		case c == '#' && k+1 < len(s) && strings.IndexByte(s[k+1:], '#') < 0:
			// One fragment, not empty.
			pathEnd = min(pathEnd, k)
			for k++; k < len(s); k++ {
				if c := s[k]; class[c]&plainChar == 0 && !(c == '%' && escapeAt(s, k)) {
					return false
				}
			}
		default:
			return false
		}
	}
	if q := strings.IndexByte(s[:pathEnd], '?'); q >= 0 {
		pathEnd = q
	}
	return !hasDotSegment(s[:pathEnd])
}

// URL returns the URL that url.Parse returns for ref when ref is Absolute
// with no fragment, no empty query ("?" at the end) and a path of letters,
// digits and "-._~$&+,;=:@/" only, which net/url keeps as written; it
// returns nil for every other ref. Such a ref, what API servers send as the
// next link, is split into scheme, host, path and query without
// url.Parse's unescaping and re-escaping, which cost several times as much.
func URL(ref string) *url.URL {
	if !Absolute(ref) || strings.IndexByte(ref, '#') >= 0 {
		return nil
	}
	u := &url.URL{Scheme: "http"}
	rest := ref[len("http://"):]
	if ref[4] == 's' {
		u.Scheme, rest = "https", ref[len("https://"):]
	}
	path := 0 // the host and port end at the path or the query
	for path < len(rest) && rest[path] != '/' && rest[path] != '?' {
		path++
	}
	u.Host, rest = rest[:path], rest[path:]
	rest, query, hasQuery := strings.Cut(rest, "?")
	if hasQuery && query == "" || ascii.ClassRun(&class, rest, 0, pathChar) < len(rest) {
		return nil
	}
	u.Path, u.RawQuery = rest, query
	return u
}

// hasDotSegment reports whether path has a "." or ".." segment, which
// remove_dot_segments removes (RFC 3986 §5.2.4).
func hasDotSegment(path string) bool {
	for {
		k := strings.Index(path, "/.")
		if k < 0 {
			return false
		}
		rest := path[k+2:]
		if rest == "" || rest[0] == '/' || rest[0] == '.' && (len(rest) == 1 || rest[1] == '/') {
			return true
		}
		path = path[k+2:]
	}
}

// escapeAt reports whether a pct-encoded octet starts at s[i] (RFC 3986
// §2.1).
func escapeAt(s string, i int) bool {
	return s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f'
}
