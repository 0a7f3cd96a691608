package linkformat

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/ascii"
	"github.com/weblinking/weblink/internal/quote"
)

// Values returns the values of every Param of l named name, each split on
// ASCII whitespace, in document order, or nil when there are none.
//
// Names compare ASCII case-insensitively and repeats are kept (rule 4). It
// is how the space-separated lists of the rt and if attributes are read (RFC
// 6690 §3.1, §3.2):
//
//	rt="temperature-c sensor";rt=core.s  →  ["temperature-c" "sensor" "core.s"]
//
// The fields of [weblink.Link] (rel, anchor, title, ...) are not Params;
// read them directly.
func Values(l weblink.Link, name string) []string {
	var out []string
	for _, p := range l.Params {
		if ascii.EqualFold(p.Name, name) {
			if len(p.Value) > longValue {
				// Room for every field at once: growing the slice
				// field by field would copy it again and again.
				out = slices.Grow(out, countFields(p.Value))
			}
			out = appendFields(out, p.Value)
		}
	}
	return out
}

// longValue is the length of a value beyond which Values counts its fields
// before splitting it.
const longValue = 64

// countFields returns how many fields appendFields finds in s.
func countFields(s string) int {
	n := 0
	inField := false
	for i := 0; i < len(s); i++ {
		space := isASCIISpace(s[i])
		if !space && !inField {
			n++
		}
		inField = !space
	}
	return n
}

// appendFields appends the runs of s between ASCII whitespace (SP, HTAB, LF,
// VT, FF, CR) to out. Unlike strings.Fields it does not split on non-ASCII
// spaces such as U+00A0, which RFC 6690 §3.1 does not count.
func appendFields(out []string, s string) []string {
	for i := 0; i < len(s); {
		for i < len(s) && isASCIISpace(s[i]) {
			i++
		}
		start := i
		for i < len(s) && !isASCIISpace(s[i]) {
			i++
		}
		if i > start {
			out = append(out, s[start:i])
		}
	}
	return out
}

// isASCIISpace reports whether c is SP, HTAB, LF, VT, FF or CR.
func isASCIISpace(c byte) bool {
	return c == ' ' || '\t' <= c && c <= '\r'
}

// ContentFormats returns the CoAP Content-Format numbers of l's ct
// attribute (RFC 7252 §7.2.1), in order with duplicates kept.
//
// Every token of every ct Param counts (rule 5): the quoted list
// ct="0 41", an unquoted one, or ct repeated. A token that is not 1 to 5 ASCII digits with a value up
// to 65535 is skipped and named in the error; the numbers that parse are
// returned either way. Without a ct, it returns nil, nil.
func ContentFormats(l weblink.Link) ([]uint16, error) {
	toks := Values(l, "ct")
	if toks == nil {
		return nil, nil
	}
	out := make([]uint16, 0, len(toks))
	var bad []string // the first maxNamed bad tokens
	nbad := 0
	for _, tok := range toks {
		if n, ok := contentFormat(tok); ok {
			out = append(out, n)
			continue
		}
		if nbad < maxNamed {
			bad = append(bad, tok)
		}
		nbad++
	}
	if nbad == 0 {
		return out, nil
	}
	return out, contentFormatError(bad, nbad-len(bad))
}

// contentFormat parses one ct token: 1 to 5 ASCII digits, at most 65535.
func contentFormat(tok string) (uint16, bool) {
	if len(tok) == 0 || len(tok) > 5 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if n > 65535 {
		return 0, false
	}
	return uint16(n), true
}

// maxNamed is how many bad ct tokens an error names; it counts the rest, so
// that a hostile ct list makes a short error.
const maxNamed = 8

// contentFormatError names the ct tokens bad that are not Content-Format
// numbers, and counts more others.
func contentFormatError(bad []string, more int) error {
	var b strings.Builder
	b.WriteString("linkformat: ct ")
	for i, tok := range bad {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quote.Value(tok))
	}
	if more > 0 {
		b.WriteString(" and " + strconv.Itoa(more) + " more")
	}
	b.WriteString(": not a Content-Format number (0 to 65535); skipped")
	return errors.New(b.String())
}
