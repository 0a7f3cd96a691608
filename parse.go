package weblink

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Parse parses a Link header field value (RFC 8288 §3) into its links, one
// Link per link-value, in order.
//
//	Link       = #link-value
//	link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )
//	link-param = token BWS [ "=" BWS ( token / quoted-string ) ]
//
// Parse follows the algorithm of RFC 8288 Appendix B.2 and B.3 with the
// fixes listed in the package documentation: the comma between link-values
// is consumed, commas inside <...> and quoted-strings do not separate, the
// first rel, anchor, rev, media, title, title* and type count, title* and
// other star parameters are decoded as RFC 8187 ext-values, and a malformed
// link-value is dropped whole while the links around it are kept.
//
// The error is nil when nothing of the input was dropped. Otherwise it
// reports every problem; errors.As finds a *SyntaxError whose Offset is the
// byte of the first one. The links are returned either way.
//
// The strings of the returned links are substrings of fieldValue where no
// unescaping or lower-casing was needed, so holding on to a Link keeps the
// field value in memory.
func Parse(fieldValue string) (Links, error) {
	var p parser
	p.parse(fieldValue)
	return p.links, p.err(0)
}

// ParseHeader parses every Link field line of h (RFC 8288 Appendix B.1), in
// order, as if they were one comma-separated list (RFC 9110 §5.3). Offsets
// in its errors are within the field line, and each error says which line
// (1-based) it is from.
//
// It reads h["Link"], the canonical key that net/http and textproto use; a
// header map filled by hand with another spelling of the key is not
// searched.
func ParseHeader(h http.Header) (Links, error) {
	var p parser
	var errs []error
	for i, v := range h["Link"] {
		p.parse(v)
		if err := p.err(i + 1); err != nil {
			errs = append(errs, err)
		}
		p.errs, p.more = p.errs[:0], 0
	}
	return p.links, errors.Join(errs...)
}

// ParseResponse parses the Link header fields of resp (ParseHeader) and
// resolves every target and anchor against the URL of the request that
// produced the response, after redirects (RFC 8288 §3.1 and §3.2, RFC 3986
// §5.1.3). A base URI in the body is not used. When resp.Request is nil, the
// links are returned as written. A target or anchor that cannot be parsed as
// a URI reference is left as written and reported as a *ResolveError.
func ParseResponse(resp *http.Response) (Links, error) {
	if resp == nil {
		return nil, errors.New("weblink: ParseResponse called with a nil *http.Response")
	}
	links, err := ParseHeader(resp.Header)
	if resp.Request == nil || resp.Request.URL == nil {
		return links, err
	}
	links, rerr := links.resolve(resp.Request.URL)
	return links, errors.Join(err, rerr)
}

// Flags for the target attributes of which only the first occurrence counts
// (RFC 8288 §3.4.1 and Appendix B.2 step 14, and DESIGN §2 rule 4).
const (
	seenRel = 1 << iota
	seenAnchor
	seenRev
	seenMedia
	seenTitle
	seenTitleStar
	seenType
	hasStarParam // a name* extension parameter was decoded
	titleStarOK  // the first title* decoded, into titleStar
)

// parser holds the state of one Parse or ParseHeader call. Its slices are
// shared by all the links it returns: each Link's Rel, Rev, Hreflang and
// Params are windows of strs and params with capacity capped at their
// length, so a caller appending to one cannot write into another.
type parser struct {
	links  Links
	strs   []string // backing for Rel, Rev and Hreflang
	params []Param  // backing for Params
	errs   []error
	more   int // problems found beyond maxErrors

	// per link-value
	flags     uint
	title     string
	titleStar ExtValue // the first title*, when it decoded
	stars     []int    // indexes in params of decoded name* parameters
	rel, rev  string
	hreflang  []string // hreflang values of the current link, reused
}

// parse appends the links of the field value s.
func (p *parser) parse(s string) {
	if p.links == nil {
		// Every link-value has a "<", so counting them gives the number
		// of links of well-formed input exactly. The bound of one per 16
		// bytes (a short link-value, "<a>; rel=next, ", has 15) keeps
		// what hostile input such as "<<<<" makes us allocate before
		// anything is parsed at 12 bytes per input byte.
		// Two relation types or hreflang values a link, and two
		// extension parameters once there is one, spare most links a
		// copy as the slices grow.
		n := min(strings.Count(s, "<"), len(s)/16+1)
		p.links = make(Links, 0, n)
		p.strs = make([]string, 0, 2*n)
	}
	i := 0
	for {
		// Empty list elements are skipped (RFC 9110 §5.6.1).
		for i < len(s) && (s[i] == ',' || charClass[s[i]]&isSpace != 0) {
			i++
		}
		if i == len(s) {
			return
		}
		var ok bool
		i, ok = p.linkValue(s, i)
		if !ok {
			i = skipElement(s, i)
		}
	}
}

