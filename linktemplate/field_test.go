package linktemplate

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/memtest"
)

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		rule  int
		name  string
		field string
		want  []Template
	}{
		{1, "empty", "", nil},
		{1, "spaces", "   ", nil},
		{1, "RFC 9652 §2 example", `"/{username}"; rel="item"`, []Template{{Template: "/{username}", Rel: []string{"item"}}}},
		{1, "anchor template", `"/books/{book_id}/author"; rel="author"; anchor="#{book_id}"`,
			[]Template{{Template: "/books/{book_id}/author", Rel: []string{"author"}, Anchor: "#{book_id}"}}},
		{1, "var-base", `"/widgets/{widget_id}"; rel="https://example.org/rel/widget"; var-base="https://example.org/vars/"`,
			[]Template{{Template: "/widgets/{widget_id}", Rel: []string{"https://example.org/rel/widget"}, VarBase: "https://example.org/vars/"}}},
		{1, "two members", `"/a{?x}";rel="next", "/b";rel="prev"`,
			[]Template{{Template: "/a{?x}", Rel: []string{"next"}}, {Template: "/b", Rel: []string{"prev"}}}},
		{3, "last rel wins", `"/x"; rel="first"; rel="second"`, []Template{{Template: "/x", Rel: []string{"second"}}}},
		{3, "last param wins, first place", `"/x"; title="a"; type="t"; title="b"`,
			[]Template{{Template: "/x", Params: []weblink.Param{{Name: "title", Value: "b"}, {Name: "type", Value: "t"}}}}},
		{4, "rel split and lower-cased", `"/x"; rel="Next  Item"`, []Template{{Template: "/x", Rel: []string{"next", "item"}}}},
		{4, "Display String decoded", `"/author"; rel="author"; title=%"Bj%c3%b6rn J%c3%a4rnsida"`,
			[]Template{{Template: "/author", Rel: []string{"author"}, Params: []weblink.Param{{Name: "title", Value: "Björn Järnsida"}}}}},
		{4, "Display String with controls and non-ASCII decoded", `"/x"; title=%"caf%c3%a9%0a"`,
			[]Template{{Template: "/x", Params: []weblink.Param{{Name: "title", Value: "café\n"}}}}},
	} {
		got, err := Parse(tt.field)
		if err != nil {
			t.Errorf("rule %d, %s: Parse(%q): %v", tt.rule, tt.name, tt.field, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("rule %d, %s: Parse(%q) (-want +got):\n%s", tt.rule, tt.name, tt.field, diff)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tt := range []struct {
		name   string
		field  string
		offset int
		member int
		msg    string
	}{
		{"not a List", `"/x"; rel="a" garbage`, 14, 0, "Structured Field"},
		{"unterminated String", `"/x`, 3, 0, "Structured Field"},
		{"trailing comma", `"/x",`, 5, 0, "Structured Field"},
		{"member is a Token", `"/a", b`, 6, 2, "a Token, not a String"},
		{"member is a Display String", `"/a", %"/b"`, 6, 2, "a Display String"},
		{"member is an Inner List", `("/a" "/b")`, 0, 1, "Inner List"},
		{"member is an Integer", `"/a, \"b\"", 7`, 13, 2, "an Integer"},
		{"rel is a Token", `"/a"; rel=next`, 6, 1, "rel parameter is a Token"},
		{"anchor is a Display String", `"/a"; rel="x", "/b"; anchor=%"#x"`, 21, 2, "anchor parameter is a Display String"},
		{"var-base is an Integer", `"/a"; var-base=1`, 6, 1, "var-base parameter is an Integer"},
		{"rel is a Boolean", `"/a"; rel`, 6, 1, "rel parameter is a Boolean"},
		// Target attributes that are not Strings (issue #37 item 3; kept
		// as text before), at the last occurrence of the parameter, the
		// one that counts (rule 3).
		{"target attribute is a Boolean", `"/a"; rel="x", "/b"; rel="y"; crossorigin`, 30, 2, "crossorigin parameter is a Boolean, not a String"},
		{"target attribute is false", `"/a"; f=?0`, 6, 1, "f parameter is a Boolean"},
		{"target attribute is an Integer", `"/a"; foo="x";foo=1`, 14, 1, "foo parameter is an Integer"},
		{"target attribute is a Decimal", `"/a"; d=1.5`, 6, 1, "d parameter is a Decimal"},
		{"target attribute is a Byte Sequence", `"/a"; foo=:aGk=:`, 6, 1, "foo parameter is a Byte Sequence"},
		{"target attribute is a Token", `"/a"; rel="alternate"; type=text/html`, 23, 1, "type parameter is a Token"},
		{"target attribute is a Date", `"/a"; t=@1700000000`, 6, 1, "t parameter is a Date"},
		{"name that another key starts with", `"/a"; types="x"; type=t`, 17, 1, "type parameter is a Token"},
		{"name inside a String is not a parameter", `"/a; x=1"; title=";x"; x=1`, 23, 1, "x parameter is an Integer"},
		{"ASCII Display String", `"/a"; title=%"plain"`, 6, 1, "title parameter is a Display String holding only ASCII"},
		{"ASCII Display String with a control", `"/a"; title=%"a%0ab"`, 6, 1, "title parameter is a Display String holding only ASCII"},
		{"Display String not UTF-8", `"/a", "/b"; title=%"ok", "/c"; title=%"caf%e9"`, 37, 0, "UTF-8"},
	} {
		got, err := Parse(tt.field)
		if got != nil {
			t.Errorf("rule 2, %s: Parse(%q) = %v; want no templates", tt.name, tt.field, got)
		}
		var se *SyntaxError
		if !errors.As(err, &se) || !errors.Is(err, weblink.ErrSyntax) {
			t.Errorf("rule 2, %s: Parse(%q) error %v; want a *SyntaxError", tt.name, tt.field, err)
			continue
		}
		if se.Offset != tt.offset || se.Member != tt.member || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("rule 2, %s: Parse(%q) error at offset %d, member %d: %q; want offset %d, member %d, %q",
				tt.name, tt.field, se.Offset, se.Member, se.Msg, tt.offset, tt.member, tt.msg)
		}
	}
}

func TestParseHeader(t *testing.T) {
	h := http.Header{}
	if got, err := ParseHeader(h); got != nil || err != nil {
		t.Errorf("rule 1: ParseHeader of no field = %v, %v; want nil, nil", got, err)
	}
	h.Add("Link-Template", `"/a"; rel="x"`)
	h.Add("Link-Template", `"/b{?q}"; rel="search"`)
	got, err := ParseHeader(h)
	want := []Template{{Template: "/a", Rel: []string{"x"}}, {Template: "/b{?q}", Rel: []string{"search"}}}
	if err != nil || !cmp.Equal(got, want) {
		t.Errorf("rule 1: ParseHeader of two lines = %v, %v; want %v", got, err, want)
	}
	// A line that breaks RFC 9651 breaks the whole field: lines combine.
	h.Add("Link-Template", `"/c`)
	got, err = ParseHeader(h)
	var se *SyntaxError
	if got != nil || !errors.As(err, &se) || se.Offset != len(`"/a"; rel="x", "/b{?q}"; rel="search", "/c`) {
		t.Errorf("rule 2: ParseHeader with a broken line = %v, %v; want nil and a *SyntaxError at the end of the combined value", got, err)
	}
}

// hostileFields are Link-Template field values a hostile server could send,
// each about n bytes.
var hostileFields = []struct {
	name  string
	build func(n int) string
}{
	{"one long template", func(n int) string { return `"` + strings.Repeat("/{a}", n/4) + `"; rel="x"` }},
	{"many members", func(n int) string { return strings.TrimSuffix(strings.Repeat(`"/{a}";rel="x", `, n/16), ", ") }},
	{"many parameters", func(n int) string { return `"/x"` + strings.Repeat(`;p="1"`, n/6) }},
	// Not Strings (rule 2): found, and the last one pointed at.
	{"Integer parameters, refused at the end", func(n int) string { return `"/x"` + strings.Repeat(";p=1", n/4) }},
	{"many distinct parameters", func(n int) string {
		var b strings.Builder
		b.WriteString(`"/x"`)
		for i := 0; b.Len() < n; i++ {
			b.WriteString(";p" + strconv.Itoa(i) + `="v"`)
		}
		return b.String()
	}},
	{"escapes", func(n int) string { return `"` + strings.Repeat(`\"\\`, n/4) + `"` }},
	{"display string", func(n int) string { return `"/x"; title=%"` + strings.Repeat("%c3%bc", n/6) + `"` }},
	{"broken at the end", func(n int) string { return strings.Repeat(`"/{a}", `, n/8) + `"` }},
	{"bad member at the end", func(n int) string { return strings.Repeat(`"/{a}", `, n/8) + `x` }},
}

// maxFieldBytesPerByte bounds what Parse allocates per byte of a hostile
// field value: measured at most 47 (many distinct parameters: httpsfv's
// map and names, then a 48-byte weblink.Param each).
const maxFieldBytesPerByte = 64

// TestHostileField parses each hostile field at 1 MiB (10 000 members and
// more for the member shapes) and checks that it is parsed or refused, and
// that it allocates at most maxFieldBytesPerByte bytes per input byte.
func TestHostileField(t *testing.T) {
	const n = 1 << 20
	for _, tc := range hostileFields {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.build(n)
			var ts []Template
			var err error
			perByte := float64(memtest.Allocated(func() { ts, err = Parse(in) })) / float64(len(in))
			t.Logf("%d bytes: %d templates, error %v; %.1f B/B", len(in), len(ts), err != nil, perByte)
			if (err == nil) == strings.Contains(tc.name, "at the end") {
				t.Errorf("Parse error %v", err)
			}
			if perByte > maxFieldBytesPerByte {
				t.Errorf("Parse allocated %.1f bytes per input byte; want at most %d", perByte, maxFieldBytesPerByte)
			}
		})
	}
}
