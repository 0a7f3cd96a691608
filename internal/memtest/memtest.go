// Package memtest measures memory and time for the tests of package
// weblink and its subpackages, which bound the bytes allocated, or kept,
// per input byte for hostile input, and check that time grows linearly
// with the input.
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

// Retained returns the bytes of heap that what f returns keeps alive: the
// live heap after f, less the live heap before it, each measured after a
// garbage collection. What f allocates and lets go is not counted.
func Retained(f func() any) int64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := f()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc)
}
