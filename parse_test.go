package weblink

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/weblinking/weblink/internal/benchdata"
	"github.com/weblinking/weblink/internal/memtest"
)

// parseTest is one case of TestParse: a field value, the links Parse must
// return, and the offsets of the problems it must report, in order (nil
// means the error must be nil).
type parseTest struct {
	name  string
	in    string
	want  Links
	errAt []int
}

// parseTests has cases for every parsing rule of the package documentation
// (rules 1 to 10), named after it.
var parseTests = []parseTest{
	// Rule 1: a comma-separated list; commas inside quoted-strings and <...>
	// do not separate; the comma is consumed; empty elements are skipped.
	{name: "rule1/two links", in: `<a>; rel=next, <b>; rel=prev`,
		want: Links{{Target: "a", Rel: []string{"next"}}, {Target: "b", Rel: []string{"prev"}}}},
	{name: "rule1/no space after comma", in: `<a>; rel="next",<b>; rel="prev"`,
		want: Links{{Target: "a", Rel: []string{"next"}}, {Target: "b", Rel: []string{"prev"}}}},
	{name: "rule1/comma in target", in: `<http://x/a,b>; rel=next, <c>`,
		want: Links{{Target: "http://x/a,b", Rel: []string{"next"}}, {Target: "c"}}},
	{name: "rule1/comma and semicolon in quoted title", in: `<a>; title="x, y; z", <b>`,
		want: Links{{Target: "a", Title: "x, y; z"}, {Target: "b"}}},
	{name: "rule1/empty elements", in: ` , ,<a>,, ,<b>, `,
		want: Links{{Target: "a"}, {Target: "b"}}},
	{name: "rule1/only commas", in: `,,,`, want: nil},
	{name: "rule1/empty", in: ``, want: nil},
	{name: "rule1/whitespace", in: " \t ", want: nil},

	// Rule 2: OWS "<" target ">"; whitespace inside the brackets removed.
	{name: "rule2/leading OWS", in: "  \t<a>", want: Links{{Target: "a"}}},
	{name: "rule2/space inside brackets", in: "< http://x/ >; rel=next",
		want: Links{{Target: "http://x/", Rel: []string{"next"}}}},
	{name: "rule2/empty target", in: "<>; rel=self", want: Links{{Target: "", Rel: []string{"self"}}}},
	{name: "rule2/semicolon and quote in target", in: `<a;b"c>; rel=x`,
		want: Links{{Target: `a;b"c`, Rel: []string{"x"}}}},

	// Rule 3: parameters.
	{name: "rule3/names lower-cased", in: `<a>; REL=next; TiTle="T"; X-Foo=bar`,
		want: Links{{Target: "a", Rel: []string{"next"}, Title: "T", Params: []Param{{Name: "x-foo", Value: "bar"}}}}},
	{name: "rule3/BWS around =", in: `<a>; rel = "next" ; foo =  bar `,
		want: Links{{Target: "a", Rel: []string{"next"}, Params: []Param{{Name: "foo", Value: "bar"}}}}},
	{name: "rule3/quoted-string escapes", in: `<a>; title="say \"hi\" \\ \x"`,
		want: Links{{Target: "a", Title: `say "hi" \ x`}}},
	{name: "rule3/unquoted value up to ; or ,", in: `<a>; type=text/html; media=screen and (min-width: 1px), <b>`,
		want: Links{{Target: "a", Type: "text/html", Media: "screen and (min-width: 1px)"}, {Target: "b"}}},
	{name: "rule3/quote and < in unquoted value are ordinary", in: `<a>; foo=a"b<c; bar=x`,
		want: Links{{Target: "a", Params: []Param{{Name: "foo", Value: `a"b<c`}, {Name: "bar", Value: "x"}}}}},
	{name: "rule3/valueless parameter", in: `<a>; rel=preload; crossorigin; as=font`,
		want: Links{{Target: "a", Rel: []string{"preload"}, Params: []Param{{Name: "crossorigin"}, {Name: "as", Value: "font"}}}}},
	{name: "rule3/empty value after =", in: `<a>; foo=; bar=""`,
		want: Links{{Target: "a", Params: []Param{{Name: "foo"}, {Name: "bar"}}}}},
	{name: "rule3/empty parameters skipped", in: `<a>;; ;rel=next;;`,
		want: Links{{Target: "a", Rel: []string{"next"}}}},
	{name: "rule3/no space before semicolon", in: `<a>;rel=next;title=x`,
		want: Links{{Target: "a", Rel: []string{"next"}, Title: "x"}}},

	// Rule 4: first occurrence of rel, anchor, rev, media, title, title*,
	// type counts; hreflang and extensions keep all.
	{name: "rule4/first wins", in: `<a>; rel=one; rel=two; anchor="#x"; anchor="#y"; rev=r1; rev=r2; media=m1; media=m2; title=t1; title=t2; type=t/1; type=t/2`,
		want: Links{{Target: "a", Rel: []string{"one"}, Anchor: "#x", Rev: []string{"r1"}, Media: "m1", Title: "t1", Type: "t/1"}}},
	{name: "rule4/hreflang and extensions repeat", in: `<a>; hreflang=en; foo=1; hreflang=de; foo=2`,
		want: Links{{Target: "a", Hreflang: []string{"en", "de"}, Params: []Param{{Name: "foo", Value: "1"}, {Name: "foo", Value: "2"}}}}},
	{name: "rule4/first title* wins", in: `<a>; title*=UTF-8''one; title*=UTF-8''two`,
		want: Links{{Target: "a", Title: "one"}}},

	// Rule 5: relation types split on whitespace, lower-cased.
	{name: "rule5/several types", in: `<a>; rel="start  INDEX	Next"`,
		want: Links{{Target: "a", Rel: []string{"start", "index", "next"}}}},
	{name: "rule5/extension type lower-cased", in: `<a>; rel="http://Example.com/Rel"`,
		want: Links{{Target: "a", Rel: []string{"http://example.com/rel"}}}},
	{name: "rule5/empty rel", in: `<a>; rel="  "`, want: Links{{Target: "a"}}},
	{name: "rule5/rev split too", in: `<a>; rev="Made  Author"`,
		want: Links{{Target: "a", Rev: []string{"made", "author"}}}},

	// Rule 6: title* decoded, replaces title whatever the order.
	{name: "rule6/title* replaces title", in: `<a>; title="plain"; title*=UTF-8'de'n%c3%a4chstes`,
		want: Links{{Target: "a", Title: "nächstes", TitleLang: "de"}}},
	{name: "rule6/title* before title", in: `<a>; title*=UTF-8'en'star; title="plain"`,
		want: Links{{Target: "a", Title: "star", TitleLang: "en"}}},
	{name: "rule6/quoted title*", in: `<a>; title*="UTF-8''%E2%82%AC"`,
		want: Links{{Target: "a", Title: "€"}}},
	{name: "rule6/ISO-8859-1 title*", in: `<a>; title*=iso-8859-1'en'%A3%20rates`,
		want: Links{{Target: "a", Title: "£ rates", TitleLang: "en"}}},
	{name: "rule6/bad title* falls back", in: `<a>; title="plain"; title*=UTF-8''%ZZ`,
		want: Links{{Target: "a", Title: "plain"}}, errAt: []int{34}},
	{name: "rule6/unknown charset falls back", in: `<a>; title=plain; title*=x-klingon''abc`,
		want: Links{{Target: "a", Title: "plain"}}, errAt: []int{25}},

	// Rule 7: name* replaces every plain name, at its own position.
	{name: "rule7/name* replaces name", in: `<a>; foo=plain; bar=1; foo*=UTF-8'fr'%C3%A9t%C3%A9; foo=again`,
		want: Links{{Target: "a", Params: []Param{{Name: "bar", Value: "1"}, {Name: "foo", Value: "été", Lang: "fr"}}}}},
	{name: "rule7/every name* kept", in: `<a>; foo*=UTF-8''x; foo*=UTF-8''y`,
		want: Links{{Target: "a", Params: []Param{{Name: "foo", Value: "x"}, {Name: "foo", Value: "y"}}}}},
	{name: "rule7/bad name* dropped, name stays", in: `<a>; foo=plain; foo*=nope`,
		want: Links{{Target: "a", Params: []Param{{Name: "foo", Value: "plain"}}}}, errAt: []int{25}},
	{name: "rule7/unsupported star forms ignored", in: `<a>; rel*=UTF-8''x; rel=next; anchor*=UTF-8''y; rev*=a; hreflang*=b; media*=c; type*=d`,
		want: Links{{Target: "a", Rel: []string{"next"}}}},
	{name: "rule7/upper-case star name", in: `<a>; FOO*=UTF-8''x`,
		want: Links{{Target: "a", Params: []Param{{Name: "foo", Value: "x"}}}}},
	{name: "rule7/lone star name", in: `<a>; *=x; rel=next`,
		want: Links{{Target: "a", Rel: []string{"next"}}}, errAt: []int{7}},

	// Rule 8: a malformed link-value is dropped whole; parsing resumes at
	// the next comma outside quotes and brackets.
	{name: "rule8/not starting with <", in: `junk, <a>; rel=next`,
		want: Links{{Target: "a", Rel: []string{"next"}}}, errAt: []int{0}},
	{name: "rule8/bare URI", in: `<a>, http://x/; rel=next, <b>`,
		want: Links{{Target: "a"}, {Target: "b"}}, errAt: []int{5}},
	{name: "rule8/unclosed <", in: `<a>; rel=next, <http://x/; rel=last`,
		want: Links{{Target: "a", Rel: []string{"next"}}}, errAt: []int{15}},
	{name: "rule8/cut short in a quoted-string", in: `<a>; rel=next, <b>; rel="la`,
		want: Links{{Target: "a", Rel: []string{"next"}}}, errAt: []int{24}},
	{name: "rule8/junk after >", in: `<a> x; rel=next, <b>`,
		want: Links{{Target: "b"}}, errAt: []int{4}},
	{name: "rule8/junk after quoted value", in: `<a>; title="t"x; rel=next, <b>`,
		want: Links{{Target: "b"}}, errAt: []int{14}},
	{name: "rule8/junk after valueless name", in: `<a>; foo bar, <b>`,
		want: Links{{Target: "b"}}, errAt: []int{9}},
	{name: "rule8/name not a token", in: `<a>; "x"=y, <b>`,
		want: Links{{Target: "b"}}, errAt: []int{5}},
	{name: "rule8/skip respects quotes", in: `<a> x; title="p, q", <b>`,
		want: Links{{Target: "b"}}, errAt: []int{4}},
	{name: "rule8/skip respects brackets", in: `bad <x,y>, <b>`,
		want: Links{{Target: "b"}}, errAt: []int{0}},
	{name: "rule8/title smuggling a link stays a title", in: `<a>; title="x\", <evil>; rel=\"next"; rel=self`,
		want: Links{{Target: "a", Rel: []string{"self"}, Title: `x", <evil>; rel="next`}}},
	{name: "rule8/several problems", in: `x, <a>, y, <b>`,
		want: Links{{Target: "a"}, {Target: "b"}}, errAt: []int{0, 8}},
	// A "<" inside the target: its ">" is missing (issue #37 item 1).
	{name: "rule8/missing > before a comma", in: `<http://x/a>; rel="alternate", <http://x/b; rel="next", </c>; rel=prev`,
		want: Links{{Target: "http://x/a", Rel: []string{"alternate"}}, {Target: "/c", Rel: []string{"prev"}}}, errAt: []int{54}},
	{name: "rule8/missing > before a comma, no space", in: `<a; rel=next,</c>`,
		want: Links{{Target: "/c"}}, errAt: []int{12}},
	{name: "rule8/no > left: never closed", in: `<a>; rel=prev, <b; rel=next, <c`,
		want: Links{{Target: "a", Rel: []string{"prev"}}}, errAt: []int{15}},
	{name: "rule8/< inside the target", in: `<a<b>; rel=next, <c>`,
		want: Links{{Target: "c"}}, errAt: []int{2}},
	{name: "rule8/< after a comma inside the target", in: `<a,b<c>; rel=next, <d>`,
		want: Links{{Target: "d"}}, errAt: []int{4}},
	{name: "rule8/the last < counts", in: `<a <b, <c>; rel=next`,
		want: Links{{Target: "c", Rel: []string{"next"}}}, errAt: []int{5}},
	{name: "rule8/< in a quoted-string is not in the target", in: `<a>; title="<b", <c>`,
		want: Links{{Target: "a", Title: "<b"}, {Target: "c"}}},
	{name: "rule8/< in an unquoted value is not in the target", in: `<a>; x=<b, <c>`,
		want: Links{{Target: "a", Params: []Param{{Name: "x", Value: "<b"}}}, {Target: "c"}}},

	{name: "rule9/problems in input order", in: `<a>; title*=bad; foo*=bad`,
		want: Links{{Target: "a"}}, errAt: []int{15, 25}},
	{name: "rule4/failed first title* still counts", in: `<a>; title=t; title*=bad; title*=UTF-8''ok`,
		want: Links{{Target: "a", Title: "t"}}, errAt: []int{24}},

	// Rule 9: lenient readings that lose nothing are not errors.
	{name: "rule9/unquoted type", in: `<a>; type=text/html; rel=alternate`,
		want: Links{{Target: "a", Type: "text/html", Rel: []string{"alternate"}}}},

	// RFC 8288 §3.5 examples.
	{name: "rfc8288-3.5/1", in: `<http://example.com/TheBook/chapter2>; rel="previous"; title="previous chapter"`,
		want: Links{{Target: "http://example.com/TheBook/chapter2", Rel: []string{"previous"}, Title: "previous chapter"}}},
	{name: "rfc8288-3.5/2", in: `</>; rel="http://example.net/foo"`,
		want: Links{{Target: "/", Rel: []string{"http://example.net/foo"}}}},
	{name: "rfc8288-3.5/3", in: `</terms>; rel="copyright"; anchor="#foo"`,
		want: Links{{Target: "/terms", Rel: []string{"copyright"}, Anchor: "#foo"}}},
	{name: "rfc8288-3.5/4", in: `</TheBook/chapter2>; rel="previous"; title*=UTF-8'de'letztes%20Kapitel, </TheBook/chapter4>; rel="next"; title*=UTF-8'de'n%c3%a4chstes%20Kapitel`,
		want: Links{
			{Target: "/TheBook/chapter2", Rel: []string{"previous"}, Title: "letztes Kapitel", TitleLang: "de"},
			{Target: "/TheBook/chapter4", Rel: []string{"next"}, Title: "nächstes Kapitel", TitleLang: "de"},
		}},
	{name: "rfc8288-3.5/5", in: `<http://example.org/>; rel="start http://example.net/relation/other"`,
		want: Links{{Target: "http://example.org/", Rel: []string{"start", "http://example.net/relation/other"}}}},
}

