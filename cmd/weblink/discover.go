package main

import (
	"errors"
	"net/http"
	"strings"
	"text/tabwriter"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/discover"
	"github.com/weblinking/weblink/internal/linksource"
)

// discoverLinks GETs -url with discover.Links (also <a> and <area>, and
// the same-origin linksets it points to) and shows the links of the header
// and the body together, in the order discover.Links returns them, which is
// the precedence of Webmention and WebSub: with -rel, only the first
// matching target is printed (the endpoint, the hub). The table has a
// SOURCE column: header, link, a, area, feed or linkset. Problems that did
// not stop the discovery are printed on standard error; a response that is
// not 2xx shows its header links and then fails. Failures are worded as
// -url words them (fetchError).
func (c *command) discoverLinks() error {
	var sources []string
	ctx := linksource.With(c.ctx, &sources)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.opts.url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("User-Agent", "weblink (github.com/weblinking/weblink)")
	// final is the URL that the redirects of req led to: discover.Links
	// resolves against it, and the links found there are about it. The
	// requests for linksets start at another URL and leave it alone.
	final := req.URL
	client := *c.client
	client.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects") // net/http's policy
		}
		if via[0].URL.String() == c.opts.url {
			final = r.URL
		}
		return nil
	}
	links, err := discover.Links(ctx, &client, req, discover.Hyperlinks(), discover.FollowLinksets())
	var status *weblink.StatusError
	if err != nil && len(links) == 0 && !errors.As(err, &status) {
		return c.fetchError(err) // the request failed: nothing to show
	}
	for _, e := range leaves(err) {
		if !errors.As(e, &status) {
			c.fail(e)
		}
	}
	c.pages++
	c.links += len(links)
	switch {
	case c.opts.rel != "":
		if l, ok := links.Rel(c.opts.rel); ok {
			c.matches++
			c.out.WriteString(shellSafe(l.Target) + "\n")
		}
	case c.opts.json:
		for _, l := range links {
			if l.Anchor == "" {
				l.Anchor = withoutUser(final) // the context of a link is the resource that sent it
			}
			c.collected = append(c.collected, l)
		}
	default:
		c.sourceTable(links, sources)
	}
	if status != nil {
		return c.fetchError(status)
	}
	return nil
}

// sourceTable prints links as a table whose first column says where each
// came from; the title and attributes columns are left out when empty.
func (c *command) sourceTable(links weblink.Links, sources []string) {
	if len(links) == 0 {
		return
	}
	rows := [][]string{{"SOURCE", "REL", "TARGET", "TITLE", "ATTRIBUTES"}}
	var used [5]bool
	for i, l := range links {
		src := "?"
		if i < len(sources) {
			src = sources[i]
		}
		row := []string{src, c.relCell(l).text, plain(l.Target).text, clean(title(l)), plain(attributes(l)).text}
		for j, cl := range row {
			used[j] = used[j] || cl != ""
		}
		rows = append(rows, row)
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, row := range rows {
		var kept []string
		for j, cl := range row {
			if used[j] {
				kept = append(kept, cl)
			}
		}
		tw.Write([]byte(strings.Join(kept, "\t") + "\n"))
	}
	tw.Flush()
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		if line != "" {
			c.out.WriteString(strings.TrimRight(line, " \n") + "\n") // no padding after the last cell
		}
	}
}
