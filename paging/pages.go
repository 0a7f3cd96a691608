package paging

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/weblinking/weblink/internal/peertext"
	"github.com/weblinking/weblink/internal/quote"
	"github.com/weblinking/weblink/internal/weborigin"
)

// Errors that end a Pages iteration. Each is wrapped with the URLs involved,
// written without their userinfo (a user name is often a token); test for
// them with errors.Is.
var (
	// ErrMethod is returned, before any request is sent, when the request
	// given to [Pages] is not a GET or HEAD request: following a link
	// repeats the request, which is only safe for those methods.
	ErrMethod = errors.New("paging: Pages follows only GET and HEAD requests")

	// ErrScheme is returned when a next link (or the first request) is
	// not an http or https URL. No request is sent to it.
	ErrScheme = errors.New("paging: next link is not an http or https URL")

	// ErrCrossOrigin is returned when a next link leads to an origin other
	// than the one where the first page ended up (after redirects) and
	// req's own, and [AllowCrossOrigin] was not given.
	ErrCrossOrigin = errors.New("paging: next link leads to another origin")

	// ErrLoop is returned when a next link leads to a page that was
	// already fetched in the same iteration (compared without fragment).
	ErrLoop = errors.New("paging: next link leads to a page already visited")

	// ErrMaxPages is returned when the page set by [MaxPages] has been
	// yielded and it still has a next link.
	ErrMaxPages = errors.New("paging: page limit reached")

	// ErrNextLink is returned when a page has no usable rel="next" link
	// where one may have been: its Link header is malformed (rule 11), or,
	// with [NextInBody], the value at the pointer in its body is not a
	// link, the link is not a URI reference, or the body is not JSON or
	// is too long to read (rules 28 to 31). [Pages] reports it after the
	// page rather than guess that this is the last page. The reason is
	// wrapped too: the parse error of the header ([errors.Is](err,
	// [ErrSyntax]) holds for a malformed link-value), or what is wrong
	// with the body, which the error's message names with the page URL
	// and the pointer.
	ErrNextLink = errors.New("paging: malformed Link header and no usable next link")

	// ErrStatus matches every [*StatusError] with [errors.Is].
	ErrStatus = errors.New("paging: response status is not 2xx")
)

// StatusError is the error [Pages] yields together with a response whose
// status code is not 2xx. Iteration stops after it.
//
// The caller can still read the response's body, which often says what
// went wrong. The error also carries the response's header and the first
// 2 KiB of its body, for [Items], which closes the body, and for callers
// that only have the error (see rule 3); [StatusError.Error] shows
// neither. When ctx or req.Context() is done during that read, the error
// yielded wraps the StatusError and the context's error.
type StatusError struct {
	StatusCode int         // e.g. 500
	Status     string      // e.g. "500 Internal Server Error"
	URL        string      // the URL of the request that got the response, after redirects, without userinfo
	Header     http.Header // the response's header
	Body       []byte      // the first 2 KiB of the response body at most (GitHub's {"message": ...}); nil when empty
}

// Error names the URL, quoted, and the status, such as "500 Internal Server
// Error", never raw (see rule 36).
//
// Both come from the remote peer (the URL through redirects and next
// links): a status with anything but
// printable ASCII (terminal escapes, C1 controls, bidi overrides, invalid
// UTF-8) or longer than 64 bytes is quoted and shortened too, as in
// answered "500 \x1b[2J".
func (e *StatusError) Error() string {
	return "paging: " + quote.URLString(e.URL) + " answered " + quote.Status(e.Status) + "; the response body may say why"
}

// Is reports whether target is [ErrStatus], so that [errors.Is](err, ErrStatus)
// finds every [*StatusError].
func (e *StatusError) Is(target error) bool { return target == ErrStatus }

