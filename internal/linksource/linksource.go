// Package linksource lets the weblink command learn where each link that
// discover.Links returns came from, without adding that to the public API:
// a context made with With carries a slice that discover.Links fills with
// one source per link ("header", "link", "a", "area", "feed", "linkset").
package linksource

import "context"

type key struct{}

// With returns a copy of ctx that asks discover.Links to record the source
// of each link it returns in *sources.
func With(ctx context.Context, sources *[]string) context.Context {
	return context.WithValue(ctx, key{}, sources)
}

// From returns the slice With put in ctx, or nil.
func From(ctx context.Context) *[]string {
	s, _ := ctx.Value(key{}).(*[]string)
	return s
}
