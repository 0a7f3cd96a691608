package weblink

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/weblinking/weblink/internal/ascii"
)

// uriParts are the five components of a URI reference, split as RFC 3986
// Appendix B does, each with whether it is present.
type uriParts struct {
	scheme, authority, path, query, fragment   string
	hasScheme, hasAuthority, hasQuery, hasFrag bool
}

// splitURI splits s with the regular expression of RFC 3986 Appendix B:
//
//	^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
func splitURI(s string) uriParts {
	var p uriParts
	if i := strings.IndexAny(s, ":/?#"); i > 0 && s[i] == ':' {
		p.scheme, p.hasScheme, s = s[:i], true, s[i+1:]
	}
	if strings.HasPrefix(s, "//") {
		s = s[2:]
		i := strings.IndexAny(s, "/?#")
		if i < 0 {
			i = len(s)
		}
		p.authority, p.hasAuthority, s = s[:i], true, s[i:]
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		p.fragment, p.hasFrag, s = s[i+1:], true, s[:i]
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		p.query, p.hasQuery, s = s[i+1:], true, s[:i]
	}
	p.path = s
	return p
}

// referenceResolve is RFC 3986 §5.2.2 on strings, with merge (§5.2.3) and
// remove_dot_segments (§5.2.4), and recomposition (§5.3): the reference
// that resolveRef's escapes are checked against. It decodes nothing.
func referenceResolve(base, ref string) string {
	b, r := splitURI(base), splitURI(ref)
	var t uriParts
	switch {
	case r.hasScheme:
		t = r
		t.path = removeDotSegments(r.path)
	case r.hasAuthority:
		t = r
		t.scheme, t.hasScheme = b.scheme, b.hasScheme
		t.path = removeDotSegments(r.path)
	case r.path == "":
		t = b
		t.query, t.hasQuery = b.query, b.hasQuery
		if r.hasQuery {
			t.query, t.hasQuery = r.query, true
		}
	default:
		t = b
		t.query, t.hasQuery = r.query, r.hasQuery
		if strings.HasPrefix(r.path, "/") {
			t.path = removeDotSegments(r.path)
		} else {
			t.path = removeDotSegments(merge(b, r.path))
		}
	}
	t.fragment, t.hasFrag = r.fragment, r.hasFrag
	var s strings.Builder
	if t.hasScheme {
		s.WriteString(t.scheme + ":")
	}
	if t.hasAuthority {
		s.WriteString("//" + t.authority)
	}
	s.WriteString(t.path)
	if t.hasQuery {
		s.WriteString("?" + t.query)
	}
	if t.hasFrag {
		s.WriteString("#" + t.fragment)
	}
	return s.String()
}

// merge is RFC 3986 §5.2.3.
func merge(b uriParts, path string) string {
	if b.hasAuthority && b.path == "" {
		return "/" + path
	}
	return b.path[:strings.LastIndexByte(b.path, '/')+1] + path
}

// removeDotSegments is RFC 3986 §5.2.4.
func removeDotSegments(in string) string {
	var out []string // output segments, each with its leading "/" if any
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		case strings.HasPrefix(in, "/./"):
			in = in[2:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../"):
			in = in[3:]
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		case in == "/..":
			in = "/"
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		case in == "." || in == "..":
			in = ""
		default:
			i := strings.IndexByte(in[1:], '/') + 1
			if i == 0 {
				i = len(in)
			}
			out, in = append(out, in[:i]), in[i:]
		}
	}
	return strings.Join(out, "")
}

// userinfo returns the user information of authority, as url.Parse splits
// it: before the last "@", "" when there is none.
func userinfo(authority string) string {
	return authority[:max(strings.LastIndexByte(authority, '@'), 0)]
}

