package linkscan

import "testing"

// TestStarNames checks that one value needing the star form puts its
// name, lower-cased, in the set, and that no such value gives nil.
func TestStarNames(t *testing.T) {
	type param struct {
		name  string
		needs bool
	}
	star := func(p param) (string, bool) { return p.name, p.needs }
	got := StarNames([]param{{"Foo", false}, {"bar", false}, {"FOO", true}, {"baz", true}}, star)
	if len(got) != 2 || !got["foo"] || !got["baz"] {
		t.Errorf("StarNames = %v, want foo and baz", got)
	}
	if got := StarNames([]param{{"a", false}}, star); got != nil {
		t.Errorf("StarNames of no star value = %v, want nil", got)
	}
}

// TestOwnName checks the names of the attributes a link has fields for.
func TestOwnName(t *testing.T) {
	for _, name := range []string{"rel", "anchor", "rev", "hreflang", "media", "title", "type"} {
		if !OwnName(name) {
			t.Errorf("OwnName(%q) = false", name)
		}
	}
	for _, name := range []string{"Rel", "title*", "as", "crossorigin", ""} {
		if OwnName(name) {
			t.Errorf("OwnName(%q) = true", name)
		}
	}
}
