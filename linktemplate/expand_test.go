package linktemplate

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/memtest"
)

func TestExpandRules(t *testing.T) {
	vars := map[string]any{
		"s":      "a b/ü",
		"pct":    "50%25 off%",
		"greek":  "αβγ",
		"bad":    "\xffz",
		"int":    -7,
		"u8":     uint8(200),
		"f":      37.76,
		"big":    1e21,
		"list":   []string{"x", "", "y z"},
		"m":      map[string]string{"b": "2", "a": "1", "c": ""},
		"pairs":  [][2]string{{"b", "2"}, {"a", "1"}},
		"nil":    nil,
		"nolist": []string{},
		"nomap":  map[string]string{},
	}
	for _, tt := range []struct {
		rule       int
		tmpl, want string
	}{
		{8, "café/{s}", "caf%C3%A9/a%20b%2F%C3%BC"},
		{8, "a b%zz%41^|\\`<>\"", "a%20b%25zz%41%5E%7C%5C%60%3C%3E%22"},
		{8, "'!$&()*+,;=:@/?#[]~", "'!$&()*+,;=:@/?#[]~"},
		{9, "{s}", "a%20b%2F%C3%BC"},
		{9, "{+s}", "a%20b/%C3%BC"},
		{9, "{pct}", "50%2525%20off%25"},
		{9, "{+pct}", "50%25%20off%25"},
		{9, "{#pct}", "#50%25%20off%25"},
		{9, "{bad}", "%FFz"},
		{10, "{int},{u8},{f},{big}", "-7,200,37.76,1000000000000000000000"},
		{10, "{m}", "a,1,b,2,c,"},
		{10, "{?m*}", "?a=1&b=2&c="},
		{10, "{;m*}", ";a=1;b=2;c"},
		{10, "{pairs}", "b,2,a,1"},
		{10, "{&pairs*}", "&b=2&a=1"},
		{10, "{;list*}", ";list=x;list;list=y%20z"},
		{10, "{?list}", "?list=x,,y%20z"},
		{10, "x{?nil,nolist,nomap,missing}y", "xy"},
		{10, "{/nil,s}", "/a%20b%2F%C3%BC"},
		{11, "{greek:2}", "%CE%B1%CE%B2"},
		{11, "{bad:1}", "%FF"},
		{11, "{s:9999}", "a%20b%2F%C3%BC"},
	} {
		got, err := Template{Template: tt.tmpl}.Expand(vars)
		if err != nil || got.Target != tt.want {
			t.Errorf("rule %d: %q expands to %q, %v; want %q", tt.rule, tt.tmpl, got.Target, err, tt.want)
		}
	}
}

