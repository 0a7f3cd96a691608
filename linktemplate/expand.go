package linktemplate

import (
	"errors"
	"strconv"
	"unicode/utf8"
)

// MaxExpansion is the longest expansion, in bytes, that [Template.Expand]
// builds for a target or an anchor (rule 12).
//
// A longer one is refused with an error wrapping [ErrTooLong], measured
// before anything is built.
const MaxExpansion = 64 << 10

// ErrTooLong is wrapped by the error of [Template.Expand] when an expansion
// would be longer than [MaxExpansion] bytes. Test for it with errors.Is.
var ErrTooLong = errors.New("linktemplate: expansion longer than MaxExpansion")

// operator holds how an expression's operator expands (RFC 6570 Appendix
// A): what comes before the first defined value, between values, whether
// values are named, what follows the name of an empty value, and whether
// reserved characters are kept.
type operator struct {
	first, sep    string
	named         bool
	ifemp         string
	allowReserved bool
}

// operatorOf returns the expansion of the operator op (RFC 6570 Appendix A):
//
//	            NUL   +     .    /    ;    ?    &    #
//	first       ""    ""    "."  "/"  ";"  "?"  "&"  "#"
//	sep         ","   ","   "."  "/"  ";"  "&"  "&"  ","
//	named       no    no    no   no   yes  yes  yes  no
//	ifemp       ""    ""    ""   ""   ""   "="  "="  ""
//	allow       U     U+R   U    U    U    U    U    U+R
func operatorOf(op byte) operator {
	switch op {
	case '+':
		return operator{sep: ",", allowReserved: true}
	case '#':
		return operator{first: "#", sep: ",", allowReserved: true}
	case '.':
		return operator{first: ".", sep: "."}
	case '/':
		return operator{first: "/", sep: "/"}
	case ';':
		return operator{first: ";", sep: ";", named: true}
	case '?':
		return operator{first: "?", sep: "&", named: true, ifemp: "="}
	case '&':
		return operator{first: "&", sep: "&", named: true, ifemp: "="}
	}
	return operator{sep: ","}
}

// expandTemplate expands the URI Template tmpl with vars (RFC 6570 §3) in
// three passes over it: parsing the whole template (rule 7), measuring the
// expansion, and, when it is at most MaxExpansion bytes, writing it (rule
// 12).
func expandTemplate(tmpl string, vars map[string]any) (string, error) {
	var specs []varspec
	if err := scanTemplate(tmpl, &specs, nil); err != nil {
		return "", err
	}
	e := expander{tmpl: tmpl, vars: vars, o: output{measuring: true}}
	if err := scanTemplate(tmpl, &specs, e.part); err != nil {
		return "", err
	}
	n := e.o.n
	e.o = output{}
	e.o.b.Grow(n)
	if err := scanTemplate(tmpl, &specs, e.part); err != nil {
		return "", err
	}
	return e.o.b.String(), nil
}

// expander holds the state of one expansion.
type expander struct {
	tmpl   string
	vars   map[string]any
	sorted map[string][][2]string // the map[string]string values, sorted once
	o      output
}

// part writes the expansion of one part of the template: a literal as RFC
// 6570 §3.1 says, an expression as §3.2 says. It returns an error wrapping
// ErrTooLong as soon as the expansion is longer than MaxExpansion bytes.
func (e *expander) part(p part) error {
	if p.op == opLiteral {
		e.o.encoded(p.literal, true)
	} else if err := e.expression(p); err != nil {
		return err
	}
	if e.o.n > MaxExpansion {
		return tooLong(e.tmpl, p.offset)
	}
	return nil
}

// value returns the value of the variable name (rule 10), sorting a
// map[string]string only the first time it is asked for.
func (e *expander) value(name string) (value, error) {
	m, ok := e.vars[name].(map[string]string)
	if !ok || len(m) == 0 {
		return valueOf(name, e.vars[name])
	}
	if ps, ok := e.sorted[name]; ok {
		return value{kind: pairs, pairs: ps}, nil
	}
	v, err := valueOf(name, m)
	if e.sorted == nil {
		e.sorted = make(map[string][][2]string)
	}
	e.sorted[name] = v.pairs
	return v, err
}

