package ascii

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// The formatters' escaping before it was shared, kept as references: what
// package weblink wrote inside quoted-strings and relation types, and what
// package linkformat wrote with its tables. Escapes must write the same
// bytes.

func oldQuotedASCII(b []byte, s, hex string) []byte {
	for i := 0; i < len(s); {
		j := i
		for j < len(s) {
			if c := s[j]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
				break
			}
			j++
		}
		b = append(b, s[i:j]...)
		if j == len(s) {
			break
		}
		if c := s[j]; c == '"' || c == '\\' {
			b = append(b, '\\', c)
		} else {
			b = AppendPercent(b, c, hex)
		}
		i = j + 1
	}
	return b
}

func oldRelType(b []byte, r string) []byte {
	for {
		word, rest, space := strings.Cut(r, " ")
		b = oldQuotedASCII(b, word, LowerHex)
		if !space {
			return b
		}
		b, r = append(b, "%20"...), rest
	}
}

func oldEscapeTable(pct, escaped string, lowerCase bool) (t [utf8.RuneSelf]uint8) {
	for c := range byte(' ') {
		t[c] = percent
	}
	t[0x7f] = percent
	for i := range len(pct) {
		t[pct[i]] = percent
	}
	for i := range len(escaped) {
		t[escaped[i]] = backslash
	}
	if lowerCase {
		for c := byte('A'); c <= 'Z'; c++ {
			t[c] = lower
		}
	}
	return t
}

func oldEscapedBy(b []byte, s string, t *[utf8.RuneSelf]uint8, hex string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			var size int
			b, size = AppendNonASCII(b, s[i:], hex)
			i += size
			continue
		}
		switch t[c] {
		case asIs:
			b = append(b, c)
		case percent:
			b = AppendPercent(b, c, hex)
		case backslash:
			b = append(b, '\\', c)
		case lower:
			b = append(b, ToLower(c))
		}
		i++
	}
	return b
}

// escapeCases pairs each table of the formatters with its reference.
var escapeCases = []struct {
	name string
	new  func(s string) string
	old  func(s string) string
}{
	{"weblink quoted", func(s string) string { return string(NewEscapes("", "\"\\", false, false).Append(nil, s, UpperHex)) },
		func(s string) string { return string(oldQuotedASCII(nil, s, UpperHex)) }},
	{"weblink rel", func(s string) string { return string(NewEscapes(" ", "\"\\", false, false).Append(nil, s, LowerHex)) },
		func(s string) string { return string(oldRelType(nil, s)) }},
}

func init() {
	for _, tc := range []struct {
		name, pct, esc string
		lower          bool
		hex            string
	}{
		{"linkformat iri", " \"<>\\^`{|}", "", false, UpperHex},
		{"linkformat rel", " \"\\", "", true, LowerHex},
		{"linkformat bare", "", "", false, UpperHex},
		{"linkformat quoted", "", "\"\\", false, UpperHex},
	} {
		t := oldEscapeTable(tc.pct, tc.esc, tc.lower)
		e := NewEscapes(tc.pct, tc.esc, tc.lower, true)
		escapeCases = append(escapeCases, struct {
			name string
			new  func(s string) string
			old  func(s string) string
		}{tc.name, func(s string) string { return string(e.Append(nil, s, tc.hex)) },
			func(s string) string { return string(oldEscapedBy(nil, s, &t, tc.hex)) }})
	}
}

// TestEscapesAsBefore checks every table on every string of one and two
// bytes and on UTF-8, C1 and invalid sequences: byte for byte what the two
// formatters wrote before they shared Escapes.
func TestEscapesAsBefore(t *testing.T) {
	inputs := []string{"", "next", "a b", "Next Prev", "x\"y\\z", "é", "\u0085", "\u009b[31m", "\xff\xfe", "日本語 \x7f", "%41", "a\tb\r\nc"}
	for a := 0; a < 256; a++ {
		inputs = append(inputs, string([]byte{byte(a)}))
		for _, c := range []byte{'a', ' ', '"', 0x80, 0xc3, 0xa9} {
			inputs = append(inputs, string([]byte{byte(a), c}), string([]byte{c, byte(a)}))
		}
	}
	for _, tc := range escapeCases {
		for _, s := range inputs {
			if got, want := tc.new(s), tc.old(s); got != want {
				t.Errorf("%s: %q: %q, before %q", tc.name, s, got, want)
			}
		}
	}
}

// FuzzEscapes compares every table with its reference on any input.
func FuzzEscapes(f *testing.F) {
	for _, s := range []string{"next", "a b\x00\"\\", "é\u0085\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, tc := range escapeCases {
			if got, want := tc.new(s), tc.old(s); got != want {
				t.Fatalf("%s: %q: %q, before %q", tc.name, s, got, want)
			}
		}
	})
}
