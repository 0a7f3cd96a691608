package weblink

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/weblinking/weblink/internal/ascii"
	"github.com/weblinking/weblink/internal/linkscan"
	"github.com/weblinking/weblink/internal/quote"
)

// Parse parses a Link header field value (RFC 8288 §3) into its links, one
// Link per link-value, in order.
//
//	Link       = #link-value
//	link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )
//	link-param = token BWS [ "=" BWS ( token / quoted-string ) ]
//
// Parse follows RFC 8288 Appendix B.2 and B.3 as rules 1 to 8 fix it: a
// malformed link-value is dropped whole and the links around it are kept.
// The error is nil when nothing was dropped (rule 9); the links are
// returned either way.
//
// The strings of the returned links are substrings of fieldValue where no
// unescaping or lower-casing was needed, so holding on to a Link keeps the
// field value in memory. The text decoded from the escapes of title* and
// other star parameters takes one allocation for the whole call, shared
// by those values: holding one keeps them all.
func Parse(fieldValue string) (Links, error) {
	var p parser
	p.reserve(countLinkValues(fieldValue))
	p.parse(fieldValue)
	return p.links, p.err(0)
}

// ParseHeader parses every Link field line of h (RFC 8288 Appendix B.1), in
// order, as if they were one comma-separated list (RFC 9110 §5.3).
//
// Offsets in its errors are within the field line, and each error says
// which line (1-based) it is from.
//
// It reads h["Link"], the canonical key that net/http and textproto use; a
// header map filled by hand with another spelling of the key is not
// searched.
func ParseHeader(h http.Header) (Links, error) {
	var p parser
	return p.parseHeader(h)
}

// parseHeader implements ParseHeader.
func (p *parser) parseHeader(h http.Header) (Links, error) {
	var errs []error
	lines := h["Link"]
	if len(lines) == 0 {
		return nil, nil
	}
	// One allocation for the links of every line: growing the slice line
	// by line would copy them each time.
	n := 0
	for _, v := range lines {
		n += countLinkValues(v)
	}
	p.reserve(n)
	for i, v := range lines {
		p.later = lines[i+1:]
		p.parse(v)
		if err := p.err(i + 1); err != nil {
			errs = append(errs, err)
		}
		p.errs, p.more = p.errs[:0], 0
	}
	return p.links, errors.Join(errs...)
}

// Parser parses Link field values like Parse and ParseHeader, reusing the
// memory of its previous results.
//
// Once it has parsed an input as large as the present one, it makes no
// allocation for the links, their Rel, Rev and Hreflang slices and their
// Params (strings that needed unescaping or lower-casing are still
// allocated, as in Parse, and so is the text decoded from ext-values, once
// a call). It is for hot paths that parse a header and let go of the
// result, such as middleware and crawlers.
//
// The result of a call is valid only until the next call on the same
// Parser, which overwrites it in place: copy what you keep beyond that
// (the strings themselves are never overwritten; the Links slice and the
// Rel, Rev, Hreflang and Params slices of its links are). Results of other
// Parsers and of [Parse] are never touched. The zero value is ready to
// use. A Parser is not safe for concurrent use; give each goroutine its own.
type Parser struct {
	p parser
}

// Parse parses fieldValue like the function Parse. The result is valid
// until p's next call.
func (p *Parser) Parse(fieldValue string) (Links, error) {
	p.reset()
	p.p.parse(fieldValue)
	if p.p.links == nil {
		p.p.links = Links{} // empty, as Parse returns it
	}
	return p.p.links, p.p.err(0)
}

// ParseHeader parses every Link field line of h like the function
// ParseHeader. The result is valid until p's next call.
func (p *Parser) ParseHeader(h http.Header) (Links, error) {
	p.reset()
	return p.p.parseHeader(h)
}

// reset empties the parser's slices for a new input, keeping their memory.
// They are not sized for the input: parseOne makes room when they are
// full, which a warm Parser's seldom are, so that a warm call does not
// count the link-values first.
func (p *Parser) reset() {
	q := &p.p
	clear(q.links) // newLink expects zero Links beyond len
	*q = parser{links: q.links[:0], strs: q.strs[:0], params: q.params[:0], stars: q.stars[:0], errs: q.errs[:0]}
}

