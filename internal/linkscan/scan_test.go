package linkscan

import (
	"strings"
	"testing"
)

// TestQuotedEnd is the table of QuotedEnd: closed and unclosed
// quoted-strings, with and without quoted-pairs, past the dense escapes
// after which it goes byte by byte.
func TestQuotedEnd(t *testing.T) {
	tests := []struct {
		in              string
		end             int
		escaped, closed bool
	}{
		{`""`, 2, false, true},
		{`"abc" x`, 5, false, true},
		{`"a\"b"`, 6, true, true},
		{`"a\\"b"`, 5, true, true},
		{`"unclosed`, 9, false, false},
		{`"ends in a backslash\`, 21, true, false},
		{`"` + "x\\\"x\\\"x\\\"x\\\"x\\\"x\\\"" + `"z`, 20, true, true},
		{`"` + "\\\"\\\"\\\"\\\"\\\"\\\"", 13, true, false},
		{"\"a longer run of qdtext, past a word\" ;", 37, false, true},
	}
	for _, tt := range tests {
		end, escaped, closed := QuotedEnd(tt.in, 0)
		if end != tt.end || escaped != tt.escaped || closed != tt.closed {
			t.Errorf("QuotedEnd(%q, 0) = %d, %v, %v; want %d, %v, %v", tt.in, end, escaped, closed, tt.end, tt.escaped, tt.closed)
		}
	}
}

// TestSkipElement is the table of SkipElement: the comma that ends the
// element is the first outside quoted-strings and <...> (rule 8 of package weblink).
func TestSkipElement(t *testing.T) {
	tests := []struct {
		in   string
		i    int
		want int
	}{
		{"junk, <a>", 0, 5},
		{`x="a,b", <a>`, 0, 8},
		{`x="a\",b", <a>`, 0, 10},
		{"<a,b>, <c>", 0, 6},
		{"<a,b, <c>", 0, 9}, // the "<" is closed by the ">" of <c>
		{"<a,b", 0, 4},
		{`x="unclosed, <a>`, 0, 16},
		{"no comma", 0, 8},
		{"a,b,c", 2, 4},
		{"", 0, 0},
	}
	for _, tt := range tests {
		if got := SkipElement(tt.in, tt.i); got != tt.want {
			t.Errorf("SkipElement(%q, %d) = %d, want %d", tt.in, tt.i, got, tt.want)
		}
	}
}

func TestStrayOpen(t *testing.T) {
	for _, tt := range []struct {
		s     string
		off   int
		comma bool
	}{
		{`<a>`, -1, false},
		{`<a, <b>`, 2, true},  // the comma where the ">" is missing
		{`<a,	 <b>`, 2, true}, // whitespace between the comma and the "<"
		{`<a<b>`, 2, false},   // no comma: at the "<"
		{`<<>`, 1, false},
		{`<a, x <b>`, 6, false}, // more than whitespace before the "<"
	} {
		gt := strings.IndexByte(tt.s, '>')
		if off, comma := StrayOpen(tt.s, 0, gt); off != tt.off || comma != tt.comma {
			t.Errorf("StrayOpen(%q) = %d, %v; want %d, %v", tt.s, off, comma, tt.off, tt.comma)
		}
	}
}
