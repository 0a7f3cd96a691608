package main

import (
	"context"
	"fmt"
	"iter"
	"net/http"

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
				return err
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
			err = fmt.Errorf("%s %s: %s", req.Method, req.URL.Redacted(), resp.Status)
		}
		yield(resp, err)
	}
}

// responseSource returns the Link field lines of resp; its links are
// resolved against the URL of the request that got it, after redirects.
func responseSource(resp *http.Response) source {
	// A password given in -url is not shown, nor put in resolved targets.
	u := *resp.Request.URL
	u.User = nil
	src := source{url: u.String()}
	for i, v := range resp.Header.Values("Link") {
		src.fields = append(src.fields, field{label: fmt.Sprintf("Link line %d", i+1), text: v})
	}
	return src
}
