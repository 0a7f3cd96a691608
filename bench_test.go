package weblink

import (
	"fmt"
	"strings"
	"testing"
)

// github4 is the pagination header GitHub sends.
const github4 = `<https://api.github.com/repositories/1300192/issues?page=2>; rel="prev", ` +
	`<https://api.github.com/repositories/1300192/issues?page=4>; rel="next", ` +
	`<https://api.github.com/repositories/1300192/issues?page=515>; rel="last", ` +
	`<https://api.github.com/repositories/1300192/issues?page=1>; rel="first"`

// large100 returns n link-values with quoted titles holding commas, title*,
// two hreflang each, an anchor and two extension parameters.
func large100(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `<https://example.com/docs/chapter/%d?format=html&lang=en>; rel="chapter alternate"; `+
			`anchor="#section-%d"; title="Chapter %d, in which things happen; again"; `+
			`title*=UTF-8'en'Chapter%%20%d%%2C%%20in%%20which%%20things%%20happen; hreflang=en; hreflang=de-CH; `+
			`type="text/html"; crossorigin=anonymous; x-priority=%d`, i, i, i, i, i%10)
	}
	return b.String()
}

func BenchmarkParse(b *testing.B) {
	for _, bc := range []struct{ name, in string }{
		{"GitHub4", github4},
		{"Large100", large100(100)},
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
	links, err := Parse(github4)
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