// ParseResponse parses the Link header fields of resp with [ParseHeader]
// and resolves them against the URL that resp came from.
//
// The base URI is that of rule 23: the request's URL after redirects,
// without user information and fragment (RFC 8288 §3.1, §3.2). When
// resp.Request is nil, the links are returned as written. A target or
// anchor that cannot be parsed as a URI reference is left as written and
// reported as a [*ResolveError].
func ParseResponse(resp *http.Response) (Links, error) {
	if resp == nil {
		return nil, errors.New("weblink: ParseResponse called with a nil *http.Response")
	}
	links, err := ParseHeader(resp.Header)
	if resp.Request == nil || resp.Request.URL == nil {
		return links, err
	}
	base := resp.Request.URL
	if base.User != nil || base.Fragment != "" || base.RawFragment != "" {
		target := *base
		target.User, target.Fragment, target.RawFragment = nil, "", ""
		base = &target
	}
	links, rerr := links.resolve(base)
	return links, errors.Join(err, rerr)
}

// The kinds of parameter (RFC 8288 §3.3, §3.4): first the target attributes
// of which only the first occurrence counts (§3.4.1, Appendix B.2 step 14,
// rule 4), which index attrs.first, then the others.
const (
	attrRel = iota
	attrAnchor
	attrRev
	attrMedia
	attrTitle
	attrTitleStar
	attrType
	numFirst

	attrHreflang  // every occurrence counts
	attrIgnored   // rel*, anchor*, ...: not supported forms
	attrExtension // every other name (§3.4.2)
)

// attrNames are the names of the first-wins kinds and of hreflang, by
// kind.
var attrNames = [...]string{attrRel: "rel", attrAnchor: "anchor", attrRev: "rev", attrMedia: "media",
	attrTitle: "title", attrTitleStar: "title*", attrType: "type", attrHreflang: "hreflang"}

// attrKind returns the kind of the parameter named name (lower-case).
func attrKind(name string) int {
	switch name {
	case "rel":
		return attrRel
	case "anchor":
		return attrAnchor
	case "rev":
		return attrRev
	case "media":
		return attrMedia
	case "title":
		return attrTitle
	case "title*":
		return attrTitleStar
	case "type":
		return attrType
	case "hreflang":
		return attrHreflang
	case "rel*", "anchor*", "rev*", "hreflang*", "media*", "type*":
		// Not supported internationalised forms (Appendix B.2 step
		// 16.2): ignored like a repeat.
		return attrIgnored
	}
	return attrExtension
}

// Flags of attrs.seen beyond the bits 1<<kind of the first-wins kinds seen.
const (
	titleStarOK  = 1 << (numFirst + iota) // the first title* decoded, into titleStar
	hasStarParam                          // a name* extension parameter was decoded
)

// attrs are the target attributes of the link-value being parsed of which
// only the first occurrence counts, kept until finish builds its Link. It
// is a local variable of linkValue, so that setting them costs no write
// barriers.
type attrs struct {
	seen      uint             // 1<<kind for each kind seen, and the flags above
	first     [numFirst]string // value of the first occurrence, by kind
	titleStar ExtValue         // the first title*, when it decoded
}

// parser holds the state of one Parse or ParseHeader call. Its slices are
// shared by all the links it returns: each Link's Rel, Rev, Hreflang and
// Params are windows of strs and params with capacity capped at their
// length, so a caller appending to one cannot write into another.
type parser struct {
	links  Links    // links[len(links):cap(links)] are zero Links
	strs   []string // backing for Rel, Rev and Hreflang
	params []Param  // backing for Params
	stars  []int    // indexes in params of the decoded name* parameters of a link
	later  []string // the field lines after the one being parsed, for sizing
	sized  bool     // parseOne has made room for the rest of the field value
	kept   int      // problems kept from earlier field lines, which count towards maxErrors

	paramsSized bool // addParam has made room for every parameter that can follow

	// The text decoded from the escapes of star parameters (title* and
	// name*): the decoded values of a parse are substrings of its string,
	// one allocation for all (extValue). line is the field line being
	// parsed, for sizing it (textRoom), which textSized says was done.
	text      strings.Builder
	line      string
	textSized bool

	errs []error
	more int // problems found beyond maxErrors

	// linkValue searches every target for a "<", unless countOpens is
	// set: then it counts the "<" that open link-values (opens), so that
	// parse can tell whether it needs a pass that searches. The zero
	// value searches, for the callers of parseOne that stream (findNext,
	// budgetLinks). alwaysSearch makes every pass of parse search, for
	// the tests that compare the two.
	opens        int
	countOpens   bool
	alwaysSearch bool
}

// reserve makes room for n more links, so that appending them does not
// copy the links parsed so far.
func (p *parser) reserve(n int) {
	if p.links == nil {
		p.links, p.strs = makeBacking(n)
		return
	}
	if cap(p.links)-len(p.links) < n {
		p.links = slices.Grow(p.links, n)
	}
}

