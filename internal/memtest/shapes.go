package memtest

import "strings"

// Shapes are inputs built to make the parser allocate much for little
// input: short link-values (a Link is 192 bytes), valueless parameters, and
// shapes where a count of "<" or of commas would guess the number of
// link-values wrong. Build returns about n bytes.
var Shapes = []struct {
	Name  string
	Build func(n int) string
}{
	{"empty link-values", func(n int) string { return strings.Repeat("<>,", n/3) }},
	{"valueless parameters", func(n int) string { return strings.Repeat("<a>;x,", n/6) }},
	{"short links then parameters", func(n int) string {
		return strings.Repeat("<>,", n/6) + "<a>" + strings.Repeat(";x", n/4)
	}},
	{"rel next", func(n int) string { return strings.Repeat(`<a>;rel=next,`, n/13) }},
	{"quote in unquoted values", func(n int) string { return strings.Repeat(`<a>;x=",`, n/8) }},
	{"commas and brackets in a quoted-string", func(n int) string { return `<a>; title="` + strings.Repeat(",<", n/2) + `"` }},
	{"link-values in a quoted-string", func(n int) string { return `<a>; title="` + strings.Repeat(",<>", n/3) + `"` }},
	{"commas and brackets in a target", func(n int) string { return "<a" + strings.Repeat(",<", n/2) + ">" }},
	{"open brackets", func(n int) string { return strings.Repeat("<", n) }},
	{"malformed link-values", func(n int) string { return strings.Repeat("x,", n/2) }},
	{"relation types", func(n int) string { return `<a>; rel="` + strings.Repeat("a ", n/2) + `"` }},
	{"empty parameters", func(n int) string { return "<a>" + strings.Repeat(";", n) }},
	// One link with many parameters: room made for two a link, then
	// grown by append, would cost five times the Params (issue #27
	// review).
	{"valueless parameters of one link", func(n int) string { return "<a>" + strings.Repeat(";x", n/2) }},
	{"star parameters of one link", func(n int) string { return "<a>" + strings.Repeat(";x*=UTF-8''y", n/12) }},
	// Decoded into the text of the parse, sized once from the "*" that
	// follow.
	{"escaped star parameters", func(n int) string { return strings.Repeat("<a>;x*=UTF-8''%41%42;title*=UTF-8''%43,", n/37) }},
	{"quoted-pairs", func(n int) string { return `<a>; title="` + strings.Repeat(`x\"`, n/3) + `"` }},
	{"bad star parameters", func(n int) string { return strings.Repeat("<a>;x*=b,", n/9) }},
	{"anchored next links", func(n int) string { return strings.Repeat(`<a>;rel=next;anchor="#x",`, n/25) }},
	// Elements after the last link that are dropped: a parse that sized
	// its links again at each would take quadratic time (issue #16
	// review).
	{"malformed link-values after a link", func(n int) string { return "<a>," + strings.Repeat("x,", n/2) }},
	{"empty elements after links", func(n int) string { return "<a>,<b>,<c>,<d>," + strings.Repeat(";,", n/2) }},
	{"bad link-values after a link", func(n int) string { return "<a>," + strings.Repeat("<>x,", n/4) }},
}
