package discover

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/quote"
	"github.com/weblinking/weblink/internal/weborigin"
)

// Bounds of APICatalog: a catalog that lists thousands of nested catalogs,
// or nested catalogs that are each large, costs at most this much.
const (
	maxNestedCatalogs   = 16       // nested catalogs fetched per call
	maxCatalogBytes     = 4 << 20  // body bytes read of one catalog
	maxAllCatalogsBytes = 16 << 20 // body bytes read of all catalogs together
)

// wellKnownAPICatalog is the path of an origin's API catalog (RFC 9727 §2).
const wellKnownAPICatalog = "/.well-known/api-catalog"

// APICatalog fetches the API catalog of origin (RFC 9727) and returns the
// catalog's links.
//
// It sends a GET of /.well-known/api-catalog on origin's scheme, host and
// port (its path, query and fragment are not used), and resolves the links
// against the URL the catalog was finally read from (rule 19).
//
// Redirects are followed to any origin, since a publisher redirects the
// well-known URL of every domain to one canonical catalog (RFC 9727 §5.1),
// but never from https to http, at most 10 times, and never twice to the
// same URL. The user information of origin, if any, is sent as Basic
// credentials to origin and its https upgrade only (rule 20).
//
// The catalog is read as a linkset (application/linkset+json,
// application/linkset, or application/json), at most 4 MiB. Its links with
// rel="api-catalog" whose target is on the origin of the final URL are
// nested catalogs (RFC 9727 §4.3): each is fetched once, one level deep,
// at most 16 of them and 16 MiB of bodies in all, and its links are
// appended after the catalog's (rule 21). A nested catalog on another
// origin is listed, not fetched.
//
// A catalog that answers with a status other than 2xx gives a
// [*paging.StatusError] (errors.Is(err, [paging.ErrStatus])), which
// carries the response's header and the first 2 KiB of its body, and no
// links. Problems with nested catalogs (a status, a body that is not a
// linkset, one cut at the byte limit) are joined into the error returned
// with the links found, as [Links] does. client nil means
// http.DefaultClient; its own CheckRedirect and Jar still apply.
func APICatalog(ctx context.Context, client *http.Client, origin *url.URL) (weblink.Links, error) {
	switch {
	case ctx == nil:
		return nil, errors.New("discover: APICatalog needs a non-nil context; use context.Background() if there is none")
	case origin == nil || origin.Host == "" || origin.Scheme != "https" && origin.Scheme != "http":
		return nil, fmt.Errorf("discover: APICatalog needs an http or https origin with a host, not %s", showOrigin(origin))
	}
	if client == nil {
		client = http.DefaultClient
	}
	well := &url.URL{Scheme: origin.Scheme, Host: origin.Host, Path: wellKnownAPICatalog}
	read := make(map[string]bool)
	c := catalogs{
		fetcher: fetcher{cfg: config{maxBytes: maxCatalogBytes}, client: guardCatalogRedirects(client, weborigin.Of(origin), read)},
		home:    weborigin.Of(origin),
		user:    origin.User,
		budget:  maxAllCatalogsBytes,
		read:    read,
	}
	final, err := c.fetch(ctx, well)
	if err != nil {
		return nil, err
	}
	c.nested(ctx, final, well)
	return c.links, c.probs.err()
}

// catalogs is the state of one call of APICatalog.
type catalogs struct {
	fetcher
	home   origin          // the origin APICatalog was given
	user   *url.Userinfo   // its user information, sent to it only
	budget int64           // body bytes left to read, of all catalogs
	read   map[string]bool // URLs (without fragment) of the catalogs read or being read
}

// fetch GETs the catalog at u and appends its links. It returns the URL
// the catalog was read from, after redirects; a failed request or a non-2xx
// status is its error, and problems with the body go to c.probs. The
// origin's credentials go with the request when u is on that origin or its
// https upgrade.
func (c *catalogs) fetch(ctx context.Context, u *url.URL) (*url.URL, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("discover: API catalog %s: %w", quote.URL(u), err)
	}
	req.Header.Set("Accept", linksetAccept)
	if c.user != nil && c.home.Admits(weborigin.Of(u)) {
		pw, _ := c.user.Password()
		req.SetBasicAuth(c.user.Username(), pw)
	}
	resp, err := c.do(req)
	if err != nil {
		return nil, fmt.Errorf("discover: API catalog: %w", err)
	}
	defer resp.Body.Close()
	if resp.Request == nil || resp.Request.URL == nil {
		resp.Request = req
	}
	final := resp.Request.URL
	c.read[withoutFragment(final)] = true
	if !is2xx(resp.StatusCode) {
		return nil, statusError(resp, final)
	}
	// The body's problems are named by the catalog, as FollowLinksets'
	// are by their linkset (body does not name what it fetched).
	c.scoped(func(err error) error { return fmt.Errorf("discover: API catalog %s: %w", quote.URL(final), err) }, func() {
		c.budget -= c.body(resp, min(maxCatalogBytes, c.budget), true)
	})
	return final, nil
}

// nested fetches the nested catalogs (rel="api-catalog") that the links
// found so far point to on final's origin, each once, at most
// maxNestedCatalogs, while the byte budget lasts and until ctx is done,
// and appends their links. Those left out are one problem, which wraps
// ctx's error when that is why. Links of nested catalogs are not followed.
// A nested catalog that redirects to a catalog already read is not read
// again (the redirect is refused with errAlreadyRead, which is no problem).
func (c *catalogs) nested(ctx context.Context, final, well *url.URL) {
	c.read[withoutFragment(well)] = true
	fetched, left := 0, 0
	var first *url.URL // the first nested catalog left out
	for u := range c.targets("api-catalog", weborigin.Of(final), c.read) {
		if fetched == maxNestedCatalogs || c.budget <= 0 || ctx.Err() != nil {
			if left++; first == nil {
				first = u
			}
			continue
		}
		fetched++
		if _, err := c.fetch(ctx, u); err != nil && !errors.Is(err, errAlreadyRead) {
			c.probs.add(err)
		}
	}
	if left == 0 {
		return
	}
	var why error = fmt.Errorf("at most %d nested catalogs and %d bytes are read", maxNestedCatalogs, maxAllCatalogsBytes)
	if ctx.Err() != nil {
		why = context.Cause(ctx)
	}
	c.probs.add(fmt.Errorf("discover: %d %s not fetched, from %s on: %w", left, quote.Plural(left, "nested API catalog"), quote.URL(first), why))
}

// showOrigin describes origin for an error message.
func showOrigin(origin *url.URL) string {
	if origin == nil {
		return "nil"
	}
	return quote.URL(origin)
}
