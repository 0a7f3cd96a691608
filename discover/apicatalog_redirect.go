package discover

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/weblinking/weblink/internal/quote"
	"github.com/weblinking/weblink/internal/weborigin"
)

// maxCatalogRedirects is how many redirects APICatalog follows for one
// catalog, as net/http does by default.
const maxCatalogRedirects = 10

// ErrInsecureRedirect is wrapped by the error of [APICatalog] when a
// server redirected an https request to http, which APICatalog does not
// follow.
//
// The catalog would come over a connection anyone on the path can change.
var ErrInsecureRedirect = errors.New("discover: redirect from https to http not followed")

// errAlreadyRead refuses a redirect of a nested catalog to a catalog that
// APICatalog has already read (rule 21), and of a linkset to a URL that
// FollowLinksets has already read (rule 17).
var errAlreadyRead = errors.New("discover: redirect to a document already read")

// guardCatalogRedirects returns a copy of client whose redirects follow
// the policy of APICatalog (rule 20): any origin, never from https to
// http, never to a URL already requested in the chain, at most
// maxCatalogRedirects, never to a URL in read (catalogs read already,
// compared without fragment: errAlreadyRead); and the fields of a request
// other than those every origin gets (Accept, User-Agent, ...;
// rule 31 of package weblink) only to home and its https upgrade
// (weborigin.GuardRedirects, as Links). The client's own CheckRedirect
// runs after these checks.
func guardCatalogRedirects(client *http.Client, home origin, read map[string]bool) *http.Client {
	c := *client
	check := client.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		prev := via[len(via)-1].URL
		if prev.Scheme == "https" && req.URL.Scheme != "https" {
			return fmt.Errorf("%w: %s to %s", ErrInsecureRedirect, quote.URL(prev), quote.URL(req.URL))
		}
		next := withoutFragment(req.URL)
		for _, v := range via {
			if withoutFragment(v.URL) == next {
				return fmt.Errorf("discover: redirect loop: %s redirects back to %s", quote.URL(prev), quote.URL(req.URL))
			}
		}
		if read[next] {
			return errAlreadyRead
		}
		if len(via) >= maxCatalogRedirects {
			return fmt.Errorf("discover: stopped after %d redirects", maxCatalogRedirects)
		}
		if check != nil {
			return check(req, via)
		}
		return nil
	}
	return weborigin.GuardRedirects(&c, home.Admits)
}
