package linktemplate

import (
	"strconv"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/quote"
)

// SyntaxError reports a Link-Template field value that [Parse] or
// [ParseHeader] ignored whole (rule 2).
//
// That is a value that is not a Structured Field List (RFC 9651), or whose
// member or rel, anchor or var-base parameter is not a String, or whose
// other parameter is neither a String nor a Display String of non-ASCII
// text (RFC 9652 §2); Msg names the parameter. errors.Is(err,
// weblink.ErrSyntax) matches it.
type SyntaxError struct {
	Offset int    // byte offset in the field value (lines joined by ", "); -1 when the parser did not say
	Member int    // the member at fault, counting from 1; 0 when the field is not a List at all
	Msg    string // what is wrong
}

// Error returns the message with the place: "linktemplate: syntax error at
// offset N (member M): ...".
func (e *SyntaxError) Error() string {
	s := "linktemplate: syntax error"
	if e.Offset >= 0 {
		s += " at offset " + strconv.Itoa(e.Offset)
	}
	if e.Member > 0 {
		s += " (member " + strconv.Itoa(e.Member) + ")"
	}
	return s + ": " + e.Msg
}

// Is reports whether target is [weblink.ErrSyntax].
func (e *SyntaxError) Is(target error) bool { return target == weblink.ErrSyntax }

// TemplateError reports a URI Template (RFC 6570) that does not parse, or
// that cannot be expanded with the values given.
//
// Values that cannot be expanded are a prefix modifier on a list, and an
// expansion longer than [MaxExpansion] (which matches [ErrTooLong] with
// errors.Is).
type TemplateError struct {
	Template string // the URI Template
	Offset   int    // byte offset in Template
	Msg      string // what is wrong
	err      error  // ErrTooLong, or nil
}

// Error returns the message with the template (shortened) and offset.
func (e *TemplateError) Error() string {
	return "linktemplate: template " + quote.Value(e.Template) + " at offset " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

// Unwrap returns [ErrTooLong] for an expansion that was too long, else nil.
func (e *TemplateError) Unwrap() error { return e.err }

// templateError is a TemplateError without cause.
func templateError(tmpl string, offset int, msg string) error {
	return &TemplateError{Template: tmpl, Offset: offset, Msg: msg}
}
