package discover

import (
	"strings"
	"testing"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/memtest"
)

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
