package weblink

import (
	"net/http"
	"net/url"

	"github.com/weblinking/weblink/internal/plainuri"
	"github.com/weblinking/weblink/internal/weborigin"
)

// NextURL returns the resolved URL of resp's next page, from its first
// rel="next" link, and whether there is one.
//
// It is for callers that page by hand; package paging uses the same rule.
// It reads every Link field line and resolves against the URL of the
// request after redirects (RFC 8288 §3.1, RFC 3986 §5.2); unlike
// [ParseResponse], user information included, so that a request to a
// relative next link authenticates as the first request did.
//
// A next link with an anchor other than the page itself (or a fragment of
// it) is about another resource and is passed over. It reports false when
// there is no next link or its target is not a URI reference, and for a nil
// resp. It does not check the scheme or origin of the URL, which may be
// anything the server wrote: check them before requesting it, as package
// paging does.
// When resp.Request is nil, the URL is as written, possibly relative.
//
// With no usable next link, a caller that must tell the last page from a
// malformed header calls [ParseResponse]: it reports an error exactly when
// a link-value was dropped or a target or anchor does not resolve, so a
// next link that NextURL could not use is never lost silently.
func NextURL(resp *http.Response) (*url.URL, bool) {
	u, _ := findNext(resp)
	return u, u != nil
}

// findNext returns the next URL of resp for NextURL: the target of the
// first link with relation type "next" (compared case-insensitively) whose
// context is the page itself, from all the Link field lines of resp in
// order, resolved against the URL of the request that produced resp (RFC
// 8288 §3.1, §3.2, RFC 3986 §5.2). It gives the answer that parsing the
// whole header (ParseResponse) and taking the first such link would give,
// in one pass that stops at that link: the link-values before it are parsed
// one at a time into the same storage and dropped, and only the chosen
// target is resolved, so memory does not grow with the header. With no
// usable next link it returns nil, nil; a chosen target that is not a URI
// reference is an error.
func findNext(resp *http.Response) (*url.URL, error) {
	if resp == nil {
		return nil, nil
	}
	f := nextFinder{page: pageURL(resp.Request)}
	if target, ok := f.find(resp.Header["Link"]); ok {
		return f.resolveTarget(target)
	}
	return nil, nil
}

// find returns the target, as written, of the first link of lines with
// relation type "next" that is usable (whose context is the page), and
// whether there is one.
func (f *nextFinder) find(lines []string) (string, bool) {
	f.p.links, f.p.strs = makeBacking(1)
	f.p.kept = maxErrors // problems are counted, not kept: none is reported
	for _, v := range lines {
		for i, ok := f.p.parseOne(v, 0); ok; i, ok = f.p.parseOne(v, i) {
			l := &f.p.links[0]
			if f.usable(l.HasRel(RelNext), l.Anchor) {
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

	pageKey    string // weborigin.VisitKey(page), once keyed is set
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
		f.pageKey, f.keyed = asURI(weborigin.VisitKey(f.page)), true
	}
	resolved, _ := resolveRef(f.page, anchor)
	f.lastAnchor, f.lastIsPage, f.compared = anchor, asURI(weborigin.VisitKeyOf(resolved)) == f.pageKey, true
	return f.lastIsPage
}

// resolveTarget returns the URL of the chosen next link's target, resolved
// against the page when there is one: a plain absolute URL resolves to
// itself (plainuri.Absolute) and is parsed once.
func (f *nextFinder) resolveTarget(target string) (*url.URL, error) {
	return plainuri.ResolveURL(f.page, target)
}

// nextOf returns the first link with relation type "next" whose context is
// the page itself: no anchor, or an anchor that is the page's URL or a
// fragment of it. A next link anchored elsewhere is about another resource
// (RFC 8288 §3.2) and is not this page's next page.
func nextOf(links Links, page *http.Request) (Link, bool) {
	f := nextFinder{page: pageURL(page)}
	for i := range links {
		if f.usable(links[i].HasRel(RelNext), links[i].Anchor) {
			return links[i], true
		}
	}
	return Link{}, false
}
