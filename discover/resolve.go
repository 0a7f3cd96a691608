package discover

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/plainuri"
)

// maxErrors is how many problems one document reports in detail; the
// error then says how many more there were, so that hostile input with a
// million bad references gives a short error.
const maxErrors = 16

// problems collects the errors of one document.
type problems struct {
	errs []error
	more int
}

// add records err, or counts it once maxErrors are recorded; a nil err
// is no problem.
func (p *problems) add(err error) {
	if err == nil {
		return
	}
	if len(p.errs) < maxErrors {
		p.errs = append(p.errs, err)
		return
	}
	p.more++
}

// err returns every recorded problem joined, nil when there is none.
func (p *problems) err() error {
	if p.more > 0 {
		return errors.Join(append(p.errs, fmt.Errorf("discover: and %d more problems", p.more))...)
	}
	return errors.Join(p.errs...)
}

// baseURL is a base URI as url.URL holds it, with its user information as
// written: url.URL holds that decoded, and its String writes it back
// re-escaped ("!" as %21, %2a as %2A), where the links resolved against a
// <base href> or an xml:base keep it as written (rule 32 of package weblink).
type baseURL struct {
	*url.URL
	user string // as written; "" for the form url.URL's String writes
}

// resolve returns ref resolved against base (RFC 3986 §5.2). A reference
// that net/url cannot parse is returned as written and reported as a
// *weblink.ResolveError, as weblink.ParseResponse does; with a nil base,
// ref is returned as written.
func resolve(base baseURL, ref string, p *problems) string {
	if base.URL == nil {
		return ref
	}
	s, err := plainuri.ResolveUser(withoutFragmentURL(base.URL), base.user, ref) // keeps every %HH as written (rule 32 of package weblink)
	if err != nil {
		p.add(&weblink.ResolveError{Ref: ref, Err: err})
		return ref
	}
	return s
}

// appendLink appends l to links, doubling the capacity when it is full: a
// Link is 192 bytes, and append's growth by a quarter for large slices
// would allocate five times the final size for a document of many links,
// where doubling allocates twice.
func appendLink(links weblink.Links, l weblink.Link) weblink.Links {
	if len(links) == cap(links) {
		links = slices.Grow(links, max(len(links), 4))
	}
	return append(links, l)
}

// resolveLinks resolves the targets and anchors of links in place against
// base (RFC 8288 §3.1 and §3.2: the target against the base, never against
// the anchor); an empty Anchor stays empty.
func resolveLinks(links weblink.Links, base *url.URL, p *problems) {
	r := newResolver(baseURL{URL: base})
	for i := range links {
		l := &links[i]
		l.Target = r.resolve(l.Target, p)
		if l.Anchor != "" {
			l.Anchor = r.resolve(l.Anchor, p)
		}
	}
}

// resolveURL is resolve for a base URI that is itself resolved: the
// <base href> of an HTML document and the xml:base of a feed, with its
// user information as written, in ref or (when ref has no authority) in
// base. It returns base when ref cannot be parsed.
func resolveURL(base baseURL, ref string, p *problems) baseURL {
	u, err := plainuri.Parse(ref)
	if err != nil {
		p.add(&weblink.ResolveError{Ref: ref, Err: err})
		return base
	}
	if base.URL == nil {
		user, _ := plainuri.User(ref)
		return baseURL{URL: u, user: user}
	}
	b := withoutFragmentURL(base.URL)
	s, err := plainuri.ResolveUser(b, base.user, ref)
	if err != nil { // not reached: ref parsed above
		return base
	}
	user, _ := plainuri.User(s)
	return baseURL{URL: b.ResolveReference(u), user: user}
}

// withoutFragmentURL returns u without its fragment. RFC 3986 §5.2.2 takes
// no fragment from the base (an empty reference is the base without its
// fragment), but net/url's ResolveReference keeps the base's fragment for
// an empty reference.
func withoutFragmentURL(u *url.URL) *url.URL {
	if u.Fragment == "" && u.RawFragment == "" {
		return u
	}
	v := *u
	v.Fragment, v.RawFragment = "", ""
	return &v
}

// isSpace reports whether c is ASCII whitespace as the HTML standard
// defines it (TAB, LF, FF, CR, SPACE); XML's whitespace is the same without
// FF, which never occurs in well-formed XML.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// trimSpace removes leading and trailing ASCII whitespace by reslicing.
func trimSpace(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// cleanURL prepares an href for net/url the way the URL Standard's parser
// starts: leading and trailing ASCII whitespace removed, and every TAB, LF
// and CR inside removed (a URL wrapped over two lines in the source).
func cleanURL(s string) string {
	s = trimSpace(s)
	if !strings.ContainsAny(s, "\t\n\r") {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
}

// joinErr is errors.Join of two errors that keeps a lone error unwrapped.
func joinErr(a, b error) error {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	return errors.Join(a, b)
}

// resolver resolves many references against one base, as resolve does,
// with a short cut for the two forms most links of a page take: an
// absolute http or https URL and a path from the root ("/static/app.css").
// When such a reference holds only bytes that net/url keeps as they are and
// no "." or ".." segment, resolving it changes nothing but the prefix, so
// the result is built without parsing (FuzzResolver checks that it is what
// resolve returns).
type resolver struct {
	base   baseURL
	prefix string // the base's scheme://authority; "" when the short cut does not apply
}

// newResolver returns a resolver for base, which may be nil.
func newResolver(base baseURL) resolver {
	r := resolver{base: base}
	if u := base.URL; u != nil && u.Scheme != "" && u.Opaque == "" && u.Host != "" {
		r.prefix = (&url.URL{Scheme: u.Scheme, User: u.User, Host: u.Host}).String()
		if base.user != "" && u.User != nil { // the user information as written
			r.prefix = u.Scheme + "://" + base.user + "@" + r.prefix[strings.IndexByte(r.prefix, '@')+1:]
		}
	}
	return r
}

// resolve returns ref resolved against r's base, like resolve.
func (r *resolver) resolve(ref string, p *problems) string {
	if r.base.URL == nil {
		return ref
	}
	if plainuri.Absolute(ref) {
		return ref
	}
	if r.prefix != "" && plainuri.Path(ref) {
		return r.prefix + ref
	}
	return resolve(r.base, ref, p)
}
