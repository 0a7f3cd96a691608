package weblink

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/weblinking/weblink/internal/ascii"
)

// formatTests has a case for every formatting rule of the package
// documentation (rules 16 to 20), named after it.
var formatTests = []struct {
	name string
	in   Link
	want string
}{
	{"rule19/order and quoting",
		Link{Target: "https://x/?a=1", Rel: []string{"next", "last"}, Anchor: "#ctx", Rev: []string{"made"},
			Hreflang: []string{"en", "de-CH"}, Media: "screen", Title: "Next page", Type: "text/html",
			Params: []Param{{Name: "as", Value: "font"}, {Name: "crossorigin"}}},
		`<https://x/?a=1>; rel="next last"; anchor="#ctx"; rev="made"; hreflang=en; hreflang=de-CH; media=screen; title="Next page"; type="text/html"; as=font; crossorigin`},
	{"rule19/zero link", Link{}, `<>`},
	{"rule18/tokens where possible, quoted otherwise",
		Link{Target: "a", Media: "screen, print", Params: []Param{{Name: "x", Value: `say "hi" \o/`}, {Name: "y", Value: "a b"}}},
		`<a>; media="screen, print"; x="say \"hi\" \\o/"; y="a b"`},
	{"rule17/IRI to URI", Link{Target: "http://ex.com/ümlaut?q=é", Anchor: "/ä"},
		`<http://ex.com/%C3%BCmlaut?q=%C3%A9>; anchor="/%C3%A4"`},
	{"rule17/characters not allowed in a URI", Link{Target: "a b<c>\"d\r\nSet-Cookie: x=1", Anchor: "x\"y"},
		`<a%20b%3Cc%3E%22d%0D%0ASet-Cookie:%20x=1>; anchor="x%22y"`},
	{"rule17/percent escapes kept, stray percent encoded", Link{Target: "a%20b%zz%"}, `<a%20b%25zz%25>`},
	{"rule18/title* for non-ASCII", Link{Target: "a", Title: "nächstes Kapitel"},
		`<a>; title*=UTF-8''n%C3%A4chstes%20Kapitel`},
	{"rule18/title* for a language", Link{Target: "a", Title: "Chapter", TitleLang: "en"},
		`<a>; title*=UTF-8'en'Chapter`},
	{"rule16/title* for control characters", Link{Target: "a", Title: "x\r\nLink: <evil>"},
		`<a>; title*=UTF-8''x%0D%0ALink%3A%20%3Cevil%3E`},
	{"rule20/invalid UTF-8 title becomes U+FFFD", Link{Target: "a", Title: "a\xffb"},
		`<a>; title*=UTF-8''a%EF%BF%BDb`},
	{"rule20/malformed title language left out", Link{Target: "a", Title: "x", TitleLang: "not a tag!"},
		`<a>; title="x"`},
	{"rule18/param ext-value", Link{Target: "a", Params: []Param{{Name: "label", Value: "日本"}, {Name: "note", Value: "hi", Lang: "en"}}},
		`<a>; label*=UTF-8''%E6%97%A5%E6%9C%AC; note*=UTF-8'en'hi`},
	{"rule20/one star value puts every value of the name in star form",
		Link{Target: "a", Params: []Param{{Name: "foo"}, {Name: "bar", Value: "x"}, {Name: "Foo", Value: "\x00"}}},
		`<a>; foo*=UTF-8''; bar=x; foo*=UTF-8''%00`},
	{"rule18/bare valueless param", Link{Target: "a", Params: []Param{{Name: "crossorigin"}, {Name: "nopush"}}},
		`<a>; crossorigin; nopush`},
	{"rule20/unsafe param names omitted", Link{Target: "a", Params: []Param{
		{Name: "rel", Value: "evil"}, {Name: "Title", Value: "x"}, {Name: "a b", Value: "1"}, {Name: "x\r\ny", Value: "1"},
		{Name: "", Value: "1"}, {Name: "foo*", Value: "1"}, {Name: "ok", Value: "1"}, {Name: "UP", Value: "2"}}},
		`<a>; ok=1; up=2`},
	{"rule20/non-ASCII and controls percent-encoded in ASCII attributes",
		Link{Target: "a", Rel: []string{"nëxt", "a\"b"}, Rev: []string{"x\ny"}, Hreflang: []string{"é"}, Media: "scr\reen", Type: "text/ü"},
		`<a>; rel="n%C3%ABxt a\"b"; rev="x%0Ay"; hreflang=%C3%A9; media=scr%0Deen; type="text/%C3%BC"`},
	{"rule20/DEL and C1 in relation types as upper-case escapes (issue #37 item 2)",
		Link{Target: "a", Rel: []string{"a\x7fb", "\u0085", "\x9b"}, Rev: []string{"\u009f"}},
		`<a>; rel="a%7Fb %C2%85 %9B"; rev="%C2%9F"`},
	{"rule20/non-ASCII relation type as upper-case escapes (issue #37 item 2)",
		Link{Target: "a", Rel: []string{"http://example.com/\u00e7runchy"}},
		`<a>; rel="http://example.com/%C3%A7runchy"`},
	{"rule20/escapes a relation type holds in upper case, as Parse reads them",
		Link{Target: "a", Rel: []string{"http://example.com/%c3%a7runchy", "%7f", "%zz%e"}, Rev: []string{"x%2fy"}},
		`<a>; rel="http://example.com/%C3%A7runchy %7F %zz%e"; rev="x%2Fy"`},
	{"rule20/a space inside a relation type as %20, which Parse reads back as one type",
		Link{Target: "a", Rel: []string{"a b", " c"}, Rev: []string{"d  "}},
		`<a>; rel="a%20b %20c"; rev="d%20%20"`},
	{"rule18/hreflang and media tokens once encoded", Link{Target: "a", Hreflang: []string{"\x7f"}, Media: "\u0085 x"},
		`<a>; hreflang=%7F; media="%C2%85 x"`},
	{"rule20/empty title with a malformed language left out", Link{Target: "a", TitleLang: "not a tag!"}, `<a>`},
	{"rule20/empty relation types skipped", Link{Target: "a", Rel: []string{"", "next", ""}, Rev: []string{""}},
		`<a>; rel="next"`},
	{"rule18/empty hreflang quoted", Link{Target: "a", Hreflang: []string{""}}, `<a>; hreflang=""`},
}

