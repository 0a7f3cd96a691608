package weblink

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/weblinking/weblink/internal/linkscan"
	"github.com/weblinking/weblink/internal/plainuri"
)

// findNext returns the next URL of resp for NextURL and Pages: the target
// of the first link with relation type "next" (compared case-insensitively)
// whose context is the page itself, from all the Link field lines of resp
// in order, resolved against the URL of the request that produced resp
// (RFC 8288 §3.1, §3.2, RFC 3986 §5.2). It gives the answer that parsing the
// whole header (ParseResponse) and taking the first such link would give,
// in one pass that stops at that link: the link-values before it are parsed
// one at a time into the same storage and dropped, only the chosen target
// is resolved, and title* and name* values are not decoded, as they do not
// decide which link is chosen. So memory does not grow with the header.
//
// With no usable next link it returns nil, and, when explain is set and
// ParseResponse would have reported a problem (a malformed link-value, a
// star parameter that does not decode, a target or anchor that net/url
// cannot parse), an error wrapping ErrNextLink and those problems, built in
// a second pass only then. A chosen target that is not a URI reference is
// an error wrapping ErrNextLink whatever explain says.
func findNext(resp *http.Response, explain bool) (*url.URL, error) {
	if resp == nil {
		return nil, nil
	}
	f := nextFinder{page: pageURL(resp.Request)}
	lines := resp.Header["Link"]
	if target, ok := f.find(lines); ok {
		return f.resolveTarget(resp, target)
	}
	if !explain || f.p.more == 0 && !f.p.undecoded && f.page == nil {
		// With a page, a target or anchor may not resolve: explain
		// finds out.
		return nil, nil
	}
	return nil, f.explain(resp, lines)
}

// find returns the target, as written, of the first link of lines with
// relation type "next" that is usable (whose context is the page), and
// whether there is one.
func (f *nextFinder) find(lines []string) (string, bool) {
	f.p.find = true
	f.p.links, f.p.strs = makeBacking(1)
	for _, v := range lines {
		for i, ok := f.p.parseOne(v, 0); ok; i, ok = f.p.parseOne(v, i) {
			l := &f.p.links[0]
			if f.usable(f.p.isNext, l.Anchor) {
				return l.Target, true
			}
			f.p.reuse()
		}
	}
	return "", false
}

// nextFinder is the state of findNext.
type nextFinder struct {
	p    parser
	page *url.URL // the URL of the page, the base URI; nil: none, anchors are not checked

	pageKey    string // visitKey(page), once keyed is set
	keyed      bool
	lastAnchor string // the last anchor compared with the page, and whether it was the page
	lastIsPage bool
	compared   bool
}

// pageURL returns the URL of the request that produced a page, or nil.
func pageURL(req *http.Request) *url.URL {
	if req == nil {
		return nil
	}
	return req.URL
}

// usable reports whether a link is a next link of the page: it has the
// relation type "next" (isNext), and no anchor, or an anchor that is the
// page's URL or a fragment of it once resolved against it, compared as
// Pages compares visited pages (visitKey) with the bytes no URI holds
// percent-encoded (rule 32). A next link anchored elsewhere is
// about another resource (RFC 8288 §3.2) and is not this page's next page.
func (f *nextFinder) usable(isNext bool, anchor string) bool {
	if !isNext {
		return false
	}
	if anchor == "" || f.page == nil {
		return true
	}
	// Servers repeat the same anchor on every link; compare it once.
	if f.compared && anchor == f.lastAnchor {
		return f.lastIsPage
	}
	// Both keys as rule 32 writes a URI: a byte of the request URL that no
	// URI holds (a raw space in its query) is %20 in an anchor resolved
	// from "?a b", and raw in one resolved from "#f".
	if !f.keyed {
		f.pageKey, f.keyed = asURI(visitKey(f.page)), true
	}
	resolved, _ := resolveRef(f.page, anchor)
	f.lastAnchor, f.lastIsPage, f.compared = anchor, asURI(visitKeyOf(resolved)) == f.pageKey, true
	return f.lastIsPage
}

// resolveTarget returns the URL of the chosen next link's target, resolved
// against the page when there is one: a plain absolute URL resolves to
// itself (plainuri.Absolute) and is parsed once.
func (f *nextFinder) resolveTarget(resp *http.Response, target string) (*url.URL, error) {
	if u := plainuri.URL(target); u != nil {
		return u, nil // resolves to itself, and needs no url.Parse
	}
	ref, err := plainuri.Parse(target) // keeps every %HH as written (rule 32)
	if err == nil && f.page != nil && !plainuri.Absolute(target) {
		ref = f.page.ResolveReference(ref)
	}
	if err != nil {
		return nil, fmt.Errorf("%w in %s: the next link target is not a URI reference: %w", ErrNextLink, pageName(f.page), err)
	}
	return ref, nil
}

// pageName names the page for an error message.
func pageName(page *url.URL) string {
	if page == nil {
		return "the response"
	}
	return showURL(page)
}

// explain parses the Link field lines again, recording what ParseResponse
// would report: the problems of each line (at most maxErrors in detail over
// all lines, the rest counted), then the targets and anchors that net/url
// cannot parse. It returns nil when there are none.
func (f *nextFinder) explain(resp *http.Response, lines []string) error {
	var p parser
	p.links, p.strs = makeBacking(1)
	var lineErrs, resolveErrs []error
	unresolved := 0
	for n, v := range lines {
		for i, ok := p.parseOne(v, 0); ok; i, ok = p.parseOne(v, i) {
			if f.page != nil {
				l := &p.links[0]
				for _, ref := range [...]string{l.Target, l.Anchor} {
					if ref == "" || surelyParses(ref) {
						continue
					}
					if _, err := resolveRef(f.page, ref); err != nil {
						if unresolved++; len(resolveErrs) < maxErrors {
							resolveErrs = append(resolveErrs, err)
						}
					}
				}
			}
			p.reuse()
		}
		if err := p.err(n + 1); err != nil {
			lineErrs = append(lineErrs, err)
		}
		p.kept += len(p.errs)
		p.errs, p.more = p.errs[:0], 0
	}
	if len(lineErrs) == 0 && unresolved == 0 {
		return nil
	}
	if unresolved > len(resolveErrs) {
		resolveErrs = append(resolveErrs, &linkscan.More{N: unresolved - len(resolveErrs)})
	}
	var perr error
	if f.page != nil {
		perr = errors.Join(errors.Join(lineErrs...), errors.Join(resolveErrs...))
	} else {
		perr = errors.Join(lineErrs...)
	}
	return fmt.Errorf("%w in %s; it may be the last page, or the next link may be the broken part: %w", ErrNextLink, pageName(f.page), perr)
}

// surelyParses reports, without allocating, whether url.Parse accepts ref
// for certain: no ASCII control character, every "%" followed by two hex
// digits, and no scheme, authority or colon in the first path segment
// (which is where url.Parse finds the rest of its errors), or else a plain
// absolute http or https URL (plainuri.Absolute). A false result only means
// that url.Parse must be asked.
func surelyParses(ref string) bool {
	for i := 0; i < len(ref); i++ {
		c := ref[i]
		switch {
		case c < 0x20 || c == 0x7f:
			return false
		case c == '%' && !escapeAt(ref, i):
			return false
		}
	}
	for i := 0; i < len(ref); i++ {
		switch ref[i] {
		case ':':
			return plainuri.Absolute(ref)
		case '/', '?', '#':
			return ref[i] != '/' || i+1 == len(ref) || ref[i+1] != '/' || i > 0
		}
	}
	return true
}
