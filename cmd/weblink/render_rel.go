// The renderer of -rel: the targets of the links with one relation type.

package main

import (
	"fmt"
	"strings"
)

// relTargets is the renderer of -rel: the targets of the links with one
// relation type, one per line, ready for a shell.
type relTargets struct {
	rel     string
	first   bool // only the first match of a page: -discover's endpoint
	links   int  // links of final heads
	matches int  // targets printed
}

// page prints the targets of the links of the final head of p that have
// the relation type, or with first the target of the first of them, which
// is the endpoint that Webmention and WebSub discovery ask for.
func (r *relTargets) page(c *command, p *pageLinks) error {
	r.links += len(p.final())
	if r.first {
		if l, ok := p.final().Rel(r.rel); ok {
			r.matches++
			c.out.WriteString(shellSafe(l.Target) + "\n")
		}
		return nil
	}
	for _, l := range p.final() {
		if l.HasRel(r.rel) {
			r.matches++
			c.out.WriteString(shellSafe(l.Target))
			c.out.WriteByte('\n')
		}
	}
	return nil
}

// end says when nothing matched.
func (r *relTargets) end(c *command) int {
	if r.links == 0 {
		return c.readable(c.noLinks())
	}
	if r.matches == 0 {
		c.errorf("no link has relation type %q", r.rel)
		return c.readable(exitNone)
	}
	return c.readable(exitOK)
}

// shellSafe returns a target for -rel output: bytes that would end the line,
// split a shell word or drive a terminal (controls, space, DEL, and the
// bytes of non-ASCII characters, among them the C1 controls) are
// percent-encoded, as they must be in a URI anyway (RFC 3987 §3.1 maps an
// IRI to a URI so).
func shellSafe(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