func TestFormat(t *testing.T) {
	for _, tt := range formatTests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.in.String()
			if got != tt.want {
				t.Errorf("String() =\n%s\nwant\n%s", got, tt.want)
			}
			if !ascii.IsPrint(got) {
				t.Errorf("String() = %q is not printable ASCII", got)
			}
		})
	}
}

func TestLinksString(t *testing.T) {
	ls := Links{{Target: "a", Rel: []string{"next"}}, {Target: "b", Rel: []string{"prev"}}}
	if got, want := ls.String(), `<a>; rel="next", <b>; rel="prev"`; got != want {
		t.Errorf("String() = %s, want %s", got, want)
	}
	if got := Links(nil).String(); got != "" {
		t.Errorf("nil.String() = %q", got)
	}
}

func TestAdd(t *testing.T) {
	h := http.Header{}
	h.Set("Link", `</style.css>; rel=preload`)
	Add(h, Link{Target: "/a", Rel: []string{"next"}}, Link{Target: "/b\r\nX-Evil: 1", Rel: []string{"prev"}})
	Add(h)
	want := []string{`</style.css>; rel=preload`, `</a>; rel="next", </b%0D%0AX-Evil:%201>; rel="prev"`}
	if diff := cmp.Diff(want, h.Values("Link")); diff != "" {
		t.Errorf("Link lines (-want +got):\n%s", diff)
	}
	if len(h) != 1 {
		t.Errorf("Add created other fields: %v", h)
	}
}

// TestFormatRoundTrip checks rule 21: Parse(l.String()) gives l back for
// links in parsed form.
func TestFormatRoundTrip(t *testing.T) {
	links := Links{
		{Target: "https://x/a?b=c#d", Rel: []string{"next", "http://example.com/rel"}, Anchor: "#x", Rev: []string{"made"},
			Hreflang: []string{"en", "fr"}, Media: "(min-width: 1px), print", Title: `quote " back \ comma , semi ;`, Type: "text/html; charset=utf-8",
			Params: []Param{{Name: "x", Value: ""}, {Name: "y", Value: "été", Lang: "fr"}, {Name: "z", Value: "a\tb\r\n"}}},
		{Target: "", Title: "Ümlaut", TitleLang: "de"},
		{Target: "/", Title: "", TitleLang: "en"},
		{Target: "a", Title: "\x00\x7f"},
	}
	for _, l := range links {
		got, err := Parse(l.String())
		if err != nil {
			t.Errorf("Parse(%s): %v", l.String(), err)
		}
		if diff := cmp.Diff(Links{l}, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("round trip of %s (-want +got):\n%s", l.String(), diff)
		}
	}
}