func TestParse(t *testing.T) {
	for _, tt := range parseTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.in)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Parse(%q) links (-want +got):\n%s", tt.in, diff)
			}
			if diff := cmp.Diff(tt.errAt, errorOffsets(err), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Parse(%q) error offsets (-want +got):\n%s\nerror: %v", tt.in, diff, err)
			}
			if err != nil {
				var se *SyntaxError
				if !errors.As(err, &se) || se.Offset != tt.errAt[0] {
					t.Errorf("errors.As(%v) found %+v, want a *SyntaxError at offset %d", err, se, tt.errAt[0])
				}
				if !errors.Is(err, ErrSyntax) {
					t.Errorf("errors.Is(%v, ErrSyntax) = false", err)
				}
			}
		})
	}
}

// errorOffsets returns the offsets of every *SyntaxError in err, in order.
func errorOffsets(err error) []int {
	var out []int
	var walk func(error)
	walk = func(err error) {
		if se, ok := err.(*SyntaxError); ok {
			out = append(out, se.Offset)
			return
		}
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				walk(e)
			}
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		}
	}
	if err != nil {
		walk(err)
	}
	return out
}

func TestParseErrorsCapped(t *testing.T) {
	_, err := Parse(strings.Repeat("x,", 1000))
	if got := len(errorOffsets(err)); got != maxErrors {
		t.Errorf("%d problems listed, want %d", got, maxErrors)
	}
	if want := "984 more problems not listed"; !strings.Contains(err.Error(), want) {
		t.Errorf("error does not say %q: %.200v", want, err)
	}
	if _, err := ParseResponse(nil); err == nil {
		t.Error("ParseResponse(nil) gave no error")
	}
}

