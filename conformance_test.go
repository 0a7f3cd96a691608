package weblink

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The conformance drivers run the test vectors that other projects published
// for Link header parsing and RFC 3986 reference resolution. Each file in
// testdata/conformance keeps the source's cases (with their provenance) and
// adds a "want" object: the result weblink must give by the numbered rules
// of the package documentation. Where the source expects something else, a
// "reason" says which rule decides.

// testdataFile is one file of testdata: its path relative to testdata, and
// its contents.
type testdataFile struct {
	name string
	data []byte
}

// readTestdata reads the files of testdata that match pattern, a
// filepath.Match pattern relative to testdata ("conformance/link-*.json"),
// in name order. It is the one loader of the test vectors: it fails the test
// when no file matches, since a test with no vectors to run must not pass.
func readTestdata(tb testing.TB, pattern string) []testdataFile {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", filepath.FromSlash(pattern)))
	if err != nil {
		tb.Fatal(err)
	}
	if len(paths) == 0 {
		tb.Fatalf("no file in testdata matches %s", pattern)
	}
	files := make([]testdataFile, len(paths))
	for i, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		rel, _ := filepath.Rel("testdata", path)
		files[i] = testdataFile{name: filepath.ToSlash(rel), data: data}
	}
	return files
}

// readTestdataFile returns the contents of testdata/name.
func readTestdataFile(tb testing.TB, name string) []byte {
	tb.Helper()
	return readTestdata(tb, name)[0].data
}

// loadCases reads the JSON array of cases in testdata/conformance/file and
// the name of each. Every case must carry weblink's expectation, "want":
// none is skipped.
func loadCases[T any](t *testing.T, file string) (names []string, cases []T) {
	t.Helper()
	data := readTestdataFile(t, "conformance/"+file)
	var heads []struct {
		Name string          `json:"name"`
		Want json.RawMessage `json:"want"`
	}
	if err := json.Unmarshal(data, &heads); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", file)
	}
	for _, h := range heads {
		if h.Name == "" || len(h.Want) == 0 {
			t.Fatalf("%s: case %q has no name or no project expectation (want)", file, h.Name)
		}
		names = append(names, h.Name)
	}
	return names, cases
}

// runFiles runs every case of each file as a subtest and logs how many of
// them passed, so that the pass counts of every file are in the test log.
func runFiles[T any](t *testing.T, run func(*testing.T, T), files ...string) {
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			names, cases := loadCases[T](t, file)
			passed := 0
			for i, c := range cases {
				if t.Run(names[i], func(t *testing.T) { run(t, c) }) {
					passed++
				}
			}
			t.Logf("%s: %d of %d cases pass", file, passed, len(cases))
		})
	}
}

// TestConformance runs the reference resolution vectors through
// Links.Resolve and the Link header vectors through Parse, ParseHeader and
// the formatter.
func TestConformance(t *testing.T) {
	runFiles(t, testResolveCase,
		"resolve-rfc3986-section5.4.json",
		"resolve-rfc3986-remove_dot_segments.json",
		"resolve-go-net-url.json",
	)
	runFiles(t, testLinkCase,
		"link-node-http-link-header.json",
		"link-chromium-link_header_util.json",
		"link-misc-libraries.json",
	)
}

// resolveCase is a reference resolution vector: ref resolved against base.
type resolveCase struct {
	Base string `json:"base"`
	Ref  string `json:"ref"`
	Want struct {
		Target string `json:"target"`
		Anchor string `json:"anchor"`
	} `json:"want"`
}

