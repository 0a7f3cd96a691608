package linktemplate

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dunglas/httpsfv"

	"github.com/weblinking/weblink/internal/ascii"
	"github.com/weblinking/weblink/internal/quote"
)

// Format writes ts as a Link-Template field value (RFC 9652 §2), one
// Structured Field List member per template (RFC 9651 §4.1.1).
//
// As rule 5 says, it writes ASCII values as Strings and parameter values
// holding non-ASCII as Display Strings. It writes nothing and returns an
// error naming the template for what it cannot write faithfully (controls
// or non-ASCII in a template, relation type, anchor or var-base; a
// parameter value that is ASCII with controls; a parameter name that is not
// a Structured Field key, or given twice; a Lang; invalid UTF-8). No
// templates give "" and no error.
func Format(ts ...Template) (string, error) {
	if len(ts) == 0 {
		return "", nil
	}
	list := make(httpsfv.List, 0, len(ts))
	for i, t := range ts {
		item, err := itemOf(t)
		if err != nil {
			return "", fmt.Errorf("linktemplate: template %d (%s): %w", i+1, quote.Value(t.Template), err)
		}
		list = append(list, item)
	}
	return httpsfv.Marshal(list)
}

// itemOf converts t into a List member.
func itemOf(t Template) (httpsfv.Item, error) {
	item := httpsfv.NewItem(t.Template)
	if err := checkString("the template", t.Template); err != nil {
		return item, err
	}
	if len(t.Rel) > 0 {
		for _, r := range t.Rel {
			if r == "" || strings.ContainsRune(r, ' ') {
				return item, fmt.Errorf("relation type %s is empty or holds a space; give each relation type its own Rel entry", strconv.Quote(r))
			}
			if err := checkString("relation type "+strconv.Quote(r), r); err != nil {
				return item, err
			}
		}
		item.Params.Add("rel", strings.Join(t.Rel, " "))
	}
	for _, p := range [...]struct{ name, value string }{{"anchor", t.Anchor}, {"var-base", t.VarBase}} {
		if p.value == "" {
			continue
		}
		if err := checkString("the "+p.name, p.value); err != nil {
			return item, err
		}
		item.Params.Add(p.name, p.value)
	}
	for _, p := range t.Params {
		v, err := paramValue(p.Name, p.Value, p.Lang)
		if err != nil {
			return item, err
		}
		if _, dup := item.Params.Get(p.Name); dup {
			return item, fmt.Errorf("parameter %s is given twice or is rel, anchor or var-base; a Structured Field keeps one value per name", strconv.Quote(p.Name))
		}
		item.Params.Add(p.Name, v)
	}
	return item, nil
}

// paramValue returns the bare item for a target attribute (RFC 9652 §2):
// a String when value is printable ASCII, a Display String when it holds
// non-ASCII, and an error when it is ASCII with controls, which neither
// may carry.
func paramValue(name, value, lang string) (any, error) {
	switch {
	case !isKey(name):
		return nil, fmt.Errorf("parameter name %s is not a Structured Field key (lower-case letters, digits, _ - . *, starting with a letter or *)", strconv.Quote(name))
	case name == "rel" || name == "anchor" || name == "var-base":
		return nil, fmt.Errorf("parameter %s belongs in the Template's own field, not in Params; set that field", name)
	case lang != "":
		return nil, fmt.Errorf("parameter %s has Lang %s, which a Link-Template field cannot carry; leave Lang empty", name, strconv.Quote(lang))
	case !utf8.ValidString(value):
		return nil, fmt.Errorf("parameter %s is not valid UTF-8; correct its Value", name)
	case ascii.IsPrint(value):
		return value, nil
	case isASCII(value):
		return nil, fmt.Errorf("parameter %s holds controls, which a String cannot, and RFC 9652 §2 allows a Display String only for non-ASCII text", name)
	}
	return httpsfv.DisplayString(value), nil
}

// checkString reports an error when s cannot be a String (RFC 9651
// §3.3.3): controls or non-ASCII.
func checkString(what, s string) error {
	if ascii.IsPrint(s) {
		return nil
	}
	return fmt.Errorf("%s holds controls or non-ASCII, which a String cannot (pct-encode non-ASCII)", what)
}

// isKey reports whether s is a Structured Field key (RFC 9651 §3.1.2):
//
//	key = ( lcalpha / "*" ) *( lcalpha / DIGIT / "_" / "-" / "." / "*" )
func isKey(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] == '*') {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isKeyChar(s[i]) {
			return false
		}
	}
	return true
}

// isKeyChar reports whether c may follow the first byte of a Structured
// Field key: lcalpha, DIGIT, "_", "-", "." or "*" (RFC 9651 §3.1.2).
func isKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("_-.*", c) >= 0
}