func TestParseErrorSaysWhatCameBefore(t *testing.T) {
	for in, want := range map[string]string{
		`<a>; title="t" junk`: `expected ";" or "," after a quoted-string, found "j"`,
		`<a> junk`:            `expected ";" or "," after the link target, found "j"`,
		`<a>; foo bar`:        `expected ";" or "," after a parameter, found "b"`,
	} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) error = %v, want it to say %q", in, err, want)
		}
	}
}

// TestMissingAngle checks the field value of issue #37 item 1, whose
// second link-value lacks its ">": Parse drops that link-value with a
// *SyntaxError at the comma saying so, keeps the link after it, and
// NextURL finds no next link (before: a nil error, and one prev link whose
// target was `http://x/b; rel="next", </c`). Paging reports ErrNextLink
// for such a page, as for any malformed Link header without a next link.
func TestMissingAngle(t *testing.T) {
	const in = `<http://x/a>; rel="alternate", <http://x/b; rel="next", </c>; rel=prev`
	links, err := Parse(in)
	var se *SyntaxError
	if !errors.As(err, &se) || se.Offset != strings.LastIndex(in, `", <`)+1 || !strings.Contains(se.Msg, `">" is probably missing before this ","`) {
		t.Errorf("Parse error = %v, want a *SyntaxError at offset %d saying that a \">\" is missing", err, strings.LastIndex(in, `", <`)+1)
	}
	if prev, ok := links.Rel("prev"); !ok || prev.Target != "/c" {
		t.Errorf("prev link = %+v, %t; want target /c", prev, ok)
	}
	resp := &http.Response{Header: http.Header{"Link": {in}}, Request: &http.Request{URL: &url.URL{Scheme: "http", Host: "x", Path: "/"}}}
	if u, ok := NextURL(resp); ok {
		t.Errorf("NextURL = %v, want none", u)
	}
}

