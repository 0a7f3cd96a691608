// Package linksize estimates how many bytes a link-value takes once
// written, so that the two formatters (package weblink's Link.String and
// linkformat.Format) size their output once.
package linksize

// Link has the fields of weblink.Link, which this package cannot name
// (package weblink imports it): a *weblink.Link converts to a
// *Link[weblink.Param]. A field added to weblink.Link stops that
// conversion from compiling until it is added here, and counted by Hint.
type Link[P Param] struct {
	Target    string
	Rel       []string
	Anchor    string
	Rev       []string
	Hreflang  []string
	Media     string
	Title     string
	TitleLang string
	Type      string
	Params    []P
}

// Param is weblink.Param: any type with its fields.
type Param interface {
	~struct{ Name, Value, Lang string }
}

// Hint returns about how many bytes a formatter writes for l: the bytes of
// its strings, one more for each relation type (the space between them),
// 12 for each hreflang parameter, perParam for the punctuation of each
// extension parameter, and fixed for the rest (the brackets, and the names
// and quotes of rel, anchor, title and type).
func Hint[P Param](l *Link[P], fixed, perParam int) int {
	n := len(l.Target) + len(l.Anchor) + len(l.Media) + len(l.Title) + len(l.Type) + fixed
	for _, r := range l.Rel {
		n += len(r) + 1
	}
	for _, r := range l.Rev {
		n += len(r) + 1
	}
	for _, h := range l.Hreflang {
		n += len(h) + 12
	}
	for _, p := range l.Params {
		p := struct{ Name, Value, Lang string }(p)
		n += len(p.Name) + len(p.Value) + perParam
	}
	return n
}
