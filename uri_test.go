package weblink

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/weblinking/weblink/internal/ascii"
	"github.com/weblinking/weblink/internal/plainuri"
)

func TestHasURIScheme(t *testing.T) {
	for s, want := range map[string]bool{
		"http://example.com": true, "HTTP:x": true, "a:": true,
		"coap+tcp://h": true, "x-y.z:w": true, "a1:b": true,
		"": false, ":": false, "a": false, "1a:b": false, "+a:b": false,
		"a b:c": false, "a/b:c": false, "é:x": false, "next": false,
	} {
		if got := hasURIScheme(s); got != want {
			t.Errorf("hasURIScheme(%q) = %v, want %v", s, got, want)
		}
	}
}

// plainRefs returns generated references around the rules of plainuri.Absolute:
// schemes, hosts, ports, paths, queries and fragments that net/url keeps,
// changes or rejects.
func plainRefs() []string {
	var refs []string
	for _, scheme := range []string{"http://", "https://", "HTTP://", "ftp://", "http:/"} {
		for _, host := range []string{"h", "H.example", "a-b.c", "", "h:80", "h:", "h:x", "u@h", "[::1]", "h_i"} {
			for _, path := range []string{"", "/", "/a/./b", "/a/..", "/.", "/a/.b", "//x", "/a//b", "/%41", "/%2f", "/%zz", "/%4",
				"/a!$&'()*+,;=:@~", "/\u00e4", "/a b", "/a\"b", "/a[b]", "/a\\b",
				"/a%2fb/\u00e4", "/a%2Fb/c d", "/a%3F%23/{\u00e4}", "/a%2f..%2f\u00e4"} {
				for _, query := range []string{"", "?", "?a=b", "?%", "?/./", "??"} {
					for _, fragment := range []string{"", "#", "#f", "#f#g", "#%41", "#/../?", "#%2f\u00e4"} {
						refs = append(refs, scheme+host+path+query+fragment)
					}
				}
			}
		}
	}
	return refs
}

// resolutionBases returns the base URIs of the resolution vectors and a few
// more, for the differential tests of plainuri.Absolute.
func resolutionBases(t testing.TB) []*url.URL {
	var bases []*url.URL
	for _, s := range append(conformanceStrings(t, "conformance/resolve-*.json", "base"), "https://h/a/b?q#f", "mailto:x@y", "http://u:p@H:8080") {
		if u, err := url.Parse(s); err == nil {
			bases = append(bases, u)
		}
	}
	return bases
}

// checkPlainAbsolute fails t when plainuri.Absolute(ref) holds but net/url,
// the oracle, does not resolve ref against base to ref as written, or when
// resolveRef and net/url disagree. net/url is given ref as plainuri.Parse
// parses it, with the bytes a URI cannot hold percent-encoded and the user
// information written back as written (plainuri.Resolve, rule 32):
// FuzzResolveEscapes checks that part against RFC 3986 itself.
func checkPlainAbsolute(t *testing.T, base *url.URL, ref string) {
	t.Helper()
	want, err := plainuri.Resolve(base, ref)
	if err != nil {
		want = ref
	}
	if plainuri.Absolute(ref) && (err != nil || want != ref) {
		t.Fatalf("plainuri.Absolute(%q) holds, but net/url resolves it against %q to %q, %v", ref, base, want, err)
	}
	if got, gotErr := resolveRef(base, ref); got != want || (gotErr == nil) != (err == nil) {
		t.Fatalf("resolveRef(%q, %q) = %q, %v; net/url: %q, %v", base, ref, got, gotErr, want, err)
	}
}

// checkPlainURL fails t when plainuri.URL(ref) is not nil and differs from what
// url.Parse, the oracle, makes of ref, or does not resolve to itself.
func checkPlainURL(t *testing.T, ref string) bool {
	t.Helper()
	got := plainuri.URL(ref)
	if got == nil {
		return false
	}
	want, err := url.Parse(ref)
	if err != nil || *got != *want {
		t.Fatalf("plainuri.URL(%q) = %#v; url.Parse: %#v, %v", ref, got, want, err)
	}
	if s := got.String(); s != ref {
		t.Fatalf("plainuri.URL(%q).String() = %q", ref, s)
	}
	return true
}

