package weblink

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/weblinking/weblink/internal/ascii"
	"github.com/weblinking/weblink/internal/quote"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/language"
)

// ExtValue is an extended parameter value of RFC 8187 §3.2.1 (RFC 5987
// §3.2 before it): the text of a "title*" or other "name*" parameter.
//
// It holds the text with the charset it was encoded in and an optional
// language tag, written charset'language'pct-encoded.
type ExtValue struct {
	Charset string // as written, e.g. "UTF-8", "iso-8859-1"
	Lang    string // language tag as written; "" when absent
	Value   string // decoded text (always UTF-8 in Go)
}

// ParseExtValue decodes s as an ext-value of RFC 8187 §3.2.1 (RFC 5987
// §3.2):
//
//	ext-value   = charset "'" [ language ] "'" value-chars
//	value-chars = *( pct-encoded / attr-char )
//
// The charset is matched case-insensitively and kept as written in Charset.
// ParseExtValue decodes UTF-8 (the only charset RFC 8187 requires), US-ASCII,
// ISO-8859-1 (which RFC 5987 required) and, by their IANA names and aliases,
// the other single-byte charsets of golang.org/x/text/encoding/charmap that
// agree with US-ASCII on octets 0x00-0x7F: ISO-8859-2 to ISO-8859-16,
// windows-874 and windows-1250 to windows-1258, KOI8-R, KOI8-U, macintosh and
// the IBM PC code pages 437, 850, 852, 855, 858, 860, 862, 863, 865 and 866.
// For any other charset it returns an error that matches [ErrCharset] with
// errors.Is; it never guesses.
//
// An octet that the charset does not define is an error rather than U+FFFD:
// an invalid UTF-8 sequence, an octet above 0x7F in US-ASCII, a hole such as
// 0x81 in windows-1252, and 0x80-0x9F in ISO-8859-n, where those positions
// are C1 controls rather than characters (they almost always mean UTF-8 or
// windows-1252 text mislabelled).
//
// The language, when present, must be a well-formed language tag (RFC 5646
// §2.1: ASCII letters, digits and hyphens) as golang.org/x/text/language
// parses it; a well-formed tag with an unknown subtag, such as "cn", is
// accepted. Lang is kept as written. A tag longer than 256 bytes is
// rejected, to keep parsing time linear.
//
// A "+" is a literal plus sign, and percent-escapes may use either case of
// hex digit. A quoted-string is not an ext-value (RFC 8187 §3.2.2), so s
// must not be quoted. Every other problem is a [*SyntaxError] whose Offset is
// the byte in s where it was found.
//
// When s holds no percent-escape, Value is a substring of s and
// ParseExtValue does not allocate, unless the language tag has subtags
// other than a language and a region (x/text allocates to check them);
// otherwise Value takes one allocation. Time is linear in len(s).
func ParseExtValue(s string) (ExtValue, error) { return decodeExtValue(s, nil) }

// decodeExtValue is ParseExtValue, writing the text it decodes from UTF-8
// escapes to text, when text is not nil, instead of allocating it: Value is
// then a substring of text's string (decodeUTF8).
func decodeExtValue(s string, text *strings.Builder) (ExtValue, error) {
	if lang, rest, ok := utf8Prefix(s); ok {
		// The usual form, such as UTF-8'en'..., on a short path.
		value, err := decodeValueChars(s, rest, charset{}, s[:5], text)
		if err != nil {
			return ExtValue{}, err
		}
		return ExtValue{Charset: s[:5], Lang: lang, Value: value}, nil
	}
	return parseExtValue(s, text)
}

// parseExtValue is the general path of decodeExtValue, for every form.
func parseExtValue(s string, text *strings.Builder) (ExtValue, error) {
	name, rest, err := consumeCharset(s)
	if err != nil {
		return ExtValue{}, err
	}
	lang, rest, err := consumeLanguage(s, rest)
	if err != nil {
		return ExtValue{}, err
	}
	cs, ok := lookupCharset(name)
	if !ok {
		return ExtValue{}, &SyntaxError{
			Offset: 0,
			Msg:    "unsupported charset " + quote.Value(name) + " in ext-value",
			err:    ErrCharset,
		}
	}
	value, err := decodeValueChars(s, rest, cs, name, text)
	if err != nil {
		return ExtValue{}, err
	}
	return ExtValue{Charset: name, Lang: lang, Value: value}, nil
}

