package weblink

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/weblinking/weblink/internal/ascii"
	"github.com/weblinking/weblink/internal/quote"
)

// FormatLinksetJSON returns ls as an application/linkset+json document (RFC 9264
// §4.2), indented for reading, and byte for byte the same for the same
// ls:
//
//   - {"linkset": [...]} holds one link context object per distinct Anchor,
//     in order of first appearance; the links without an Anchor share one
//     that has no "anchor" member (§4.2.2).
//   - A context object has one member per relation type, lower-cased, in
//     order of first appearance (a byte that is not UTF-8 is written as
//     U+FFFD, and relation types that then read the same are one member);
//     its array holds a link target object for
//     each link with that relation type, in the order of ls. A link with
//     several relation types appears under each.
//   - A target object holds "href" (always, "" included), then "type",
//     "hreflang" (an array), "media", and either "title" or, when the title
//     has a language or is not printable ASCII, "title*" (an array of one
//     {"value", "language"} object), as §4.2.4.1 and §4.2.4.2 say.
//   - Then come the Params, grouped by name in order of first appearance,
//     each name an array of its values in order (§4.2.4.3): strings, or
//     {"value", "language"} objects under "name*" when any value of that
//     name has a language or is not printable ASCII.
//
// Target and Anchor are written as URI references, converted as [Link.String]
// converts them (RFC 9264 §4.2.2 and §4.2.3 require URI references). Rev is
// left out: RFC 9264 has no place for it (§4 suggests expressing the
// inverse link with rel instead).
//
// A link that the format cannot represent is an error wrapping
// [ErrInvalidLinkset]: one without a relation type, one whose relation type
// holds whitespace or is "anchor", a [Param] named "href" or with a name that
// Link.String would leave out, and a language tag that is not well-formed.
//
// [LinksetHandler] serves it.
func FormatLinksetJSON(ls Links) ([]byte, error) {
	for i, l := range ls {
		if err := l.checkLinkset(); err != nil {
			return nil, &LinksetError{Offset: -1, Link: i, Msg: err.Error(), target: l.Target}
		}
	}
	w := newJSONWriter()
	w.raw("{\n  \"linkset\": [")
	for i, c := range groupContexts(ls) {
		if i > 0 {
			w.raw(",")
		}
		w.raw("\n    {")
		sep := "\n      "
		if c.anchor != "" {
			w.raw(sep + `"anchor": `)
			w.str(c.anchor)
			sep = ",\n      "
		}
		for _, r := range c.rels {
			w.raw(sep)
			sep = ",\n      "
			w.str(r.name)
			w.raw(": [")
			for k, li := range r.links {
				if k > 0 {
					w.raw(",")
				}
				w.raw("\n        ")
				w.target(ls[li])
			}
			w.raw("\n      ]")
		}
		w.raw("\n    }")
	}
	if len(ls) > 0 {
		w.raw("\n  ")
	}
	w.raw("]\n}")
	return w.buf.Bytes(), nil
}

// checkLinkset reports why l cannot be written as RFC 9264 JSON, or nil.
func (l Link) checkLinkset() error {
	if !hasToken(l.Rel) {
		return errors.New("has no relation type; give it at least one in Rel (RFC 9264 §4.2.2 lists links under their relation types)")
	}
	for _, r := range l.Rel {
		switch {
		case strings.ContainsAny(r, " \t\r\n"):
			return fmt.Errorf("relation type %s holds whitespace; put each relation type in its own Rel entry", quote.Value(r))
		case ascii.EqualFold(r, "anchor"):
			return errors.New(`relation type "anchor" cannot be a member of a link context object, whose "anchor" member is the context (RFC 9264 §4.2.2)`)
		}
	}
	if !checkLang(l.TitleLang) {
		return fmt.Errorf("title language %s is not a well-formed language tag (RFC 5646); correct it or leave TitleLang empty", quote.Value(l.TitleLang))
	}
	for _, p := range l.Params {
		switch {
		case ascii.EqualFold(p.Name, "href"):
			return errors.New(`a Param named "href" would clash with the link target member "href" (RFC 9264 §4.2.3); rename it`)
		case !isExtensionName(p.Name):
			return fmt.Errorf("Param name %s is not a token without a trailing \"*\", or is an attribute that Link has a field for; rename it or set that field", quote.Value(p.Name))
		case !checkLang(p.Lang):
			return fmt.Errorf("Param %s: language %s is not a well-formed language tag (RFC 5646); correct it or leave Lang empty", quote.Value(p.Name), quote.Value(p.Lang))
		}
	}
	return nil
}

