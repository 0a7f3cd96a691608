package weblink

import (
	"net/url"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRelAndHasRel(t *testing.T) {
	ls := Links{
		{Target: "a", Rel: []string{"prev"}},
		{Target: "b", Rel: []string{"first", "next"}},
		{Target: "c", Rel: []string{"next"}},
	}
	if l, ok := ls.Rel("NEXT"); !ok || l.Target != "b" {
		t.Errorf("Rel(NEXT) = %v, %v; want the first link with next", l, ok)
	}
	if _, ok := ls.Rel("last"); ok {
		t.Error("Rel(last) found a link")
	}
	if !ls[1].HasRel("First") || ls[1].HasRel("prev") {
		t.Error("HasRel wrong")
	}
	l := Link{Params: []Param{{Name: "as", Value: "font"}, {Name: "as", Value: "x"}}}
	if p, ok := l.Param("AS"); !ok || p.Value != "font" {
		t.Errorf("Param(AS) = %v, %v", p, ok)
	}
	if _, ok := l.Param("crossorigin"); ok {
		t.Error("Param(crossorigin) found one")
	}
}

func TestResolve(t *testing.T) {
	base, _ := url.Parse("http://a/b/c/d;p?q")
	in := Links{{Target: "../g", Anchor: "#frag", Rel: []string{"x"}}, {Target: "", Anchor: ""}, {Target: "%zz"}}
	got := in.Resolve(base)
	want := Links{{Target: "http://a/b/g", Anchor: "http://a/b/c/d;p?q#frag", Rel: []string{"x"}}, {Target: "http://a/b/c/d;p?q"}, {Target: "%zz"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Resolve (-want +got):\n%s", diff)
	}
	if in[0].Target != "../g" {
		t.Error("Resolve modified its receiver")
	}
	if got := in.Resolve(nil); got[0].Target != "../g" {
		t.Errorf("Resolve(nil) changed the target to %q", got[0].Target)
	}
	if got := Links(nil).Resolve(base); got != nil {
		t.Errorf("nil.Resolve = %v", got)
	}
}

func TestUnregistered(t *testing.T) {
	for _, tc := range []struct {
		rel  []string
		want []string
	}{
		{nil, nil},
		{[]string{}, nil},
		{[]string{"next"}, nil},
		{[]string{"Next", "PREV", "dns-prefetch"}, nil},
		{[]string{"https://example.com/rel/item", "tag:example.com,2024:rel", "urn:x:y"}, nil},
		{[]string{"nxt"}, []string{"nxt"}},
		{[]string{"next", "nxt", "self", "Prevv"}, []string{"nxt", "Prevv"}},
		{[]string{""}, []string{""}},
		{[]string{"example.com/rel"}, []string{"example.com/rel"}},
		{[]string{":rel", "1http://x", "/rel", "ht tp://x"}, []string{":rel", "1http://x", "/rel", "ht tp://x"}},
	} {
		got := Link{Target: "/", Rel: tc.rel}.Unregistered()
		if !slices.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("Link{Rel: %q}.Unregistered() = %#v, want %#v", tc.rel, got, tc.want)
		}
	}
}
