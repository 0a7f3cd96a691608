package weblink

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Errors that end a Pages iteration. Each is wrapped with the URLs involved;
// test for them with errors.Is.
var (
	// ErrPageMethod is returned, before any request is sent, when the request
	// given to Pages is not a GET or HEAD request: following a link
	// repeats the request, which is only safe for those methods.
	ErrPageMethod = errors.New("weblink: Pages follows only GET and HEAD requests")

	// ErrPageScheme is returned when a next link (or the first request) is
	// not an http or https URL. No request is sent to it.
	ErrPageScheme = errors.New("weblink: next link is not an http or https URL")

	// ErrCrossOrigin is returned when a next link leads to an origin other
	// than the one of the first request and AllowCrossOrigin was not given.
	ErrCrossOrigin = errors.New("weblink: next link leads to another origin")

	// ErrPageLoop is returned when a next link leads to a page that was
	// already fetched in the same iteration (compared without fragment).
	ErrPageLoop = errors.New("weblink: next link leads to a page already visited")

	// ErrMaxPages is returned when the page set by MaxPages has been
	// yielded and it still has a next link.
	ErrMaxPages = errors.New("weblink: page limit reached")

	// ErrNextLink is returned when a page's Link header is malformed and it
	// has no usable rel="next" link: the broken part may have been the next
	// link, so Pages reports it rather than guess that this is the last
	// page. The parse error is wrapped too (errors.Is(err, ErrSyntax) holds
	// for a malformed link-value).
	ErrNextLink = errors.New("weblink: malformed Link header and no usable next link")

	// ErrStatus matches every *StatusError with errors.Is.
	ErrStatus = errors.New("weblink: response status is not 2xx")
)

// StatusError is the error Pages yields together with a response whose
// status code is not 2xx. The response is yielded with it, so the caller can
// still read the body, which often says what went wrong. Iteration stops
// after it.
type StatusError struct {
	StatusCode int    // e.g. 500
	Status     string // e.g. "500 Internal Server Error"
	URL        string // the URL of the request that got the response, after redirects, without password
}

// Error names the URL and the status, such as "500 Internal Server Error".
func (e *StatusError) Error() string {
	return "weblink: " + e.URL + " answered " + e.Status + "; the response body may say why"
}

// Is reports whether target is ErrStatus, so that errors.Is(err, ErrStatus)
// finds every *StatusError.
func (e *StatusError) Is(target error) bool { return target == ErrStatus }

// PageOption configures Pages. Create one with MaxPages, AllowCrossOrigin
// or BeforeNext.
type PageOption func(*pageConfig)

type pageConfig struct {
	maxPages    int // < 1: no limit
	crossOrigin bool
	beforeNext  func(prev *http.Response, next *http.Request) error
}

// MaxPages makes Pages stop after n pages: when the n-th page has a next
// link, Pages yields it and then an error wrapping ErrMaxPages instead of
// requesting page n+1. A last page that has no next link ends the iteration
// without error even when it is the n-th. An n below 1 means no limit, the
// same as not giving MaxPages, so that a zero value from a configuration
// disables the limit.
func MaxPages(n int) PageOption {
	return func(c *pageConfig) { c.maxPages = n }
}

// AllowCrossOrigin lets Pages follow next links to an origin (scheme, host
// and port) other than the one of the first request. Credentials are never
// sent there: see Pages.
func AllowCrossOrigin() PageOption {
	return func(c *pageConfig) { c.crossOrigin = true }
}

// BeforeNext sets a function that Pages calls before each next request, with
// the page that linked to it (whose body is already closed; its header is
// intact) and the request about to be sent. It may wait (for example on
// rate-limit headers of prev, honouring next.Context()), modify next (sign
// it, add headers) or refuse it by returning an error, which ends the
// iteration wrapped (errors.Is finds it). It is not called for the first
// request. Pages checks the link before calling it and does not check next
// again afterwards: changes made here are the caller's responsibility.
func BeforeNext(f func(prev *http.Response, next *http.Request) error) PageOption {
	return func(c *pageConfig) { c.beforeNext = f }
}