// countLinkValues returns an upper bound on the number of link-values that
// parse finds in s, for sizing: the number of "<" when there are few, else
// the "<" bytes that start a list element,
// that is, that only commas and whitespace separate from the start of s or
// from a comma (every link-value parse accepts starts so, since it consumes
// the comma after each link-value and resumes after a comma when it drops
// one). The target after a counted "<" is skipped as parse skips it.
// Commas and "<" inside quoted-strings can make the count too high, never
// too low; as a link-value has at least 3 bytes ("<>,"), the count is
// capped at (len(s)+1)/3, which bounds what the Links of any input cost at
// 64 bytes per input byte.
func countLinkValues(s string) int {
	// Every link-value starts with "<", so their count is a bound too;
	// counted in bulk, it is the cheap one while it is not above one per
	// 16 bytes, what real headers have (GitHub's link-values are 70
	// bytes), which bounds the waste of an over-count at 12 bytes per
	// input byte.
	if n := strings.Count(s, "<"); n <= len(s)/16+1 {
		return n
	}
	n := 0
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			break
		}
		j += i
		i = j + 1
		if !startsElement(s, j) {
			continue
		}
		n++
		end := strings.IndexByte(s[i:], '>')
		if end < 0 {
			break
		}
		if lt := strings.LastIndexByte(s[i:i+end], '<'); lt >= 0 {
			// A ">" is missing: Parse may resume at that "<" (rule
			// 8), which the next round counts when it starts an
			// element.
			i += lt
			continue
		}
		i += end + 1
	}
	return min(n, (len(s)+1)/3)
}

// startsElement reports whether only commas and whitespace come between
// s[j] and either the start of s or a comma.
func startsElement(s string, j int) bool {
	for k := j - 1; k >= 0; k-- {
		c := s[k]
		if c == ',' {
			return true
		}
		if charClass[c]&isSpace == 0 {
			return false
		}
	}
	return true
}

// parse appends the links of the field value s. The caller may reserve
// room for them first (reserve, countLinkValues); parseOne does when there
// is none left.
//
// A target that holds a "<" is malformed (rule 8), and looking for one in
// every target would cost a search a link-value. So the first pass skips
// that search and counts the "<" that open link-values: when they are all
// the "<" of s, no target holds one, and the links stand. Otherwise (a "<"
// in a quoted-string, in a dropped element, or in a target) what the pass
// appended is taken back and s is parsed again with the search, which
// TestParseOpensCounted and FuzzParse hold to the same result as
// searching from the start.
func (p *parser) parse(s string) {
	m := p.mark()
	p.sized, p.line, p.opens, p.countOpens = false, s, 0, !p.alwaysSearch
	for i, ok := p.parseOne(s, 0); ok; i, ok = p.parseOne(s, i) {
	}
	if !p.countOpens || p.opens == strings.Count(s, "<") {
		p.countOpens = false
		return
	}
	p.undo(m)
	p.sized, p.countOpens = false, false
	for i, ok := p.parseOne(s, 0); ok; i, ok = p.parseOne(s, i) {
	}
}

// parseMark is what parse needs to take back a pass over one field value.
type parseMark struct {
	links, strs, params, errs, more int
	paramsSized                     bool
}

// mark returns the present lengths of p's slices, for undo.
func (p *parser) mark() parseMark {
	return parseMark{len(p.links), len(p.strs), len(p.params), len(p.errs), p.more, p.paramsSized}
}

// undo takes back what p appended since m. The text decoded from
// ext-values in the meantime stays in p.text, unused: only a field value
// parsed twice pays for it.
func (p *parser) undo(m parseMark) {
	clear(p.links[m.links:]) // newLink expects zero Links beyond len
	p.links, p.strs, p.params, p.errs = p.links[:m.links], p.strs[:m.strs], p.params[:m.params], p.errs[:m.errs]
	p.more, p.paramsSized = m.more, m.paramsSized
}

// parseOne parses the field value s from s[i] until it has appended one
// link or reached the end of s, dropping malformed link-values on the way.
// It returns the index after the link-value and whether it appended a
// link.
func (p *parser) parseOne(s string, i int) (next int, ok bool) {
	for {
		// Empty list elements are skipped (RFC 9110 §5.6.1).
		for i < len(s) && (s[i] == ',' || charClass[s[i]]&isSpace != 0) {
			i++
		}
		if i == len(s) {
			return i, false
		}
		if len(p.links) == cap(p.links) && !p.sized && s[i] == '<' {
			// Once a field value: counting again for every element
			// after the last link would take quadratic time.
			p.sized = true
			p.reserve(countLinkValues(s[i:]))
		}
		if i, ok = p.linkValue(s, i); ok {
			return i, true
		}
		i = linkscan.SkipElement(s, i)
	}
}