func TestParseCharsetErrorIs(t *testing.T) {
	_, err := Parse(`<a>; title*=x-unknown''abc`)
	if !errors.Is(err, ErrCharset) {
		t.Errorf("Parse error %v does not match ErrCharset", err)
	}
	// The *SyntaxError is Parse's, at the offset of the value in the field,
	// and its cause is ErrCharset.
	var se *SyntaxError
	if !errors.As(err, &se) || se.Offset != 12 || se.Unwrap() != ErrCharset {
		t.Errorf("Parse error %v: want a *SyntaxError at offset 12 unwrapping to ErrCharset, got %#v", err, se)
	}
	// Other ext-value problems do not match ErrCharset.
	if _, err := Parse(`<a>; title*=UTF-8''%ZZ`); err == nil || errors.Is(err, ErrCharset) {
		t.Errorf("Parse of a bad escape: error %v, want one that does not match ErrCharset", err)
	}
}

func TestParseErrorMessage(t *testing.T) {
	_, err := Parse(`<a>; rel=next, http://x`)
	want := `weblink: syntax error at offset 15: link-value must start with "<"`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error = %v, want prefix %q", err, want)
	}
}

// TestParseSharedBacking checks that appending to one link's slices cannot
// change another link.
func TestParseSharedBacking(t *testing.T) {
	ls, err := Parse(`<a>; rel=next; hreflang=en; x=1, <b>; rel=prev; hreflang=de; y=2`)
	if err != nil {
		t.Fatal(err)
	}
	_ = append(ls[0].Rel, "mutated")
	_ = append(ls[0].Hreflang, "mutated")
	_ = append(ls[0].Params, Param{Name: "mutated"})
	want := Link{Target: "b", Rel: []string{"prev"}, Hreflang: []string{"de"}, Params: []Param{{Name: "y", Value: "2"}}}
	if diff := cmp.Diff(want, ls[1]); diff != "" {
		t.Errorf("second link changed by appending to the first (-want +got):\n%s", diff)
	}
}

