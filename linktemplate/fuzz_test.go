package linktemplate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzParse checks that Parse does not panic and that whatever it accepts
// goes through Format and back unchanged (rule 6).
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`"/{username}"; rel="item"`,
		`"/books/{book_id}/author"; rel="author"; anchor="#{book_id}"`,
		`"/widgets/{widget_id}"; rel="https://example.org/rel/widget"; var-base="https://example.org/vars/"`,
		`"/author"; rel="author"; title=%"Bj%c3%b6rn J%c3%a4rnsida"`,
		`"/x"; rel="A  b"; rel="c"; crossorigin; n=-1.5; t=tok; b=:aGk=:; d=@1`,
		`"/a", ("/b"), %"/c"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ts, err := Parse(s)
		if err != nil {
			if ts != nil {
				t.Fatalf("Parse(%q) returned templates with error %v", s, err)
			}
			return
		}
		out, err := Format(ts...)
		if err != nil {
			t.Fatalf("Format of Parse(%q) = %+v: %v", s, ts, err)
		}
		back, err := Parse(out)
		if err != nil || !cmp.Equal(back, ts) {
			t.Fatalf("Parse(Format(Parse(%q))) = %+v, %v; want %+v (formatted %q)", s, back, err, ts, out)
		}
	})
}

// FuzzExpand checks that Expand does not panic, writes at most
// MaxExpansion bytes, and writes only characters a URI may hold (rules 8,
// 9 and 12), for any template and values.
func FuzzExpand(f *testing.F) {
	for _, tc := range [][2]string{
		{"{var}", "value"},
		{"{+path:6}/here{?x,list*}{&keys*}", "/foo/bar"},
		{"café/{#var,list}{;keys}", "dr\xc3\xbccken 50%25"},
		{"{/list*}{.keys}{var:2}", "\xff%"},
		{"{var:9999}{var}{var}{var}", "a long value"},
		{"{{{{", ""},
	} {
		f.Add(tc[0], tc[1])
	}
	f.Fuzz(func(t *testing.T, tmpl, val string) {
		vars := map[string]any{
			"var":  val,
			"path": val,
			"x":    1.5,
			"list": []string{val, "", val},
			"keys": map[string]string{val: val, "k": ""},
		}
		l, err := Template{Template: tmpl, Anchor: tmpl}.Expand(vars)
		if err != nil {
			return
		}
		for _, s := range []string{l.Target, l.Anchor} {
			if len(s) > MaxExpansion {
				t.Fatalf("expansion of %q is %d bytes, more than MaxExpansion", tmpl, len(s))
			}
			for i := 0; i < len(s); i++ {
				if classes[s[i]] == 0 && s[i] != '%' {
					t.Fatalf("expansion of %q holds %q, which a URI cannot", tmpl, s[i])
				}
			}
		}
	})
}
