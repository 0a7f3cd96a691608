package ascii

import (
	"strings"
	"testing"
)

// TestByteClasses checks ToLower, IsTokenChar and IsPrint byte by byte
// against the definitions of RFC 5234 (ALPHA, DIGIT, VCHAR) and RFC 9110
// §5.6.2 (tchar), written out differently from the code.
func TestByteClasses(t *testing.T) {
	for i := 0; i < 256; i++ {
		c := byte(i)
		upper := 'A' <= c && c <= 'Z'
		wantLower := c
		if upper {
			wantLower = c + 32
		}
		if got := ToLower(c); got != wantLower {
			t.Errorf("ToLower(%#x) = %#x, want %#x", c, got, wantLower)
		}
		alnum := upper || 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
		wantToken := alnum || c < 0x80 && strings.ContainsRune("!#$%&'*+-.^_`|~", rune(c))
		if got := IsTokenChar(c); got != wantToken {
			t.Errorf("IsTokenChar(%q) = %v, want %v", c, got, wantToken)
		}
		if got, want := IsPrint(string([]byte{c})), c == ' ' || 0x21 <= c && c <= 0x7e; got != want {
			t.Errorf("IsPrint(%q) = %v, want %v", c, got, want)
		}
	}
}

func TestLower(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"next", "next"},
		{"Next", "next"},
		{"X-FOO_bar", "x-foo_bar"},
		{"\u212a\u00c9Z", "\u212a\u00c9z"}, // non-ASCII stays as it is
		{"@[`{", "@[`{"},                   // the bytes around the letters
	} {
		if got := Lower(tt.in); got != tt.want {
			t.Errorf("Lower(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := string(AppendLower([]byte("<"), tt.in)); got != "<"+tt.want {
			t.Errorf("AppendLower(<, %q) = %q, want %q", tt.in, got, "<"+tt.want)
		}
	}
}

func TestLowerAllocs(t *testing.T) {
	s := strings.Repeat("already-lower", 4)
	if n := testing.AllocsPerRun(100, func() { _ = Lower(s) }); n != 0 {
		t.Errorf("Lower of a lower-case string allocates %v times, want 0", n)
	}
}

func TestEqualFold(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"", "", true},
		{"next", "NEXT", true},
		{"Link", "link", true},
		{"next", "nex", false},
		{"k", "\u212a", false}, // KELVIN SIGN: not folded
		{"@", "`", false},      // 0x40 and 0x60 differ only in the case bit
		{"[", "{", false},
		{"\u00e9", "\u00c9", false}, // é and É: non-ASCII, not folded
	} {
		if got := EqualFold(tt.a, tt.b); got != tt.want {
			t.Errorf("EqualFold(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestIsToken(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"", false},
		{"crossorigin", true},
		{"x-Foo.1~!", true},
		{"a b", false},
		{"title*", true},
		{`"x"`, false},
		{"a;b", false},
		{"\u00e9", false},
	} {
		if got := IsToken(tt.s); got != tt.want {
			t.Errorf("IsToken(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}