// TestFormatReadsBack checks that String writes what Parse reads: for
// links whose relation types have no upper-case letters, the link Parse
// reads from l.String() formats as l.String() again, byte for byte, with
// DEL, C0 and C1 controls and invalid UTF-8 in every attribute (rules 5,
// 18 and 20).
func TestFormatReadsBack(t *testing.T) {
	for _, v := range []string{"a\x7fb", "\x7f", "a\u0085b", "\u009f", "\x9b", "a\x01b", "\xff", "a b\x7f", `a"\x7f`} {
		for _, l := range []Link{
			{Target: "/", Rel: []string{v}},
			{Target: "/", Rel: []string{"x"}, Rev: []string{v, "y"}},
			{Target: "/", Rel: []string{"x"}, Hreflang: []string{v, "en"}},
			{Target: "/", Rel: []string{"x"}, Media: v},
			{Target: "/", Rel: []string{"x"}, Type: v},
			{Target: "/", Rel: []string{"x"}, Title: v},
			{Target: "/", Rel: []string{"x"}, Title: "", TitleLang: v},
			{Target: "/", Rel: []string{"x"}, Params: []Param{{Name: "p", Value: v}, {Name: "q", Value: "1", Lang: v}}},
			{Target: "/" + v, Rel: []string{"x"}, Anchor: v},
		} {
			s := l.String()
			got, err := Parse(s)
			if err != nil || len(got) != 1 {
				t.Errorf("Parse(%q) = %d links, %v", s, len(got), err)
				continue
			}
			if again := got[0].String(); again != s {
				t.Errorf("%q is written %q, which Parse reads as a link written %q", v, s, again)
			}
		}
	}
}

