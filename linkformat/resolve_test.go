package linkformat_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/linkformat"
)

// mustURL parses s or fails the test.
func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// rfc3986Base is the base URI of the examples of RFC 3986 §5.4.
const rfc3986Base = "http://a/b/c/d;p?q"

// rfc3986Examples are the examples of RFC 3986 §5.4.1 (normal) and §5.4.2
// (abnormal), with the strict parser's answer to "http:g".
var rfc3986Examples = []struct{ ref, want string }{
	// 5.4.1 Normal Examples
	{"g:h", "g:h"},
	{"g", "http://a/b/c/g"},
	{"./g", "http://a/b/c/g"},
	{"g/", "http://a/b/c/g/"},
	{"/g", "http://a/g"},
	{"//g", "http://g"},
	{"?y", "http://a/b/c/d;p?y"},
	{"g?y", "http://a/b/c/g?y"},
	{"#s", "http://a/b/c/d;p?q#s"},
	{"g#s", "http://a/b/c/g#s"},
	{"g?y#s", "http://a/b/c/g?y#s"},
	{";x", "http://a/b/c/;x"},
	{"g;x", "http://a/b/c/g;x"},
	{"g;x?y#s", "http://a/b/c/g;x?y#s"},
	{"", "http://a/b/c/d;p?q"},
	{".", "http://a/b/c/"},
	{"./", "http://a/b/c/"},
	{"..", "http://a/b/"},
	{"../", "http://a/b/"},
	{"../g", "http://a/b/g"},
	{"../..", "http://a/"},
	{"../../", "http://a/"},
	{"../../g", "http://a/g"},
	// 5.4.2 Abnormal Examples
	{"../../../g", "http://a/g"},
	{"../../../../g", "http://a/g"},
	{"/./g", "http://a/g"},
	{"/../g", "http://a/g"},
	{"g.", "http://a/b/c/g."},
	{".g", "http://a/b/c/.g"},
	{"g..", "http://a/b/c/g.."},
	{"..g", "http://a/b/c/..g"},
	{"./../g", "http://a/b/g"},
	{"./g/.", "http://a/b/c/g/"},
	{"g/./h", "http://a/b/c/g/h"},
	{"g/../h", "http://a/b/c/h"},
	{"g;x=1/./y", "http://a/b/c/g;x=1/y"},
	{"g;x=1/../y", "http://a/b/c/y"},
	{"g?y/./x", "http://a/b/c/g?y/./x"},
	{"g?y/../x", "http://a/b/c/g?y/../x"},
	{"g#s/./x", "http://a/b/c/g#s/./x"},
	{"g#s/../x", "http://a/b/c/g#s/../x"},
	{"http:g", "http:g"}, // strict
}

// TestResolveRFC3986Examples resolves every example of RFC 3986 §5.4 as the
// target of a link whose anchor is the examples' base URI: a relative
// target resolves against the anchor (rule 8).
func TestResolveRFC3986Examples(t *testing.T) {
	doc := mustURL(t, "coap://device.example/.well-known/core")
	for _, tt := range rfc3986Examples {
		in := weblink.Links{{Target: tt.ref, Anchor: rfc3986Base}}
		got := linkformat.Resolve(in, doc)
		if got[0].Target != tt.want {
			t.Errorf("Resolve(<%s>; anchor=%q) target = %q, want %q", tt.ref, rfc3986Base, got[0].Target, tt.want)
		}
		if got[0].Anchor != rfc3986Base {
			t.Errorf("anchor %q became %q", rfc3986Base, got[0].Anchor)
		}
	}
}