// Option configures [Pages] and [Items]. A nil Option is ignored.
//
// The options are [MaxPages], [AllowCrossOrigin] and [BeforeNext] (which
// pages are followed), [WaitRateLimits] and [RateLimiter.Option] (of
// [NewRateLimiter] or [NewSharedRateLimiter]: rate limits), [Parallel]
// (pages requested ahead), [Revalidate] (conditional requests),
// [StoreErrors] (the errors of a [LimitStore] or [PageStore]) and
// [NextInBody] (next links in JSON bodies).
type Option func(*config)

type config struct {
	maxPages     int // < 1: no limit
	crossOrigin  bool
	beforeNext   func(prev *http.Response, next *http.Request) error
	maxWait      time.Duration                                    // WaitRateLimits; <= 0: rate limits are not waited out
	limits       rateLimits                                       // a RateLimiter's; a nil mem: the iteration's own
	now          func() time.Time                                 // the clock for HTTP-dates and Unix times; nil: time.Now
	sleep        func(ctx context.Context, d time.Duration) error // the rate-limit waits, for tests; nil: a timer
	parallel     int                                              // Parallel; < 2: one page at a time
	storeErrors  func(error)                                      // StoreErrors; nil: store errors are dropped
	storeTimeout time.Duration                                    // bounds each LimitStore call, for tests; 0: storeTimeout
	inBody       *bodyPointer                                     // NextInBody; nil: next links only in the Link header
	store        PageStore                                        // Revalidate; nil: pages are not revalidated
}

// MaxPages makes [Pages] stop after n pages, with an error wrapping
// [ErrMaxPages] when the n-th page has a next link.
//
// Pages yields the n-th page, then the error, instead of requesting page
// n+1. A last page that has no next link ends the iteration
// without error even when it is the n-th. An n below 1 means no limit, the
// same as not giving MaxPages, so that a zero value from a configuration
// disables the limit. A page requested again by [WaitRateLimits] counts once.
func MaxPages(n int) Option {
	return func(c *config) { c.maxPages = n }
}

// AllowCrossOrigin lets [Pages] follow next links to an origin (scheme, host
// and port) other than the one of the first page. Credentials are never
// sent there: see Pages.
func AllowCrossOrigin() Option {
	return func(c *config) { c.crossOrigin = true }
}

// BeforeNext sets a function that [Pages] calls before each next request,
// with the page that linked to it and the request about to be sent.
//
// prev's body is already closed; its header is intact. f may wait (for example on
// rate-limit headers of prev, honouring next.Context()), modify next (sign
// it, add headers) or refuse it by returning an error, which ends the
// iteration wrapped ([errors.Is] finds it). It is not called for the first
// request, and it is called once per page: a request that [WaitRateLimits]
// sends again is sent as BeforeNext left it. Pages checks the link before
// calling it, and waits for a rate limit that prev says is spent before it
// too; it does not check next again afterwards: changes made here are the
// caller's responsibility.
//
// It runs once the loop body has taken every item of prev (rule 4): next.URL
// is the checkpoint of a long run, from which a new Pages or [Items] yields
// the rest after a crash (see the resume example of Items).
func BeforeNext(f func(prev *http.Response, next *http.Request) error) Option {
	return func(c *config) { c.beforeNext = f }
}

