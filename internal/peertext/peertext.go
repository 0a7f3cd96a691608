// Package peertext keeps what a peer sent from reaching a terminal or a
// log raw through an error message. Before Go 1.26, net/http puts the bytes
// of a header line it rejects in its error as they came (an escape
// sequence, a bell); the packages that wrap net/http's errors pass them
// through [Error], so that the message is the same on every Go.
package peertext

import (
	"strings"
	"unicode/utf8"

	"github.com/weblinking/weblink/internal/ascii"
)

// Error returns err unchanged when its message is safe to print, and
// otherwise an error whose message is err's with each unsafe character
// escaped as [Escape] does; it unwraps to err, so errors.Is and errors.As
// see what they saw before.
func Error(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if safe(msg) {
		return err
	}
	return &escapedError{msg: Escape(msg), err: err}
}

// escapedError is an error whose message was escaped.
type escapedError struct {
	msg string
	err error
}

func (e *escapedError) Error() string { return e.msg }
func (e *escapedError) Unwrap() error { return e.err }

// Escape returns s with each character a terminal or a log would act on
// written as a Go escape: the C0 and C1 control characters and DEL
// (\x1b, \x07, \u0085), the bidirectional controls U+061C, U+200E, U+200F,
// U+202A to U+202E and U+2066 to U+2069 (\u202e), the line and paragraph
// separators U+2028 and U+2029, and each byte that is not UTF-8 (\xff).
func Escape(s string) string {
	if safe(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1, r < utf8.RuneSelf && unsafe(r):
			b.WriteString(`\x`)
			writeHex(&b, s[i])
		case unsafe(r):
			b.WriteString(`\u`)
			writeHex(&b, byte(r>>8))
			writeHex(&b, byte(r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// writeHex writes c in two lower-case hex digits, as Go's escapes are.
func writeHex(b *strings.Builder, c byte) {
	b.WriteByte(ascii.LowerHex[c>>4])
	b.WriteByte(ascii.LowerHex[c&15])
}

// safe reports whether s has no character that Escape escapes.
func safe(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || unsafe(r) {
			return false
		}
		i += size
	}
	return true
}

// unsafe reports whether Escape escapes the character r.
func unsafe(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r == 0x2028, r == 0x2029:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
