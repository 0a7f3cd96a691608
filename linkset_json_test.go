package weblink

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

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
		_, err := FormatLinksetJSON(ls)
		if err == nil || err.Error() != prefix+tt.want || !errors.Is(err, ErrInvalidLinkset) {
			t.Errorf("MarshalJSON(%+v) error:\n got %v\nwant %s", tt.link, err, prefix+tt.want)
		}
	}
}

// TestMarshalJSONInvalidUTF8Rel checks that relation types that are not
// valid UTF-8 are grouped by the name MarshalJSON writes for them, each
// invalid byte a U+FFFD: two that differ only in invalid bytes are one
// member, never two members UnmarshalJSON rejects as duplicates.
// TestFormatLinksetJSONRelEscapes checks that a relation type's escapes
// are written with upper-case hex digits (RFC 3986 §2.1), the rest of it
// lower-cased, and that the two spellings of one type are one member
// (issue #37 item 2: "http://example.com/%c3%a7runchy" before).
func TestFormatLinksetJSONRelEscapes(t *testing.T) {
	ls := Links{
		{Target: "/a", Rel: []string{"http://Example.com/%c3%a7runchy"}},
		{Target: "/b", Rel: []string{"http://example.com/%C3%A7runchy", "%7f"}},
	}
	const want = `{
  "linkset": [
    {
      "http://example.com/%C3%A7runchy": [
        { "href": "/a" },
        { "href": "/b" }
      ],
      "%7F": [
        { "href": "/b" }
      ]
    }
  ]
}`
	if got := marshalLinks(t, ls); string(got) != want {
		t.Errorf("FormatLinksetJSON:\n%s\nwant:\n%s", got, want)
	}
}