// Pages fetches req, then follows each response's rel="next" link until there
// is none, and yields every response in order. What matters first:
//
//   - Each response's body is closed when the loop body returns: read it
//     inside the loop.
//   - Next links are followed on the origin of the first page only (after
//     its redirects); one to another origin ends the iteration with
//     [ErrCrossOrigin], unless [AllowCrossOrigin] is given.
//   - The credentials of req (its Authorization, Cookie and
//     Proxy-Authorization headers) go only to req's origin and its https
//     upgrade, never to another origin a next link or a redirect leads to.
//   - The first error ends the iteration; a page that is not 2xx is one
//     ([*StatusError]).
//
// [Items] does the same and yields the decoded items of each page instead.
//
// A typical loop:
//
//	for resp, err := range Pages(ctx, client, req) {
//		if err != nil {
//			return err
//		}
//		// decode resp.Body
//	}
//
// client nil means [http.DefaultClient]. The next URL is the target of the
// first link with relation type "next" (compared case-insensitively) in all
// the Link field lines of the response, resolved against the URL of the
// request that produced it, after redirects (RFC 8288 §3.1, RFC 3986 §5.2);
// see [NextURL]. When a link-value of the header is malformed but the header
// still has a usable next link, Pages follows it; when it has none, Pages
// reports [ErrNextLink] instead of ending as if this were the last page.
//
// Each next request is a clone of req with the iteration's context (below),
// the next URL, req's header (except credentials, below) and no body;
// req.Host, if set, is kept only for next URLs with the same host and port
// as req.URL. req itself is not modified, and each range over the sequence
// starts again from req. req must be a GET or HEAD request with an http or
// https URL, else the only thing yielded is an error wrapping [ErrMethod]
// or [ErrScheme], before any request is sent. The next page is requested
// only when the loop body for the current page returns (there is no
// prefetching, unless [Parallel] asks for it); at that moment the current body is closed, after reading
// and discarding up to 2 KiB of what is left (as net/http does for a
// redirect), for at most one second, so that the connection can be reused
// without a slow server holding up the next page (the read is ended by
// cancelling the request's context, which net/http's transport honours; a
// RoundTripper of another kind must honour it too). If the loop body breaks
// (or panics), the body is closed and nothing more is requested.
//
// Both ctx and req.Context() count: the iteration stops when either is done,
// whichever is first, with an error matching that context's error
// ([errors.Is](err, context.Canceled) or context.DeadlineExceeded); a req
// whose context is already done yields that one error and sends nothing.
// Pages starts no goroutine of its own (but those [Parallel] asks for), and
// none outlives an iteration (net/http runs its transport's as usual).
//
// The origin of a URL is its scheme, host (compared as rule 30 of package weblink says) and
// port, where an absent port is the scheme's default: https://a and
// https://a:443 are the same origin. Pages follows next links on the origin
// of the first page's final URL, after redirects, so that an http to https
// upgrade or a redirect to a canonical host does not stop paging; later
// redirects do not move it, and next links back to req's origin are
// followed too. Next links to any other origin end the iteration with
// [ErrCrossOrigin] unless [AllowCrossOrigin] is given. Whatever the options, the
// header fields of req that may carry credentials (rule 31 of package
// weblink: Authorization, Cookie, PRIVATE-TOKEN, X-Api-Key and the like)
// are sent only to req's origin and to its https upgrade (the same host, http to https,
// both on their default ports): next links and redirects are data chosen by
// the server, so this is stricter than the rule net/http applies to
// redirects (host name only), and it holds for the redirects of every page
// request too. Otherwise redirects are followed by client as usual, under
// client.CheckRedirect; cookies from client.Jar follow the jar's rules.
//
// These end the iteration with an error, yielded as (nil, err) after the
// page that carried the link has been yielded normally: a next URL that is
// not http or https (ErrScheme), leads to another origin (ErrCrossOrigin),
// was already fetched in this iteration, compared without fragment
// ([ErrLoop]), or is beyond [MaxPages] ([ErrMaxPages]); a malformed Link header
// with no usable next link (ErrNextLink); an error from [BeforeNext]; a
// context done before or while a request is sent, or during a wait of
// [WaitRateLimits]; a rate limit that WaitRateLimits will not wait for
// ([ErrRateLimited]); and any other error from client.Do. A response whose
// status is not 2xx is yielded together with a [*StatusError] (matching
// [ErrStatus]), and nothing more is requested; its body is readable in the
// loop body, and closed after it as usual. With WaitRateLimits, a page
// refused by a rate limit is requested again first (see WaitRateLimits).
func Pages(ctx context.Context, client *http.Client, req *http.Request, opts ...Option) iter.Seq2[*http.Response, error] {
	var cfg config
	for _, opt := range opts {
		if opt != nil { // a nil Option is ignored
			opt(&cfg)
		}
	}
	if client == nil {
		client = http.DefaultClient
	}
	return func(yield func(*http.Response, error) bool) {
		p := pager{req: req, cfg: cfg, limits: cfg.limits, links: cfg.linkFinder()}
		if p.limits.mem == nil {
			p.limits.mem = new(memLimits)
		}
		p.budget = &waitBudget{max: cfg.maxWait}
		p.client = p.guardRedirects(client)
		p.run(ctx, func(resp *http.Response, err error) bool {
			// net/http before Go 1.26 puts a peer's header and trailer
			// bytes in its errors as they came (rule 36).
			return yield(resp, peertext.Error(err))
		})
	}
}

