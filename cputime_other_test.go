//go:build !unix

package weblink

import "time"

// start is when the tests began.
var start = time.Now()

// cpuTime returns the time since the tests began: where the CPU time of the
// process is not at hand, wall time stands in for it.
func cpuTime() time.Duration { return time.Since(start) }