// checkLang reports whether lang is empty or a well-formed language tag.
func checkLang(lang string) bool {
	return lang == "" || validLanguage(lang)
}

// contextGroup is a link context object of FormatLinksetJSON: the links of one
// anchor, by relation type.
type contextGroup struct {
	anchor string
	rels   []relGroup
}

// relGroup is one relation type member of a link context object: the
// indexes of its links in the Links being marshalled.
type relGroup struct {
	name  string
	links []int
}

// groupContexts groups the links of ls by anchor and relation type, each in
// order of first appearance (RFC 9264 §4.2.1 and §4.2.2).
func groupContexts(ls Links) []contextGroup {
	var groups []contextGroup
	ctxIndex := make(map[string]int)
	relIndex := make(map[[2]string]int)
	for li, l := range ls {
		anchor := string(appendURI(nil, l.Anchor))
		ci, ok := ctxIndex[anchor]
		if !ok {
			ci = len(groups)
			ctxIndex[anchor] = ci
			groups = append(groups, contextGroup{anchor: anchor})
		}
		c := &groups[ci]
		for _, r := range l.Rel {
			if r == "" {
				continue
			}
			// Grouped by the member name as written: relation types that
			// differ only in bytes that are not UTF-8 are one member, never
			// two that ParseLinksetJSON rejects as duplicates (#11).
			r = relMember(r)
			key := [2]string{anchor, r}
			ri, ok := relIndex[key]
			if !ok {
				ri = len(c.rels)
				relIndex[key] = ri
				c.rels = append(c.rels, relGroup{name: r})
			}
			// A link whose Rel repeats a relation type is listed once.
			if n := len(c.rels[ri].links); n == 0 || c.rels[ri].links[n-1] != li {
				c.rels[ri].links = append(c.rels[ri].links, li)
			}
		}
	}
	return groups
}

// relMember returns the member name of relation type r in a linkset
// document (RFC 9264 §4.2.2): lower-cased, as relation types compare
// case-insensitively (RFC 8288 §2.1), with the hex digits of its escapes
// upper-cased (RFC 3986 §2.1) and its bytes that are not UTF-8 replaced.
func relMember(r string) string {
	r = ascii.Lower(r)
	if strings.IndexByte(r, '%') >= 0 {
		b := []byte(r)
		ascii.UpperEscapes(b)
		r = string(b)
	}
	return validText(r)
}

// validText returns s with each byte that does not start a valid UTF-8
// sequence replaced by U+FFFD, the text encoding/json writes for s. It
// returns s itself when s is valid UTF-8.
func validText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		chunk, next := validUTF8At(s, i)
		b = append(b, chunk...)
		i = next
	}
	return string(b)
}

// groupParams returns ps with the Params of each name together, names in
// order of first appearance and the values of one name in their order: the
// order FormatLinksetJSON writes them in and ParseLinksetJSON returns them in. It
// returns ps itself when it is already grouped.
func groupParams(ps []Param) []Param {
	rank := make(map[string]int, len(ps))
	grouped := true
	for i, p := range ps {
		name := ascii.Lower(p.Name)
		if _, ok := rank[name]; !ok {
			rank[name] = len(rank)
		} else if !ascii.EqualFold(ps[i-1].Name, name) {
			grouped = false
		}
	}
	if grouped {
		return ps
	}
	out := slices.Clone(ps)
	slices.SortStableFunc(out, func(a, b Param) int {
		return rank[ascii.Lower(a.Name)] - rank[ascii.Lower(b.Name)]
	})
	return out
}