// guardRedirects returns a copy of client whose redirects never carry the
// credentials of req anywhere but to req's origin and its https upgrade
// (see Pages and rule 31 of package weblink). The client's own CheckRedirect, or net/http's
// limit of 10 redirects, still applies.
func (p *pager) guardRedirects(client *http.Client) *http.Client {
	return weborigin.GuardRedirects(client, p.credentialsTo)
}

// deleteCredentials removes the header fields that may carry credentials:
// every field but the few of rule 31 of package weblink, under any spelling of their names.
func deleteCredentials(h http.Header) { weborigin.Withhold(h) }

// pager is the state of one range over a Pages sequence.
type pager struct {
	ctx       context.Context // done when the caller's ctx or req.Context() is
	outer     context.Context // the caller's ctx
	reqCtx    context.Context // of the page requests: p.ctx, cancelled to cut a drain short
	cancelReq context.CancelFunc
	client    *http.Client
	req       *http.Request
	cfg       config
	reqOrigin origin          // of req.URL: credentials go only there and to its https upgrade
	origin    origin          // of the first page's final URL: where next links may lead
	visited   map[string]bool // URLs requested or reached, as visitKey
	limits    rateLimits      // where requests are taken from (WaitRateLimits, a RateLimiter)
	budget    *waitBudget     // the rate-limit waits of this iteration so far, of maxWait; shared by Parallel's requests
	links     linkFinder      // where the next links are: the Link header, or also the body (NextInBody)
	reserved  bool            // nextRequest has taken the next request from the rate limit: fetch sends it without taking another
	worker    bool            // a copy of the pager for one of Parallel's workers (see parallelRun.work)
}

func (p *pager) run(ctx context.Context, yield func(*http.Response, error) bool) {
	if err := p.check(ctx); err != nil {
		yield(nil, err)
		return
	}
	var stop func()
	p.outer = ctx
	p.ctx, stop = joinContexts(ctx, p.req.Context())
	defer stop()
	p.renewRequestContext()
	defer func() { p.cancelReq() }()
	next := p.req.Clone(p.reqCtx)
	p.visited[weborigin.VisitKey(next.URL)] = true
	for n := 1; next != nil; n++ {
		resp, err := p.fetch(next, n)
		if resp == nil {
			yield(nil, err)
			return
		}
		if n == 1 {
			p.origin = originOf(resp.Request.URL) // where the first page ended up
		}
		if n == 1 && err == nil && p.cfg.parallel > 1 && p.predictable() {
			var more bool
			if resp, n, more = p.parallel(yield, resp); !more { // pages 1 to n
				return
			}
		} else {
			if err == nil {
				p.links.read(resp)
			}
			if !p.yieldPage(yield, resp, err) || err != nil {
				return
			}
		}
		if next, err = p.nextRequest(resp, n); err != nil {
			yield(nil, err)
			return
		}
	}
}

