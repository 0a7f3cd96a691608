package weblink

import (
	"net/url"
	"strings"
	"testing"

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
