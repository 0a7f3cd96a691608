// -check for Link-Template fields: what makes a templated link not a URI
// Template (RFC 6570) or not a link.

package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/quote"
	"github.com/weblinking/weblink/linktemplate"
)

// templates shows, for each templated link of p (Link-Template fields, RFC
// 9652 §2; a field that did not parse was reported where it was read,
// head.go), what makes it wrong as the sender wrote it: a target or anchor
// that is not a URI Template (RFC 6570), a var-base that is not a
// URI-reference (RFC 9652 §2.1), and what Link.Validate finds in the link
// (rel is required, RFC 8288 §3.3, as for a Link field) are errors; an
// unregistered relation type is a warning. At most maxCheckProblems
// problems are listed for a page.
func (k *checker) templates(c *command, p *pageLinks) {
	listed := 0
	for i, t := range p.templates {
		if listed >= maxCheckProblems {
			k.capped = true
			n := len(p.templates) - i
			fmt.Fprintf(c.out, "%d more templated %s not checked: at most %d problems are listed for a page\n", n, quote.Plural(n, "link"), maxCheckProblems)
			return
		}
		name := "template " + strconv.Itoa(c.tmpls-len(p.templates)+i+1) + " " + strconv.Quote(shorten(t.Template))
		if i < p.hintTemplates {
			name += " " + fromHints
		}
		for _, pr := range templateProblems(t) {
			fmt.Fprintf(c.out, "%s: %s: %s\n", name, k.severity(c, pr.warning), clean(pr.msg))
			listed++
		}
	}
}

// templateProblem is one problem of a templated link.
type templateProblem struct {
	msg     string
	warning bool
}

// templateProblems returns the problems of t, in the order of
// [checker.templates]' doc.
func templateProblems(t linktemplate.Template) []templateProblem {
	var out []templateProblem
	// Each URI Template is parsed on its own, so that both are checked;
	// one that does not parse is left out of the link checked after.
	if msg := notTemplate(t.Template); msg != "" {
		out = append(out, templateProblem{msg: "the template is not a URI Template (RFC 6570): " + msg})
		t.Template = ""
	}
	if msg := notTemplate(t.Anchor); msg != "" {
		out = append(out, templateProblem{msg: "the anchor is not a URI Template (RFC 6570): " + msg})
		t.Anchor = ""
	}
	if t.VarBase != "" && (weblink.Link{Target: t.VarBase, Rel: []string{"related"}}).Validate() != nil {
		out = append(out, templateProblem{msg: fmt.Sprintf("var-base %q is not a URI-reference (RFC 9652 §2.1)", t.VarBase)})
	}
	// Expanded without values, each expression gives nothing: the link
	// has the template's relation types and target attributes.
	l, err := t.Expand(nil)
	if err != nil {
		return append(out, templateProblem{msg: err.Error(), warning: errors.Is(err, linktemplate.ErrTooLong)})
	}
	prefix := weblink.ErrInvalidLink.Error() + ": "
	for _, e := range leaves(l.Validate()) {
		out = append(out, templateProblem{msg: strings.TrimPrefix(e.Error(), prefix)})
	}
	for _, r := range l.Unregistered() {
		if r != "" && wellFormedRel(r) { // a malformed one is an error already
			out = append(out, templateProblem{msg: fmt.Sprintf("relation type %q is not registered and not a URI", shorten(r)), warning: true})
		}
	}
	return out
}

// notTemplate returns what makes s not a URI Template (RFC 6570), with the
// byte where it is, or "" when s is one: linktemplate parses the whole of
// a template before it expands anything (rule 7 of package linktemplate).
func notTemplate(s string) string {
	_, err := linktemplate.Template{Template: s}.Expand(nil)
	var te *linktemplate.TemplateError
	if !errors.As(err, &te) || errors.Is(err, linktemplate.ErrTooLong) {
		return ""
	}
	return "byte " + strconv.Itoa(te.Offset) + ": " + te.Msg
}
