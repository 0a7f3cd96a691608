// Package linkscan holds the link-value syntax that package weblink (Link
// fields) and package linkformat (link-format documents and TimeMaps,
// which use the same syntax) share, so that each rule is written once:
// the scanning of quoted-strings and of the element after a malformed
// link-value ([QuotedEnd], [SkipElement]), the cap on the problems one
// input reports in detail ([MaxErrors], [More]), and the parameters a
// writer puts in the star form or leaves to a link's own fields
// ([StarNames], [OwnName]).
//
// It cannot use package weblink, which imports it: its functions take
// strings, or any param type with a function that reads it.
package linkscan

import "strconv"

// MaxErrors is how many problems one input reports in detail; the rest
// are counted in one [More] after them.
const MaxErrors = 16

// More is the error that stands for the N problems found beyond the
// MaxErrors reported in detail.
type More struct {
	N int
}

// Error returns "weblink: N more problems not listed".
func (e *More) Error() string {
	return "weblink: " + strconv.Itoa(e.N) + " more problems not listed"
}