// skipElement returns the index just past the next comma at or after i that
// is outside quoted-strings and <...>, or len(s): where parsing resumes
// after a malformed link-value (DESIGN §2 rule 8).
func skipElement(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case ',':
			return i + 1
		case '"':
			i, _ = quotedEnd(s, i)
		case '<':
			j := strings.IndexByte(s[i:], '>')
			if j < 0 {
				return len(s)
			}
			i += j + 1
		default:
			i++
		}
	}
	return i
}

// quotedEnd returns the index just past the quoted-string starting at s[i]
// and true, or len(s) and false when it is not closed.
func quotedEnd(s string, i int) (int, bool) {
	// Short strings, such as rel="next", byte by byte.
	short := min(i+shortRun, len(s))
	for i++; i < short; i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}
	for i < len(s) {
		// Find the next quote, then the backslashes before it, in bulk;
		// only a quoted-pair that escapes the quote makes us look again.
		q := strings.IndexByte(s[i:], '"')
		if q < 0 {
			break
		}
		q += i
		for i <= q {
			b := strings.IndexByte(s[i:q], '\\')
			if b < 0 {
				return q + 1, true
			}
			i += b + 2 // past the quoted-pair
		}
	}
	return len(s), false
}

// maxErrors is how many problems one field value reports in detail; the
// rest are counted, so that hostile input cannot make a huge error.
const maxErrors = 16

// shortRun is how many bytes quotedEnd and valueEnd look at one by one
// before they search the rest with strings.IndexByte, whose set-up costs
// more than a short loop.
const shortRun = 16

// syntaxError records a problem at offset off.
func (p *parser) syntaxError(off int, msg string) {
	p.record(&SyntaxError{Offset: off, Msg: msg})
}

// record keeps err, or only counts it once maxErrors are kept.
func (p *parser) record(err error) {
	if len(p.errs) < maxErrors {
		p.errs = append(p.errs, err)
	} else {
		p.more++
	}
}

// err returns the problems recorded so far, nil when there are none. A
// non-zero line names the field line they are from.
func (p *parser) err(line int) error {
	if len(p.errs) == 0 {
		return nil
	}
	errs := p.errs
	if p.more > 0 {
		errs = append(errs[:len(errs):len(errs)], fmt.Errorf("weblink: %d more problems not listed", p.more))
	}
	err := errors.Join(errs...)
	if line > 0 {
		err = &lineError{line: line, err: err}
	}
	return err
}

// lineError says which Link field line a ParseHeader error is from.
type lineError struct {
	line int
	err  error
}

// Error prefixes the error with the field line it is from.
func (e *lineError) Error() string {
	return "Link field line " + strconv.Itoa(e.line) + ": " + e.err.Error()
}

// Unwrap returns the errors of the line.
func (e *lineError) Unwrap() error { return e.err }

// linkValue parses the link-value starting at s[i] (RFC 8288 §3):
//
//	link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )
//
// It appends the Link and returns the index after the link-value and its
// comma. When the link-value is malformed it records why, appends nothing,
// and returns the offset of the problem and false.
func (p *parser) linkValue(s string, i int) (int, bool) {
	if s[i] != '<' {
		p.syntaxError(i, "link-value must start with \"<\" (expected <URI-Reference>; params...); link-value dropped")
		return i, false
	}
	end := strings.IndexByte(s[i+1:], '>')
	if end < 0 {
		p.syntaxError(i, "\"<\" is never closed by \">\"; link-value dropped")
		return len(s), false
	}
	target := trimSpace(s[i+1 : i+1+end])
	i += end + 2

	// Parameters go to the shared backing slices; remember where this
	// link's part starts so that a malformed link-value can take it back.
	p.flags = 0
	p.title, p.rel, p.rev = "", "", ""
	p.hreflang = p.hreflang[:0]
	p.stars = p.stars[:0]
	// The Link is built in place at the end of p.links, rather than
	// built aside and copied in, and taken back when it is malformed.
	p.links = append(p.links, Link{Target: target})
	link := &p.links[len(p.links)-1]
	param0 := len(p.params)
	var ok bool
	for {
		i = skipSpace(s, i)
		if i == len(s) || s[i] == ',' {
			break
		}
		if s[i] != ';' {
			p.syntaxError(i, "expected \";\" or \",\" after "+describeAt(s, i)+"; link-value dropped")
			p.dropLink(param0)
			return i, false
		}
		if i, ok = p.param(s, i+1, link); !ok {
			p.dropLink(param0)
			return i, false
		}
	}
	if i < len(s) {
		i++ // the comma
	}
	p.finish(link, param0)
	return i, true
}

