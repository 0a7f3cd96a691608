package linkformat_test

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/linkformat"
)

// A CoAP client asks a resource directory for temperature sensors (RFC
// 9176 §6.1) and reads the answer as link-format: Content-Format 40, the
// number of MediaType.
func ExampleParse_mediaType() {
	contentFormats := map[uint16]string{0: "text/plain;charset=utf-8", 40: linkformat.MediaType, 50: "application/json"}
	fmt.Println(contentFormats[40])
	// Output: application/link-format
}

// The /.well-known/core of a CoAP server, with the line breaks RFC 6690 §5
// prints: the links are those weblink.Parse reads, values as written.
func ExampleParse() {
	payload := []byte(`</sensors/temp>;rt="temperature-c";if="sensor";obs,
</sensors/light>;rt="light-lux";ct="0 41",
</fw>;rt=firmware;sz=262144,
`)
	links, err := linkformat.Parse(payload)
	if err != nil {
		fmt.Println(err)
	}
	for _, l := range links {
		fmt.Println(l.Target, l.Params)
	}
	// Output:
	// /sensors/temp [{rt temperature-c } {if sensor } {obs  }]
	// /sensors/light [{rt light-lux } {ct 0 41 }]
	// /fw [{rt firmware } {sz 262144 }]
}

// Format writes what the most naive CoAP parsers read: no whitespace, rt and
// if quoted, ct bare when it is one number, obs without a value, UTF-8 as
// is.
func ExampleFormat() {
	links := weblink.Links{
		{Target: "/sensors/temp", Params: []weblink.Param{{Name: "rt", Value: "temperature-c"}, {Name: "ct", Value: "0"}, {Name: "obs"}}},
		{Target: "/temperature/Malmö", Rel: []string{"live-environment-data"}, Params: []weblink.Param{{Name: "ct", Value: "0 41"}}},
	}
	fmt.Println(string(linkformat.Format(links)))
	// Output: </sensors/temp>;rt="temperature-c";ct=0;obs,</temperature/Malmö>;rel="live-environment-data";ct="0 41"
}

// A resource directory's lookup answer (RFC 9176 Appendix B.3): the links
// are hosted by the endpoints, not by the directory, and a relative target
// resolves against its anchor.
func ExampleResolve() {
	payload := []byte(`<coap://[2001:db8:f0::1]/sensors/temp>;rt=temperature;ct=0,
<t>;anchor="coap://[2001:db8:f0::1]/sensors/temp";rel=alternate,
</temperature/Malmö>`)
	lookup, _ := url.Parse("coap://[2001:db8:f0::ff]/rd-lookup/res?rt=temperature")
	links, _ := linkformat.Parse(payload)
	for _, l := range linkformat.Resolve(links, lookup) {
		fmt.Println(l.Anchor, l.Rel, l.Target)
	}
	// Output:
	// coap://[2001:db8:f0::1]/ [hosts] coap://[2001:db8:f0::1]/sensors/temp
	// coap://[2001:db8:f0::1]/sensors/temp [alternate] coap://[2001:db8:f0::1]/sensors/t
	// coap://[2001:db8:f0::ff]/ [hosts] coap://[2001:db8:f0::ff]/temperature/Malmö
}

// rt and if are space-separated lists, and may be repeated.
func ExampleValues() {
	links, _ := linkformat.Parse([]byte(`</s>;rt="temperature-c core.s";rt=sensor;if=core.s`))
	fmt.Println(linkformat.Values(links[0], "rt"))
	fmt.Println(slices.Contains(linkformat.Values(links[0], "if"), "core.s"))
	// Output:
	// [temperature-c core.s sensor]
	// true
}

// ct as RFC 7252 §7.2.1 writes it, as the Leshan client wrote it
// (unquoted), and repeated as old Californium servers did.
func ExampleContentFormats() {
	links, _ := linkformat.Parse([]byte(`</a>;ct="0 41",</b>;ct=60 110 112,</c>;ct=21;ct=22,</d>;ct="40 big"`))
	for _, l := range links {
		cf, err := linkformat.ContentFormats(l)
		fmt.Println(l.Target, cf, err)
	}
	// Output:
	// /a [0 41] <nil>
	// /b [60 110 112] <nil>
	// /c [21 22] <nil>
	// /d [40] linkformat: ct "big": not a Content-Format number (0 to 65535); skipped
}

