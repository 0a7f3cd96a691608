// The source of -url with -discover: discover.Links (header, HTML, feeds,
// linksets).

package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/weblinking/weblink/discover"
	"github.com/weblinking/weblink/internal/linksource"
	"github.com/weblinking/weblink/paging"
)

// discoverSource GETs -url with discover.Links (also <a> and <area>, and
// the same-origin linksets it points to) and shows the links of the header
// and the body together, in the order discover.Links returns them, which is
// the precedence of Webmention and WebSub: with -rel, only the first
// matching target is printed (the endpoint, the hub). The table has a
// SOURCE column: header, link, a, area, feed or linkset. Problems that did
// not stop the discovery are printed on standard error; a response that is
// not 2xx shows its header links and then fails, and so does a discovery
// that -timeout or an interrupt cut (runCut). Failures are worded as -url
// words them (fetchError).
func discoverSource(c *command) error {
	var sources []string
	ctx := linksource.With(c.ctx, &sources)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.opts.url, nil)
	if err != nil {
		return err
	}
	// final is the URL that the redirects of req led to: discover.Links
	// resolves against it, and the links found there are about it. The
	// requests for linksets start at another URL and leave it alone.
	final := req.URL
	first := req.URL.String() // as net/http requests it: an empty port dropped
	client := *c.client
	client.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects") // net/http's policy
		}
		if via[0].URL.String() == first {
			final = r.URL
		}
		return nil
	}
	links, err := discover.Links(ctx, &client, req, discover.Hyperlinks(), discover.FollowLinksets())
	problems := leaves(err)
	// The resource's own status is a *paging.StatusError among the
	// problems; a linkset's is inside its *discover.FollowError, a problem
	// of that linkset (rule 18 of package discover).
	var status *paging.StatusError
	for _, e := range problems {
		if se, ok := e.(*paging.StatusError); ok {
			status = se
		}
	}
	var unsent *url.Error // a request failed before its response head
	if err != nil && len(links) == 0 && status == nil && (errors.As(err, &unsent) || !c.cutShort(err)) {
		return c.fetchError(err) // the request failed: nothing to show
	}
	base := *final
	base.User = nil
	var cut error      // what ended the reading of the resource's body: -timeout or an interrupt
	var malformed bool // the header of the resource had a link-value dropped
	for _, e := range problems {
		var follow *discover.FollowError
		if droppedInput(e) && !errors.As(e, &follow) {
			// Only the resource's own: a linkset that is not
			// well-formed fails alone, as one that is not 2xx does.
			c.dropped, malformed = true, true
		}
		switch {
		case e == error(status):
		case c.cutShort(e) && !errors.As(e, &unsent) && !errors.As(e, &follow) && !errors.Is(e, discover.ErrLinksetLimit):
			if cut == nil {
				cut = c.bodyCut(&base)
			}
		default:
			c.fail(c.discoverError(e)) // each on its own line
		}
	}
	if cut == nil {
		cut = c.runCut("the discovery") // while the linksets were read
	}
	if err := c.show(page{discovered: &discovered{links: links, sources: sources, base: &base, malformed: malformed}}); err != nil {
		return err
	}
	if cut != nil {
		return cut
	}
	if status != nil {
		return c.fetchError(status)
	}
	return nil
}

// cutShort reports whether err ended a request on this side, the response
// head read and its body not: an interrupt, or -timeout, which net/http
// says by closing the connection (only sometimes with a timeout error).
func (c *command) cutShort(err error) bool {
	var ne net.Error
	return c.ctx.Err() != nil || errors.Is(err, net.ErrClosed) || errors.As(err, &ne) && ne.Timeout()
}

// runCut returns the error of a run that -timeout or an interrupt ended,
// what had been read of it (named by what) shown: the run did not do all
// that was asked, so its exit status is not 0. It returns nil when neither
// ended it.
func (c *command) runCut(what string) error {
	switch err := c.ctx.Err(); {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("-timeout %v passed: %s stopped there; raise -timeout to wait longer", c.opts.timeout, what)
	}
	return fmt.Errorf("interrupted: %s stopped there", what)
}

// bodyCut returns the command's message for a body of u that stopped
// arriving (-discover: the links shown are from the part read; a
// link-format body shows none).
func (c *command) bodyCut(u *url.URL) error {
	if err := c.ctx.Err(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("interrupted while reading the body of %s", messageURL(u.String()))
	}
	return fmt.Errorf("GET %s: the body did not arrive within %v (-timeout)", messageURL(u.String()), c.opts.timeout)
}

// discoverError words a problem of discover.Links as the command words
// the failures of -url: a linkset's own status as "linkset URL answered
// 500 ...", its other problems after "linkset URL: ".
func (c *command) discoverError(err error) error {
	fe, ok := err.(*discover.FollowError)
	if !ok {
		return err
	}
	var se *paging.StatusError
	if errors.As(fe.Err, &se) {
		return fmt.Errorf("linkset %w", c.fetchError(se))
	}
	return fmt.Errorf("linkset %s: %s", clean(fe.URL), strings.TrimPrefix(strings.TrimPrefix(fe.Err.Error(), "weblink: "), "discover: "))
}
