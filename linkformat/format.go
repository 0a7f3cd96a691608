package linkformat

import (
	"unicode/utf8"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/ascii"
	"github.com/weblinking/weblink/internal/linkscan"
	"github.com/weblinking/weblink/internal/linksize"
)

// Format writes links as a link-format document (RFC 6690 §2), the way a
// strict sender writes it (rules 11 to 16).
//
// Link-values are joined by ",", parameters introduced by ";", with no
// whitespace outside quoted-strings and no trailing comma or newline. No
// links is an empty document.
//
//	</sensors/temp>;rt="temperature-c";if="sensor";ct=0;obs,</sensors/light>;ct="0 41"
//
// The order within a link is <target>, rel, anchor, rev, each hreflang,
// media, title or title*, type, then Params in order. Target and Anchor are
// written as UTF-8 IRIs, never converted to URIs; rel, rev, anchor, title,
// type, rt and if are always quoted, ct and sz are bare when they are all
// digits, and a Param with an empty value is its bare name (obs).
//
// Whatever the links hold, the output is valid UTF-8 without control
// characters (C0, DEL or C1), each Link becomes exactly one link-value that
// [Parse] reads back without error, and Format(Parse(Format(ls))) is
// Format(ls). For links in the form Parse returns them, Parse(Format(ls))
// is ls.
func Format(links weblink.Links) []byte {
	n := 0
	for i := range links {
		n += sizeHint(&links[i]) + 1
	}
	b := make([]byte, 0, n)
	for i := range links {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendLink(b, &links[i])
	}
	return b
}

// sizeHint returns about how many bytes appendLink writes for l, to size
// the output once: 32 bytes for brackets, names and quotes, and 4 for the
// ";", "=" and quotes of each extension parameter.
func sizeHint(l *weblink.Link) int {
	return linksize.Hint((*linksize.Link[weblink.Param])(l), 32, 4)
}

// appendLink appends one link-value (rule 11).
func appendLink(b []byte, l *weblink.Link) []byte {
	b = append(b, '<')
	b = appendIRI(b, l.Target)
	b = append(b, '>')
	b = appendRelTypes(b, "rel", l.Rel)
	if l.Anchor != "" {
		b = append(b, `;anchor="`...)
		b = appendIRI(b, l.Anchor)
		b = append(b, '"')
	}
	b = appendRelTypes(b, "rev", l.Rev)
	for _, h := range l.Hreflang {
		b = appendEscaped(b, "hreflang", h, true)
	}
	if l.Media != "" {
		b = appendEscaped(b, "media", l.Media, true)
	}
	switch star := needsExtValue(l.Title, l.TitleLang); {
	case star:
		b = appendExtValue(b, "title", l.Title, l.TitleLang)
	case l.Title != "":
		b = appendQuoted(b, "title", l.Title)
	}
	if l.Type != "" {
		b = appendEscaped(b, "type", l.Type, false)
	}
	starred := starNames(l.Params)
	for _, p := range l.Params {
		name := ascii.Lower(p.Name)
		switch {
		case !isParmname(name) || linkscan.OwnName(name):
			// Left out (rule 15).
		case starred[name]:
			b = appendExtValue(b, name, p.Value, p.Lang)
		case p.Value == "":
			b = append(b, ';')
			b = append(b, name...)
		case writtenBare(name, p.Value):
			b = append(b, ';')
			b = append(b, name...)
			b = append(b, '=')
			b = append(b, p.Value...)
		default:
			b = appendQuoted(b, name, p.Value)
		}
	}
	return b
}

// writtenBare reports whether the Param value v of the lower-case name is
// written as a token rather than a quoted-string (rule 13): ct and sz when
// they are all digits, never rt and if, others when they are a token.
func writtenBare(name, v string) bool {
	switch name {
	case "ct", "sz":
		return allDigits(v)
	case "rt", "if":
		return false
	}
	return ascii.IsToken(v)
}

// appendRelTypes appends ;name="t1 t2" for the relation types rels, each
// ASCII lower-cased with its whitespace, controls (C0, DEL and C1),
// DQUOTE, backslash and invalid UTF-8 percent-encoded, so that it stays one
// type (rule 12). Empty types are left out, and so is the parameter when
// none is left. The escapes are upper-case (%0A), those written and those
// the type holds, as RFC 3986 §2.1 asks of producers: Parse reads them back
// lower-cased, the same relation type, which is written the same again.
func appendRelTypes(b []byte, name string, rels []string) []byte {
	first := true
	for _, r := range rels {
		if r == "" {
			continue
		}
		if first {
			b = append(b, ';')
			b = append(b, name...)
			b = append(b, `="`...)
			first = false
		} else {
			b = append(b, ' ')
		}
		start := len(b)
		b = relEscapes.Append(b, r, ascii.UpperHex)
		ascii.UpperEscapes(b[start:]) // escapes a relation type holds too (RFC 3986 §2.1)
	}
	if !first {
		b = append(b, '"')
	}
	return b
}