// reuse empties p.links, p.strs and p.params for the next link, when the
// caller looks at one link at a time (findNext) and keeps none.
func (p *parser) reuse() {
	clear(p.links)
	p.links, p.strs, p.params = p.links[:0], p.strs[:0], p.params[:0]
}

// makeBacking returns empty slices with room for n links and, up to four
// links, n strings (one relation type a link): the usual size of a Link
// field, where links and strings share one allocation, which costs half of
// two. Each size is its own type so that the allocation is no larger than
// it needs: up to two links it stays within the 512 bytes that the Go
// allocator serves without an object header, and four links fit the 896-byte
// size class where four links with two strings each would take 1024 bytes,
// which measured a third slower (bench/README.md). A link with more
// strings than that, and any field beyond four links, gets its strings
// from addStr.
func makeBacking(n int) (Links, []string) {
	switch {
	case n <= 1:
		b := new(struct {
			links [1]Link
			strs  [2]string
		})
		return b.links[:0], b.strs[:0]
	case n == 2:
		b := new(struct {
			links [2]Link
			strs  [2]string
		})
		return b.links[:0], b.strs[:0]
	case n == 3:
		b := new(struct {
			links [3]Link
			strs  [3]string
		})
		return b.links[:0], b.strs[:0]
	case n == 4:
		b := new(struct {
			links [4]Link
			strs  [4]string
		})
		return b.links[:0], b.strs[:0]
	}
	return make(Links, 0, n), nil
}

// paramRoom returns how many parameters to make room for in p.params when
// the first extension parameter is found: two a link, but no more than can
// follow in rest and in the field lines still to parse, which is one per
// ";" and no more than one per two bytes (";x"). The ";" are counted only
// when two a link could be more than one per 16 bytes, which would waste
// more than 3 bytes of Param an input byte. Growing the slice parameter by
// parameter would cost twice its final size.
func (p *parser) paramRoom(rest string) int {
	room, size := 2*cap(p.links), len(rest)
	for _, line := range p.later {
		size += len(line)
	}
	if room <= size/16 {
		return room
	}
	return min(room, p.semicolons(rest), size/2) + 1
}

// semicolons returns how many ";" there are in rest and in the field lines
// still to parse: a bound on the parameters that can follow.
func (p *parser) semicolons(rest string) int {
	n := strings.Count(rest, ";")
	for _, line := range p.later {
		n += strings.Count(line, ";")
	}
	return n
}

// addParam appends q to p.params, the parameter just parsed, before rest.
// When p.params is full it makes room first: at the first parameter, as
// paramRoom says; when links have more parameters than that, once for
// every parameter that can follow (semicolons), so that the slice is not
// grown again in this call. Grown by append, a quarter at a time once it
// is large, it would allocate five times its final size for one link with
// many parameters.
func (p *parser) addParam(q Param, rest string) {
	if len(p.params) == cap(p.params) {
		switch {
		case p.params == nil:
			p.params = make([]Param, 0, p.paramRoom(rest))
		case !p.paramsSized:
			p.paramsSized = true
			p.params = slices.Grow(p.params, p.semicolons(rest)+1)
		}
	}
	p.params = append(p.params, q)
}

// addStr appends a relation type or hreflang value to p.strs, making room
// for two a link when it is first needed.
func (p *parser) addStr(v string) {
	if p.strs == nil {
		p.strs = make([]string, 0, max(2*cap(p.links), 2))
	}
	p.strs = append(p.strs, v)
}

// maxErrors is how many problems one field value reports in detail; the
// rest are counted, so that hostile input cannot make a huge error.
const maxErrors = linkscan.MaxErrors

// syntaxError records a problem at offset off.
func (p *parser) syntaxError(off int, msg string) {
	if !p.full() {
		p.errs = append(p.errs, &SyntaxError{Offset: off, Msg: msg})
	}
}

// full reports whether maxErrors problems are kept already, and then counts
// the problem about to be recorded: a caller that gets true builds no
// message, so that hostile input with a problem every few bytes costs no
// memory for the problems beyond maxErrors.
func (p *parser) full() bool {
	if len(p.errs)+p.kept < maxErrors {
		return false
	}
	p.more++
	return true
}

