package memtest

import (
	"testing"
	"time"
)

var sink []byte

// TestAllocated checks Allocated on a known allocation and on none. The
// counts are process-wide, so another goroutine (the testing package's,
// the runtime's) may allocate during a run: the smallest of five runs is
// taken (one run of nothing once counted 5320 bytes in CI).
func TestAllocated(t *testing.T) {
	least := func(f func()) uint64 {
		n := Allocated(f)
		for range 4 {
			n = min(n, Allocated(f))
		}
		return n
	}
	if n := least(func() { sink = make([]byte, 1<<20) }); n < 1<<20 || n > 1<<20+64<<10 {
		t.Errorf("Allocated of a 1 MiB slice = %d bytes", n)
	}
	if n := least(func() {}); n > 4<<10 {
		t.Errorf("Allocated of nothing = %d bytes", n)
	}
}

// TestRetained checks Retained on a slice that f returns, which is
// counted, and on one it lets go, which is not (the smallest of five runs,
// as in TestAllocated; the largest for what must be counted).
func TestRetained(t *testing.T) {
	kept, let := int64(0), int64(1<<62)
	for range 5 {
		kept = max(kept, Retained(func() any { return make([]byte, 1<<20) }))
		let = min(let, Retained(func() any { sink = make([]byte, 1<<20); sink = nil; return nil }))
	}
	if kept < 1<<20 || kept > 1<<20+64<<10 {
		t.Errorf("Retained of a 1 MiB slice returned = %d bytes", kept)
	}
	if let > 64<<10 {
		t.Errorf("Retained of a 1 MiB slice let go = %d bytes", let)
	}
}

// spin does n units of work that the compiler cannot drop.
func spin(n int) {
	x := uint64(1)
	for i := range n {
		x = x*6364136223846793005 + uint64(i)
	}
	sinkN = x
}

var sinkN uint64

// TestLinear checks that Linear passes work four times as large and fails
// work sixteen times as large, over 100 ms (not with -short).
func TestLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	n := 1 << 20
	for {
		start := CPUTime()
		spin(16 * n)
		if CPUTime()-start > 120*time.Millisecond {
			break
		}
		n *= 2
	}
	if ok, ds, dl := Linear(func() { spin(n) }, func() { spin(4 * n) }, 8); !ok {
		t.Errorf("4 times the work: %v, then %v; want it linear", ds, dl)
	}
	if ok, ds, dl := Linear(func() { spin(n) }, func() { spin(16 * n) }, 8); ok {
		t.Errorf("16 times the work: %v, then %v; want it not linear", ds, dl)
	}
}
