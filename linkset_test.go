package weblink

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// readLinksetFile returns the contents of testdata/linkset/name.
func readLinksetFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "linkset", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// jsonDiff decodes two JSON documents and returns their differences, ""
// when they hold the same values: JSON compared semantically.
func jsonDiff(t *testing.T, got, want []byte) string {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("expected value is not JSON: %v\n%s", err, want)
	}
	return cmp.Diff(w, g)
}

// unmarshalLinks decodes an application/linkset+json document.
func unmarshalLinks(t testing.TB, doc []byte) Links {
	t.Helper()
	var ls Links
	if err := ls.UnmarshalJSON(doc); err != nil {
		t.Fatalf("UnmarshalJSON: %v\n%s", err, doc)
	}
	return ls
}

// marshalLinks encodes ls as an application/linkset+json document.
func marshalLinks(t testing.TB, ls Links) []byte {
	t.Helper()
	b, err := ls.MarshalJSON()
	if err != nil {
		t.Fatalf("MarshalJSON: %v", err)
	}
	if !json.Valid(b) {
		t.Fatalf("MarshalJSON wrote invalid JSON:\n%s", b)
	}
	return b
}

// validText replaces each byte of s that is not part of valid UTF-8 with
// U+FFFD, as encoding/json does when it writes a string.
func validText(s string) string { return string([]rune(s)) }

// jsonEquivalent returns what UnmarshalJSON gives back for the JSON that
// MarshalJSON writes for ls, by the rules of the UnmarshalJSON
// documentation: one Link per distinct relation type, grouped by Anchor and
// then relation type in order of first appearance, no Rev, Target and Anchor
// as URI references, names lower-cased, Params grouped by name, text made
// valid UTF-8.
func jsonEquivalent(ls Links) Links {
	var out Links
	for _, l := range ls {
		var rels []string
		for _, r := range l.Rel {
			if r != "" && !slices.Contains(rels, lower(r)) {
				rels = append(rels, lower(r))
			}
		}
		for _, r := range rels {
			e := Link{
				Target:    string(appendURI(nil, l.Target)),
				Rel:       []string{validText(r)},
				Anchor:    string(appendURI(nil, l.Anchor)),
				Media:     validText(l.Media),
				Title:     validText(l.Title),
				TitleLang: l.TitleLang,
				Type:      validText(l.Type),
			}
			for _, h := range l.Hreflang {
				e.Hreflang = append(e.Hreflang, validText(h))
			}
			for _, p := range l.Params {
				e.Params = append(e.Params, Param{Name: lower(p.Name), Value: validText(p.Value), Lang: p.Lang})
			}
			e.Params = stableGroup(e.Params, func(p Param) string { return p.Name })
			out = append(out, e)
		}
	}
	// Contexts in order of first appearance, then relation types in order
	// of first appearance within a context.
	out = stableGroup(out, func(l Link) string { return l.Anchor + " " + l.Rel[0] })
	return stableGroup(out, func(l Link) string { return l.Anchor })
}

// stableGroup returns xs stably sorted so that the elements with the same
// key are together, keys in order of first appearance.
func stableGroup[T any](xs []T, key func(T) string) []T {
	rank := make(map[string]int)
	for _, x := range xs {
		if _, ok := rank[key(x)]; !ok {
			rank[key(x)] = len(rank)
		}
	}
	slices.SortStableFunc(xs, func(a, b T) int { return rank[key(a)] - rank[key(b)] })
	return xs
}