// err returns the problems recorded so far, nil when there are none. A
// non-zero line names the field line they are from.
func (p *parser) err(line int) error {
	if len(p.errs) == 0 {
		return nil
	}
	errs := p.errs
	if p.more > 0 {
		errs = append(errs[:len(errs):len(errs)], &linkscan.More{N: p.more})
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
	p.opens++
	end := strings.IndexByte(s[i+1:], '>')
	if end < 0 {
		p.syntaxError(i, "\"<\" is never closed by \">\"; link-value dropped")
		return len(s), false
	}
	if !p.countOpens && strings.IndexByte(s[i+1:i+1+end], '<') >= 0 {
		return p.strayOpen(s, i, i+1+end)
	}
	target := trimSpace(s[i+1 : i+1+end])
	i += end + 2
	if rel, next, ok := singleRel(s, i); ok {
		p.addStr(rel)
		link := p.newLink()
		link.Target = target
		link.Rel = p.strs[len(p.strs)-1 : len(p.strs) : len(p.strs)]
		return next, true
	}

	// Parameters go to the shared backing slices; remember where this
	// link's part starts so that a malformed link-value can take it back.
	var a attrs
	p.stars = p.stars[:0]
	param0, str0 := len(p.params), len(p.strs)
	for {
		// A parameter usually ends right at the next ";", with no
		// whitespace to skip.
		if i == len(s) || s[i] != ';' {
			i = skipSpace(s, i)
			if i == len(s) || s[i] == ',' {
				break
			}
		}
		var name, value string
		var k, off int
		ok := s[i] == ';'
		if !ok {
			if !p.full() {
				p.syntaxError(i, "expected \";\" or \",\" after "+describeAt(s, i)+"; link-value dropped")
			}
		} else {
			name, k, value, off, i, ok = p.param(s, i+1)
		}
		if !ok {
			p.params, p.strs = p.params[:param0], p.strs[:str0]
			return i, false
		}
		if name == "" {
			continue // an empty parameter
		}
		switch {
		case k < numFirst:
			if a.seen&(1<<k) != 0 {
				break // a repeat, ignored
			}
			a.seen |= 1 << k
			a.first[k] = value
			// title* is decoded here, so that problems are reported
			// in input order, and applied over title in finish
			// (erratum 5878).
			if k == attrTitleStar {
				if v, ok := p.extValue(name, value, off); ok {
					a.titleStar = v
					a.seen |= titleStarOK
				}
			}
		case k == attrHreflang:
			p.addStr(value)
		case k == attrExtension:
			if p.extension(name, value, off, s[i:]) {
				a.seen |= hasStarParam
			}
		}
	}
	if i < len(s) {
		i++ // the comma
	}
	p.finish(target, &a, param0, str0)
	return i, true
}

// strayOpen records the problem of the link-value whose "<" is at s[open],
// whose first ">" is at s[gt], and whose target holds a "<" (rule 8): no
// URI-reference or IRI holds one (RFC 3986 §2, RFC 3987 §2.2), so it
// almost always means that the ">" of this link-value is missing and that
// the "<" opens the next one. It returns where the link-value is
// malformed, and false.
func (p *parser) strayOpen(s string, open, gt int) (off int, ok bool) {
	off, comma := linkscan.StrayOpen(s, open, gt)
	p.syntaxError(off, strayOpenMsg(comma))
	return off, false
}

// strayOpenMsg is the message of the problem linkscan.StrayOpen finds: at the
// comma before the next "<" when comma is set, at the "<" otherwise.
func strayOpenMsg(comma bool) string {
	if comma {
		return `">" is probably missing before this ",": a URI-reference holds no "<"; link-value dropped`
	}
	return `"<" inside the target, which no URI-reference holds: a ">" is probably missing before it; link-value dropped`
}

// describeAt names, for an error message, what comes before the unexpected
// byte s[i] (whitespace aside) and that byte.
func describeAt(s string, i int) string {
	found := ", found " + quote.Value(s[i:i+1])
	j := i
	for j > 0 && charClass[s[j-1]]&isSpace != 0 {
		j--
	}
	switch {
	case j > 0 && s[j-1] == '"':
		return "a quoted-string" + found
	case j > 0 && s[j-1] == '>':
		return "the link target" + found
	}
	return "a parameter" + found
}

// param parses one parameter after its ";" (RFC 8288 §3 and Appendix B.3):
//
//	link-param = token BWS [ "=" BWS ( token / quoted-string ) ]
//
// It returns the lower-cased name ("" for an empty parameter, ";;"), its
// kind (attrKind), the value ("" when there is none), the offset of the
// value, and the index after the parameter; ok is false when the parameter
// is malformed. A run of empty parameters is skipped at once.
func (p *parser) param(s string, i int) (name string, kind int, value string, off, next int, ok bool) {
	if i+1 < len(s) && s[i] == ' ' && s[i+1] > ' ' && s[i+1] != ';' {
		i++ // the usual single space
	} else {
		for ; i < len(s); i++ {
			if c := s[i]; c != ';' && (c > ' ' || charClass[c]&isSpace == 0) {
				break // not whitespace or the ";" of an empty parameter
			}
		}
	}
	if k, n := knownName(s, i); n > 0 {
		name, kind = attrNames[k], k
		i += n + 1 // and the "="
	} else {
		name, i, ok = p.paramName(s, i)
		if name == "" {
			return "", 0, "", i, i, ok
		}
		kind = attrKind(name)
		// BWS "=" BWS, usually a bare "=", which needs no skipSpace.
		if i == len(s) || s[i] != '=' {
			i = skipSpace(s, i)
			if i == len(s) || s[i] != '=' {
				return name, kind, "", i, i, true
			}
		}
		i++
	}
	if i < len(s) && s[i] <= ' ' {
		i = skipSpace(s, i)
	}
	if i < len(s) && s[i] == '"' {
		end, escaped, closed := linkscan.QuotedEnd(s, i)
		if !closed {
			p.syntaxError(i, "quoted-string is never closed; link-value dropped")
			return "", 0, "", i, len(s), false
		}
		value = s[i+1 : end-1]
		if escaped {
			value = unquote(value)
		}
		// Offsets in the value count from after the quote.
		return name, kind, value, i + 1, end, true
	}
	// A token, or anything up to the next ";" or "," (rule 3):
	// a lenient reading that loses nothing.
	end := valueEnd(s, i)
	return name, kind, trimSpace(s[i:end]), i, end, true
}

// paramName consumes the token that names a parameter at s[i], returning
// it lower-cased and the index after it. The name is "" for an empty
// parameter (the end of s, ",") with ok set, and for a byte that cannot
// start a token with ok unset.
func (p *parser) paramName(s string, i int) (name string, next int, ok bool) {
	start := i
	var class uint8 // the classes of the name's bytes, or-ed together
	for ; i < len(s); i++ {
		c := charClass[s[i]]
		if c&isTchar == 0 {
			break
		}
		class |= c
	}
	if i == start {
		if i == len(s) || s[i] == ',' {
			return "", i, true // empty parameter
		}
		if !p.full() {
			p.syntaxError(i, "parameter name must be a token, found "+quote.Value(s[i:i+1])+"; link-value dropped")
		}
		return "", i, false
	}
	name = s[start:i]
	if class&isUpper != 0 {
		name = ascii.Lower(name)
	}
	return name, i, true
}

// knownName returns the kind and the length of the parameter name at s[i]
// when it is the lower-case name of a target attribute of RFC 8288 §3.4.1
// (rel, anchor, rev, media, title, title*, type, hreflang) followed right
// away by "=", and a length of 0 otherwise: the names of nearly every
// parameter, matched a word at a time without a byte loop. Its kinds are
// those of attrKind.
func knownName(s string, i int) (kind, n int) {
	if len(s)-i < 9 {
		return 0, 0 // the byte loop is as fast near the end
	}
	w := ascii.Load64(s, i)
	switch byte(w) {
	case 'r':
		switch w & mask4 {
		case relEq:
			return attrRel, len("rel")
		case revEq:
			return attrRev, len("rev")
		}
	case 'a':
		if w&mask7 == anchorEq {
			return attrAnchor, len("anchor")
		}
	case 't':
		switch {
		case w&mask6 == titleEq:
			return attrTitle, len("title")
		case w&mask7 == titleStarEq:
			return attrTitleStar, len("title*")
		case w&mask5 == typeEq:
			return attrType, len("type")
		}
	case 'h':
		if w == hreflang && s[i+8] == '=' {
			return attrHreflang, len("hreflang")
		}
	case 'm':
		if w&mask6 == mediaEq {
			return attrMedia, len("media")
		}
	}
	return 0, 0
}

// The names knownName matches, with their "=", as the little-endian words
// ascii.Load64 reads, and the masks of their first 4 to 7 bytes.
const (
	mask4 = 1<<32 - 1
	mask5 = 1<<40 - 1
	mask6 = 1<<48 - 1
	mask7 = 1<<56 - 1

	relEq       = 'r' | 'e'<<8 | 'l'<<16 | '='<<24
	revEq       = 'r' | 'e'<<8 | 'v'<<16 | '='<<24
	typeEq      = 't' | 'y'<<8 | 'p'<<16 | 'e'<<24 | '='<<32
	titleEq     = 't' | 'i'<<8 | 't'<<16 | 'l'<<24 | 'e'<<32 | '='<<40
	mediaEq     = 'm' | 'e'<<8 | 'd'<<16 | 'i'<<24 | 'a'<<32 | '='<<40
	anchorEq    = 'a' | 'n'<<8 | 'c'<<16 | 'h'<<24 | 'o'<<32 | 'r'<<40 | '='<<48
	titleStarEq = 't' | 'i'<<8 | 't'<<16 | 'l'<<24 | 'e'<<32 | '*'<<40 | '='<<48
	hreflang    = 'h' | 'r'<<8 | 'e'<<16 | 'f'<<24 | 'l'<<32 | 'a'<<40 | 'n'<<48 | 'g'<<56
)

// valueEnd returns the index of the first ";" or "," at or after i, or
// len(s): the end of an unquoted parameter value.
func valueEnd(s string, i int) int { return ascii.IndexEither(s, i, ';', ',') }

// unquote removes the backslashes of the quoted-pairs of the inside of a
// quoted-string (RFC 9110 §5.6.4):
//
//	quoted-pair = "\\" ( HTAB / SP / VCHAR / obs-text )
func unquote(s string) string {
	b := make([]byte, 0, len(s)-1)
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b = append(b, s[i])
	}
	return string(b)
}

