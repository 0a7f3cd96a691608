package discover

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// benchPage returns a page shaped like the home page of a news site, about
// 100 KB: a head with 30 <link> elements (stylesheets, preloads, icons,
// alternates, feeds, canonical, webmention), meta tags, inline scripts and
// styles; a body with navigation, 60 teasers with images, <a> links, data-
// and aria- attributes, inline SVG icons, comments and a JSON-LD block.
func benchPage() string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en" class="no-js"><head><meta charset="utf-8">` +
		`<meta name="viewport" content="width=device-width, initial-scale=1"><title>The Daily Example &ndash; News</title>` + "\n")
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&b, `<link rel="stylesheet" href="/static/css/bundle.%d.a1b2c3d4.css" media="all" integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC" crossorigin="anonymous">`+"\n", i)
	}
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&b, `<link rel="preload" href="/static/fonts/serif-%d.woff2" as="font" type="font/woff2" crossorigin>`+"\n", i)
	}
	for _, l := range []string{
		`<link rel="preconnect" href="https://cdn.example.net">`,
		`<link rel="dns-prefetch" href="//ads.example.org">`,
		`<link rel="icon" href="/favicon.ico" sizes="any">`,
		`<link rel="icon" href="/icon.svg" type="image/svg+xml">`,
		`<link rel="apple-touch-icon" href="/apple-touch-icon.png">`,
		`<link rel="manifest" href="/site.webmanifest">`,
		`<link rel="canonical" href="https://www.example.com/">`,
		`<link rel="alternate" type="application/rss+xml" title="RSS" href="/rss.xml">`,
		`<link rel="alternate" type="application/atom+xml" title="Atom" href="/atom.xml">`,
		`<link rel="alternate" hreflang="de" href="https://de.example.com/">`,
		`<link rel="alternate" hreflang="fr" href="https://fr.example.com/">`,
		`<link rel="webmention" href="https://webmention.example/endpoint">`,
		`<link rel="pingback" href="https://www.example.com/xmlrpc.php">`,
		`<link rel="search" type="application/opensearchdescription+xml" title="Search" href="/opensearch.xml">`,
		`<link rel="modulepreload" href="/static/js/app.4f3e2d1c.js">`,
		`<link rel="prefetch" href="/static/js/article.9a8b7c6d.js">`,
	} {
		b.WriteString(l + "\n")
	}
	b.WriteString(`<meta property="og:title" content="The Daily Example"><meta property="og:image" content="https://cdn.example.net/og.png">` + "\n")
	b.WriteString(`<style>` + strings.Repeat(`.teaser__title{font:700 1.25rem/1.2 var(--serif);margin:0 0 .5rem}.teaser a:hover{text-decoration:underline}`, 20) + `</style>` + "\n")
	b.WriteString(`<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag("js",new Date);` +
		`document.write('<link rel="stylesheet" href="/late.css">');if(a<b&&c>d){console.log("</div>")}</script>` + "\n")
	b.WriteString("</head>\n<body class=\"home\" data-page-type=\"front\">\n<!-- header -->\n<header class=\"site-header\"><nav aria-label=\"Main\"><ul>")
	for i := 0; i < 25; i++ {
		fmt.Fprintf(&b, `<li class="nav__item"><a class="nav__link" href="/section/%d/" data-track="nav-%d">Section %d</a></li>`, i, i, i)
	}
	b.WriteString("</ul></nav></header>\n<main id=\"main\">\n")
	for b.Len() < 96<<10 {
		i := b.Len()
		fmt.Fprintf(&b, `<article class="teaser teaser--%d" data-id="%d" itemscope itemtype="https://schema.org/NewsArticle">`+
			`<a class="teaser__link" href="/2026/12/01/story-%d.html" aria-label="Read story %d">`+
			`<picture><source srcset="https://cdn.example.net/img/%d-800.avif 800w, https://cdn.example.net/img/%d-1600.avif 1600w" type="image/avif">`+
			`<img src="https://cdn.example.net/img/%d-800.jpg" alt="A photo for story %d" loading="lazy" width="800" height="450"></picture>`+
			`<h2 class="teaser__title">Headline number %d about something that happened &amp; matters</h2></a>`+
			`<p class="teaser__summary">Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. `+
			`Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris.</p>`+
			`<footer><a rel="author" href="/people/writer-%d/">A. Writer</a> <a rel="tag" href="/tags/topic-%d/">Topic</a>`+
			`<svg class="icon" aria-hidden="true" viewBox="0 0 24 24"><use href="#icon-share"></use><path d="M12 2L2 7l10 5 10-5-10-5z"/></svg></footer>`+
			"</article>\n<!-- /teaser -->\n", i%5, i, i, i, i, i, i, i, i, i%40, i%12)
	}
	b.WriteString(`</main><footer class="site-footer"><a rel="license" href="https://creativecommons.org/licenses/by/4.0/">CC BY</a> ` +
		`<a rel="me" href="https://social.example/@daily">Social</a> <a href="/privacy">Privacy</a></footer>` + "\n")
	b.WriteString(`<script type="application/ld+json">{"@context":"https://schema.org","@type":"WebSite","url":"https://www.example.com/"}</script>` + "\n")
	b.WriteString(`<script src="/static/js/app.4f3e2d1c.js" type="module" defer></script></body></html>` + "\n")
	return b.String()
}

// TestBenchPage checks the benchmark page: its size and the links HTML
// finds in it, so that the benchmark measures what it says.
func TestBenchPage(t *testing.T) {
	page := benchPage()
	if len(page) < 95<<10 || len(page) > 110<<10 {
		t.Errorf("page is %d bytes; want about 100 KB", len(page))
	}
	links, err := HTML(strings.NewReader(page), mustURL(t, docURL))
	if err != nil || len(links) != 30 {
		t.Errorf("HTML found %d links, error %v; want the 30 <link> elements of the head", len(links), err)
	}
	all, _ := HTML(strings.NewReader(page), mustURL(t, docURL), Hyperlinks())
	if len(all) <= len(links)+100 {
		t.Errorf("with Hyperlinks %d links; want the author and tag links of every teaser too", len(all))
	}
}

// BenchmarkHTML measures HTML on benchPage against the floor: a loop that
// runs the x/net/html tokenizer over the page and does nothing else.
func BenchmarkHTML(b *testing.B) {
	page := benchPage()
	base := mustURL(b, docURL)
	b.Run("floor", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			z := html.NewTokenizer(strings.NewReader(page))
			for z.Next() != html.ErrorToken {
			}
			if z.Err() != io.EOF {
				b.Fatal(z.Err())
			}
		}
	})
	b.Run("links", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := HTML(strings.NewReader(page), base); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hyperlinks", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := HTML(strings.NewReader(page), base, Hyperlinks()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