func TestLinksetFigures(t *testing.T) {
	const (
		bar = "https://example.net/bar"
		foo = "https://example.com/foo"
	)
	tests := []struct {
		file string
		want Links
		// marshalled is what MarshalJSON writes for want when it is not
		// the figure itself.
		marshalled string
	}{
		{file: "figure1.json", want: Links{{Target: foo, Rel: []string{"next"}, Anchor: bar}}},
		{file: "figure2.json", want: Links{
			{Target: foo + "1", Rel: []string{"item"}, Anchor: bar},
			{Target: foo + "2", Rel: []string{"item"}, Anchor: bar},
		}},
		{file: "figure3.json", want: Links{
			{Target: foo + "1", Rel: []string{"next"}, Anchor: bar},
			{Target: foo + "2", Rel: []string{"https://example.com/relations/baz"}, Anchor: "https://example.net/boo"},
		}},
		{file: "figure4.json", want: Links{
			{Target: foo, Rel: []string{"next"}, Anchor: bar, Type: "text/html", Hreflang: []string{"en", "de"}},
		}},
		{
			file: "figure5.json",
			want: Links{{
				Target: foo, Rel: []string{"next"}, Anchor: bar, Type: "text/html", Hreflang: []string{"en", "de"},
				Title: "nächstes Kapitel", TitleLang: "de",
			}},
			// title* wins over title, as in a Link field.
			marshalled: `{"linkset": [{"anchor": "https://example.net/bar", "next": [{
				"href": "https://example.com/foo", "type": "text/html", "hreflang": ["en", "de"],
				"title*": [{"value": "nächstes Kapitel", "language": "de"}]}]}]}`,
		},
		{file: "figure6.json", want: Links{{
			Target: foo, Rel: []string{"next"}, Anchor: bar, Type: "text/html",
			Params: []Param{{Name: "foo", Value: "foovalue"}, {Name: "bar", Value: "barone"}, {Name: "bar", Value: "bartwo"}, {Name: "baz", Value: "bazvalue", Lang: "en"}},
		}}},
		{
			file: "figure18.json",
			want: Links{
				{Target: "https://www.gs1.org/voc/?show=linktypes", Rel: []string{"profile"}, Anchor: "https://id.gs1.org/01/9506000134352?linkType=all"},
				{Target: "https://example.com/en/packContents/GB", Rel: []string{"https://gs1.org/voc/whatsinthebox"}, Anchor: "https://id.gs1.org/01/9506000134352"},
			},
			// Relation types are lower-cased, extension URIs included
			// (RFC 8288 §2.1.2 compares them case-insensitively).
			marshalled: `{"linkset": [
				{"anchor": "https://id.gs1.org/01/9506000134352?linkType=all", "profile": [{"href": "https://www.gs1.org/voc/?show=linktypes"}]},
				{"anchor": "https://id.gs1.org/01/9506000134352", "https://gs1.org/voc/whatsinthebox": [{"href": "https://example.com/en/packContents/GB"}]}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			doc := readLinksetFile(t, tt.file)
			got := unmarshalLinks(t, doc)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("UnmarshalJSON (-want +got):\n%s", d)
			}
			want := doc
			if tt.marshalled != "" {
				want = []byte(tt.marshalled)
			}
			js := marshalLinks(t, tt.want)
			if d := jsonDiff(t, js, want); d != "" {
				t.Errorf("MarshalJSON (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.want, unmarshalLinks(t, js)); d != "" {
				t.Errorf("UnmarshalJSON(MarshalJSON) (-want +got):\n%s", d)
			}
		})
	}
}

// figure8Links is the linkset of RFC 9264 Figure 8 as ParseLinkset gives it.
func figure8Links() Links {
	const r1 = "https://example.org/resource1"
	html := func(target, rel, anchor string, params ...Param) Link {
		return Link{Target: target, Rel: []string{rel}, Anchor: anchor, Type: "text/html", Params: params}
	}
	return Links{
		{Target: "https://authors.example.net/johndoe", Rel: []string{"author"}, Anchor: r1, Type: "application/rdf+xml"},
		html(r1+"?version=3", "latest-version", r1),
		html(r1+"?version=2", "predecessor-version", r1+"?version=3"),
		html(r1+"?version=1", "predecessor-version", r1+"?version=2"),
		html(r1+"?version=1", "memento", r1, Param{Name: "datetime", Value: "Thu, 13 Jun 2019 09:34:33 GMT"}),
		html(r1+"?version=2", "memento", r1, Param{Name: "datetime", Value: "Sun, 21 Jul 2019 12:22:04 GMT"}),
		{Target: "https://authors.example.net/alice", Rel: []string{"author"}, Anchor: r1 + "#comment=1"},
	}
}

// TestLinksetSection7 checks the examples of RFC 9264 §7: Figure 8
// (application/linkset) and Figure 10 (application/linkset+json) hold the
// same links, and Figure 14 is a linkset link folded over lines.
func TestLinksetSection7(t *testing.T) {
	fig8 := readLinksetFile(t, "figure8.linkset")
	parsed, err := ParseLinkset(fig8)
	if err != nil {
		t.Fatal(err)
	}
	want := figure8Links()
	if d := cmp.Diff(want, parsed); d != "" {
		t.Fatalf("ParseLinkset(Figure 8) (-want +got):\n%s", d)
	}
	crlf, err := ParseLinkset(bytes.ReplaceAll(fig8, []byte("\n"), []byte("\r\n")))
	if err != nil || !cmp.Equal(want, crlf) {
		t.Errorf("ParseLinkset(Figure 8 with CRLF) = %v, %v", crlf, err)
	}

	fig10 := readLinksetFile(t, "figure10-arrays.json")
	if d := jsonDiff(t, marshalLinks(t, parsed), fig10); d != "" {
		t.Errorf("MarshalJSON(Figure 8) is not Figure 10 (-want +got):\n%s", d)
	}
	// Figure 10 orders the relation types of its first context
	// differently: compare as sets.
	bySet := cmpopts.SortSlices(func(a, b Link) bool { return a.String() < b.String() })
	if d := cmp.Diff(jsonEquivalent(want), unmarshalLinks(t, fig10), bySet); d != "" {
		t.Errorf("UnmarshalJSON(Figure 10) (-want +got):\n%s", d)
	}
	var ls Links
	err = ls.UnmarshalJSON(readLinksetFile(t, "figure10.json"))
	const wantErr = "weblink: invalid linkset: linkset[0].memento[0].datetime: must be an array of strings (RFC 9264 §4.2.4.3), found a string"
	if err == nil || err.Error() != wantErr {
		t.Errorf("UnmarshalJSON(Figure 10 as printed) error = %v, want %s", err, wantErr)
	}

	fig14, err := ParseLinkset(readLinksetFile(t, "figure14.linkset"))
	wantFig14 := Links{{
		Target: "https://id.gs1.org/01/9506000134352?linkType=all", Rel: []string{"linkset"}, Type: LinksetJSONType,
		Params: []Param{{Name: "profile", Value: "https://www.gs1.org/voc/?show=linktypes"}},
	}}
	if err != nil || !cmp.Equal(wantFig14, fig14) {
		t.Errorf("ParseLinkset(Figure 14) = %v, %v; want %v", fig14, err, wantFig14)
	}
}

func TestFormatLinkset(t *testing.T) {
	ls := Links{
		{Target: "https://example.org/a", Rel: []string{"author"}, Anchor: "https://example.org/r"},
		{Target: "https://example.org/r?v=2", Rel: []string{"latest-version"}, Type: "text/html", Title: "Version 2"},
	}
	const want = `<https://example.org/a>; rel="author"; anchor="https://example.org/r",` + "\n" +
		`<https://example.org/r?v=2>; rel="latest-version"; title="Version 2"; type="text/html"` + "\n"
	got := FormatLinkset(ls)
	if string(got) != want {
		t.Errorf("FormatLinkset:\n%s\nwant:\n%s", got, want)
	}
	if got := FormatLinkset(nil); len(got) != 0 {
		t.Errorf("FormatLinkset(nil) = %q, want empty", got)
	}
}

// TestFormatLinksetParses checks that FormatLinkset output parses back with
// ParseLinkset and, once the newlines are removed, with Parse, and that it
// is ASCII whatever the links hold.
func TestFormatLinksetParses(t *testing.T) {
	ls := append(figure8Links(),
		Link{Target: "/ünïcode path", Rel: []string{"next"}, Title: "Chapter 2"},
		Link{Target: "/x", Rel: []string{"alternate"}, Params: []Param{{Name: "note", Value: "a, b; \"c\""}}},
	)
	doc := FormatLinkset(ls)
	for i, c := range doc {
		if c >= 0x7f || c < 0x20 && c != '\n' {
			t.Fatalf("byte %d of FormatLinkset is %#x:\n%s", i, c, doc)
		}
	}
	want, err := Parse(ls.String())
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseLinkset(doc)
	if err != nil || !cmp.Equal(want, got) {
		t.Errorf("ParseLinkset(FormatLinkset) = %v, %v; want %v", got, err, want)
	}
	oneLine := strings.ReplaceAll(string(doc), "\n", "")
	got, err = Parse(oneLine)
	if err != nil || !cmp.Equal(want, got) {
		t.Errorf("Parse(FormatLinkset without newlines) = %v, %v; want %v", got, err, want)
	}
}

func TestParseLinksetErrors(t *testing.T) {
	doc := "<https://a.example/>; rel=\"next\",\n  oops,\n<https://b.example/>\n  ; rel=\"prev\"\n"
	ls, err := ParseLinkset([]byte(doc))
	var se *SyntaxError
	if !errors.As(err, &se) || se.Offset != strings.Index(doc, "oops") {
		t.Errorf("error = %v, want a *SyntaxError at offset %d", err, strings.Index(doc, "oops"))
	}
	want := Links{{Target: "https://a.example/", Rel: []string{"next"}}, {Target: "https://b.example/", Rel: []string{"prev"}}}
	if d := cmp.Diff(want, ls); d != "" {
		t.Errorf("links (-want +got):\n%s", d)
	}
}

func TestMarshalJSONLayout(t *testing.T) {
	ls := Links{
		{Target: "https://example.org/2?a=1&b=2", Rel: []string{"next", "Item"}, Title: "Zwei", TitleLang: "de"},
		{Target: "/a b", Rel: []string{"author"}, Anchor: "https://example.org/", Rev: []string{"made"},
			Params: []Param{{Name: "x", Value: "1"}, {Name: "Y", Value: "<&>"}, {Name: "x", Value: "ü"}, {Name: "z"}}},
		{Target: "", Rel: []string{"item"}, Hreflang: []string{"en", "de"}, Media: "screen", Type: "text/html", Title: "t"},
	}
	const want = `{
  "linkset": [
    {
      "next": [
        { "href": "https://example.org/2?a=1&b=2", "title*": [{ "value": "Zwei", "language": "de" }] }
      ],
      "item": [
        { "href": "https://example.org/2?a=1&b=2", "title*": [{ "value": "Zwei", "language": "de" }] },
        { "href": "", "type": "text/html", "hreflang": ["en", "de"], "media": "screen", "title": "t" }
      ]
    },
    {
      "anchor": "https://example.org/",
      "author": [
        { "href": "/a%20b", "x*": [{ "value": "1" }, { "value": "ü" }], "y": ["<&>"], "z": [""] }
      ]
    }
  ]
}`
	got := marshalLinks(t, ls)
	if string(got) != want {
		t.Errorf("MarshalJSON:\n%s\nwant:\n%s", got, want)
	}
	if got := marshalLinks(t, nil); string(got) != "{\n  \"linkset\": []\n}" {
		t.Errorf("MarshalJSON(nil) = %s", got)
	}
	if got, err := json.Marshal(ls[:1]); err != nil || !bytes.Contains(got, []byte(`{"linkset":[{"next":[`)) {
		t.Errorf("json.Marshal = %s, %v; want the compacted document", got, err)
	}
}

func TestMarshalJSONErrors(t *testing.T) {
	const prefix = `weblink: invalid linkset: link 1 (target "/t"): `
	tests := []struct {
		link Link
		want string
	}{
		{Link{Target: "/t"}, `has no relation type; give it at least one in Rel (RFC 9264 §4.2.2 lists links under their relation types)`},
		{Link{Target: "/t", Rel: []string{""}}, `has no relation type; give it at least one in Rel (RFC 9264 §4.2.2 lists links under their relation types)`},
		{Link{Target: "/t", Rel: []string{"next prev"}}, `relation type "next prev" holds whitespace; put each relation type in its own Rel entry`},
		{Link{Target: "/t", Rel: []string{"Anchor"}}, `relation type "anchor" cannot be a member of a link context object, whose "anchor" member is the context (RFC 9264 §4.2.2)`},
		{Link{Target: "/t", Rel: []string{"next"}, Params: []Param{{Name: "HREF", Value: "x"}}}, `a Param named "href" would clash with the link target member "href" (RFC 9264 §4.2.3); rename it`},
		{Link{Target: "/t", Rel: []string{"next"}, Params: []Param{{Name: "type", Value: "x"}}}, `Param name "type" is not a token without a trailing "*", or is an attribute that Link has a field for; rename it or set that field`},
		{Link{Target: "/t", Rel: []string{"next"}, Params: []Param{{Name: "a b"}}}, `Param name "a b" is not a token without a trailing "*", or is an attribute that Link has a field for; rename it or set that field`},
		{Link{Target: "/t", Rel: []string{"next"}, Params: []Param{{Name: "x*"}}}, `Param name "x*" is not a token without a trailing "*", or is an attribute that Link has a field for; rename it or set that field`},
	}
	for _, tt := range tests {
		ls := Links{{Target: "/ok", Rel: []string{"self"}}, tt.link}
		_, err := ls.MarshalJSON()
		if err == nil || err.Error() != prefix+tt.want || !errors.Is(err, ErrInvalidLinkset) {
			t.Errorf("MarshalJSON(%+v) error:\n got %v\nwant %s", tt.link, err, prefix+tt.want)
		}
		_, err = json.Marshal(ls)
		if !errors.Is(err, ErrInvalidLinkset) {
			t.Errorf("json.Marshal(%+v) error = %v, want one wrapping ErrInvalidLinkset", tt.link, err)
		}
	}
}

func TestUnmarshalJSONErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{``, `invalid JSON: unexpected EOF`},
		{`{"linkset": [}`, `invalid JSON: invalid character '}' looking for beginning of value`},
		{`{"linkset": []} {}`, `unexpected data after the JSON document; send one document`},
		{"{\"linkset\": [{\"next\": [{\"href\": \"\xff\"}]}]}", `the document is not UTF-8, which RFC 9264 §4.2 requires`},
		{`[]`, `document: must be an object with "linkset" as its sole member (RFC 9264 §4.2.1), found an array`},
		{`{}`, `document: member "linkset" is missing; the document must be {"linkset": [...]} (RFC 9264 §4.2.1)`},
		{`{"linkset": [], "@context": {}}`, `document: unexpected member "@context"; "linkset" must be the sole member (RFC 9264 §4.2.1)`},
		{`{"Linkset": []}`, `document: unexpected member "Linkset"; "linkset" must be the sole member (RFC 9264 §4.2.1)`},
		{`{"linkset": [], "linkset": []}`, `linkset: duplicate member; give "linkset" once`},
		{`{"linkset": [{"next": [{"href": "/", "title*": [], "title": "plain"}]}]}`, `linkset[0].next[0].title*: empty; an internationalised attribute holds one or more {"value": ...} objects (RFC 9264 §4.2.4.2): leave it out instead`},
		{`{"linkset": {"next": []}}`, `linkset: must be an array of link context objects (RFC 9264 §4.2.1), found an object`},
		{`{"linkset": [[]]}`, `linkset[0]: must be a link context object (RFC 9264 §4.2.2), found an array`},
		{`{"linkset": [{"anchor": 1}]}`, `linkset[0].anchor: must be a string holding a URI reference, found a number`},
		{`{"linkset": [{"anchor": "/a b"}]}`, `linkset[0].anchor: "/a b" is not a URI reference (RFC 3986): percent-encode the byte " " at offset 2`},
		{`{"linkset": [{"anchor": "/a", "ANCHOR": "/b"}]}`, `linkset[0].ANCHOR: duplicate member; give each member once (names compare case-insensitively)`},
		{`{"linkset": [{"next": {"href": "/"}}]}`, `linkset[0].next: must be an array of link target objects (RFC 9264 §4.2.2), found an object`},
		{`{"linkset": [{"next": [], "Next": []}]}`, `linkset[0].Next: duplicate member; give each member once (names compare case-insensitively)`},
		{`{"linkset": [{"": []}]}`, `linkset[0][""]: is not a relation type: a member name is one registered relation type or extension URI (RFC 9264 §4.2.2)`},
		{`{"linkset": [{"next prev": []}]}`, `linkset[0]["next prev"]: is not a relation type: a member name is one registered relation type or extension URI (RFC 9264 §4.2.2)`},
		{`{"linkset": [{"next": ["/"]}]}`, `linkset[0].next[0]: must be a link target object (RFC 9264 §4.2.3), found a string`},
		{`{"linkset": [{"next": [{"href": "/"}, {"type": "text/html"}]}]}`, `linkset[0].next[1].href: missing; every link target object needs "href" ("" for the linkset resource itself, RFC 9264 §4.2.3)`},
		{`{"linkset": [{"next": [{"href": null}]}]}`, `linkset[0].next[0].href: must be a string holding a URI reference, found null`},
		{`{"linkset": [{"https://example.com/rel": [{"href": ["/"]}]}]}`, `linkset[0]["https://example.com/rel"][0].href: must be a string holding a URI reference, found an array`},
		{`{"linkset": [{"next": [{"href": "/", "href": "/"}]}]}`, `linkset[0].next[0].href: duplicate member; give each member once (names compare case-insensitively)`},
		{`{"linkset": [{"next": [{"href": "/", "type": ["text/html"]}]}]}`, `linkset[0].next[0].type: must be a string (RFC 9264 §4.2.4.1), found an array`},
		{`{"linkset": [{"next": [{"href": "/", "media": true}]}]}`, `linkset[0].next[0].media: must be a string (RFC 9264 §4.2.4.1), found a boolean`},
		{`{"linkset": [{"next": [{"href": "/", "title": {"value": "x"}}]}]}`, `linkset[0].next[0].title: must be a string (RFC 9264 §4.2.4.1), found an object`},
		{`{"linkset": [{"next": [{"href": "/", "hreflang": "en"}]}]}`, `linkset[0].next[0].hreflang: must be an array of strings (RFC 9264 §4.2.4.1), found a string`},
		{`{"linkset": [{"next": [{"href": "/", "hreflang": ["en", 1]}]}]}`, `linkset[0].next[0].hreflang[1]: must be a string, found a number`},
		{`{"linkset": [{"next": [{"href": "/", "title*": {"value": "x"}}]}]}`, `linkset[0].next[0].title*: must be an array of {"value": ..., "language": ...} objects (RFC 9264 §4.2.4.2), found an object`},
		{`{"linkset": [{"next": [{"href": "/", "title*": ["x"]}]}]}`, `linkset[0].next[0].title*[0]: must be an object {"value": ..., "language": ...} (RFC 9264 §4.2.4.2), found a string`},
		{`{"linkset": [{"next": [{"href": "/", "title*": [{"language": "en"}]}]}]}`, `linkset[0].next[0].title*[0].value: missing (RFC 9264 §4.2.4.2)`},
		{`{"linkset": [{"next": [{"href": "/", "title*": [{"value": 1}]}]}]}`, `linkset[0].next[0].title*[0].value: must be a string, found a number`},
		{`{"linkset": [{"next": [{"href": "/", "title*": [{"value": "x", "lang": "en"}]}]}]}`, `linkset[0].next[0].title*[0].lang: unexpected member; the object has only "value" and "language" (RFC 9264 §4.2.4.2)`},
		{`{"linkset": [{"next": [{"href": "/", "title*": [{"value": "x", "value": "y"}]}]}]}`, `linkset[0].next[0].title*[0].value: duplicate member; give each member once (names compare case-insensitively)`},
		{`{"linkset": [{"next": [{"href": "/", "foo": "bar"}]}]}`, `linkset[0].next[0].foo: must be an array of strings (RFC 9264 §4.2.4.3), found a string`},
		{`{"linkset": [{"next": [{"href": "/", "foo": [{"value": "bar"}]}]}]}`, `linkset[0].next[0].foo[0]: must be a string, found an object`},
		{`{"linkset": [{"next": [{"href": "/", "foo*": ["bar"]}]}]}`, `linkset[0].next[0].foo*[0]: must be an object {"value": ..., "language": ...} (RFC 9264 §4.2.4.2), found a string`},
		{`{"linkset": [{"next": [{"href": "/", "foo": [], "FOO": []}]}]}`, `linkset[0].next[0].FOO: duplicate member; give each member once (names compare case-insensitively)`},
		{`{"linkset": [{"next": [{"href": "/", "a b": []}]}]}`, `linkset[0].next[0]["a b"]: is not an extension target attribute: its name must be a token, with at most one trailing "*" (RFC 8288 §3.4.2)`},
		{`{"linkset": [{"next": [{"href": "/", "": []}]}]}`, `linkset[0].next[0][""]: is not an extension target attribute: its name must be a token, with at most one trailing "*" (RFC 8288 §3.4.2)`},
		{`{"linkset": [{"next": [{"href": "/", "*": []}]}]}`, `linkset[0].next[0].*: is not an extension target attribute: its name must be a token, with at most one trailing "*" (RFC 8288 §3.4.2)`},
		{`{"linkset": [{"next": [{"href": "/", "foo**": []}]}]}`, `linkset[0].next[0].foo**: is not an extension target attribute: its name must be a token, with at most one trailing "*" (RFC 8288 §3.4.2)`},
		{`{"linkset": [{"next": [{"href": "/", "anchor": "/"}]}]}`, `linkset[0].next[0].anchor: is not a target attribute; the link context object holds the anchor and the relation type (RFC 9264 §4.2.2)`},
		{`{"linkset": [{"next": [{"href": "/", "rel": ["next"]}]}]}`, `linkset[0].next[0].rel: is not a target attribute; the link context object holds the anchor and the relation type (RFC 9264 §4.2.2)`},
		{`{"linkset": [{"next": [{"href": "/", "type*": []}]}]}`, `linkset[0].next[0].type*: is not supported: RFC 8288 defines no internationalised form of type; use "type"`},
		{`{"linkset": [{"next": [{"href": "/a\"b"}]}]}`, `linkset[0].next[0].href: "/a\"b" is not a URI reference (RFC 3986): percent-encode the byte "\"" at offset 2`},
		{`{"linkset": [{"next": [{"href": "/ü"}]}]}`, `linkset[0].next[0].href: "/ü" is not a URI reference (RFC 3986): percent-encode the byte "\xc3" at offset 1`},
		{`{"linkset": [{"next": [{"href": "/%zz"}]}]}`, `linkset[0].next[0].href: "/%zz" is not a URI reference (RFC 3986): percent-encode the byte "%" at offset 1`},
	}
	for _, tt := range tests {
		before := Links{{Target: "/unchanged"}}
		ls := before
		err := ls.UnmarshalJSON([]byte(tt.in))
		want := "weblink: invalid linkset: " + tt.want
		if err == nil || err.Error() != want {
			t.Errorf("UnmarshalJSON(%s) error:\n got %v\nwant %s", tt.in, err, want)
			continue
		}
		if !errors.Is(err, ErrInvalidLinkset) {
			t.Errorf("UnmarshalJSON(%s) error %v does not wrap ErrInvalidLinkset", tt.in, err)
		}
		if !cmp.Equal(before, ls) {
			t.Errorf("UnmarshalJSON(%s) changed the Links to %v", tt.in, ls)
		}
	}
}