// TestResolveRules is a table of rules 6 to 10.
func TestResolveRules(t *testing.T) {
	for _, tt := range []struct {
		name, doc string
		in        weblink.Link
		want      weblink.Link
	}{
		{"rule 6: the origin drops userinfo, path, query and fragment", "coap://user@host:5683/a/b?q#f",
			weblink.Link{Target: "x"},
			weblink.Link{Target: "coap://host:5683/x", Anchor: "coap://host:5683/", Rel: []string{"hosts"}}},
		{"rule 6: the scheme is lower-cased, the host kept as written", "CoAP://Host.Example/",
			weblink.Link{Target: "/x"},
			weblink.Link{Target: "coap://Host.Example/x", Anchor: "coap://Host.Example/", Rel: []string{"hosts"}}},
		{"rule 6: a zone of a link-local address keeps its escape, as url.Parse read it", "coap://[fe80::1%25wlan0]:5683/.well-known/core",
			weblink.Link{Target: "/x"},
			weblink.Link{Target: "coap://[fe80::1%25wlan0]:5683/x", Anchor: "coap://[fe80::1%25wlan0]:5683/", Rel: []string{"hosts"}}},
		{"rule 6: the same origin from an absolute target", "coap://[fe80::1%25wlan0]:5683/.well-known/core",
			weblink.Link{Target: "coap://[fe80::1%25wlan0]:5683/y"},
			weblink.Link{Target: "coap://[fe80::1%25wlan0]:5683/y", Anchor: "coap://[fe80::1%25wlan0]:5683/", Rel: []string{"hosts"}}},
		{"rule 7: an anchor resolves against the origin of doc", "coap://host/device/index",
			weblink.Link{Target: "http://other.example/t", Anchor: "sensors/temp", Rel: []string{"describedby"}},
			weblink.Link{Target: "http://other.example/t", Anchor: "coap://host/sensors/temp", Rel: []string{"describedby"}}},
		{"rule 7: no anchor, an absolute target with a host: its origin", "coap://[2001:db8:f01::ff]/rd-lookup/res?rt=temperature",
			weblink.Link{Target: "coap://[2001:db8:f0::1]/sensors/temp"},
			weblink.Link{Target: "coap://[2001:db8:f0::1]/sensors/temp", Anchor: "coap://[2001:db8:f0::1]/", Rel: []string{"hosts"}}},
		{"rule 7: no anchor, a urn target: the origin of doc", "coap://host/x",
			weblink.Link{Target: "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"},
			weblink.Link{Target: "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", Anchor: "coap://host/", Rel: []string{"hosts"}}},
		{"rule 8: a relative target resolves against the anchor", "coap://host/",
			weblink.Link{Target: "t123.pdf", Anchor: "http://www.example.com/sensors/t123"},
			weblink.Link{Target: "http://www.example.com/sensors/t123.pdf", Anchor: "http://www.example.com/sensors/t123", Rel: []string{"hosts"}}},
		{"rule 8: without an anchor, against the origin of doc, not doc", "coap://host/device/index",
			weblink.Link{Target: "sensors"},
			weblink.Link{Target: "coap://host/sensors", Anchor: "coap://host/", Rel: []string{"hosts"}}},
		{"rule 8: dot-segments of an absolute target are removed", "coap://host/",
			weblink.Link{Target: "coap://other/a/./b/../c", Rel: []string{"alternate"}},
			weblink.Link{Target: "coap://other/a/c", Anchor: "coap://other/", Rel: []string{"alternate"}}},
		{"rule 8: a path starting with // and no authority keeps its meaning", "coap://host/",
			weblink.Link{Target: "urn:/.//x", Rel: []string{"alternate"}},
			weblink.Link{Target: "urn:/.//x", Anchor: "coap://host/", Rel: []string{"alternate"}}},
		{"rule 9: relation types are kept", "coap://host/",
			weblink.Link{Target: "/t", Rel: []string{"alternate"}},
			weblink.Link{Target: "coap://host/t", Anchor: "coap://host/", Rel: []string{"alternate"}}},
		{"rule 10: UTF-8 and escapes are kept", "coap://[2001:db8:f0::1]/.well-known/core",
			weblink.Link{Target: "/temperature/Malmö/a%2Fb"},
			weblink.Link{Target: "coap://[2001:db8:f0::1]/temperature/Malmö/a%2Fb", Anchor: "coap://[2001:db8:f0::1]/", Rel: []string{"hosts"}}},
		{"rule 8: a base with an authority and no path merges with \"/\"", "coap://host/",
			weblink.Link{Target: "x", Anchor: "coap://other", Rel: []string{"alternate"}},
			weblink.Link{Target: "coap://other/x", Anchor: "coap://other", Rel: []string{"alternate"}}},
		{"rule 8: a base path without \"/\" is replaced", "coap://host/",
			weblink.Link{Target: "b", Anchor: "urn:a", Rel: []string{"alternate"}},
			weblink.Link{Target: "urn:b", Anchor: "urn:a", Rel: []string{"alternate"}}},
		{"rule 8: dot-segments of a rootless path (RFC 3986 §5.2.4 2A, 2E)", "coap://host/",
			weblink.Link{Target: "a:./b/../c/.", Rel: []string{"alternate"}},
			weblink.Link{Target: "a:/c/", Anchor: "coap://host/", Rel: []string{"alternate"}}},
		{"rule 7: a target with userinfo and no host has no origin", "coap://host/",
			weblink.Link{Target: "coap://user@/x"},
			weblink.Link{Target: "coap://user@/x", Anchor: "coap://host/", Rel: []string{"hosts"}}},
		{"rule 7: anchor=\"\" is no anchor", "coap://host/",
			weblink.Link{Target: "coap://other/x", Anchor: ""},
			weblink.Link{Target: "coap://other/x", Anchor: "coap://other/", Rel: []string{"hosts"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := linkformat.Resolve(weblink.Links{tt.in}, mustURL(t, tt.doc))
			if diff := cmp.Diff(weblink.Links{tt.want}, got); diff != "" {
				t.Errorf("Resolve (-want +got):\n%s", diff)
			}
		})
	}
}

// TestResolveIdempotent checks rule 10: resolving again changes nothing,
// also against another document, and the argument is not modified.
func TestResolveIdempotent(t *testing.T) {
	in := weblink.Links{
		{Target: "/sensors/temp", Params: []weblink.Param{{Name: "rt", Value: "temperature"}}},
		{Target: "../../g;x?y#s", Anchor: "/a/b/c/d"},
		{Target: "coap://[2001:db8:f0::1]/x/../y"},
		{Target: "a:/.//x"},
		{Target: "urn:x"},
		{Target: "", Anchor: "#frag"},
	}
	saved := cloneLinks(in)
	doc := mustURL(t, "coap://host/.well-known/core")
	once := linkformat.Resolve(in, doc)
	if diff := cmp.Diff(saved, in); diff != "" {
		t.Errorf("Resolve modified its argument (-before +after):\n%s", diff)
	}
	for _, d := range []*url.URL{doc, mustURL(t, "http://elsewhere.example/x/y")} {
		if diff := cmp.Diff(once, linkformat.Resolve(once, d)); diff != "" {
			t.Errorf("resolving again against %s changed (-once +twice):\n%s", d, diff)
		}
	}
	for _, l := range once {
		if l.Anchor == "" || len(l.Rel) == 0 || !strings.Contains(l.Target, ":") {
			t.Errorf("not self-contained after Resolve: %+v", l)
		}
	}
	// Format and Parse carry a resolved link unchanged.
	back, err := linkformat.Parse(linkformat.Format(once))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(once, back); diff != "" {
		t.Errorf("Parse(Format(Resolve(...))) (-want +got):\n%s", diff)
	}
}

// TestResolveWithoutDocument checks rule 10: a nil doc, or one without a
// scheme or a host, gives an unchanged copy; nil links give nil.
func TestResolveWithoutDocument(t *testing.T) {
	in := weblink.Links{{Target: "/x"}}
	for _, doc := range []*url.URL{nil, mustURL(t, "/relative/only"), mustURL(t, "mailto:someone@example.com"), mustURL(t, "file:///etc/x")} {
		got := linkformat.Resolve(in, doc)
		if diff := cmp.Diff(in, got); diff != "" {
			t.Errorf("Resolve(%v) (-want +got):\n%s", doc, diff)
		}
		if len(got) > 0 && &got[0] == &in[0] {
			t.Errorf("Resolve(%v) returned its argument, not a copy", doc)
		}
	}
	if got := linkformat.Resolve(nil, mustURL(t, "coap://h/")); got != nil {
		t.Errorf("Resolve(nil) = %v, want nil", got)
	}
}

// TestResolveDiffersFromLinksResolve shows the table of the package
// documentation on one document: the same links read as a Link header field
// and as link-format.
func TestResolveDiffersFromLinksResolve(t *testing.T) {
	doc := mustURL(t, "coap://host/device/index")
	in := weblink.Links{
		{Target: "sensors"},
		{Target: "t", Anchor: "/sensors/temp", Rel: []string{"alternate"}},
	}
	header := in.Resolve(doc)
	lf := linkformat.Resolve(in, doc)
	want := []struct{ headerTarget, headerAnchor, lfTarget, lfAnchor string }{
		{"coap://host/device/sensors", "", "coap://host/sensors", "coap://host/"},
		{"coap://host/device/t", "coap://host/sensors/temp", "coap://host/sensors/t", "coap://host/sensors/temp"},
	}
	for i, w := range want {
		if header[i].Target != w.headerTarget || header[i].Anchor != w.headerAnchor {
			t.Errorf("Links.Resolve link %d = <%s> anchor %q, want <%s> anchor %q", i, header[i].Target, header[i].Anchor, w.headerTarget, w.headerAnchor)
		}
		if lf[i].Target != w.lfTarget || lf[i].Anchor != w.lfAnchor {
			t.Errorf("linkformat.Resolve link %d = <%s> anchor %q, want <%s> anchor %q", i, lf[i].Target, lf[i].Anchor, w.lfTarget, w.lfAnchor)
		}
	}
	if len(header[0].Rel) != 0 || !slices.Equal(lf[0].Rel, []string{"hosts"}) {
		t.Errorf("rels: header %q, link-format %q; want none and [hosts]", header[0].Rel, lf[0].Rel)
	}
}

// cloneLinks returns a deep copy of ls.
func cloneLinks(ls weblink.Links) weblink.Links {
	out := make(weblink.Links, len(ls))
	for i, l := range ls {
		l.Rel = slices.Clone(l.Rel)
		l.Rev = slices.Clone(l.Rev)
		l.Hreflang = slices.Clone(l.Hreflang)
		l.Params = slices.Clone(l.Params)
		out[i] = l
	}
	return out
}

// TestDotSegmentsLinear resolves a target of 64 KiB and one of 1 MiB of
// dot-segments and compares the time (rule 8: remove_dot_segments keeps a
// stack of offsets instead of searching its output). 16 times the input
// must take less than 100 times as long: linear with very wide slack, where
// quadratic would be 256 times.
func TestDotSegmentsLinear(t *testing.T) {
	doc, _ := url.Parse("coap://host/")
	measure := func(n int) time.Duration {
		target := "/" + strings.Repeat("a/", n/5) + strings.Repeat("../", n/5)
		in := []byte("<" + target + ">")
		ls, _ := linkformat.Parse(in)
		best := time.Duration(1 << 62)
		for range 3 {
			start := time.Now()
			r := linkformat.Resolve(ls, doc)
			if d := time.Since(start); d < best {
				best = d
			}
			if r[0].Target != "coap://host/" {
				t.Fatalf("resolved to %.40q...", r[0].Target)
			}
		}
		return best
	}
	small, large := measure(64<<10), measure(1<<20)
	t.Logf("64 KiB: %v, 1 MiB: %v", small, large)
	if large > 100*max(small, time.Microsecond) {
		t.Errorf("1 MiB took %v, 64 KiB %v: not linear", large, small)
	}
}

// BenchmarkResolveDotSegments resolves one target of n bytes of
// dot-segments, for the figures of rule 22.
func BenchmarkResolveDotSegments(b *testing.B) {
	doc, _ := url.Parse("coap://host/")
	for _, n := range []int{64 << 10, 1 << 20} {
		ls, _ := linkformat.Parse([]byte("</" + strings.Repeat("a/", n/5) + strings.Repeat("../", n/5) + ">"))
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for range b.N {
				_ = linkformat.Resolve(ls, doc)
			}
		})
	}
}
