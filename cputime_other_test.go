//go:build !unix

package weblink

import "time"

// cpuTime returns the wall-clock time where the processor time of the
// process is not available.
func cpuTime() time.Duration { return time.Duration(time.Now().UnixNano()) }