// extension applies an extension parameter (RFC 8288 §3.4.2): kept in
// order, and decoded as an ext-value when its name ends in "*" (rule
// 7). rest is the input after the parameter, for sizing. It reports
// whether it added a decoded star parameter.
func (p *parser) extension(name, value string, off int, rest string) bool {
	star := strings.HasSuffix(name, "*")
	if !star {
		p.addParam(Param{Name: name, Value: value}, rest)
		return false
	}
	base := name[:len(name)-1]
	if base == "" || strings.HasSuffix(base, "*") {
		if !p.full() {
			p.syntaxError(off, "parameter "+quote.Value(name)+" is not a valid star parameter name; parameter dropped")
		}
		return false
	}
	v, ok := p.extValue(name, value, off)
	if !ok {
		return false
	}
	p.stars = append(p.stars, len(p.params))
	p.addParam(Param{Name: base, Value: v.Value, Lang: v.Lang}, rest)
	return true
}

// extValue decodes the value of the star parameter name, which starts at
// offset off, as an ext-value (RFC 8187 §3.2), recording why when it does
// not decode. The text decoded from escapes goes to p.text, so that the
// decoded values of a parse share one allocation (rule 10).
func (p *parser) extValue(name, value string, off int) (ExtValue, bool) {
	if p.text.Cap()-p.text.Len() < len(value) && strings.IndexByte(value, '%') >= 0 {
		p.text.Grow(p.textRoom(value, off))
	}
	v, err := decodeExtValue(value, &p.text)
	if err != nil {
		p.extError(off, name, err)
		return ExtValue{}, false
	}
	return v, true
}

