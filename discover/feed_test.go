package discover

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/weblinking/weblink"
)

const atomHead = `<?xml version="1.0" encoding="utf-8"?>` + "\n" + `<feed xmlns="http://www.w3.org/2005/Atom"`
const rssHead = `<?xml version="1.0"?>` + "\n" + `<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"`

// feedCases has a case for each feed rule of the package documentation
// (rules 6 and 7), numbered in the case name.
var feedCases = []struct {
	name string
	in   string
	want weblink.Links
}{
	{"6/atom feed-level links with their attributes", atomHead + `>
<title>t</title>
<link rel="self" type="application/atom+xml" href="/feed.xml"/>
<link rel="alternate" type="text/html" hreflang="en" title="Home" href="/"/>
<link rel="hub" href="https://hub.example/"/>
<link rel="enclosure" type="audio/mpeg" length="1337" href="/a.mp3"/>
</feed>`, weblink.Links{
		{Target: "https://example.com/feed.xml", Rel: []string{"self"}, Type: "application/atom+xml"},
		{Target: "https://example.com/", Rel: []string{"alternate"}, Type: "text/html", Hreflang: []string{"en"}, Title: "Home"},
		rel("https://hub.example/", "hub"),
		{Target: "https://example.com/a.mp3", Rel: []string{"enclosure"}, Type: "audio/mpeg", Params: []weblink.Param{{Name: "length", Value: "1337"}}},
	}},
	{"6/atom no rel means alternate, empty rel too", atomHead + `><link href="/a"/><link rel=" " href="/b"/></feed>`,
		weblink.Links{rel("https://example.com/a", "alternate"), rel("https://example.com/b", "alternate")}},
	{"6/atom IANA IRI rel and upper case", atomHead + `><link rel="http://www.iana.org/assignments/relation/next" href="/2"/><link rel="PREV" href="/0"/><link rel="https://ext.example/R" href="/x"/></feed>`,
		weblink.Links{rel("https://example.com/2", "next"), rel("https://example.com/0", "prev"), rel("https://example.com/x", "https://ext.example/r")}},
	{"6/atom entry links are not the feed's", atomHead + `><link rel="self" href="/f"/><entry><link href="/e1"/><link rel="replies" href="/r"/></entry><entry><link href="/e2"/></entry></feed>`,
		weblink.Links{rel("https://example.com/f", "self")}},
	{"6/atom link after entries still counts", atomHead + `><entry><link href="/e"/></entry><link rel="next" href="/2"/></feed>`,
		weblink.Links{rel("https://example.com/2", "next")}},
	{"6/atom link without href skipped, empty href is the document", atomHead + `><link rel="a"/><link rel="b" href=""/></feed>`,
		weblink.Links{rel("https://example.com/dir/page?q=1", "b")}},
	{"6/atom links in other elements and namespaces skipped", atomHead + ` xmlns:x="urn:x"><author><link href="/au"/></author><x:link href="/x"/><source><link href="/s"/></source></feed>`, nil},
	{"6/atom namespaced attributes not in Params", atomHead + ` xmlns:thr="http://purl.org/syndication/thread/1.0"><link rel="replies" href="/r" thr:count="5" custom="c"/></feed>`,
		weblink.Links{{Target: "https://example.com/r", Rel: []string{"replies"}, Params: []weblink.Param{{Name: "custom", Value: "c"}}}}},
	{"6/atom with a prefix", `<a:feed xmlns:a="http://www.w3.org/2005/Atom"><a:link rel="hub" href="/h"/><link href="/none"/></a:feed>`,
		weblink.Links{rel("https://example.com/h", "hub")}},
	{"6/atom 0.3", `<feed version="0.3" xmlns="http://purl.org/atom/ns#"><link rel="alternate" type="text/html" href="/"/></feed>`,
		weblink.Links{{Target: "https://example.com/", Rel: []string{"alternate"}, Type: "text/html"}}},
	{"6/atom entities and character references", atomHead + `><link rel="a" href="/s?x=1&amp;y=2" title="A&#x263A;&nbsp;B"/></feed>`,
		weblink.Links{{Target: "https://example.com/s?x=1&y=2", Rel: []string{"a"}, Title: "A☺\u00a0B"}}},
	{"6/rss channel link is alternate, atom:link hub and self", rssHead + `><channel><title>t</title>
<link>https://example.org/</link>
<atom:link rel="hub" href="https://hub.example/"/>
<atom:link rel="self" type="application/rss+xml" href="/rss.xml"/>
<item><link>https://example.org/post</link><atom:link rel="x" href="/i"/></item>
</channel></rss>`, weblink.Links{
		rel("https://example.org/", "alternate"), rel("https://hub.example/", "hub"),
		{Target: "https://example.com/rss.xml", Rel: []string{"self"}, Type: "application/rss+xml"},
	}},
	{"6/rss link text trimmed, CDATA, relative, empty skipped", rssHead + "><channel><link>\n  <![CDATA[/home]]>\n</link><link> </link><link/></channel></rss>",
		weblink.Links{rel("https://example.com/home", "alternate")}},
	{"6/rss elements outside the channel skipped", rssHead + `><link>/x</link><atom:link rel="hub" href="/h"/><channel><link>/c</link></channel></rss>`,
		weblink.Links{rel("https://example.com/c", "alternate")}},

	// Rule 7: xml:base.
	{"7/xml:base on the feed", atomHead + ` xml:base="https://cdn.example/f/"><link href="a"/></feed>`,
		weblink.Links{rel("https://cdn.example/f/a", "alternate")}},
	{"7/xml:base relative, resolved against base", atomHead + ` xml:base="sub/"><link href="a"/></feed>`,
		weblink.Links{rel("https://example.com/dir/sub/a", "alternate")}},
	{"7/xml:base on the link applies to its href", atomHead + ` xml:base="/one/"><link xml:base="two/" href="a"/><link href="b"/></feed>`,
		weblink.Links{rel("https://example.com/one/two/a", "alternate"), rel("https://example.com/one/b", "alternate")}},
	{"7/xml:base on rss, channel and link", rssHead + ` xml:base="/r/"><channel xml:base="c/"><link xml:base="l/">x</link><atom:link href="y"/></channel></rss>`,
		weblink.Links{rel("https://example.com/r/c/l/x", "alternate"), rel("https://example.com/r/c/y", "alternate")}},
	{"7/xml:base of an entry does not leak", atomHead + `><entry xml:base="/e/"><link href="x"/></entry><link href="y"/></feed>`,
		weblink.Links{rel("https://example.com/dir/y", "alternate")}},
}

