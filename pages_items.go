package weblink

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
)

// Items pages through req the way [Pages] does, with the same options and
// safety checks (loops, schemes, origins, credentials, [MaxPages],
// [WaitRateLimits]), and yields the items that decode returns for each 2xx
// page, in order: every item of every page, with a nil error.
//
//	for issue, err := range weblink.Items(ctx, client, req, weblink.JSONItems[Issue]) {
//		if err != nil {
//			return err
//		}
//		// use issue
//	}
//
// decode reads the page's body; Pages closes it afterwards, also when the
// loop body breaks in the middle of a page. [JSONItems] decodes a JSON array.
// The first error ends the iteration, yielded with the zero T: an error from
// Pages (for a page that is not 2xx, a [*StatusError], whose response body is
// closed unread), or an error from decode, wrapped ([errors.Is] and [errors.As]
// find it) in an error that names the page URL. Each range over the
// sequence starts again from req.
func Items[T any](ctx context.Context, client *http.Client, req *http.Request,
	decode func(*http.Response) ([]T, error), opts ...PageOption) iter.Seq2[T, error] {
	pages := Pages(ctx, client, req, opts...)
	return func(yield func(T, error) bool) {
		var zero T
		n := 0
		for resp, err := range pages {
			n++
			if err != nil {
				yield(zero, err)
				return
			}
			items, err := decode(resp)
			if err != nil {
				yield(zero, fmt.Errorf("weblink: page %d (%s) did not decode: %w", n, showURL(resp.Request.URL), err))
				return
			}
			for _, item := range items {
				if !yield(item, nil) {
					return
				}
			}
		}
	}
}

// JSONItems decodes the body of resp as a JSON array of T, for [Items]. An
// empty body (a 204 No Content, the answer to a HEAD request, or only
// whitespace) and the JSON null are no items; anything after the array is an
// error.
func JSONItems[T any](resp *http.Response) ([]T, error) {
	if resp.StatusCode == http.StatusNoContent || resp.Request != nil && resp.Request.Method == http.MethodHead {
		return nil, nil
	}
	dec := json.NewDecoder(resp.Body)
	var items []T
	if err := dec.Decode(&items); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("weblink: the JSON array is followed by more data")
	}
	return items, nil
}
