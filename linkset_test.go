package weblink

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/weblinking/weblink/internal/ascii"
)

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
	ls, err := ParseLinksetJSON(doc)
	if err != nil {
		t.Fatalf("UnmarshalJSON: %v\n%s", err, doc)
	}
	return ls
}

// marshalLinks encodes ls as an application/linkset+json document.
func marshalLinks(t testing.TB, ls Links) []byte {
	t.Helper()
	b, err := FormatLinksetJSON(ls)
	if err != nil {
		t.Fatalf("MarshalJSON: %v", err)
	}
	if !json.Valid(b) {
		t.Fatalf("MarshalJSON wrote invalid JSON:\n%s", b)
	}
	return b
}

// jsonText replaces each byte of s that is not part of valid UTF-8 with
// U+FFFD, as encoding/json does when it writes a string (an oracle
// independent of validText).
func jsonText(s string) string { return string([]rune(s)) }

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
			// Relation types compare as written: lower-cased, each byte
			// that is not UTF-8 a U+FFFD.
			if w := jsonText(ascii.Lower(r)); r != "" && !slices.Contains(rels, w) {
				rels = append(rels, w)
			}
		}
		for _, r := range rels {
			e := Link{
				Target:    string(appendURI(nil, l.Target)),
				Rel:       []string{r},
				Anchor:    string(appendURI(nil, l.Anchor)),
				Media:     jsonText(l.Media),
				Title:     jsonText(l.Title),
				TitleLang: l.TitleLang,
				Type:      jsonText(l.Type),
			}
			for _, h := range l.Hreflang {
				e.Hreflang = append(e.Hreflang, jsonText(h))
			}
			for _, p := range l.Params {
				e.Params = append(e.Params, Param{Name: ascii.Lower(p.Name), Value: jsonText(p.Value), Lang: p.Lang})
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
			doc := readTestdataFile(t, "linkset/"+tt.file)
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
	fig8 := readTestdataFile(t, "linkset/figure8.linkset")
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

	fig10 := readTestdataFile(t, "linkset/figure10-arrays.json")
	if d := jsonDiff(t, marshalLinks(t, parsed), fig10); d != "" {
		t.Errorf("MarshalJSON(Figure 8) is not Figure 10 (-want +got):\n%s", d)
	}
	// Figure 10 orders the relation types of its first context
	// differently: compare as sets.
	bySet := cmpopts.SortSlices(func(a, b Link) bool { return a.String() < b.String() })
	if d := cmp.Diff(jsonEquivalent(want), unmarshalLinks(t, fig10), bySet); d != "" {
		t.Errorf("UnmarshalJSON(Figure 10) (-want +got):\n%s", d)
	}
	_, err = ParseLinksetJSON(readTestdataFile(t, "linkset/figure10.json"))
	const wantErr = "weblink: invalid linkset: linkset[0].memento[0].datetime: must be an array of strings (RFC 9264 §4.2.4.3), found a string"
	if err == nil || err.Error() != wantErr {
		t.Errorf("UnmarshalJSON(Figure 10 as printed) error = %v, want %s", err, wantErr)
	}

	fig14, err := ParseLinkset(readTestdataFile(t, "linkset/figure14.linkset"))
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

// TestLinksetConformanceRoundTrip takes the header of every Link conformance
// vector through Links → JSON → Links → header: JSON keeps the links
// relation by relation (jsonEquivalent), and the header keeps the links that
// the core round-trip promise covers.
func TestLinksetConformanceRoundTrip(t *testing.T) {
	headers := conformanceStrings(t, "conformance/link-*.json", "header", "header_lines")
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
				if _, err := FormatLinksetJSON(Links{l}); !errors.Is(err, ErrInvalidLinkset) {
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
