package weblink

import (
	"errors"
	"strconv"

	"github.com/weblinking/weblink/internal/quote"
)

// SyntaxError reports a problem at a byte offset of a Link field value or an
// ext-value.
//
// The problem is a malformed link-value that [Parse] dropped, or a title* or
// other star parameter that did not decode.
//
// A SyntaxError about an ext-value whose charset is not decoded also matches
// [ErrCharset] with errors.Is, through [SyntaxError.Unwrap].
type SyntaxError struct {
	Offset int    // byte offset in the field value
	Msg    string // what is wrong, and what was done about it
	err    error  // the cause that errors.Is sees, such as ErrCharset; usually nil
}

// Error returns the message with the offset: "weblink: syntax error at
// offset N: ...".
func (e *SyntaxError) Error() string {
	return "weblink: syntax error at offset " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

// Is reports whether target is [ErrSyntax], so that errors.Is(err, ErrSyntax)
// finds every [*SyntaxError].
func (e *SyntaxError) Is(target error) bool { return target == ErrSyntax }

// Unwrap returns the cause of the problem, such as [ErrCharset], or nil.
func (e *SyntaxError) Unwrap() error { return e.err }

// ErrSyntax matches every [*SyntaxError] with errors.Is.
var ErrSyntax = errors.New("weblink: syntax error")

// ErrCharset is the error, wrapped, for an ext-value whose charset weblink
// does not decode.
//
// RFC 8187 §3.2.1 requires only UTF-8; weblink also decodes ISO-8859-1 and
// the single-byte charsets listed in [ParseExtValue]. Test for it with
// errors.Is.
var ErrCharset = errors.New("weblink: unsupported charset")

// ResolveError reports a link target or anchor that net/url could not parse,
// so that [Links.Resolve] left it as written (rule 23). [ParseResponse]
// returns it.
type ResolveError struct {
	Ref string // the reference as written
	Err error  // the error from url.Parse
}

// Error names the reference and why net/url rejected it.
func (e *ResolveError) Error() string {
	return "weblink: cannot resolve " + quote.Value(e.Ref) + ": " + e.Err.Error()
}

// Unwrap returns the url.Parse error.
func (e *ResolveError) Unwrap() error { return e.Err }
