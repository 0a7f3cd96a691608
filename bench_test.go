package weblink

import (
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
	links, err := Parse(benchdata.GitHub4)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("GitHub4", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			_ = links.String()
		}
	})
}
