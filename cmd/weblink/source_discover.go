package main

import (
	"errors"
	"net/http"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/discover"
	"github.com/weblinking/weblink/internal/linksource"
)

// discoverSource GETs -url with discover.Links (also <a> and <area>, and
// the same-origin linksets it points to) and shows the links of the header
// and the body together, in the order discover.Links returns them, which is
// the precedence of Webmention and WebSub: with -rel, only the first
// matching target is printed (the endpoint, the hub). The table has a
// SOURCE column: header, link, a, area, feed or linkset. Problems that did
// not stop the discovery are printed on standard error; a response that is
// not 2xx shows its header links and then fails. Failures are worded as
// -url words them (fetchError).
func discoverSource(c *command) error {
	var sources []string
	ctx := linksource.With(c.ctx, &sources)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.opts.url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("User-Agent", "weblink (github.com/weblinking/weblink)")
	// final is the URL that the redirects of req led to: discover.Links
	// resolves against it, and the links found there are about it. The
	// requests for linksets start at another URL and leave it alone.
	final := req.URL
	client := *c.client
	client.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects") // net/http's policy
		}
		if via[0].URL.String() == c.opts.url {
			final = r.URL
		}
		return nil
	}
	links, err := discover.Links(ctx, &client, req, discover.Hyperlinks(), discover.FollowLinksets())
	var status *weblink.StatusError
	if err != nil && len(links) == 0 && !errors.As(err, &status) {
		return c.fetchError(err) // the request failed: nothing to show
	}
	for _, e := range leaves(err) {
		if !errors.As(e, &status) {
			c.fail(e)
		}
	}
	base := *final
	base.User = nil
	if err := c.show(page{discovered: &discovered{links: links, sources: sources, base: &base}}); err != nil {
		return err
	}
	if status != nil {
		return c.fetchError(status)
	}
	return nil
}
