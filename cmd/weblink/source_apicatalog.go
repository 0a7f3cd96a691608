// The source of -url with -api-catalog: discover.APICatalog.

package main

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/weblinking/weblink/discover"
)

// apiCatalogSource reads the API catalog of the origin of -url with
// discover.APICatalog (RFC 9727: /.well-known/api-catalog, redirects to
// another origin but not from https to http, nested catalogs of the same
// origin one level deep) and shows its links as one page. The -H headers
// and the userinfo of -url go to the origin of -url only, as for -url
// (client.go). Problems that did not stop the reading are printed on
// standard error, a nested catalog that is not 2xx among them; a catalog
// that is not 2xx fails as -url words it. -timeout ends the whole reading
// (discover.APICatalog requests no nested catalog after it): the links
// read by then are shown, and the run fails (runCut).
func apiCatalogSource(c *command) error {
	// The URL as -url requests it: net/http drops an empty port
	// ("http://h:/" is http://h/), which the anchors shown must drop too.
	req, err := http.NewRequest(http.MethodGet, c.opts.url, nil)
	if err != nil {
		return err
	}
	u := req.URL
	links, err := discover.APICatalog(c.ctx, c.client, u)
	if err != nil && links == nil {
		// The catalog itself could not be read: each problem on its own
		// line, the last as the command's error.
		es := leaves(err)
		for _, e := range es[:len(es)-1] {
			c.fail(e)
		}
		return c.fetchError(es[len(es)-1])
	}
	for _, e := range leaves(err) { // each problem on a line
		c.dropped = c.dropped || droppedInput(e)
		var unsent *url.Error
		if errors.As(e, &unsent) {
			e = c.fetchError(e) // worded as for -url: "no response within ... (-timeout)"
		}
		c.fail(e)
	}
	base := &url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/.well-known/api-catalog"}
	if err := c.show(page{discovered: &discovered{links: links, base: base}}); err != nil {
		return err
	}
	return c.runCut("the reading of the API catalog")
}