// textRoom returns how many bytes to make room for in p.text before
// decoding value, the value of a star parameter at offset off of the field
// line. At the first such value of the parse, it guesses that each "*"
// from there to the end of the field lines (a bound on the star
// parameters still to come) has a value that decodes to as much as this
// one, and an eighth more, but no more than those bytes themselves, which
// bound the text decoded from them: so the text of a parse usually takes
// one allocation. Later, when that room is spent, it is the length of
// value, which strings.Builder rounds up by doubling its capacity.
func (p *parser) textRoom(value string, off int) int {
	if p.textSized || off > len(p.line) {
		return len(value)
	}
	p.textSized = true
	rest := p.line[off:]
	size, stars := len(rest), strings.Count(rest, "*")
	for _, line := range p.later {
		size += len(line)
		stars += strings.Count(line, "*")
	}
	// Every "%" of value-chars starts a 3-byte escape of one octet.
	n := len(value) - 2*strings.Count(value, "%")
	return max(len(value), min(stars*(n+n/8+1), size))
}

// extError records a star parameter whose value, starting at offset off,
// did not decode as an ext-value. The offset reported is that of the
// problem within the value (exact unless a quoted value held escapes). The
// error matches ErrCharset when the charset was the problem, so that
// errors.Is(err, ErrCharset) works through Parse; the ext-value's own
// *SyntaxError, whose offset is within the value, is not kept.
func (p *parser) extError(off int, name string, err error) {
	if p.full() {
		return
	}
	var se *SyntaxError
	if errors.As(err, &se) {
		off += se.Offset
	}
	var cause error
	if errors.Is(err, ErrCharset) {
		cause = ErrCharset
	}
	p.errs = append(p.errs, &SyntaxError{Offset: off, Msg: name + " value does not decode (" + err.Error() + "); parameter dropped", err: cause})
}

