package ascii

import "math/bits"

// IndexEither returns the index of the first byte of s at or after i that
// is a or b, or len(s) when there is none (i may be beyond len(s)). It
// tests eight bytes at a time in a machine word, which for the runs of a
// field value (a parameter value, a quoted-string: mostly under 64 bytes)
// costs less than the set-up of strings.IndexByte, and finds either byte in
// one pass.
func IndexEither(s string, i int, a, b byte) int {
	wa, wb := lowBits*uint64(a), lowBits*uint64(b)
	for ; i+8 <= len(s); i += 8 {
		x := Load64(s, i)
		if m := zeroBytes(x^wa) | zeroBytes(x^wb); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(s); i++ {
		if s[i] == a || s[i] == b {
			return i
		}
	}
	return len(s)
}

// lowBits has the lowest bit of each of the eight bytes of a word set, and
// highBits the highest.
const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// Load64 returns s[i:i+8] as a little-endian word (one load on amd64 and
// arm64).
func Load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// zeroBytes returns x's zero bytes as a word with the high bit of each set,
// exactly up to and including the lowest zero byte: a byte of 0x01 above a
// zero byte may be marked too, so only the lowest mark is to be trusted. It
// is 0 when x has no zero byte.
func zeroBytes(x uint64) uint64 { return (x - lowBits) &^ x & highBits }
