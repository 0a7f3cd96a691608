package linktemplate

import (
	"strconv"

	"github.com/weblinking/weblink/internal/quote"
)

// A URI Template (RFC 6570 §2) is a sequence of parts: literal text and
// expressions. Parsing is one pass over the template that hands each part
// on as it is read and refuses the first thing that is not in the grammar
// (rule 7).

// part is one piece of a parsed URI Template: literal text when op is
// opLiteral, else an expression.
type part struct {
	op      byte      // opLiteral, opSimple or the operator character
	offset  int       // byte offset of the literal or of the expression's "{"
	literal string    // the literal text, as written
	vars    []varspec // the expression's variable-list
}

// Operators other than the RFC's characters.
const (
	opLiteral = 0   // not an expression
	opSimple  = ' ' // an expression without operator (simple string expansion)
)

// varspec is one variable of an expression (RFC 6570 §2.3, §2.4):
//
//	varspec = varname [ modifier-level4 ]
type varspec struct {
	name    string // as written, pct-encoded triplets included
	prefix  int    // the prefix modifier's max-length; 0 when there is none
	explode bool   // the explode modifier "*"
}

// scanTemplate parses the URI Template tmpl (RFC 6570 §2) and calls f, when
// not nil, with each of its parts in order; it stops at the first syntax
// error or error of f:
//
//	URI-Template = *( literals / expression )
//
// Every character outside an expression is literal text, kept as written
// (expansion encodes what a URI cannot hold, rule 8), except "}", which
// may only close an expression.
//
// Nothing is kept between parts: the vars of the part given to f are in
// *specs, which the next expression reuses, so memory does not grow with
// the number of expressions.
func scanTemplate(tmpl string, specs *[]varspec, f func(part) error) error {
	for i := 0; i < len(tmpl); {
		var p part
		switch tmpl[i] {
		case '{':
			*specs = (*specs)[:0]
			var err error
			if p, i, err = parseExpression(tmpl, i, specs); err != nil {
				return err
			}
		case '}':
			return templateError(tmpl, i, `"}" outside an expression; a literal "}" is written %7D`)
		default:
			start := i
			for i < len(tmpl) && tmpl[i] != '{' && tmpl[i] != '}' {
				i++
			}
			p = part{op: opLiteral, offset: start, literal: tmpl[start:i]}
		}
		if f != nil {
			if err := f(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// parseExpression parses the expression at tmpl[start], a "{", and returns
// it with the offset just after its "}" (RFC 6570 §2.2). Its varspecs are
// appended to *specs, and the expression's vars are that part of it:
//
//	expression    = "{" [ operator ] variable-list "}"
//	variable-list = varspec *( "," varspec )
func parseExpression(tmpl string, start int, specs *[]varspec) (part, int, error) {
	p := part{op: opSimple, offset: start}
	first := len(*specs)
	i := start + 1
	if i < len(tmpl) {
		op, err := parseOperator(tmpl, i)
		if err != nil {
			return p, 0, err
		}
		if op != opSimple {
			p.op = op
			i++
		}
	}
	for {
		v, next, err := parseVarspec(tmpl, i)
		if err != nil {
			return p, 0, err
		}
		*specs = append(*specs, v)
		p.vars = (*specs)[first:len(*specs):len(*specs)]
		i = next
		if i >= len(tmpl) {
			return p, 0, templateError(tmpl, start, `expression not closed by "}"`)
		}
		switch tmpl[i] {
		case '}':
			return p, i + 1, nil
		case ',':
			i++
		default:
			return p, 0, templateError(tmpl, i, "unexpected "+quoteByte(tmpl[i])+` in an expression; want "," or "}"`)
		}
	}
}

// parseOperator reads the operator at tmpl[i], if any (RFC 6570 §2.2):
//
//	operator    = op-level2 / op-level3 / op-reserve
//	op-level2   = "+" / "#"
//	op-level3   = "." / "/" / ";" / "?" / "&"
//	op-reserve  = "=" / "," / "!" / "@" / "|"
//
// It returns opSimple when tmpl[i] is not an operator, and an error for
// the operators RFC 6570 reserves for future extensions.
func parseOperator(tmpl string, i int) (byte, error) {
	switch c := tmpl[i]; c {
	case '+', '#', '.', '/', ';', '?', '&':
		return c, nil
	case '=', ',', '!', '@', '|':
		return 0, templateError(tmpl, i, "operator "+quoteByte(c)+" is reserved for future extensions (RFC 6570 §2.2)")
	}
	return opSimple, nil
}

// parseVarspec parses the varspec at tmpl[i] and returns it with the offset
// just after it (RFC 6570 §2.3, §2.4):
//
//	varspec         = varname [ modifier-level4 ]
//	varname         = varchar *( ["."] varchar )
//	varchar         = ALPHA / DIGIT / "_" / pct-encoded
//	modifier-level4 = prefix / explode
//	prefix          = ":" max-length
//	max-length      = %x31-39 0*3DIGIT   ; positive integer < 10000
//	explode         = "*"
func parseVarspec(tmpl string, i int) (varspec, int, error) {
	start := i
	for {
		if varcharLen(tmpl, i) == 0 {
			if i > start { // after a "."
				return varspec{}, 0, templateError(tmpl, i-1, `"." in a variable name must be followed by a letter, digit, "_" or %XX`)
			}
			return varspec{}, 0, templateError(tmpl, i, `want a variable name (letters, digits, "_", %XX and inner "."), found `+quoteAt(tmpl, i))
		}
		for n := varcharLen(tmpl, i); n > 0; n = varcharLen(tmpl, i) {
			i += n
		}
		if i < len(tmpl) && tmpl[i] == '.' {
			i++
			continue
		}
		break
	}
	v := varspec{name: tmpl[start:i]}
	if i >= len(tmpl) {
		return v, i, nil
	}
	switch tmpl[i] {
	case '*':
		v.explode = true
		i++
	case ':':
		n, next, err := parseMaxLength(tmpl, i+1)
		if err != nil {
			return varspec{}, 0, err
		}
		v.prefix, i = n, next
	}
	return v, i, nil
}

// parseMaxLength parses the max-length of a prefix modifier at tmpl[i]: a
// decimal integer from 1 to 9999 without leading zero. The error names the
// number as written (quoted and cut as templates are: shorten), or what is
// there instead of one.
func parseMaxLength(tmpl string, i int) (int, int, error) {
	start := i
	for i < len(tmpl) && tmpl[i] >= '0' && tmpl[i] <= '9' {
		i++
	}
	digits := tmpl[start:i]
	if digits == "" || digits[0] == '0' || len(digits) > 4 {
		found := quoteAt(tmpl, start)
		if digits != "" {
			found = quote.Value(digits)
		}
		return 0, 0, templateError(tmpl, start, "a prefix modifier's length is a number from 1 to 9999 without leading zero (RFC 6570 §2.4.1), found "+found)
	}
	n, _ := strconv.Atoi(digits)
	return n, i, nil
}

// varcharLen returns the length of the varchar at s[i], 0 when there is
// none:
//
//	varchar     = ALPHA / DIGIT / "_" / pct-encoded
//	pct-encoded = "%" HEXDIG HEXDIG
func varcharLen(s string, i int) int {
	switch {
	case i >= len(s):
		return 0
	case isVarchar(s[i]):
		return 1
	case isPctEncoded(s, i):
		return 3
	}
	return 0
}

// isVarchar reports whether c is ALPHA, DIGIT or "_".
func isVarchar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// quoteAt describes what is at s[i] for an error message.
func quoteAt(s string, i int) string {
	if i >= len(s) {
		return "the end of the template"
	}
	return quoteByte(s[i])
}

// quoteByte quotes one byte for an error message.
func quoteByte(c byte) string {
	if c < 0x20 || c >= 0x7f {
		return "byte 0x" + strconv.FormatUint(uint64(c), 16)
	}
	return strconv.Quote(string(c))
}
