//go:build !unix

package memtest

import "time"

// CPUTime returns the wall-clock time where the processor time of the
// process is not available.
func CPUTime() time.Duration { return time.Duration(time.Now().UnixNano()) }
