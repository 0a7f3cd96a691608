package linktemplate

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dunglas/httpsfv"

	"github.com/weblinking/weblink"
)

// fieldName is the name of the header field (RFC 9652 §2).
const fieldName = "Link-Template"

// Parse parses a Link-Template field value (RFC 9652 §2), following rules 1
// to 4.
//
// The value is a Structured Field List (RFC 9651 §3.1) of Strings, each a
// URI Template with its parameters. A field value that fails RFC 9651 or
// RFC 9652 §2 is ignored whole: Parse returns no templates and a
// [*SyntaxError] saying where. "" gives nil and no error.
func Parse(fieldValue string) ([]Template, error) {
	return parseLines([]string{fieldValue})
}

// ParseHeader parses every Link-Template field line of h like [Parse],
// combined into one field value.
//
// The lines are joined by ", ", as RFC 9651 §4.2 says. A header without
// the field gives nil and no error.
func ParseHeader(h http.Header) ([]Template, error) {
	return parseLines(h.Values(fieldName))
}

// parseLines parses the field lines of one Link-Template field.
func parseLines(lines []string) ([]Template, error) {
	if len(lines) == 0 {
		return nil, nil
	}
	list, err := httpsfv.UnmarshalList(lines)
	if err != nil {
		offset, reason := sfvOffset(err), sfvReason(err)
		if offset < 0 {
			// httpsfv says where, except for a Display String that
			// decodes to invalid UTF-8.
			if offset = invalidDisplayString(strings.Join(lines, ", ")); offset >= 0 {
				reason = "a Display String that is not UTF-8 (RFC 9651 §4.2.10)"
			}
		}
		return nil, &SyntaxError{Offset: offset, Msg: "not a Structured Field List (RFC 9651): " + reason + "; the field is ignored"}
	}
	if len(list) == 0 {
		return nil, nil
	}
	ts := make([]Template, 0, len(list))
	for i, m := range list {
		t, param, msg := templateOf(m)
		if msg != "" {
			combined := strings.Join(lines, ", ")
			off := memberOffset(combined, i)
			if param != "" {
				off = paramOffset(combined, off, param)
			}
			return nil, &SyntaxError{Offset: off, Member: i + 1, Msg: msg + " (RFC 9652 §2); the field is ignored"}
		}
		ts = append(ts, t)
	}
	return ts, nil
}

// templateOf converts one List member into a Template, or says why it
// cannot (rule 2) and names the parameter at fault, "" when it is the
// member itself.
func templateOf(m httpsfv.Member) (t Template, param, msg string) {
	item, ok := m.(httpsfv.Item)
	if !ok {
		return Template{}, "", "the member is an Inner List, not a String holding a URI Template"
	}
	tmpl, ok := item.Value.(string)
	if !ok {
		return Template{}, "", "the member is " + typeName(item.Value) + ", not a String holding a URI Template"
	}
	t = Template{Template: tmpl}
	for _, name := range item.Params.Names() {
		v, _ := item.Params.Get(name)
		switch name {
		case "rel", "anchor", "var-base":
			s, ok := v.(string)
			if !ok {
				return Template{}, name, "the " + name + " parameter is " + typeName(v) + ", not a String"
			}
			switch name {
			case "rel":
				t.Rel = splitRel(s)
			case "anchor":
				t.Anchor = s
			default:
				t.VarBase = s
			}
		default:
			text, why := attributeText(v)
			if why != "" {
				return Template{}, name, "the " + name + " parameter is " + why
			}
			t.Params = append(t.Params, weblink.Param{Name: name, Value: text})
		}
	}
	return t, "", ""
}

