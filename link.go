package weblink

import (
	"errors"
	"net/url"

	"github.com/weblinking/weblink/internal/ascii"
	"github.com/weblinking/weblink/internal/linkscan"
)

// Link is one link-value of a Link header field (RFC 8288 §3).
//
// It holds a target URI, the relation types that say how the context
// relates to it, and the target attributes that describe it.
//
// [Parse] fills a Link with the rules of RFC 8288 §3 and Appendix B.2: for the
// attributes that may occur once, only the first occurrence counts. The zero
// Link has an empty target (which refers to the context itself) and no
// relation types.
type Link struct {
	Target    string   // link target: the URI-Reference between < and >; absolute after Resolve
	Rel       []string // relation types of the first "rel", split on whitespace, lower-cased, in order
	Anchor    string   // first "anchor" (the link context); "" means the default context
	Rev       []string // first "rev", split like Rel (deprecated by RFC 8288, still parsed)
	Hreflang  []string // every "hreflang", in order
	Media     string   // first "media"
	Title     string   // decoded first "title*" when it decodes, else first "title"
	TitleLang string   // language tag of the title* that was used; "" otherwise
	Type      string   // first "type"
	Params    []Param  // every other parameter (extension target attributes), in order
}

// Param is an extension target attribute of a link (RFC 8288 §3.4.2), such as
// crossorigin or as in a preload link.
//
// A Param that came from a "name*" ext-value (RFC 8187) holds the decoded
// text in Value and its language tag in Lang; Name never has the trailing
// "*". A parameter written without a value ("; crossorigin") has Value "".
type Param struct {
	Name  string // lower-case, without a trailing "*"
	Value string // unquoted; decoded when it came from a name* ext-value
	Lang  string // language tag of that ext-value, if any
}

// Links is the list of links of one or more Link header fields, in the order
// they were written.
type Links []Link

// HasRel reports whether rel is one of the relation types of l. Relation
// types compare case-insensitively (RFC 8288 §2.1.1 and §2.1.2).
func (l Link) HasRel(rel string) bool { return hasRel(l.Rel, rel) }

// hasRel reports whether rel is one of the relation types rels, compared
// case-insensitively.
func hasRel(rels []string, rel string) bool {
	for _, r := range rels {
		if ascii.EqualFold(r, rel) {
			return true
		}
	}
	return false
}

// Param returns the first extension parameter named name (compared
// case-insensitively, without a trailing "*") and whether there is one.
func (l Link) Param(name string) (Param, bool) {
	for _, p := range l.Params {
		if ascii.EqualFold(p.Name, name) {
			return p, true
		}
	}
	return Param{}, false
}

// Rel returns the first link that has the relation type rel (rule 5), and
// whether there is one.
//
// It does not look at the Anchor: for the next page of a response use
// [NextURL], which passes over next links about another resource.
// [Links.AllRel] returns every link with the relation type.
//
//	if license, ok := links.Rel("license"); ok { ... }
func (ls Links) Rel(rel string) (Link, bool) {
	// By index: ranging over the values would copy every Link.
	for i := range ls {
		if hasRel(ls[i].Rel, rel) {
			return ls[i], true
		}
	}
	return Link{}, false
}

// Resolve returns a copy of ls whose Target and Anchor are resolved
// against base (RFC 3986 §5.2), as rules 22 and 32 say.
//
// A Target or Anchor that net/url cannot parse is left as written, as is
// every reference when base is nil; ls is not modified. Links of an
// application/link-format document (RFC 6690), whose targets resolve
// against their anchor, are resolved by
// [github.com/weblinking/weblink/linkformat.Resolve] instead.
func (ls Links) Resolve(base *url.URL) Links {
	out, _ := ls.resolve(base)
	return out
}

// resolve implements Resolve and also reports the first reference that could
// not be parsed, for ParseResponse.
func (ls Links) resolve(base *url.URL) (Links, error) {
	if ls == nil {
		return nil, nil
	}
	out := make(Links, len(ls))
	copy(out, ls)
	if base == nil {
		return out, nil
	}
	var errs []error
	failed := 0 // errs holds the first maxErrors of them
	for i := range out {
		l := &out[i]
		var err error
		l.Target, err = resolveRef(base, l.Target)
		if err != nil {
			if failed++; len(errs) < linkscan.MaxErrors {
				errs = append(errs, err)
			}
		}
		if l.Anchor != "" {
			l.Anchor, err = resolveRef(base, l.Anchor)
			if err != nil {
				if failed++; len(errs) < linkscan.MaxErrors {
					errs = append(errs, err)
				}
			}
		}
	}
	if failed > len(errs) {
		errs = append(errs, &linkscan.More{N: failed - len(errs)})
	}
	return out, errors.Join(errs...)
}

// AllRel returns every link that has the relation type rel (rule 5), in
// order, or nil when there is none.
//
// Use it where a relation type repeats: the alternate chains of an ACME
// certificate (RFC 8555 §7.4.2), the describedby links of a Signposting
// landing page. The links are copies; ls is not modified.
func (ls Links) AllRel(rel string) Links {
	n := 0
	for i := range ls {
		if hasRel(ls[i].Rel, rel) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make(Links, 0, n)
	for i := range ls {
		if hasRel(ls[i].Rel, rel) {
			out = append(out, ls[i])
		}
	}
	return out
}
