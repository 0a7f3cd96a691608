package signposting

import (
	"net/url"

	"github.com/weblinking/weblink"
)

// Signposts are the FAIR Signposting links of one resource, by relation
// type.
//
// The relation fields hold the Level 1 links (Link header, then HTML
// <link>) whose context is the resource, each once (rule 9); Level2 holds
// the links of the linksets that were read.
type Signposts struct {
	URL         string        // the resource, after redirects
	StatusCode  int           // the status of its response; 0 for FromLinks
	CiteAs      weblink.Links // rel="cite-as"
	DescribedBy weblink.Links // "describedby"
	Items       weblink.Links // "item"
	Authors     weblink.Links // "author"
	Licenses    weblink.Links // "license"
	Types       weblink.Links // "type"
	Collections weblink.Links // "collection"
	Describes   weblink.Links // "describes"
	Linksets    weblink.Links // "linkset"
	Level2      weblink.Links // every link of the linksets followed, targets and anchors absolute

	// The reading's own record: problems found while reading (duplicates,
	// linkset quirks, errors of discover) and where each link came from.
	notes   problems
	sources map[string]source
	read    bool // read by Fetch or FromLinks, so notes hold rule 17's findings
}

// source is a bit set of the serialisations a link was found in.
type source uint8

const (
	fromHeader source = 1 << iota
	fromHTML
)

// Problem is one way in which [Signposts] break the FAIR Signposting
// profile: a rule of the package documentation, the level it belongs to,
// and the link at fault.
type Problem struct {
	Level   int           // 1 or 2: the level whose rule it breaks
	Warning bool          // false: the profile's MUST; true: its SHOULD
	Link    *weblink.Link // the link at fault; nil for one that is missing
	Msg     string        // what is wrong and what to write instead
}

// FromLinks returns the Level 1 signposts of resource (an absolute URL)
// among links, as found in its Link header or HTML.
//
// Relative targets are
// resolved against resource, links whose anchor names another context
// are left out, and a link given twice is kept once and noted for
// [Signposts.Check] (rule 9). Level2 stays empty: FromLinks fetches
// nothing.
func FromLinks(resource string, links weblink.Links) *Signposts {
	s := &Signposts{URL: resource}
	if base, err := url.Parse(resource); err == nil && base.IsAbs() {
		links = links.Resolve(base)
	}
	s.addLevel1(links, fromHeader)
	return s
}

// Level returns the highest level of the profile whose MUSTs all hold,
// cumulatively.
//
// It is 2 when [Signposts.Check] reports no error, 1 when it reports
// errors of Level 2 only, else 0. Warnings do not count.
func (s *Signposts) Level() int {
	level := 2
	for _, p := range s.Check() {
		if !p.Warning {
			level = min(level, p.Level-1)
		}
	}
	return level
}

// relField returns the relation field of s that holds rel, nil for a
// relation type the profile does not use.
func (s *Signposts) relField(rel string) *weblink.Links {
	switch rel {
	case "cite-as":
		return &s.CiteAs
	case "describedby":
		return &s.DescribedBy
	case "item":
		return &s.Items
	case "author":
		return &s.Authors
	case "license":
		return &s.Licenses
	case "type":
		return &s.Types
	case "collection":
		return &s.Collections
	case "describes":
		return &s.Describes
	case "linkset":
		return &s.Linksets
	}
	return nil
}

// relations are the relation types of the profile, in the order of the
// Signposts fields.
var relations = []string{"cite-as", "describedby", "item", "author", "license", "type", "collection", "describes", "linkset"}

// addLevel1 adds the links found in one serialisation of the resource
// (from) to the relation fields: those whose context is the resource,
// each once, noting a link repeated within the serialisation (rule 9).
func (s *Signposts) addLevel1(links weblink.Links, from source) {
	if s.sources == nil {
		s.sources = map[string]source{}
	}
	self := withoutFragment(s.URL)
	seen := map[string]int{} // within this serialisation
	for i := range links {
		l := links[i]
		if l.Anchor != "" && withoutFragment(l.Anchor) != self {
			continue // about another context
		}
		for _, rel := range l.Rel {
			field := s.relField(rel)
			if field == nil {
				continue
			}
			k := linkKey(rel, l, true)
			if seen[k]++; seen[k] > 1 {
				if seen[k] == 2 { // once, however many copies
					s.notes.add(9, 1, true, &links[i], "the same "+rel+" link is written twice; it counts once: write it once")
				}
				continue
			}
			if s.sources[k] == 0 {
				*field = append(*field, l)
			}
			s.sources[k] |= from
		}
	}
}

// addLevel2 adds the links of the linkset documents to Level2, each
// once, noting a link repeated within one document (rule 9).
func (s *Signposts) addLevel2(docs []weblink.Links) {
	all := map[string]bool{}
	for _, links := range docs {
		seen := map[string]int{}
		for i := range links {
			k := linkKey("", links[i], false)
			if seen[k]++; seen[k] > 1 {
				if seen[k] == 2 { // once, however many copies
					s.notes.add(9, 2, true, &links[i], "the same link is in the linkset twice; it counts once: write it once")
				}
				continue
			}
			if !all[k] {
				all[k] = true
				s.Level2 = append(s.Level2, links[i])
			}
		}
	}
}

// linkKey identifies a link for rule 9: its relation type rel (every
// relation type when rel is ""), context (none when level1, where the
// context is the resource), target and attributes.
func linkKey(rel string, l weblink.Link, level1 bool) string {
	if rel != "" {
		l.Rel = []string{rel}
	}
	if level1 {
		l.Anchor = ""
	}
	l.Rev = nil
	return l.String()
}

// sourceOf returns where the Level 1 link l with relation type rel was
// found; a link the reading did not see (set by hand) counts as header.
func (s *Signposts) sourceOf(rel string, l weblink.Link) source {
	if src := s.sources[linkKey(rel, l, true)]; src != 0 {
		return src
	}
	return fromHeader
}

// withoutFragment returns the URL u without its fragment.
func withoutFragment(u string) string {
	for i := 0; i < len(u); i++ {
		if u[i] == '#' {
			return u[:i]
		}
	}
	return u
}
