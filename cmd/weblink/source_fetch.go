// The source of -url: GET or HEAD requests, 103 heads, redirects, -all's
// pages, and how a failed fetch is worded.

package main

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/quote"
	"github.com/weblinking/weblink/internal/ratelimit"
	"github.com/weblinking/weblink/paging"
)

// fetchMethods returns the methods -url sends for the first page: HEAD,
// then GET when the head has no links; GET only when the page's body
// matters, for -next-in-body (the next link may be in it) and -revalidate
// (a HEAD is never stored).
func (c *command) fetchMethods() []string {
	if c.opts.nextInBody != "" || c.opts.revalidate != "" {
		return []string{http.MethodGet}
	}
	return []string{http.MethodHead, http.MethodGet}
}

// fetchSource requests -url and shows the links of the response, or with -all of
// every page that rel="next" leads to (paging.Pages: same origin only, a
// loop ends it, and so does -max-pages), each page as it arrives. It asks
// with HEAD, and again with GET when the server answers HEAD with 405
// Method Not Allowed or 501 Not Implemented. The pages shown before an
// error stay shown. Each page has the 103 Early Hints heads that came
// before its response. With -wait, rate limits are waited out
// (paging.NewRateLimiter: each request taken from the count the API
// reported), for -url alone too. Without -all, a response
// that is application/link-format is read by its body
// (linkformatFetchSource).
func fetchSource(c *command) error {
	defer c.progress.clear()
	var hints earlyHints
	ctx := httptrace.WithClientTrace(c.ctx, hints.trace())
	reval, err := c.revalidateOptions() // -revalidate: revalidate.go
	if err != nil {
		return err
	}
	defer c.revalidateSummary()
	// One limiter for the HEAD and the GET after it: the count the HEAD's
	// response gave is the GET's too (rules 12 to 15 of package paging).
	limiter := paging.NewRateLimiter(c.opts.wait)
	for _, method := range c.fetchMethods() {
		req, err := http.NewRequestWithContext(ctx, method, c.opts.url, nil)
		if err != nil {
			return err
		}
		c.progress.draw(c.pages+1, c.links, req.URL)
		seq := fetchOne(c.client, req)
		if c.opts.all || c.opts.wait > 0 || reval != nil {
			seq = paging.Pages(ctx, c.client, req, append(reval, paging.MaxPages(c.opts.maxPages),
				limiter.Option(), c.nextInBodyOption(),
				paging.BeforeNext(func(_ *http.Response, next *http.Request) error {
					c.progress.draw(c.pages+1, c.links, next.URL)
					return nil
				}))...)
		}
		retry := false
		for resp, err := range seq {
			if method == http.MethodHead && c.pages == 0 && resp != nil &&
				(resp.StatusCode == http.StatusMethodNotAllowed || resp.StatusCode == http.StatusNotImplemented) {
				retry = true
				break
			}
			if err != nil {
				return c.statusPageError(resp, hints.take(), err)
			}
			c.progress.clear()
			if !c.opts.all && bodyHoldsLinks(resp) {
				// The links are in the body (RFC 6690, RFC 9264): read
				// it, with a GET when this was a HEAD.
				if method == http.MethodHead {
					return linkformatFetchSource(c)
				}
				return c.showBody(resp, hints.take())
			}
			p := responsePage(resp, hints.take(), c.responseBase(resp))
			c.addBodyLink(&p, resp)
			if err := c.show(p); err != nil {
				return err
			}
			c.last = resp
			c.countRevalidated(resp)
			if err := c.out.Flush(); err != nil {
				return err
			}
			if c.opts.json && c.links > maxJSONLinks {
				return fmt.Errorf("stopped after %d %s: -json holds its document in memory, and these pages have more than %d links; -format and the table print each page as it arrives",
					c.pages, quote.Plural(c.pages, "page"), maxJSONLinks)
			}
			if !c.opts.all {
				break // -url -wait: the first page only
			}
		}
		if !retry {
			break
		}
	}
	return nil
}

// statusPageError shows the links of resp, a response that is not 2xx, and
// of hints, the 103 Early Hints heads before it, and returns the command's
// error for err, which says so (fetchError): a 404 or a 500 may link to
// help or status pages. -next shows none: a failed page's next link is
// not one to follow. Without a response, err alone is returned.
func (c *command) statusPageError(resp *http.Response, hints []http.Header, err error) error {
	var se *paging.StatusError
	if resp != nil && !c.opts.next && errors.As(err, &se) {
		c.progress.clear()
		if err := c.show(responsePage(resp, hints, c.responseBase(resp))); err != nil {
			return err
		}
	}
	return c.fetchError(err)
}