// jsonWriter builds the indented JSON of FormatLinksetJSON.
type jsonWriter struct {
	buf bytes.Buffer
	enc *json.Encoder
}

func newJSONWriter() *jsonWriter {
	w := new(jsonWriter)
	w.enc = json.NewEncoder(&w.buf)
	// URIs are full of "&": keep them readable, as the RFC examples are.
	w.enc.SetEscapeHTML(false)
	return w
}

// raw appends s as it is.
func (w *jsonWriter) raw(s string) { w.buf.WriteString(s) }

// str appends s as a JSON string. Invalid UTF-8 becomes U+FFFD.
func (w *jsonWriter) str(s string) {
	_ = w.enc.Encode(s)             // a string always encodes
	w.buf.Truncate(w.buf.Len() - 1) // Encode ends with a newline
}

// member appends `, "name": ` followed by the string value.
func (w *jsonWriter) member(name, value string) {
	w.raw(`, "` + name + `": `)
	w.str(value)
}

// target appends the link target object of l (RFC 9264 §4.2.3, §4.2.4).
func (w *jsonWriter) target(l Link) {
	w.raw(`{ "href": `)
	w.str(string(appendURI(nil, l.Target)))
	if l.Type != "" {
		w.member("type", l.Type)
	}
	if len(l.Hreflang) > 0 {
		w.raw(`, "hreflang": [`)
		for i, h := range l.Hreflang {
			if i > 0 {
				w.raw(", ")
			}
			w.str(h)
		}
		w.raw("]")
	}
	if l.Media != "" {
		w.member("media", l.Media)
	}
	switch {
	case needsExtValue(l.Title, l.TitleLang):
		w.raw(`, "title*": [`)
		w.extValue(l.Title, l.TitleLang)
		w.raw("]")
	case l.Title != "":
		w.member("title", l.Title)
	}
	// Each name in the form Link.String writes it: "name*" for every value
	// once one value needs it.
	starred := starNames(l.Params)
	ps := groupParams(l.Params)
	for i := 0; i < len(ps); {
		// ps[i:j] are the values of one name.
		j := i
		for j < len(ps) && ascii.EqualFold(ps[j].Name, ps[i].Name) {
			j++
		}
		w.raw(", ")
		name := ascii.Lower(ps[i].Name)
		star := starred[name]
		if star {
			name += "*"
		}
		w.str(name)
		w.raw(": [")
		for k, p := range ps[i:j] {
			if k > 0 {
				w.raw(", ")
			}
			if star {
				w.extValue(p.Value, p.Lang)
			} else {
				w.str(p.Value)
			}
		}
		w.raw("]")
		i = j
	}
	w.raw(" }")
}

// extValue appends an internationalised value object (RFC 9264 §4.2.4.2).
func (w *jsonWriter) extValue(value, lang string) {
	w.raw(`{ "value": `)
	w.str(value)
	if lang != "" {
		w.member("language", lang)
	}
	w.raw(" }")
}

