// Package linkscan holds what the parsers of the module share: the parser
// of Link field values (package weblink) and the TimeMap reader of package
// linkformat, which reads the same syntax. It caps the problems one input
// reports in detail, so that hostile input cannot make a huge error.
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
