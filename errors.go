package weblink

import (
	"errors"
	"strconv"
)

// SyntaxError reports a problem at a byte offset of a Link field value or an
// ext-value: a malformed link-value that [Parse] dropped, or a title* or other
// star parameter that did not decode.
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
// does not decode (RFC 8187 §3.2.1 requires only UTF-8; weblink also decodes
// ISO-8859-1 and the single-byte charsets listed in [ParseExtValue]). Test for
// it with errors.Is.
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
	return "weblink: cannot resolve " + quoteForError(e.Ref) + ": " + e.Err.Error()
}

// Unwrap returns the url.Parse error.
func (e *ResolveError) Unwrap() error { return e.Err }

// quoteForError quotes s for an error message, shortening long values so that
// an error about hostile input stays small.
func quoteForError(s string) string {
	const max = 64
	if len(s) > max {
		return strconv.Quote(s[:max]) + "..."
	}
	return strconv.Quote(s)
}

// LinksetError reports why [Links.UnmarshalJSON] rejected an
// application/linkset+json document, or why [Links.MarshalJSON] cannot write
// a link. errors.Is(err, [ErrInvalidLinkset]) finds every *LinksetError, and
// errors.As gives its position, so that a program can point at the problem
// without reading the message.
type LinksetError struct {
	// Path is where in the document the problem is, as a JSON path such
	// as linkset[0].next[1].href; "" when the problem is the document as a
	// whole (not UTF-8, not JSON) or when MarshalJSON reports it.
	Path string
	// Offset is the byte offset in the document of the token at which
	// UnmarshalJSON found the problem (json.Decoder.InputOffset; for a
	// missing member, the "}" that closes its object), of the JSON syntax
	// error, or of the first byte that is not UTF-8; -1 for MarshalJSON.
	Offset int64
	// Link is the index of the link that MarshalJSON cannot write; -1 for
	// UnmarshalJSON.
	Link int
	// Msg says what is wrong and what to write instead.
	Msg string

	target string // the Target of link Link, for the message
	err    error  // the cause: the *json.SyntaxError or io.ErrUnexpectedEOF of invalid JSON
}

// Error returns "weblink: invalid linkset: " followed by the path or the
// link and the message.
func (e *LinksetError) Error() string {
	s := ErrInvalidLinkset.Error() + ": "
	switch {
	case e.Link >= 0:
		s += "link " + strconv.Itoa(e.Link) + " (target " + quoteForError(e.target) + "): "
	case e.Path != "":
		s += e.Path + ": "
	}
	s += e.Msg
	if e.err != nil {
		s += ": " + e.err.Error()
	}
	return s
}

// Is reports whether target is ErrInvalidLinkset.
func (e *LinksetError) Is(target error) bool { return target == ErrInvalidLinkset }

// Unwrap returns the cause of invalid JSON (a *json.SyntaxError or
// io.ErrUnexpectedEOF), or nil.
func (e *LinksetError) Unwrap() error { return e.err }
