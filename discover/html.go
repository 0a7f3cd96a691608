package discover

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/weblinking/weblink"
)

// HTML returns the links of an HTML document read from r, in document
// order: its <link> elements, and with [Hyperlinks] its <a> and <area>.
//
// Rules 1 to 5 say what is read: an element with an href and a non-empty
// rel is one Link (HTML Living Standard §4.6.1), its href resolved against
// the document's first <base href> or else base; markup that HTML does not
// make an element (comments, <template>, <script>, ...) is not a link.
// Anchor stays "": the context is the document.
//
// r is read to its end, or to [MaxBytes] when that option is given; the
// document is read as UTF-8 (wrap r in a decoder for other charsets, as
// Links does). HTML streams: any nesting depth and any number of elements,
// in memory proportional to the links found and the longest tag.
//
// The error is nil when nothing went wrong. Otherwise it reports a read
// error of r, a truncation at MaxBytes (matching [ErrTruncated]), and each
// href that net/url cannot parse, as a [*weblink.ResolveError] with that link
// kept as written; the links found are returned either way.
func HTML(r io.Reader, base *url.URL, opts ...Option) (weblink.Links, error) {
	cfg := configure(opts)
	s := htmlScanner{hyperlinks: cfg.hyperlinks}
	if cfg.maxBytes <= 0 {
		return s.scan(r, base)
	}
	cr := &capReader{r: r, n: cfg.maxBytes}
	links, err := s.scan(cr, base)
	if cr.cut {
		err = joinErr(err, truncated(cfg.maxBytes, "the HTML document", "links after them are missing"))
	}
	return links, err
}

// htmlScanner holds the state of one HTML document.
type htmlScanner struct {
	hyperlinks bool      // also <a> and <area>
	xhtml      bool      // CDATA sections are text (application/xhtml+xml)
	sources    *[]string // when not nil, the element name of each link, in order
	links      weblink.Links
	baseHref   string // href of the first <base href>
	haveBase   bool
	buf        []byte      // the attribute values of the element being read
	params     []paramSpan // its extension attributes, reused from element to element
	probs      problems
}

// span is the position of an attribute value in htmlScanner.buf.
type span struct{ start, end int }

// paramSpan is an extension attribute in htmlScanner.buf.
type paramSpan struct{ name, value span }

// The attributes that have a field of weblink.Link, which index the span
// array of an element.
const (
	fHref = iota
	fRel
	fRev
	fHreflang
	fMedia
	fTitle
	fType
	nFields
)

// fieldOf returns the field index of the attribute name key, or -1.
func fieldOf(key []byte) int {
	switch string(key) {
	case "href":
		return fHref
	case "rel":
		return fRel
	case "rev":
		return fRev
	case "hreflang":
		return fHreflang
	case "media":
		return fMedia
	case "title":
		return fTitle
	case "type":
		return fType
	}
	return -1
}

// isGlobal reports whether the attribute name key is one of HTML's global
// attributes (HTML Living Standard §3.2.6, plus role, xml:* and xmlns of
// the XML syntax), which say how to render or script an element, not
// anything about the link; title, also global, is a Link field.
func isGlobal(key []byte) bool {
	if bytes.HasPrefix(key, []byte("data-")) || bytes.HasPrefix(key, []byte("aria-")) ||
		bytes.HasPrefix(key, []byte("on")) || bytes.HasPrefix(key, []byte("xml:")) ||
		bytes.HasPrefix(key, []byte("xmlns")) {
		return true
	}
	switch string(key) {
	case "accesskey", "autocapitalize", "autocorrect", "autofocus", "class",
		"contenteditable", "dir", "draggable", "enterkeyhint", "exportparts",
		"hidden", "id", "inert", "inputmode", "is", "itemid", "itemprop",
		"itemref", "itemscope", "itemtype", "lang", "nonce", "part", "popover",
		"role", "slot", "spellcheck", "style", "tabindex", "translate",
		"writingsuggestions":
		return true
	}
	return false
}

// scan tokenizes the document and returns its links, resolved.
func (s *htmlScanner) scan(r io.Reader, base *url.URL) (weblink.Links, error) {
	z := html.NewTokenizer(r)
	if s.xhtml {
		z.AllowCDATA(true)
	}
	template := 0 // depth of <template> elements: their content is not the document's
	var readErr error
	for readErr == nil {
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			if err := z.Err(); err != io.EOF {
				readErr = fmt.Errorf("discover: reading the HTML document: %w", err)
			} else {
				readErr = io.EOF
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			// A self-closing flag on a non-void element such as
			// <template/> is ignored by HTML: it opens the element.
			name, hasAttr := z.TagName()
			if string(name) == "template" {
				template++
				continue
			}
			if template > 0 || !hasAttr {
				continue
			}
			switch string(name) {
			case "link":
				s.element(z, "link")
			case "a", "area":
				if s.hyperlinks {
					s.element(z, string(name))
				}
			case "base":
				s.base(z)
			}
		case html.EndTagToken:
			if template > 0 {
				if name, _ := z.TagName(); string(name) == "template" {
					template--
				}
			}
		}
	}
	s.resolve(base)
	if readErr != io.EOF {
		s.probs.add(readErr)
	}
	return s.links, s.probs.err()
}

// base records the href of the first <base> element that has one (HTML
// Living Standard §4.2.3: "the first base element with an href attribute
// in tree order").
func (s *htmlScanner) base(z *html.Tokenizer) {
	if s.haveBase {
		return
	}
	for more := true; more; {
		var key, val []byte
		key, val, more = z.TagAttr()
		if string(key) == "href" {
			s.baseHref, s.haveBase = validString(val), true
			return
		}
	}
}

