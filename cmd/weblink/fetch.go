package main

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/weblinking/weblink"
)

// fetch requests -url and shows the links of the response, or with -all of
// every page that rel="next" leads to (weblink.Pages: same origin only, a
// loop ends it, and so does -max-pages). It asks with HEAD, and again with GET
// when the server answers HEAD with 405 Method Not Allowed or 501 Not
// Implemented. The pages shown before an error stay shown.
func (c *command) fetch() error {
	ctx := context.Background()
	for _, method := range []string{http.MethodHead, http.MethodGet} {
		req, err := http.NewRequestWithContext(ctx, method, c.opts.url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("User-Agent", "weblink (github.com/weblinking/weblink)")
		seq := fetchOne(c.client, req)
		if c.opts.all {
			seq = weblink.Pages(ctx, c.client, req, weblink.MaxPages(c.opts.maxPages))
		}
		retry := false
		for resp, err := range seq {
			if method == http.MethodHead && c.pages == 0 && resp != nil &&
				(resp.StatusCode == http.StatusMethodNotAllowed || resp.StatusCode == http.StatusNotImplemented) {
				retry = true
				break
			}
			if err != nil {
				return fetchError(resp, err)
			}
			c.show(responseSource(resp))
		}
		if !retry {
			break
		}
	}
	return nil
}

// fetchOne sends req and yields its response, with an error when the status
// is not 2xx. The body is closed after the yield.
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

// responseSource returns the Link field lines of resp; its links are
// resolved against the URL of the request that got it, after redirects.
func responseSource(resp *http.Response) source {
	src := source{url: showURL(resp.Request.URL)}
	for i, v := range resp.Header.Values("Link") {
		src.fields = append(src.fields, field{label: fmt.Sprintf("Link line %d", i+1), text: v})
	}
	return src
}

// fetchError returns the command's message for err, which a fetch of resp
// (nil when there is none) ended with. A status that is not 2xx is worded
// the same for -url and -all; the reason phrase is the server's, so it is
// quoted when it is not printable ASCII.
func fetchError(resp *http.Response, err error) error {
	var se *weblink.StatusError
	if resp != nil && resp.Request != nil && errors.As(err, &se) {
		code := strconv.Itoa(resp.StatusCode)
		msg := showURL(resp.Request.URL) + " answered " + code
		if reason := strings.TrimSpace(strings.TrimPrefix(resp.Status, code)); reason != "" {
			msg += " " + quoteUnlessPrintable(shorten(reason))
		}
		return errors.New(msg)
	}
	return err
}

// showURL returns u as the command shows it: without userinfo, which
// holds credentials (a token as the user name, or a password), and with
// what a terminal would interpret escaped.
func showURL(u *url.URL) string {
	v := *u
	v.User = nil
	return clean(v.String())
}

// quoteUnlessPrintable returns s, or s quoted with only ASCII in the quotes
// when it holds anything but printable ASCII.
func quoteUnlessPrintable(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return strconv.QuoteToASCII(s)
		}
	}
	return s
}
