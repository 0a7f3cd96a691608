// The renderer of -format: the links written back as one Link field.

package main

import "github.com/weblinking/weblink/linkformat"

// formatter is the renderer of -format: each link of the final head as one
// link-value per line, as weblink would send it: in a Link header, or, for
// the links of a link-format document, as linkformat.Format writes them
// (UTF-8 as is, no whitespace).
type formatter struct {
	links int // links printed
}

// page prints the links of the final head of p.
func (f *formatter) page(c *command, p *pageLinks) error {
	final := p.final()
	f.links += len(final)
	for i := range final {
		if p.linkformat {
			c.out.Write(linkformat.Format(final[i : i+1]))
		} else {
			c.out.WriteString(final[i].String())
		}
		c.out.WriteByte('\n')
	}
	return nil
}

// end says when there were no links.
func (f *formatter) end(c *command) int {
	if f.links == 0 {
		return c.readable(c.noLinks())
	}
	return c.readable(exitOK)
}