// maxJSONLinks is the most links -json collects over the pages of -all
// before it stops: it writes one document at the end, so a server with an
// endless chain of pages full of links would otherwise fill the memory
// (about 80 MB for each 1 MiB head) before -max-pages stops it.
const maxJSONLinks = 100_000

// fetchOne sends req and yields its response, with a *paging.StatusError
// when the status is not 2xx. The body is closed after the yield.
func fetchOne(client *http.Client, req *http.Request) iter.Seq2[*http.Response, error] {
	return func(yield func(*http.Response, error) bool) {
		resp, err := client.Do(req)
		if err != nil {
			yield(nil, err)
			return
		}
		defer resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			err = &paging.StatusError{StatusCode: resp.StatusCode, Status: resp.Status, URL: showURL(resp.Request.URL),
				Header: resp.Header, Body: ratelimit.ReadBody(resp.Body)}
		}
		yield(resp, err)
	}
}

// responseBase returns what the links of resp resolve against: -base, or
// else the URL resp answers, after redirects.
func (c *command) responseBase(resp *http.Response) *url.URL {
	if c.opts.baseURL != nil {
		return c.opts.baseURL
	}
	base, _ := url.Parse(showURL(resp.Request.URL))
	return base
}

// responsePage returns the page of resp: the heads of the 103 Early Hints
// before it, then its own, each with the URL of the request that got
// resp, after redirects, its Link and Link-Template field lines, and base,
// which its links resolve against.
func responsePage(resp *http.Response, hints []http.Header, base *url.URL) page {
	var p page
	for _, h := range append(hints, resp.Header) {
		p.heads = append(p.heads, responseHead(h, base))
	}
	p.heads[len(p.heads)-1].status = resp.StatusCode
	u := showURL(resp.Request.URL)
	for i := range p.heads {
		p.heads[i].url = u
	}
	return p
}

// responseHead returns a head with the Link and Link-Template fields of h,
// resolving against base; a 103 Early Hints head until told otherwise.
func responseHead(h http.Header, base *url.URL) head {
	hd := head{status: http.StatusEarlyHints, base: base}
	for i, v := range h.Values("Link") {
		hd.links = append(hd.links, field{label: fmt.Sprintf("Link line %d", i+1), text: v})
	}
	for i, v := range h.Values("Link-Template") {
		hd.templates = append(hd.templates, field{label: fmt.Sprintf("Link-Template line %d", i+1), text: v})
	}
	return hd
}

// earlyHints collects the heads of the 103 Early Hints responses to the
// request being sent (RFC 8297), through net/http/httptrace: the client
// reads them before the final response, and they are for it. A new
// request, a redirect or the next page, starts over, so a page gets the
// hints of its own request only.
//
// net/http leaves it to a client that sees the 1xx responses to limit
// them, so the request fails after maxInterim of them, or when the 103
// heads together hold more than maxInput bytes (as a head may): a server
// cannot make the command wait or collect without end.
type earlyHints struct {
	mu      sync.Mutex // the trace's hooks run in the client's goroutines
	heads   []http.Header
	interim int // 1xx responses to this request
	size    int // bytes of the names and values in heads
}

// maxMessage is the most bytes of a client error that a message shows.
const maxMessage = 300

// maxInterim is the most 1xx responses the command reads for a request.
const maxInterim = 100

// trace returns the hooks that collect the heads.
func (e *earlyHints) trace() *httptrace.ClientTrace {
	return &httptrace.ClientTrace{
		GetConn: func(string) {
			e.mu.Lock()
			e.heads, e.interim, e.size = nil, 0, 0
			e.mu.Unlock()
		},
		Got1xxResponse: func(code int, h textproto.MIMEHeader) error {
			e.mu.Lock()
			defer e.mu.Unlock()
			if e.interim++; e.interim > maxInterim {
				return fmt.Errorf("more than %d interim (1xx) responses before the final one", maxInterim)
			}
			if code != http.StatusEarlyHints {
				return nil
			}
			for name, values := range h {
				for _, v := range values {
					e.size += len(name) + len(v)
				}
			}
			if e.size > maxInput {
				return errors.New("the 103 Early Hints heads are larger than 1 MiB together")
			}
			e.heads = append(e.heads, http.Header(h).Clone())
			return nil
		},
	}
}

// take returns the heads collected for the response just received.
func (e *earlyHints) take() []http.Header {
	e.mu.Lock()
	defer e.mu.Unlock()
	heads := e.heads
	e.heads, e.interim, e.size = nil, 0, 0
	return heads
}

