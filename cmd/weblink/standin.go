package main

// A stand-in for weblink.Pages (pagination), until it lands on main.

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"

	"github.com/weblinking/weblink"
)

// pages yields the response to req, then to each rel="next" link in turn,
// as weblink.Pages will.
func pages(ctx context.Context, client *http.Client, req *http.Request) iter.Seq2[*http.Response, error] {
	return func(yield func(*http.Response, error) bool) {
		seen := map[string]bool{}
		for {
			seen[req.URL.String()] = true
			resp, err := client.Do(req)
			if err != nil {
				yield(nil, err)
				return
			}
			if resp.StatusCode/100 != 2 {
				yield(resp, fmt.Errorf("%s %s: %s", req.Method, req.URL.Redacted(), resp.Status))
				resp.Body.Close()
				return
			}
			links, _ := weblink.ParseResponse(resp)
			next, ok := links.Rel("next")
			more := yield(resp, nil)
			resp.Body.Close()
			if !more || !ok {
				return
			}
			u, err := req.URL.Parse(next.Target)
			if err == nil && seen[u.String()] {
				err = errors.New("next link leads to a page already visited: " + u.String())
			}
			if err != nil {
				yield(nil, err)
				return
			}
			req = req.Clone(ctx)
			req.URL, req.Host = u, ""
		}
	}
}
