package plainuri

import (
	"net/url"
	"strings"

	"github.com/weblinking/weblink/internal/ascii"
)

// Parse is url.Parse for a reference that resolution will write back:
// the returned URL's String keeps every %HH escape of ref as written, so
// that resolving it never decodes an escaped reserved character such as
// %2F (RFC 3986 §2.2, §6.2.2.2: only unreserved characters may be decoded).
// url.Parse alone keeps the path and fragment as written only when they
// hold nothing that it would escape; otherwise it writes back its decoded
// form, re-escaped, and http://x/a%2fb/ä becomes http://x/a/b/%C3%A4 (and
// a literal "!" or "[" becomes %21 or %5B). So when the path or fragment
// holds such bytes (any byte outside ASCII, a control, a space or one of
// "<>\^`{|}) and something net/url would change ("%", or one of !'()*[]),
// Parse gives the URL that part as written with those bytes
// percent-encoded: for the bytes outside ASCII that is the IRI to URI
// mapping of RFC 3987 §3.1, and for the others what net/url writes anyway.
// A query is written with those bytes percent-encoded too. The authority
// is left to net/url, and ref parses exactly when url.Parse(ref) does: a
// url.URL holds the user information decoded, and its String writes it
// back re-escaped (Resolve keeps it as written).
func Parse(ref string) (*url.URL, error) {
	u, _, _, err := parse(ref)
	return u, err
}

// parse is Parse, also returning where the authority of ref starts and
// ends, as authority does (start is -1 when ref has none, as when it is
// opaque or does not parse).
func parse(ref string) (u *url.URL, start, end int, err error) {
	u, err = url.Parse(ref)
	if err != nil || u.Opaque != "" {
		return u, -1, 0, err
	}
	start, end = authority(ref)
	rest := ref[end:]
	fragment, hasFragment := "", false
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest, fragment, hasFragment = rest[:i], rest[i+1:], true
	}
	path, query, hasQuery := rest, "", false
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		path, query, hasQuery = rest[:i], rest[i+1:], true
	}
	if needsEscape(path) && netURLChanges(path) {
		u.RawPath = escape(path)
	}
	if hasQuery && needsEscape(query) {
		u.RawQuery = escape(query)
	}
	if hasFragment && (needsEscape(fragment) || strings.Contains(fragment, "#")) && netURLChanges(fragment) {
		u.RawFragment = strings.ReplaceAll(escape(fragment), "#", "%23") // a fragment holds no "#" (RFC 3986 §3.5)
	}
	return u, start, end, nil
}

// Resolve returns ref resolved against base (RFC 3986 §5.2) as a string,
// keeping every %HH escape of ref as written: Parse keeps those of the
// path, query and fragment, and Resolve those of the user information,
// which url.URL holds decoded: alone, net/url resolves //a%3Db%2Cc@h/x to
// http://a=b,c@h/x, and writes "!" there as %21. An "@" inside the user
// information, which url.Parse accepts before the last one, is written %40
// (RFC 3986 §3.2.1 allows none). The error is url.Parse's.
func Resolve(base *url.URL, ref string) (string, error) {
	return ResolveUser(base, "", ref)
}

// ResolveUser is Resolve against a base whose user information was
// written user (as User returns it; "" for the form net/url writes): a
// result that takes the base's authority (ref has none) has that user
// information as written too, where net/url writes base.User re-escaped.
func ResolveUser(base *url.URL, user, ref string) (string, error) {
	u, start, end, err := parse(ref)
	if err != nil {
		return "", err
	}
	s := base.ResolveReference(u).String()
	if u.User != nil {
		// ref has an authority, which the result takes as it is (§5.2.2).
		if written, ok := userIn(ref, start, end); ok {
			return withUser(s, written), nil
		}
		return s, nil
	}
	if start < 0 && user != "" && base.User != nil {
		return withUser(s, user), nil // the base's authority (§5.2.2)
	}
	return s, nil
}

