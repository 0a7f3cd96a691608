package ascii

// UpperHex and LowerHex are the digits of a percent-encoding (RFC 3986
// §2.1): upper-case, which §2.1 asks producers to use, and lower-case, for
// relation types, which readers compare lower-cased.
const (
	UpperHex = "0123456789ABCDEF"
	LowerHex = "0123456789abcdef"
)

// AppendPercent appends the percent-encoding of c to b: "%" and the two
// digits of c in hex, UpperHex or LowerHex (RFC 3986 §2.1).
func AppendPercent(b []byte, c byte, hex string) []byte {
	return append(b, '%', hex[c>>4], hex[c&15])
}
