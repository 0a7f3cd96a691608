package peertext

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"plain text: 200 OK", "plain text: 200 OK"},
		{"tab\tnewline\ncr\r", `tab\x09newline\x0acr\x0d`},
		{"X\x1b]0;PWNED\x07: 1", `X\x1b]0;PWNED\x07: 1`},
		{"nul\x00del\x7f", `nul\x00del\x7f`},
		{"c1 \u0085 \u009b[2J", `c1 \u0085 \u009b[2J`},
		{"bidi \u202egnp.exe \u2066x\u2069 \u061c \u200e\u200f", `bidi \u202egnp.exe \u2066x\u2069 \u061c \u200e\u200f`},
		{"lines\u2028\u2029", `lines\u2028\u2029`},
		{"invalid \xff\xc3 end", `invalid \xff\xc3 end`},
		{"kept: é ß 日本 \u00a0 \\x1b", "kept: é ß 日本 \u00a0 \\x1b"},
	} {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestError(t *testing.T) {
	if Error(nil) != nil {
		t.Error("Error(nil) is not nil")
	}
	clean := fmt.Errorf("get: %w", io.ErrUnexpectedEOF)
	if got := Error(clean); got != clean {
		t.Errorf("Error of a safe message = %#v, want the error itself", got)
	}
	raw := fmt.Errorf("malformed MIME header line: X\x1b[2J\x07: %w", context.Canceled)
	got := Error(raw)
	if want := `malformed MIME header line: X\x1b[2J\x07: context canceled`; got.Error() != want {
		t.Errorf("message %q, want %q", got, want)
	}
	if !errors.Is(got, context.Canceled) || errors.Unwrap(got) != raw {
		t.Errorf("%v does not unwrap to the error it escapes", got)
	}
}
