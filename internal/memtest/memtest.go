// Package memtest measures memory for the tests of package weblink and
// its discover subpackage, which bound the bytes allocated per input byte
// for hostile input.
package memtest

import "runtime"

// Allocated returns the bytes allocated on the heap while f runs, after a
// garbage collection.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