func TestExpandErrors(t *testing.T) {
	vars := map[string]any{"list": []string{"a"}, "m": map[string]string{"k": "v"}, "x": "1", "ch": make(chan int), "ints": []int{1}}
	for _, tt := range []struct {
		rule   int
		tmpl   string
		offset int
		msg    string
	}{
		{7, "{x", 0, "not closed"},
		{7, "a}", 1, `"}" outside`},
		{7, "{=x}", 1, "reserved for future"},
		{7, "{|x}", 1, "reserved for future"},
		{7, "{x,}", 3, "want a variable name"},
		{7, "{}", 1, "want a variable name"},
		{7, "{x.}", 2, `"." in a variable name`},
		{7, "{x y}", 2, "unexpected"},
		{7, "{x:0}", 3, "1 to 9999"},
		{7, "{x:10000}", 3, "1 to 9999"},
		{7, "{x:9999999}", 3, "1 to 9999"},
		{7, "{x:}", 3, "1 to 9999"},
		// The number as written, cut as templates are; before, its first
		// digit only: found "1".
		{7, "{x:10000}", 3, `found "10000"`},
		{7, "{x:0123}", 3, `found "0123"`},
		{7, "{x:" + strings.Repeat("9", 1000) + "}", 3, `found "` + strings.Repeat("9", 64) + `"...`},
		{7, "{x:}", 3, `found "}"`},
		{7, "{x:\x1b}", 3, "found byte 0x1b"},
		{7, "{x*:2}", 3, "unexpected"},
		{7, "{" + strings.Repeat("{", 1000), 1, "want a variable name"},
		{11, "a{list:1}", 1, "prefix modifier"},
		{11, "{+m:2}", 0, "prefix modifier"},
	} {
		_, err := Template{Template: tt.tmpl}.Expand(vars)
		var te *TemplateError
		if !errors.As(err, &te) || te.Offset != tt.offset || te.Template != tt.tmpl || !strings.Contains(te.Msg, tt.msg) {
			t.Errorf("rule %d: %.20q: error %v; want a *TemplateError at offset %d saying %q", tt.rule, tt.tmpl, err, tt.offset, tt.msg)
		}
	}
	for _, tmpl := range []string{"{ch}", "{ints}"} {
		_, err := Template{Template: tmpl}.Expand(vars)
		if err == nil || !strings.Contains(err.Error(), tmpl[1:len(tmpl)-1]) {
			t.Errorf("rule 10: %q: error %v; want one naming the variable", tmpl, err)
		}
	}
	// The anchor is a template too, and refused like the target.
	if _, err := (Template{Template: "/a", Anchor: "{x"}).Expand(vars); err == nil {
		t.Error("rule 7: an anchor that does not parse expands without error")
	}
}

func TestExpandLink(t *testing.T) {
	tm := Template{
		Template: "/books/{book_id}/author",
		Rel:      []string{"author"},
		Anchor:   "#{book_id}",
		VarBase:  "https://example.org/vars/",
		Params: []weblink.Param{
			{Name: "title", Value: "Björn"}, {Name: "type", Value: "text/html"}, {Name: "media", Value: "print"},
			{Name: "hreflang", Value: "sv"}, {Name: "rev", Value: "Made Up"}, {Name: "crossorigin", Value: ""},
		},
	}
	got, err := tm.Expand(map[string]any{"book_id": "42"})
	want := weblink.Link{
		Target: "/books/42/author", Rel: []string{"author"}, Anchor: "#42", Rev: []string{"made", "up"},
		Hreflang: []string{"sv"}, Media: "print", Title: "Björn", Type: "text/html",
		Params: []weblink.Param{{Name: "crossorigin", Value: ""}},
	}
	if err != nil || !cmp.Equal(got, want) {
		t.Errorf("Expand = %+v, %v; want %+v", got, err, want)
	}
	got.Rel[0] = "changed"
	if tm.Rel[0] != "author" {
		t.Error("the link's Rel shares memory with the template's")
	}
}

