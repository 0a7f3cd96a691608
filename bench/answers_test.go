package bench

import (
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	peterhellberg "github.com/peterhellberg/link"
	"github.com/tomnomnom/linkheader"
	"github.com/weblinking/weblink"
)

// peerCases are Link headers on which the parsers disagree. want is the
// reading RFC 8288 gives; tomnomnom and peterhellberg record what those
// parsers return today (peer behaviour, not a specification), so that the
// claims of README.md stay checked. A nil peer answer means the peer agrees
// with want; an empty one that it finds no link.
//
// Each link is summarised as "<target>", its relation types joined by "|"
// (so that a peer's single rel string "start index" shows as such), and its
// other attributes as name=value sorted by name. peterhellberg/link
// returns a map keyed by rel, so its links are compared sorted.
var peerCases = []struct {
	name                     string
	lines                    []string // Link field lines
	want                     []string
	tomnomnom, peterhellberg []string
}{
	{
		name:  "GitHub pagination",
		lines: []string{github4},
		want: []string{
			`<https://api.github.com/repositories/1300192/issues?page=2> rel=prev`,
			`<https://api.github.com/repositories/1300192/issues?page=4> rel=next`,
			`<https://api.github.com/repositories/1300192/issues?page=515> rel=last`,
			`<https://api.github.com/repositories/1300192/issues?page=1> rel=first`,
		},
	},
	{
		name:  "comma in quoted title",
		lines: []string{`<https://example.com/1>; rel="next"; title="Pages, part 2", <https://example.com/9>; rel="last"`},
		want: []string{
			`<https://example.com/1> rel=next title=Pages, part 2`,
			`<https://example.com/9> rel=last`,
		},
		// Splits on the comma: the title is cut and the rest ignored.
		tomnomnom: []string{`<https://example.com/1> rel=next title=Pages`, `<https://example.com/9> rel=last`},
		// Deletes every comma that does not follow a '"'.
		peterhellberg: []string{`<https://example.com/1> rel=next title=Pages part 2`, `<https://example.com/9> rel=last`},
	},
	{
		name:          "semicolon in quoted title",
		lines:         []string{`<https://example.com/1>; rel="next"; title="one; two"`},
		want:          []string{`<https://example.com/1> rel=next title=one; two`},
		tomnomnom:     []string{`<https://example.com/1> rel=next title=one two"=`},
		peterhellberg: []string{`<https://example.com/1> rel=next title="one`},
	},
	{
		name:          "comma in URI",
		lines:         []string{`<https://example.com/items?ids=1,2,3>; rel="next"`},
		want:          []string{`<https://example.com/items?ids=1,2,3> rel=next`},
		tomnomnom:     []string{}, // the link is lost
		peterhellberg: []string{`<https://example.com/items?ids=123> rel=next`},
	},
	{
		name:          "valueless parameter",
		lines:         []string{`<https://example.com/font.woff2>; rel="preload"; as="font"; crossorigin`},
		want:          []string{`<https://example.com/font.woff2> rel=preload as=font crossorigin=`},
		peterhellberg: []string{`<https://example.com/font.woff2> rel=preload as=font`},
	},
	{
		name:          "upper-case REL",
		lines:         []string{`<https://example.com/2>; REL="NEXT"`},
		want:          []string{`<https://example.com/2> rel=next`},
		tomnomnom:     []string{`<https://example.com/2> rel=NEXT`}, // FilterByRel("next") misses it
		peterhellberg: []string{},                                   // the link is lost
	},
	{
		name:  "several relation types",
		lines: []string{`<https://example.com/>; rel="start index"`},
		want:  []string{`<https://example.com/> rel=start|index`},
		// One string: FilterByRel("start") or Group["start"] misses it.
		tomnomnom:     []string{`<https://example.com/> rel=start index`},
		peterhellberg: []string{`<https://example.com/> rel=start index`},
	},
	{
		name:          "title*",
		lines:         []string{`<https://example.com/2>; rel="next"; title*=UTF-8'de'n%C3%A4chstes%20Kapitel`},
		want:          []string{`<https://example.com/2> rel=next title-lang=de title=nächstes Kapitel`},
		tomnomnom:     []string{`<https://example.com/2> rel=next title*=UTF-8'de'n%C3%A4chstes%20Kapitel`},
		peterhellberg: []string{`<https://example.com/2> rel=next title*=UTF-8'de'n%C3%A4chstes%20Kapitel`},
	},
	{
		name:  "two links with one rel",
		lines: []string{`<https://example.com/en>; rel="alternate"; hreflang=en, <https://example.com/de>; rel="alternate"; hreflang=de`},
		want: []string{
			`<https://example.com/en> rel=alternate hreflang=en`,
			`<https://example.com/de> rel=alternate hreflang=de`,
		},
		// The comma after "en" is deleted, which merges the two links.
		peterhellberg: []string{`<https://example.com/en>; rel="alternate"; hreflang=en <https://example.com/de> rel=alternate hreflang=de`},
	},
	{
		name:  "several Link lines",
		lines: []string{`<https://example.com/2>; rel="next"`, `<https://example.com/9>; rel="last"`},
		want: []string{
			`<https://example.com/2> rel=next`,
			`<https://example.com/9> rel=last`,
		},
	},
	{
		name:  "header cut short",
		lines: []string{`<https://example.com/2>; rel="next", <https://example.com/9>; rel="la`},
		want:  []string{`<https://example.com/2> rel=next`},
		// A link built from the broken end.
		tomnomnom:     []string{`<https://example.com/2> rel=next`, `<https://example.com/9> rel=la`},
		peterhellberg: []string{`<https://example.com/2> rel=next`, `<https://example.com/9> rel="la`},
	},
}