// utf8Prefix reports whether s starts with "UTF-8'" and an empty language
// or one of two letters, and its apostrophe: what nearly every ext-value
// starts with, taken without the general path's loops. It returns the
// language and the value-chars after it. On false the general path decides
// (TestUTF8Prefix checks that both agree).
func utf8Prefix(s string) (lang, rest string, ok bool) {
	const prefix = "UTF-8'"
	switch {
	case len(s) < len(prefix)+1 || s[:len(prefix)] != prefix:
		return "", "", false
	case s[6] == '\'':
		return "", s[7:], true
	case len(s) >= 9 && s[8] == '\'' && isLetter(s[6]) && isLetter(s[7]):
		return s[6:8], s[9:], true
	}
	return "", "", false
}

// String returns v as an ext-value (RFC 8187 §3.2.1) in UTF-8, whatever
// v.Charset says (rule 15).
//
// Invalid UTF-8 in v.Value is replaced by U+FFFD first, and a v.Lang that
// is not a well-formed language tag is left out, so the result is always
// printable ASCII that [ParseExtValue] accepts.
func (v ExtValue) String() string {
	var buf [128]byte
	return string(v.appendTo(buf[:0]))
}

// appendTo appends the ext-value String returns to b.
func (v ExtValue) appendTo(b []byte) []byte {
	b = append(b, "UTF-8'"...)
	if validLanguage(v.Lang) {
		b = append(b, v.Lang...)
	}
	b = append(b, '\'')
	for i := 0; i < len(v.Value); {
		chunk, next := validUTF8At(v.Value, i)
		for j := 0; j < len(chunk); j++ {
			if c := chunk[j]; charClass[c]&isAttrChar != 0 {
				b = append(b, c)
			} else {
				b = ascii.AppendPercent(b, c, ascii.UpperHex)
			}
		}
		i = next
	}
	return b
}

