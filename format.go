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
	"github.com/weblinking/weblink/internal/linksize"
	"github.com/weblinking/weblink/internal/plainuri"
	"github.com/weblinking/weblink/internal/quote"
)

// String returns l as one link-value (RFC 8288 §3), safe to put in a header
// field whatever l holds (rule 16).
//
// Targets and anchors are written as URIs (rule 17), parameters quoted and
// ordered as rules 18 and 19 say, and what cannot be written safely is left
// out or made safe (rule 20; [Link.Validate] reports it). For a Link in the
// form [Parse] produces, Parse(l.String()) gives l back (rule 21).
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
// once in the common case: 64 bytes for brackets, names and quotes, and 6
// for the "; ", "=" and quotes of each extension parameter.
func (l Link) sizeHint() int {
	return linksize.Hint((*linksize.Link[Param])(&l), 64, 6)
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
		b = relASCII.Append(b, r, ascii.UpperHex)
		ascii.UpperEscapes(b[start:]) // escapes a relation type holds too (RFC 3986 §2.1)
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
		if b = appendQuotedASCII(b, value, ascii.UpperHex); ascii.IsToken(string(b[start:])) {
			return b
		}
		b = b[:start]
	}
	b = append(b, '"')
	b = appendQuotedASCII(b, value, ascii.UpperHex)
	return append(b, '"')
}

// The escape tables of the formatter (ascii.Escapes, shared with package
// linkformat's): the inside of a quoted-string (RFC 9110 §5.6.4), '"' and
// '\\' escaped, and bytes that are not printable ASCII percent-encoded, a
// space too in a relation type (rule 20).
var (
	quotedASCII = ascii.NewEscapes("", "\"\\", false, false)
	relASCII    = ascii.NewEscapes(" ", "\"\\", false, false)
)

// appendQuotedASCII appends s as the inside of a quoted-string (RFC 9110
// §5.6.4), escaping '"' and '\\' and percent-encoding bytes that are not
// printable ASCII with the hex digits hex (ascii.UpperHex or ascii.LowerHex).
func appendQuotedASCII(b []byte, s, hex string) []byte { return quotedASCII.Append(b, s, hex) }

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
	b = appendQuotedASCII(b, value, ascii.UpperHex)
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
			add(ref.field, quote.Value(ref.value)+" is not a URI-reference or IRI: byte "+strconv.Itoa(i)+" must be percent-encoded")
		} else if parses(ref.value) {
			continue
		} else if _, err := url.Parse(string(appendURI(nil, ref.value))); err != nil {
			add(ref.field, quote.Value(ref.value)+" is not a URI-reference: "+err.Error())
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
				add(rels.field, quote.Value(r)+" is neither a lower-case registered relation type name nor an absolute URI (RFC 8288 §2.1)")
			}
		}
	}
	for _, h := range l.Hreflang {
		if !validLanguage(h) {
			add("hreflang", quote.Value(h)+" is not a well-formed language tag (RFC 5646)")
		}
	}
	if l.Type != "" {
		if mt, _, err := mime.ParseMediaType(l.Type); err != nil || !strings.Contains(mt, "/") || !ascii.IsPrint(l.Type) {
			add("type", quote.Value(l.Type)+" is not a media type type/subtype (RFC 6838)")
		}
	}
	if !ascii.IsPrint(l.Media) {
		add("media", quote.Value(l.Media)+" holds non-ASCII or control characters")
	}
	checkText := func(field, value, lang string) {
		if !utf8.ValidString(value) {
			add(field, quote.Value(value)+" is not valid UTF-8")
		}
		if hasControl(value) {
			add(field, quote.Value(value)+" holds control characters")
		}
		if lang != "" && !validLanguage(lang) {
			add(field, "language "+quote.Value(lang)+" is not a well-formed language tag (RFC 5646)")
		}
	}
	checkText("title", l.Title, l.TitleLang)
	for _, p := range l.Params {
		if !isExtensionName(p.Name) {
			add("param", quote.Value(p.Name)+" is not a token without \"*\", or is an attribute Link has a field for")
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
