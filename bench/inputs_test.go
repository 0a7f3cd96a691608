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
// extension parameters: about 250 bytes a link-value.
func largeLinks(n int) string {
	var b strings.Builder
	b.Grow(n * 260)
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