func TestFeed(t *testing.T) {
	base := mustURL(t, docURL)
	for _, tc := range feedCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Feed(strings.NewReader(tc.in), base)
			if err != nil {
				t.Errorf("error %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Feed mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFeedCharset checks that the charset of the XML declaration is used.
func TestFeedCharset(t *testing.T) {
	in := `<?xml version="1.0" encoding="ISO-8859-1"?><feed xmlns="http://www.w3.org/2005/Atom"><link href="/a" title="caf` + "\xe9" + `"/></feed>`
	got, err := Feed(strings.NewReader(in), mustURL(t, docURL))
	want := weblink.Links{{Target: "https://example.com/a", Rel: []string{"alternate"}, Title: "café"}}
	if diff := cmp.Diff(want, got); diff != "" || err != nil {
		t.Errorf("err %v, mismatch (-want +got):\n%s", err, diff)
	}
}

// TestFeedErrors checks what Feed reports: a root that is no feed, a
// syntax error after some links, a document cut short, an unparsable
// reference.
func TestFeedErrors(t *testing.T) {
	base := mustURL(t, docURL)
	for _, tc := range []struct {
		name, in, errText string
		want              weblink.Links
	}{
		{"html root", `<html><link rel="a" href="/1"/></html>`, `root element is "<html>"`, nil},
		{"empty document", ``, "unexpected EOF", nil},
		{"syntax error after a link", atomHead + `><link href="/a"/><link href="/b" <</feed>`, "reading the feed", weblink.Links{rel("https://example.com/a", "alternate")}},
		{"cut short", atomHead + `><link href="/a"/><entry><title>x`, "unexpected EOF", weblink.Links{rel("https://example.com/a", "alternate")}},
		{"unresolvable href kept", atomHead + `><link href="http://[::1"/></feed>`, `cannot resolve "http://[::1"`, weblink.Links{rel("http://[::1", "alternate")}},
		{"unknown charset", `<?xml version="1.0" encoding="x-unknown"?><feed/>`, "x-unknown", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Feed(strings.NewReader(tc.in), base)
			if err == nil || !strings.Contains(err.Error(), tc.errText) {
				t.Errorf("error %v; want one containing %q", err, tc.errText)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
	var re *weblink.ResolveError
	if _, err := Feed(strings.NewReader(atomHead+` xml:base="http://%zz/"><link href="/a"/></feed>`), base); !errors.As(err, &re) {
		t.Errorf("bad xml:base: error %v; want a *weblink.ResolveError", err)
	}
}