func TestVariables(t *testing.T) {
	for _, tt := range []struct {
		t    Template
		want []string
	}{
		{Template{Template: "/x"}, nil},
		{Template{Template: "/{a}{?b,a,c.d}{/Some%20Thing*}", Anchor: "#{e}{b}"}, []string{"a", "b", "c.d", "Some%20Thing", "e"}},
		{Template{Template: "/widgets/{widget_id}", VarBase: "https://example.org/vars/"}, []string{"https://example.org/vars/widget_id"}},
		{Template{Template: "/widgets/{widget_id}", VarBase: "/vars/"}, []string{"/vars/widget_id"}},
		{Template{Template: "/w/{a}{?b}", VarBase: "https://example.org/vars"}, []string{"https://example.org/a", "https://example.org/b"}},
		{Template{Template: "{a}{b", Anchor: "{c}"}, []string{"a", "c"}},
		{Template{Template: "{a}}{b}"}, []string{"a"}},
		{Template{Template: "{a}", VarBase: "%zz"}, []string{"a"}},
		// A relative var-base gives the reference that, resolved against
		// the link's context, gives what resolving var-base against it and
		// then the name would (RFC 9652 §2.1): nothing is made absolute
		// from the root, and dot segments are left to that resolution.
		{Template{Template: "{id}", VarBase: "vars/"}, []string{"vars/id"}},
		{Template{Template: "{id}", VarBase: "../vars/"}, []string{"../vars/id"}},
		{Template{Template: "{id}", VarBase: "?q"}, []string{"id"}},
		{Template{Template: "{id}", VarBase: "#f"}, []string{"id"}},
		{Template{Template: "{id}", VarBase: "//h.example"}, []string{"//h.example/id"}},
		{Template{Template: "{id}", VarBase: "/vars/?q#f"}, []string{"/vars/id"}},
		// An absolute var-base without authority (RFC 3986 §5.2.3: the
		// name replaces what follows the last "/", here all of the path).
		{Template{Template: "{id}", VarBase: "urn:example:vars"}, []string{"urn:id"}},
		{Template{Template: "{id}", VarBase: "tag:example.org,2024:vars/"}, []string{"tag:example.org,2024:vars/id"}},
		{Template{Template: "{id}", VarBase: "https://example.org/a/../vars/?q"}, []string{"https://example.org/vars/id"}},
		{Template{Template: "{id}", VarBase: "https://example.org"}, []string{"https://example.org/id"}},
		{Template{Template: "{id}", VarBase: "https:/vars/"}, []string{"https:/vars/id"}},
		{Template{Template: "{id}", VarBase: "file:///vars/"}, []string{"file:///vars/id"}},
	} {
		if got := tt.t.Variables(); !cmp.Equal(got, tt.want) {
			t.Errorf("rule 13: %+v.Variables() = %q; want %q", tt.t, got, tt.want)
		}
	}
}

// TestHostileExpand expands hostile templates and values: each is refused
// or gives a bounded result, and allocates little beyond its input.
func TestHostileExpand(t *testing.T) {
	million := make([]string, 1<<20)
	for i := range million {
		million[i] = "member"
	}
	long := strings.Repeat("ü", 1<<19) // 1 MiB
	for _, tt := range []struct {
		name    string
		tmpl    string
		vars    map[string]any
		tooLong bool  // the error wraps ErrTooLong; else it is a syntax error
		maxB    int64 // bytes allocated at most
	}{
		{"{ repeated", strings.Repeat("{", 1<<20), nil, false, 16 << 10},
		{"huge prefix modifier", "{var:9999999}", map[string]any{"var": "x"}, false, 16 << 10},
		{"explode of a 1M-member list", "{?list*}", map[string]any{"list": million}, true, 16 << 10},
		{"1M-member list", "{list}", map[string]any{"list": million}, true, 16 << 10},
		{"1 MiB value", "{+v}", map[string]any{"v": long}, true, 16 << 10},
		{"1 MiB value cut by a prefix", "{v:9999}", map[string]any{"v": long}, false, 80 << 10},
		{"100 000 expressions", strings.Repeat("{v}", 100000), map[string]any{"v": "abc"}, true, 16 << 10},
		{"1 MiB literal", strings.Repeat("é", 1<<19), nil, true, 16 << 10},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var link any
			var err error
			allocated := memtest.Allocated(func() { link, err = Template{Template: tt.tmpl}.Expand(tt.vars) })
			t.Logf("error %v; %d bytes allocated", err != nil, allocated)
			switch {
			case tt.name == "1 MiB value cut by a prefix":
				if err != nil {
					t.Errorf("error %v; want the first 9999 characters", err)
				}
			case err == nil:
				t.Errorf("expands to %.40v...; want an error", link)
			case errors.Is(err, ErrTooLong) != tt.tooLong:
				t.Errorf("error %v; ErrTooLong %v, want %v", err, errors.Is(err, ErrTooLong), tt.tooLong)
			}
			if int64(allocated) > tt.maxB {
				t.Errorf("allocated %d bytes; want at most %d", allocated, tt.maxB)
			}
		})
	}
}
