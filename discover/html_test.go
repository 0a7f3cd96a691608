package discover

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/memtest"
)

// mustURL parses an absolute URL for a test.
func mustURL(tb testing.TB, s string) *url.URL {
	tb.Helper()
	u, err := url.Parse(s)
	if err != nil {
		tb.Fatal(err)
	}
	return u
}

// rel is a link with a target and relation types, the shape of most
// expected links.
func rel(target string, rels ...string) weblink.Link {
	return weblink.Link{Target: target, Rel: rels}
}

const docURL = "https://example.com/dir/page?q=1#frag"

// htmlCases has a case for each HTML rule of the package documentation
// (rules 1 to 5), numbered in the case name.
var htmlCases = []struct {
	name       string
	in         string
	hyperlinks bool
	want       weblink.Links
}{
	// Rule 1: which elements are links.
	{"1/link in head and body, document order", `<head><link rel=a href=/1></head><body><p><link rel=b href=/2>`, false,
		weblink.Links{rel("https://example.com/1", "a"), rel("https://example.com/2", "b")}},
	{"1/missing href skipped", `<link rel=a><link rel=b href=/2>`, false, weblink.Links{rel("https://example.com/2", "b")}},
	{"1/missing rel skipped", `<link href=/1><link itemprop=url href=/2>`, false, nil},
	{"1/empty rel skipped", "<link rel=\"\" href=/1><link rel=\" \t\n\" href=/2><link rel href=/3>", false, nil},
	{"1/a and area ignored without Hyperlinks", `<a rel=me href=/1>x</a><area rel=me href=/2>`, false, nil},
	{"1/a and area with Hyperlinks, in order", `<a rel=me href=/1>x</a><link rel=b href=/2><map><area rel=c href=/3></map>`, true,
		weblink.Links{rel("https://example.com/1", "me"), rel("https://example.com/2", "b"), rel("https://example.com/3", "c")}},
	{"1/a without rel is no link", `<a href=/1>x</a>`, true, nil},
	{"1/upper-case names and self-closing tags", `<LINK REL=Next HREF=/1 /><Link Rel=prev Href=/0/>`, false,
		weblink.Links{rel("https://example.com/1", "next"), rel("https://example.com/0/", "prev")}},
	{"1/deep nesting", strings.Repeat("<div><span>", 100) + `<link rel=a href=/1>` + strings.Repeat("</span></div>", 100), false,
		weblink.Links{rel("https://example.com/1", "a")}},
	{"1/other elements with rel and href", `<form rel=a action=/1><img rel=b src=/2><svg><use rel=c href=/3></svg>`, true, nil},

	// Rule 2: targets and the base URL.
	{"2/relative href resolved against the document", `<link rel=a href=up.css><link rel=b href=../x><link rel=c href=?p=2><link rel=d href=#top>`, false,
		weblink.Links{rel("https://example.com/dir/up.css", "a"), rel("https://example.com/x", "b"),
			rel("https://example.com/dir/page?p=2", "c"), rel("https://example.com/dir/page?q=1#top", "d")}},
	{"2/empty href is the document, without fragment", `<link rel=a href="">`, false,
		weblink.Links{rel("https://example.com/dir/page?q=1", "a")}},
	{"2/absolute href kept", `<link rel=a href="HTTPS://Other.example/X">`, false,
		weblink.Links{rel("https://Other.example/X", "a")}},
	{"2/href whitespace trimmed and TAB LF CR removed", "<link rel=a href=\" \t/a\n/b\r\n/c \f\">", false,
		weblink.Links{rel("https://example.com/a/b/c", "a")}},
	{"2/base applies to links before and after it", `<link rel=a href=x><base href="https://cdn.example/b/"><link rel=b href=y>`, false,
		weblink.Links{rel("https://cdn.example/b/x", "a"), rel("https://cdn.example/b/y", "b")}},
	{"2/first base href wins", `<base href="/one/"><base href="/two/"><link rel=a href=x>`, false,
		weblink.Links{rel("https://example.com/one/x", "a")}},
	{"2/base href itself resolved against the document URL", `<base href="sub/"><link rel=a href=x>`, false,
		weblink.Links{rel("https://example.com/dir/sub/x", "a")}},
	{"2/base without href does not count", `<base target=_blank><base href="/b/"><link rel=a href=x>`, false,
		weblink.Links{rel("https://example.com/b/x", "a")}},
	{"2/empty href is the base URL", `<base href="/b/?x"><link rel=a href="">`, false,
		weblink.Links{rel("https://example.com/b/?x", "a")}},
	{"2/data: base ignored", `<base href="data:text/html,x"><link rel=a href=x>`, false,
		weblink.Links{rel("https://example.com/dir/x", "a")}},
	{"2/javascript: base ignored", `<base href="javascript:alert(1)"><link rel=a href=x>`, false,
		weblink.Links{rel("https://example.com/dir/x", "a")}},
	{"2/base in a template ignored", `<template><base href="/t/"></template><link rel=a href=x>`, false,
		weblink.Links{rel("https://example.com/dir/x", "a")}},
	{"2/base href in a comment ignored", `<!-- <base href="/c/"> --><link rel=a href=x>`, false,
		weblink.Links{rel("https://example.com/dir/x", "a")}},

	// Rule 3: attributes.
	{"3/rel split on ASCII whitespace and lower-cased", "<link rel=\"  StyleSheet\tALTERNATE\n\ficon \" href=/1>", false,
		weblink.Links{rel("https://example.com/1", "stylesheet", "alternate", "icon")}},
	{"3/rel ASCII lower-cased only", `<link rel="HTTP://Example.COM/Rel ÉTÉ" href=/1>`, false,
		weblink.Links{rel("https://example.com/1", "http://example.com/rel", "ÉtÉ")}},
	{"3/rev split like rel", `<link rel=a rev="Made  AUTHOR" href=/1>`, false,
		weblink.Links{{Target: "https://example.com/1", Rel: []string{"a"}, Rev: []string{"made", "author"}}}},
	{"3/attributes to fields", `<link rel=alternate href=/de hreflang=de-AT media="(min-width: 600px)" title="Auf Deutsch" type=text/html>`, false,
		weblink.Links{{Target: "https://example.com/de", Rel: []string{"alternate"}, Hreflang: []string{"de-AT"},
			Media: "(min-width: 600px)", Title: "Auf Deutsch", Type: "text/html"}}},
	{"3/values as written, not lower-cased", `<link rel=a href=/1 type=Text/HTML title=ABC as=Style>`, false,
		weblink.Links{{Target: "https://example.com/1", Rel: []string{"a"}, Type: "Text/HTML", Title: "ABC",
			Params: []weblink.Param{{Name: "as", Value: "Style"}}}}},
	{"3/other attributes to Params in order, names lower-cased", `<link rel=preload href=/f.woff2 AS=font CrossOrigin fetchpriority=high integrity="sha384-x" sizes=any>`, false,
		weblink.Links{{Target: "https://example.com/f.woff2", Rel: []string{"preload"}, Params: []weblink.Param{
			{Name: "as", Value: "font"}, {Name: "crossorigin"}, {Name: "fetchpriority", Value: "high"},
			{Name: "integrity", Value: "sha384-x"}, {Name: "sizes", Value: "any"}}}}},
	{"3/global attributes not in Params",
		`<link id=i class=c style="x:y" lang=en dir=ltr nonce=n hidden tabindex=1 data-x=1 aria-label=l onload="f()" ` +
			`itemprop=p role=r slot=s accesskey=k translate=no xml:lang=en xmlns="http://www.w3.org/1999/xhtml" rel=a href=/1 as=style>`, false,
		weblink.Links{{Target: "https://example.com/1", Rel: []string{"a"}, Params: []weblink.Param{{Name: "as", Value: "style"}}}}},
	{"3/area attributes to Params", `<area rel=help href=/h shape=rect coords="0,0,1,1" alt=Help target=_blank download>`, true,
		weblink.Links{{Target: "https://example.com/h", Rel: []string{"help"}, Params: []weblink.Param{
			{Name: "shape", Value: "rect"}, {Name: "coords", Value: "0,0,1,1"}, {Name: "alt", Value: "Help"},
			{Name: "target", Value: "_blank"}, {Name: "download"}}}}},
	{"3/first of a repeated attribute counts", `<link rel=a rel=b href=/1 href=/2 title=x title=y as=p AS=q as=r>`, false,
		weblink.Links{{Target: "https://example.com/1", Rel: []string{"a"}, Title: "x", Params: []weblink.Param{{Name: "as", Value: "p"}}}}},
	{"3/repeated attribute among many", `<link rel=a href=/1 p1 p2 p3 p4 p5 p6 p7 p8 p9 p1=x p9=y p10>`, false,
		weblink.Links{{Target: "https://example.com/1", Rel: []string{"a"}, Params: []weblink.Param{
			{Name: "p1"}, {Name: "p2"}, {Name: "p3"}, {Name: "p4"}, {Name: "p5"}, {Name: "p6"}, {Name: "p7"},
			{Name: "p8"}, {Name: "p9"}, {Name: "p10"}}}}},
	{"3/character references decoded", `<link rel=a href="/s?a=1&amp;b=2&lang=de" title="Tom &amp; Jerry &eacute;&#x263A;">`, false,
		weblink.Links{{Target: "https://example.com/s?a=1&b=2&lang=de", Rel: []string{"a"}, Title: "Tom & Jerry é☺"}}},
	{"3/empty hreflang kept as written", `<link rel=a href=/1 hreflang="">`, false,
		weblink.Links{{Target: "https://example.com/1", Rel: []string{"a"}, Hreflang: []string{""}}}},

	// Rule 4: what is not an element.
	{"4/comment", `<!-- <link rel=a href=/1> --><!--><link rel=b href=/2>`, false, weblink.Links{rel("https://example.com/2", "b")}},
	{"4/template", `<template><link rel=a href=/1><template><link rel=b href=/2></template><link rel=c href=/3></template><link rel=d href=/4>`, false,
		weblink.Links{rel("https://example.com/4", "d")}},
	{"4/self-closing template still opens", `<template/><link rel=a href=/1></template><link rel=b href=/2>`, false,
		weblink.Links{rel("https://example.com/2", "b")}},
	{"4/stray </template> ignored", `</template><link rel=a href=/1>`, false, weblink.Links{rel("https://example.com/1", "a")}},
	{"4/script", `<script>document.write('<link rel=a href=/1>')</script><link rel=b href=/2>`, false,
		weblink.Links{rel("https://example.com/2", "b")}},
	{"4/script with comment-like text", `<script><!-- if (a<b) { x = "</scr" + "ipt><link rel=a href=/1>" } --></script><link rel=b href=/2>`, false,
		weblink.Links{rel("https://example.com/2", "b")}},
	{"4/style", `<style>/* <link rel=a href=/1> */</style><link rel=b href=/2>`, false,
		weblink.Links{rel("https://example.com/2", "b")}},
	{"4/escaped text", `&lt;link rel=a href=/1&gt; <code>&lt;a rel=me href=/2&gt;</code>`, true, nil},
	{"4/textarea and title", `<title><link rel=a href=/1></title><textarea><link rel=b href=/2></textarea>`, false, nil},
	{"4/noscript, as with scripting on", `<noscript><link rel=stylesheet href=/1></noscript><link rel=b href=/2>`, false,
		weblink.Links{rel("https://example.com/2", "b")}},
	{"4/CDATA in HTML is a bogus comment", `<![CDATA[<link rel=a href=/1>]]><link rel=b href=/2>`, false,
		weblink.Links{rel("https://example.com/2", "b")}},
	{"4/attribute value with markup", `<meta content='<link rel=a href=/1>'><link rel=b href=/2 title="<link rel=c href=/3>">`, false,
		weblink.Links{{Target: "https://example.com/2", Rel: []string{"b"}, Title: "<link rel=c href=/3>"}}},

	{"4/svg a counts, svg style is text", `<svg><style><link rel=a href=/1></style><a rel=me href=/2><text>x</text></a></svg>`, true,
		weblink.Links{rel("https://example.com/2", "me")}},

	// Rule 5: UTF-8.
	{"5/invalid UTF-8 becomes U+FFFD", "<link rel=\"a\xff\" href=/\xc3 title=\"caf\xe9\">", false,
		weblink.Links{{Target: "https://example.com/%EF%BF%BD", Rel: []string{"a\uFFFD"}, Title: "caf\uFFFD"}}},
}

