package linkformat_test

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/linkformat"
)

// addDocuments adds every document of testdata to f's seed corpus.
func addDocuments(f *testing.F) {
	files, err := filepath.Glob("testdata/*.wlnk")
	if err != nil || len(files) == 0 {
		f.Fatalf("no documents in testdata: %v", err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
}

// FuzzParse checks rule 1 differentially: Parse gives the links, errors
// and offsets of weblink.Parse, and the links do not change when the
// buffer does (rule 3).
func FuzzParse(f *testing.F) {
	addDocuments(f)
	f.Fuzz(func(t *testing.T, doc string) {
		buf := []byte(doc)
		got, err := linkformat.Parse(buf)
		want, wantErr := weblink.Parse(doc)
		if !cmp.Equal(want, got) {
			t.Fatalf("links differ from weblink.Parse:\n%s", cmp.Diff(want, got))
		}
		if errString(err) != errString(wantErr) {
			t.Fatalf("error %v, weblink.Parse's %v", err, wantErr)
		}
		for i := range buf {
			buf[i] = 0
		}
		if !cmp.Equal(want, got) {
			t.Fatal("the links changed with the buffer")
		}
	})
}

// FuzzFormat checks rule 16 on what Parse reads from any document: the
// output is valid UTF-8 without controls, parses back without error into
// as many links, a second round changes nothing, and links in the parsed
// form come back equal. It also checks rule 10 on the parsed links:
// resolving twice is resolving once.
func FuzzFormat(f *testing.F) {
	addDocuments(f)
	doc, _ := url.Parse("coap://[2001:db8::1]:5683/.well-known/core")
	f.Fuzz(func(t *testing.T, in string) {
		ls, _ := linkformat.Parse([]byte(in))
		out := linkformat.Format(ls)
		checkFormatted(t, ls, out)
		back, _ := linkformat.Parse(out)
		for i := range ls {
			if i < len(back) && inParsedForm(ls[i]) && !cmp.Equal(ls[i], back[i]) {
				t.Errorf("link %d in the parsed form did not round-trip:\n%s", i, cmp.Diff(ls[i], back[i]))
			}
		}
		once := linkformat.Resolve(ls, doc)
		if twice := linkformat.Resolve(once, doc); !cmp.Equal(once, twice) {
			t.Errorf("resolving again changed:\n%s", cmp.Diff(once, twice))
		}
	})
}

// FuzzFormatLink checks rule 16 on links that Parse could not return:
// any bytes in any field.
func FuzzFormatLink(f *testing.F) {
	f.Add("/a b", "Next x", "/anc\"hor", "en", "Title\n", "sv", "ct", "0 41", "")
	f.Add("\xff<>", "\x00", "", "\x7f", "\xfe", "not a tag", "x y", "v", "en")
	f.Add("", "", "", "", "", "", "note", "", "de")
	f.Add("/\u009b31m", "r\u0085", "/\u0080", "h\u009f", "t\u0085", "", "x", "v\u009b", "") // C1 controls
	f.Fuzz(func(t *testing.T, target, rel, anchor, hreflang, title, titleLang, pname, pvalue, plang string) {
		ls := weblink.Links{{
			Target: target, Rel: strings.Split(rel, " "), Anchor: anchor, Rev: []string{rel},
			Hreflang: []string{hreflang}, Media: hreflang, Title: title, TitleLang: titleLang, Type: pvalue,
			Params: []weblink.Param{{Name: pname, Value: pvalue, Lang: plang}, {Name: pname, Value: title}, {Name: "ct", Value: pvalue}},
		}}
		checkFormatted(t, ls, linkformat.Format(ls))
	})
}

// FuzzParseTimeMap checks rules 17 to 21 on any document: no panic,
// mementos in document order with datetimes in UTC, every link of Parse in
// exactly one place, every problem a *weblink.SyntaxError whose offset is
// inside doc, in document order, and at most 16 of them listed, followed
// by one count of the others.
func FuzzParseTimeMap(f *testing.F) {
	addDocuments(f)
	f.Add("<a>;rel=memento;datetime=bad,<b>;rel=memento")
	doc, _ := url.Parse("http://archive.example/timemap/link/http://a.example/")
	f.Fuzz(func(t *testing.T, in string) {
		for _, u := range []*url.URL{nil, doc} {
			tm, err := linkformat.ParseTimeMap([]byte(in), u)
			ls, _ := linkformat.Parse([]byte(in))
			// At most three links supply Original, TimeGate and Self.
			if n := len(tm.Mementos) + len(tm.Links); n > len(ls) || n+3 < len(ls) {
				t.Fatalf("%d mementos and %d other links from %d links", len(tm.Mementos), len(tm.Links), len(ls))
			}
			for _, m := range tm.Mementos {
				if m.Datetime.Location() != time.UTC || !m.HasRel("memento") {
					t.Fatalf("memento %+v", m)
				}
			}
			last := 0
			errs := unjoin(err)
			if len(errs) > 17 {
				t.Fatalf("%d errors listed, want at most 16 and a count", len(errs))
			}
			for i, e := range errs {
				if strings.HasSuffix(e.Error(), " more problems not listed") && i != len(errs)-1 {
					t.Fatalf("error %d of %d counts the problems not listed: %v", i, len(errs), err)
				}
				var se *weblink.SyntaxError
				if !errors.As(e, &se) {
					last = len(in) + 1 // only errors without an offset may follow
					continue
				}
				if se.Offset < 0 || se.Offset > len(in) || !utf8.ValidString(se.Msg) {
					t.Fatalf("problem %v at an offset outside the document of %d bytes", e, len(in))
				}
				if se.Offset < last {
					t.Fatalf("problem at %d after one at %d: not in document order: %v", se.Offset, last, err)
				}
				last = se.Offset
			}
		}
	})
}

// unjoin returns the errors of an errors.Join, or err alone.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

// inParsedForm reports whether l is in the form rule 16 promises to give
// back: lower-case relation types without whitespace, controls, DQUOTE or
// backslash; targets and anchors without the bytes rule 11 escapes; valid
// UTF-8 everywhere; hreflang, media and type without controls; languages
// well-formed or empty; Param names that are lower-case parmnames other
// than the link's own names.
func inParsedForm(l weblink.Link) bool {
	for _, s := range []string{l.Target, l.Anchor} {
		if !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || isControl(r) || strings.ContainsRune("\"<>\\^`{|}", r) }) {
			return false
		}
	}
	for _, rels := range [][]string{l.Rel, l.Rev} {
		for _, r := range rels {
			if r == "" || !utf8.ValidString(r) || strings.ContainsFunc(r, func(c rune) bool { return c <= ' ' || isControl(c) || c == '"' || c == '\\' || 'A' <= c && c <= 'Z' }) {
				return false
			}
		}
	}
	for _, s := range append([]string{l.Media, l.Type}, l.Hreflang...) {
		if !utf8.ValidString(s) || strings.ContainsFunc(s, isControl) {
			return false
		}
	}
	if !utf8.ValidString(l.Title) || !wellFormedOrEmpty(l.TitleLang) {
		return false
	}
	for _, p := range l.Params {
		if !utf8.ValidString(p.Value) || !wellFormedOrEmpty(p.Lang) || p.Name == "" || strings.ToLower(p.Name) != p.Name ||
			strings.ContainsFunc(p.Name, func(r rune) bool { return !strings.ContainsRune("abcdefghijklmnopqrstuvwxyz0123456789!#$&+-.^_`|~", r) }) {
			return false
		}
		switch p.Name {
		case "rel", "anchor", "rev", "hreflang", "media", "title", "type":
			return false
		}
	}
	return true
}

// wellFormedOrEmpty reports whether lang is empty or a language tag that an
// ext-value keeps.
func wellFormedOrEmpty(lang string) bool {
	if lang == "" {
		return true
	}
	v, err := weblink.ParseExtValue("UTF-8'" + lang + "'")
	return err == nil && v.Lang == lang
}
