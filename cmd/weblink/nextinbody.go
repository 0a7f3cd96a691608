package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/paging"
)

// -next-in-body POINTER: the next link of a page is also read from its JSON
// body, at an RFC 6901 JSON Pointer (paging.NextInBody), when its Link
// header has none. The link is found by paging itself, so that the command
// shows and follows the link that paging would, checked as paging checks
// it, and is shown as a link of the page: rel="next", in the table, -json
// and -next.

// maxBodyRead is the most of a body read for its next link, as paging reads.
const maxBodyRead = 16 << 20

// nextInBodyOption is paging.NextInBody for -next-in-body, or nil.
func (c *command) nextInBodyOption() paging.Option {
	if c.opts.nextInBody == "" {
		return nil
	}
	return paging.NextInBody(c.opts.nextInBody)
}

// addBodyLink adds to p, the page of resp, the next link that resp's body
// gives with -next-in-body, as a Link field of its final head, and keeps
// it, or why there is no usable one, in c.bodyNext and c.bodyErr: the
// messages of fetchError and -next use them. The body is put back for
// whoever reads it next. A body without a usable link adds nothing: with
// -all, paging.Pages reports why, after the page.
func (c *command) addBodyLink(p *page, resp *http.Response) {
	c.bodyNext, c.bodyErr = nil, nil
	if c.opts.nextInBody == "" || len(p.heads) == 0 {
		return
	}
	if _, ok := weblink.NextURL(resp); ok {
		return
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxBodyRead+1))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(body), resp.Body), resp.Body}
	c.bodyNext, c.bodyErr = nextFromBody(c.ctx, resp.Request.URL, resp.Header, body, c.opts.nextInBody)
	if c.bodyNext != nil {
		addNextField(&p.heads[len(p.heads)-1], c.bodyNext, c.opts.nextInBody)
	}
}

// addNextField adds to h a Link field with a rel="next" link to u, found
// in the body at ptr.
func addNextField(h *head, u *url.URL, ptr string) {
	h.links = append(h.links, field{label: "body at " + strconv.Quote(ptr), text: "<" + u.String() + `>; rel="next"`})
}

// errFound stops the paging of nextFromBody at the link it found.
var errFound = errors.New("found")

// nextFromBody returns the next link that paging.NextInBody(ptr) finds in
// body, of a page at pageURL with header, or nil for none, and the error
// that paging reports for a body whose link is unusable. Links to another
// origin are returned, as -next prints a header's.
func nextFromBody(ctx context.Context, pageURL *url.URL, header http.Header, body []byte, ptr string) (*url.URL, error) {
	client := &http.Client{Transport: roundTripper(func(req *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: header,
			Body: io.NopCloser(bytes.NewReader(body)), Request: req}, nil
	})}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, pageURL.String(), nil)
	if err != nil {
		return nil, err
	}
	var next *url.URL
	stop := paging.BeforeNext(func(_ *http.Response, r *http.Request) error {
		next = r.URL
		return errFound
	})
	for _, err := range paging.Pages(ctx, client, req, paging.NextInBody(ptr), paging.AllowCrossOrigin(), stop) {
		if err != nil && !errors.Is(err, errFound) {
			return nil, err
		}
	}
	return next, nil
}

// roundTripper is an http.RoundTripper made of a function.
type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// bodyStdinSource reads standard input as the JSON body of a page whose
// URL is -base (curl -s "$u" | weblink -next -next-in-body /links/next
// -base "$u"), and shows its next link as a link of the page.
func bodyStdinSource(stdin io.Reader) source {
	return func(c *command) error {
		body, err := io.ReadAll(io.LimitReader(stdin, maxBodyRead+1))
		if err != nil {
			return err
		}
		base := c.opts.baseURL
		u, err := nextFromBody(c.ctx, base, http.Header{}, body, c.opts.nextInBody)
		if err != nil {
			return err
		}
		h := head{status: http.StatusOK, url: showURL(base), base: base}
		if u != nil {
			addNextField(&h, u, c.opts.nextInBody)
		}
		return c.show(page{heads: []head{h}})
	}
}
