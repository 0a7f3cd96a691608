package main

import "github.com/weblinking/weblink/linkformat"

// formatter is the renderer of -format: each link as one link-value per
// line, as weblink would send it: in a Link header, or, for the links of a
// link-format document, as linkformat.Format writes them (UTF-8 as is, no
// whitespace).
type formatter struct{}

// page prints the links of p.
func (formatter) page(c *command, p *pageLinks) error {
	for i := range p.links {
		if p.linkformat {
			c.out.Write(linkformat.Format(p.links[i : i+1]))
		} else {
			c.out.WriteString(p.links[i].String())
		}
		c.out.WriteByte('\n')
	}
	return nil
}

// end says when there were no links.
func (formatter) end(c *command) int {
	if c.links == 0 {
		return c.noLinks()
	}
	return exitOK
}
