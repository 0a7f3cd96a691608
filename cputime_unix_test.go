//go:build unix

package weblink

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the test process has used, in user and
// system mode, all threads (the garbage collector's included): unlike wall
// time, it hardly depends on what else the machine is running.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