// reservedEscapes returns the %HH escapes of s that encode a reserved
// character (RFC 3986 §2.2: gen-delims and sub-delims), in order, with
// their hex digits upper-cased (§6.2.2.1: they are case-insensitive).
func reservedEscapes(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if !escapeAt(s, i) {
			continue
		}
		esc := strings.ToUpper(s[i : i+3])
		if c, _ := strconv.ParseUint(esc[1:], 16, 8); strings.IndexByte(":/?#[]@!$&'()*+,;=", byte(c)) >= 0 {
			out = append(out, esc)
		}
		i += 2
	}
	return out
}

// FuzzResolveEscapes checks rule 32: a target resolved by resolveRef (the
// resolution of Links.Resolve, ParseResponse, NextURL and Pages) holds the
// same escaped reserved characters, in the same order, as RFC 3986's own
// resolution of the reference (referenceResolve): none is decoded, none is
// added. net/url may otherwise write the target differently (it escapes
// bytes outside ASCII, lower-cases the scheme and host). The user
// information is compared whole; the host is left out of the comparison:
// net/url decodes a host, which is compared as an origin (rule 30), not as
// a string.
func FuzzResolveEscapes(f *testing.F) {
	for _, ref := range []string{
		"http://x/a%2fb/\u00e4", "a%2fb/\u00e4", "/a%3Fb%23c/\u00e4?q=%26\u00e4", "#s%2f\u00e4",
		"../a%2f..%2f/\u00e4", "/a%2fb/x{y}", "/a!b/\u00e4", "/a[b]/%2F\u00e4", "?%2f\u00e4#%2F",
		"//h/%2f\u00e4", "a%2F..%2F..%2Fb/ c", "/%41%2f\u00e4",
		"//a%3Db%2Cc@h/x", "http://u!:p%2a@h/", "//u:p@ss@h/", "//%41@h/%2f\u00e4",
	} {
		f.Add(ref, "http://x/d/p?q")
	}
	f.Add("g%2f\u00e4;x", "http://a/b/c/d;p?q")
	f.Fuzz(func(t *testing.T, ref, base string) {
		if !ascii.IsPrint(base) || strings.Contains(base, "#") {
			return
		}
		b, err := url.Parse(base)
		if err != nil || b.String() != base || !b.IsAbs() || b.Opaque != "" {
			return // a base net/url writes back as it is
		}
		got, err := resolveRef(b, ref)
		if err != nil {
			return
		}
		want := referenceResolve(base, ref)
		g, w := splitURI(got), splitURI(want)
		if !splitURI(base).hasAuthority && !splitURI(ref).hasAuthority {
			// Neither has an authority, so the result has none: a path
			// that starts with "//" is still a path, which RFC 3986's
			// recomposition (§5.3) writes so that it reads back as an
			// authority (a:, .///0@ gives a://0@) and net/url with an
			// empty authority before it (a://///0@).
			for _, p := range []*uriParts{&g, &w} {
				if p.hasAuthority {
					p.path, p.authority, p.hasAuthority = "//"+p.authority+p.path, "", false
				}
			}
		}
		// A fragment holds no "#" (RFC 3986 §3.5): net/url writes one as
		// %23, as rule 32 encodes what a URI cannot hold.
		w.fragment = strings.ReplaceAll(w.fragment, "#", "%23")
		// The user information is written as written, but for an "@"
		// before the last, which no userinfo holds (RFC 3986 §3.2.1).
		if gu, wu := userinfo(g.authority), strings.ReplaceAll(userinfo(w.authority), "@", "%40"); gu != wu {
			t.Fatalf("resolveRef(%q, %q) = %q: user information %q; RFC 3986 resolves to %q: %q", base, ref, got, gu, want, wu)
		}
		for _, part := range [][2]string{{g.path, w.path}, {g.query, w.query}, {g.fragment, w.fragment}} {
			if ge, we := reservedEscapes(part[0]), reservedEscapes(part[1]); !slices.Equal(ge, we) {
				t.Fatalf("resolveRef(%q, %q) = %q: escapes %v; RFC 3986 resolves to %q: %v", base, ref, got, ge, want, we)
			}
		}
	})
}