func TestParseHeader(t *testing.T) {
	h := http.Header{}
	h.Add("Link", `<a>; rel=next`)
	h.Add("Link", `<b>; REL=prev, junk`)
	h.Add("Link", ``)
	h.Add("Link", `x, <c>; rel=last`)
	got, err := ParseHeader(h)
	want := Links{
		{Target: "a", Rel: []string{"next"}},
		{Target: "b", Rel: []string{"prev"}},
		{Target: "c", Rel: []string{"last"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseHeader (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{15, 0}, errorOffsets(err)); diff != "" {
		t.Errorf("offsets (-want +got):\n%s", diff)
	}
	for _, line := range []string{"Link field line 2:", "Link field line 4:"} {
		if err == nil || !strings.Contains(err.Error(), line) {
			t.Errorf("error %v does not name %q", err, line)
		}
	}
	if got, err := ParseHeader(http.Header{}); got != nil || err != nil {
		t.Errorf("ParseHeader(empty) = %v, %v; want nil, nil", got, err)
	}
}

func TestParseResponse(t *testing.T) {
	req, _ := http.NewRequest("GET", "https://api.example.com/v1/items?page=2", nil)
	resp := &http.Response{Header: http.Header{}, Request: req}
	resp.Header.Add("Link", `</v1/items?page=3>; rel="next"; anchor="../other", <?page=1>; rel=first`)
	resp.Header.Add("Link", `<http://[::1>; rel=bad, <https://cdn.example/x>; rel=preload`)
	got, err := ParseResponse(resp)
	want := Links{
		{Target: "https://api.example.com/v1/items?page=3", Rel: []string{"next"}, Anchor: "https://api.example.com/other"},
		{Target: "https://api.example.com/v1/items?page=1", Rel: []string{"first"}},
		{Target: "http://[::1", Rel: []string{"bad"}},
		{Target: "https://cdn.example/x", Rel: []string{"preload"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseResponse (-want +got):\n%s", diff)
	}
	var re *ResolveError
	if !errors.As(err, &re) || re.Ref != "http://[::1" {
		t.Errorf("ParseResponse error = %v, want a *ResolveError for http://[::1", err)
	}

	// Without a request the links come as written.
	resp.Request = nil
	got, _ = ParseResponse(resp)
	if got[0].Target != "/v1/items?page=3" {
		t.Errorf("without a request, target = %q, want it as written", got[0].Target)
	}
}

// TestParseResponseTargetURI: the base is the request's target URI (RFC 9110
// §4.2.4, §7.1), so the user information and the fragment of the request URL
// reach no link, and the request URL is not changed.
func TestParseResponseTargetURI(t *testing.T) {
	req, _ := http.NewRequest("GET", "https://alice:s3cret@api.example.com/v1/items?page=2#top", nil)
	resp := &http.Response{Header: http.Header{"Link": {`</v1/items?page=3>; rel="next", <>; rel=self, <#x>; rel=section, <https://bob:pw@cdn.example/x>; rel=preload`}}, Request: req}
	got, err := ParseResponse(resp)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"https://api.example.com/v1/items?page=3",
		"https://api.example.com/v1/items?page=2",
		"https://api.example.com/v1/items?page=2#x",
		"https://bob:pw@cdn.example/x", // as the server wrote it
	}
	for i, l := range got {
		if l.Target != want[i] {
			t.Errorf("link %d: target %q, want %q", i, l.Target, want[i])
		}
	}
	if req.URL.User == nil || req.URL.Fragment != "top" {
		t.Errorf("ParseResponse changed the request URL to %v", req.URL)
	}
}

func TestEqualFoldASCIIOnly(t *testing.T) {
	l := Link{Rel: []string{"k"}, Params: []Param{{Name: "k"}}}
	if l.HasRel("\u212a") { // KELVIN SIGN
		t.Error("HasRel folded a non-ASCII character")
	}
	if _, ok := l.Param("\u212a"); ok {
		t.Error("Param folded a non-ASCII character")
	}
	if !l.HasRel("K") {
		t.Error("HasRel(K) = false")
	}
}

// TestParseSingleRelShortCut checks that the short cut linkValue takes for
// `; rel="type"` gives what the general path gives, which it takes when the
// space after the ";" is not there.
func TestParseSingleRelShortCut(t *testing.T) {
	ins := []string{
		`<a>; rel="next"`,
		`<a>; rel="next", <b>; rel="prev"`,
		`<a>; rel="next" , <b>`,
		`<a>; rel="next" ; title="x"`,
		`<a>; rel="next"; rel="prev"`,
		`<a>; rel="Next"`,
		`<a>; rel="start index"`,
		`<a>; rel="a\"b"`,
		`<a>; rel=""`,
		`<a>; rel="https://example.org/rels/x"`,
		`<a>; rel="next`,
		`<a>; rel="next"x`,
		`<a>; rel="ne` + "\t" + `xt"`,
		"<a>; rel=\"n\xffext\"",
	}
	for _, tt := range parseTests {
		ins = append(ins, tt.in)
	}
	for _, in := range ins {
		general := strings.ReplaceAll(in, `; rel="`, `;rel="`)
		want, wantErr := Parse(general)
		got, err := Parse(in)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Parse(%q) differs from Parse(%q) (-want +got):\n%s", in, general, diff)
		}
		if (err == nil) != (wantErr == nil) {
			t.Errorf("Parse(%q) error %v, Parse(%q) error %v", in, err, general, wantErr)
		}
	}
}

// TestParserSameAsParse checks that a Parser reused over every parse test
// input gives what Parse gives, the error included.
func TestParserSameAsParse(t *testing.T) {
	var p Parser
	for range 2 {
		for _, tt := range parseTests {
			want, wantErr := Parse(tt.in)
			got, err := p.Parse(tt.in)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Parser.Parse(%q) (-Parse +Parser):\n%s", tt.in, diff)
			}
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Errorf("Parser.Parse(%q) error %v, Parse %v", tt.in, err, wantErr)
			}
			h := http.Header{"Link": {tt.in, tt.in}}
			want, wantErr = ParseHeader(h)
			got, err = p.ParseHeader(h)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Parser.ParseHeader(%q) (-ParseHeader +Parser):\n%s", tt.in, diff)
			}
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Errorf("Parser.ParseHeader(%q) error %v, ParseHeader %v", tt.in, err, wantErr)
			}
		}
	}
}

// TestParserFresh checks that a new Parser answers inputs with no link as
// Parse does: an empty, non-nil Links (the review of #16 found nil).
func TestParserFresh(t *testing.T) {
	for _, in := range []string{"", " , ", "x", "<a", "<a>"} {
		var p Parser
		want, wantErr := Parse(in)
		got, err := p.Parse(in)
		if (got == nil) != (want == nil) || cmp.Diff(want, got) != "" || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Errorf("new Parser.Parse(%q) = %#v, %v; Parse: %#v, %v", in, got, err, want, wantErr)
		}
	}
}