// resolve resolves every target against the document's base URL (HTML
// Living Standard §2.4.1, "document base URL"): the frozen base URL of the
// first <base href>, which is href resolved against base unless it fails to
// parse or is a data: or javascript: URL; otherwise base.
func (s *htmlScanner) resolve(base *url.URL) {
	docBase := baseURL{URL: base}
	if s.haveBase {
		if u := resolveURL(docBase, cleanURL(s.baseHref), &s.probs); u.URL != base && u.Scheme != "data" && u.Scheme != "javascript" {
			docBase = u
		}
	}
	r := newResolver(docBase)
	for i := range s.links {
		s.links[i].Target = r.resolve(s.links[i].Target, &s.probs)
	}
}

// element reads the attributes of a <link>, <a> or <area> start tag and
// appends its link when it has an href and a non-empty rel.
func (s *htmlScanner) element(z *html.Tokenizer, source string) {
	var at [nFields]span
	var seen uint
	s.buf, s.params = s.buf[:0], s.params[:0]
	var names map[string]bool // the params' names, once there are many
	for more := true; more; {
		var key, val []byte
		key, val, more = z.TagAttr()
		if f := fieldOf(key); f >= 0 {
			if seen&(1<<f) == 0 { // a repeated attribute is dropped (HTML §13.2.5.33)
				seen |= 1 << f
				at[f] = s.add(val, f == fRel || f == fRev)
			}
			continue
		}
		if isGlobal(key) || s.repeated(key, &names) {
			continue
		}
		s.params = append(s.params, paramSpan{name: s.add(key, false), value: s.add(val, false)})
	}
	if seen&(1<<fHref) == 0 || seen&(1<<fRel) == 0 {
		return
	}
	str := string(s.buf) // one allocation for every string of the link
	sub := func(sp span) string { return str[sp.start:sp.end] }
	rel, rev := sub(at[fRel]), sub(at[fRev])
	nRel := countFields(rel)
	if nRel == 0 {
		return
	}
	nStr := nRel + countFields(rev)
	if seen&(1<<fHreflang) != 0 {
		nStr++
	}
	strs := make([]string, 0, nStr)
	l := weblink.Link{
		Target: cleanURL(sub(at[fHref])),
		Media:  sub(at[fMedia]),
		Title:  sub(at[fTitle]),
		Type:   sub(at[fType]),
	}
	strs = appendFields(strs, rel)
	l.Rel = strs[0:len(strs):len(strs)]
	if n := len(strs); rev != "" {
		strs = appendFields(strs, rev)
		if len(strs) > n {
			l.Rev = strs[n:len(strs):len(strs)]
		}
	}
	if seen&(1<<fHreflang) != 0 {
		strs = append(strs, sub(at[fHreflang]))
		l.Hreflang = strs[len(strs)-1:]
	}
	if len(s.params) > 0 {
		l.Params = make([]weblink.Param, len(s.params))
		for i, p := range s.params {
			l.Params[i] = weblink.Param{Name: sub(p.name), Value: sub(p.value)}
		}
	}
	s.links = appendLink(s.links, l)
	if s.sources != nil {
		*s.sources = append(*s.sources, source)
	}
}

// repeated reports whether an extension attribute named key was already
// read on this element: HTML drops a repeated attribute. Beyond a few
// attributes the names go into a map, so that an element with a hundred
// thousand attributes is not quadratic.
func (s *htmlScanner) repeated(key []byte, names *map[string]bool) bool {
	const few = 8
	if len(s.params) < few {
		for _, p := range s.params {
			if string(s.buf[p.name.start:p.name.end]) == string(key) {
				return true
			}
		}
		return false
	}
	if *names == nil {
		*names = make(map[string]bool, 2*few)
		for _, p := range s.params {
			(*names)[string(s.buf[p.name.start:p.name.end])] = true
		}
	}
	if (*names)[string(key)] {
		return true
	}
	(*names)[string(key)] = true
	return false
}

// add appends an attribute value to s.buf, as valid UTF-8 (an invalid byte
// becomes U+FFFD, as the UTF-8 decoder of the Encoding Standard does),
// ASCII lower-cased when lower is set, and returns its span.
func (s *htmlScanner) add(val []byte, lower bool) span {
	start := len(s.buf)
	if utf8.Valid(val) {
		s.buf = append(s.buf, val...)
	} else {
		s.buf = append(s.buf, bytes.ToValidUTF8(val, []byte("\uFFFD"))...)
	}
	if lower {
		for i := start; i < len(s.buf); i++ {
			if c := s.buf[i]; 'A' <= c && c <= 'Z' {
				s.buf[i] = c + 'a' - 'A'
			}
		}
	}
	return span{start, len(s.buf)}
}

// validString returns b as a string of valid UTF-8.
func validString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
}

// countFields returns the number of tokens of s separated by ASCII
// whitespace.
func countFields(s string) int {
	n := 0
	for i := 0; i < len(s); {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i == len(s) {
			break
		}
		n++
		for i < len(s) && !isSpace(s[i]) {
			i++
		}
	}
	return n
}

// appendFields appends the tokens of s separated by ASCII whitespace to
// dst, as substrings of s ("split a string on ASCII whitespace", Infra §4.7).
func appendFields(dst []string, s string) []string {
	for i := 0; i < len(s); {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		j := i
		for j < len(s) && !isSpace(s[j]) {
			j++
		}
		if j > i {
			dst = append(dst, s[i:j])
		}
		i = j
	}
	return dst
}