// TestPlainURLSameAsNetURL checks plainuri.URL against url.Parse over the
// references of TestPlainAbsoluteSameAsNetURL and paths holding each
// printable ASCII byte.
func TestPlainURLSameAsNetURL(t *testing.T) {
	refs := append(conformanceStrings(t, "conformance/resolve-*.json", "ref", "base", "target", "anchor"), plainRefs()...)
	for c := byte(0x20); c < 0x7f; c++ {
		for _, form := range []string{"https://h/a%cb", "http://h:8/%c?%c", "https://h?q=%c", "http://h%c/"} {
			refs = append(refs, strings.ReplaceAll(form, "%c", string(c)))
		}
	}
	taken := 0
	for _, ref := range refs {
		if checkPlainURL(t, ref) {
			taken++
		}
	}
	if taken < 100 {
		t.Errorf("plainuri.URL took only %d of %d references", taken, len(refs))
	}
	t.Logf("%d references, %d taken by plainuri.URL", len(refs), taken)
}

// TestPlainURL is the table of plainuri.URL's rules.
func TestPlainURL(t *testing.T) {
	for ref, want := range map[string]bool{
		"https://api.github.com/repositories/1300192/issues?page=4": true,
		"http://h": true, "http://h:8080/a;b=c?x=%41&y": true, "https://h?": false, "https://h??": true,
		"http://h/a%41": false, "http://h/a#f": false, "http://h/a!": false, "http://h/a(b)": false, "http://h/a*": false,
		"http://h/a'": false, "HTTP://h": false, "http://h/./": false,
	} {
		if got := plainuri.URL(ref) != nil; got != want {
			t.Errorf("plainuri.URL(%q) != nil is %v, want %v", ref, got, want)
		}
		checkPlainURL(t, ref)
	}
}

// TestPlainAbsoluteSameAsNetURL checks the plainuri.Absolute short cut of
// resolveRef against net/url over every reference and base of the
// resolution vectors in testdata/conformance and the generated plainRefs.
func TestPlainAbsoluteSameAsNetURL(t *testing.T) {
	refs := append(conformanceStrings(t, "conformance/resolve-*.json", "ref", "base", "target", "anchor"), plainRefs()...)
	bases := resolutionBases(t)
	plain := 0
	for _, ref := range refs {
		if plainuri.Absolute(ref) {
			plain++
		}
		for _, base := range bases[:4] {
			checkPlainAbsolute(t, base, ref)
		}
	}
	for _, base := range bases {
		for _, ref := range refs[:200] {
			checkPlainAbsolute(t, base, ref)
		}
	}
	if plain < 100 {
		t.Errorf("only %d of %d references are plain: the test does not exercise the short cut", plain, len(refs))
	}
	t.Logf("%d references, %d plain", len(refs), plain)
}

// TestPlainAbsolute is the table of plainuri.Absolute's rules.
func TestPlainAbsolute(t *testing.T) {
	for ref, want := range map[string]bool{
		"https://api.github.com/repositories/1300192/issues?page=4": true,
		"http://h": true, "http://h:8080/a?b#c": true, "https://H.example/%41": true, "http://h?x": true,
		"http://h/a!$&'()*+,;=:@~": true, "http://h/a//b": true, "http://h/#f?/": true,
		"HTTP://h/":   false,                                              // upper-case scheme: net/url lower-cases it
		"http://h/./": false, "http://h/a/..": false, "http://h/.": false, // dot segments
		"http://h//x": false, // net/url makes it /x
		"http://h/#":  false, // net/url drops the empty fragment
		"http://h:/":  false, "http://h:x/": false, "http://u@h/": false, "http://[::1]/": false,
		"http:///x": false, "http://h/a b": false, "http://h/%zz": false, "http://h/\u00e4": false,
		"http://h/#a#b": false, "ftp://h/": false, "/a": false, "": false,
	} {
		if got := plainuri.Absolute(ref); got != want {
			t.Errorf("plainuri.Absolute(%q) = %v, want %v", ref, got, want)
		}
	}
}

// FuzzPlainAbsolute checks plainuri.Absolute, plainuri.URL and resolveRef against net/url on
// any reference and base.
func FuzzPlainAbsolute(f *testing.F) {
	for _, ref := range conformanceStrings(f, "conformance/resolve-*.json", "ref") {
		f.Add(ref, "http://a/b/c/d;p?q")
	}
	f.Add("https://api.github.com/repositories/1300192/issues?page=4", "https://api.github.com/x")
	f.Add("http://h/a/./b#f", "https://h/")
	f.Fuzz(func(t *testing.T, ref, base string) {
		b, err := url.Parse(base)
		if err != nil {
			return
		}
		checkPlainAbsolute(t, b, ref)
		checkPlainURL(t, ref)
	})
}

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