// TestParserLifetime checks the lifetime rule of Parser: a later call on
// another Parser, or on the same Parser after the result was cloned, leaves
// a result untouched; only the same Parser's next call overwrites it.
func TestParserLifetime(t *testing.T) {
	const a, b = `<a>; rel="next"; hreflang=en; x=1`, `<b>; rel="prev"; hreflang=de; y=2`
	var p, q Parser
	got, _ := p.Parse(a)
	want, _ := Parse(a)
	for range 3 {
		if _, err := q.Parse(b); err != nil {
			t.Fatal(err)
		}
		if _, err := q.ParseHeader(http.Header{"Link": {b, b}}); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("another Parser's calls changed the result (-want +got):\n%s", diff)
	}
	if _, err := p.Parse(b); err != nil {
		t.Fatal(err)
	}
	if got[0].Target != "b" {
		t.Errorf("the same Parser's next call left the result as %q: the test does not show reuse", got[0].Target)
	}
}

// TestParserAllocs checks that a warm Parser makes no allocation for
// GitHub's header and for an input no larger than before.
func TestParserAllocs(t *testing.T) {
	var p Parser
	for _, in := range []string{benchdata.LinkValues(20, false), benchdata.GitHub4, `<a>; rel=next; hreflang=en; x=1, <b>`} {
		if n := testing.AllocsPerRun(50, func() { _, _ = p.Parse(in) }); n != 0 {
			t.Errorf("Parser.Parse(%.40q...) made %v allocations warm, want 0", in, n)
		}
		h := http.Header{"Link": {in, in}}
		_, _ = p.ParseHeader(h)
		if n := testing.AllocsPerRun(50, func() { _, _ = p.ParseHeader(h) }); n != 0 {
			t.Errorf("Parser.ParseHeader(%.40q...) made %v allocations warm, want 0", in, n)
		}
	}
}