// fetchError returns the command's message for err, which a fetch ended
// with. The library's errors are told apart with errors.Is and errors.As
// and said in the command's terms (its flags, not the library's options).
// A status that is not 2xx is worded the same for -url, -all and
// -discover; the reason phrase is the server's, so it is quoted when it is
// not printable ASCII.
func (c *command) fetchError(err error) error {
	var se *paging.StatusError
	if errors.As(err, &se) {
		code := strconv.Itoa(se.StatusCode)
		msg := messageURL(se.URL) + " answered " + code
		if reason := strings.TrimSpace(strings.TrimPrefix(se.Status, code)); reason != "" {
			msg += " " + quoteUnlessPrintable(shorten(reason))
		}
		return errors.New(msg + c.toldWait(se, errors.Is(err, paging.ErrRateLimited)))
	}
	page, next := "the last page", "its next link"
	if c.last != nil {
		page = messageURL(c.last.Request.URL.String())
		if u, ok := weblink.NextURL(c.last); ok {
			next = messageURL(u.String())
		} else if c.bodyNext != nil {
			next = messageURL(c.bodyNext.String())
		}
	}
	var ue *url.Error
	var ne net.Error
	switch {
	case errors.Is(err, paging.ErrRateLimited):
		if msg, ok := c.limitedBefore(c.last); ok {
			return errors.New(msg)
		}
	case errors.Is(err, paging.ErrMaxPages):
		return fmt.Errorf("stopped after %d %s (-max-pages %d): %s links to %s; raise -max-pages to go on",
			c.pages, quote.Plural(c.pages, "page"), c.opts.maxPages, page, next)
	case errors.Is(err, paging.ErrCrossOrigin):
		return fmt.Errorf("%s links to %s, on another origin: weblink follows next links only within the origin of -url; run weblink -url %s -all to go on there",
			page, next, next)
	case errors.Is(err, paging.ErrLoop):
		return fmt.Errorf("%s links back to %s, already shown: the server's pagination loops", page, next)
	case errors.Is(err, paging.ErrScheme):
		return fmt.Errorf("%s links to %s, which is not an http or https URL; weblink follows only those", page, next)
	case errors.Is(err, paging.ErrNextLink) && c.bodyErr != nil:
		return err // paging's message names the page and the pointer, then what is wrong
	case errors.Is(err, paging.ErrNextLink):
		return fmt.Errorf("%s: its Link header is malformed and has no usable next link, so paging stops (the broken part may be the next link; the messages above show it)", page)
	case errors.Is(err, context.Canceled) && c.ctx.Err() != nil:
		return fmt.Errorf("interrupted after %d %s", c.pages, quote.Plural(c.pages, "page"))
	case errors.As(err, &ue):
		where := strings.ToUpper(ue.Op) + " " + messageURL(ue.URL)
		if errors.As(err, &ne) && ne.Timeout() {
			return fmt.Errorf("%s: no response within %v (-timeout)", where, c.opts.timeout)
		}
		if strings.Contains(ue.Err.Error(), "server response headers exceeded") {
			// net/http has no error value for it.
			return fmt.Errorf("%s: the response head is larger than 1 MiB", where)
		}
		// net/http quotes what the server sent (a malformed header line)
		// whole: a message shows its start.
		return fmt.Errorf("%s: %s", where, shortenTo(ue.Err.Error(), maxMessage))
	case c.last != nil && errors.Is(err, context.DeadlineExceeded) && errors.Is(c.ctx.Err(), context.DeadlineExceeded):
		// -timeout passed between pages: while the body of the last one
		// was read to its end, or a rate limit was waited out.
		waits := ""
		if c.opts.wait > 0 {
			waits = " (the waits of -wait count towards -timeout)"
		}
		return fmt.Errorf("stopped after %d %s: -timeout %v passed before the next page, %s, arrived%s; raise -timeout to go on",
			c.pages, quote.Plural(c.pages, "page"), c.opts.timeout, next, waits)
	case errors.As(err, &ne) && ne.Timeout():
		// A body that came too slowly: net/http and the context do not
		// name the flag that set the time.
		return fmt.Errorf("%w (-timeout %v)", err, c.opts.timeout)
	}
	return err
}

// maxMessageURL is the most bytes of a URL that a message shows: a server
// can redirect to a URL of nearly 1 MiB.
const maxMessageURL = 200

// messageURL returns s, a URL, as a message shows it: without userinfo,
// with what a terminal would interpret escaped, and cut to maxMessageURL
// bytes, as a reason phrase is cut.
func messageURL(s string) string {
	return shortenTo(clean(withoutUserinfo(s)), maxMessageURL)
}

// showURL returns u as the command shows it: without userinfo, which
// holds credentials (a token as the user name, or a password), and with
// what a terminal would interpret escaped.
func showURL(u *url.URL) string {
	return clean(withoutUser(u))
}
