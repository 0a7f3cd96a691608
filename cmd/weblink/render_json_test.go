package main

import (
	"fmt"
	"strings"
	"testing"
)

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
