package ascii

import "testing"

// TestAppendPercent checks the digits at the ends of the byte range and
// where the cases differ.
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
	}
	for _, tt := range tests {
		if got := string(AppendPercent([]byte("x"), tt.c, tt.hex)); got != "x"+tt.want {
			t.Errorf("AppendPercent(x, %#x, %q) = %q, want %q", tt.c, tt.hex, got, "x"+tt.want)
		}
	}
}

// TestUpperEscapes checks that the digits of %HH escapes are upper-cased
// and nothing else: not letters outside escapes, not a "%" without two hex
// digits after it, at the end of the input either.
func TestUpperEscapes(t *testing.T) {
	for in, want := range map[string]string{
		"":                      "",
		"next":                  "next",
		"http://x/%c3%a7runchy": "http://x/%C3%A7runchy",
		"%7f":                   "%7F",
		"%7F%ab":                "%7F%AB",
		"a%zz%a%2":              "a%zz%a%2",
		"%%ab":                  "%%AB",
		"%e%ab":                 "%e%AB",
		"%":                     "%",
		"x%f":                   "x%f",
		"%abc-def":              "%ABc-def",
		"%20%2f%2F%g1":          "%20%2F%2F%g1",
	} {
		b := []byte(in)
		UpperEscapes(b)
		if string(b) != want {
			t.Errorf("UpperEscapes(%q) = %q, want %q", in, b, want)
		}
	}
}