// dropLink takes back the malformed link being built at the end of p.links
// and its parameters, which start at params[param0].
func (p *parser) dropLink(param0 int) {
	p.links[len(p.links)-1] = Link{} // let the garbage collector have its strings
	p.links = p.links[:len(p.links)-1]
	p.params = p.params[:param0]
}

// describeAt names the text that ends at s[i] for an error message.
func describeAt(s string, i int) string {
	if i > 0 && s[i-1] == '"' {
		return "a quoted-string, found " + quoteForError(s[i:min(i+1, len(s))])
	}
	return "the link target or a parameter, found " + quoteForError(s[i:min(i+1, len(s))])
}

// param parses one parameter after its ";" (RFC 8288 §3 and Appendix B.3):
//
//	link-param = token BWS [ "=" BWS ( token / quoted-string ) ]
//
// An empty parameter (";;") is skipped. It returns the index after the
// parameter and false when the parameter is malformed.
func (p *parser) param(s string, i int, link *Link) (int, bool) {
	i = skipSpace(s, i)
	start := i
	var class uint8 // the classes of the name's bytes, or-ed together
	for i < len(s) && charClass[s[i]]&isTchar != 0 {
		class |= charClass[s[i]]
		i++
	}
	if i == start {
		if i == len(s) || s[i] == ';' || s[i] == ',' {
			return i, true // empty parameter
		}
		p.syntaxError(i, "parameter name must be a token, found "+quoteForError(s[i:i+1])+"; link-value dropped")
		return i, false
	}
	name := s[start:i]
	if class&isUpper != 0 {
		name = lower(name)
	}
	i = skipSpace(s, i)
	var value string
	valueOff := i
	if i < len(s) && s[i] == '=' {
		i = skipSpace(s, i+1)
		valueOff = i
		if i < len(s) && s[i] == '"' {
			end, closed := quotedEnd(s, i)
			if !closed {
				p.syntaxError(i, "quoted-string is never closed; link-value dropped")
				return len(s), false
			}
			value = unquote(s[i+1 : end-1])
			valueOff++ // offsets in the value count from after the quote
			i = end
		} else {
			// A token, or anything up to the next ";" or "," (DESIGN §2
			// rule 3): a lenient reading that loses nothing.
			j := valueEnd(s, i)
			value = trimSpace(s[i:j])
			i = j
		}
	}
	p.attribute(name, value, valueOff, link)
	return i, true
}

// valueEnd returns the index of the first ";" or "," at or after i, or
// len(s): the end of an unquoted parameter value.
func valueEnd(s string, i int) int {
	for short := min(i+shortRun, len(s)); i < short; i++ {
		if s[i] == ';' || s[i] == ',' {
			return i
		}
	}
	end := strings.IndexByte(s[i:], ';')
	if end < 0 {
		end = len(s) - i
	}
	if comma := strings.IndexByte(s[i:i+end], ','); comma >= 0 {
		end = comma
	}
	return i + end
}

// unquote removes the backslashes of the quoted-pairs of the inside of a
// quoted-string (RFC 9110 §5.6.4), allocating only when there is one.
func unquote(s string) string {
	j := strings.IndexByte(s, '\\')
	if j < 0 {
		return s
	}
	b := make([]byte, 0, len(s)-1)
	b = append(b, s[:j]...)
	for i := j; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b = append(b, s[i])
	}
	return string(b)
}

// attribute applies one parameter to the link being built (RFC 8288 §3.3,
// §3.4 and Appendix B.2 step 14, with DESIGN §2 rules 4 to 7).
func (p *parser) attribute(name, value string, off int, link *Link) {
	first := func(flag uint) bool {
		if p.flags&flag != 0 {
			return false
		}
		p.flags |= flag
		return true
	}
	switch name {
	case "rel":
		if first(seenRel) {
			p.rel = value
		}
	case "anchor":
		if first(seenAnchor) {
			link.Anchor = value
		}
	case "rev":
		if first(seenRev) {
			p.rev = value
		}
	case "hreflang":
		p.hreflang = append(p.hreflang, value)
	case "media":
		if first(seenMedia) {
			link.Media = value
		}
	case "title":
		if first(seenTitle) {
			p.title = value
		}
	case "title*":
		// Decoded here, so that problems are reported in input order;
		// applied over title in finish (erratum 5878).
		if first(seenTitleStar) {
			v, err := ParseExtValue(value)
			if err != nil {
				p.extError(off, "title*", err)
			} else {
				p.titleStar = v
				p.flags |= titleStarOK
			}
		}
	case "type":
		if first(seenType) {
			link.Type = value
		}
	case "rel*", "anchor*", "rev*", "hreflang*", "media*", "type*":
		// Not supported internationalised forms (Appendix B.2 step
		// 16.2): ignored like a repeat.
	default:
		if !strings.HasSuffix(name, "*") {
			if p.params == nil {
				p.params = make([]Param, 0, 2*cap(p.links))
			}
			p.params = append(p.params, Param{Name: name, Value: value})
			return
		}
		base := name[:len(name)-1]
		if base == "" || strings.HasSuffix(base, "*") {
			p.syntaxError(off, "parameter "+quoteForError(name)+" is not a valid star parameter name; parameter dropped")
			return
		}
		v, err := ParseExtValue(value)
		if err != nil {
			p.extError(off, name, err)
			return
		}
		p.flags |= hasStarParam
		p.stars = append(p.stars, len(p.params))
		p.params = append(p.params, Param{Name: base, Value: v.Value, Lang: v.Lang})
	}
}