// check checks ctx and req before anything is sent.
func (p *pager) check(ctx context.Context) error {
	req := p.req
	if ctx == nil {
		return errors.New("paging: Pages needs a non-nil context; use context.Background() if there is none")
	}
	if req == nil || req.URL == nil {
		return errors.New("paging: Pages needs a request with a URL; create it with http.NewRequestWithContext")
	}
	if req.Method != "" && req.Method != http.MethodGet && req.Method != http.MethodHead {
		return fmt.Errorf("%w: %s %s not sent; page with GET or HEAD, or send the request yourself", ErrMethod, req.Method, quote.URL(req.URL))
	}
	if !isHTTP(req.URL) {
		return fmt.Errorf("%w: %s not requested; Pages sends only http and https requests", ErrScheme, quote.URL(req.URL))
	}
	if p.cfg.inBody != nil && p.cfg.inBody.err != nil {
		return p.cfg.inBody.err
	}
	p.reqOrigin = originOf(req.URL)
	p.origin = p.reqOrigin
	p.visited = make(map[string]bool)
	return nil
}

// joinContexts returns a context that is done when a or b is, and the
// function that releases it. When b is done first, the context's cause is
// b's error.
func joinContexts(a, b context.Context) (context.Context, func()) {
	if b == a || b.Done() == nil {
		return a, func() {}
	}
	ctx, cancel := context.WithCancelCause(a)
	stop := context.AfterFunc(b, func() { cancel(b.Err()) })
	return ctx, func() {
		stop()
		cancel(nil)
	}
}

// renewRequestContext gives the page requests a new context, after the one
// they had was cancelled to cut a drain short.
func (p *pager) renewRequestContext() {
	p.reqCtx, p.cancelReq = context.WithCancel(p.ctx)
}

// ctxErr returns the error of the caller's ctx or of req.Context(),
// whichever is done, or nil.
func (p *pager) ctxErr() error {
	if err := p.outer.Err(); err != nil {
		return err
	}
	return p.req.Context().Err()
}

// fetch sends req, the n-th page, and sends it again for as long as
// WaitRateLimits says so. It returns the response and, for a status that is
// not 2xx, the error to yield with it; or a nil response and the error.
func (p *pager) fetch(req *http.Request, n int) (*http.Response, error) {
	backoffs := 0 // refusals of this page that said neither how long nor when
	for try := 0; ; try++ {
		if err := p.ctxErr(); err != nil {
			return nil, fmt.Errorf("paging: page %d of %s not requested: %w", n, quote.URL(req.URL), err)
		}
		if try == 0 && p.reserved {
			p.reserved = false // nextRequest took it
		} else if err := p.awaitLimit(p.ctx); err != nil {
			again := ""
			if try > 0 {
				again = " again"
			}
			return nil, fmt.Errorf("paging: page %d of %s not requested%s: %w", n, quote.URL(req.URL), again, err)
		}
		if req.Context() != p.reqCtx { // renewed by a drain
			req = req.WithContext(p.reqCtx)
		}
		resp, err := p.do(req) // client.Do, or a revalidation (rules 20 to 26)
		if err != nil {
			if cerr := p.ctxErr(); cerr != nil && !errors.Is(err, cerr) {
				err = fmt.Errorf("%w: %w", cerr, err)
			}
			// net/http's error names the URL it was at, which for a
			// redirect is the Location as written, often relative.
			return nil, fmt.Errorf("paging: page %d (%s): %w", n, quote.URL(req.URL), quote.WithoutUserinfo(err))
		}
		if resp.Request == nil {
			resp.Request = req // a RoundTripper other than net/http's may leave it nil
		}
		if resp.Request != req && !p.worker { // redirected; Parallel's workers leave it to the run
			p.visited[weborigin.VisitKey(resp.Request.URL)] = true
		}
		if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
			p.learnCount(resp.Header, time.Time{})
			return resp, nil
		}
		body := p.readAhead(resp)
		serr := &StatusError{
			StatusCode: resp.StatusCode,
			Status:     resp.Status,
			URL:        quote.Redacted(resp.Request.URL),
			Header:     resp.Header,
			Body:       bytes.Clone(body), // the caller's to keep: body still feeds resp.Body
		}
		if cerr := p.ctxErr(); cerr != nil { // it cut the read ahead short
			return resp, fmt.Errorf("%w; reading its body: %w", serr, cerr)
		}
		wait, err := p.retryWait(resp, body, try, &backoffs, serr)
		if wait < 0 || err != nil {
			if err == nil {
				err = serr
			}
			return resp, err
		}
		again, ok := rewind(req)
		if !ok {
			return resp, serr
		}
		p.release(resp, true)
		req = again // after the wait, at the top of the loop
	}
}

