package paging

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/quote"
)

// nextLink returns the next URL of resp, page the pager fetched, as
// [weblink.NextURL] finds it. With no usable next link it returns nil, and
// an error wrapping [ErrNextLink] when the Link header was malformed
// ([weblink.ParseResponse] reports a dropped link-value, or a target or
// anchor that does not resolve): the broken part may have been the next
// link, so the pager says so rather than guess that this is the last page
// (rule 11). The header is parsed whole only then, on the last page.
func nextLink(resp *http.Response) (*url.URL, error) {
	if u, ok := weblink.NextURL(resp); ok {
		return u, nil
	}
	if len(resp.Header["Link"]) == 0 {
		return nil, nil
	}
	if _, err := weblink.ParseResponse(resp); err != nil {
		return nil, fmt.Errorf("%w in %s; it may be the last page, or the next link may be the broken part: %w", ErrNextLink, quote.URL(resp.Request.URL), err)
	}
	return nil, nil
}