// TestUnmarshalJSONSyntaxErrorWrapped checks that errors.As finds the
// encoding/json error behind an invalid-JSON error.
func TestUnmarshalJSONSyntaxErrorWrapped(t *testing.T) {
	var ls Links
	err := ls.UnmarshalJSON([]byte(`{"linkset": [}`))
	var se *json.SyntaxError
	if !errors.As(err, &se) || se.Offset != 13 {
		t.Errorf("error = %v, want one wrapping a *json.SyntaxError at offset 13", err)
	}
}

// TestUnmarshalJSONShapes checks documents that RFC 9264 §4.2 allows in
// less common shapes.
func TestUnmarshalJSONShapes(t *testing.T) {
	tests := []struct {
		name, in string
		want     Links
	}{
		{"empty", `{"linkset": []}`, Links{}},
		{"empty context and relation", `{"linkset": [{}, {"anchor": "/a"}, {"next": []}]}`, Links{}},
		{"no anchor", `{"linkset": [{"next": [{"href": ""}]}]}`, Links{{Rel: []string{"next"}}}},
		{"anchor after relations", `{"linkset": [{"next": [{"href": "/n"}], "prev": [{"href": "/p"}], "anchor": "/c"}]}`, Links{
			{Target: "/n", Rel: []string{"next"}, Anchor: "/c"},
			{Target: "/p", Rel: []string{"prev"}, Anchor: "/c"},
		}},
		{"same anchor twice", `{"linkset": [{"anchor": "/c", "next": [{"href": "/1"}]}, {"anchor": "/d", "next": [{"href": "/2"}]}, {"anchor": "/c", "next": [{"href": "/3"}]}]}`, Links{
			{Target: "/1", Rel: []string{"next"}, Anchor: "/c"},
			{Target: "/2", Rel: []string{"next"}, Anchor: "/d"},
			{Target: "/3", Rel: []string{"next"}, Anchor: "/c"},
		}},
		{"names compare case-insensitively", `{"linkset": [{"Anchor": "/c", "NEXT": [{"HREF": "/n", "Type": "text/html", "Title*": [{"Value": "x", "Language": "en"}], "Foo": ["1"]}]}]}`, Links{
			{Target: "/n", Rel: []string{"next"}, Anchor: "/c", Type: "text/html", Title: "x", TitleLang: "en", Params: []Param{{Name: "foo", Value: "1"}}},
		}},
		{"title* wins, first entry", `{"linkset": [{"next": [{"title": "plain", "title*": [{"value": "erste", "language": "de"}, {"value": "second", "language": "en"}], "href": "/"}]}]}`, Links{
			{Target: "/", Rel: []string{"next"}, Title: "erste", TitleLang: "de"},
		}},
		{"title* without language", `{"linkset": [{"next": [{"href": "/", "title*": [{"value": "Zoë"}]}]}]}`, Links{
			{Target: "/", Rel: []string{"next"}, Title: "Zoë"},
		}},
		{"empty language", `{"linkset": [{"next": [{"href": "/", "title*": [{"value": "x", "language": ""}]}]}]}`, Links{
			{Target: "/", Rel: []string{"next"}, Title: "x"},
		}},
		{"params grouped by name", `{"linkset": [{"next": [{"href": "/", "a": ["1"], "b": ["2"], "a*": [{"value": "3", "language": "en"}], "c": []}]}]}`, Links{
			{Target: "/", Rel: []string{"next"}, Params: []Param{{Name: "a", Value: "1"}, {Name: "a", Value: "3", Lang: "en"}, {Name: "b", Value: "2"}}},
		}},
		{"empty hreflang", `{"linkset": [{"next": [{"href": "/", "hreflang": []}]}]}`, Links{{Target: "/", Rel: []string{"next"}}}},
		{"escapes", `{"linkset": [{"next": [{"href": "/a?b=1\u0026c=2", "title": "\"quoted\"\n"}]}]}`, Links{
			{Target: "/a?b=1&c=2", Rel: []string{"next"}, Title: "\"quoted\"\n"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := unmarshalLinks(t, []byte(tt.in))
			if d := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("UnmarshalJSON (-want +got):\n%s", d)
			}
			// Whatever came in, the round trip is exact once in this form.
			if d := cmp.Diff(jsonEquivalent(got), unmarshalLinks(t, marshalLinks(t, got)), cmpopts.EquateEmpty()); d != "" {
				t.Errorf("round trip (-want +got):\n%s", d)
			}
		})
	}
}