// ParseLinksetJSON returns the links of an application/linkset+json
// document (RFC 9264 §4.2), in document order.
//
// It returns one Link for each link target object, that is, for each
// (context, relation type, target). Each Link has one relation type,
// lower-cased; its Anchor is that of its context
// object ("" without one); its Params come grouped by name as FormatLinksetJSON
// writes them.
//
// It accepts every shape §4.2 allows and rejects what its MUSTs forbid, with
// an error wrapping [ErrInvalidLinkset] that names the JSON path of the
// problem, such as
//
//	weblink: invalid linkset: linkset[0].next[1].href: missing; ...
//
// The document must be UTF-8 JSON, an object whose sole member is
// "linkset", an array of objects (§4.2.1). In a link context object,
// "anchor" is a string; every other member is a relation type (not empty, no
// whitespace) whose value is an array of objects (§4.2.2). In a link target
// object, "href" is present and a string (§4.2.3); "type", "media" and
// "title" are strings; "hreflang" and every extension attribute are arrays
// of strings; "title*" and every "name*" are arrays of objects with a string
// "value" and an optional "language" that is a well-formed language tag
// or "" (§4.2.4). Anchors and targets must be URI references: a character that
// needs percent-encoding is an error. "anchor", "rel" and "rev" are not
// target attributes, and RFC 8288 defines no "*" form of href, hreflang,
// media or type: they are errors, as is a name that is not a token, and a
// member given twice. Member names below the top level compare
// case-insensitively, as parameter names and relation types do in a Link
// field (RFC 8288 §3, §2.1).
//
// As in a Link field, "title*" wins over "title", and only its first entry
// counts (RFC 8288 §3.4.1). Every value of an extension attribute becomes a
// [Param] of that name: a plain value with Value only, a "name*" value with
// Value and Lang.
//
// Round trips compare as sets of links, relation by relation: for [Links] in
// the form [Parse] produces, ParseLinksetJSON of FormatLinksetJSON gives back each Link
// once per relation type, grouped by Anchor and then by relation type in
// order of first appearance, without Rev, with Target and Anchor written as
// URI references and Params grouped by name. Links that ParseLinksetJSON
// returns are already in that form, so for them the round trip is exact.
//
// Links has no JSON methods of its own: a struct field of type Links
// encodes as a JSON array, as any slice does. ParseLinksetJSON and
// [FormatLinksetJSON] read and write the linkset document.
func ParseLinksetJSON(b []byte) (Links, error) {
	if !utf8.Valid(b) {
		return nil, &LinksetError{Offset: int64(invalidUTF8At(b)), Link: -1, Msg: "the document is not UTF-8, which RFC 9264 §4.2 requires"}
	}
	r := jsonReader{dec: json.NewDecoder(bytes.NewReader(b))}
	r.dec.UseNumber() // numbers are errors; do not convert them
	out, err := r.document()
	if err != nil {
		if le, ok := err.(*LinksetError); ok {
			le.Offset = tokenStart(b, r.last)
		}
		return nil, err
	}
	return out, nil
}

// tokenStart returns the offset of the token that starts at or after
// offset i of a JSON text: i moved past whitespace and the ":" or ","
// before the token.
func tokenStart(b []byte, i int64) int64 {
	for ; i < int64(len(b)); i++ {
		switch b[i] {
		case ' ', '\t', '\r', '\n', ':', ',':
		default:
			return i
		}
	}
	return i
}

// invalidUTF8At returns the offset of the first byte of b that is not part
// of a UTF-8 sequence, or len(b).
func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// LinksetError reports why [ParseLinksetJSON] rejected an
// application/linkset+json document, or why [FormatLinksetJSON] cannot write
// a link.
//
// errors.Is(err, [ErrInvalidLinkset]) finds every *LinksetError, and
// errors.As gives its position, so that a program can point at the problem
// without reading the message.
type LinksetError struct {
	// Path is where in the document the problem is, as a JSON path such
	// as linkset[0].next[1].href; "" when the problem is the document as a
	// whole (not UTF-8, not JSON) or when FormatLinksetJSON reports it.
	Path string
	// Offset is the byte offset in the document of the token at which
	// ParseLinksetJSON found the problem (json.Decoder.InputOffset; for a
	// missing member, the "}" that closes its object), of the JSON syntax
	// error, or of the first byte that is not UTF-8; -1 for FormatLinksetJSON.
	Offset int64
	// Link is the index of the link that FormatLinksetJSON cannot write; -1 for
	// ParseLinksetJSON.
	Link int
	// Msg says what is wrong and what to write instead.
	Msg string

	target string // the Target of link Link, for the message
	err    error  // the cause: the *json.SyntaxError or io.ErrUnexpectedEOF of invalid JSON
}

