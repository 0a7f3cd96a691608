package main

import (
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

func TestTextWidth(t *testing.T) {
	for s, want := range map[string]int{
		"": 0, "abc": 3, "é": 1, "e\u0301": 1, "日本": 4, "🚀": 2, "ｱ": 1, "Ａ": 2, "\u200b": 0, "\u200e": 0, "한국": 4,
	} {
		if got := textWidth(s); got != want {
			t.Errorf("textWidth(%q) = %d, want %d", s, got, want)
		}
	}
}
