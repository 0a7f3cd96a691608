package weblink

import (
	"errors"
	"strconv"
)

// SyntaxError reports a problem at a byte offset of a Link field value or an
// ext-value: a malformed link-value that [Parse] dropped, or a title* or other
// star parameter that did not decode.
type SyntaxError struct {
	Offset int    // byte offset in the field value
	Msg    string // what is wrong, and what was done about it
}

// Error returns the message with the offset: "weblink: syntax error at
// offset N: ...".
func (e *SyntaxError) Error() string {
	return "weblink: syntax error at offset " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

// Is reports whether target is [ErrSyntax], so that errors.Is(err, ErrSyntax)
// finds every [*SyntaxError].
func (e *SyntaxError) Is(target error) bool { return target == ErrSyntax }

// ErrSyntax matches every [*SyntaxError] with errors.Is.
var ErrSyntax = errors.New("weblink: syntax error")

// ErrCharset is the error, wrapped, for an ext-value whose charset weblink
// does not decode (RFC 8187 §3.2.1 requires only UTF-8; weblink also decodes
// ISO-8859-1 and the single-byte charsets listed in [ParseExtValue]). Test for
// it with errors.Is.
var ErrCharset = errors.New("weblink: unsupported charset")

// quoteForError quotes s for an error message, shortening long values so that
// an error about hostile input stays small.
func quoteForError(s string) string {
	const max = 64
	if len(s) > max {
		return strconv.Quote(s[:max]) + "..."
	}
	return strconv.Quote(s)
}
