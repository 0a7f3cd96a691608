package linkscan

import "testing"

// TestMore checks the wording of the error that stands for the problems
// not listed.
func TestMore(t *testing.T) {
	if got, want := (&More{N: 984}).Error(), "weblink: 984 more problems not listed"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