// expression writes the expansion of the expression p (RFC 6570 §3.2.1,
// Appendix A).
func (e *expander) expression(p part) error {
	o := &e.o
	op := operatorOf(p.op)
	first := true
	for _, v := range p.vars {
		val, err := e.value(v.name)
		if err != nil {
			return err
		}
		if val.kind == undefined {
			continue
		}
		if val.kind != scalar && v.prefix > 0 {
			return templateError(e.tmpl, p.offset, "prefix modifier on "+strconv.Quote(v.name)+", which is a list or an associative array (RFC 6570 §2.4.1)")
		}
		if first {
			o.str(op.first)
			first = false
		} else {
			o.str(op.sep)
		}
		switch {
		case val.kind == scalar:
			expandString(o, op, v, val.s)
		case v.explode:
			err = expandExploded(o, e.tmpl, p.offset, op, v, val)
		default:
			err = expandComposite(o, e.tmpl, p.offset, op, v, val)
		}
		if err != nil {
			return err
		}
		if o.n > MaxExpansion {
			return tooLong(e.tmpl, p.offset)
		}
	}
	return nil
}

// expandString writes a string value, cut to the prefix modifier's length
// in characters (not bytes: RFC 6570 §2.4.1 counts Unicode characters).
func expandString(o *output, op operator, v varspec, s string) {
	if op.named {
		o.str(v.name)
		if s == "" {
			o.str(op.ifemp)
			return
		}
		o.byte('=')
	}
	if v.prefix > 0 {
		s = prefix(s, v.prefix)
	}
	o.encoded(s, op.allowReserved)
}

// prefix returns the first n characters of s (an invalid UTF-8 byte counts
// as one character).
func prefix(s string, n int) string {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

// expandComposite writes a list or associative array without the explode
// modifier: the name once (for named operators), then the members joined
// by "," (an array's names and values alternating).
func expandComposite(o *output, tmpl string, at int, op operator, v varspec, val value) error {
	if op.named {
		o.str(v.name)
		o.byte('=')
	}
	sep := ""
	for s := range members(val) {
		o.str(sep)
		sep = ","
		o.encoded(s, op.allowReserved)
		if o.n > MaxExpansion {
			return tooLong(tmpl, at)
		}
	}
	return nil
}

// members returns the strings of a composite value in the order they
// are written: a list's members, or an array's names and values
// alternating.
func members(val value) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		if val.kind == list {
			for _, s := range val.list {
				if !yield(s) {
					return
				}
			}
			return
		}
		for _, kv := range val.pairs {
			if !yield(kv[0]) || !yield(kv[1]) {
				return
			}
		}
	}
}

// expandExploded writes a list or associative array with the explode
// modifier: each member separated by the operator's separator; for named
// operators each list member as name=value, and each array member as its
// own name=value (its name encoded like a value).
func expandExploded(o *output, tmpl string, at int, op operator, v varspec, val value) error {
	for i, s := range val.list {
		if i > 0 {
			o.str(op.sep)
		}
		expandString(o, op, v, s) // v has no prefix: it is a list
		if o.n > MaxExpansion {
			return tooLong(tmpl, at)
		}
	}
	for i, kv := range val.pairs {
		if i > 0 {
			o.str(op.sep)
		}
		o.encoded(kv[0], op.allowReserved)
		if op.named && kv[1] == "" {
			o.str(op.ifemp)
		} else {
			o.byte('=')
			o.encoded(kv[1], op.allowReserved)
		}
		if o.n > MaxExpansion {
			return tooLong(tmpl, at)
		}
	}
	return nil
}

// tooLong is the error for an expansion that passed MaxExpansion in the
// expression or literal at offset at of tmpl.
func tooLong(tmpl string, at int) error {
	return &TemplateError{Template: tmpl, Offset: at, Msg: "the expansion is longer than " + strconv.Itoa(MaxExpansion) + " bytes (MaxExpansion)", err: ErrTooLong}
}
