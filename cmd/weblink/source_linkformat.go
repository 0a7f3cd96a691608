// The sources of -linkformat: a link-format document (RFC 6690) from
// standard input or -url.

package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/linkformat"
)

// maxLinkFormat is the most weblink reads of a link-format body fetched
// with -url: 16 MiB, room for the TimeMap of a page archived some 100 000
// times.
const maxLinkFormat = 16 << 20

// linkformatStdinSource returns the source of -linkformat without -url:
// standard input, at most 1 MiB, as one application/link-format document
// (RFC 6690), whatever its first line; a UTF-8 byte order mark at its
// start is skipped, as for the other inputs.
func linkformatStdinSource(stdin io.Reader) source {
	return func(c *command) error {
		b, err := io.ReadAll(io.LimitReader(stdin, maxInput+1))
		if err != nil {
			return fmt.Errorf("reading standard input: %w", err)
		}
		if len(b) > maxInput {
			return errTooLarge
		}
		b = bytes.TrimPrefix(b, []byte(byteOrderMark))
		return c.show(page{heads: []head{{base: c.opts.baseURL}}, linkformat: &document{text: b, line: 1}})
	}
}

// linkformatFetchSource GETs -url and shows the links of the body of the
// response, read as an application/link-format document whatever its
// Content-Type (-url -linkformat). fetchSource comes here by itself when a
// response is a document of links (bodyHoldsLinks): then the body is read
// as its Content-Type says.
func linkformatFetchSource(c *command) error {
	defer c.progress.clear()
	var hints earlyHints
	ctx := httptrace.WithClientTrace(c.ctx, hints.trace())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.opts.url, nil)
	if err != nil {
		return err
	}
	for resp, err := range fetchOne(c.client, req) {
		if err != nil {
			return c.fetchError(err)
		}
		if err := c.showBody(resp, hints.take()); err != nil {
			return err
		}
	}
	return nil
}

// showBody reads the body of resp, the response to a GET, and shows its
// links, after those of hints, the heads of the 103 Early Hints before
// resp, as for any response (responsePage): with -linkformat or when resp
// is application/link-format, those of the link-format document, resolved
// against the URL after redirects (or -base) by linkformat.Resolve; when
// resp is application/linkset or application/linkset+json (RFC 9264 §4),
// those of the linkset, resolved as the links of a head are. The Link
// header fields of resp itself are not read then: the body holds the
// links. A response of another type shows the links of its head.
func (c *command) showBody(resp *http.Response, hints []http.Header) error {
	p := responsePage(resp, hints, c.responseBase(resp))
	final := &p.heads[len(p.heads)-1]
	kind, limit := "link-format", maxLinkFormat
	if !c.opts.linkformat && !isLinkFormat(resp) {
		kind, limit = mediaTypeOf(resp), maxInput
	}
	if kind != "link-format" && !isLinkset(resp) {
		return c.showResponse(resp, p)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	switch {
	case err != nil && c.cutShort(err):
		return c.bodyCut(resp.Request.URL)
	case err != nil:
		return fmt.Errorf("GET %s: reading the body: %w", messageURL(resp.Request.URL.String()), err)
	}
	if len(b) > limit {
		return fmt.Errorf("GET %s: the %s body is larger than %d MiB", messageURL(resp.Request.URL.String()), kind, limit>>20)
	}
	final.links, final.templates = nil, nil
	switch kind {
	case "link-format":
		p.linkformat = &document{text: b, line: 1}
	case weblink.LinksetJSONType:
		p.linkset = &document{text: b, line: 1}
	default: // application/linkset: Link field values over lines
		final.links = splitValues(string(b), 1)
	}
	return c.showResponse(resp, p)
}

// showResponse shows p, the page of resp, and keeps resp as the last
// page shown.
func (c *command) showResponse(resp *http.Response, p page) error {
	if err := c.show(p); err != nil {
		return err
	}
	c.last = resp
	return nil
}

// bodyHoldsLinks reports whether the body of resp, not its head, holds the
// links of the resource: a document of links, which fetchSource reads
// without -all.
func bodyHoldsLinks(resp *http.Response) bool {
	return isLinkFormat(resp) || isLinkset(resp)
}

// isLinkFormat reports whether the Content-Type of resp is
// application/link-format (RFC 6690 §7.3), whatever its parameters.
func isLinkFormat(resp *http.Response) bool {
	return mediaTypeOf(resp) == linkformat.MediaType
}

// isLinkset reports whether the Content-Type of resp is application/linkset
// or application/linkset+json (RFC 9264 §7), whatever its parameters.
func isLinkset(resp *http.Response) bool {
	mt := mediaTypeOf(resp)
	return mt == weblink.LinksetType || mt == weblink.LinksetJSONType
}
