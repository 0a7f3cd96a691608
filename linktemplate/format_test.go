package linktemplate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/weblinking/weblink"
)

func TestFormat(t *testing.T) {
	for _, tt := range []struct {
		name string
		ts   []Template
		want string
	}{
		{"none", nil, ""},
		{"rule 5: order and Strings", []Template{{Template: "/w/{id}", Rel: []string{"item", "next"}, Anchor: "#{id}", VarBase: "/vars/",
			Params: []weblink.Param{{Name: "type", Value: "text/html"}}}},
			`"/w/{id}";rel="item next";anchor="#{id}";var-base="/vars/";type="text/html"`},
		{"rule 5: non-ASCII as a Display String", []Template{{Template: "/author", Rel: []string{"author"},
			Params: []weblink.Param{{Name: "title", Value: "Björn Järnsida"}}}},
			`"/author";rel="author";title=%"Bj%c3%b6rn J%c3%a4rnsida"`},
		{"rule 5: non-ASCII with controls as a Display String", []Template{{Template: "/x",
			Params: []weblink.Param{{Name: "title", Value: "é\r\nb\"%"}}}},
			`"/x";title=%"%c3%a9%0d%0ab%22%25"`},
		{"rule 5: quotes and backslashes escaped", []Template{{Template: `/"\`, Params: []weblink.Param{{Name: "title", Value: `say "hi" \o/`}}}},
			`"/\"\\";title="say \"hi\" \\o/"`},
		{"rule 5: two templates", []Template{{Template: "/a"}, {Template: "/b", Rel: []string{"x"}}}, `"/a", "/b";rel="x"`},
	} {
		got, err := Format(tt.ts...)
		if err != nil || got != tt.want {
			t.Errorf("%s: Format = %q, %v; want %q", tt.name, got, err, tt.want)
			continue
		}
		back, err := Parse(got)
		if err != nil || !cmp.Equal(back, tt.ts) {
			t.Errorf("rule 6, %s: Parse(Format(ts)) = %v, %v; want %v", tt.name, back, err, tt.ts)
		}
	}
}

func TestFormatRefuses(t *testing.T) {
	for _, tt := range []struct {
		name string
		t    Template
		msg  string
	}{
		{"control in template", Template{Template: "/a\r\nSet-Cookie: x"}, "the template holds controls"},
		{"non-ASCII template", Template{Template: "/café"}, "the template holds controls or non-ASCII"},
		{"control in rel", Template{Template: "/a", Rel: []string{"x\ty"}}, "relation type"},
		{"empty rel", Template{Template: "/a", Rel: []string{""}}, "empty or holds a space; give each relation type its own Rel entry"},
		{"rel with space", Template{Template: "/a", Rel: []string{"a b"}}, "empty or holds a space; give each relation type its own Rel entry"},
		{"control in anchor", Template{Template: "/a", Anchor: "#\x00"}, "the anchor"},
		{"non-ASCII var-base", Template{Template: "/a", VarBase: "/vär/"}, "the var-base"},
		{"param name not a key", Template{Template: "/a", Params: []weblink.Param{{Name: "Title", Value: "x"}}}, "not a Structured Field key"},
		{"param named rel", Template{Template: "/a", Params: []weblink.Param{{Name: "rel", Value: "x"}}}, "own field, not in Params; set that field"},
		{"param twice", Template{Template: "/a", Params: []weblink.Param{{Name: "hreflang", Value: "en"}, {Name: "hreflang", Value: "de"}}}, "given twice"},
		{"param with Lang", Template{Template: "/a", Params: []weblink.Param{{Name: "title", Value: "x", Lang: "en"}}}, "Lang"},
		{"invalid UTF-8", Template{Template: "/a", Params: []weblink.Param{{Name: "title", Value: "\xff"}}}, "not valid UTF-8"},
		// Only non-ASCII may be a Display String (issue #37 item 3: these
		// were written as Display Strings before).
		{"CR LF in an ASCII param", Template{Template: "/a", Params: []weblink.Param{{Name: "title", Value: "a\r\nb"}}}, "parameter title holds controls"},
		{"TAB in an ASCII param", Template{Template: "/a", Params: []weblink.Param{{Name: "title", Value: "a\tb"}}}, "Display String only for non-ASCII"},
		{"NUL in an ASCII param", Template{Template: "/a", Params: []weblink.Param{{Name: "x", Value: "\x00"}}}, "parameter x holds controls"},
		{"DEL in an ASCII param", Template{Template: "/a", Params: []weblink.Param{{Name: "x", Value: "\x7f"}}}, "parameter x holds controls"},
	} {
		got, err := Format(Template{Template: "/ok"}, tt.t)
		if err == nil || got != "" || !strings.Contains(err.Error(), tt.msg) || !strings.Contains(err.Error(), "template 2") {
			t.Errorf("rule 5, %s: Format = %q, %v; want \"\" and an error about template 2 saying %q", tt.name, got, err, tt.msg)
		}
	}
}
