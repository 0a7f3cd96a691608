package linkscan

import "github.com/weblinking/weblink/internal/ascii"

// StarNames returns the lower-case names of the params of a link that are
// written in the star form, name*=ext-value (RFC 8187), or nil when there
// are none: star returns a param's name and whether its own value needs
// that form. When one value of a name needs it, every value of that name
// is written in it: a receiver lets name* replace every plain name
// parameter of the link (RFC 8288 Appendix B.2 step 16), so a plain one
// beside it would be lost.
func StarNames[P any](params []P, star func(P) (name string, needs bool)) map[string]bool {
	var m map[string]bool
	for _, p := range params {
		if name, needs := star(p); needs {
			if m == nil {
				m = make(map[string]bool)
			}
			m[ascii.Lower(name)] = true
		}
	}
	return m
}

// OwnName reports whether the lower-case name is an attribute that a link
// has a field for (rel, anchor, rev, hreflang, media, title, type), which
// an extension parameter cannot stand for.
func OwnName(name string) bool {
	switch name {
	case "rel", "anchor", "rev", "hreflang", "media", "title", "type":
		return true
	}
	return false
}