// User returns the user information of ref as written, before the last
// "@" of its authority (RFC 3986 §3.2.1), and whether it has one.
func User(ref string) (string, bool) {
	start, end := authority(ref)
	return userIn(ref, start, end)
}

// userIn is User for the authority ref[start:end] (start -1 for none).
func userIn(ref string, start, end int) (string, bool) {
	if start < 0 {
		return "", false
	}
	at := strings.LastIndexByte(ref[start:end], '@')
	if at < 0 {
		return "", false
	}
	return ref[start : start+at], true
}

// withUser returns s, a URL as url.URL's String writes it, with its user
// information replaced by written. String writes the authority after the
// first "//" (the scheme holds no "/"), the user information up to an "@",
// having escaped "@", "/", "?" and "#" inside it; an "@" inside written,
// which url.Parse accepts before the last one, is written %40.
func withUser(s, written string) string {
	i, j := strings.Index(s, "//")+2, -1
	if i >= 2 {
		j = strings.IndexAny(s[i:], "@/?#")
	}
	if j < 0 || s[i+j] != '@' {
		return s // not split or written as expected: net/url's form
	}
	if s[i:i+j] == written {
		return s // as net/url writes it: the usual "user:password"
	}
	return s[:i] + strings.ReplaceAll(written, "@", "%40") + s[i+j:]
}

// netURLChanges reports whether s, a path or fragment, holds a byte that
// net/url writes differently from s when it does not keep s as written: an
// escape, which it decodes, or a sub-delim or bracket it escapes.
func netURLChanges(s string) bool {
	return strings.ContainsAny(s, "%!'()*[]")
}

// authority returns where the authority of ref starts and ends, as
// url.Parse splits it (RFC 3986 §3.2: after "//", up to the next "/", "?"
// or "#"); start is -1, and end the index after the scheme's ":" (or 0),
// when ref has no authority. A reference without a scheme that starts
// with "///" is a path for url.Parse, not an empty authority.
func authority(ref string) (start, end int) {
	i := 0
	for j := 0; j < len(ref); j++ {
		c := ref[j]
		if c == ':' && j > 0 {
			i = j + 1
			break
		}
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || j > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			break
		}
	}
	if len(ref)-i < 2 || ref[i] != '/' || ref[i+1] != '/' || i == 0 && strings.HasPrefix(ref, "///") {
		return -1, i
	}
	for j := i + 2; j < len(ref); j++ {
		if c := ref[j]; c == '/' || c == '?' || c == '#' {
			return i + 2, j
		}
	}
	return i + 2, len(ref)
}

// needsEscape reports whether s holds a byte that escape encodes.
func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if mustEscape(s[i]) {
			return true
		}
	}
	return false
}

// mustEscape reports whether url.Parse drops the raw form of a path or
// fragment that holds c.
func mustEscape(c byte) bool {
	switch c {
	case ' ', '"', '<', '>', '\\', '^', '`', '{', '|', '}':
		return true
	}
	return c < 0x20 || c >= 0x7f
}

// escape returns ref with every byte that mustEscape percent-encoded.
func escape(ref string) string {
	b := make([]byte, 0, len(ref)+16)
	for i := 0; i < len(ref); i++ {
		c := ref[i]
		if mustEscape(c) {
			b = ascii.AppendPercent(b, c, ascii.UpperHex)
			continue
		}
		b = append(b, c)
	}
	return string(b)
}

// ResolveURL returns ref resolved against base (RFC 3986 §5.2) as a URL,
// keeping every %HH escape of ref as written (Parse): a plain absolute URL
// (URL) is parsed once and is its own resolution, and a relative ref is
// returned as it is when base is nil. The error is url.Parse's.
func ResolveURL(base *url.URL, ref string) (*url.URL, error) {
	if u := URL(ref); u != nil {
		return u, nil
	}
	u, err := Parse(ref)
	if err != nil {
		return nil, err
	}
	if base != nil && !Absolute(ref) {
		u = base.ResolveReference(u)
	}
	return u, nil
}
