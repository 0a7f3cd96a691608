package main

// Stand-ins for weblink.Pages (pagination) and the RFC 9264 JSON methods
// of weblink.Links, until they land on main.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"sort"

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

// jsonLink is a Link in the -json output: a documented JSON array of these.
type jsonLink struct {
	Href      string      `json:"href"`
	Rel       []string    `json:"rel,omitempty"`
	Anchor    string      `json:"anchor,omitempty"`
	Rev       []string    `json:"rev,omitempty"`
	Hreflang  []string    `json:"hreflang,omitempty"`
	Media     string      `json:"media,omitempty"`
	Title     string      `json:"title,omitempty"`
	TitleLang string      `json:"title_lang,omitempty"`
	Type      string      `json:"type,omitempty"`
	Params    []jsonParam `json:"params,omitempty"`
}

type jsonParam struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	Lang  string `json:"lang,omitempty"`
}

// writeJSON writes links as a JSON array of jsonLink.
func writeJSON(w io.Writer, links weblink.Links) error {
	out := make([]jsonLink, 0, len(links))
	for _, l := range links {
		j := jsonLink{l.Target, l.Rel, l.Anchor, l.Rev, l.Hreflang, l.Media, l.Title, l.TitleLang, l.Type, nil}
		for _, p := range l.Params {
			j.Params = append(j.Params, jsonParam(p))
		}
		out = append(out, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// decodeLinksetJSON reads an application/linkset+json document (RFC 9264
// §4.2): the common shapes only.
func decodeLinksetJSON(doc []byte) (weblink.Links, error) {
	var set struct {
		Linkset []map[string]json.RawMessage `json:"linkset"`
	}
	if err := json.Unmarshal(doc, &set); err != nil {
		return nil, err
	}
	var links weblink.Links
	for _, ctx := range set.Linkset {
		var anchor string
		if raw, ok := ctx["anchor"]; ok {
			if err := json.Unmarshal(raw, &anchor); err != nil {
				return links, err
			}
		}
		names := make([]string, 0, len(ctx))
		for name := range ctx {
			if name != "anchor" {
				names = append(names, name)
			}
		}
		sort.Strings(names)
		for _, rel := range names {
			var targets []struct {
				Href     *string  `json:"href"`
				Type     string   `json:"type"`
				Media    string   `json:"media"`
				Title    string   `json:"title"`
				Hreflang []string `json:"hreflang"`
			}
			if err := json.Unmarshal(ctx[rel], &targets); err != nil {
				return links, err
			}
			for _, t := range targets {
				if t.Href == nil {
					return links, errors.New("linkset: href missing")
				}
				links = append(links, weblink.Link{Target: *t.Href, Rel: []string{rel}, Anchor: anchor,
					Type: t.Type, Media: t.Media, Title: t.Title, Hreflang: t.Hreflang})
			}
		}
	}
	return links, nil
}
