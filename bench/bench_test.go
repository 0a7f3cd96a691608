package bench

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"

	peterhellberg "github.com/peterhellberg/link"
	"github.com/tomnomnom/linkheader"
	"github.com/weblinking/weblink"
)

// parsers are the parse functions compared by the parse benchmarks, each
// returning how many links it found so that the work cannot be optimised
// away.
var parsers = []struct {
	name  string
	parse func(string) int
}{
	{"weblink", func(s string) int { ls, _ := weblink.Parse(s); return len(ls) }},
	{"weblink-parser", func(s string) int { ls, _ := reused.Parse(s); return len(ls) }},
	{"tomnomnom", func(s string) int { return len(linkheader.Parse(s)) }},
	{"peterhellberg", func(s string) int { return len(peterhellberg.Parse(s)) }},
}

// sink keeps results alive.
var sink int

// reused is the weblink.Parser of the weblink-parser runs, warm after the
// first operation.
var reused weblink.Parser

// benchParse runs every parser on in.
func benchParse(b *testing.B, in string) {
	for _, p := range parsers {
		benchParser(b, p.name, p.parse, in)
	}
}

// benchParser runs parse on in as sub-benchmark name, reporting bytes per
// second.
func benchParser(b *testing.B, name string, parse func(string) int, in string) {
	b.Run("impl="+name, func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for range b.N {
			sink += parse(in)
		}
	})
}

func BenchmarkGitHub4(b *testing.B) { benchParse(b, github4) }

func BenchmarkLarge100(b *testing.B) { benchParse(b, largeLinks(100)) }

// BenchmarkLarge100NoTitleStar parses the input of Large100 without its
// title* parameters, to tell how much of the difference between weblink and
// tomnomnom/linkheader is the RFC 8187 decoding of title* (rule 6 of package weblink),
// which tomnomnom does not do. peterhellberg/link, which has no title*
// decoding either and is 60 times slower, is left out.
func BenchmarkLarge100NoTitleStar(b *testing.B) {
	in := largeLinksNoTitleStar(100)
	for _, p := range parsers[:3] {
		benchParser(b, p.name, p.parse, in)
	}
}

// BenchmarkScale parses 1 000, 10 000 and 100 000 link-values: with a linear
// parser the time per byte (the inverse of MB/s) stays flat. The regexp-based
// peterhellberg/link runs at 1 000 only: at about 5 MB/s it would take
// seconds per operation at 100 000, and it gets this input wrong anyway (see
// TestPeerAnswers).
func BenchmarkScale(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		in := largeLinks(n)
		b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
			for _, p := range parsers {
				if n > 1000 && p.name == "peterhellberg" {
					continue
				}
				benchParser(b, p.name, p.parse, in)
			}
		})
	}
}

// BenchmarkFindNext gets the absolute URL of the rel="next" link of a
// response header, the work of a paginating API client: parse, find the
// link, resolve it against the request URL. weblink does it with NextURL,
// as its README recommends; weblink-parse with ParseHeader, Links.Rel and
// url.URL.Parse, as the peers do.
func BenchmarkFindNext(b *testing.B) {
	resp := &http.Response{Header: githubHeader, Request: &http.Request{URL: githubBase}}
	for _, f := range []struct {
		name string
		next func() (*url.URL, error)
	}{
		{"weblink", func() (*url.URL, error) {
			u, _ := weblink.NextURL(resp)
			return u, nil
		}},
		{"weblink-parse", func() (*url.URL, error) {
			links, _ := weblink.ParseHeader(githubHeader)
			next, _ := links.Rel("next")
			return githubBase.Parse(next.Target)
		}},
		{"tomnomnom", func() (*url.URL, error) {
			var target string
			if next := linkheader.ParseMultiple(githubHeader["Link"]).FilterByRel("next"); len(next) > 0 {
				target = next[0].URL
			}
			return githubBase.Parse(target)
		}},
		{"peterhellberg", func() (*url.URL, error) {
			var target string
			if next := peterhellberg.ParseHeader(githubHeader)["next"]; next != nil {
				target = next.URI
			}
			return githubBase.Parse(target)
		}},
	} {
		b.Run("impl="+f.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				u, err := f.next()
				if err != nil || u.RawQuery != "page=4" {
					b.Fatalf("got %v, %v; want %s", u, err, github4Next)
				}
			}
		})
	}
}

// BenchmarkParseResponse gets every link of a response with its target
// resolved against the request URL: weblink.ParseResponse, and for
// tomnomnom ParseMultiple and url.URL.Parse of each target by hand.
func BenchmarkParseResponse(b *testing.B) {
	resp := &http.Response{Header: githubHeader, Request: &http.Request{URL: githubBase}}
	for _, f := range []struct {
		name  string
		parse func() int
	}{
		{"weblink", func() int {
			links, err := weblink.ParseResponse(resp)
			if err != nil {
				b.Fatal(err)
			}
			return len(links)
		}},
		{"tomnomnom", func() int {
			links := linkheader.ParseMultiple(githubHeader["Link"])
			for i := range links {
				u, err := githubBase.Parse(links[i].URL)
				if err != nil {
					b.Fatal(err)
				}
				links[i].URL = u.String()
			}
			return len(links)
		}},
	} {
		b.Run("impl="+f.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				sink += f.parse()
			}
		})
	}
}

// BenchmarkFormat4 writes the four links of github4 as a field value.
func BenchmarkFormat4(b *testing.B) {
	wl, err := weblink.Parse(github4)
	if err != nil {
		b.Fatal(err)
	}
	tn := linkheader.Parse(github4)
	for _, f := range []struct {
		name   string
		format func() string
	}{
		{"weblink", wl.String},
		{"tomnomnom", tn.String},
	} {
		b.Run("impl="+f.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				sink += len(f.format())
			}
		})
	}
}
