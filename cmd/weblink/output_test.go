package main

import (
	"fmt"
	"strings"
	"testing"
)

func TestExcerpt(t *testing.T) {
	cont := strings.Repeat("\x80", 41)
	for _, c := range []struct {
		name, text string
		off        int
		shown      string
		col        int
	}{
		{"short", "<a>, b", 5, "<a>, b", 5},
		// A run of continuation bytes after the offset: the window must
		// not walk back past the offset (it panicked).
		{"continuation bytes after", "," + cont, 1, `,` + strings.Repeat(`\x80`, 40) + "...", 1},
		// The part after the caret is never empty when the line goes on.
		{"continuation bytes cut", ",x" + strings.Repeat("\x80", 40) + "yz", 1, `,x` + strings.Repeat(`\x80`, 40) + "...", 1},
		// A multi-byte character at the cut is kept whole.
		{"rune at the end cut", "," + strings.Repeat("a", 38) + "éé", 1, "," + strings.Repeat("a", 38) + "é...", 1},
		// Walking back to a rune start never crosses the line start.
		{"line start", "x\n" + strings.Repeat("\x80", 70) + "b", 72, "..." + strings.Repeat(`\x80`, 60) + "b", 3 + 60*4},
		{"offset at the end", "<a", 2, "<a", 2},
	} {
		shown, col := excerpt(c.text, c.off)
		if shown != c.shown || col != c.col {
			t.Errorf("%s: excerpt(%q, %d) = %q, %d; want %q, %d", c.name, c.text, c.off, shown, col, c.shown, c.col)
		}
	}
}

func TestJSONEscapesTerminalControls(t *testing.T) {
	// C1 controls and bidi formatting characters are written as \uXXXX:
	// U+009B is CSI to a terminal, U+202E reverses what follows.
	r := runCmd(t, "", "-json", "<a>; rel=next; title*=UTF-8''%C2%9B%E2%80%AEx")
	if r.code != exitOK || !strings.Contains(r.stdout, `"value": "\u009b\u202ex"`) {
		t.Errorf("exit %d, stdout %q", r.code, r.stdout)
	}
	var escaped []rune
	for r := rune(0x80); r <= 0x9f; r++ {
		escaped = append(escaped, r)
	}
	escaped = append(escaped, 0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069)
	for _, c := range escaped {
		in := `{"title": "a` + string(c) + `b"}`
		want := `{"title": "a\u` + fmt.Sprintf("%04x", c) + `b"}`
		if got := string(jsonSafe([]byte(in))); got != want {
			t.Errorf("jsonSafe(%q) = %q, want %q", in, got, want)
		}
	}
	// Other non-ASCII stays as it is; so do the neighbours of the ranges.
	for _, in := range []string{`"é ü 日本 \u0085"`, "\"\u007e\u00a0\u061b\u061d\u200d\u2010\u2029\u2065\u206a\"", "\"\xff\xc2\""} {
		if got := string(jsonSafe([]byte(in))); got != in {
			t.Errorf("jsonSafe(%q) = %q, want it unchanged", in, got)
		}
	}
}
