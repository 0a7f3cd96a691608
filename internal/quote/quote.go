// Package quote writes what a peer or a caller controls into error
// messages: quoted, so that control bytes (a terminal escape, CR LF) and
// invalid UTF-8 are escaped, shortened, so that an error about hostile
// input stays small, and, for URLs, without the user information, which
// often is a token.
package quote

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/weblinking/weblink/internal/ascii"
)

// maxValue is the most bytes of a value that Value shows.
const maxValue = 64

// Value quotes s with strconv.Quote, cut after 64 bytes ("..." follows).
func Value(s string) string {
	if len(s) > maxValue {
		return strconv.Quote(s[:maxValue]) + "..."
	}
	return strconv.Quote(s)
}

// Status is the status line s of a response ("404 Not Found") for an error
// message: as it is when it is printable ASCII of at most 64 bytes, else
// quoted and shortened by [Value] ("500 \x1b[2J").
func Status(s string) string {
	if len(s) > maxValue || !ascii.IsPrint(s) {
		return Value(s)
	}
	return s
}

// URLString quotes the URL s. A URL of more than 200 bytes is shortened in
// the middle, keeping its start (the origin and path) and its end, where
// the page number of an API usually is: cut after 64 bytes, as other
// values are, the pages of an API with a long query would all look the
// same.
func URLString(s string) string {
	const head, tail = 128, 64
	if len(s) > 200 {
		s = s[:head] + "…" + s[len(s)-tail:]
	}
	return strconv.Quote(s)
}

// URL is u for an error message: [Redacted], quoted and shortened by
// [URLString].
func URL(u *url.URL) string { return URLString(Redacted(u)) }

// Redacted is u as a string without its user information and fragment:
// not even the user name, which often is a token.
func Redacted(u *url.URL) string {
	v := *u
	v.User = nil
	v.Fragment, v.RawFragment = "", ""
	return v.String()
}

// WithoutUserinfo removes the user information from the URL of a
// *url.Error in err, which net/http writes with the user name, and
// returns err.
func WithoutUserinfo(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) && strings.Contains(ue.URL, "@") {
		if u, perr := url.Parse(ue.URL); perr == nil && u.User != nil {
			u.User = nil
			ue.URL = u.String()
		}
	}
	return err
}

// Plural returns word for a message about n of it: with "s" unless n is 1
// ("1 page", "2 pages").
func Plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
