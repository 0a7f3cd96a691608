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

func TestTableDisplayWidth(t *testing.T) {
	// CJK and emoji take two columns: the columns after them stay aligned.
	r := runCmd(t, "", `</a>; rel=next; title="日本語"; x=1`, `</bb>; rel=prev; title="🚀 go"; x=2`, `</c>; rel=last; title=plain; x=3`)
	r.want(t, exitOK, ""+
		"REL   TARGET  TITLE   ATTRIBUTES\n"+
		"next  /a      日本語  x=1\n"+
		"prev  /bb     🚀 go   x=2\n"+
		"last  /c      plain   x=3\n")
	// A long title is cut by width, at most 60 columns with "...".
	long := strings.Repeat("日", 40)
	r = runCmd(t, "", `</a>; rel=next; title="`+long+`"; x=1`)
	r.want(t, exitOK, ""+
		"REL   TARGET  TITLE"+strings.Repeat(" ", 56)+"ATTRIBUTES\n"+
		"next  /a      "+strings.Repeat("日", 28)+"...  x=1\n")
	// A combining mark takes no column.
	r = runCmd(t, "", "</a>; rel=next; title=\"e\u0301t\u00e9\"; x=1", `</b>; rel=prev; title=abcd; x=2`)
	r.want(t, exitOK, ""+
		"REL   TARGET  TITLE  ATTRIBUTES\n"+
		"next  /a      e\u0301té    x=1\n"+
		"prev  /b      abcd   x=2\n")
	// The caret of -check is under the byte, after wide characters.
	r = runCmd(t, "", "-check", `<日本>; rel="next" junk`)
	lines := strings.Split(r.stdout, "\n")
	if len(lines) < 2 || lines[1] != strings.Repeat(" ", 19)+"^" {
		t.Errorf("caret after wide characters:\n%s", r.stdout)
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

func TestJSONEveryLinkLeftOut(t *testing.T) {
	// When every link is left out of the -json document, it is an empty
	// linkset, as without links, and the exit status is 1, as without
	// links; before, 0. The warnings say why.
	r := runBinary(t, "", "-json", "<a>", "<b>")
	r.want(t, exitNone, "{\n  \"linkset\": []\n}\n")
	if strings.Count(r.stderr, "weblink: -json leaves out <") != 2 || strings.Contains(r.stderr, "no links found") {
		t.Errorf("stderr %q", r.stderr)
	}
	// A templated link is in the document: it is not empty.
	r = runBinary(t, "", "-json", "<a>", `Link-Template: "/{x}"; rel="item"`)
	if r.code != exitOK || !strings.Contains(r.stdout, `"link-template"`) {
		t.Errorf("with a template: exit %d, stdout %s", r.code, r.stdout)
	}
}
