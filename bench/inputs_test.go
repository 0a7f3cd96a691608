package bench

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// github4 is the 4-link pagination header GitHub sends.
const github4 = `<https://api.github.com/repositories/1300192/issues?page=2>; rel="prev", ` +
	`<https://api.github.com/repositories/1300192/issues?page=4>; rel="next", ` +
	`<https://api.github.com/repositories/1300192/issues?page=515>; rel="last", ` +
	`<https://api.github.com/repositories/1300192/issues?page=1>; rel="first"`

// github4Next is the URL of github4's rel="next" link.
const github4Next = "https://api.github.com/repositories/1300192/issues?page=4"

// githubHeader is a response header holding github4, and githubBase the
// request URL it answers.
var (
	githubHeader = http.Header{"Link": {github4}}
	githubBase   = &url.URL{Scheme: "https", Host: "api.github.com", Path: "/repositories/1300192/issues", RawQuery: "page=3"}
)

// largeLinks returns n link-values, each with a quoted title holding a comma
// and a semicolon, a title*, two hreflang, an anchor, a type and two
// extension parameters: about 300 bytes a link-value.
func largeLinks(n int) string { return linkValues(n, true) }

// largeLinksNoTitleStar returns the link-values of largeLinks without their
// title* parameter, whose RFC 8187 decoding weblink does (DESIGN §2 rule 6)
// and the peers do not.
func largeLinksNoTitleStar(n int) string { return linkValues(n, false) }

// linkValues returns the n link-values of largeLinks, with or without
// title*.
func linkValues(n int, titleStar bool) string {
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
