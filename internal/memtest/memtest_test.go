package memtest

import "testing"

var sink []byte

func TestAllocated(t *testing.T) {
	if n := Allocated(func() { sink = make([]byte, 1<<20) }); n < 1<<20 || n > 1<<20+64<<10 {
		t.Errorf("Allocated of a 1 MiB slice = %d bytes", n)
	}
	if n := Allocated(func() {}); n > 4<<10 {
		t.Errorf("Allocated of nothing = %d bytes", n)
	}
}