// Error returns "weblink: invalid linkset: " followed by the path or the
// link and the message.
func (e *LinksetError) Error() string {
	s := ErrInvalidLinkset.Error() + ": "
	switch {
	case e.Link >= 0:
		s += "link " + strconv.Itoa(e.Link) + " (target " + quote.Value(e.target) + "): "
	case e.Path != "":
		s += e.Path + ": "
	}
	s += e.Msg
	if e.err != nil {
		s += ": " + e.err.Error()
	}
	return s
}

// Is reports whether target is ErrInvalidLinkset.
func (e *LinksetError) Is(target error) bool { return target == ErrInvalidLinkset }

// Unwrap returns the cause of invalid JSON (a *json.SyntaxError or
// io.ErrUnexpectedEOF), or nil.
func (e *LinksetError) Unwrap() error { return e.err }

// jsonReader reads an application/linkset+json document token by token, so
// that it sees every member, duplicates included, in order.
type jsonReader struct {
	dec   *json.Decoder
	links Links
	last  int64 // the decoder's offset before the token read last
}

// pathError returns the error for the value at path.
func pathError(path, msg string) error {
	return &LinksetError{Path: path, Link: -1, Msg: msg}
}

// token returns the next token; the end of the input is an error.
func (r *jsonReader) token() (json.Token, error) {
	r.last = r.dec.InputOffset()
	tok, err := r.dec.Token()
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return nil, &LinksetError{Link: -1, Msg: "invalid JSON", err: err}
	}
	return tok, nil
}