// escapeShapes are references that mix an escaped reserved character with
// bytes a URI cannot hold as they are, and what they resolve to against
// http://x/d/p (rule 32): net/url drops what it parsed of the path as
// written when the path is not plain ASCII, and writes %2f back as "/".
var escapeShapes = []struct{ ref, want string }{
	{"http://x/a%2fb/\u00e4", "http://x/a%2fb/%C3%A4"},
	{"http://x/a%2Fb/c", "http://x/a%2Fb/c"},
	{"a%2fb/\u00e4", "http://x/d/a%2fb/%C3%A4"},
	{"/a%3Fb%23c/\u00e4?q=\u00e4", "http://x/a%3Fb%23c/%C3%A4?q=%C3%A4"},
	{"/a%2fb/c%20d e", "http://x/a%2fb/c%20d%20e"},
	{"/a%2fb/x{y}", "http://x/a%2fb/x%7By%7D"},
	{"#s%2f\u00e4", "http://x/d/p#s%2f%C3%A4"},
	{"../a%2f..%2f/\u00e4", "http://x/a%2f..%2f/%C3%A4"},
}

// checkResolved checks that the next link <ref> resolves against base to
// want through Links.Resolve and ParseResponse, and returns the response
// it gave ParseResponse.
func checkResolved(t *testing.T, base *url.URL, ref, want string) *http.Response {
	t.Helper()
	field := "<" + ref + `>; rel="next"`
	links, err := Parse(field)
	if err != nil || len(links) != 1 {
		t.Fatalf("Parse(%q) = %v, %v", field, links, err)
	}
	if got := links.Resolve(base)[0].Target; got != want {
		t.Errorf("Resolve: %s -> %s, want %s", ref, got, want)
	}
	resp := &http.Response{Header: http.Header{"Link": {field}}, Request: &http.Request{URL: base}}
	if got, err := ParseResponse(resp); err != nil || got[0].Target != want {
		t.Errorf("ParseResponse: %s -> %v, %v; want %s", ref, got, err, want)
	}
	return resp
}

// TestResolveKeepsEscapes checks rule 32 through Links.Resolve,
// ParseResponse and NextURL.
func TestResolveKeepsEscapes(t *testing.T) {
	base, _ := url.Parse("http://x/d/p")
	for _, tc := range escapeShapes {
		resp := checkResolved(t, base, tc.ref, tc.want)
		if u, ok := NextURL(resp); !ok || u.String() != tc.want {
			t.Errorf("NextURL: %s -> %v, %v; want %s", tc.ref, u, ok, tc.want)
		}
	}
}

// TestResolveKeepsUserinfoEscapes checks rule 32 on the user information
// of a reference: net/url decodes it (a%3Db%2Cc is the user name "a=b,c")
// and writes it back with only ":", "@", "/" and "?" escaped, so alone it
// resolves <//a%3Db%2Cc@h/x> to http://a=b,c@h/x. Links.Resolve and
// ParseResponse keep it as written; NextURL's URL holds it decoded, as a
// url.URL holds user information, and net/http sends that as the user name.
func TestResolveKeepsUserinfoEscapes(t *testing.T) {
	base, _ := url.Parse("http://x/d/p")
	for _, tc := range []struct{ ref, want, user, password string }{
		{"//a%3Db%2Cc@h/x", "http://a%3Db%2Cc@h/x", "a=b,c", ""},
		{"https://u:p%40ss%3a@h/", "https://u:p%40ss%3a@h/", "u", "p@ss:"},
		{"http://u!:p*w@h/", "http://u!:p*w@h/", "u!", "p*w"},
		{"http://u:p:q@h/", "http://u:p:q@h/", "u", "p:q"},
		{"http://u:p@ss@h/", "http://u:p%40ss@h/", "u", "p@ss"}, // "@" is no userinfo byte (RFC 3986 §3.2.1)
		{"//%41@h/%2f\u00e4", "http://%41@h/%2f%C3%A4", "A", ""},
	} {
		resp := checkResolved(t, base, tc.ref, tc.want)
		u, ok := NextURL(resp)
		if !ok || u.User == nil {
			t.Errorf("NextURL: %s -> %v, %v; want user %q", tc.ref, u, ok, tc.user)
			continue
		}
		if p, _ := u.User.Password(); u.User.Username() != tc.user || p != tc.password {
			t.Errorf("NextURL: %s -> user %q, password %q; want %q, %q", tc.ref, u.User.Username(), p, tc.user, tc.password)
		}
	}
}
