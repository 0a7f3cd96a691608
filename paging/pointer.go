package paging

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/weblinking/weblink/internal/quote"
)

// This file reads the value a JSON Pointer (RFC 6901) names in a JSON text
// as it streams by, token by token (rule 33): the members and elements
// before it are skipped, not decoded into values, and nothing is read
// after it.

// pointer is a parsed JSON Pointer: its reference tokens, unescaped (RFC
// 6901 §4). The empty pointer names the whole document.
type pointer struct {
	text   string   // as written, for errors
	tokens []string // unescaped
}

// parsePointer parses s as a JSON Pointer in its JSON string form (RFC
// 6901 §3, §5): "" or a sequence of "/" reference-tokens, "~0" standing
// for "~" and "~1" for "/". The error says what to write instead.
func parsePointer(s string) (pointer, error) {
	p := pointer{text: s}
	if s == "" {
		return p, nil
	}
	if !strings.HasPrefix(s, "/") {
		return p, pointerError(s, pointerFix(s))
	}
	for _, tok := range strings.Split(s[1:], "/") {
		t, ok := unescapeToken(tok)
		if !ok {
			return p, pointerError(s, `"~" is written "~0" and "/" in a name "~1": write `+quote.Value(escapeTokens(s)))
		}
		p.tokens = append(p.tokens, t)
	}
	return p, nil
}

// pointerFix says what to write for s, a pointer that does not start with
// "/": without the "#" of the URI fragment form (RFC 6901 §6), or with a
// leading "/".
func pointerFix(s string) string {
	if rest, ok := strings.CutPrefix(s, "#"); ok && (rest == "" || rest[0] == '/') {
		return "write it without the \"#\" of its URI fragment form: " + quote.Value(rest)
	}
	return `a JSON Pointer starts with "/": write ` + quote.Value("/"+s)
}

// pointerError is the error of an invalid pointer s.
func pointerError(s, fix string) error {
	return fmt.Errorf("paging: %s is not a JSON Pointer (RFC 6901); %s", quote.Value(s), fix)
}

// unescapeToken returns tok with "~1" replaced by "/" and "~0" by "~", in
// that order (RFC 6901 §4), and false when a "~" is followed by anything
// else.
func unescapeToken(tok string) (string, bool) {
	if !strings.Contains(tok, "~") {
		return tok, true
	}
	var b strings.Builder
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c != '~' {
			b.WriteByte(c)
			continue
		}
		if i+1 == len(tok) || tok[i+1] != '0' && tok[i+1] != '1' {
			return "", false
		}
		i++
		b.WriteByte("~/"[tok[i]-'0'])
	}
	return b.String(), true
}