func testResolveCase(t *testing.T, c resolveCase) {
	base, err := url.Parse(c.Base)
	if err != nil {
		t.Fatalf("base %q: %v", c.Base, err)
	}
	in := Links{{Target: c.Ref, Anchor: c.Ref}}
	got := in.Resolve(base)
	if len(got) != 1 {
		t.Fatalf("Resolve returned %d links, want 1", len(got))
	}
	if got[0].Target != c.Want.Target {
		t.Errorf("Target of %q against %q = %q, want %q", c.Ref, c.Base, got[0].Target, c.Want.Target)
	}
	if got[0].Anchor != c.Want.Anchor {
		t.Errorf("Anchor of %q against %q = %q, want %q", c.Ref, c.Base, got[0].Anchor, c.Want.Anchor)
	}
	if in[0].Target != c.Ref || in[0].Anchor != c.Ref {
		t.Errorf("Resolve modified its receiver: %+v", in[0])
	}
}

// wantLink is a Link in the test data. A link with "check" is a partial
// expectation: only the listed fields are compared (the source checked only
// those); an empty list checks only that the link is there. Without "check"
// the whole Link is compared.
type wantLink struct {
	Target    string    `json:"target"`
	Rel       []string  `json:"rel"`
	Anchor    string    `json:"anchor"`
	Rev       []string  `json:"rev"`
	Hreflang  []string  `json:"hreflang"`
	Media     string    `json:"media"`
	Title     string    `json:"title"`
	TitleLang string    `json:"title_lang"`
	Type      string    `json:"type"`
	Params    []Param   `json:"params"`
	Check     *[]string `json:"check"`
}

func (w wantLink) link() Link {
	return Link{
		Target: w.Target, Rel: w.Rel, Anchor: w.Anchor, Rev: w.Rev, Hreflang: w.Hreflang,
		Media: w.Media, Title: w.Title, TitleLang: w.TitleLang, Type: w.Type, Params: w.Params,
	}
}

// linkFields names the fields a partial expectation can check. "param:NAME"
// checks the values of the extension parameters named NAME.
var linkFields = map[string]func(Link) any{
	"target":     func(l Link) any { return l.Target },
	"rel":        func(l Link) any { return l.Rel },
	"anchor":     func(l Link) any { return l.Anchor },
	"rev":        func(l Link) any { return l.Rev },
	"hreflang":   func(l Link) any { return l.Hreflang },
	"media":      func(l Link) any { return l.Media },
	"title":      func(l Link) any { return l.Title },
	"title_lang": func(l Link) any { return l.TitleLang },
	"type":       func(l Link) any { return l.Type },
	"params":     func(l Link) any { return l.Params },
}

func linkField(t *testing.T, name string) func(Link) any {
	t.Helper()
	if f, ok := linkFields[name]; ok {
		return f
	}
	if param, ok := strings.CutPrefix(name, "param:"); ok {
		return func(l Link) any {
			var values []string
			for _, p := range l.Params {
				if p.Name == param {
					values = append(values, p.Value)
				}
			}
			return values
		}
	}
	t.Fatalf("test data checks unknown field %q", name)
	return nil
}

// compareLinks reports every difference between the links Parse returned and
// the expected ones.
func compareLinks(t *testing.T, got Links, want []wantLink) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("got %d links, want %d:\n%#v", len(got), len(want), got)
		return
	}
	for i, w := range want {
		if w.Check == nil {
			if diff := cmp.Diff(w.link(), got[i], cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("link %d (-want +got):\n%s", i, diff)
			}
			continue
		}
		for _, name := range *w.Check {
			f := linkField(t, name)
			if diff := cmp.Diff(f(w.link()), f(got[i]), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("link %d %s (-want +got):\n%s", i, name, diff)
			}
		}
	}
}

// countSyntaxErrors counts the *SyntaxError values in the tree of err.
func countSyntaxErrors(err error) int {
	switch e := err.(type) {
	case nil:
		return 0
	case *SyntaxError:
		return 1
	case interface{ Unwrap() []error }:
		n := 0
		for _, err := range e.Unwrap() {
			n += countSyntaxErrors(err)
		}
		return n
	default:
		return countSyntaxErrors(errors.Unwrap(err))
	}
}