func TestValidate(t *testing.T) {
	ok := []Link{
		{Target: "https://x/", Rel: []string{"next"}},
		{Target: "", Rel: []string{"self"}, Anchor: "#a"},
		{Target: "/a?q=\ue000", Rel: []string{"self"}, Anchor: "/\U0001F600#\u00e9"}, // iprivate in the query; emoji; non-ASCII fragment
		{Target: "/id", Rel: []string{"openid2.local_id"}},
		{Target: "http://ex.com/ü", Rel: []string{"http://example.com/rels/x", "dns-prefetch", "nxt"}, Hreflang: []string{"en-GB", "cn"},
			Type: "text/html; charset=utf-8", Title: "Ünïcode", TitleLang: "de", Params: []Param{{Name: "crossorigin"}, {Name: "as", Value: "font"}}},
	}
	for _, l := range ok {
		if err := l.Validate(); err != nil {
			t.Errorf("Validate(%s) = %v, want nil", l.String(), err)
		}
	}
	bad := []struct {
		l    Link
		want []string // the problems, in order, without the "weblink: invalid link: " of each
	}{
		{Link{Target: "a"}, []string{"rel is missing: a link needs at least one relation type (RFC 8288 §3.3)"}},
		{Link{Target: "a", Rel: []string{""}}, []string{"rel is missing: a link needs at least one relation type (RFC 8288 §3.3)", `rel "" is neither a lower-case registered relation type name nor an absolute URI (RFC 8288 §2.1)`}},
		{Link{Target: "a", Rel: []string{"Next"}}, []string{`rel "Next" is neither a lower-case registered relation type name nor an absolute URI (RFC 8288 §2.1)`}},
		{Link{Target: "a", Rel: []string{"next page"}}, []string{`rel "next page" is neither a lower-case registered relation type name nor an absolute URI (RFC 8288 §2.1)`}},
		{Link{Target: "a", Rel: []string{"next"}, Rev: []string{"x y"}}, []string{`rev "x y" is neither a lower-case registered relation type name nor an absolute URI (RFC 8288 §2.1)`}},
		{Link{Target: "a", Rel: []string{"n\u00ebxt"}}, []string{`rel "nëxt" is neither a lower-case registered relation type name nor an absolute URI (RFC 8288 §2.1)`}},
		{Link{Target: "a b", Rel: []string{"x"}}, []string{`target "a b" is not a URI-reference or IRI: byte 1 must be percent-encoded`}},
		{Link{Target: "a", Anchor: "%zz", Rel: []string{"x"}}, []string{`anchor "%zz" is not a URI-reference or IRI: byte 0 must be percent-encoded`}},
		{Link{Target: "http://[::1", Rel: []string{"x"}}, []string{`target "http://[::1" is not a URI-reference: parse "http://[::1": missing ']' in host`}},
		{Link{Target: "a\xff", Rel: []string{"x"}}, []string{`target "a\xff" is not a URI-reference or IRI: byte 1 must be percent-encoded`}},
		{Link{Target: "/\ue000", Rel: []string{"x"}}, []string{`target "/\ue000" is not a URI-reference or IRI: byte 1 must be percent-encoded`}},         // private use outside the query
		{Link{Target: "/\ufffe", Rel: []string{"x"}}, []string{`target "/\ufffe" is not a URI-reference or IRI: byte 1 must be percent-encoded`}},         // not a character
		{Link{Target: "/a\u202eb", Rel: []string{"x"}}, []string{`target "/a\u202eb" is not a URI-reference or IRI: byte 2 must be percent-encoded`}},     // bidi override (RFC 3987 §4.1)
		{Link{Target: "/\U000E0001", Rel: []string{"x"}}, []string{`target "/\U000e0001" is not a URI-reference or IRI: byte 1 must be percent-encoded`}}, // a tag character, not ucschar
		{Link{Target: "a", Rel: []string{"x"}, Hreflang: []string{"en_US", "1a"}}, []string{`hreflang "en_US" is not a well-formed language tag (RFC 5646)`, `hreflang "1a" is not a well-formed language tag (RFC 5646)`}},
		{Link{Target: "a", Rel: []string{"x"}, Type: "html"}, []string{`type "html" is not a media type type/subtype (RFC 6838)`}},
		{Link{Target: "a", Rel: []string{"x"}, Type: "text/html\r\n"}, []string{`type "text/html\r\n" is not a media type type/subtype (RFC 6838)`}},
		{Link{Target: "a", Rel: []string{"x"}, Type: "text/html; a=\"\u00fc\""}, []string{`type "text/html; a=\"ü\"" is not a media type type/subtype (RFC 6838)`}},
		{Link{Target: "a", Rel: []string{"OPENID2.LOCAL_ID"}}, []string{`rel "OPENID2.LOCAL_ID" is neither a lower-case registered relation type name nor an absolute URI (RFC 8288 §2.1)`}},
		{Link{Target: "a", Rel: []string{"x"}, Media: "scr\u00e9en"}, []string{`media "scréen" holds non-ASCII or control characters`}},
		{Link{Target: "a", Rel: []string{"x"}, Title: "a\r\nb"}, []string{`title "a\r\nb" holds control characters`}},
		{Link{Target: "a", Rel: []string{"x"}, Title: "a\xff"}, []string{`title "a\xff" is not valid UTF-8`}},
		{Link{Target: "a", Rel: []string{"x"}, Title: "t", TitleLang: "en_US"}, []string{`title language "en_US" is not a well-formed language tag (RFC 5646)`}},
		{Link{Target: "a", Rel: []string{"x"}, Params: []Param{{Name: "rel"}, {Name: "a b"}, {Name: "x*"}, {Name: "ok", Value: "\x00"}, {Name: "l", Lang: "1a"}}},
			[]string{
				`param "rel" is not a token without "*", or is an attribute Link has a field for`,
				`param "a b" is not a token without "*", or is an attribute Link has a field for`,
				`param "x*" is not a token without "*", or is an attribute Link has a field for`,
				`param ok "\x00" holds control characters`,
				`param l language "1a" is not a well-formed language tag (RFC 5646)`}},
	}
	for _, tt := range bad {
		err := tt.l.Validate()
		if err == nil {
			t.Errorf("Validate(%#v) = nil, want problems %q", tt.l, tt.want)
			continue
		}
		if !errors.Is(err, ErrInvalidLink) {
			t.Errorf("Validate error %v does not match ErrInvalidLink", err)
		}
		msgs := strings.Split(err.Error(), "\n")
		if len(msgs) != len(tt.want) {
			t.Errorf("Validate(%#v) reported %d problems, want %d:\n%v", tt.l, len(msgs), len(tt.want), err)
			continue
		}
		for i, w := range tt.want {
			if w = "weblink: invalid link: " + w; msgs[i] != w {
				t.Errorf("problem %d =\n%q, want\n%q", i, msgs[i], w)
			}
		}
	}
}
