package linkformat

import (
	"net/url"
	"strings"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/ascii"
)

// Resolve returns a copy of links in which every link is self-contained, by
// the rules of RFC 6690 §2.1 (rules 6 to 10 of the package documentation):
//
//   - Anchor is the link's context, absolute: an anchor resolved against the
//     origin of doc, or, without one, the origin of the resolved target when
//     it has a scheme and a host (RFC 6690 §2.1 (b): a resource directory
//     lists links hosted elsewhere), else the origin of doc.
//   - Target is resolved against the link's anchor when it has one, else
//     against the origin of doc (RFC 6690 §2.1, RFC 3986 §5.2).
//   - A link without a relation type gets Rel ["hosts"] (RFC 6690 §2.2).
//
// doc is the URI the document was retrieved from; only its origin counts.
// Nothing is percent-encoded or decoded: UTF-8 stays UTF-8 and %2F stays
// %2F. Resolving the result again changes nothing. links is not modified.
// When doc is nil, or has no scheme or no host, Resolve returns an
// unchanged copy.
//
// [weblink.Links.Resolve] is the RFC 8288 reading of the same links, for
// Link header fields.
func Resolve(links weblink.Links, doc *url.URL) weblink.Links {
	return resolveLinks(links, doc)
}

// resolveLinks implements Resolve: it resolves a copy of links.
func resolveLinks(links weblink.Links, doc *url.URL) weblink.Links {
	if links == nil {
		return nil
	}
	out := make(weblink.Links, len(links))
	copy(out, links)
	r, ok := newResolver(doc, out)
	if !ok {
		return out
	}
	for i := range out {
		r.resolve(&out[i], false)
	}
	return out
}

// resolver resolves the links of one document.
type resolver struct {
	origin string   // the origin of the document (rule 6)
	hosts  []string // "hosts", once for each link without a relation type
}

// newResolver returns a resolver for the links ls of the document doc, and
// false when doc has no scheme or no host.
func newResolver(doc *url.URL, ls weblink.Links) (resolver, bool) {
	if doc == nil || doc.Scheme == "" || doc.Host == "" {
		return resolver{}, false
	}
	return resolver{origin: ascii.Lower(doc.Scheme) + "://" + doc.Host + "/"}, true
}

// resolve resolves the anchor and target of l in place (rules 7 and 8)
// and, unless timeMap is set, fills in the default context and relation
// (rules 7 and 9); a TimeMap leaves an absent anchor and rel absent
// (rule 17).
func (r *resolver) resolve(l *weblink.Link, timeMap bool) {
	base := r.origin
	if l.Anchor != "" {
		l.Anchor = resolveRef(r.origin, l.Anchor)
		base = l.Anchor
	}
	l.Target = resolveRef(base, l.Target)
	if timeMap {
		return
	}
	if l.Anchor == "" {
		l.Anchor = r.contextOf(l.Target)
	}
	if len(l.Rel) == 0 {
		if len(r.hosts) == cap(r.hosts) {
			// One allocation for many links: each gets a window with
			// its capacity capped, so that appending to one cannot
			// write into another.
			r.hosts = make([]string, 0, 64)
		}
		r.hosts = append(r.hosts, "hosts")
		n := len(r.hosts)
		l.Rel = r.hosts[n-1 : n : n]
	}
}

// contextOf returns the default context of a link whose resolved target is
// target: the origin of target when it has a scheme and a host, else the
// origin of the document (rule 7). When they are the same, the string of
// the document's origin is returned, without allocating.
func (r *resolver) contextOf(target string) string {
	scheme, host, ok := originParts(target)
	if !ok {
		return r.origin
	}
	if n := len(scheme); len(r.origin) == n+3+len(host)+1 && ascii.EqualFold(r.origin[:n], scheme) && r.origin[n:n+3] == "://" && r.origin[n+3:len(r.origin)-1] == host {
		return r.origin
	}
	return ascii.Lower(scheme) + "://" + host + "/"
}

// uriRef is a URI-reference split into its five components (RFC 3986 §3,
// Appendix B). The has fields tell an empty component from an absent one.
type uriRef struct {
	scheme, authority, path, query, fragment       string
	hasScheme, hasAuthority, hasQuery, hasFragment bool
}

// splitRef splits s into its components as the regular expression of RFC
// 3986 Appendix B does, except that a scheme must be a scheme (RFC 3986
// §3.1): ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) before the first ":",
// with no "/", "?" or "#" before it. Anything else before a ":" is path.
//
//	^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
func splitRef(s string) uriRef {
	var r uriRef
	if n := schemeLen(s); n > 0 {
		r.scheme, r.hasScheme = s[:n], true
		s = s[n+1:]
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		r.fragment, r.hasFragment = s[i+1:], true
		s = s[:i]
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		r.query, r.hasQuery = s[i+1:], true
		s = s[:i]
	}
	if strings.HasPrefix(s, "//") {
		s = s[2:]
		i := strings.IndexByte(s, '/')
		if i < 0 {
			i = len(s)
		}
		r.authority, r.hasAuthority = s[:i], true
		s = s[i:]
	}
	r.path = s
	return r
}

// schemeLen returns the length of the scheme that s starts with, not
// counting its ":", or 0 when s does not start with one (RFC 3986 §3.1):
//
//	scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
func schemeLen(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c|0x20 && c|0x20 <= 'z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return i
		default:
			return 0
		}
	}
	return 0
}

