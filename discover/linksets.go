package discover

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/quote"
	"github.com/weblinking/weblink/internal/weborigin"
)

// maxLinksets is how many linksets FollowLinksets fetches for one resource
// (rule 17): Signposting points to one or two.
const maxLinksets = 16

// linksetAccept is the Accept field of the requests FollowLinksets sends
// (RFC 9264 §7.2 and §8).
const linksetAccept = weblink.LinksetJSONType + ", " + weblink.LinksetType + ";q=0.9"

// ErrLinksetLimit is wrapped by the error of [Links] when [FollowLinksets]
// left rel="linkset" targets unfetched.
//
// That is when there are more than 16 of them, or more bytes than
// [MaxBytes] in the linksets together (rule 17). The error says how many
// and from which on. Test for it with errors.Is.
var ErrLinksetLimit = errors.New("discover: linkset limit reached")

// FollowError is a problem of one linkset that [FollowLinksets] followed:
// its request failed or its document could not be read (rule 18).
//
// Err is a [*paging.StatusError] for a status that is not 2xx, wraps
// [ErrTruncated] for a cut document, and may be a [*weblink.LinksetError]
// for one that does not parse. The error of [Links] joins one FollowError
// for each such problem, so that a caller can tell a linkset's problems
// from the resource's: a *paging.StatusError that is not inside a
// FollowError is the resource's own status.
type FollowError struct {
	URL string // the linkset's URL, without userinfo and fragment
	Err error  // the problem
}

// Error names the linkset and the problem.
func (e *FollowError) Error() string {
	return "discover: linkset " + quote.Value(e.URL) + ": " + e.Err.Error()
}

// Unwrap returns e.Err, so that errors.Is and errors.As see the problem.
func (e *FollowError) Unwrap() error { return e.Err }

// followLinksets fetches the rel="linkset" targets among the links found
// so far that share final's origin, each once, at most maxLinksets of them
// and at most MaxBytes of them together, and appends their links. Those
// left out are reported with ErrLinksetLimit. Each URL is read once, also
// through redirects: a linkset whose final URL was read before (final
// itself, or a linkset reached through a redirect) is neither requested
// again nor redirected to (rule 17).
func (f *fetcher) followLinksets(ctx context.Context, userAgent string, final *url.URL) {
	seen := map[string]bool{withoutFragment(final): true} // yielded, or read
	read := map[string]bool{withoutFragment(final): true} // final URLs of the responses
	client := f.client
	f.client = refuseRead(client, read)
	defer func() { f.client = client }()
	budget := f.cfg.maxBytes
	fetched, left := 0, 0
	var first *url.URL // the first linkset left out
	for u := range f.targets("linkset", weborigin.Of(final), seen) {
		if fetched == maxLinksets || budget <= 0 || ctx.Err() != nil {
			if left++; first == nil {
				first = u
			}
			continue
		}
		fetched++
		n, from := f.fetchLinkset(ctx, userAgent, u, budget)
		budget -= n
		if from != nil {
			seen[withoutFragment(from)], read[withoutFragment(from)] = true, true
		}
	}
	if left > 0 {
		why := fmt.Sprintf("%d were fetched, the most FollowLinksets fetches", fetched)
		switch {
		case ctx.Err() != nil:
			why = context.Cause(ctx).Error()
		case budget <= 0:
			why = fmt.Sprintf("the %d linksets fetched hold the %d bytes (MaxBytes) FollowLinksets reads of them together", fetched, f.cfg.maxBytes)
		}
		f.probs.add(fmt.Errorf("%w: %d %s not followed, from %s on: %s", ErrLinksetLimit, left, quote.Plural(left, "linkset"), quote.URL(first), why))
	}
}

// refuseRead returns a copy of client that refuses a redirect to a URL in
// read (compared without fragment) with errAlreadyRead, before its own
// CheckRedirect runs.
func refuseRead(client *http.Client, read map[string]bool) *http.Client {
	c := *client
	check := client.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if read[withoutFragment(req.URL)] {
			return errAlreadyRead
		}
		if check != nil {
			return check(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects") // net/http's policy
		}
		return nil
	}
	return &c
}

// fetchLinkset GETs the linkset at u, reads at most limit bytes of it and
// appends its links. It returns how many bytes it read, and the URL the
// response came from after redirects (nil when none came, or a redirect
// led to a URL read before). Its problems are reported as *FollowError.
func (f *fetcher) fetchLinkset(ctx context.Context, userAgent string, u *url.URL, limit int64) (read int64, from *url.URL) {
	f.scoped(func(err error) error { return &FollowError{URL: quote.Redacted(u), Err: err} }, func() {
		read, from = f.readLinkset(ctx, userAgent, u, limit)
	})
	return read, from
}

// readLinkset is fetchLinkset, reporting the problems unwrapped.
func (f *fetcher) readLinkset(ctx context.Context, userAgent string, u *url.URL, limit int64) (int64, *url.URL) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		f.probs.add(err)
		return 0, nil
	}
	req.Header.Set("Accept", linksetAccept)
	if userAgent != "" {
		req.Header.Set("User-Agent", userAgent)
	}
	resp, err := f.do(req)
	if err != nil {
		if !errors.Is(err, errAlreadyRead) {
			f.probs.add(err)
		}
		return 0, nil
	}
	defer resp.Body.Close()
	if resp.Request == nil || resp.Request.URL == nil {
		resp.Request = req
	}
	if !is2xx(resp.StatusCode) {
		f.probs.add(statusError(resp, resp.Request.URL))
		return 0, resp.Request.URL
	}
	return f.body(resp, limit, true), resp.Request.URL
}

// scoped runs read with a problem list of its own, then adds each of its
// problems to f's, wrapped by wrap: the problems of one linkset or catalog,
// named by it.
func (f *fetcher) scoped(wrap func(error) error, read func()) {
	outer := f.probs
	f.probs = problems{}
	read()
	for _, err := range f.probs.errs {
		outer.add(wrap(err))
	}
	outer.more += f.probs.more
	f.probs = outer
}
