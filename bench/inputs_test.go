package bench

import (
	"net/http"
	"net/url"

	"github.com/weblinking/weblink/internal/benchdata"
)

// github4 is the 4-link pagination header GitHub sends, and github4Next
// the URL of its rel="next" link: the inputs of the main module's own
// benchmarks too.
const (
	github4     = benchdata.GitHub4
	github4Next = benchdata.GitHub4Next
)

// githubHeader is a response header holding github4, and githubBase the
// request URL it answers.
var (
	githubHeader = http.Header{"Link": {github4}}
	githubBase   = &url.URL{Scheme: "https", Host: "api.github.com", Path: "/repositories/1300192/issues", RawQuery: "page=3"}
)

// largeLinks returns n link-values, each with a quoted title holding a comma
// and a semicolon, a title*, two hreflang, an anchor, a type and two
// extension parameters: about 300 bytes a link-value.
func largeLinks(n int) string { return benchdata.LinkValues(n, true) }

// largeLinksNoTitleStar returns the link-values of largeLinks without their
// title* parameter, whose RFC 8187 decoding weblink does (rule 6 of package weblink)
// and the peers do not.
func largeLinksNoTitleStar(n int) string { return benchdata.LinkValues(n, false) }
