package signposting

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/discover"
	"github.com/weblinking/weblink/internal/linksource"
	"github.com/weblinking/weblink/internal/quote"
	"github.com/weblinking/weblink/internal/readhook"
	"github.com/weblinking/weblink/paging"
)

// Fetch GETs req with client (nil means http.DefaultClient), following
// redirects, and returns the signposts of the resource.
//
// Level 1 is read from its Link header and HTML <link> elements, Level 2
// from the linksets they point to with rel="linkset", with
// [discover.Links] and its bounds and credential rules (see the package
// documentation). A 410 Gone response is a tombstone and is read like a
// 200.
//
// Problems of what the server sent (a header that does not parse, a
// linkset that could not be read, a linkset's deviations) are not errors
// of Fetch: [Signposts.Check] reports them, with the rule they break. The
// error is non-nil when the request failed (the Signposts are nil) or
// when the status is neither 2xx nor 410: then the Signposts hold the
// links of the response's header, and the error wraps a
// [*paging.StatusError].
func Fetch(ctx context.Context, client *http.Client, req *http.Request) (*Signposts, error) {
	switch {
	case ctx == nil:
		return nil, errors.New("signposting: Fetch needs a non-nil context; use context.Background() if there is none")
	case req == nil || req.URL == nil:
		return nil, errors.New("signposting: Fetch needs a request with a URL; create it with http.NewRequestWithContext")
	case req.Method != "" && req.Method != http.MethodGet && req.Method != http.MethodHead:
		return nil, fmt.Errorf("signposting: %s %s not sent: Fetch sends GET or HEAD requests", req.Method, quote.URL(req.URL))
	}
	var sources []string
	r := reader{hook: readhook.Hook{ReadStatus: http.StatusGone}}
	r.hook.ParseLinkset = r.parseLinkset
	ctx = readhook.With(linksource.With(ctx, &sources), &r.hook)
	links, err := discover.Links(ctx, client, req, discover.FollowLinksets())
	if r.hook.URL == nil { // no response
		return nil, fmt.Errorf("signposting: %w", err)
	}
	s := &Signposts{URL: quote.Redacted(r.hook.URL), StatusCode: r.hook.StatusCode, read: true}
	var header, html, level2 weblink.Links
	for i, l := range links {
		switch src := sourceAt(sources, i); src {
		case "header":
			header = append(header, l)
		case "link":
			html = append(html, l)
		case "linkset":
			level2 = append(level2, l)
		}
	}
	s.addLevel1(header, fromHeader)
	s.addLevel1(html, fromHTML)
	s.addLevel2(splitDocs(level2, r.docLens))
	s.notes.list = append(s.notes.list, r.notes.list...) // rules 15, 18, 19
	for k, v := range r.notes.count {
		if s.notes.count == nil {
			s.notes.count, s.notes.first = map[ruleLevel]int{}, map[ruleLevel]bool{}
		}
		s.notes.count[k] += v
		s.notes.first[k] = r.notes.first[k]
	}
	if st := resourceStatus(err); st != nil {
		return s, fmt.Errorf("signposting: %w", st)
	}
	s.noteErrors(err)
	return s, nil
}

// splitDocs splits the links of the linksets into those of each
// document, by the number of links each gave; all in one when the numbers
// do not add up.
func splitDocs(links weblink.Links, lens []int) []weblink.Links {
	total := 0
	for _, n := range lens {
		total += n
	}
	if total != len(links) {
		return []weblink.Links{links}
	}
	docs := make([]weblink.Links, 0, len(lens))
	for _, n := range lens {
		docs = append(docs, links[:n:n])
		links = links[n:]
	}
	return docs
}

// sourceAt returns where the i-th link came from, "" when discover did not
// say.
func sourceAt(sources []string, i int) string {
	if i < len(sources) {
		return sources[i]
	}
	return ""
}

// resourceStatus returns the *paging.StatusError of the resource among
// the errors err joins, nil when its status was 2xx or 410: one inside a
// *discover.FollowError is a linkset's.
func resourceStatus(err error) *paging.StatusError {
	for _, e := range flatten(err) {
		var fe *discover.FollowError
		var st *paging.StatusError
		if !errors.As(e, &fe) && errors.As(e, &st) {
			return st
		}
	}
	return nil
}

// flatten returns the errors err joins, err itself when it joins none.
func flatten(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}

// noteErrors turns the problems discover reported into rule 13 (the
// resource) and rule 17 (its linksets) problems; a target that could not
// be resolved is left to rules 11 and 15, which name the link.
func (s *Signposts) noteErrors(err error) {
	for _, e := range flatten(err) {
		var fe *discover.FollowError
		var re *weblink.ResolveError
		switch {
		case errors.As(e, &re):
			// The link is kept as written: rules 11 and 15 report it.
		case errors.As(e, &fe):
			s.notes.add(17, 2, false, s.linksetLink(fe.URL), linksetProblem(fe))
		case errors.Is(e, discover.ErrLinksetLimit):
			s.notes.add(17, 2, false, nil, errorText(e))
		default:
			s.notes.add(13, 1, false, nil, "the resource's links could not all be read: "+errorText(e))
		}
	}
}

// linksetProblem says why the linkset fe names could not be read: the
// status it answered with, or the error.
func linksetProblem(fe *discover.FollowError) string {
	var st *paging.StatusError
	if !errors.As(fe.Err, &st) {
		return "the linkset could not be read: " + errorText(fe.Err)
	}
	msg := "the linkset answered " + quote.Status(st.Status)
	if st.URL != fe.URL {
		msg += " at " + quote.URLString(st.URL) + ", where it redirected"
	}
	return msg
}

// errorText is the message of err, the error of package discover or
// weblink, for a Problem: quoted, since it holds what a peer sent, and
// without the "discover: " or "weblink: " it starts with, since
// signposting reports it.
func errorText(err error) string {
	msg := err.Error()
	for _, prefix := range [...]string{"discover: ", "weblink: "} {
		msg = strings.TrimPrefix(msg, prefix)
	}
	return quote.URLString(msg)
}

// linksetLink returns the rel="linkset" link whose target is u (compared
// without userinfo and fragment), nil when there is none.
func (s *Signposts) linksetLink(u string) *weblink.Link {
	for i := range s.Linksets {
		if t, err := url.Parse(s.Linksets[i].Target); err == nil && quote.Redacted(t) == u {
			return &s.Linksets[i]
		}
	}
	return nil
}
