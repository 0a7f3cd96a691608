package signposting

import (
	"mime"
	"net/url"
	"strings"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/ascii"
	"github.com/weblinking/weblink/internal/quote"
)

// Check returns every way in which s breaks the profile, Level 1 first.
//
// It lists the problems found while reading (rules 2, 9, 13, 15, 17 to 19) and
// those of the links' cardinalities and attributes (the other rules of
// the package documentation), each once with the link at fault. A nil
// slice means s is Level 2 without a warning. Check does not change s.
func (s *Signposts) Check() []Problem {
	p := s.notes.clone()
	s.checkLevel1(&p)
	s.checkLevel2(&p)
	return p.result()
}

// checkLevel1 applies the rules to the relation fields.
func (s *Signposts) checkLevel1(p *problems) {
	c := linkContext{level: 1, self: s.URL, links: map[string]weblink.Links{}}
	for _, rel := range relations {
		c.links[rel] = *s.relField(rel)
	}
	c.sourceOf = s.sourceOf
	c.check(p)
}

// checkLevel2 applies the rules to the link context objects of Level2.
func (s *Signposts) checkLevel2(p *problems) {
	for i := range s.Linksets {
		if !isLinksetType(s.Linksets[i].Type) {
			p.add(14, 2, false, &s.Linksets[i], "a linkset link needs type=\""+weblink.LinksetJSONType+"\" or type=\""+weblink.LinksetType+"\"; it has type="+quote.URLString(s.Linksets[i].Type))
		}
	}
	if len(s.Level2) == 0 {
		switch {
		case len(s.Linksets) == 0:
			p.add(17, 2, false, nil, "no rel=\"linkset\" link: Level 2 needs a linkset with the signposts of the landing page, its files and its metadata")
		case p.count[ruleLevel{17, 2}] == 0:
			p.add(17, 2, false, &s.Linksets[0], "no link was read from the linksets: Level 2 needs a linkset with the signposts")
		}
		return
	}
	anchors := map[string]weblink.Links{}
	var order []string
	for _, l := range s.Level2 {
		a := withoutFragment(l.Anchor)
		if _, ok := anchors[a]; !ok {
			order = append(order, a)
		}
		anchors[a] = append(anchors[a], l)
	}
	if _, ok := anchors[withoutFragment(s.URL)]; !ok && s.URL != "" {
		p.add(16, 2, false, nil, "the linksets have no link context object whose anchor is the resource, "+quote.URLString(s.URL)+": write its signposts with that anchor")
	}
	for _, a := range order {
		c := linkContext{level: 2, self: a, links: map[string]weblink.Links{}}
		for _, l := range anchors[a] {
			for _, rel := range l.Rel {
				c.links[rel] = append(c.links[rel], l)
			}
		}
		c.check(p)
	}
}

// linkContext is the links of one link context, the resource or an anchor of
// a linkset, by relation type.
type linkContext struct {
	level    int
	self     string // the context's URL
	links    map[string]weblink.Links
	sourceOf func(rel string, l weblink.Link) source // Level 1 only
}

// check applies the rules of the context's kind and those of every link.
func (c *linkContext) check(p *problems) {
	checked := map[string]bool{} // a link of several relation types is in several lists
	for _, rel := range relations {
		ls := c.links[rel]
		for i := range ls {
			k := ls[i].String()
			c.checkLink(p, rel, &ls[i], !checked[k])
			checked[k] = true
		}
	}
	switch {
	case len(c.links["collection"]) > 0:
		c.exactlyOne(p, 7, "collection", "a content resource")
	case len(c.links["describes"]) > 0:
		c.exactlyOne(p, 8, "describes", "a metadata resource")
	default:
		c.checkLandingPage(p)
	}
}

// checkLink applies rules 3 and 4 to one link of relation type rel, and
// rules 10 and 11 when first is set (the link's first relation type).
func (c *linkContext) checkLink(p *problems, rel string, l *weblink.Link, first bool) {
	if first && l.Type != "" && !isMediaType(l.Type) {
		p.add(10, c.level, false, l, "type="+quote.URLString(l.Type)+" is not a media type: write type/subtype, such as \"text/csv\"")
	}
	if why := notAbsoluteURI(l.Target); first && why != "" {
		p.add(11, c.level, false, l, "the target "+quote.URLString(l.Target)+" "+why)
	}
	if l.Type == "" && (rel == "describedby" || rel == "item") {
		rule := map[string]int{"describedby": 3, "item": 4}[rel]
		p.add(rule, c.level, false, l, "a "+rel+" link needs a type attribute with the media type of its target")
	}
}

