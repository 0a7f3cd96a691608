//go:build unix

package memtest

import (
	"syscall"
	"time"
)

// CPUTime returns the processor time the process has used, all threads
// together, so that timing tests do not count the time other processes on
// a busy machine hold the processor.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return time.Duration(time.Now().UnixNano())
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
