package weblink

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/weblinking/weblink/internal/ascii"
	"github.com/weblinking/weblink/internal/linkscan"
	"github.com/weblinking/weblink/internal/plainuri"
)

// String returns l as one link-value (RFC 8288 §3), safe to put in a header
// field: the result is printable ASCII whatever l holds, so no value can end
// the field, start another header or smuggle in a second link-value.
//
// The target and anchor are written as URIs: an IRI is converted with RFC
// 3987 §3.1 (UTF-8, then percent-encoding), and any byte that cannot appear in
// a URI-reference (space, <, >, ", controls) is percent-encoded. rel, anchor,
// rev, title and type are always quoted-strings, as the most naive receivers
// expect (rel="next"); hreflang, media and extension parameters are tokens
// when they can be, quoted-strings otherwise. A title or extension parameter
// that a quoted-string cannot carry (non-ASCII text, control characters, or a
// language tag) is written as an RFC 8187 ext-value, title*=UTF-8'lang'...;
// a parameter with an empty value is written bare ("; crossorigin").
//
// What cannot be written safely is left out or made safe, never passed
// through: a [Param] whose name is not a token, ends in "*" or is one of the
// link's own attribute names is omitted; non-ASCII and control characters in
// rel, rev, hreflang, media and type are percent-encoded (lower-case %hh in
// rel and rev, as [Parse] reads relation types back); invalid UTF-8 in a
// title becomes U+FFFD; a language tag that is not well-formed is left out.
// Validate reports each of these.
//
// Parameters come in this order: rel, anchor, rev, each hreflang, media,
// title or title*, type, then Params in order. For a Link in the form [Parse]
// produces, whose Target, Anchor, Rel, Rev, Hreflang, Media and Type are
// printable ASCII with Target and Anchor URI-references, Parse(l.String())
// gives l back.
func (l Link) String() string {
	return string(l.appendTo(make([]byte, 0, l.sizeHint())))
}

// String returns ls as a Link field value: the link-values of [Link.String]
// joined by ", ". An empty list gives "".
func (ls Links) String() string {
	n := 0
	for _, l := range ls {
		n += l.sizeHint() + 2
	}
	b := make([]byte, 0, n)
	for i, l := range ls {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = l.appendTo(b)
	}
	return string(b)
}

// Add appends one Link field line to h holding all links, formatted by
// [Links.String] (RFC 8288 §3). Lines already in h are kept. Add with no links
// does nothing.
func Add(h http.Header, links ...Link) {
	if len(links) == 0 {
		return
	}
	h["Link"] = append(h["Link"], Links(links).String())
}

// sizeHint estimates the length of l.String(), so that formatting allocates
// once in the common case.
func (l Link) sizeHint() int {
	n := len(l.Target) + len(l.Anchor) + len(l.Media) + len(l.Title) + len(l.Type) + 64
	for _, r := range l.Rel {
		n += len(r) + 1
	}
	for _, r := range l.Rev {
		n += len(r) + 1
	}
	for _, h := range l.Hreflang {
		n += len(h) + 12
	}
	for _, p := range l.Params {
		n += len(p.Name) + len(p.Value) + 6
	}
	return n
}

// appendTo appends the link-value of l to b.
func (l Link) appendTo(b []byte) []byte {
	b = append(b, '<')
	b = appendURI(b, l.Target)
	b = append(b, '>')
	if hasToken(l.Rel) {
		b = appendRelTypes(append(b, `; rel="`...), l.Rel)
	}
	if l.Anchor != "" {
		b = append(b, `; anchor="`...)
		b = appendURI(b, l.Anchor)
		b = append(b, '"')
	}
	if hasToken(l.Rev) {
		b = appendRelTypes(append(b, `; rev="`...), l.Rev)
	}
	for _, h := range l.Hreflang {
		b = appendASCIIParam(b, "hreflang", h, false)
	}
	if l.Media != "" {
		b = appendASCIIParam(b, "media", l.Media, false)
	}
	if l.Title != "" || validLanguage(l.TitleLang) {
		b = appendTextParam(b, "title", l.Title, l.TitleLang, true, false)
	}
	if l.Type != "" {
		b = appendASCIIParam(b, "type", l.Type, true)
	}
	starred := starNames(l.Params)
	for _, p := range l.Params {
		if !isExtensionName(p.Name) {
			continue
		}
		b = appendTextParam(b, p.Name, p.Value, p.Lang, false, starred[ascii.Lower(p.Name)])
	}
	return b
}

// starNames returns the lower-case names of the params that are written as
// ext-values, name*=..., or nil when there are none: every value of a name
// once one value needs it (rule 20).
func starNames(params []Param) map[string]bool {
	return linkscan.StarNames(params, func(p Param) (string, bool) { return p.Name, needsExtValue(p.Value, p.Lang) })
}

