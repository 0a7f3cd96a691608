package main

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/weblinking/weblink"
)

// fetchSource requests -url and shows the links of the response, or with -all of
// every page that rel="next" leads to (weblink.Pages: same origin only, a
// loop ends it, and so does -max-pages), each page as it arrives. It asks
// with HEAD, and again with GET when the server answers HEAD with 405
// Method Not Allowed or 501 Not Implemented. The pages shown before an
// error stay shown.
func fetchSource(c *command) error {
	defer c.progress.clear()
	for _, method := range []string{http.MethodHead, http.MethodGet} {
		req, err := http.NewRequestWithContext(c.ctx, method, c.opts.url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("User-Agent", "weblink (github.com/weblinking/weblink)")
		c.progress.draw(c.pages+1, c.links, req.URL)
		seq := fetchOne(c.client, req)
		if c.opts.all {
			seq = weblink.Pages(c.ctx, c.client, req, weblink.MaxPages(c.opts.maxPages),
				weblink.BeforeNext(func(_ *http.Response, next *http.Request) error {
					c.progress.draw(c.pages+1, c.links, next.URL)
					return nil
				}))
		}
		retry := false
		for resp, err := range seq {
			if method == http.MethodHead && c.pages == 0 && resp != nil &&
				(resp.StatusCode == http.StatusMethodNotAllowed || resp.StatusCode == http.StatusNotImplemented) {
				retry = true
				break
			}
			if err != nil {
				return c.fetchError(err)
			}
			c.progress.clear()
			if err := c.show(responsePage(resp)); err != nil {
				return err
			}
			c.last = resp
			if err := c.out.Flush(); err != nil {
				return err
			}
			if c.opts.json && c.links > maxJSONLinks {
				return fmt.Errorf("stopped after %d %s: -json holds its document in memory, and these pages have more than %d links; -format and the table print each page as it arrives",
					c.pages, plural(c.pages, "page"), maxJSONLinks)
			}
		}
		if !retry {
			break
		}
	}
	return nil
}

// maxJSONLinks is the most links -json collects over the pages of -all
// before it stops: it writes one document at the end, so a server with an
// endless chain of pages full of links would otherwise fill the memory
// (about 80 MB for each 1 MiB head) before -max-pages stops it.
const maxJSONLinks = 100_000

// fetchOne sends req and yields its response, with a *weblink.StatusError
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
			err = &weblink.StatusError{StatusCode: resp.StatusCode, Status: resp.Status, URL: showURL(resp.Request.URL)}
		}
		yield(resp, err)
	}
}

// responsePage returns the page of resp: its head, with the URL of the
// request that got it, after redirects, and its Link and Link-Template
// field lines.
func responsePage(resp *http.Response) page {
	h := head{status: resp.StatusCode, url: showURL(resp.Request.URL)}
	for i, v := range resp.Header.Values("Link") {
		h.links = append(h.links, field{label: fmt.Sprintf("Link line %d", i+1), text: v})
	}
	for i, v := range resp.Header.Values("Link-Template") {
		h.templates = append(h.templates, field{label: fmt.Sprintf("Link-Template line %d", i+1), text: v})
	}
	return page{heads: []head{h}}
}

// fetchError returns the command's message for err, which a fetch ended
// with. The library's errors are told apart with errors.Is and errors.As
// and said in the command's terms (its flags, not the library's options).
// A status that is not 2xx is worded the same for -url, -all and
// -discover; the reason phrase is the server's, so it is quoted when it is
// not printable ASCII.
func (c *command) fetchError(err error) error {
	var se *weblink.StatusError
	if errors.As(err, &se) {
		code := strconv.Itoa(se.StatusCode)
		msg := clean(withoutUserinfo(se.URL)) + " answered " + code
		if reason := strings.TrimSpace(strings.TrimPrefix(se.Status, code)); reason != "" {
			msg += " " + quoteUnlessPrintable(shorten(reason))
		}
		return errors.New(msg)
	}
	page, next := "the last page", "its next link"
	if c.last != nil {
		page = showURL(c.last.Request.URL)
		if u, ok := weblink.NextURL(c.last); ok {
			next = showURL(u)
		}
	}
	var ue *url.Error
	var ne net.Error
	switch {
	case errors.Is(err, weblink.ErrMaxPages):
		return fmt.Errorf("stopped after %d %s (-max-pages %d): %s links to %s; raise -max-pages to go on",
			c.pages, plural(c.pages, "page"), c.opts.maxPages, page, next)
	case errors.Is(err, weblink.ErrCrossOrigin):
		return fmt.Errorf("%s links to %s, on another origin: weblink follows next links only within the origin of -url; run weblink -url %s -all to go on there",
			page, next, next)
	case errors.Is(err, weblink.ErrPageLoop):
		return fmt.Errorf("%s links back to %s, already shown: the server's pagination loops", page, next)
	case errors.Is(err, weblink.ErrPageScheme):
		return fmt.Errorf("%s links to %s, which is not an http or https URL; weblink follows only those", page, next)
	case errors.Is(err, weblink.ErrNextLink):
		return fmt.Errorf("%s: its Link header is malformed and has no usable next link, so paging stops (the broken part may be the next link; the messages above show it)", page)
	case errors.Is(err, context.Canceled) && c.ctx.Err() != nil:
		return fmt.Errorf("interrupted after %d %s", c.pages, plural(c.pages, "page"))
	case errors.As(err, &ue):
		where := strings.ToUpper(ue.Op) + " " + clean(withoutUserinfo(ue.URL))
		if errors.As(err, &ne) && ne.Timeout() {
			return fmt.Errorf("%s: no response within %v (-timeout)", where, c.opts.timeout)
		}
		if strings.Contains(ue.Err.Error(), "server response headers exceeded") {
			// net/http has no error value for it.
			return fmt.Errorf("%s: the response head is larger than 1 MiB", where)
		}
		return fmt.Errorf("%s: %v", where, ue.Err)
	}
	return err
}

// showURL returns u as the command shows it: without userinfo, which
// holds credentials (a token as the user name, or a password), and with
// what a terminal would interpret escaped.
func showURL(u *url.URL) string {
	return clean(withoutUser(u))
}

// withoutUser returns u without its userinfo.
func withoutUser(u *url.URL) string {
	v := *u
	v.User = nil
	return v.String()
}