// linkCase is a Link header vector. The source's own expectation stays in
// the case as written ("expect", "expect_format", ...); the driver reads
// "want", weblink's expectation under the rules of the package documentation.
type linkCase struct {
	Header      *string  `json:"header"`
	HeaderLines []string `json:"header_lines"`
	Want        struct {
		Links       []wantLink `json:"links"`         // what Parse returns, in order
		Error       bool       `json:"error"`         // whether Parse reports a problem
		Problems    *int       `json:"problems"`      // how many *SyntaxError it reports
		Split       []string   `json:"split"`         // the list elements: links plus dropped ones
		Format      *string    `json:"format"`        // Links.String of the result, or Link.String of Input
		Input       *wantLink  `json:"input"`         // a Link to format instead of a header to parse
		HasRel      string     `json:"has_rel"`       // a relation type the first link has, written in another case
		SameAsLines []string   `json:"same_as_lines"` // field lines that ParseHeader reads as the same links
		Valid       *bool      `json:"valid"`         // whether Validate accepts each parsed link
	} `json:"want"`
}

func testLinkCase(t *testing.T, c linkCase) {
	want := c.Want
	if want.Input != nil {
		if want.Format == nil {
			t.Fatal("format case has no format")
		}
		l := want.Input.link()
		if got := l.String(); got != *want.Format {
			t.Errorf("Link.String() =\n%s\nwant\n%s", got, *want.Format)
		}
		if got := (Links{l, l}).String(); got != *want.Format+", "+*want.Format {
			t.Errorf("Links.String() of two copies = %s", got)
		}
		return
	}

	var got Links
	var err error
	switch {
	case c.HeaderLines != nil:
		got, err = ParseHeader(http.Header{"Link": c.HeaderLines})
	case c.Header != nil:
		got, err = Parse(*c.Header)
	default:
		t.Fatal("case has neither header nor header_lines")
	}

	if (err != nil) != want.Error {
		t.Errorf("error = %v, want error: %t", err, want.Error)
	}
	if err != nil {
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("error %v holds no *SyntaxError", err)
		} else if c.Header != nil && (se.Offset < 0 || se.Offset > len(*c.Header)) {
			t.Errorf("SyntaxError.Offset = %d, outside the field value of %d bytes", se.Offset, len(*c.Header))
		}
	}
	problems := countSyntaxErrors(err)
	if want.Problems != nil && problems != *want.Problems {
		t.Errorf("%d problems reported, want %d: %v", problems, *want.Problems, err)
	}
	if want.Split != nil && len(got)+problems != len(want.Split) {
		t.Errorf("%d links + %d dropped link-values, want the %d elements %q", len(got), problems, len(want.Split), want.Split)
	}
	compareLinks(t, got, want.Links)

	if want.Format != nil {
		if s := got.String(); s != *want.Format {
			t.Errorf("Links.String() =\n%s\nwant\n%s", s, *want.Format)
		}
	}
	if want.HasRel != "" {
		if len(got) == 0 || !got[0].HasRel(want.HasRel) {
			t.Errorf("first link does not have rel %q: %#v", want.HasRel, got)
		}
		if _, ok := got.Rel(want.HasRel); !ok {
			t.Errorf("Links.Rel(%q) found nothing", want.HasRel)
		}
	}
	if want.SameAsLines != nil {
		split, err := ParseHeader(http.Header{"Link": want.SameAsLines})
		if err != nil {
			t.Errorf("ParseHeader(%q): %v", want.SameAsLines, err)
		}
		if diff := cmp.Diff(got, split); diff != "" {
			t.Errorf("one field line and several differ (-one +several):\n%s", diff)
		}
	}
	if want.Valid != nil {
		for i, l := range got {
			if err := l.Validate(); (err == nil) != *want.Valid {
				t.Errorf("link %d: Validate() = %v, want valid: %t", i, err, *want.Valid)
			}
		}
	}
}
