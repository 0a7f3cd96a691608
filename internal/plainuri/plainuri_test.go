package plainuri

import (
	"strings"
	"testing"

	"github.com/weblinking/weblink/internal/ascii"
)

// The rules of Absolute and URL, and their differential tests against
// net/url over the resolution vectors, are in the weblink package's
// uri_test.go (TestPlainAbsolute, TestPlainURL, FuzzPlainAbsolute), and
// those of Path in the discover package's FuzzResolver.

// TestPath is the table of Path's rules.
func TestPath(t *testing.T) {
	for ref, want := range map[string]bool{
		"/": true, "/static/app.css": true, "/a?b=c": true, "/a#f": true, "/a!$&'()*+,;=:@~": true, "/%41": true,
		"": false, "a": false, "//h/x": false, "/a/./b": false, "/a/..": false, "/.": false, "/a#": false,
		"/a#b#c": false, "/a b": false, "/%zz": false, "/%4": false, "/\u00e4": false, "?x": false, "#f": false,
	} {
		if got := Path(ref); got != want {
			t.Errorf("Path(%q) = %v, want %v", ref, got, want)
		}
	}
}

// TestClassRun checks ascii.ClassRun on this package's table against a
// byte loop, at every offset of strings around the word size.
func TestClassRun(t *testing.T) {
	for _, fill := range []string{"a", ".", "/", "\x00", "\xff", "%"} {
		for n := range 20 {
			base := strings.Repeat(fill, n)
			for _, c := range []string{"", " ", "#", ":", "?", "\x80", "A"} {
				for at := 0; at <= n; at++ {
					s := base[:at] + c + base[at:]
					for i := 0; i <= len(s); i++ {
						for _, bit := range []uint8{hostChar, plainChar, pathChar} {
							want := i
							for want < len(s) && class[s[want]]&bit != 0 {
								want++
							}
							if got := ascii.ClassRun(&class, s, i, bit); got != want {
								t.Fatalf("ClassRun(%q, %d, %#x) = %d, want %d", s, i, bit, got, want)
							}
						}
					}
				}
			}
		}
	}
}