// needsExtValue reports whether text with language lang must be written as
// an RFC 8187 ext-value: it has a (well-formed) language, or characters that
// a quoted-string cannot carry.
func needsExtValue(value, lang string) bool {
	return validLanguage(lang) || !ascii.IsPrint(value)
}

// isExtensionName reports whether name can be written as the name of an
// extension parameter: a token, without a trailing "*", and not one of the
// attributes that Link has fields for.
func isExtensionName(name string) bool {
	if !ascii.IsToken(name) || name[len(name)-1] == '*' {
		return false
	}
	return !linkscan.OwnName(ascii.Lower(name))
}

// hasToken reports whether rels holds a non-empty relation type.
func hasToken(rels []string) bool {
	for _, r := range rels {
		if r != "" {
			return true
		}
	}
	return false
}

// appendRelTypes appends the relation types joined by a space, as the inside
// of a quoted-string, and the closing quote (RFC 8288 §3.3). Bytes that are
// not printable ASCII are written as upper-case %HH escapes, as RFC 3986
// §2.1 asks of producers, and so are the escapes the type holds (rule 20):
// Parse reads them lower-cased, like the rest of a relation type (rule 5),
// which compares case-insensitively (RFC 8288 §2.1.2), and the type is
// written the same way again. A space inside a relation type is written
// %20: Parse splits relation types at spaces, and would read two.
func appendRelTypes(b []byte, rels []string) []byte {
	sep := false
	for _, r := range rels {
		if r == "" {
			continue
		}
		if sep {
			b = append(b, ' ')
		}
		sep = true
		start := len(b)
		for {
			word, rest, space := strings.Cut(r, " ")
			b = appendQuotedASCII(b, word)
			if !space {
				break
			}
			b, r = append(b, "%20"...), rest
		}
		ascii.UpperEscapes(b[start:])
	}
	return append(b, '"')
}

// appendASCIIParam appends "; name=value" for an attribute whose value is
// ASCII by definition, with non-ASCII and control bytes percent-encoded: a
// token when quote is false and the encoded value is one, otherwise a
// quoted-string. The choice is made on the encoded value, which is what
// Parse reads back, so that writing that again chooses the same.
func appendASCIIParam(b []byte, name, value string, quote bool) []byte {
	b = append(b, "; "...)
	b = append(b, name...)
	b = append(b, '=')
	if !quote {
		if ascii.IsToken(value) {
			return append(b, value...)
		}
		start := len(b)
		if b = appendQuotedASCII(b, value); ascii.IsToken(string(b[start:])) {
			return b
		}
		b = b[:start]
	}
	b = append(b, '"')
	b = appendQuotedASCII(b, value)
	return append(b, '"')
}

// appendQuotedASCII appends s as the inside of a quoted-string (RFC 9110
// §5.6.4), escaping '"' and '\\' and percent-encoding bytes that are not
// printable ASCII (upper-case %HH, RFC 3986 §2.1).
func appendQuotedASCII(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		// Runs of qdtext, usually all of s, are copied whole.
		j := qdtextRun(s, i)
		b = append(b, s[i:j]...)
		if j == len(s) {
			break
		}
		if c := s[j]; c == '"' || c == '\\' {
			b = append(b, '\\', c)
		} else {
			b = ascii.AppendPercent(b, c, ascii.UpperHex)
		}
		i = j + 1
	}
	return b
}

// qdtextRun returns the index of the first byte at or after i that
// appendQuotedASCII must escape: '"', '\\', or one that is not printable
// ASCII.
func qdtextRun(s string, i int) int {
	for i < len(s) {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			break
		}
		i++
	}
	return i
}

// appendTextParam appends a parameter whose value is text: as an RFC 8187
// ext-value "name*=UTF-8'lang'..." when star is set or needsExtValue says so
// (RFC 8288 §3, RFC 8187 §3.2); otherwise bare when empty (unless quote is
// set), else a token or a quoted-string.
func appendTextParam(b []byte, name, value, lang string, quote, star bool) []byte {
	b = append(b, "; "...)
	b = ascii.AppendLower(b, name)
	if star || needsExtValue(value, lang) {
		b = append(b, "*="...)
		return ExtValue{Lang: lang, Value: value}.appendTo(b)
	}
	switch {
	case value == "" && !quote:
		return b
	case !quote && ascii.IsToken(value):
		return append(append(b, '='), value...)
	}
	b = append(b, `="`...)
	b = appendQuotedASCII(b, value)
	return append(b, '"')
}

// ErrInvalidLink is wrapped by every problem that Validate reports; test for
// it with errors.Is.
var ErrInvalidLink = errors.New("weblink: invalid link")

// invalid returns a Validate problem about field.
func invalid(field, msg string) error {
	return fmt.Errorf("%w: %s %s", ErrInvalidLink, field, msg)
}