// describe names the kind of JSON value that tok starts.
func describe(tok json.Token) string {
	switch tok.(type) {
	case json.Delim:
		if tok == json.Delim('{') {
			return "an object"
		}
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "null"
}

// object reads an object at path, calling member for each member name with
// the decoder before its value. want describes the value expected.
func (r *jsonReader) object(path, want string, member func(name string) error) error {
	if err := r.open(path, '{', want); err != nil {
		return err
	}
	for r.dec.More() {
		tok, err := r.token()
		if err != nil {
			return err
		}
		if err := member(tok.(string)); err != nil {
			return err
		}
	}
	_, err := r.token() // '}'
	return err
}

// array reads an array at path, calling elem for each element with the
// decoder before it. want describes the value expected.
func (r *jsonReader) array(path, want string, elem func(path string) error) error {
	if err := r.open(path, '[', want); err != nil {
		return err
	}
	for i := 0; r.dec.More(); i++ {
		if err := elem(path + "[" + strconv.Itoa(i) + "]"); err != nil {
			return err
		}
	}
	_, err := r.token() // ']'
	return err
}

// open reads the delimiter that starts an object or array.
func (r *jsonReader) open(path string, delim json.Delim, want string) error {
	tok, err := r.token()
	if err != nil {
		return err
	}
	if tok != delim {
		return pathError(path, "must be "+want+", found "+describe(tok))
	}
	return nil
}

// str reads a string at path.
func (r *jsonReader) str(path, want string) (string, error) {
	tok, err := r.token()
	if err != nil {
		return "", err
	}
	s, ok := tok.(string)
	if !ok {
		return "", pathError(path, "must be "+want+", found "+describe(tok))
	}
	return s, nil
}

// strings reads an array of strings at path, calling add for each.
func (r *jsonReader) strings(path, want string, add func(string)) error {
	return r.array(path, want, func(path string) error {
		s, err := r.str(path, "a string")
		if err == nil {
			add(s)
		}
		return err
	})
}

// uriRef reads a string at path that must be a URI reference (RFC 9264
// §4.2.2, §4.2.3).
func (r *jsonReader) uriRef(path string) (string, error) {
	s, err := r.str(path, "a string holding a URI reference")
	if err != nil {
		return "", err
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if charClass[c]&isURIChar != 0 || escapeAt(s, i) {
			continue
		}
		return "", pathError(path, quote.Value(s)+" is not a URI reference (RFC 3986): percent-encode the byte "+quote.Value(s[i:i+1])+" at offset "+strconv.Itoa(i))
	}
	return s, nil
}

// seen records the member names of one object, to reject duplicates.
type seen map[string]bool

// add returns an error when name, compared as key, was seen before.
func (s seen) add(path, key string) error {
	if s[key] {
		return pathError(path, "duplicate member; give each member once (names compare case-insensitively)")
	}
	s[key] = true
	return nil
}

// memberPath returns the path of member name of the value at path:
// path.name, or path["name"] when name is not a plain word.
func memberPath(path, name string) string {
	plain := name != ""
	for i := 0; i < len(name); i++ {
		c := name[i]
		plain = plain && ('a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '*')
	}
	if !plain {
		return path + "[" + quote.Value(name) + "]"
	}
	return path + "." + name
}

// document reads the whole document (RFC 9264 §4.2.1).
func (r *jsonReader) document() (Links, error) {
	const want = `an object with "linkset" as its sole member (RFC 9264 §4.2.1)`
	found := false
	err := r.object("document", want, func(name string) error {
		if name != "linkset" {
			return pathError("document", "unexpected member "+quote.Value(name)+`; "linkset" must be the sole member (RFC 9264 §4.2.1)`)
		}
		if found {
			return pathError("linkset", `duplicate member; give "linkset" once`)
		}
		found = true
		return r.array("linkset", "an array of link context objects (RFC 9264 §4.2.1)", r.context)
	})
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, pathError("document", `member "linkset" is missing; the document must be {"linkset": [...]} (RFC 9264 §4.2.1)`)
	}
	r.last = r.dec.InputOffset()
	if _, err := r.dec.Token(); err != io.EOF {
		return nil, &LinksetError{Link: -1, Msg: "unexpected data after the JSON document; send one document"}
	}
	return r.links, nil
}

// context reads a link context object (RFC 9264 §4.2.2).
func (r *jsonReader) context(path string) error {
	first := len(r.links)
	var anchor string
	names := make(seen)
	err := r.object(path, "a link context object (RFC 9264 §4.2.2)", func(name string) error {
		mpath := memberPath(path, name)
		rel := ascii.Lower(name)
		if err := names.add(mpath, rel); err != nil {
			return err
		}
		if rel == "anchor" {
			var err error
			anchor, err = r.uriRef(mpath)
			return err
		}
		if rel == "" || strings.ContainsAny(rel, " \t\r\n") {
			return pathError(mpath, "is not a relation type: a member name is one registered relation type or extension URI (RFC 9264 §4.2.2)")
		}
		return r.array(mpath, "an array of link target objects (RFC 9264 §4.2.2)", func(path string) error {
			return r.target(path, rel)
		})
	})
	// "anchor" may come after the relation types.
	for i := first; i < len(r.links); i++ {
		r.links[i].Anchor = anchor
	}
	return err
}

// target reads a link target object (RFC 9264 §4.2.3, §4.2.4) and appends
// its Link.
func (r *jsonReader) target(path, rel string) error {
	l := Link{Rel: []string{rel}}
	var title string
	hasHref, hasTitleStar := false, false
	names := make(seen)
	err := r.object(path, "a link target object (RFC 9264 §4.2.3)", func(name string) error {
		mpath := memberPath(path, name)
		name = ascii.Lower(name)
		if err := names.add(mpath, name); err != nil {
			return err
		}
		var err error
		switch name {
		case "href":
			hasHref = true
			l.Target, err = r.uriRef(mpath)
		case "type":
			l.Type, err = r.str(mpath, "a string (RFC 9264 §4.2.4.1)")
		case "media":
			l.Media, err = r.str(mpath, "a string (RFC 9264 §4.2.4.1)")
		case "title":
			title, err = r.str(mpath, "a string (RFC 9264 §4.2.4.1)")
		case "hreflang":
			err = r.strings(mpath, "an array of strings (RFC 9264 §4.2.4.1)", func(s string) {
				l.Hreflang = append(l.Hreflang, s)
			})
		case "title*":
			err = r.extValues(mpath, func(v, lang string) {
				if !hasTitleStar {
					hasTitleStar = true
					l.Title, l.TitleLang = v, lang
				}
			})
		case "anchor", "rel", "rev", "anchor*", "rel*", "rev*":
			err = pathError(mpath, "is not a target attribute; the link context object holds the anchor and the relation type (RFC 9264 §4.2.2)")
		case "href*", "hreflang*", "media*", "type*":
			err = pathError(mpath, "is not supported: RFC 8288 defines no internationalised form of "+name[:len(name)-1]+"; use "+strconv.Quote(name[:len(name)-1]))
		default:
			err = r.extension(mpath, name, &l)
		}
		return err
	})
	if err != nil {
		return err
	}
	if !hasHref {
		return pathError(path+".href", `missing; every link target object needs "href" ("" for the linkset resource itself, RFC 9264 §4.2.3)`)
	}
	if !hasTitleStar {
		l.Title = title
	}
	l.Params = groupParams(l.Params)
	r.links = append(r.links, l)
	return nil
}

// extension reads the extension target attribute name, lower-cased, at path
// (RFC 9264 §4.2.4.3) and appends its values to l.Params.
func (r *jsonReader) extension(path, name string, l *Link) error {
	base, star := name, false
	if strings.HasSuffix(name, "*") {
		base, star = name[:len(name)-1], true
	}
	if base == "" || !isExtensionName(base) {
		return pathError(path, "is not an extension target attribute: its name must be a token, with at most one trailing \"*\" (RFC 8288 §3.4.2)")
	}
	if star {
		return r.extValues(path, func(v, lang string) {
			l.Params = append(l.Params, Param{Name: base, Value: v, Lang: lang})
		})
	}
	return r.strings(path, "an array of strings (RFC 9264 §4.2.4.3)", func(s string) {
		l.Params = append(l.Params, Param{Name: base, Value: s})
	})
}

// extValues reads an array of internationalised value objects (RFC 9264
// §4.2.4.2), calling add for each.
func (r *jsonReader) extValues(path string, add func(value, lang string)) error {
	const want = `an array of {"value": ..., "language": ...} objects (RFC 9264 §4.2.4.2)`
	n := 0
	err := r.array(path, want, func(path string) error {
		n++
		var value, lang string
		hasValue := false
		names := make(seen)
		err := r.object(path, `an object {"value": ..., "language": ...} (RFC 9264 §4.2.4.2)`, func(name string) error {
			mpath := memberPath(path, name)
			if err := names.add(mpath, ascii.Lower(name)); err != nil {
				return err
			}
			var err error
			switch ascii.Lower(name) {
			case "value":
				hasValue = true
				value, err = r.str(mpath, "a string")
			case "language":
				lang, err = r.str(mpath, "a string holding a language tag")
				if err == nil && lang != "" && !validLanguage(lang) {
					err = pathError(mpath, quote.Value(lang)+" is not a well-formed language tag (RFC 5646); correct it or leave \"language\" out")
				}
			default:
				err = pathError(mpath, `unexpected member; the object has only "value" and "language" (RFC 9264 §4.2.4.2)`)
			}
			return err
		})
		if err != nil {
			return err
		}
		if !hasValue {
			return pathError(path+".value", "missing (RFC 9264 §4.2.4.2)")
		}
		add(value, lang)
		return nil
	})
	if err == nil && n == 0 {
		err = pathError(path, `empty; an internationalised attribute holds one or more {"value": ...} objects (RFC 9264 §4.2.4.2): leave it out instead`)
	}
	return err
}
