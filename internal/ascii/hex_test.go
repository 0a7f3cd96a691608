package ascii

import "testing"

// TestAppendPercent checks both digit sets at the ends of the byte range
// and where the cases differ.
func TestAppendPercent(t *testing.T) {
	tests := []struct {
		c    byte
		hex  string
		want string
	}{
		{0x00, UpperHex, "%00"},
		{0x0a, UpperHex, "%0A"},
		{0xc3, UpperHex, "%C3"},
		{0xff, UpperHex, "%FF"},
		{0xc3, LowerHex, "%c3"},
		{0xff, LowerHex, "%ff"},
	}
	for _, tt := range tests {
		if got := string(AppendPercent([]byte("x"), tt.c, tt.hex)); got != "x"+tt.want {
			t.Errorf("AppendPercent(x, %#x, %q) = %q, want %q", tt.c, tt.hex, got, "x"+tt.want)
		}
	}
}
