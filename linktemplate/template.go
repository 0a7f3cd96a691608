package linktemplate

import (
	"net/url"
	"slices"
	"strings"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/ascii"
)

// Template is one templated link of a Link-Template field (RFC 9652 §2):
// a link whose target, and possibly its anchor, are URI Templates (RFC
// 6570) to expand with [Template.Expand].
type Template struct {
	Template string          // the URI Template (RFC 6570) of the link target, as written
	Rel      []string        // relation types, split on whitespace, lower-cased
	Anchor   string          // the anchor parameter (itself a URI Template), "" when absent
	VarBase  string          // the var-base parameter, "" when absent
	Params   []weblink.Param // other target attributes, in order; a Display String decoded into Value (Lang "")
}

// Expand expands Template and Anchor with the values of vars (RFC 6570 §3;
// RFC 9652 §2) and returns the link they make.
//
// A variable is looked up by its name as written in the template (not
// resolved against VarBase). Rules 9 to 12 say which values are accepted
// and how they are written: a string, a number, []string, [][2]string (an
// associative array in order) or map[string]string (written in sorted
// order of its names); nil or a missing name is undefined.
//
// The link has Target and Anchor expanded (relative references stay
// relative: resolve them with [weblink.Links.Resolve] against the context
// of the field), Rel copied, and the parameters title, type, media,
// hreflang and rev in the Link's own fields as [weblink.Parse] would put
// them (rev split and lower-cased like Rel); every other parameter stays in
// Params. VarBase, which names the variables, has no place in a link and is
// left out.
//
// The error is a [*TemplateError] for a template that does not parse, a
// prefix modifier on a list or associative array, or an expansion longer
// than [MaxExpansion] bytes (errors.Is(err, [ErrTooLong])); an error
// naming the variable for a value of another type. No link is returned
// with an error.
func (t Template) Expand(vars map[string]any) (weblink.Link, error) {
	target, err := expandTemplate(t.Template, vars)
	if err != nil {
		return weblink.Link{}, err
	}
	var anchor string
	if t.Anchor != "" {
		if anchor, err = expandTemplate(t.Anchor, vars); err != nil {
			return weblink.Link{}, err
		}
	}
	l := weblink.Link{Target: target, Anchor: anchor, Rel: slices.Clone(t.Rel)}
	for _, p := range t.Params {
		switch p.Name {
		case "title":
			l.Title = p.Value
		case "type":
			l.Type = p.Value
		case "media":
			l.Media = p.Value
		case "hreflang":
			l.Hreflang = append(l.Hreflang, p.Value)
		case "rev":
			l.Rev = splitRel(p.Value)
		default:
			l.Params = append(l.Params, p)
		}
	}
	return l, nil
}

// Variables returns the names of the variables of Template and then of
// Anchor, in order of first appearance, each once (rule 13).
//
// When VarBase is set, each name is a reference resolved against it (RFC 9652 §2.1,
// RFC 3986 §5.2): with VarBase "https://example.org/vars/", the variable
// widget_id is "https://example.org/vars/widget_id". A VarBase that is
// itself relative gives relative names ("vars/" gives "vars/widget_id",
// not "/vars/widget_id"): resolve them against the link's context, as RFC
// 9652 §2.1 says. Names are as written when VarBase is
// empty or does not parse as a URI reference. A template that does not
// parse contributes the names of the expressions before its first error.
func (t Template) Variables() []string {
	var names []string
	seen := make(map[string]bool)
	for _, tmpl := range []string{t.Template, t.Anchor} {
		for _, name := range variableNames(tmpl) {
			if !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	base, err := url.Parse(t.VarBase)
	if t.VarBase == "" || err != nil {
		return names
	}
	for i, name := range names {
		names[i] = varURI(base, t.VarBase, name)
	}
	return names
}

// varURI resolves the variable name against the var-base raw, which
// parses as base (RFC 9652 §2.1, RFC 3986 §5.2.2). A name is a
// relative-path reference of one segment without dot segments (varname,
// RFC 6570 §2.3), so the result is raw without its query and fragment and
// with the part of its path after the last "/" replaced by name, or "/"
// then name when raw has an authority and an empty path (RFC 3986 §5.2.3)
// or its path ends with a "." or ".." segment (a directory, §5.2.4).
// An absolute base with a host goes through net/url, which also removes
// its dot segments (§5.2.4). A relative base keeps them and stays relative:
// resolved against the link's context, the result is what resolving raw
// against the context and then name against that would give. net/url is
// not used there, nor for an absolute base without a host, such as
// urn:example:vars (whose path it takes for a rooted one) or https:/vars/
// (to which it adds "//").
func varURI(base *url.URL, raw, name string) string {
	if base.Scheme != "" && base.Host != "" {
		if ref, err := url.Parse(name); err == nil {
			return base.ResolveReference(ref).String()
		}
	}
	if i := strings.IndexAny(raw, "?#"); i >= 0 {
		raw = raw[:i]
	}
	scheme := ""
	if base.Scheme != "" {
		scheme, raw = raw[:len(base.Scheme)+1], raw[len(base.Scheme)+1:]
	}
	dir := strings.LastIndexByte(raw, '/') + 1
	if last := raw[dir:]; last == "." || last == ".." || strings.HasPrefix(raw, "//") && dir == 2 {
		// The path ends with a dot segment, which names a directory, or
		// is empty after an authority.
		return scheme + raw + "/" + name
	}
	return scheme + raw[:dir] + name
}

// variableNames returns the variable names of the expressions of tmpl in
// order, up to the first syntax error.
func variableNames(tmpl string) []string {
	var names []string
	var specs []varspec
	_ = scanTemplate(tmpl, &specs, func(p part) error {
		for _, v := range p.vars {
			names = append(names, v.name)
		}
		return nil
	})
	return names
}

// splitRel splits a rel or rev value on whitespace and lower-cases each
// relation type (ASCII only, as RFC 8288 §3.3 compares them).
func splitRel(s string) []string {
	rels := strings.Fields(s)
	for i, r := range rels {
		rels[i] = ascii.Lower(r)
	}
	if len(rels) == 0 {
		return nil
	}
	return rels
}
