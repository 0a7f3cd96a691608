package linkformat_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/benchdata"
	"github.com/weblinking/weblink/linkformat"
)

// TestFormat is a table of rules 11 to 15.
func TestFormat(t *testing.T) {
	for _, tt := range []struct {
		name  string
		links weblink.Links
		want  string
	}{
		{"rule 11: no links, an empty document", nil, ""},
		{"rule 11: RFC 6690 §5's style, no whitespace, no trailing comma", weblink.Links{
			{Target: "/sensors", Params: []weblink.Param{{Name: "ct", Value: "40"}, {Name: "title", Value: "ignored"}}},
			{Target: "/sensors/temp", Params: []weblink.Param{{Name: "rt", Value: "temperature-c"}, {Name: "if", Value: "sensor"}, {Name: "obs"}}},
		}, `</sensors>;ct=40,</sensors/temp>;rt="temperature-c";if="sensor";obs`},
		{"rule 11: the order of attributes", weblink.Links{{
			Target: "/t", Type: "text/plain", Title: "T", Media: "print", Hreflang: []string{"en", "de"},
			Rev: []string{"made"}, Anchor: "/s", Rel: []string{"alternate"}, Params: []weblink.Param{{Name: "ct", Value: "0"}},
		}}, `</t>;rel="alternate";anchor="/s";rev="made";hreflang=en;hreflang=de;media=print;title="T";type="text/plain";ct=0`},
		{"rule 11: IRIs as UTF-8, only what cannot be in a URI-reference escaped", weblink.Links{{
			Target: "/temperature/Malmö/a%2Fb c\"<>\\^`{|}\x00\x1f\x7f\xff", Anchor: "/ö\"",
		}}, "</temperature/Malmö/a%2Fb%20c%22%3C%3E%5C%5E%60%7B%7C%7D%00%1F%7F%FF>;anchor=\"/ö%22\""},
		{"rule 11: C1 controls in a target or an anchor are escaped, as a terminal would read U+009B as CSI", weblink.Links{{
			Target: "/a\u0085b\u009b31m\u00a0", Anchor: "/\u0080\u009f",
		}}, "</a%C2%85b%C2%9B31m\u00a0>;anchor=\"/%C2%80%C2%9F\""},
		{"rule 12: relation types lower-cased and kept one type each", weblink.Links{{
			Target: "/", Rel: []string{"Next", "a b", `x"y\z`, "", "\xff", "ü", "tab\there"},
		}}, `</>;rel="next a%20b x%22y%5Cz %FF ü tab%09here"`},
		{"rule 12: escapes in upper case, those a type holds too (issue #37 item 2)", weblink.Links{{
			Target: "/", Rel: []string{"http://example.com/%c3%a7runchy", "\x7f", "%zz%e"},
		}}, `</>;rel="http://example.com/%C3%A7runchy %7F %zz%e"`},
		{"rule 12: no types left, no rel", weblink.Links{{Target: "/", Rel: []string{"", ""}}}, `</>`},
		{"rule 13: ct and sz bare when all digits", weblink.Links{{Target: "/", Params: []weblink.Param{
			{Name: "ct", Value: "40"}, {Name: "ct", Value: "0 41"}, {Name: "sz", Value: "262144"}, {Name: "sz", Value: "big"},
		}}}, `</>;ct=40;ct="0 41";sz=262144;sz="big"`},
		{"rule 13: rt and if always quoted, tokens bare, others quoted", weblink.Links{{Target: "/", Params: []weblink.Param{
			{Name: "rt", Value: "x"}, {Name: "if", Value: "y"}, {Name: "ver", Value: "1.1"}, {Name: "datetime", Value: `Tue, 20 Jun 2000 "x" \ y`}, {Name: "CT", Value: "60"},
		}}}, `</>;rt="x";if="y";ver=1.1;datetime="Tue, 20 Jun 2000 \"x\" \\ y";ct=60`},
		{"rule 13: hreflang, media and type with controls and invalid UTF-8 escaped", weblink.Links{{
			Target: "/", Hreflang: []string{"en", "a\nb", "", "x y"}, Media: "screen and (x)\x7f", Type: "text/plain; q=\"ä\"\x01\xfe",
		}}, `</>;hreflang=en;hreflang=a%0Ab;hreflang="";hreflang="x y";media="screen and (x)%7F";type="text/plain; q=\"ä\"%01%FE"`},
		{"rule 12 and 13: C1 controls in relation types, hreflang, media and type are escaped", weblink.Links{{
			Target: "/", Rel: []string{"a\u009bb"}, Rev: []string{"\u0085"}, Hreflang: []string{"x\u009by"}, Media: "m\u0085", Type: "t\u009b",
		}}, `</>;rel="a%C2%9Bb";rev="%C2%85";hreflang=x%C2%9By;media=m%C2%85;type="t%C2%9B"`},
		{"rule 14: a title in UTF-8, quotes escaped, invalid UTF-8 replaced", weblink.Links{{Target: "/", Title: "Ä \"q\" \\ \xff"}},
			"</>;title=\"Ä \\\"q\\\" \\\\ \uFFFD\""},
		{"rule 14: a title with a language, or a control, is title*", weblink.Links{
			{Target: "/a", Title: "Malmö", TitleLang: "sv"},
			{Target: "/b", Title: "line\nbreak"},
			{Target: "/c", Title: "c1\u0085"},
			{Target: "/d", Title: "bad lang", TitleLang: "not a tag"},
			{Target: "/e", TitleLang: "en"},
			{Target: "/f", TitleLang: "not a tag"},
		}, `</a>;title*=UTF-8'sv'Malm%C3%B6,</b>;title*=UTF-8''line%0Abreak,</c>;title*=UTF-8''c1%C2%85,</d>;title="bad lang",</e>;title*=UTF-8'en',</f>`},
		{"rule 14: a Param with a language makes every Param of its name name*", weblink.Links{{Target: "/", Params: []weblink.Param{
			{Name: "note", Value: "a"}, {Name: "x", Value: "1"}, {Name: "note", Value: "Malmö", Lang: "sv"}, {Name: "y", Value: "tab\t"},
		}}}, `</>;note*=UTF-8''a;x=1;note*=UTF-8'sv'Malm%C3%B6;y*=UTF-8''tab%09`},
		{"rule 14: names compare case-insensitively for name*", weblink.Links{{Target: "/", Params: []weblink.Param{
			{Name: "Note", Value: "a"}, {Name: "note", Value: "b", Lang: "en"},
		}}}, `</>;note*=UTF-8''a;note*=UTF-8'en'b`},
		{"rule 13: an empty value is the bare name, also for rt, if, ct and sz", weblink.Links{{Target: "/", Params: []weblink.Param{
			{Name: "rt"}, {Name: "if"}, {Name: "ct"}, {Name: "sz"}, {Name: "obs"},
		}}}, `</>;rt;if;ct;sz;obs`},
		{"rule 15: Params that cannot be written are left out", weblink.Links{{Target: "/", Params: []weblink.Param{
			{Name: "x y", Value: "1"}, {Name: "", Value: "2"}, {Name: "REL", Value: "3"}, {Name: "anchor", Value: "4"}, {Name: "a*", Value: "5"}, {Name: "ok", Value: "6"}, {Name: "Hreflang", Value: "7"},
		}}}, `</>;ok=6`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := string(linkformat.Format(tt.links))
			if got != tt.want {
				t.Errorf("Format =\n%s\nwant\n%s", got, tt.want)
			}
			checkFormatted(t, tt.links, []byte(got))
		})
	}
}