func TestUnmarshalJSONNull(t *testing.T) {
	ls := Links{{Target: "/kept", Rel: []string{"next"}}}
	if err := json.Unmarshal([]byte(`null`), &ls); err != nil || len(ls) != 1 {
		t.Errorf("json.Unmarshal(null) = %v, links %v; want no error, links unchanged", err, ls)
	}
	var doc struct{ Links Links }
	if err := json.Unmarshal([]byte(`{"Links": {"linkset": [{"next": [{"href": "/n"}]}]}}`), &doc); err != nil || len(doc.Links) != 1 {
		t.Errorf("json.Unmarshal into a struct field = %v, %v", doc.Links, err)
	}
}

// TestLinksetConformanceRoundTrip takes the header of every Link conformance
// vector through Links → JSON → Links → header: JSON keeps the links
// relation by relation (jsonEquivalent), and the header keeps the links that
// the core round-trip promise covers.
func TestLinksetConformanceRoundTrip(t *testing.T) {
	headers := conformanceStrings(t, filepath.Join("testdata", "conformance", "link-*.json"), "header", "header_lines")
	if len(headers) < 150 {
		t.Fatalf("only %d headers in the conformance vectors", len(headers))
	}
	var links, perRel, rejected, headerChecked int
	for _, h := range headers {
		parsed, _ := Parse(h)
		var ok Links
		for _, l := range parsed {
			if l.checkLinkset() != nil {
				// Links without rel and Params named href: MarshalJSON
				// must refuse them.
				rejected++
				if _, err := (Links{l}).MarshalJSON(); !errors.Is(err, ErrInvalidLinkset) {
					t.Errorf("%q: MarshalJSON(%+v) error = %v, want ErrInvalidLinkset", h, l, err)
				}
				continue
			}
			ok = append(ok, l)
		}
		links += len(ok)
		js := marshalLinks(t, ok)
		back := unmarshalLinks(t, js)
		perRel += len(back)
		if d := cmp.Diff(jsonEquivalent(ok), back, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%q: JSON round trip (-want +got):\n%s\n%s", h, d, js)
			continue
		}
		again, err := Parse(back.String())
		if err != nil || len(again) != len(back) {
			t.Errorf("%q: Parse(%q) = %v, %v", h, back.String(), again, err)
			continue
		}
		for i, l := range back {
			if !inParsedForm(l) {
				continue
			}
			headerChecked++
			if d := cmp.Diff(l, again[i]); d != "" {
				t.Errorf("%q: header round trip of link %d (-want +got):\n%s", h, i, d)
			}
		}
	}
	t.Logf("%d headers: %d links through JSON (%d once per relation type), %d of those back through a header; %d rejected by MarshalJSON",
		len(headers), links, perRel, headerChecked, rejected)
	if links < 100 || headerChecked < perRel/2 || rejected == 0 {
		t.Errorf("too little covered: %d links, %d through a header, %d rejected", links, headerChecked, rejected)
	}
}