// Pages fetches req, then follows each response's rel="next" link until there is none.
// It yields every response in order; the response body is closed when the loop body
// returns, so read it inside the loop. The first error ends the iteration.
//
// A typical loop:
//
//	for resp, err := range weblink.Pages(ctx, client, req) {
//		if err != nil {
//			return err
//		}
//		// decode resp.Body
//	}
//
// client nil means http.DefaultClient. The next URL is the target of the
// first link with relation type "next" (compared case-insensitively) in all
// the Link field lines of the response, resolved against the URL of the
// request that produced it, after redirects (RFC 8288 §3.1, RFC 3986 §5.2);
// see NextURL. When a link-value of the header is malformed but the header
// still has a usable next link, Pages follows it; when it has none, Pages
// reports ErrNextLink instead of ending as if this were the last page.
//
// Each next request is a clone of req with the caller's ctx, the next URL,
// req's header (except credentials, below) and no body; req.Host, if set, is
// kept only for next URLs with the same host and port as req.URL. req itself
// is not modified, and each range over the sequence starts again from req. req must
// be a GET or HEAD request with an http or https URL, else the only thing
// yielded is an error wrapping ErrPageMethod or ErrPageScheme, before any
// request is sent. The next page is requested only when the loop body for
// the current page returns (there is no prefetching); at that moment the
// current body is closed, after reading and discarding up to 64 KiB of what
// is left so that the connection can be reused. If the loop body breaks (or
// panics), the body is closed and nothing more is requested. Pages starts no
// goroutines.
//
// The origin of a URL is its scheme, host (compared case-insensitively) and
// port, where an absent port is the scheme's default: https://a and
// https://a:443 are the same origin. Next links to an origin other than
// req's end the iteration with ErrCrossOrigin unless AllowCrossOrigin is
// given. Whatever the options, the Authorization, Cookie and
// Proxy-Authorization headers of req are sent only to req's origin: next
// links are data chosen by the server, so this is stricter than the rule
// net/http applies to redirects (host name only), and it holds for the
// redirects of every page request too. Otherwise redirects are followed by
// client as usual, under client.CheckRedirect; cookies from client.Jar
// follow the jar's rules.
//
// These end the iteration with an error, yielded as (nil, err) after the
// page that carried the link has been yielded normally: a next URL that is
// not http or https (ErrPageScheme), leads to another origin (ErrCrossOrigin),
// was already fetched in this iteration, compared without fragment
// (ErrPageLoop), or is beyond MaxPages (ErrMaxPages); a malformed Link header
// with no usable next link (ErrNextLink); an error from BeforeNext; ctx
// cancelled before or while a request is sent (errors.Is(err,
// context.Canceled) or context.DeadlineExceeded); and any other error from
// client.Do. A response whose status is not 2xx is yielded together with a
// *StatusError (matching ErrStatus), and nothing more is requested; its body
// is readable in the loop body, and closed after it as usual.
func Pages(ctx context.Context, client *http.Client, req *http.Request, opts ...PageOption) iter.Seq2[*http.Response, error] {
	var cfg pageConfig
	for _, opt := range opts {
		opt(&cfg)
	}
	if client == nil {
		client = http.DefaultClient
	}
	return func(yield func(*http.Response, error) bool) {
		p := pager{ctx: ctx, req: req, cfg: cfg}
		p.client = p.guardRedirects(client)
		p.run(yield)
	}
}