// TestFormatRoundTrip checks rule 16: Parse(Format(ls)) is ls for links in
// the parsed form.
func TestFormatRoundTrip(t *testing.T) {
	ls := weblink.Links{
		{Target: "/sensors/temp", Params: []weblink.Param{{Name: "rt", Value: "temperature-c"}, {Name: "if", Value: "sensor"}, {Name: "ct", Value: "0 41"}, {Name: "ct", Value: "50"}, {Name: "obs"}}},
		{Target: "coap://[2001:db8:f0::1]/temperature/Malmö", Rel: []string{"live-environment-data", "hosts"}, Anchor: "coap://[2001:db8:f0::1]/"},
		{Target: "", Rev: []string{"made"}, Hreflang: []string{"en", "", "x\"y"}, Media: "print and (color)", Title: "Tïtle \"x\"", Type: "text/plain; charset=utf-8"},
		{Target: "/t", Title: "Malmö\r\n", TitleLang: "sv-SE", Params: []weblink.Param{{Name: "note", Value: "x", Lang: "en"}, {Name: "note", Value: ""}, {Name: "v", Value: "a,b;c"}}},
		{Target: "http://arxiv.example.net/web/20000620180259/http://a.example.org", Rel: []string{"first", "memento"},
			Params: []weblink.Param{{Name: "datetime", Value: "Tue, 20 Jun 2000 18:02:59 GMT"}, {Name: "license", Value: "http://creativecommons.org/publicdomain/zero/1.0/"}}},
	}
	out := linkformat.Format(ls)
	got, err := linkformat.Parse(out)
	if err != nil {
		t.Fatalf("Parse(Format) error: %v\n%s", err, out)
	}
	if diff := cmp.Diff(ls, got); diff != "" {
		t.Errorf("Parse(Format(ls)) (-want +got):\n%s\n%s", diff, out)
	}
	checkFormatted(t, ls, out)
}

// isControl reports whether r is a control character: C0, DEL or C1.
func isControl(r rune) bool { return r < 0x20 || 0x7f <= r && r <= 0x9f }

// checkFormatted checks what rule 16 promises for every output: valid
// UTF-8 without control bytes, one link-value per Link that parses back
// without error, and a second round that changes nothing.
func checkFormatted(t *testing.T, ls weblink.Links, out []byte) {
	t.Helper()
	if !utf8.Valid(out) {
		t.Errorf("output is not valid UTF-8: %q", out)
	}
	if i := strings.IndexFunc(string(out), isControl); i >= 0 {
		t.Errorf("control byte at %d: %q", i, out)
	}
	back, err := linkformat.Parse(out)
	if err != nil {
		t.Errorf("Parse(Format(ls)) error %v for %q", err, out)
	}
	if len(back) != len(ls) {
		t.Errorf("%d links became %d: %q", len(ls), len(back), out)
	}
	if again := linkformat.Format(back); string(again) != string(out) {
		t.Errorf("Format(Parse(Format(ls))) changed:\n%q\n%q", out, again)
	}
}

// BenchmarkFormat writes the links of a GitHub Link field and of 100
// link-values with every kind of parameter, as Format sizes its output
// once: one allocation a document.
func BenchmarkFormat(b *testing.B) {
	for _, bc := range []struct{ name, in string }{
		{"GitHub4", benchdata.GitHub4},
		{"Large100", benchdata.LinkValues(100, true)},
	} {
		links, err := weblink.Parse(bc.in)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				_ = linkformat.Format(links)
			}
		})
	}
}