// A TimeMap of the Wayback Machine, which lists its first memento twice,
// and the memento closest to a date.
func ExampleParseTimeMap() {
	body := []byte(`<http://ogp.me:80/>; rel="original",
<https://web.archive.org/web/timemap/link/http://ogp.me:80/>; rel="self"; type="application/link-format"; from="Mon, 02 Aug 2010 05:51:26 GMT",
<https://web.archive.org/web/http://ogp.me:80/>; rel="timegate",
<https://web.archive.org/web/20100802055126/http://ogp.me:80/>; rel="first memento"; datetime="Mon, 02 Aug 2010 05:51:26 GMT",
<https://web.archive.org/web/20100802055126/http://ogp.me:80/>; rel="memento"; datetime="Mon, 02 Aug 2010 05:51:26 GMT",
<https://web.archive.org/web/20101211091635/http://ogp.me/>; rel="memento"; datetime="Sat, 11 Dec 2010 09:16:35 GMT",
<https://web.archive.org/web/20210106030214/https://ogp.me/>; rel="last memento"; datetime="Wed, 06 Jan 2021 03:02:14 GMT",
`)
	tm, err := linkformat.ParseTimeMap(body, nil)
	if err != nil {
		fmt.Println(err)
	}
	fmt.Println(tm.Original, len(tm.Mementos), tm.From)

	want := time.Date(2011, 1, 1, 0, 0, 0, 0, time.UTC)
	closest := slices.MinFunc(tm.Mementos, func(a, b linkformat.Memento) int {
		return int(abs(a.Datetime.Sub(want)) - abs(b.Datetime.Sub(want)))
	})
	fmt.Println(closest.Target)
	// Output:
	// http://ogp.me:80/ 4 2010-08-02 05:51:26 +0000 UTC
	// https://web.archive.org/web/20101211091635/http://ogp.me/
}

// abs returns the absolute value of d.
func abs(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// A memento keeps every attribute of its link: the license of RFC 7089's
// example, pywb's collection.
func ExampleMemento() {
	tm, _ := linkformat.ParseTimeMap([]byte(`<http://arxiv.example.net/web/20000620180259/http://a.example.org>
  ; rel="first memento";datetime="Tue, 20 Jun 2000 18:02:59 GMT"
  ; license="http://creativecommons.org/publicdomain/zero/1.0/"`), nil)
	m := tm.Mementos[0]
	license, _ := m.Param("license")
	fmt.Println(m.HasRel("first"), m.Datetime.Format(time.RFC3339), license.Value)
	// Output: true 2000-06-20T18:02:59Z http://creativecommons.org/publicdomain/zero/1.0/
}

// A paging TimeMap: the links to the other pages stay in Links, their from
// and until as written; a memento whose datetime does not read is an error
// at its "<", and stays in Links too.
func ExampleTimeMap() {
	doc := []byte(`<http://a.example.org>;rel="original",
<http://arxiv.example.net/timemap/1/http://a.example.org>;rel="self";until="Wed, 09 Apr 2008 20:30:51 GMT",
<http://arxiv.example.net/timemap/2/http://a.example.org>;rel="timemap";from="Thu, 10 Apr 2008 20:30:51 GMT",
<http://arxiv.example.net/web/1/http://a.example.org>;rel="memento";datetime="2000-06-20"`)
	docURL, _ := url.Parse("http://arxiv.example.net/timemap/1/http://a.example.org")
	tm, err := linkformat.ParseTimeMap(doc, docURL)
	fmt.Println(tm.Self, tm.From.IsZero(), tm.Until.Format(time.DateOnly))
	for _, l := range tm.Links {
		if from, ok := l.Param("from"); ok {
			fmt.Println(l.Rel, l.Target, "from", from.Value)
		} else {
			fmt.Println(l.Rel, l.Target)
		}
	}
	var se *weblink.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Offset, se.Msg)
	}
	// Output:
	// http://arxiv.example.net/timemap/1/http://a.example.org true 2008-04-09
	// [timemap] http://arxiv.example.net/timemap/2/http://a.example.org from Thu, 10 Apr 2008 20:30:51 GMT
	// [memento] http://arxiv.example.net/web/1/http://a.example.org
	// 257 memento "http://arxiv.example.net/web/1/http://a.example.org": datetime "2000-06-20" is not an HTTP-date; kept in Links
}