// guardRedirects returns a copy of client whose redirects never carry the
// credentials of req to another origin: net/http keeps them for any port
// and scheme of the same host name, which is not the origin (see Pages).
// The client's own CheckRedirect, or net/http's limit of 10 redirects, still
// applies.
func (p *pager) guardRedirects(client *http.Client) *http.Client {
	c := *client
	check := client.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if originOf(req.URL) != p.origin {
			deleteCredentials(req.Header)
		}
		if check != nil {
			return check(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &c
}

// deleteCredentials removes the headers that carry credentials.
func deleteCredentials(h http.Header) {
	for _, name := range [...]string{"Authorization", "Cookie", "Proxy-Authorization"} {
		h.Del(name)
	}
}

// pager is the state of one range over a Pages sequence.
type pager struct {
	ctx     context.Context
	client  *http.Client
	req     *http.Request
	cfg     pageConfig
	origin  origin
	visited map[string]bool // URLs requested or reached, as visitKey
}

func (p *pager) run(yield func(*http.Response, error) bool) {
	next, err := p.first()
	if err != nil {
		yield(nil, err)
		return
	}
	for n := 1; next != nil; n++ {
		if err := p.ctx.Err(); err != nil {
			yield(nil, fmt.Errorf("weblink: page %d of %s not requested: %w", n, showURL(next.URL), err))
			return
		}
		p.visited[visitKey(next.URL)] = true
		resp, err := p.client.Do(next)
		if err != nil {
			yield(nil, fmt.Errorf("weblink: page %d: %w", n, err))
			return
		}
		if resp.Request == nil {
			resp.Request = next // a RoundTripper other than net/http's may leave it nil
		}
		p.visited[visitKey(resp.Request.URL)] = true
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			yieldPage(yield, resp, &StatusError{
				StatusCode: resp.StatusCode,
				Status:     resp.Status,
				URL:        redacted(resp.Request.URL),
			})
			return
		}
		if !yieldPage(yield, resp, nil) {
			return
		}
		if next, err = p.nextRequest(resp, n); err != nil {
			yield(nil, err)
			return
		}
	}
}

// first checks req and returns the first request to send.
func (p *pager) first() (*http.Request, error) {
	req := p.req
	if p.ctx == nil {
		return nil, errors.New("weblink: Pages needs a non-nil context; use context.Background() if there is none")
	}
	if req == nil || req.URL == nil {
		return nil, errors.New("weblink: Pages needs a request with a URL; create it with http.NewRequestWithContext")
	}
	if req.Method != "" && req.Method != http.MethodGet && req.Method != http.MethodHead {
		return nil, fmt.Errorf("%w: %s %s not sent; page with GET or HEAD, or send the request yourself", ErrPageMethod, req.Method, showURL(req.URL))
	}
	if !isHTTP(req.URL) {
		return nil, fmt.Errorf("%w: %s not requested; Pages sends only http and https requests", ErrPageScheme, showURL(req.URL))
	}
	p.origin = originOf(req.URL)
	p.visited = make(map[string]bool)
	return req.Clone(p.ctx), nil
}

// yieldPage yields resp with err and then closes its body, also when the
// loop body panics. It reports whether the loop goes on.
func yieldPage(yield func(*http.Response, error) bool, resp *http.Response, err error) (more bool) {
	defer func() {
		if more {
			// Let the transport reuse the connection for the next page.
			_, _ = io.CopyN(io.Discard, resp.Body, 64<<10)
		}
		resp.Body.Close()
	}()
	return yield(resp, err)
}

// nextRequest returns the request for the page after prev, the n-th page,
// or nil when prev has no next link.
func (p *pager) nextRequest(prev *http.Response, n int) (*http.Request, error) {
	u, err := nextLink(prev)
	if u == nil {
		return nil, err
	}
	from := showURL(prev.Request.URL)
	to := showURL(u)
	o := originOf(u)
	switch {
	case !isHTTP(u):
		return nil, fmt.Errorf("%w: page %s links to %s; only http and https links are followed", ErrPageScheme, from, to)
	case o != p.origin && !p.cfg.crossOrigin:
		return nil, fmt.Errorf("%w: page %s links to %s, outside %s; pass weblink.AllowCrossOrigin() to follow it", ErrCrossOrigin, from, to, p.origin)
	case p.visited[visitKey(u)]:
		return nil, fmt.Errorf("%w: page %s links back to %s; the server's pagination loops", ErrPageLoop, from, to)
	case p.cfg.maxPages >= 1 && n >= p.cfg.maxPages:
		return nil, fmt.Errorf("%w: %d pages fetched and page %s links to %s; raise weblink.MaxPages to follow it", ErrMaxPages, n, from, to)
	}
	next := p.req.Clone(p.ctx)
	next.URL = u
	if u.Host != p.req.URL.Host {
		next.Host = "" // the host of u, not an override meant for req's URL
	}
	next.Body, next.GetBody, next.ContentLength = nil, nil, 0
	if o != p.origin {
		deleteCredentials(next.Header) // they go only to req's origin (see Pages)
	}
	if f := p.cfg.beforeNext; f != nil {
		if err := f(prev, next); err != nil {
			return nil, fmt.Errorf("weblink: BeforeNext refused %s (linked from %s): %w", to, from, err)
		}
	}
	return next, nil
}

// NextURL returns the target of the first link of resp with relation type
// "next" (compared case-insensitively), from all its Link field lines,
// resolved against the URL of the request that produced resp, after
// redirects (RFC 8288 §3.1, RFC 3986 §5.2), and whether there is one. It is
// for callers that page by hand; Pages uses the same rule.
//
// A next link with an anchor other than the page itself (or a fragment of
// it) is about another resource and is passed over. It reports false when
// there is no next link or its target is not a URI reference, and for a nil
// resp. It does not check the scheme or origin of the URL, which may be
// anything the server wrote: check them before requesting it, as Pages does.
// When resp.Request is nil, the URL is as written, possibly relative.
func NextURL(resp *http.Response) (*url.URL, bool) {
	u, _ := findNext(resp, false)
	return u, u != nil
}

// nextLink returns the resolved next URL of resp. With no usable next link,
// it returns nil, and an error wrapping ErrNextLink if the Link header was
// malformed.
func nextLink(resp *http.Response) (*url.URL, error) {
	return findNext(resp, true)
}

// origin is the scheme, host and port of a URL (RFC 6454 §4), with the
// host lower-cased and an absent port replaced by the scheme's default.
type origin struct {
	scheme, host, port string
}

func originOf(u *url.URL) origin {
	o := origin{scheme: strings.ToLower(u.Scheme), host: strings.ToLower(u.Hostname()), port: u.Port()}
	if o.port == "" {
		switch o.scheme {
		case "http":
			o.port = "80"
		case "https":
			o.port = "443"
		}
	}
	return o
}

func (o origin) String() string {
	return o.scheme + "://" + net.JoinHostPort(o.host, o.port)
}

// isHTTP reports whether u is an absolute http or https URL with a host.
func isHTTP(u *url.URL) bool {
	s := strings.ToLower(u.Scheme)
	return (s == "http" || s == "https") && u.Host != ""
}

// visitKey is the form in which Pages remembers the URLs it has fetched:
// without fragment and userinfo, with the origin normalised.
func visitKey(u *url.URL) string {
	o := originOf(u)
	v := *u
	v.Scheme = o.scheme
	v.Host = net.JoinHostPort(o.host, o.port)
	v.User = nil
	v.Fragment, v.RawFragment = "", ""
	return v.String()
}

// redacted is u as a string without its password and fragment.
func redacted(u *url.URL) string {
	v := *u
	v.Fragment, v.RawFragment = "", ""
	return v.Redacted()
}

// showURL is u for an error message: redacted, quoted and shortened.
func showURL(u *url.URL) string { return quoteForError(redacted(u)) }

// nextOf returns the first link with relation type "next" whose context is
// the page itself: no anchor, or an anchor that is the page's URL or a
// fragment of it. A next link anchored elsewhere is about another resource
// (RFC 8288 §3.2) and is not this page's next page.
func nextOf(links Links, page *http.Request) (Link, bool) {
	f := nextFinder{page: pageURL(page)}
	for i := range links {
		if f.usable(links[i].HasRel(RelNext), links[i].Anchor) {
			return links[i], true
		}
	}
	return Link{}, false
}

// visitKeyOf is visitKey of a resolved reference, or the reference itself
// when it does not parse.
func visitKeyOf(ref string) string {
	u, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	return visitKey(u)
}
