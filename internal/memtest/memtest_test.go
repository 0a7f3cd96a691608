package memtest

import "testing"

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