// attributeText returns the text of a target attribute's value (rule 4): a
// String as it is, a Display String that holds non-ASCII decoded. Any
// other value breaks RFC 9652 §2 (these values must be Strings, or Display
// Strings when not ASCII), and why says what it is instead.
func attributeText(v any) (text, why string) {
	switch v := v.(type) {
	case string:
		return v, ""
	case httpsfv.DisplayString:
		if isASCII(string(v)) {
			return "", "a Display String holding only ASCII, which must be a String"
		}
		return string(v), ""
	}
	return "", typeName(v) + ", not a String"
}

// isASCII reports whether s holds only bytes below 0x80.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// typeName names the Structured Field type of a bare item for an error.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a String"
	case httpsfv.DisplayString:
		return "a Display String"
	case httpsfv.Token:
		return "a Token"
	case bool:
		return "a Boolean"
	case int64:
		return "an Integer"
	case float64:
		return "a Decimal"
	case []byte:
		return "a Byte Sequence"
	case time.Time:
		return "a Date"
	}
	return "not a String"
}

// sfvOffset returns the byte offset an httpsfv error reports, "…: character
// N", or -1 when it reports none.
func sfvOffset(err error) int {
	var ue *httpsfv.UnmarshalError
	if !errors.As(err, &ue) {
		return -1
	}
	msg := ue.Error()
	i := strings.LastIndex(msg, ": character ")
	if i < 0 {
		return -1
	}
	n, err := strconv.Atoi(msg[i+len(": character "):])
	if err != nil {
		return -1
	}
	return n
}

// sfvReason is the reason of an httpsfv error, without its offset.
func sfvReason(err error) string {
	var ue *httpsfv.UnmarshalError
	if errors.As(err, &ue) && ue.Unwrap() != nil {
		err = ue.Unwrap()
	}
	return err.Error()
}

// invalidDisplayString returns the byte offset of the first Display
// String (%"...", outside Strings) of s whose pct-encoded bytes are not
// UTF-8, or -1 when there is none (RFC 9651 §4.2.10).
func invalidDisplayString(s string) int {
	inString := false
	for j := 0; j < len(s); j++ {
		switch c := s[j]; {
		case inString && c == '\\':
			j++
		case c == '"':
			inString = !inString
		case !inString && c == '%' && j+1 < len(s) && s[j+1] == '"':
			start := j
			var b []byte
			for j += 2; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '%' && j+2 < len(s) {
					b = append(b, unhex(s[j+1])<<4|unhex(s[j+2]))
					j += 2
				} else {
					b = append(b, s[j])
				}
			}
			if !utf8.Valid(b) {
				return start
			}
		}
	}
	return -1
}

// unhex returns the value of the hex digit c, 0 when it is not one.
func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10
	}
	return 0
}

// paramOffset returns the byte offset of the name of the last parameter
// key of the Item that starts at byte start of the well-formed List field
// value s: the value that counts when a key is repeated (rule 3). It
// returns start when there is none.
func paramOffset(s string, start int, key string) int {
	off, inString := start, false
	for j := start; j < len(s); j++ {
		switch c := s[j]; {
		case inString && c == '\\':
			j++
		case c == '"':
			inString = !inString
		case inString:
		case c == ',':
			return off // the end of the member
		case c == ';':
			k := j + 1
			for k < len(s) && s[k] == ' ' {
				k++
			}
			if end := k + len(key); strings.HasPrefix(s[k:], key) && (end == len(s) || !isKeyChar(s[end])) {
				off = k
			}
		}
	}
	return off
}

// memberOffset returns the byte offset at which the List member i (from
// 0) of the well-formed List field value s starts. Members are separated
// by commas outside Strings, Display Strings and Inner Lists.
func memberOffset(s string, i int) int {
	start, depth, inString := 0, 0, false
	for j := 0; j < len(s) && i > 0; j++ {
		c := s[j]
		switch {
		case inString && c == '\\':
			j++
		case c == '"':
			inString = !inString
		case inString:
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			i--
			start = j + 1
		}
	}
	for start < len(s) && (s[start] == ' ' || s[start] == '\t') {
		start++
	}
	return start
}