func TestLinksetHandler(t *testing.T) {
	ls := figure8Links()
	js, _ := ls.MarshalJSON()
	jsonBody := string(js) + "\n"
	textBody := string(FormatLinkset(ls))
	h := LinksetHandler(ls)
	ls[0].Target = "/changed later" // the handler serves a snapshot

	tests := []struct {
		accept []string // nil: no Accept field
		status int
		ctype  string
	}{
		{nil, 200, LinksetJSONType},
		{[]string{""}, 200, LinksetJSONType},
		{[]string{"*/*"}, 200, LinksetJSONType},
		{[]string{"application/*"}, 200, LinksetJSONType},
		{[]string{"application/json"}, 200, LinksetJSONType},
		{[]string{"application/linkset+json"}, 200, LinksetJSONType},
		{[]string{"Application/LinkSet"}, 200, LinksetType},
		{[]string{"application/linkset, application/linkset+json"}, 200, LinksetJSONType},
		{[]string{"application/linkset+json;q=0.5, application/linkset"}, 200, LinksetType},
		{[]string{"application/linkset+json; profile=\"https://example.com/p\"; q=0.9", "application/linkset;q=0.8"}, 200, LinksetJSONType},
		{[]string{"application/linkset+json;q=0, */*"}, 200, LinksetType},
		{[]string{"text/html, */*;q=0.1"}, 200, LinksetJSONType},
		{[]string{"application/linkset;q=bad, application/json;q=0.2"}, 200, LinksetJSONType},
		{[]string{"text/html"}, 406, ""},
		{[]string{"application/linkset+json;q=0, application/linkset;q=0"}, 406, ""},
		{[]string{"*/*;q=0"}, 406, ""},
	}
	for _, tt := range tests {
		req := httptest.NewRequest("GET", "/links", nil)
		if tt.accept != nil {
			req.Header["Accept"] = tt.accept
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		res := rec.Result()
		if res.StatusCode != tt.status || tt.ctype != "" && res.Header.Get("Content-Type") != tt.ctype {
			t.Errorf("Accept %q: %d %s, want %d %s", tt.accept, res.StatusCode, res.Header.Get("Content-Type"), tt.status, tt.ctype)
			continue
		}
		if res.Header.Get("Vary") != "Accept" {
			t.Errorf("Accept %q: Vary = %q, want Accept", tt.accept, res.Header.Get("Vary"))
		}
		want := map[string]string{LinksetJSONType: jsonBody, LinksetType: textBody}[tt.ctype]
		if tt.status == 200 && rec.Body.String() != want {
			t.Errorf("Accept %q: body\n%s\nwant\n%s", tt.accept, rec.Body, want)
		}
	}
}

// serve sends one request to h and returns the response.
func serve(h http.Handler, method string, header http.Header) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, "/links", nil)
	for k, v := range header {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestLinksetHandlerConditional(t *testing.T) {
	h := LinksetHandler(figure8Links())
	jsonRes := serve(h, "GET", nil)
	textRes := serve(h, "GET", http.Header{"Accept": {LinksetType}})
	etag := jsonRes.Header().Get("ETag")
	if len(etag) != 34 || etag[0] != '"' || etag == textRes.Header().Get("ETag") {
		t.Fatalf("ETags %q (JSON) and %q (linkset): want two different strong ETags", etag, textRes.Header().Get("ETag"))
	}
	if again := serve(LinksetHandler(figure8Links()), "GET", nil).Header().Get("ETag"); again != etag {
		t.Errorf("ETag of the same links = %q, then %q", etag, again)
	}
	if other := serve(LinksetHandler(figure8Links()[1:]), "GET", nil).Header().Get("ETag"); other == etag {
		t.Errorf("ETag of different links is the same: %q", other)
	}

	res := serve(h, "GET", http.Header{"If-None-Match": {etag}})
	if res.Code != http.StatusNotModified || res.Body.Len() != 0 {
		t.Errorf("If-None-Match with the ETag: %d with %d bytes, want 304 and no body", res.Code, res.Body.Len())
	}
	res = serve(h, "GET", http.Header{"If-None-Match": {etag}, "Accept": {LinksetType}})
	if res.Code != http.StatusOK {
		t.Errorf("If-None-Match with the JSON ETag, Accept %s: %d, want 200", LinksetType, res.Code)
	}
	res = serve(h, "GET", http.Header{"If-None-Match": {`"other"`}})
	if res.Code != http.StatusOK || res.Body.String() != jsonRes.Body.String() {
		t.Errorf("If-None-Match with another ETag: %d, want 200 with the body", res.Code)
	}

	res = serve(h, "HEAD", nil)
	if res.Code != http.StatusOK || res.Body.Len() != 0 || res.Header().Get("ETag") != etag || res.Header().Get("Content-Type") != LinksetJSONType {
		t.Errorf("HEAD: %d, %d bytes, headers %v; want 200, no body, ETag and Content-Type", res.Code, res.Body.Len(), res.Header())
	}

	res = serve(h, "POST", nil)
	if res.Code != http.StatusMethodNotAllowed || res.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: %d, Allow %q; want 405, Allow: GET, HEAD", res.Code, res.Header().Get("Allow"))
	}
}

