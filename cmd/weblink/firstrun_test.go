package main

import (
	"testing"
)

// TestHelpWord: "weblink help" is a usage error that points to -h; it was
// a link-value that does not start with "<" and "no links found".
func TestHelpWord(t *testing.T) {
	for _, arg := range []string{"help", " HELP ", "-?"} {
		r := runCmd(t, "", arg)
		r.want(t, exitProblem, "")
		r.wantErr(t, "weblink -h")
	}
}
