package weblink

import (
	"strings"
	"testing"

	"github.com/weblinking/weblink/internal/ascii"
	"github.com/weblinking/weblink/internal/linkscan"
)

// The byte loops that the word-at-a-time scanners parse.go uses
// (ascii.IndexEither, ascii.ClassRun, linkscan.QuotedEnd) and its fast
// paths replace, kept as their oracles.

func indexEitherBytes(s string, i int, a, b byte) int {
	for ; i < len(s); i++ {
		if s[i] == a || s[i] == b {
			return i
		}
	}
	return len(s)
}

func classRunBytes(t *[256]uint8, s string, i int, class uint8) int {
	for i < len(s) && t[s[i]]&class != 0 {
		i++
	}
	return i
}

// quotedEndBytes is linkscan.QuotedEnd as one byte loop (RFC 9110 §5.6.4).
func quotedEndBytes(s string, i int) (end int, escaped, closed bool) {
	for i++; i < len(s); i++ {
		switch s[i] {
		case '"':
			return i + 1, escaped, true
		case '\\':
			escaped = true
			i++
		}
	}
	return len(s), escaped, false
}

// knownNameSlow is knownName by the general path: the token at s[i],
// which must be followed by "=" and be lower-case, and its attrKind.
func knownNameSlow(s string, i int) (kind, n int) {
	j := i
	for j < len(s) && charClass[s[j]]&isTchar != 0 {
		j++
	}
	name := s[i:j]
	if j == len(s) || s[j] != '=' || strings.ToLower(name) != name {
		return 0, 0
	}
	switch k := attrKind(name); {
	case k < numFirst, k == attrHreflang:
		return k, len(name)
	}
	return 0, 0
}

// scanInputs are strings around the word size and the bytes the scanners
// look for, at every offset.
func scanInputs() []string {
	var ins []string
	for _, fill := range []string{"a", "\x00", "\x01", "\x80", "\xff", " ", "%"} {
		for n := range 20 {
			base := strings.Repeat(fill, n)
			ins = append(ins, base)
			for _, c := range []string{`"`, `\`, ";", ",", "\x00", "\x01", "\xff", "#", "<", "^", "A"} {
				for at := 0; at <= n; at++ {
					ins = append(ins, base[:at]+c+base[at:])
					ins = append(ins, base[:at]+c+base[at:]+c)
				}
			}
		}
	}
	return ins
}

// checkScanners fails t when a scanner differs from its byte loop on s.
func checkScanners(t *testing.T, s string) {
	t.Helper()
	for i := 0; i <= len(s)+1; i++ {
		for _, pair := range [][2]byte{{'"', '\\'}, {';', ','}, {0, 1}, {0x80, 0xff}} {
			if got, want := ascii.IndexEither(s, i, pair[0], pair[1]), indexEitherBytes(s, i, pair[0], pair[1]); got != want {
				t.Fatalf("ascii.IndexEither(%q, %d, %q, %q) = %d, want %d", s, i, pair[0], pair[1], got, want)
			}
		}
		if i > len(s) {
			continue
		}
		for _, c := range []struct {
			t     *[256]uint8
			class uint8
		}{{&charClass, isURIChar}, {&charClass, isTchar}, {&charClass, isAttrChar}} {
			if got, want := ascii.ClassRun(c.t, s, i, c.class), classRunBytes(c.t, s, i, c.class); got != want {
				t.Fatalf("ascii.ClassRun(%q, %d, %#x) = %d, want %d", s, i, c.class, got, want)
			}
		}
		if i < len(s) && s[i] == '"' {
			e, esc, closed := linkscan.QuotedEnd(s, i)
			we, wesc, wclosed := quotedEndBytes(s, i)
			if e != we || esc != wesc || closed != wclosed {
				t.Fatalf("linkscan.QuotedEnd(%q, %d) = %d, %v, %v; want %d, %v, %v", s, i, e, esc, closed, we, wesc, wclosed)
			}
		}
		if gk, gn := knownName(s, i); gn > 0 {
			if wk, wn := knownNameSlow(s, i); gk != wk || gn != wn {
				t.Fatalf("knownName(%q, %d) = %d, %d; the general path says %d, %d", s, i, gk, gn, wk, wn)
			}
			if attrNames[gk] != s[i:i+gn] {
				t.Fatalf("knownName(%q, %d) = %d: attrNames has %q", s, i, gk, attrNames[gk])
			}
		}
	}
}

func TestScanners(t *testing.T) {
	for _, s := range scanInputs() {
		checkScanners(t, s)
	}
	// Dense quoted-pairs, past the point where linkscan.QuotedEnd goes byte by
	// byte, and long runs between them.
	for _, s := range []string{
		`"` + strings.Repeat(`x\"`, 40) + `"`,
		`"` + strings.Repeat(`\\`, 9) + `"x`,
		`"` + strings.Repeat(`\`, 9) + `"x`,
		`"` + strings.Repeat(`abcdefghij\"`, 8) + `"`,
		`"` + strings.Repeat(`x\"`, 40),
	} {
		checkScanners(t, s)
	}
}

// TestKnownName is the table of knownName: the target attribute names in
// lower case directly followed by "=", and nothing else.
func TestKnownName(t *testing.T) {
	tests := []struct {
		in   string
		kind int
		n    int
	}{
		{`rel="next"`, attrRel, 3},
		{`rev=x;;;;;`, attrRev, 3},
		{`anchor="#a"`, attrAnchor, 6},
		{`media=screen`, attrMedia, 5},
		{`title="T" ;`, attrTitle, 5},
		{`title*=UTF-8''a`, attrTitleStar, 6},
		{`type=text/html`, attrType, 4},
		{`hreflang=en;`, attrHreflang, 8},
		{`rel = "next"`, 0, 0}, // BWS: the general path
		{`Rel="next"`, 0, 0},   // lower-cased by the general path
		{`rel*=UTF-8''a`, 0, 0},
		{`relation=up`, 0, 0},
		{`hreflangs=en`, 0, 0},
		{`hreflang*=x`, 0, 0},
		{`titles="x"`, 0, 0},
		{`rel=`, 0, 0}, // under 9 bytes: the general path
		{`crossorigin`, 0, 0},
	}
	for _, tt := range tests {
		if kind, n := knownName(tt.in, 0); kind != tt.kind || n != tt.n {
			t.Errorf("knownName(%q) = %d, %d; want %d, %d", tt.in, kind, n, tt.kind, tt.n)
		}
		if tt.n > 0 {
			if kind, n := knownNameSlow(tt.in, 0); kind != tt.kind || n != tt.n {
				t.Errorf("general path on %q: %d, %d; want %d, %d", tt.in, kind, n, tt.kind, tt.n)
			}
		}
	}
}

// FuzzScanners checks the word-at-a-time scanners and the fast paths of
// parse against their byte loops on any input.
func FuzzScanners(f *testing.F) {
	for _, s := range []string{`"a\"b" ;rel=x`, `hreflang=en, title*=UTF-8'en'x`, "https://example.com/a?b#c", "\x00\x01\x80\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 256 {
			s = s[:256] // every offset is tried: keep it quadratic in little
		}
		checkScanners(t, s)
	})
}