// rewind returns req ready to be sent again, with a new body from GetBody
// if it has a body, and whether it can be.
func rewind(req *http.Request) (*http.Request, bool) {
	if req.Body == nil || req.Body == http.NoBody {
		return req, true
	}
	if req.GetBody == nil {
		return nil, false
	}
	body, err := req.GetBody()
	if err != nil {
		return nil, false
	}
	again := *req
	again.Body = body
	return &again, true
}

// The bounds of the drain of a body that the loop body left unread: as much
// as net/http's own drain of a redirect's body, and not for longer than a
// second, which a server trickling bytes would otherwise stretch to hours.
const (
	drainBytes = 2 << 10
	drainTime  = time.Second
)

// release closes resp's body. With drain set it first reads what is left
// of the body, up to drainBytes for up to drainTime, so that the transport
// can reuse the connection: a read that takes longer is ended by cancelling
// the context of the page requests, which then gets a new one. Parallel's
// workers, whose requests share the context of the run, close the body
// undrained.
func (p *pager) release(resp *http.Response, drain bool) {
	if drain && !p.worker && drainBody(resp, p.cancelReq) {
		p.renewRequestContext()
	}
	resp.Body.Close()
}

// drainBody reads what is left of resp's body, up to drainBytes for up to
// drainTime, and reports whether it had to call cut, which cancels the
// context of resp's request, to end a read that took longer.
func drainBody(resp *http.Response, cut func()) bool {
	timer := time.AfterFunc(drainTime, cut)
	_, _ = io.CopyN(io.Discard, resp.Body, drainBytes)
	return !timer.Stop()
}

// yieldPage yields resp with err and then releases it, also when the
// loop body panics. It reports whether the loop goes on.
func (p *pager) yieldPage(yield func(*http.Response, error) bool, resp *http.Response, err error) bool {
	more, cut := yieldReleased(yield, resp, err, p.cancelReq)
	if cut {
		p.renewRequestContext()
	}
	return more
}

// yieldReleased yields resp with err and then closes its body, also when
// the loop body panics; when the loop goes on, it first drains the body
// (drainBody), calling cut to end a drain that takes too long, so that the
// connection may serve the next page. It reports whether the loop goes on
// and whether cut was called.
func yieldReleased(yield func(*http.Response, error) bool, resp *http.Response, err error, cut func()) (more, wasCut bool) {
	defer func() {
		if more {
			wasCut = drainBody(resp, cut)
		}
		resp.Body.Close()
	}()
	return yield(resp, err), false
}

// credentialsTo reports whether req's credentials may be sent to o: req's
// origin, or its https upgrade (the same host, from http on port 80 to
// https on port 443).
func (p *pager) credentialsTo(o origin) bool {
	return p.reqOrigin.Admits(o)
}

