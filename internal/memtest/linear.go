package memtest

import (
	"runtime"
	"runtime/debug"
	"time"
)

// Linear reports whether large, which does four times the work of small,
// takes at most limit times as long: each is timed three times in turn,
// after a garbage collection and with the collector off, in processor time
// (CPUTime), and the best of each is compared; the comparison is made
// again up to three times before it fails, as the machine may be busy with
// other work. Below 100 ms for large, the ratio is noise (processor time
// includes parallel tests and page faults of fresh memory) and Linear
// reports true: work that grew as the square of its input would take
// minutes there, not milliseconds. It returns the last best times.
func Linear(small, large func(), limit float64) (ok bool, ds, dl time.Duration) {
	// Without collections during a run: a collection starts when the heap
	// reaches a size, which the large input reaches and the small one may
	// not, and its cost is the live heap's, not the work's.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for range 3 {
		ds, dl = time.Duration(1<<62), time.Duration(1<<62)
		for range 3 {
			ds = min(ds, timed(small))
			dl = min(dl, timed(large))
		}
		if float64(dl) <= limit*float64(max(ds, time.Microsecond)) || dl < 100*time.Millisecond {
			return true, ds, dl
		}
	}
	return false, ds, dl
}

// timed returns the processor time f takes, after a garbage collection.
func timed(f func()) time.Duration {
	runtime.GC()
	start := CPUTime()
	f()
	return CPUTime() - start
}
