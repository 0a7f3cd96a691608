package linkformat

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/weblinking/weblink"
)

// FuzzLinkStarts checks linkStarts differentially against weblink.Parse,
// whose grammar it follows to find the "<" of each link for the errors of
// ParseTimeMap (rule 21): as many starts as links, and at each start the
// link's target; asked for fewer, the first of them.
func FuzzLinkStarts(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.wlnk")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	for _, s := range []string{
		`<a>;x=a"b,<m>;rel=memento`,
		`<a>;title=", <m>;rel=memento", <m>`,
		`x, <a> junk, <m>`,
		`<a>;title="x\", <m>" , <m>`,
		"<a>;;;\t,\r\n<m>",
		`<a> ; x = "y" , <m> ; rel = memento`,
		`<a;b,c>;rel=original,<m>`,
		`<a>;rel=original;=x, <m>`,
		`<a>; rel="next", <b>; rel="next"; x`,
		`<a>;x="unclosed, <b>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		links, _ := weblink.Parse(s)
		starts := linkStarts(s, len(links)+1)
		if len(starts) != len(links) {
			t.Fatalf("%d starts, %d links", len(starts), len(links))
		}
		if len(links) > 0 {
			if first := linkStarts(s, len(links)/2); !slices.Equal(first, starts[:len(links)/2]) {
				t.Fatalf("the first %d starts %v, not those of all: %v", len(links)/2, first, starts)
			}
		}
		for i, at := range starts {
			if s[at] != '<' {
				t.Fatalf("start %d at %d is %q", i, at, s[at])
			}
			end := strings.IndexByte(s[at:], '>')
			if got := strings.Trim(s[at+1:at+end], " \t\r\n"); got != links[i].Target {
				t.Fatalf("link %d: target %q at %d, Parse's %q", i, got, at, links[i].Target)
			}
		}
	})
}
