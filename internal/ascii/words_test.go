package ascii

import "testing"

// TestIndexEither checks IndexEither against a byte loop at every offset
// of strings around the word size, with either byte at every place.
func TestIndexEither(t *testing.T) {
	slow := func(s string, i int, a, b byte) int {
		for ; i < len(s); i++ {
			if s[i] == a || s[i] == b {
				return i
			}
		}
		return len(s)
	}
	for n := range 20 {
		for at := 0; at <= n; at++ {
			for _, c := range []byte{'"', '\\', 0, 0x01, 0x80, 0xff} {
				b := make([]byte, n+1)
				for i := range b {
					b[i] = 'x'
				}
				b[at] = c
				s := string(b)
				for i := 0; i <= len(s)+1; i++ {
					for _, pair := range [][2]byte{{'"', '\\'}, {0, 1}, {0x80, 0xff}} {
						if got, want := IndexEither(s, i, pair[0], pair[1]), slow(s, i, pair[0], pair[1]); got != want {
							t.Fatalf("IndexEither(%q, %d, %q, %q) = %d, want %d", s, i, pair[0], pair[1], got, want)
						}
					}
				}
			}
		}
	}
}

// TestLoad64 checks that Load64 reads eight bytes little-endian.
func TestLoad64(t *testing.T) {
	if got, want := Load64("xabcdefgh", 1), uint64(0x6867666564636261); got != want {
		t.Errorf("Load64 = %#x, want %#x", got, want)
	}
}