// nextRequest returns the request for the page after prev, the n-th page,
// or nil when prev has no next link.
func (p *pager) nextRequest(prev *http.Response, n int) (*http.Request, error) {
	u, err := p.links.next(prev)
	if u == nil {
		return nil, err
	}
	next, err := p.linkRequest(p.reqCtx, prev, n, u)
	if err != nil {
		return nil, err
	}
	// The request is taken from the rate limit before BeforeNext, so
	// that it waits for the reset of a limit prev says is spent.
	if err := p.awaitLimit(p.ctx); err != nil {
		return nil, fmt.Errorf("paging: page %d of %s not requested: %w", n+1, quote.URL(u), err)
	}
	p.reserved = p.cfg.maxWait > 0
	if next.Context() != p.reqCtx { // renewed by the drain
		next = next.WithContext(p.reqCtx)
	}
	_, err = p.beforeNext(prev, next)
	return next, err
}

// linkRequest checks u, the link from prev, the n-th page, to the page
// after it, and returns the request for it, with context ctx.
func (p *pager) linkRequest(ctx context.Context, prev *http.Response, n int, u *url.URL) (*http.Request, error) {
	// The URLs are written out for errors only.
	from := func() string { return quote.URL(prev.Request.URL) }
	o := originOf(u)
	if !isHTTP(u) {
		return nil, fmt.Errorf("%w: page %s links to %s; only http and https links are followed", ErrScheme, from(), quote.URL(u))
	}
	if o != p.origin && o != p.reqOrigin && !p.cfg.crossOrigin {
		return nil, fmt.Errorf("%w: page %s links to %s, outside %s; pass AllowCrossOrigin() to follow it", ErrCrossOrigin, from(), quote.URL(u), quote.Value(p.origin.String()))
	}
	key := weborigin.VisitKey(u)
	switch {
	case p.visited[key]:
		return nil, fmt.Errorf("%w: page %s links back to %s; the server's pagination loops", ErrLoop, from(), quote.URL(u))
	case p.cfg.maxPages >= 1 && n >= p.cfg.maxPages:
		return nil, fmt.Errorf("%w: %d %s fetched and page %s links to %s; raise MaxPages to follow it", ErrMaxPages, n, quote.Plural(n, "page"), from(), quote.URL(u))
	}
	p.visited[key] = true
	next := p.req.WithContext(ctx) // a shallow copy; what changes is copied below
	next.URL = u
	next.Header = p.req.Header.Clone()
	if p.req.Trailer != nil {
		next.Trailer = p.req.Trailer.Clone()
	}
	if u.Host != p.req.URL.Host {
		next.Host = "" // the host of u, not an override meant for req's URL
	}
	next.Body, next.GetBody, next.ContentLength = nil, nil, 0
	if !p.credentialsTo(o) {
		deleteCredentials(next.Header) // they go only to req's origin (see Pages)
	}
	return next, nil
}

// beforeNext calls the BeforeNext function, if any, for next, the request
// for the page after prev.
//
// It returns the visitKey of the URL BeforeNext gave next when that is a
// URL not visited before, which it now counts as visited, and "" when
// BeforeNext left the URL as it was or gave one visited already: a page
// discarded by Parallel forgets only what its request added.
func (p *pager) beforeNext(prev *http.Response, next *http.Request) (added string, err error) {
	f := p.cfg.beforeNext
	if f == nil {
		return "", nil
	}
	u := next.URL
	if err := f(prev, next); err != nil {
		return "", fmt.Errorf("paging: BeforeNext refused %s (linked from %s): %w", quote.URL(u), quote.URL(prev.Request.URL), err)
	}
	if next.URL != u { // BeforeNext's own: remembered as visited too
		if key := weborigin.VisitKey(next.URL); !p.visited[key] {
			p.visited[key] = true
			return key, nil
		}
	}
	return "", nil
}

// origin is the scheme, host and port of a URL (RFC 6454 §4).
type origin = weborigin.Origin

// originOf returns the origin of u.
func originOf(u *url.URL) origin { return weborigin.Of(u) }

// isHTTP reports whether u is an absolute http or https URL with a host.
func isHTTP(u *url.URL) bool {
	s := strings.ToLower(u.Scheme)
	return (s == "http" || s == "https") && u.Host != ""
}
