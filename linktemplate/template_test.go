package linktemplate

import (
	"net/url"
	"testing"
)

// TestVariablesRelativeVarBase checks rule 13 against RFC 9652 §2.1 for
// relative var-bases: a name Variables gives, resolved against the link's
// context, is the name resolved against the var-base resolved against the
// context.
func TestVariablesRelativeVarBase(t *testing.T) {
	ctx, _ := url.Parse("https://example.org/a/b/c?q#f")
	for _, vb := range []string{"vars/", "../v/", "./v/", "?q", "#f", "//h.example", "//h.example/p/", "/abs/", "a/b/../c/", "..", ".", "../..", "x", "x/y", ";p/", "%7Eu/"} {
		got := Template{Template: "{id}", VarBase: vb}.Variables()[0]
		ref, err := url.Parse(got)
		if err != nil {
			t.Errorf("var-base %q: name %q does not parse: %v", vb, got, err)
			continue
		}
		base, _ := url.Parse(vb)
		id, _ := url.Parse("id")
		want := ctx.ResolveReference(base).ResolveReference(id).String()
		if r := ctx.ResolveReference(ref).String(); r != want {
			t.Errorf("rule 13: var-base %q: Variables gives %q, which resolves to %s; want %s", vb, got, r, want)
		}
	}
}