// hostileCases are inputs built to make a parser slow, large or crash; build
// returns an input of about n bytes and check looks at what Parse made of it.
var hostileCases = []struct {
	name  string
	build func(n int) string
	check func(t *testing.T, n int, ls Links, err error)
}{
	{"semicolons", func(n int) string { return "<a>" + strings.Repeat(";", n) },
		func(t *testing.T, n int, ls Links, err error) {
			if err != nil || len(ls) != 1 || ls[0].Target != "a" || ls[0].Params != nil {
				t.Errorf("got %d links, err %v; want one link <a> without params", len(ls), err)
			}
		}},
	{"one quoted-string", func(n int) string { return `<a>; title="` + strings.Repeat("x,", n/2) + `"` },
		func(t *testing.T, n int, ls Links, err error) {
			if err != nil || len(ls) != 1 || len(ls[0].Title) != n/2*2 {
				t.Errorf("got %d links, err %v; want one link with a %d-byte title", len(ls), err, n/2*2)
			}
		}},
	{"unclosed quoted-string", func(n int) string { return `<a>, <b>; title="` + strings.Repeat("x,<", n/3) },
		func(t *testing.T, n int, ls Links, err error) {
			if err == nil || len(ls) != 1 || ls[0].Target != "a" {
				t.Errorf("got %d links, err %v; want <a> only and an error", len(ls), err)
			}
		}},
	// n/10 link-values: more than 100 000 at the large size.
	{"link-values", func(n int) string { return strings.Repeat(`<a>; rel=next,`, n/10) },
		func(t *testing.T, n int, ls Links, err error) {
			if err != nil || len(ls) != n/10 || ls[len(ls)-1].Rel[0] != "next" {
				t.Errorf("got %d links, err %v; want %d", len(ls), err, n/10)
			}
		}},
	{"backslash escapes", func(n int) string { return `<a>; title="` + strings.Repeat(`\\`, n/2) + `"` },
		func(t *testing.T, n int, ls Links, err error) {
			if err != nil || len(ls) != 1 || ls[0].Title != strings.Repeat(`\`, n/2) {
				t.Errorf("got %d links, err %v; want one title of %d backslashes", len(ls), err, n/2)
			}
		}},
	{"malformed link-values", func(n int) string { return strings.Repeat(`x,`, n/2) },
		func(t *testing.T, n int, ls Links, err error) {
			if err == nil || len(ls) != 0 {
				t.Errorf("got %d links, err %v; want none and an error", len(ls), err)
			}
		}},
	{"open brackets", func(n int) string { return strings.Repeat(`<`, n) },
		func(t *testing.T, n int, ls Links, err error) {
			if err == nil || len(ls) != 0 {
				t.Errorf("got %d links, err %v; want none and an error", len(ls), err)
			}
		}},
	{"relation types", func(n int) string { return `<a>; rel="` + strings.Repeat("a ", n/2) + `"` },
		func(t *testing.T, n int, ls Links, err error) {
			if err != nil || len(ls) != 1 || len(ls[0].Rel) != n/2 {
				t.Errorf("got %d links, err %v; want one link with %d relation types", len(ls), err, n/2)
			}
		}},
	{"star parameters", func(n int) string {
		return "<a>" + strings.Repeat("; x=1; x*=UTF-8''y", n/36) + strings.Repeat("; x*=bad", n/16)
	},
		func(t *testing.T, n int, ls Links, err error) {
			if err == nil || len(ls) != 1 || len(ls[0].Params) != n/36 {
				t.Errorf("got %d links, err %v; want one link with %d params", len(ls), err, n/36)
			}
		}},
}

// TestHostileInput parses each hostile input at 256 KB and at 1 MB: Parse
// must not panic, must give the expected result, and must allocate in
// proportion to the input (the bytes allocated for 4x the input may be at
// most 6x, leaving room for slice growth).
func TestHostileInput(t *testing.T) {
	const small, large = 256 << 10, 1 << 20
	for _, tc := range hostileCases {
		t.Run(tc.name, func(t *testing.T) {
			var allocated [2]uint64
			for i, n := range []int{small, large} {
				in := tc.build(n)
				var ls Links
				var err error
				allocated[i] = memtest.Allocated(func() { ls, err = Parse(in) })
				tc.check(t, n, ls, err)
			}
			if ratio := float64(allocated[1]) / float64(max(allocated[0], 1)); ratio > 6 && allocated[1] > 1<<16 {
				t.Errorf("allocated %d bytes for %d bytes of input and %d for %d: ratio %.1f is not linear",
					allocated[0], small, allocated[1], large, ratio)
			}
			if perByte := float64(allocated[1]) / large; perByte > 160 {
				t.Errorf("allocated %.0f bytes per input byte", perByte)
			}
		})
	}
}

// TestErrorSizeBounded checks that a long hostile value does not make the
// error message long.
func TestErrorSizeBounded(t *testing.T) {
	_, err := Parse(strings.Repeat("x", 1<<20))
	if err == nil || len(err.Error()) > 300 {
		t.Errorf("error of %d bytes: %.300v", len(err.Error()), err)
	}
}

// maxParseBytesPerByte bounds what Parse and ParseHeader allocate per input
// byte for any input: a Link is 192 bytes and the shortest link-value, "<>,",
// is 3.
const maxParseBytesPerByte = 80

// TestParseMemoryBound checks that Parse of one field value and ParseHeader
// of 1000 field lines allocate at most maxParseBytesPerByte bytes per input
// byte for every memory shape at 4 MiB (issue #11 item 6).
func TestParseMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("4 MiB inputs")
	}
	const n = 4 << 20
	for _, tc := range memtest.Shapes {
		t.Run(tc.Name, func(t *testing.T) {
			in := tc.Build(n)
			perByte := float64(memtest.Allocated(func() { _, _ = Parse(in) })) / float64(len(in))
			t.Logf("Parse: %.1f B/B", perByte)
			if perByte > maxParseBytesPerByte {
				t.Errorf("Parse allocated %.1f bytes per input byte, want at most %d", perByte, maxParseBytesPerByte)
			}
			line := tc.Build(n / 1000)
			lines := make([]string, 1000)
			for i := range lines {
				lines[i] = line
			}
			h := http.Header{"Link": lines}
			perByte = float64(memtest.Allocated(func() { _, _ = ParseHeader(h) })) / float64(1000*len(line))
			t.Logf("ParseHeader: %.1f B/B", perByte)
			if perByte > maxParseBytesPerByte {
				t.Errorf("ParseHeader allocated %.1f bytes per input byte, want at most %d", perByte, maxParseBytesPerByte)
			}
		})
	}
}

// repeatLine returns k copies of line, then last unless it is empty.
func repeatLine(line string, k int, last string) []string {
	lines := make([]string, k, k+1)
	for i := range lines {
		lines[i] = line
	}
	if last != "" {
		lines = append(lines, last)
	}
	return lines
}

// TestParseTimeLinear checks, with wide slack, that parsing 4 times the
// input takes at most 6 times as long for every memory shape: the best of
// three runs at 1 MiB and at 4 MiB, taken in turn after a garbage
// collection and with the collector off, in processor time (memtest.CPUTime), and
// measured again up to three times before the test fails,
// as the machine may be busy with other work.
func TestParseTimeLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	for _, tc := range memtest.Shapes {
		t.Run(tc.Name, func(t *testing.T) {
			for _, f := range linearFuncs {
				checkLinear(t, f.name, tc.Build(1<<20), tc.Build(4<<20), f.run)
			}
		})
	}
}

// checkLinear fails t when run(large), on 4 times the input of run(small),
// takes more than 6 times as long in three measurements in a row
// (memtest.Linear).
func checkLinear(t *testing.T, name, small, large string, run func(string)) {
	t.Helper()
	if ok, ds, dl := memtest.Linear(func() { run(small) }, func() { run(large) }, 6); !ok {
		t.Errorf("%s: %v for %d bytes, %v for %d: ratio %.1f", name, ds, len(small), dl, len(large), float64(dl)/float64(ds))
	}
}

// TestParseTitleStarAllocs checks that the decoded title* and name* values
// of one parse share one allocation (rule 10): Parse of 100 link-values,
// each with a title* of three escapes and a name*, makes at most 8
// allocations (104 before, one per decoded value), ParseHeader of two
// such lines as few, and a warm Parser one, the text of the call.
func TestParseTitleStarAllocs(t *testing.T) {
	in := benchdata.LinkValues(100, true)
	if n := testing.AllocsPerRun(20, func() { _, _ = Parse(in) }); n > 8 {
		t.Errorf("Parse of 100 title* made %v allocations, want at most 8", n)
	}
	withStar := strings.ReplaceAll(in, "x-priority=", "x-note*=UTF-8''%C3%A9; x-priority=")
	if n := testing.AllocsPerRun(20, func() { _, _ = Parse(withStar) }); n > 8 {
		t.Errorf("Parse of 100 title* and name* made %v allocations, want at most 8", n)
	}
	h := http.Header{"Link": {in, withStar}}
	// Under the race detector ParseHeader's sizing escapes once more (9).
	if n, most := testing.AllocsPerRun(20, func() { _, _ = ParseHeader(h) }), map[bool]float64{false: 8, true: 10}[raceEnabled]; n > most {
		t.Errorf("ParseHeader of 200 title* made %v allocations, want at most %v", n, most)
	}
	var p Parser
	_, _ = p.Parse(withStar)
	if n := testing.AllocsPerRun(20, func() { _, _ = p.Parse(withStar) }); n > 1 {
		t.Errorf("a warm Parser made %v allocations for 100 title* and name*, want at most 1", n)
	}
	links, err := Parse(withStar)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range links {
		if want := fmt.Sprintf("Chapter %d, in which things happen", i); l.Title != want || l.TitleLang != "en" {
			t.Fatalf("link %d: title %q (%s), want %q (en)", i, l.Title, l.TitleLang, want)
		}
		if note, ok := l.Param("x-note"); !ok || note.Value != "é" {
			t.Fatalf("link %d: x-note %+v, want é", i, note)
		}
	}
}

// TestParserTextKept checks that the decoded values of a Parser's result
// stay as they are through its later calls, which write their own decoded
// values: the Parser overwrites its Links and their slices, never strings.
func TestParserTextKept(t *testing.T) {
	var p Parser
	first, err := p.Parse(`<a>; title*=UTF-8'en'one%20%C3%A9; x*=UTF-8''%41, <b>; title*=UTF-8''two%21`)
	if err != nil {
		t.Fatal(err)
	}
	titles := []string{first[0].Title, first[0].Params[0].Value, first[1].Title}
	for range 3 {
		if _, err := p.Parse(`<c>; title*=UTF-8''XXXXXXX%58XX; x*=UTF-8''%5A%5A%5A%5A, <d>; title*=UTF-8''%59`); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{"one é", "A", "two!"}; !slices.Equal(titles, want) {
		t.Errorf("decoded values became %q after later calls, want %q", titles, want)
	}
}

// TestParseSmallFieldBytes checks that Parse of a field of one to four
// link-values with one relation type each, the usual Link field, makes one
// allocation of the Go size class that holds its links and one string a
// link: 224, 416, 640 and 896 bytes. Four links with room for two strings
// each took the 1024-byte class, which measured a third slower
// (bench/README.md).
func TestParseSmallFieldBytes(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector adds allocations")
	}
	want := []uint64{224, 416, 640, 896}
	for n := 1; n <= 4; n++ {
		in := strings.Join(strings.SplitAfterN(benchdata.GitHub4, `", `, 4)[:n], "")
		in = strings.TrimSuffix(in, ", ")
		if ls, err := Parse(in); err != nil || len(ls) != n {
			t.Fatalf("Parse(%q) = %d links, %v; want %d", in, len(ls), err, n)
		}
		const runs = 100
		if a := testing.AllocsPerRun(runs, func() { _, _ = Parse(in) }); a != 1 {
			t.Errorf("%d links: %v allocations, want 1", n, a)
		}
		got := memtest.Allocated(func() {
			for range runs {
				_, _ = Parse(in)
			}
		}) / runs
		if got > want[n-1] {
			t.Errorf("%d links: %d bytes a Parse, want at most %d", n, got, want[n-1])
		}
	}
}

// sameAsSearching checks that ParseHeader of lines gives the same links and
// errors whether parse's first pass counts the "<" of each field line
// (what Parse does) or searches every target for one (alwaysSearch): the
// count may only save the search, never change the result (rule 8).
func sameAsSearching(t *testing.T, lines []string) {
	t.Helper()
	parseWith := func(alwaysSearch bool) (Links, string) {
		p := parser{alwaysSearch: alwaysSearch}
		ls, err := p.parseHeader(http.Header{"Link": lines})
		if err != nil {
			return ls, err.Error()
		}
		return ls, ""
	}
	want, wantErr := parseWith(true)
	got, gotErr := parseWith(false)
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" || gotErr != wantErr {
		t.Errorf("lines %q: counting the \"<\" gives what searching does not (-searching +counting):\n%s\nerrors:\n%s\n%s", lines, diff, wantErr, gotErr)
	}
}

// TestParseOpensCounted checks that parse gives the same result whether it
// counts the "<" that open link-values or searches every target for one
// (rule 8), on field values whose "<" open link-values, are inside a
// target (the link-value is malformed), a quoted-string, a dropped
// element or an ext-value, and on several lines, one of which needs the
// search; and that a Parser reused after such a field value gives the
// links of the next one.
func TestParseOpensCounted(t *testing.T) {
	tests := [][]string{
		{benchdata.GitHub4},
		{`<http://x/a>; rel="alternate", <http://x/b; rel="next", </c>; rel=prev`},
		{`<a<b>; rel=next, <?page=3>; rel=next`},
		{`<a>; title="x<y", <b>; rel=next`},
		{`<a>; title*=UTF-8''%3C%C3%A7, <b<c>; title*=UTF-8''%C3%A7; rel=next, <d>`},
		{`junk <x>, <a>; rel=next`},
		{`<a>; rel=next; x=<y>, <b>`},
		{`<<>`, `<<<>>>`, `<>`},
		{`<a>; rel=first`, `<b; rel=next, <c>; rel=last`, `<d>; title="<"`},
		{`<a>; rel="next" junk, <b>, <c`},
		{strings.Repeat(`<a>; x="<", `, 40) + `<b>; rel=next`},
	}
	for _, lines := range tests {
		sameAsSearching(t, lines)
	}
	var p Parser
	if _, err := p.Parse(`<a; rel=next, <b>; rel=last`); err == nil {
		t.Fatal("a target holding a \"<\" parsed without an error")
	}
	got, err := p.Parse(benchdata.GitHub4)
	if err != nil || len(got) != 4 || got[1].Target != benchdata.GitHub4Next {
		t.Errorf("reused Parser: %d links, %v, want GitHub4's 4", len(got), err)
	}
}
