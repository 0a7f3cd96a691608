// The source of -signposting: signposting.Fetch, handed on as one page.

package main

import (
	"net/http"

	"github.com/weblinking/weblink/signposting"
)

// signpostingSource reads the FAIR Signposting of -url with
// signposting.Fetch (the header, HTML <link> and the linksets on the
// URL's origin, with discover's bounds; a 410 tombstone read like a 200)
// and hands the result on as one page, which the signpostingReport prints
// at the end. The -H headers and the userinfo of -url go to its origin only, as
// for -url (client.go). A request that failed, or a status other than 2xx
// and 410, is printed as -url words it, and the report ends with exit
// status 2.
func signpostingSource(c *command) error {
	req, err := http.NewRequestWithContext(c.ctx, http.MethodGet, c.opts.url, nil)
	if err != nil {
		return err
	}
	s, err := signposting.Fetch(c.ctx, c.client, req)
	p := &signposted{s: s}
	if err != nil {
		c.fail(c.fetchError(err))
		p.failed = true
	}
	return c.show(page{signposts: p})
}
