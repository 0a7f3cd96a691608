package weblink

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/weblinking/weblink/internal/ascii"
)

// conformanceStrings returns every string stored under one of the given keys
// anywhere in the JSON files of testdata matching pattern (see
// readTestdata): the inputs of the conformance vectors, used to seed the
// fuzz targets.
func conformanceStrings(tb testing.TB, pattern string, keys ...string) []string {
	want := make(map[string]bool)
	for _, k := range keys {
		want[k] = true
	}
	var out []string
	var walk func(v any, key string)
	walk = func(v any, key string) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(x, k)
			}
		case []any:
			for _, x := range v {
				walk(x, key)
			}
		case string:
			if want[key] {
				out = append(out, v)
			}
		}
	}
	for _, f := range readTestdata(tb, pattern) {
		var v any
		if err := json.Unmarshal(f.data, &v); err != nil {
			tb.Fatalf("%s: %v", f.name, err)
		}
		walk(v, "")
	}
	return out
}

// inParsedForm reports whether l is in the domain of the round-trip promise
// of rule 21: Target, Anchor, Rel, Rev, Hreflang, Media and Type
// printable ASCII, Target and Anchor URI-references, and Title and Param
// values valid UTF-8.
func inParsedForm(l Link) bool {
	printable := []string{l.Target, l.Anchor, l.Media, l.Type}
	printable = append(printable, l.Rel...)
	printable = append(printable, l.Rev...)
	printable = append(printable, l.Hreflang...)
	for _, s := range printable {
		if !ascii.IsPrint(s) {
			return false
		}
	}
	// Text is written as UTF-8: invalid UTF-8 becomes U+FFFD (rule 20).
	if !utf8.ValidString(l.Title) {
		return false
	}
	for _, p := range l.Params {
		if !utf8.ValidString(p.Value) {
			return false
		}
	}
	return checkURI(l.Target) < 0 && checkURI(l.Anchor) < 0
}

// FuzzParse checks that Parse never panics, that String always writes
// printable ASCII, that formatting a parsed link and parsing it again gives
// the same link for links in parsed form (rule 21), that every
// other link is stable after one round: parsing what String wrote and
// formatting it again gives that link back, and that parse's first pass,
// which counts the "<" instead of searching each target for one (rule 8),
// gives what searching every target gives, for the input split into field
// lines at its newlines (sameAsSearching).
func FuzzParse(f *testing.F) {
	for _, tt := range parseTests {
		f.Add(tt.in)
	}
	for _, s := range conformanceStrings(f, "conformance/link-*.json", "header", "header_lines") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		sameAsSearching(t, strings.Split(in, "\n"))
		links, _ := Parse(in)
		for _, l := range links {
			s := l.String()
			if !ascii.IsPrint(s) {
				t.Fatalf("String() = %q is not printable ASCII", s)
			}
			again, err := Parse(s)
			if err != nil {
				t.Fatalf("Parse(%q) of String() failed: %v", s, err)
			}
			if len(again) != 1 {
				t.Fatalf("Parse(%q) gave %d links, want 1", s, len(again))
			}
			if inParsedForm(l) {
				if diff := cmp.Diff(l, again[0], cmpopts.EquateEmpty()); diff != "" {
					t.Fatalf("round trip of %q via %q (-want +got):\n%s", in, s, diff)
				}
				continue
			}
			s2 := again[0].String()
			third, err := Parse(s2)
			if err != nil || len(third) != 1 {
				t.Fatalf("Parse(%q) = %d links, %v", s2, len(third), err)
			}
			if diff := cmp.Diff(again[0], third[0], cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("no fixed point: %q formats as %q, then as %q (-want +got):\n%s", in, s, s2, diff)
			}
		}
	})
}

// FuzzFormat checks that String writes printable ASCII whatever a Link holds,
// and that the output always parses as exactly one link without error.
func FuzzFormat(f *testing.F) {
	f.Add("https://x/", "next", "#a", "en", "screen", "Title", "de", "text/html", "as", "font", "")
	f.Add("a b\r\n", "n\x00ext", "\"", "\xff", "\\", "\x00\r\n", "en_US", "\"", "x*", "\xff", "fr")
	f.Add("/", "a\x7fb", "/", "\x7f", "\u0085", "\u009f", "", "text/\x7f", "p", "\x7f\u0085", "")
	f.Fuzz(func(t *testing.T, target, rel, anchor, hreflang, media, title, titleLang, typ, pname, pvalue, plang string) {
		l := Link{Target: target, Rel: []string{rel, "x"}, Anchor: anchor, Rev: []string{rel}, Hreflang: []string{hreflang},
			Media: media, Title: title, TitleLang: titleLang, Type: typ, Params: []Param{{Name: pname, Value: pvalue, Lang: plang}}}
		s := l.String()
		if !ascii.IsPrint(s) {
			t.Fatalf("String() = %q is not printable ASCII", s)
		}
		got, err := Parse(s)
		if err != nil || len(got) != 1 {
			t.Fatalf("Parse(%q) = %d links, %v; want 1 link and no error", s, len(got), err)
		}
		// Text survives whatever it holds, when it is valid UTF-8.
		if utf8.ValidString(title) && got[0].Title != title {
			t.Fatalf("title %q came back as %q", title, got[0].Title)
		}
		if isExtensionName(pname) && utf8.ValidString(pvalue) {
			if p, ok := got[0].Param(pname); !ok || p.Value != pvalue {
				t.Fatalf("param %q=%q came back as %+v, %v", pname, pvalue, p, ok)
			}
		}
		// String writes what Parse reads: the link read from s formats
		// as s again, byte for byte, percent-escapes and quoting
		// included, unless rel holds upper-case letters, which Parse
		// lower-cases (rule 5); a space inside it is written %20 (rule 20).
		if ascii.Lower(rel) == rel {
			if again := got[0].String(); again != s {
				t.Fatalf("%q parses as a link that formats as %q", s, again)
			}
		}
	})
}