func TestHTML(t *testing.T) {
	base := mustURL(t, docURL)
	for _, tc := range htmlCases {
		t.Run(tc.name, func(t *testing.T) {
			var opts []Option
			if tc.hyperlinks {
				opts = append(opts, Hyperlinks())
			}
			got, err := HTML(strings.NewReader(tc.in), base, opts...)
			if err != nil {
				t.Errorf("error %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("HTML(%q) mismatch (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

// TestHTMLNilBase checks that without a base URL targets stay as written,
// or are resolved against a <base href> only.
func TestHTMLNilBase(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want weblink.Links
	}{
		{`<link rel=a href=" x/y "><link rel=b href="">`, weblink.Links{rel("x/y", "a"), rel("", "b")}},
		{`<base href="https://b.example/d/"><link rel=a href=x>`, weblink.Links{rel("https://b.example/d/x", "a")}},
		{`<base href="/d/"><link rel=a href=x>`, weblink.Links{rel("/d/x", "a")}},
	} {
		got, err := HTML(strings.NewReader(tc.in), nil)
		if err != nil {
			t.Errorf("%q: error %v", tc.in, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("HTML(%q, nil) mismatch (-want +got):\n%s", tc.in, diff)
		}
	}
}

// TestHTMLUnresolvable checks that an href net/url cannot parse is kept as
// written and reported, and the other links are resolved.
func TestHTMLUnresolvable(t *testing.T) {
	in := `<link rel=a href="http://[::1"><base href="http://%zz/"><link rel=b href=/ok>`
	got, err := HTML(strings.NewReader(in), mustURL(t, docURL))
	want := weblink.Links{rel("http://[::1", "a"), rel("https://example.com/ok", "b")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	var re *weblink.ResolveError
	if !errors.As(err, &re) || re.Ref != "http://%zz/" {
		t.Errorf("error %v; want a *weblink.ResolveError for the <base href> first", err)
	}
	if err == nil || !strings.Contains(err.Error(), `"http://[::1"`) {
		t.Errorf("error %v does not name the href", err)
	}
}

// TestHTMLErrorsBounded checks that a document with very many bad hrefs
// gives a short error that says how many more there were.
func TestHTMLErrorsBounded(t *testing.T) {
	in := strings.Repeat(`<link rel=a href="http://[">`, 1000)
	got, err := HTML(strings.NewReader(in), mustURL(t, docURL))
	if len(got) != 1000 {
		t.Errorf("got %d links, want 1000 kept as written", len(got))
	}
	if err == nil || len(err.Error()) > 4000 || !strings.Contains(err.Error(), "and 984 more problems") {
		t.Errorf("error of %d bytes: %.300v", len(fmtErr(err)), err)
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// errReader returns its data and then err.
type errReader struct {
	data string
	err  error
}

func (r *errReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// TestHTMLReadError checks that a read error is reported with the links
// read before it.
func TestHTMLReadError(t *testing.T) {
	boom := errors.New("boom")
	got, err := HTML(&errReader{data: `<link rel=a href=/1><link rel=b href=/2`, err: boom}, mustURL(t, docURL))
	if diff := cmp.Diff(weblink.Links{rel("https://example.com/1", "a")}, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if !errors.Is(err, boom) {
		t.Errorf("error %v; want it to wrap the read error", err)
	}
}

// TestHTMLMaxBytes checks that HTML stops at MaxBytes and says so.
func TestHTMLMaxBytes(t *testing.T) {
	in := `<link rel=a href=/1>` + strings.Repeat(" ", 100) + `<link rel=b href=/2>`
	got, err := HTML(strings.NewReader(in), mustURL(t, docURL), MaxBytes(50))
	if diff := cmp.Diff(weblink.Links{rel("https://example.com/1", "a")}, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if !errors.Is(err, ErrTruncated) {
		t.Errorf("error %v; want ErrTruncated", err)
	}
	// A document of exactly MaxBytes is not cut.
	if _, err := HTML(strings.NewReader(in), mustURL(t, docURL), MaxBytes(int64(len(in)))); err != nil {
		t.Errorf("MaxBytes(len): error %v", err)
	}
	if _, err := HTML(strings.NewReader(in), mustURL(t, docURL), MaxBytes(0)); err != nil {
		t.Errorf("MaxBytes(0): error %v", err)
	}
}

// TestHTMLXHTMLCDATA checks that in XHTML a CDATA section is text.
func TestHTMLXHTMLCDATA(t *testing.T) {
	in := `<![CDATA[ a > b <link rel=a href=/1> ]]><link rel=b href=/2/>`
	for _, xhtml := range []bool{false, true} {
		s := htmlScanner{xhtml: xhtml}
		got, _ := s.scan(strings.NewReader(in), mustURL(t, docURL))
		want := weblink.Links{rel("https://example.com/2/", "b")}
		if !xhtml { // the bogus comment ends at the first ">"
			want = weblink.Links{rel("https://example.com/1", "a"), rel("https://example.com/2/", "b")}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("xhtml=%v mismatch (-want +got):\n%s", xhtml, diff)
		}
	}
}

// TestHTMLAllocsPerLink checks that the strings of a link are substrings
// of one copy and a root-relative href is resolved without net/url: a link
// costs a fixed, small number of allocations.
func TestHTMLAllocsPerLink(t *testing.T) {
	one := `<link rel="preload stylesheet" href="/a.css" as=style crossorigin title=t hreflang=en>`
	base := mustURL(t, docURL)
	allocs := func(n int) float64 {
		in := strings.Repeat(one, n)
		return testing.AllocsPerRun(5, func() { HTML(strings.NewReader(in), base) })
	}
	a10, a110 := allocs(10), allocs(110)
	perLink := (a110 - a10) / 100
	// The attribute string, the []string of rel and hreflang, the Params
	// and the resolved target: 4, plus the amortised growth of the Links
	// slice.
	if perLink > 4.5 {
		t.Errorf("%.1f allocations per link, want at most 4.5", perLink)
	}
}

// hostileCases are documents built to make HTML or Feed slow, large or
// crash; build returns a document of about n bytes, and check looks at the
// links found.
var hostileCases = []struct {
	name  string
	feed  bool
	build func(n int) string
	check func(t *testing.T, n int, ls weblink.Links, err error)
}{
	{"deep nesting", false, func(n int) string {
		return strings.Repeat("<div>", n/10) + `<link rel=a href=/x>` + strings.Repeat("</div>", n/10)
	}, wantLinks(1)},
	{"unclosed tags", false, func(n int) string { return `<link rel=a href=/x>` + strings.Repeat("<a ", n/3) }, wantLinks(1)},
	{"unclosed attribute value", false, func(n int) string { return `<link rel=a href=/x><link rel=b href="` + strings.Repeat("y", n) }, wantLinks(1)},
	{"many links", false, func(n int) string { return strings.Repeat(`<link rel=a href=/x>`, n/20) }, func(t *testing.T, n int, ls weblink.Links, err error) {
		wantLinks(n/20)(t, n, ls, err)
	}},
	{"invalid UTF-8", false, func(n int) string { return strings.Repeat("<link rel=\xff href=\xfe\xc3 title=\x80>", n/30) }, func(t *testing.T, n int, ls weblink.Links, err error) {
		wantLinks(n/30)(t, n, ls, err)
		if len(ls) > 0 && ls[0].Title != "\uFFFD" {
			t.Errorf("title %q; want U+FFFD", ls[0].Title)
		}
	}},
	{"huge attribute value", false, func(n int) string { return `<link rel=a title="` + strings.Repeat("t", n) + `" href=/x>` }, func(t *testing.T, n int, ls weblink.Links, err error) {
		wantLinks(1)(t, n, ls, err)
		if len(ls) == 1 && len(ls[0].Title) != n {
			t.Errorf("title of %d bytes; want %d", len(ls[0].Title), n)
		}
	}},
	{"huge rel", false, func(n int) string { return `<link href=/x rel="` + strings.Repeat("a ", n/2) + `">` }, func(t *testing.T, n int, ls weblink.Links, err error) {
		wantLinks(1)(t, n, ls, err)
		if len(ls) == 1 && len(ls[0].Rel) != n/2 {
			t.Errorf("%d relation types; want %d", len(ls[0].Rel), n/2)
		}
	}},
	{"many attributes", false, func(n int) string {
		var b strings.Builder
		b.WriteString("<link rel=a href=/x")
		for i := 0; b.Len() < n; i++ {
			b.WriteString(" p")
			b.WriteString(strings.Repeat("q", i%7))
			b.WriteString(string(rune('a' + i%26)))
			b.WriteString(string(rune('a' + i/26%26)))
			b.WriteString(string(rune('a' + i/676%26)))
		}
		return b.String() + ">"
	}, wantLinks(1)},
	{"deep templates", false, func(n int) string {
		return strings.Repeat("<template>", n/10) + `<link rel=a href=/x>`
	}, wantLinks(0)},
	{"comments", false, func(n int) string { return strings.Repeat("<!-- <link rel=a href=/x> -->", n/30) + "<!--" }, wantLinks(0)},
	{"many bases", false, func(n int) string { return strings.Repeat(`<base href="/b/">`, n/17) + `<link rel=a href=x>` }, wantLinks(1)},
	{"feed deep nesting", true, func(n int) string {
		return `<feed xmlns="http://www.w3.org/2005/Atom"><link href="/x"/>` + strings.Repeat("<e>", n/3) + strings.Repeat("</e>", n/4)
	}, func(t *testing.T, n int, ls weblink.Links, err error) {
		if len(ls) != 1 || err == nil {
			t.Errorf("got %d links, error %v; want 1 and an error", len(ls), err)
		}
	}},
	{"feed many links", true, func(n int) string {
		return `<feed xmlns="http://www.w3.org/2005/Atom">` + strings.Repeat(`<link rel="a" href="/x"/>`, n/25) + `</feed>`
	}, func(t *testing.T, n int, ls weblink.Links, err error) { wantLinks(n/25)(t, n, ls, err) }},
	{"feed huge attribute", true, func(n int) string {
		return `<feed xmlns="http://www.w3.org/2005/Atom"><link href="/x" title="` + strings.Repeat("t", n) + `"/></feed>`
	}, wantLinks(1)},
	{"feed many entries", true, func(n int) string {
		return `<feed xmlns="http://www.w3.org/2005/Atom">` + strings.Repeat(`<entry><link href="/e"/></entry>`, n/32) + `</feed>`
	}, wantLinks(0)},
	{"rss huge channel link", true, func(n int) string {
		return `<rss><channel><link>` + strings.Repeat("/x", n/2) + `</link></channel></rss>`
	}, wantLinks(1)},
}

// wantLinks checks that n links were found without error.
func wantLinks(want int) func(t *testing.T, n int, ls weblink.Links, err error) {
	return func(t *testing.T, n int, ls weblink.Links, err error) {
		t.Helper()
		if len(ls) != want {
			t.Errorf("got %d links, error %v; want %d", len(ls), err, want)
		}
	}
}

// TestHostileInput reads each hostile document at 256 KB and at 1 MB: no
// panic, the expected links, and memory in proportion to the input (the
// bytes allocated for 4x the input at most 6x, leaving room for slice
// growth, and a bound per input byte).
func TestHostileInput(t *testing.T) {
	const small, large = 256 << 10, 1 << 20
	base := mustURL(t, docURL)
	for _, tc := range hostileCases {
		t.Run(tc.name, func(t *testing.T) {
			var allocated [2]uint64
			for i, n := range []int{small, large} {
				in := tc.build(n)
				var ls weblink.Links
				var err error
				allocated[i] = memtest.Allocated(func() {
					if tc.feed {
						ls, err = Feed(strings.NewReader(in), base)
					} else {
						ls, err = HTML(strings.NewReader(in), base, Hyperlinks())
					}
				})
				tc.check(t, n, ls, err)
			}
			if ratio := float64(allocated[1]) / float64(max(allocated[0], 1)); ratio > 6 && allocated[1] > 1<<16 {
				t.Errorf("allocated %d bytes for %d bytes of input and %d for %d: ratio %.1f is not linear",
					allocated[0], small, allocated[1], large, ratio)
			}
			if perByte := float64(allocated[1]) / large; perByte > 200 {
				t.Errorf("allocated %.0f bytes per input byte", perByte)
			}
			t.Logf("%.1f bytes allocated per input byte", float64(allocated[1])/large)
		})
	}
}

// TestHTML100000Links reads a document of 100 000 <link> elements: all are
// returned, in memory proportional to the input.
func TestHTML100000Links(t *testing.T) {
	const n = 100_000
	in := strings.Repeat(`<link rel=a href=/x>`, n)
	var ls weblink.Links
	var err error
	allocated := memtest.Allocated(func() { ls, err = HTML(strings.NewReader(in), mustURL(t, docURL)) })
	if err != nil || len(ls) != n || ls[n-1].Target != "https://example.com/x" {
		t.Errorf("got %d links, error %v; want %d", len(ls), err, n)
	}
	perByte := float64(allocated) / float64(len(in))
	t.Logf("%.1f bytes allocated per input byte", perByte)
	if perByte > 40 {
		t.Errorf("allocated %.0f bytes per input byte", perByte)
	}
}