func TestLinksetHandlerInvalidLinks(t *testing.T) {
	res := serve(LinksetHandler(Links{{Target: "/no-rel"}}), "GET", nil)
	const want = "weblink: invalid linkset: link 0 (target \"/no-rel\"): has no relation type; give it at least one in Rel (RFC 9264 §4.2.2 lists links under their relation types)\n"
	if res.Code != http.StatusInternalServerError || res.Body.String() != want {
		t.Errorf("invalid links: %d %q, want 500 %q", res.Code, res.Body, want)
	}
}

// FuzzLinksetJSON checks that UnmarshalJSON never panics, that its errors
// wrap ErrInvalidLinkset, and that whatever it accepts MarshalJSON writes
// and UnmarshalJSON reads back as the same links, regrouped by context and
// relation type (jsonEquivalent); a second round changes nothing.
func FuzzLinksetJSON(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "linkset", "*.json"))
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		f.Add(readLinksetFile(f, filepath.Base(file)))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		var ls Links
		if err := ls.UnmarshalJSON(doc); err != nil {
			if !errors.Is(err, ErrInvalidLinkset) {
				t.Fatalf("error %v does not wrap ErrInvalidLinkset", err)
			}
			return
		}
		js := marshalLinks(t, ls)
		back := unmarshalLinks(t, js)
		if d := cmp.Diff(jsonEquivalent(ls), back, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("round trip (-want +got):\n%s\n%s", d, js)
		}
		if js2 := marshalLinks(t, back); !bytes.Equal(js, js2) {
			t.Fatalf("second MarshalJSON differs:\n%s\n%s", js, js2)
		}
	})
}
