// Package benchdata holds the inputs of weblink's benchmarks, shared by the
// package's own BenchmarkParse and BenchmarkFormat and by the bench module
// that compares weblink with other parsers, so that both measure the same
// bytes.
package benchdata

import (
	"fmt"
	"strings"
)

// GitHub4 is the 4-link pagination header GitHub sends.
const GitHub4 = `<https://api.github.com/repositories/1300192/issues?page=2>; rel="prev", ` +
	`<https://api.github.com/repositories/1300192/issues?page=4>; rel="next", ` +
	`<https://api.github.com/repositories/1300192/issues?page=515>; rel="last", ` +
	`<https://api.github.com/repositories/1300192/issues?page=1>; rel="first"`

// GitHub4Next is the URL of GitHub4's rel="next" link.
const GitHub4Next = "https://api.github.com/repositories/1300192/issues?page=4"

// LinkValues returns a field value of n link-values, each with a quoted
// title holding a comma and a semicolon, two hreflang, an anchor, a type and
// two extension parameters, and a title* when titleStar is set: about 300
// bytes a link-value.
func LinkValues(n int, titleStar bool) string {
	var b strings.Builder
	b.Grow(n * 310)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `<https://example.com/docs/chapter/%d?format=html&lang=en>; rel="chapter alternate"; `+
			`anchor="#section-%d"; title="Chapter %d, in which things happen; again"; `, i, i, i)
		if titleStar {
			fmt.Fprintf(&b, `title*=UTF-8'en'Chapter%%20%d%%2C%%20in%%20which%%20things%%20happen; `, i)
		}
		fmt.Fprintf(&b, `hreflang=en; hreflang=de-CH; type="text/html"; crossorigin=anonymous; x-priority=%d`, i%10)
	}
	return b.String()
}