// validUTF8At returns the UTF-8 encoding of the character at s[i], or of
// U+FFFD when s[i] does not start a valid UTF-8 sequence, and the index after
// it.
func validUTF8At(s string, i int) (chunk string, next int) {
	if s[i] < utf8.RuneSelf {
		return s[i : i+1], i + 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size == 1 {
		return "\uFFFD", i + 1
	}
	return s[i : i+size], i + size
}

// consumeCharset consumes the charset of an ext-value and the apostrophe
// after it (RFC 8187 §3.2.1: charset = "UTF-8" / mime-charset), returning
// the charset and the rest of s.
func consumeCharset(s string) (name, rest string, err error) {
	if strings.HasPrefix(s, "UTF-8'") {
		return s[:5], s[6:], nil // the usual charset, as RFC 8187 spells it
	}
	if strings.HasPrefix(s, `"`) {
		return "", "", syntaxErrorAt(0, "ext-value must not be a quoted-string")
	}
	name, rest, err = consumeField(s, s, isCharsetc, "charset")
	if err == nil && name == "" {
		err = syntaxErrorAt(0, "empty charset in ext-value")
	}
	return name, rest, err
}

// consumeField consumes the bytes of rest of the character class class, up
// to an apostrophe, and the apostrophe. rest is a suffix of the ext-value s,
// for error offsets; what names the field in errors.
func consumeField(s, rest string, class uint8, what string) (field, after string, err error) {
	i := 0
	for i < len(rest) && charClass[rest[i]]&class != 0 {
		i++
	}
	switch {
	case i < len(rest) && rest[i] == '\'':
		return rest[:i], rest[i+1:], nil
	case strings.IndexByte(rest[i:], '\'') < 0:
		return "", "", syntaxErrorAt(len(s), "missing apostrophe after ext-value "+what)
	}
	return "", "", syntaxErrorAt(len(s)-len(rest)+i, "invalid "+describeByte(rest[i])+" in ext-value "+what)
}

// validLanguage reports whether tag is a well-formed language tag (RFC 5646
// §2.1) that ParseExtValue accepts: what String writes and Validate checks.
func validLanguage(tag string) bool {
	return tag != "" && len(tag) <= maxLanguage && allOf(tag, isLanguageChar) && wellFormedLanguage(tag)
}

// consumeLanguage consumes the optional language tag of an ext-value and the
// apostrophe after it, returning the tag and the rest of s. rest is the
// suffix of s that follows the charset's apostrophe.
func consumeLanguage(s, rest string) (lang, after string, err error) {
	lang, after, err = consumeField(s, rest, isTagChar, "language")
	switch {
	case err != nil || lang == "":
	case len(lang) > maxLanguage:
		err = syntaxErrorAt(len(s)-len(rest), "ext-value language is longer than "+strconv.Itoa(maxLanguage)+" bytes")
	case !wellFormedLanguage(lang):
		err = syntaxErrorAt(len(s)-len(rest), "ext-value language "+quote.Value(lang)+" is not a well-formed language tag")
	}
	return lang, after, err
}

// maxLanguage is the length of the longest language tag ParseExtValue
// accepts. RFC 5646 §4.4.1 asks for at least 35 characters; the limit keeps
// parsing linear, as language.Parse takes time quadratic in the number of
// variants.
const maxLanguage = 256

// isLanguageChar reports whether c may appear in a language tag (RFC 5646
// §2.1): an ASCII letter, digit or hyphen.
func isLanguageChar(c byte) bool { return charClass[c]&isTagChar != 0 }

// wellFormedLanguage reports whether tag, made of letters, digits and
// hyphens, is well-formed for golang.org/x/text/language: it parses, or
// fails only because a well-formed subtag is unknown (a ValueError). The
// common forms "ll", "lll" and those followed by a region are well-formed
// whatever their letters and are accepted without calling language.Parse,
// which allocates.
func wellFormedLanguage(tag string) bool {
	if simpleLanguage(tag) {
		return true
	}
	_, err := language.Parse(tag)
	var unknown language.ValueError
	return err == nil || errors.As(err, &unknown)
}

// simpleLanguage reports whether tag is a language of 2 or 3 letters,
// optionally followed by a script of 4 letters, then optionally by a region
// of 2 letters or 3 digits, each after a "-" (RFC 5646 §2.1: language
// ["-" script] ["-" region]): the tags of nearly every ext-value, which
// are well-formed whatever their letters. TestSimpleLanguage and
// FuzzSimpleLanguage check that golang.org/x/text/language accepts every
// one.
func simpleLanguage(tag string) bool {
	n := letters(tag, 0)
	if n < 2 || n > 3 {
		return false
	}
	if n < len(tag) && tag[n] == '-' && letters(tag, n+1) == n+5 {
		n += 5 // a script
	}
	switch len(tag) - n {
	case 0:
		return true
	case 3:
		return tag[n] == '-' && isLetter(tag[n+1]) && isLetter(tag[n+2])
	case 4:
		return tag[n] == '-' && isDigit(tag[n+1]) && isDigit(tag[n+2]) && isDigit(tag[n+3])
	}
	return false
}

// letters returns the index of the first byte of s at or after i that is
// not an ASCII letter, or len(s).
func letters(s string, i int) int {
	for i < len(s) && isLetter(s[i]) {
		i++
	}
	return i
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// allOf reports whether every byte of s satisfies f.
func allOf(s string, f func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !f(s[i]) {
			return false
		}
	}
	return true
}

// decodeValueChars decodes the value-chars of an ext-value (RFC 8187
// §3.2.1: attr-chars and %HH escapes) from the octets of charset cs to
// UTF-8. rest is the suffix of s that holds them; name is the charset as
// written, for errors; text, when not nil, takes the text decoded from
// UTF-8 escapes (decodeUTF8).
//
//	value-chars = *( pct-encoded / attr-char )
//	pct-encoded = "%" HEXDIG HEXDIG
func decodeValueChars(s, rest string, cs charset, name string, text *strings.Builder) (string, error) {
	off := len(s) - len(rest)
	if cs.cmap == nil && strings.IndexByte(rest, '%') >= 0 {
		return decodeUTF8(rest, off, cs.asciiOnly, text)
	}
	escapes, err := scanValueChars(rest, off)
	if err != nil {
		return "", err
	}
	if escapes == 0 {
		// attr-chars are ASCII, which every charset in the table
		// decodes as itself.
		return rest, nil
	}
	return decodeCharmap(rest, off, cs, name)
}

// scanValueChars checks that v is value-chars and returns how many %HH
// escapes it holds. off is the offset of v in the ext-value, for errors.
func scanValueChars(v string, off int) (escapes int, err error) {
	for i := 0; ; i += 3 {
		// Runs of attr-chars a word at a time, then an escape.
		if i = ascii.ClassRun(&charClass, v, i, isAttrChar); i == len(v) {
			return escapes, nil
		}
		if !escapeAt(v, i) {
			return 0, valueCharError(v, off, i)
		}
		escapes++
	}
}

// valueCharError reports the byte v[i], which is neither an attr-char nor
// the start of a %HH escape. off is the offset of v in the ext-value.
func valueCharError(v string, off, i int) error {
	if v[i] == '%' {
		return syntaxErrorAt(off+i, "invalid percent-escape "+quote.Value(v[i:min(i+3, len(v))])+" in ext-value")
	}
	return syntaxErrorAt(off+i, "invalid "+describeByte(v[i])+" in ext-value (not an attr-char or %HH escape)")
}

// octetAt returns the octet that the attr-char or %HH escape at v[i] stands
// for and the index after it. v has passed scanValueChars.
func octetAt(v string, i int) (octet byte, next int) {
	if v[i] != '%' {
		return v[i], i + 1
	}
	return hexValue[v[i+1]]<<4 | hexValue[v[i+2]], i + 3
}

// decodeUTF8 checks and decodes value-chars v that hold UTF-8 octets, or
// only US-ASCII octets when asciiOnly is set, in one pass. The octets go to
// a buffer on the stack, a chunk at a time, then to where the text is
// kept: with text nil, a string of its own, one allocation (the first
// chunk itself when it is the whole value, else a strings.Builder sized
// once); otherwise the end of text, whose string the result is a
// substring of, so that the values of one parse share one allocation
// (parser.extValue). text never holds more than the decoded values, each
// at most as long as its value-chars. off is the offset of v in the
// ext-value, for errors.
func decodeUTF8(v string, off int, asciiOnly bool, text *strings.Builder) (string, error) {
	var chunk [64]byte
	var high byte // the escaped octets or-ed together
	var out string
	var own strings.Builder
	var b *strings.Builder // where the chunks go, once there is more than one: own or text
	start := 0
	for i := 0; ; {
		// Fill chunk, attr-chars on the short path.
		n := 0
		for ; n < len(chunk) && i < len(v); n++ {
			if c := v[i]; charClass[c]&isAttrChar != 0 {
				chunk[n] = c
				i++
				continue
			}
			if !escapeAt(v, i) {
				return "", valueCharError(v, off, i)
			}
			c := hexValue[v[i+1]]<<4 | hexValue[v[i+2]]
			high |= c
			chunk[n] = c
			i += 3
		}
		if i == len(v) && b == nil && text == nil {
			out = string(chunk[:n]) // the usual case: one chunk
			break
		}
		if b == nil {
			b = text
			if b == nil {
				// Every "%" of value-chars starts a 3-byte escape
				// of one octet.
				b = &own
				b.Grow(max(len(v)-2*strings.Count(v, "%"), 0))
			}
			start = b.Len()
		}
		b.Write(chunk[:n])
		if i == len(v) {
			out = b.String()[start:]
			break
		}
	}
	if high < utf8.RuneSelf {
		return out, nil
	}
	// Only text with an escaped octet above 0x7F can be invalid; find
	// the first octet that is.
	if !asciiOnly && utf8.ValidString(out) {
		return out, nil
	}
	bad := 0
	for bad < len(out) {
		r, size := utf8.DecodeRuneInString(out[bad:])
		if asciiOnly && r >= utf8.RuneSelf {
			return "", syntaxErrorAt(off+inputIndex(v, bad), "octet "+hexByte(out[bad])+" is not a US-ASCII character")
		}
		if r == utf8.RuneError && size == 1 {
			return "", syntaxErrorAt(off+inputIndex(v, bad), "invalid UTF-8 in ext-value")
		}
		bad += size
	}
	return out, nil
}

// inputIndex returns the index in value-chars v of the attr-char or escape
// that decodes to octet number n.
func inputIndex(v string, n int) int {
	i := 0
	for ; n > 0; n-- {
		_, i = octetAt(v, i)
	}
	return i
}

// decodeCharmap decodes value-chars v that hold octets of the single-byte
// charset cs, called name in the ext-value.
func decodeCharmap(v string, off int, cs charset, name string) (string, error) {
	size := 0
	for i := 0; i < len(v); {
		c, next := octetAt(v, i)
		r, ok := cs.decodeOctet(c)
		if !ok {
			return "", syntaxErrorAt(off+i, "octet "+hexByte(c)+" is not a character in charset "+quote.Value(name))
		}
		size += utf8.RuneLen(r)
		i = next
	}
	var b strings.Builder
	b.Grow(size)
	for i := 0; i < len(v); {
		c, next := octetAt(v, i)
		r, _ := cs.decodeOctet(c)
		b.WriteRune(r)
		i = next
	}
	return b.String(), nil
}

// describeByte names c for an error message: quoted when it is printable
// ASCII, in hex otherwise.
func describeByte(c byte) string {
	if ' ' <= c && c < 0x7F {
		return "character " + quote.Value(string(rune(c)))
	}
	return "byte " + hexByte(c)
}

// hexByte returns c as 0xHH.
func hexByte(c byte) string {
	return "0x" + string(ascii.UpperHex[c>>4]) + string(ascii.UpperHex[c&0xF])
}

// syntaxErrorAt returns a *SyntaxError at offset off.
func syntaxErrorAt(off int, msg string) error {
	return &SyntaxError{Offset: off, Msg: msg}
}

// charset says how the octets of an ext-value's value-chars become text.
type charset struct {
	cmap      *charmap.Charmap // nil: the octets are UTF-8
	asciiOnly bool             // US-ASCII: octets above 0x7F are not characters
	noC1      bool             // ISO-8859-n: octets 0x80-0x9F are C1 controls, not characters
}

// decodeOctet returns the character that octet c stands for in the
// single-byte charset cs, and false when cs does not define one.
func (cs charset) decodeOctet(c byte) (rune, bool) {
	if cs.noC1 && 0x80 <= c && c <= 0x9F {
		return 0, false
	}
	r := cs.cmap.DecodeByte(c)
	return r, r != utf8.RuneError
}

// maxCharsetName is the length of the longest name in charsets.
const maxCharsetName = 24

// lookupCharset returns the charset named name, compared
// case-insensitively, without allocating.
func lookupCharset(name string) (charset, bool) {
	if name == "UTF-8" || ascii.EqualFold(name, "UTF-8") {
		return charset{}, true
	}
	var buf [maxCharsetName]byte
	if len(name) > len(buf) {
		return charset{}, false
	}
	for i := 0; i < len(name); i++ {
		buf[i] = ascii.ToLower(name[i])
	}
	cs, ok := charsets[string(buf[:len(name)])]
	return cs, ok
}

// charsets maps the lower-cased IANA names and aliases of the charsets that
// ParseExtValue decodes (from the IANA "Character Sets" registry; names that
// are not mime-charsets, such as "ISO_8859-1:1987" and "ANSI_X3.4-1968",
// cannot occur in an ext-value and are left out). It
// is built once and only read after that. EBCDIC code pages are left out:
// an ext-value's attr-chars are US-ASCII.
var charsets = func() map[string]charset {
	m := make(map[string]charset, 160)
	add := func(cs charset, names ...string) {
		for _, name := range names {
			m[name] = cs
		}
	}
	iso := func(cm *charmap.Charmap, names ...string) {
		add(charset{cmap: cm, noC1: true}, names...)
	}
	table := func(cm *charmap.Charmap, names ...string) {
		add(charset{cmap: cm}, names...)
	}
	add(charset{}, "utf-8", "csutf8")
	add(charset{asciiOnly: true}, "us-ascii", "iso-ir-6", "iso646-us", "us",
		"ibm367", "cp367", "csascii")
	iso(charmap.ISO8859_1, "iso-8859-1", "iso_8859-1", "iso-ir-100", "latin1",
		"l1", "ibm819", "cp819", "csisolatin1")
	iso(charmap.ISO8859_2, "iso-8859-2", "iso_8859-2", "iso-ir-101", "latin2", "l2", "csisolatin2")
	iso(charmap.ISO8859_3, "iso-8859-3", "iso_8859-3", "iso-ir-109", "latin3", "l3", "csisolatin3")
	iso(charmap.ISO8859_4, "iso-8859-4", "iso_8859-4", "iso-ir-110", "latin4", "l4", "csisolatin4")
	iso(charmap.ISO8859_5, "iso-8859-5", "iso_8859-5", "iso-ir-144", "cyrillic", "csisolatincyrillic")
	iso(charmap.ISO8859_6, "iso-8859-6", "iso_8859-6", "iso-ir-127", "ecma-114",
		"asmo-708", "arabic", "csisolatinarabic")
	// ISO-8859-6-E and -I, and 8-E and -I, differ from their base charset
	// only in how bidirectional text is laid out.
	iso(charmap.ISO8859_6, "iso-8859-6-e", "iso_8859-6-e", "csiso88596e",
		"iso-8859-6-i", "iso_8859-6-i", "csiso88596i")
	iso(charmap.ISO8859_7, "iso-8859-7", "iso_8859-7", "iso-ir-126", "elot_928",
		"ecma-118", "greek", "greek8", "csisolatingreek")
	iso(charmap.ISO8859_8, "iso-8859-8", "iso_8859-8", "iso-ir-138", "hebrew", "csisolatinhebrew")
	iso(charmap.ISO8859_8, "iso-8859-8-e", "iso_8859-8-e", "csiso88598e",
		"iso-8859-8-i", "iso_8859-8-i", "csiso88598i")
	iso(charmap.ISO8859_9, "iso-8859-9", "iso_8859-9", "iso-ir-148", "latin5", "l5", "csisolatin5")
	iso(charmap.ISO8859_10, "iso-8859-10", "iso-ir-157", "latin6", "l6", "csisolatin6")
	iso(charmap.ISO8859_13, "iso-8859-13", "csiso885913")
	iso(charmap.ISO8859_14, "iso-8859-14", "iso_8859-14", "iso-ir-199", "latin8",
		"iso-celtic", "l8", "csiso885914")
	iso(charmap.ISO8859_15, "iso-8859-15", "iso_8859-15", "latin-9", "csiso885915")
	iso(charmap.ISO8859_16, "iso-8859-16", "iso_8859-16", "iso-ir-226", "latin10", "l10", "csiso885916")
	table(charmap.KOI8R, "koi8-r", "cskoi8r")
	table(charmap.KOI8U, "koi8-u", "cskoi8u")
	table(charmap.Macintosh, "macintosh", "mac", "csmacintosh")
	table(charmap.CodePage437, "ibm437", "cp437", "437", "cspc8codepage437")
	table(charmap.CodePage850, "ibm850", "cp850", "850", "cspc850multilingual")
	table(charmap.CodePage852, "ibm852", "cp852", "852", "cspcp852")
	table(charmap.CodePage855, "ibm855", "cp855", "855", "csibm855")
	table(charmap.CodePage858, "ibm00858", "ccsid00858", "cp00858",
		"pc-multilingual-850+euro", "csibm00858")
	table(charmap.CodePage860, "ibm860", "cp860", "860", "csibm860")
	table(charmap.CodePage862, "ibm862", "cp862", "862", "cspc862latinhebrew")
	table(charmap.CodePage863, "ibm863", "cp863", "863", "csibm863")
	table(charmap.CodePage865, "ibm865", "cp865", "865", "csibm865")
	table(charmap.CodePage866, "ibm866", "cp866", "866", "csibm866")
	table(charmap.Windows874, "windows-874", "cswindows874")
	for i, cm := range []*charmap.Charmap{
		charmap.Windows1250, charmap.Windows1251, charmap.Windows1252,
		charmap.Windows1253, charmap.Windows1254, charmap.Windows1255,
		charmap.Windows1256, charmap.Windows1257, charmap.Windows1258,
	} {
		number := strconv.Itoa(1250 + i)
		table(cm, "windows-"+number, "cswindows"+number)
	}
	return m
}()