func TestMarshalJSONInvalidUTF8Rel(t *testing.T) {
	tests := []struct {
		name string
		ls   Links
		want Links
	}{
		{"one link", Links{{Target: "/a", Rel: []string{"\xc3\xc3\xff", "\xff\xff\xff"}}}, Links{
			{Target: "/a", Rel: []string{"\ufffd\ufffd\ufffd"}},
		}},
		{"two links", Links{{Target: "/a", Rel: []string{"\xff"}}, {Target: "/b", Rel: []string{"\xfe"}}}, Links{
			{Target: "/a", Rel: []string{"\ufffd"}},
			{Target: "/b", Rel: []string{"\ufffd"}},
		}},
		{"written U+FFFD", Links{{Target: "/a", Rel: []string{"\ufffd"}}, {Target: "/b", Rel: []string{"\xff"}}}, Links{
			{Target: "/a", Rel: []string{"\ufffd"}},
			{Target: "/b", Rel: []string{"\ufffd"}},
		}},
		{"upper case", Links{{Target: "/a", Rel: []string{"X\xff"}}, {Target: "/b", Rel: []string{"x\xfe"}}}, Links{
			{Target: "/a", Rel: []string{"x\ufffd"}},
			{Target: "/b", Rel: []string{"x\ufffd"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			js, err := FormatLinksetJSON(tt.ls)
			if err != nil {
				t.Fatalf("MarshalJSON: %v", err)
			}
			got, err := ParseLinksetJSON(js)
			if err != nil {
				t.Fatalf("UnmarshalJSON of MarshalJSON: %v\n%s", err, js)
			}
			if d := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("round trip (-want +got):\n%s\n%s", d, js)
			}
			if d := cmp.Diff(jsonEquivalent(tt.ls), got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("jsonEquivalent (-want +got):\n%s", d)
			}
		})
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
		ls, err := ParseLinksetJSON([]byte(tt.in))
		want := "weblink: invalid linkset: " + tt.want
		if err == nil || err.Error() != want {
			t.Errorf("UnmarshalJSON(%s) error:\n got %v\nwant %s", tt.in, err, want)
			continue
		}
		if !errors.Is(err, ErrInvalidLinkset) {
			t.Errorf("UnmarshalJSON(%s) error %v does not wrap ErrInvalidLinkset", tt.in, err)
		}
		if ls != nil {
			t.Errorf("ParseLinksetJSON(%s) returned links %v with its error", tt.in, ls)
		}
	}
}

// TestUnmarshalJSONSyntaxErrorWrapped checks that errors.As finds the
// encoding/json error behind an invalid-JSON error.
func TestUnmarshalJSONSyntaxErrorWrapped(t *testing.T) {
	_, err := ParseLinksetJSON([]byte(`{"linkset": [}`))
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

// TestParseLinksetJSONNull: null is not a linkset document (RFC 9264 §4.2.1
// wants an object).
func TestParseLinksetJSONNull(t *testing.T) {
	if ls, err := ParseLinksetJSON([]byte(`null`)); !errors.Is(err, ErrInvalidLinkset) || ls != nil {
		t.Errorf("ParseLinksetJSON(null) = %v, %v; want ErrInvalidLinkset", ls, err)
	}
}

// FuzzLinksetJSON checks that UnmarshalJSON never panics, that its errors
// wrap ErrInvalidLinkset, and that whatever it accepts MarshalJSON writes
// and UnmarshalJSON reads back as the same links, regrouped by context and
// relation type (jsonEquivalent); a second round changes nothing.
func FuzzLinksetJSON(f *testing.F) {
	for _, file := range readTestdata(f, "linkset/*.json") {
		f.Add(file.data)
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		ls, err := ParseLinksetJSON(doc)
		if err != nil {
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

// FuzzMarshalJSON checks that MarshalJSON never writes a document its own
// UnmarshalJSON rejects, whatever the Links hold: links parsed from a field
// value and a link built from arbitrary strings, relation types and names
// that are not UTF-8 included. What it writes reads back as jsonEquivalent
// says.
func FuzzMarshalJSON(f *testing.F) {
	f.Add(`<a>; rel="next"; title*=UTF-8'de'%C3%BC, <b>; rel=prev; anchor="#x"; x=1`, "/a", "\xc3\xc3\xff", "\xff\xff\xff", "", "t", "", "p", "v", "")
	f.Add("<\xff>; rel=\"\xfe \xff\"; foo=\xff", "\xff", "NEXT", "next", "/\xff", "\xff", "en", "Href", "\x00", "x")
	f.Fuzz(func(t *testing.T, header, target, rel1, rel2, anchor, title, titleLang, pname, pvalue, plang string) {
		ls, _ := Parse(header)
		ls = append(ls, Link{Target: target, Rel: []string{rel1, rel2}, Anchor: anchor, Title: title, TitleLang: titleLang,
			Params: []Param{{Name: pname, Value: pvalue, Lang: plang}, {Name: "q", Value: pvalue}}})
		for _, batch := range []Links{ls, ls[len(ls)-1:]} {
			js, err := FormatLinksetJSON(batch)
			if err != nil {
				if !errors.Is(err, ErrInvalidLinkset) {
					t.Fatalf("error %v does not wrap ErrInvalidLinkset", err)
				}
				continue
			}
			var back Links
			if back, err = ParseLinksetJSON(js); err != nil {
				t.Fatalf("UnmarshalJSON rejects what MarshalJSON wrote: %v\n%s", err, js)
			}
			if d := cmp.Diff(jsonEquivalent(batch), back, cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("round trip (-want +got):\n%s\n%s", d, js)
			}
		}
	})
}

func TestLinksetErrorPosition(t *testing.T) {
	for _, tt := range []struct {
		doc  string // "|" marks the offset of the problem
		path string
	}{
		{`|[]`, "document"},
		{`{"linkset": [{"next": [{"href": |7}]}]}`, "linkset[0].next[0].href"},
		{`{"linkset": [{"next": [{"title": "x"|}]}]}`, "linkset[0].next[0].href"},
		{`{"linkset": [{"next": [{"href": "a", |"HREF": "b"}]}]}`, "linkset[0].next[0].HREF"},
		{"{\"linkset\": [{\"next\": [{\"href\": \"a\"}]}]}\n  |{}", ""},
		{`{"linkset": [{"next": [{"href": |tru}]}]}`, ""},
		{`{"linkset": [|`, ""},
		{"{\"linkset\": [{\"next\": [{\"href\": \"a|\xff\"}]}]}", ""},
		{`{"linkset": [{"next": [{"href": |"a b"}]}]}`, "linkset[0].next[0].href"},
	} {
		at := strings.IndexByte(tt.doc, '|')
		doc := tt.doc[:at] + tt.doc[at+1:]
		_, err := ParseLinksetJSON([]byte(doc))
		var le *LinksetError
		if !errors.As(err, &le) {
			t.Errorf("UnmarshalJSON(%s) = %v, want a *LinksetError", doc, err)
			continue
		}
		if le.Path != tt.path || le.Offset != int64(at) || le.Link != -1 || !errors.Is(err, ErrInvalidLinkset) {
			t.Errorf("UnmarshalJSON(%s): Path %q, Offset %d, Link %d; want %q, %d, -1 (%v)", doc, le.Path, le.Offset, le.Link, tt.path, at, err)
		}
	}
	// Invalid JSON wraps the decoder's error.
	var se *json.SyntaxError
	if _, err := ParseLinksetJSON([]byte(`{"linkset": x}`)); !errors.As(err, &se) {
		t.Errorf("invalid JSON: %v does not wrap a *json.SyntaxError", err)
	}
	// MarshalJSON names the link by its index.
	_, err := FormatLinksetJSON(Links{{Target: "/a", Rel: []string{"next"}}, {Target: "/b"}})
	var le *LinksetError
	if !errors.As(err, &le) || le.Link != 1 || le.Offset != -1 || le.Path != "" || !strings.HasPrefix(le.Msg, "has no relation type") ||
		err.Error() != `weblink: invalid linkset: link 1 (target "/b"): `+le.Msg {
		t.Errorf("MarshalJSON: %#v", err)
	}
}

// TestLinksFieldIsPlainJSON: a struct field of type Links encodes and
// decodes as the JSON array of its Links, as any slice does. Before Links
// lost its JSON methods it encoded as {"links":{"linkset":[]}} and an array
// failed to decode.
func TestLinksFieldIsPlainJSON(t *testing.T) {
	type page struct {
		Links Links `json:"links"`
	}
	in := page{Links: Links{{Target: "/b", Rel: []string{"next"}}}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), `{"links":[{"Target":"/b"`) {
		t.Errorf("json.Marshal = %s, want the Links as an array of objects", b)
	}
	var out page
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("json.Unmarshal(%s): %v", b, err)
	}
	if d := cmp.Diff(in, out); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
}