// appendIRI appends the target or anchor ref as an IRI, UTF-8 as is,
// percent-encoding only what cannot stand in an IRI-reference: bytes 0x00
// to 0x20 and 0x7F, DQUOTE, "<", ">", "\", "^", "`", "{", "|", "}", the C1
// controls U+0080 to U+009F, and bytes that are not valid UTF-8 (rule 11).
// "%" is written as is.
func appendIRI(b []byte, ref string) []byte {
	return iriEscapes.Append(b, ref, ascii.UpperHex)
}

// appendEscaped appends ;name=value for hreflang, media and type, with
// controls and invalid UTF-8 percent-encoded: bare when bare is set and the
// result is a token, else as a quoted-string (rule 13). The choice is made
// on the encoded value, so that reading the output and writing it again
// chooses the same.
func appendEscaped(b []byte, name, value string, bare bool) []byte {
	b = append(b, ';')
	b = append(b, name...)
	b = append(b, '=')
	if bare {
		start := len(b)
		b = bareEscapes.Append(b, value, ascii.UpperHex)
		if ascii.IsToken(string(b[start:])) {
			return b
		}
		b = b[:start]
	}
	b = append(b, '"')
	b = quotedEscapes.Append(b, value, ascii.UpperHex)
	return append(b, '"')
}

// The escape tables of this package (ascii.Escapes, shared with package
// weblink's formatter). Every one percent-encodes the C0 controls and DEL,
// and writes UTF-8 as is but for the C1 controls and invalid bytes.
var (
	// iriEscapes: what cannot stand in an IRI-reference (RFC 3987 §2.2),
	// for targets and anchors (rule 11).
	iriEscapes = ascii.NewEscapes(" \"<>\\^`{|}", "", false, true)
	// relEscapes: the whitespace, DQUOTE and backslash that would split
	// or end a relation type, and upper-case letters lower-cased (rule 12).
	relEscapes = ascii.NewEscapes(" \"\\", "", true, true)
	// bareEscapes and quotedEscapes: controls only, for hreflang, media
	// and type as a token or inside a quoted-string (rule 13).
	bareEscapes   = ascii.NewEscapes("", "", false, true)
	quotedEscapes = ascii.NewEscapes("", "\"\\", false, true)
)

// appendQuoted appends ;name="value" for a title or a Param value without
// controls: DQUOTE and backslash escaped, UTF-8 as is, invalid UTF-8
// replaced by U+FFFD (rule 14).
func appendQuoted(b []byte, name, value string) []byte {
	b = append(b, ';')
	b = append(b, name...)
	b = append(b, '=', '"')
	for i := 0; i < len(value); {
		c := value[i]
		if c >= utf8.RuneSelf {
			_, size := utf8.DecodeRuneInString(value[i:])
			if size == 1 {
				b = append(b, "\uFFFD"...)
			} else {
				b = append(b, value[i:i+size]...)
			}
			i += size
			continue
		}
		if c == '"' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, c)
		i++
	}
	return append(b, '"')
}

// appendExtValue appends ;name*= and the RFC 8187 ext-value of value with
// the language lang, as [weblink.ExtValue.String] writes it (rule 14).
func appendExtValue(b []byte, name, value, lang string) []byte {
	b = append(b, ';')
	b = append(b, name...)
	b = append(b, "*="...)
	return append(b, weblink.ExtValue{Charset: "UTF-8", Lang: lang, Value: value}.String()...)
}

// starNames returns the names (lower-cased) of the Params that are written
// as name*= ext-values: those of which one Param has a language or holds a
// control character (rule 14), as linkscan.StarNames says.
func starNames(params []weblink.Param) map[string]bool {
	return linkscan.StarNames(params, func(p weblink.Param) (string, bool) { return p.Name, needsExtValue(p.Value, p.Lang) })
}

// needsExtValue reports whether a title or Param value is written as an
// ext-value: it has a language that the ext-value keeps (a well-formed
// tag: [weblink.ExtValue.String] leaves out others), or holds a control
// character, C0, DEL or C1, which a quoted-string cannot carry.
func needsExtValue(value, lang string) bool {
	if lang != "" && wellFormedLang(lang) {
		return true
	}
	for _, r := range value {
		if r < ' ' || 0x7f <= r && r <= 0x9f {
			return true
		}
	}
	return false
}

// wellFormedLang reports whether lang is a language tag that an ext-value
// keeps, by asking [weblink.ParseExtValue], which reads the ext-values
// that [weblink.ExtValue.String] writes.
func wellFormedLang(lang string) bool {
	v, err := weblink.ParseExtValue("UTF-8'" + lang + "'")
	return err == nil && v.Lang == lang
}

// isParmname reports whether name is an RFC 5987 parmname (rule 15):
//
//	parmname  = 1*attr-char
//	attr-char = ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." /
//	            "^" / "_" / "`" / "|" / "~"
func isParmname(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || isAttrPunct(c)) {
			return false
		}
	}
	return true
}

// isAttrPunct reports whether c is one of the punctuation bytes of
// attr-char.
func isAttrPunct(c byte) bool {
	switch c {
	case '!', '#', '$', '&', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}

// allDigits reports whether s is one or more ASCII digits.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