// checkLandingPage applies the cardinalities of a landing page (rules 1 to
// 6, 12, 16).
func (c *linkContext) checkLandingPage(p *problems) {
	c.checkCiteAs(p)
	if len(c.links["describedby"]) == 0 {
		p.add(3, c.level, false, nil, "no describedby link: a landing page links to at least one metadata record, with its type")
	}
	if c.level == 2 && len(c.links["item"]) == 0 {
		p.add(16, 2, false, nil, "no item link for "+quote.URLString(c.self)+": at Level 2 a landing page lists its files with item links")
	}
	if ls := c.links["license"]; len(distinctTargets(ls)) > 1 {
		for _, i := range distinctTargets(ls)[1:] {
			p.add(5, c.level, false, &ls[i], "more than one license link: a landing page has at most one")
		}
	}
	switch ls := c.links["type"]; {
	case len(ls) == 0:
		p.add(6, c.level, false, nil, "no type link: a landing page has one or two, such as <https://schema.org/Dataset> and <https://schema.org/AboutPage>")
	case len(distinctTargets(ls)) > 2:
		for _, i := range distinctTargets(ls)[2:] {
			p.add(6, c.level, false, &ls[i], "more than two type links: a landing page has one or two")
		}
	}
}

// checkCiteAs applies rules 1, 2 and 12.
func (c *linkContext) checkCiteAs(p *problems) {
	ls := c.links["cite-as"]
	if len(ls) == 0 {
		p.add(1, c.level, false, nil, "no cite-as link: a landing page links to its persistent identifier with rel=\"cite-as\"")
		return
	}
	distinct := distinctTargets(ls)
	first := ls[distinct[0]]
	for _, i := range distinct[1:] {
		if c.sourceOf != nil && c.sourceOf("cite-as", first)&fromHeader != 0 && c.sourceOf("cite-as", ls[i]) == fromHTML {
			p.add(2, c.level, false, &ls[i], "the HTML's cite-as differs from the Link header's "+quote.URLString(first.Target)+": write the same persistent identifier in both")
			continue
		}
		p.add(1, c.level, false, &ls[i], "more than one cite-as link: a landing page has exactly one persistent identifier")
	}
	if sameOrigin(first.Target, c.self) {
		p.add(12, c.level, true, &ls[distinct[0]], "the cite-as target is on the repository's own origin: link to a persistent identifier (DOI, Handle, ARK) that outlives host names")
	}
}

// exactlyOne applies rule 7 or 8: exactly one link of rel.
func (c *linkContext) exactlyOne(p *problems, rule int, rel, kind string) {
	ls := c.links[rel]
	distinct := distinctTargets(ls)
	for _, i := range distinct[1:] {
		p.add(rule, c.level, false, &ls[i], "more than one "+rel+" link: "+kind+" has exactly one, to its landing page")
	}
}

// distinctTargets returns the indexes in ls of the first link of each
// target.
func distinctTargets(ls weblink.Links) []int {
	seen := make(map[string]bool, len(ls))
	var idx []int
	for i, l := range ls {
		if !seen[l.Target] {
			seen[l.Target] = true
			idx = append(idx, i)
		}
	}
	return idx
}

// notAbsoluteURI returns why target is not an absolute URI (rule 11), ""
// when it is one.
func notAbsoluteURI(target string) string {
	for i := 0; i < len(target); i++ {
		if c := target[i]; c <= ' ' || c == 0x7f {
			return "holds a control byte or a space: percent-encode it"
		}
	}
	u, err := url.Parse(target)
	switch {
	case err != nil:
		return "is not a URI"
	case !u.IsAbs():
		return "is not an absolute URI: write the scheme and host"
	}
	return ""
}

// sameOrigin reports whether the URLs a and b have the same scheme and
// host (rule 12).
func sameOrigin(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && ua.Host != "" &&
		ascii.EqualFold(ua.Scheme, ub.Scheme) && ascii.EqualFold(ua.Host, ub.Host)
}

// isLinksetType reports whether the type attribute t names a linkset
// format (rule 14).
func isLinksetType(t string) bool {
	mt, _, err := mime.ParseMediaType(t)
	return err == nil && (mt == weblink.LinksetJSONType || mt == weblink.LinksetType)
}

// isMediaType reports whether t is a media type: type "/" subtype, both
// tokens, then optional parameters (RFC 9110 §8.3.1; rule 10).
func isMediaType(t string) bool {
	typ, rest, _ := strings.Cut(t, ";")
	main, sub, ok := strings.Cut(strings.TrimRight(typ, " \t"), "/")
	if !ok || !ascii.IsToken(main) || !ascii.IsToken(sub) {
		return false
	}
	if strings.TrimSpace(rest) == "" {
		return true
	}
	_, _, err := mime.ParseMediaType(t)
	return err == nil
}
