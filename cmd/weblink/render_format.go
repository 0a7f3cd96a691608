package main

// formatter is the renderer of -format: each link as one link-value per
// line, as weblink would send it.
type formatter struct{}

// page prints the links of p.
func (formatter) page(c *command, p *pageLinks) error {
	for _, l := range p.links {
		c.out.WriteString(l.String())
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
