// The renderer of -signposting: the signposts by relation and the
// problems of the FAIR Signposting profile, or one JSON object.

package main

import (
	"encoding/json"
	"fmt"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/signposting"
)

// signpostingReport prints what signpostingSource read: the signposts by
// relation and the problems with the level they break, or with -json one
// JSON object. Its exit status is 2 when the fetch failed or a rule is
// broken (an error, not a warning), else 0.
type signpostingReport struct {
	json   bool
	s      *signposting.Signposts
	failed bool // the fetch failed, and said so
}

// page takes what signpostingSource read, its one page.
func (r *signpostingReport) page(_ *command, p *pageLinks) error {
	if p.signposts != nil {
		r.s, r.failed = p.signposts.s, p.signposts.failed
	}
	return nil
}

// signpostRelations are the relation types of the profile, in the order
// of the Signposts fields.
var signpostRelations = []string{"cite-as", "describedby", "item", "author", "license", "type", "collection", "describes", "linkset"}

// fields returns the Level 1 links of s by relation type.
func fields(s *signposting.Signposts) [][]weblink.Link {
	return [][]weblink.Link{s.CiteAs, s.DescribedBy, s.Items, s.Authors, s.Licenses, s.Types, s.Collections, s.Describes, s.Linksets}
}

// end prints the report and returns the exit status.
func (r *signpostingReport) end(c *command) int {
	if r.s == nil {
		return exitProblem
	}
	problems := r.s.Check()
	status := exitOK
	if r.failed {
		status = exitProblem
	}
	for _, p := range problems {
		if !p.Warning {
			status = exitProblem
		}
	}
	if r.json {
		if err := r.writeJSON(c, problems); err != nil {
			c.fail(err)
			return exitProblem
		}
		return status
	}
	fmt.Fprintf(c.out, "%s (status %d): level %d\n", clean(r.s.URL), r.s.StatusCode, r.s.Level())
	for i, links := range fields(r.s) {
		for _, l := range links {
			fmt.Fprintf(c.out, "%-12s %s", signpostRelations[i], clean(l.Target))
			if l.Type != "" {
				fmt.Fprintf(c.out, "  type=%s", clean(l.Type))
			}
			fmt.Fprintln(c.out)
		}
	}
	fmt.Fprintf(c.out, "level 2: %d links in the linksets\n", len(r.s.Level2))
	for _, p := range problems {
		kind := "error"
		if p.Warning {
			kind = "warning"
		}
		fmt.Fprintf(c.out, "level %d %s: %s", p.Level, kind, clean(p.Msg))
		if p.Link != nil {
			fmt.Fprintf(c.out, "\n    %s", clean(p.Link.String()))
		}
		fmt.Fprintln(c.out)
	}
	return status
}

// signpostingJSON is what -signposting -json writes.
type signpostingJSON struct {
	URL        string          `json:"url"`
	StatusCode int             `json:"status"`
	Level      int             `json:"level"`
	Signposts  json.RawMessage `json:"signposts"` // a linkset document, anchored at the URL
	Level2     json.RawMessage `json:"level2"`    // a linkset document
	Problems   []problemJSON   `json:"problems"`
	Relations  map[string]int  `json:"counts"`
}

// problemJSON is one problem in -signposting -json.
type problemJSON struct {
	Level   int    `json:"level"`
	Warning bool   `json:"warning"`
	Msg     string `json:"msg"`
	Link    string `json:"link,omitempty"` // as in a Link header
}

// writeJSON writes the report as one JSON object.
func (r *signpostingReport) writeJSON(c *command, problems []signposting.Problem) error {
	var level1 weblink.Links
	counts := map[string]int{}
	for i, links := range fields(r.s) {
		counts[signpostRelations[i]] = len(links)
		for _, l := range links {
			l.Anchor, l.Rel = r.s.URL, []string{signpostRelations[i]}
			level1 = append(level1, l)
		}
	}
	out := signpostingJSON{URL: r.s.URL, StatusCode: r.s.StatusCode, Level: r.s.Level(), Relations: counts, Problems: []problemJSON{}}
	var err error
	if out.Signposts, err = weblink.FormatLinksetJSON(level1); err != nil {
		return err
	}
	if out.Level2, err = weblink.FormatLinksetJSON(r.s.Level2); err != nil {
		return err
	}
	for _, p := range problems {
		pj := problemJSON{Level: p.Level, Warning: p.Warning, Msg: p.Msg}
		if p.Link != nil {
			pj.Link = p.Link.String()
		}
		out.Problems = append(out.Problems, pj)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	c.out.Write(b)
	c.out.WriteString("\n")
	return nil
}