// originParts returns the scheme and the host and port of the absolute URI
// s, from which its origin is built (rule 6): the URI reference "/"
// resolved against s, as RFC 9176 Appendix B.4 puts it, that is its scheme
// (lower-cased), "://", its host and port as written and the path "/",
// without userinfo, query and fragment (RFC 6454 §4). ok is false when s
// has no scheme or no host.
func originParts(s string) (scheme, host string, ok bool) {
	r := splitRef(s)
	host = r.authority
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	return r.scheme, host, r.hasScheme && host != ""
}

// resolveRef resolves the reference ref against the absolute URI base with
// the strict algorithm of RFC 3986 §5.2.2, on the strings as written:
// nothing is percent-encoded or decoded. The dot-segments of the path are
// removed (§5.2.4) whatever the reference is, also when it is absolute.
func resolveRef(base, ref string) string {
	r := splitRef(ref)
	if r.hasScheme {
		return recompose(r, removeDotSegments(r.path))
	}
	b := splitRef(base)
	t := uriRef{
		scheme: b.scheme, hasScheme: b.hasScheme,
		authority: b.authority, hasAuthority: b.hasAuthority,
		query: r.query, hasQuery: r.hasQuery,
		fragment: r.fragment, hasFragment: r.hasFragment,
	}
	var path string
	switch {
	case r.hasAuthority:
		t.authority = r.authority
		path = removeDotSegments(r.path)
	case r.path == "":
		path = b.path
		if !r.hasQuery {
			t.query, t.hasQuery = b.query, b.hasQuery
		}
	case r.path[0] == '/':
		path = removeDotSegments(r.path)
	default:
		path = removeDotSegments(merge(b, r.path))
	}
	return recompose(t, path)
}

// merge merges the relative path ref with the path of base (RFC 3986
// §5.2.3): "/" then ref when base has an authority and an empty path, else
// ref after the last "/" of base's path, or ref alone when there is none.
func merge(base uriRef, ref string) string {
	if base.hasAuthority && base.path == "" {
		return "/" + ref
	}
	i := strings.LastIndexByte(base.path, '/')
	if i < 0 {
		return ref
	}
	return base.path[:i+1] + ref
}

// recompose joins the components of r, with path as its path (RFC 3986
// §5.3). A path that starts with "//" where there is no authority is
// written "/." then the path, as the URL Standard does, so that reading the
// result again does not take the path for an authority (RFC 3986 §3.3) and
// resolving it again gives it back unchanged.
func recompose(r uriRef, path string) string {
	var b strings.Builder
	b.Grow(len(r.scheme) + len(r.authority) + len(path) + len(r.query) + len(r.fragment) + 8)
	if r.hasScheme {
		b.WriteString(r.scheme)
		b.WriteByte(':')
	}
	if r.hasAuthority {
		b.WriteString("//")
		b.WriteString(r.authority)
	} else if strings.HasPrefix(path, "//") {
		b.WriteString("/.")
	}
	b.WriteString(path)
	if r.hasQuery {
		b.WriteByte('?')
		b.WriteString(r.query)
	}
	if r.hasFragment {
		b.WriteByte('#')
		b.WriteString(r.fragment)
	}
	return b.String()
}

// removeDotSegments removes the "." and ".." segments of path with the
// algorithm of RFC 3986 §5.2.4, in time linear in the length of path: the
// output buffer is kept with a stack of the offsets where its segments
// start, so that rule 2C ("/..") drops the last segment without searching
// the buffer for its "/". path is returned as it is when it has no dot
// segment.
func removeDotSegments(path string) string {
	if !hasDotSegment(path) {
		return path
	}
	out := make([]byte, 0, len(path))
	var starts []int // where each segment of out starts, with its "/"
	pop := func() {
		if n := len(starts); n > 0 {
			out = out[:starts[n-1]]
			starts = starts[:n-1]
		}
	}
	push := func(seg string) {
		starts = append(starts, len(out))
		out = append(out, seg...)
	}
	for in := path; in != ""; {
		switch {
		case strings.HasPrefix(in, "../"): // 2A
			in = in[3:]
		case strings.HasPrefix(in, "./"): // 2A
			in = in[2:]
		case strings.HasPrefix(in, "/./"): // 2B
			in = in[2:]
		case in == "/.": // 2B
			in = "/"
		case strings.HasPrefix(in, "/../"): // 2C
			in = in[3:]
			pop()
		case in == "/..": // 2C
			in = "/"
			pop()
		case in == "." || in == "..": // 2D
			in = ""
		default: // 2E: the first segment, with its "/" if any
			i := strings.IndexByte(in[1:], '/') + 1
			if i == 0 {
				i = len(in)
			}
			push(in[:i])
			in = in[i:]
		}
	}
	return string(out)
}

// hasDotSegment reports whether path has a segment "." or "..".
func hasDotSegment(path string) bool {
	for i := 0; i < len(path); {
		j := strings.IndexByte(path[i:], '/')
		if j < 0 {
			j = len(path) - i
		}
		if seg := path[i : i+j]; seg == "." || seg == ".." {
			return true
		}
		i += j + 1
	}
	return false
}
