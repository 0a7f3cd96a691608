// Package readhook lets package signposting ask discover.Links for what the
// FAIR Signposting profile needs beyond discover's public API, without
// adding it there: the status and final URL of the response, the body of a
// 410 Gone read like a 2xx one (a tombstone page carries its signposts), and
// a linkset JSON parser of its own that reads the deviations of real
// platforms. A context made with With carries the Hook; discover.Links
// reads it with From.
package readhook

import (
	"context"
	"net/url"

	"github.com/weblinking/weblink"
)

// Hook is what a caller of discover.Links asks for and learns.
type Hook struct {
	// ReadStatus is a status other than 2xx whose response discover.Links
	// reads like a 2xx one (body and linksets); 0 means none.
	ReadStatus int
	// ParseLinkset, when set, parses a linkset document in place of
	// weblink.ParseLinkset (mediaType application/linkset) and
	// weblink.ParseLinksetJSON (any other); base is the URL it came from,
	// against which discover resolves the links returned.
	ParseLinkset func(base *url.URL, doc []byte, mediaType string) (weblink.Links, error)

	// StatusCode and URL are set by discover.Links: the status of the
	// resource's response and its URL after redirects.
	StatusCode int
	URL        *url.URL
}

type key struct{}

// With returns a copy of ctx that carries h to discover.Links.
func With(ctx context.Context, h *Hook) context.Context {
	return context.WithValue(ctx, key{}, h)
}

// From returns the Hook With put in ctx, or nil.
func From(ctx context.Context) *Hook {
	h, _ := ctx.Value(key{}).(*Hook)
	return h
}
