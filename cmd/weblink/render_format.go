package main

// formatter is the renderer of -format: each link as one link-value per
// line, as weblink would send it.
type formatter struct {
	links int // links printed
}

// page prints the links of the final head of p.
func (f *formatter) page(c *command, p *pageLinks) error {
	f.links += len(p.final())
	for _, l := range p.final() {
		c.out.WriteString(l.String())
		c.out.WriteByte('\n')
	}
	return nil
}

// end says when there were no links.
func (f *formatter) end(c *command) int {
	if f.links == 0 {
		return c.noLinks()
	}
	return exitOK
}