// finish appends the Link of the link-value just parsed, with attributes
// a, parameters from params[param0] and hreflang values from strs[str0]: it
// splits the relation types, applies title* over title (RFC 8288 erratum
// 5878, rule 6) and lets decoded name* parameters replace the plain ones
// of the same name (Appendix B.2 step 16, rule 7).
func (p *parser) finish(target string, a *attrs, param0, str0 int) {
	link := p.newLink()
	link.Target = target
	if len(p.strs) > str0 {
		link.Hreflang = p.strs[str0:len(p.strs):len(p.strs)]
	}
	link.Rel = p.relTypes(a.first[attrRel])
	if a.seen&^(1<<attrRel) != 0 {
		// Not only rel, the common case.
		link.Rev = p.relTypes(a.first[attrRev])
		link.Anchor = a.first[attrAnchor]
		link.Media = a.first[attrMedia]
		link.Title = a.first[attrTitle]
		if a.seen&titleStarOK != 0 {
			link.Title, link.TitleLang = a.titleStar.Value, a.titleStar.Lang
		}
		link.Type = a.first[attrType]
		if a.seen&hasStarParam != 0 {
			p.replaceStarred(param0)
		}
	}
	if len(p.params) > param0 {
		link.Params = p.params[param0:len(p.params):len(p.params)]
	}
}

// newLink appends a zero Link to p.links and returns it, to be filled in
// place field by field: building a Link aside and copying it in would copy
// all of it, with a write barrier for every pointer while the garbage
// collector marks.
func (p *parser) newLink() *Link {
	if len(p.links) == cap(p.links) {
		p.links = slices.Grow(p.links, 1)
	}
	p.links = p.links[:len(p.links)+1]
	return &p.links[len(p.links)-1]
}

// singleRel reports whether the parameters of a link-value, from s[i] to
// the end of the link-value, are the common `; rel="type"`: exactly that
// spelling, with one relation type that needs no unquoting, splitting or
// lower-casing (no backslash, whitespace or upper-case letter). It returns
// the type and the index after the link-value and its comma, which is what
// the general path of linkValue would make of them.
func singleRel(s string, i int) (rel string, next int, ok bool) {
	const prefix = `; rel="`
	if !strings.HasPrefix(s[i:], prefix) {
		return "", 0, false
	}
	start := i + len(prefix)
	j := start
	for j < len(s) && charClass[s[j]]&(isQuoteStop|isSpace|isUpper) == 0 {
		j++
	}
	if j == start || j == len(s) || s[j] != '"' {
		return "", 0, false
	}
	next = skipSpace(s, j+1)
	switch {
	case next == len(s):
	case s[next] == ',':
		next++
	default:
		return "", 0, false // more parameters
	}
	return s[start:j], next, true
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
//
//	relation-types = relation-type *( 1*SP relation-type )
func (p *parser) relTypes(v string) []string {
	if v == "" {
		return nil
	}
	n := len(p.strs)
	if len(v) > longRel {
		// Make room for every type at once: growing the slice type by
		// type copies it again and again under the garbage collector's
		// write barriers.
		p.reserveStrs(countRelTypes(v))
	}
	for i := 0; i < len(v); i++ { // i++: past the whitespace that ended a type
		start := i
		var class uint8 // the classes of the type's bytes, or-ed together
		for ; i < len(v); i++ {
			c := charClass[v[i]]
			if c&isSpace != 0 {
				break
			}
			class |= c
		}
		if i == start {
			continue
		}
		t := v[start:i]
		if class&isUpper != 0 {
			t = ascii.Lower(t)
		}
		p.addStr(t)
	}
	if len(p.strs) == n {
		return nil
	}
	return p.strs[n:len(p.strs):len(p.strs)]
}

// longRel is the length of a rel or rev value beyond which relTypes counts
// the relation types before splitting them.
const longRel = 64

// countRelTypes returns how many relation types relTypes finds in v.
func countRelTypes(v string) int {
	n := 0
	inType := false
	for i := 0; i < len(v); i++ {
		space := charClass[v[i]]&isSpace != 0
		if !space && !inType {
			n++
		}
		inType = !space
	}
	return n
}

// reserveStrs makes room for n more strings in p.strs.
func (p *parser) reserveStrs(n int) {
	if cap(p.strs)-len(p.strs) < n {
		p.strs = slices.Grow(p.strs, n)
	}
}