func TestPeerAnswers(t *testing.T) {
	for _, tc := range peerCases {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{"Link": tc.lines}
			for _, p := range []struct {
				name      string
				got, want []string
			}{
				{"weblink", weblinkAnswer(h), tc.want},
				{"tomnomnom (peer behaviour)", tomnomnomAnswer(h), orWant(tc.tomnomnom, tc.want)},
				{"peterhellberg (peer behaviour)", peterhellbergAnswer(h), orWant(tc.peterhellberg, slices.Sorted(slices.Values(tc.want)))},
			} {
				if !slices.Equal(p.got, p.want) && len(p.got)+len(p.want) > 0 {
					t.Errorf("%s:\n got %q\nwant %q", p.name, p.got, p.want)
				}
			}
		})
	}
}

// orWant returns peer, or want when peer is nil.
func orWant(peer, want []string) []string {
	if peer == nil {
		return want
	}
	return peer
}

// summary writes one link as "<target>", its relation types, then its
// other attributes sorted.
func summary(target string, rels, attrs []string) string {
	sort.Strings(attrs)
	return strings.Join(append([]string{"<" + target + ">", "rel=" + strings.Join(rels, "|")}, attrs...), " ")
}

func weblinkAnswer(h http.Header) []string {
	links, _ := weblink.ParseHeader(h)
	var out []string
	for _, l := range links {
		var attrs []string
		add := func(name, value string) {
			if value != "" {
				attrs = append(attrs, name+"="+value)
			}
		}
		add("anchor", l.Anchor)
		for _, r := range l.Rev {
			add("rev", r)
		}
		for _, hl := range l.Hreflang {
			add("hreflang", hl)
		}
		add("media", l.Media)
		add("title", l.Title)
		add("title-lang", l.TitleLang)
		add("type", l.Type)
		for _, p := range l.Params {
			attrs = append(attrs, p.Name+"="+p.Value)
		}
		out = append(out, summary(l.Target, l.Rel, attrs))
	}
	return out
}

func tomnomnomAnswer(h http.Header) []string {
	var out []string
	for _, l := range linkheader.ParseMultiple(h["Link"]) {
		var attrs []string
		for k, v := range l.Params {
			attrs = append(attrs, k+"="+v)
		}
		out = append(out, summary(l.URL, []string{l.Rel}, attrs))
	}
	return out
}

func peterhellbergAnswer(h http.Header) []string {
	var out []string
	for _, l := range peterhellberg.ParseHeader(h) {
		var attrs []string
		for k, v := range l.Extra {
			attrs = append(attrs, k+"="+v)
		}
		out = append(out, summary(l.URI, []string{l.Rel}, attrs))
	}
	sort.Strings(out)
	return out
}

// TestBenchmarkAnswers checks what each parser makes of the Large100 input
// of the benchmarks: weblink reads all of it; the peers' numbers are for a
// parse that loses part of it (peer behaviour, recorded).
func TestBenchmarkAnswers(t *testing.T) {
	in := largeLinks(100)
	links, err := weblink.Parse(in)
	if err != nil || len(links) != 100 {
		t.Fatalf("weblink: %d links, %v; want 100", len(links), err)
	}
	l := links[7]
	if l.Title != "Chapter 7, in which things happen" || l.TitleLang != "en" || len(l.Rel) != 2 ||
		len(l.Hreflang) != 2 || l.Anchor != "#section-7" || len(l.Params) != 2 {
		t.Errorf("weblink: link 7 is %+v", l)
	}

	// tomnomnom/linkheader: 100 links, but each title is cut at its comma
	// and rel is one string.
	tn := linkheader.Parse(in)
	if len(tn) != 100 || tn[7].Params["title"] != "Chapter 7" || tn[7].Rel != "chapter alternate" {
		t.Errorf("tomnomnom (peer behaviour): %d links, link 7 is %+v", len(tn), tn[7])
	}

	// peterhellberg/link: the commas between link-values that follow an
	// unquoted value are deleted, so the 100 link-values run together
	// into one link.
	if ph := peterhellberg.Parse(in); len(ph) != 1 {
		t.Errorf("peterhellberg (peer behaviour): %d links, want 1", len(ph))
	}
}
