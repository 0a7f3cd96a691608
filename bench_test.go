package weblink

import (
	"strings"
	"testing"

	"github.com/weblinking/weblink/internal/benchdata"
)

func BenchmarkParse(b *testing.B) {
	for _, bc := range []struct{ name, in string }{
		{"GitHub4", benchdata.GitHub4},
		{"Large100", benchdata.LinkValues(100, true)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.in)))
			b.ReportAllocs()
			for range b.N {
				if _, err := Parse(bc.in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkFormat(b *testing.B) {
	for _, bc := range []struct{ name, in string }{
		{"GitHub4", benchdata.GitHub4},
		{"Large100", benchdata.LinkValues(100, true)},
	} {
		links, err := Parse(bc.in)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				_ = links.String()
			}
		})
	}
}

// BenchmarkParseHostile parses 64 KiB of the shapes found slow in review
// (issue #16): dense quoted-pairs, a run of empty parameters, and
// link-values shorter than 16 bytes.
func BenchmarkParseHostile(b *testing.B) {
	const n = 64 << 10
	for _, bc := range []struct{ name, in string }{
		{"quoted-pairs", `<a>; title="` + strings.Repeat(`x\"`, n/3) + `"`},
		{"empty-parameters", "<a>" + strings.Repeat(";", n)},
		{"short-link-values", strings.Repeat(`<a>;rel=x,`, n/10)},
		{"shortest-link-values", strings.Repeat(`<>,`, n/3)},
		{"junk-after-a-link", "<a>," + strings.Repeat("x,", n/2)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.in)))
			b.ReportAllocs()
			for range b.N {
				_, _ = Parse(bc.in)
			}
		})
	}
}