// extError records a star parameter whose value, starting at offset off,
// did not decode as an ext-value. The offset reported is that of the
// problem within the value (exact unless a quoted value held escapes).
func (p *parser) extError(off int, name string, err error) {
	var se *SyntaxError
	if errors.As(err, &se) {
		off += se.Offset
	}
	p.record(&starError{
		syn: &SyntaxError{Offset: off, Msg: name + " value does not decode (" + err.Error() + "); parameter dropped"},
		err: err,
	})
}

// starError is a *SyntaxError about a star parameter that also matches
// ErrCharset when the ext-value's charset was the problem, so that
// errors.Is(err, ErrCharset) works through Parse. The ext-value's own
// *SyntaxError, whose offset is within the value, is not exposed.
type starError struct {
	syn *SyntaxError
	err error // from ParseExtValue
}

// Error returns the message of the *SyntaxError.
func (e *starError) Error() string { return e.syn.Error() }

// Unwrap returns the *SyntaxError, and ErrCharset when it applies.
func (e *starError) Unwrap() []error {
	if errors.Is(e.err, ErrCharset) {
		return []error{e.syn, ErrCharset}
	}
	return []error{e.syn}
}

// finish completes the link whose parameters start at params[param0]: it
// splits the relation types, applies title* over title (RFC 8288 erratum
// 5878, DESIGN §2 rule 6) and lets decoded name* parameters replace the plain
// ones of the same name (Appendix B.2 step 16, DESIGN §2 rule 7).
func (p *parser) finish(link *Link, param0 int) {
	link.Rel = p.relTypes(p.rel)
	link.Rev = p.relTypes(p.rev)
	if len(p.hreflang) > 0 {
		n := len(p.strs)
		p.strs = append(p.strs, p.hreflang...)
		link.Hreflang = p.strs[n:len(p.strs):len(p.strs)]
	}
	link.Title = p.title
	if p.flags&titleStarOK != 0 {
		link.Title, link.TitleLang = p.titleStar.Value, p.titleStar.Lang
	}
	if p.flags&hasStarParam != 0 {
		p.replaceStarred(param0)
	}
	if len(p.params) > param0 {
		link.Params = p.params[param0:len(p.params):len(p.params)]
	}
}

// replaceStarred removes from params[param0:] every plain parameter whose
// name is also the name of a decoded star parameter of the same link.
func (p *parser) replaceStarred(param0 int) {
	starred := make(map[string]bool, len(p.stars))
	for _, k := range p.stars {
		starred[p.params[k].Name] = true
	}
	out := p.params[:param0]
	next := 0 // index in p.stars of the next star parameter
	for k := param0; k < len(p.params); k++ {
		isStar := next < len(p.stars) && p.stars[next] == k
		if isStar {
			next++
		} else if starred[p.params[k].Name] {
			continue
		}
		out = append(out, p.params[k])
	}
	p.params = out
}

// relTypes splits a rel or rev value into relation types (RFC 8288 §3.3):
// on runs of whitespace, dropping empty ones, lower-cased (§2.1.1, §2.1.2).
func (p *parser) relTypes(v string) []string {
	if v == "" {
		return nil
	}
	var class uint8 // the classes of v's bytes, or-ed together
	for i := 0; i < len(v); i++ {
		class |= charClass[v[i]]
	}
	if class&(isSpace|isUpper) == 0 {
		// One lower-case relation type, the common case.
		p.strs = append(p.strs, v)
		return p.strs[len(p.strs)-1 : len(p.strs) : len(p.strs)]
	}
	n := len(p.strs)
	for i := 0; ; {
		i = skipSpace(v, i)
		if i == len(v) {
			break
		}
		j := i
		for j < len(v) && charClass[v[j]]&isSpace == 0 {
			j++
		}
		p.strs = append(p.strs, lower(v[i:j]))
		i = j
	}
	if len(p.strs) == n {
		return nil
	}
	return p.strs[n:len(p.strs):len(p.strs)]
}
