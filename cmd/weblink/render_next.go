// The renderer of -next: the URL of the next page, for a shell loop.

package main

import (
	"net/http"
	"strings"

	"github.com/weblinking/weblink"
)

// nextPage is the renderer of -next: the one URL that weblink.NextURL, and
// so paging.Pages, would follow from the final head, and nothing with
// exit status 1 when there is none, so that a shell loop can page with it;
// exit status 3 when there is none and the final head had a link-value
// dropped, which may have been the next link (paging.ErrNextLink).
type nextPage struct {
	found     bool
	malformed bool // a page without a next URL was malformed
}

// page prints the next URL of p: the target of its first link with
// relation type "next" that is about the page itself, resolved (RFC 8288
// §3.2: a next link anchored at another resource is that resource's). The
// links are given to weblink.NextURL, with their base as the URL of the
// request; without a base, a next link whose anchor is more than a
// fragment is passed over, as it cannot be told to be the page's.
func (n *nextPage) page(c *command, p *pageLinks) error {
	var lines []string
	for _, l := range p.final() {
		if !l.HasRel("next") || p.base == nil && l.Anchor != "" && !strings.HasPrefix(l.Anchor, "#") {
			continue
		}
		lines = append(lines, l.String())
	}
	resp := &http.Response{Header: http.Header{"Link": lines}}
	if p.base != nil {
		resp.Request = &http.Request{URL: p.base}
	}
	u, ok := weblink.NextURL(resp)
	if !ok {
		n.malformed = n.malformed || p.malformed
		return nil
	}
	n.found = true
	c.out.WriteString(shellSafe(withoutUser(u)) + "\n")
	if !u.IsAbs() {
		// Printed as written: curl would take it for a host name or a
		// file. Only the URL of the page can resolve it.
		c.errorf("the next link is relative; -base with the URL of the page resolves it: curl -sI \"$u\" | weblink -next -base \"$u\"")
	}
	return nil
}

// end returns exitNone when there was no next URL, without a message: the
// last page of a collection has none; exitMalformed, with a message, when
// the head was malformed too, or when the body had no usable next link
// with -next-in-body (paging's error, which says why).
func (n *nextPage) end(c *command) int {
	switch {
	case n.found:
		return exitOK
	case n.malformed:
		c.errorf("no usable next link: the Link header is malformed (the broken part may be the next link)")
		return exitMalformed
	case c.bodyErr != nil && !c.failed:
		c.fail(c.bodyErr)
		return exitMalformed
	}
	return exitNone
}
