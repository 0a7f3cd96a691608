package main

import (
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/weblinking/weblink/linkformat"
)

// maxLinkFormat is the most weblink reads of a link-format body fetched
// with -url: 16 MiB, room for the TimeMap of a page archived some 100 000
// times.
const maxLinkFormat = 16 << 20

// linkformatStdinSource returns the source of -linkformat without -url:
// standard input, at most 1 MiB, as one application/link-format document
// (RFC 6690), whatever its first line.
func linkformatStdinSource(stdin io.Reader) source {
	return func(c *command) error {
		b, err := io.ReadAll(io.LimitReader(stdin, maxInput+1))
		if err != nil {
			return fmt.Errorf("reading standard input: %w", err)
		}
		if len(b) > maxInput {
			return errTooLarge
		}
		return c.show(page{heads: []head{{base: c.opts.baseURL}}, linkformat: &document{text: b, line: 1}})
	}
}

// linkformatFetchSource GETs -url and shows the links of the body of the
// response, read as an application/link-format document whatever its
// Content-Type (-url -linkformat). fetchSource comes here by itself when a
// response is application/link-format.
func linkformatFetchSource(c *command) error {
	defer c.progress.clear()
	req, err := http.NewRequestWithContext(c.ctx, http.MethodGet, c.opts.url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("User-Agent", "weblink (github.com/weblinking/weblink)")
	for resp, err := range fetchOne(c.client, req) {
		if err != nil {
			return c.fetchError(err)
		}
		if err := c.showLinkFormat(resp); err != nil {
			return err
		}
	}
	return nil
}

// showLinkFormat reads the body of resp, the response to a GET, and shows
// its links: those of the link-format document, resolved against the URL
// after redirects (or -base) by linkformat.Resolve. The Link header fields
// of the response are not read: the body holds the links.
func (c *command) showLinkFormat(resp *http.Response) error {
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxLinkFormat+1))
	if err != nil {
		return fmt.Errorf("GET %s: reading the body: %w", showURL(resp.Request.URL), err)
	}
	if len(b) > maxLinkFormat {
		return fmt.Errorf("GET %s: the link-format body is larger than 16 MiB", showURL(resp.Request.URL))
	}
	h := head{status: resp.StatusCode, url: showURL(resp.Request.URL), base: c.responseBase(resp)}
	if err := c.show(page{heads: []head{h}, linkformat: &document{text: b, line: 1}}); err != nil {
		return err
	}
	c.last = resp
	return nil
}

// isLinkFormat reports whether the Content-Type of resp is
// application/link-format (RFC 6690 §7.3), whatever its parameters.
func isLinkFormat(resp *http.Response) bool {
	mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return err == nil && mt == linkformat.MediaType
}