// Validate checks l strictly against RFC 8288 before it is sent, and returns
// every problem it finds (joined with errors.Join, each wrapping
// [ErrInvalidLink]), or nil:
//
//   - l has at least one relation type (RFC 8288 §3.3: rel is required);
//   - every relation type in Rel and Rev is lower-case and registered
//     (§2.1.1), or a reg-rel-type (LOALPHA *( LOALPHA / DIGIT / "." / "-" ),
//     §3.3), or an absolute URI (§2.1.2); unregistered types are accepted;
//   - every Hreflang is a well-formed language tag (§3.4.1, RFC 5646);
//   - Type is type/subtype (§3.4.1, RFC 6838), in printable ASCII;
//   - Target and Anchor are URI-references or IRIs (§3.1, §3.2);
//   - [Param] names are tokens, without a trailing "*", and not names that
//     Link has fields for; language tags are well-formed;
//   - no value holds control characters or invalid UTF-8, and rel, rev,
//     hreflang, media and type are ASCII.
//
// String writes any Link safely; Validate says where String had to change
// or leave out what l holds. It accepts unregistered relation types.
func (l Link) Validate() error {
	var errs []error
	l.validate(func(field, msg string) { errs = append(errs, invalid(field, msg)) })
	return errors.Join(errs...)
}

// validate calls add with the field and message of each problem that
// Validate reports, in order; [Check] counts them without building errors.
func (l Link) validate(add func(field, msg string)) {
	for _, ref := range [...]struct{ field, value string }{{"target", l.Target}, {"anchor", l.Anchor}} {
		if i := checkURI(ref.value); i >= 0 {
			add(ref.field, quoteForError(ref.value)+" is not a URI-reference or IRI: byte "+strconv.Itoa(i)+" must be percent-encoded")
		} else if parses(ref.value) {
			continue
		} else if _, err := url.Parse(string(appendURI(nil, ref.value))); err != nil {
			add(ref.field, quoteForError(ref.value)+" is not a URI-reference: "+err.Error())
		}
	}
	if !hasToken(l.Rel) {
		add("rel", "is missing: a link needs at least one relation type (RFC 8288 §3.3)")
	}
	for _, rels := range [...]struct {
		field string
		types []string
	}{{"rel", l.Rel}, {"rev", l.Rev}} {
		for _, r := range rels.types {
			if !isRegRelType(r) && !isAbsoluteURI(r) && !isRegisteredLower(r) {
				add(rels.field, quoteForError(r)+" is neither a lower-case registered relation type name nor an absolute URI (RFC 8288 §2.1)")
			}
		}
	}
	for _, h := range l.Hreflang {
		if !validLanguage(h) {
			add("hreflang", quoteForError(h)+" is not a well-formed language tag (RFC 5646)")
		}
	}
	if l.Type != "" {
		if mt, _, err := mime.ParseMediaType(l.Type); err != nil || !strings.Contains(mt, "/") || !ascii.IsPrint(l.Type) {
			add("type", quoteForError(l.Type)+" is not a media type type/subtype (RFC 6838)")
		}
	}
	if !ascii.IsPrint(l.Media) {
		add("media", quoteForError(l.Media)+" holds non-ASCII or control characters")
	}
	checkText := func(field, value, lang string) {
		if !utf8.ValidString(value) {
			add(field, quoteForError(value)+" is not valid UTF-8")
		}
		if hasControl(value) {
			add(field, quoteForError(value)+" holds control characters")
		}
		if lang != "" && !validLanguage(lang) {
			add(field, "language "+quoteForError(lang)+" is not a well-formed language tag (RFC 5646)")
		}
	}
	checkText("title", l.Title, l.TitleLang)
	for _, p := range l.Params {
		if !isExtensionName(p.Name) {
			add("param", quoteForError(p.Name)+" is not a token without \"*\", or is an attribute Link has a field for")
			continue
		}
		checkText("param "+p.Name, p.Value, p.Lang)
	}
}

// parses reports, without allocating, whether url.Parse surely accepts
// ref: it is empty, or a plain absolute URL or path (plainuri).
func parses(ref string) bool {
	return ref == "" || plainuri.Absolute(ref) || plainuri.Path(ref)
}

// hasControl reports whether s holds an ASCII control character or DEL, or
// a C1 control.
func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || 0x80 <= r && r < 0xa0 {
			return true
		}
	}
	return false
}

// isRegisteredLower reports whether r is the lower-case name of a registered
// relation type: a few, such as "openid2.local_id", are not reg-rel-types.
func isRegisteredLower(r string) bool {
	reg, ok := LookupRelation(r)
	return ok && reg.Name == r
}

// isRegRelType reports whether s is a reg-rel-type (RFC 8288 §3.3):
//
//	reg-rel-type = LOALPHA *( LOALPHA / DIGIT / "." / "-" )
func isRegRelType(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}