// escapeTokens returns s with every "~" that does not start "~0" or "~1"
// written "~0": the pointer s was probably meant to be.
func escapeTokens(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && (i+1 == len(s) || s[i+1] != '0' && s[i+1] != '1') {
			b.WriteString("~0")
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// maxDepth is the deepest nesting of arrays and objects read, as
// encoding/json's own bound: a deeper document is an error, not a stack
// that grows with what the peer sends.
const maxDepth = 10000

// errTooDeep is the error of a document nested deeper than maxDepth.
var errTooDeep = fmt.Errorf("paging: JSON nested deeper than %d levels", maxDepth)

// jsonReader reads a JSON text token by token towards the value a pointer
// names.
type jsonReader struct {
	dec  *json.Decoder
	open []bool // the containers open, innermost last: true for an object
}

// seek reads r's document up to the value at p and reports whether there
// is one: the next token of r.dec is then its first. Absent (a member not
// there, an index past the end or "-") and null on the way are no value;
// a scalar where p goes on, or a name in an array, is an error.
func (r *jsonReader) seek(p pointer) (bool, error) {
	for i, name := range p.tokens {
		tok, err := r.token()
		if err != nil {
			return false, err
		}
		var found bool
		switch tok {
		case nil:
			return false, nil
		case json.Delim('{'):
			found, err = r.member(name)
		case json.Delim('['):
			found, err = r.element(p, i)
		default:
			return false, fmt.Errorf("paging: the JSON value at %s is %s, not an object or array that %s can lead into", pointerPrefix(p, i), kindOf(tok), quote.Value(p.text))
		}
		if !found || err != nil {
			return false, err
		}
	}
	return true, nil
}

// pointerPrefix writes the pointer made of the first i tokens of p.
func pointerPrefix(p pointer, i int) string {
	if i == 0 {
		return "the top"
	}
	parts := strings.Split(p.text, "/")
	return quote.Value(strings.Join(parts[:i+1], "/"))
}

// member reads the object just opened up to the value of its member name,
// and reports whether there is one; without one it reads the whole
// object. The first member of that name counts.
func (r *jsonReader) member(name string) (bool, error) {
	for r.dec.More() {
		key, err := r.token()
		if err != nil {
			return false, err
		}
		if key == name {
			return true, nil
		}
		if err := r.skip(); err != nil {
			return false, err
		}
	}
	_, err := r.token() // "}"
	return false, err
}

// element reads the array just opened, where p's token i is, up to that
// element (RFC 6901 §4: a decimal index without leading zeros), and reports
// whether there is one; without one ("-", or an index past the end) it
// reads the whole array.
func (r *jsonReader) element(p pointer, i int) (bool, error) {
	index, err := arrayIndex(p.tokens[i])
	if err != nil {
		return false, fmt.Errorf("paging: the JSON value at %s is an array, and %s %w", pointerPrefix(p, i), quote.Value(p.text), err)
	}
	for n := 0; r.dec.More(); n++ {
		if n == index {
			return true, nil
		}
		if err := r.skip(); err != nil {
			return false, err
		}
	}
	_, err = r.token() // "]"
	return false, err
}

// arrayIndex returns the index that tok names in an array, or -1 for "-"
// (the element after the last, never there).
func arrayIndex(tok string) (int, error) {
	if tok == "-" {
		return -1, nil
	}
	if tok == "" || len(tok) > 1 && tok[0] == '0' || strings.TrimLeft(tok, "0123456789") != "" {
		return 0, fmt.Errorf("names %s in it, not an index (0, 1, ...)", quote.Value(tok))
	}
	n, err := strconv.Atoi(tok)
	if err != nil {
		return -1, nil // past any array a body can hold
	}
	return n, nil
}

// token returns the next token of r.dec, keeping track of the containers
// it opens and closes.
func (r *jsonReader) token() (json.Token, error) {
	tok, err := r.dec.Token()
	if err != nil {
		return bigNumber(err)
	}
	switch tok {
	case json.Delim('{'), json.Delim('['):
		if len(r.open) == maxDepth {
			return nil, errTooDeep
		}
		r.open = append(r.open, tok == json.Delim('{'))
	case json.Delim('}'), json.Delim(']'):
		r.open = r.open[:len(r.open)-1]
	}
	return tok, nil
}

// bigNumber returns the token of a number that Token read but could not
// make a float64 (1e400: valid JSON, RFC 8259 §6), which the decoder has
// consumed, so that it is skipped as any number; other errors are
// returned as they are.
func bigNumber(err error) (json.Token, error) {
	var ute *json.UnmarshalTypeError
	if errors.As(err, &ute) {
		if n, ok := strings.CutPrefix(ute.Value, "number "); ok {
			return json.Number(n), nil
		}
	}
	return nil, err
}

// skip reads the next value of r.dec without decoding it: a scalar as a
// whole, an array or object token by token, its names and scalars as they
// come, so that memory grows with no more than the nesting and the longest
// scalar.
func (r *jsonReader) skip() error {
	depth := len(r.open)
	for {
		if r.scalarNext() {
			if err := r.dec.Decode(&skipped{}); err != nil {
				return err
			}
		} else if _, err := r.token(); err != nil {
			return err
		}
		if len(r.open) == depth {
			return nil
		}
		if r.open[len(r.open)-1] && r.dec.More() { // a name, then its value
			if _, err := r.token(); err != nil {
				return err
			}
		}
	}
}

// scalarNext reports whether what r.dec has buffered shows that the next
// value is a scalar (not an array, object or the end of one), which
// Decode then reads without decoding it; false when it cannot tell.
func (r *jsonReader) scalarNext() bool {
	var buf [64]byte
	n, _ := r.dec.Buffered().Read(buf[:])
	for _, c := range buf[:n] {
		switch c {
		case ' ', '\t', '\r', '\n', ':', ',':
			continue
		case '{', '[', '}', ']':
			return false
		}
		return true
	}
	return false
}

// finish reads what is left of the containers open, as skip does, and
// reports an error unless the document ends there.
func (r *jsonReader) finish() error {
	for len(r.open) > 0 {
		if !r.dec.More() {
			if _, err := r.token(); err != nil {
				return err
			}
			continue
		}
		if r.open[len(r.open)-1] {
			if _, err := r.token(); err != nil { // a name
				return err
			}
		}
		if err := r.skip(); err != nil {
			return err
		}
	}
	return endOfJSON(r.dec)
}

// skipped is a value that Decode reads without decoding: its UnmarshalJSON
// is given the JSON text and keeps nothing.
type skipped struct{}

// UnmarshalJSON keeps nothing.
func (*skipped) UnmarshalJSON([]byte) error { return nil }

// kindOf names the JSON value that tok starts, null and array included,
// as jsonKind does.
func kindOf(tok json.Token) string {
	switch tok {
	case nil:
		return "null"
	case json.Delim('['):
		return "array"
	}
	return jsonKind(tok)
}

// errNoJSON says that a body is empty where a JSON value was expected.
var errNoJSON = errors.New("the body is empty, not JSON")
