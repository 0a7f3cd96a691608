package weblink

import (
	"net/url"
	"strconv"
	"strings"
)

// PageLinks builds first, prev, next and last links for page of a paged
// collection at u, whose query parameter param holds the page number.
//
// Pages count from 1 and last is the last page. Other query parameters are
// kept; prev is omitted on page 1 and next on the last page. The links come
// in the order first, prev, next, last; add them to a response with [Add]:
//
//	weblink.Add(w.Header(), weblink.PageLinks(r.URL, "page", page, last)...)
//
// The targets are absolute when u is and relative when u is (the r.URL of a
// server request is relative: a path and query, which a client resolves
// against the request URL, RFC 8288 §3.1). Every other query parameter is
// kept as written, repeated ones too, in their original order, rather than
// re-encoded with url.Values, which would sort them. The page parameter
// takes the place of its first occurrence in u (repeats of it are dropped)
// or is appended when u has none. Empty query elements and the fragment are
// dropped.
//
// PageLinks returns nil for a nil u, an empty param, or page numbers that
// make no sense: page < 1, last < 1 or page > last.
func PageLinks(u *url.URL, param string, page, last int) Links {
	if u == nil || param == "" || page < 1 || last < 1 || page > last {
		return nil
	}
	var before, after []string // query elements around the page parameter
	seen := false
	for _, elem := range strings.Split(u.RawQuery, "&") {
		if elem == "" {
			continue
		}
		key, _, _ := strings.Cut(elem, "=")
		if k, err := url.QueryUnescape(key); err == nil {
			key = k
		}
		switch {
		case key == param:
			seen = true
		case seen:
			after = append(after, elem)
		default:
			before = append(before, elem)
		}
	}
	prefix := strings.Join(before, "&")
	if prefix != "" {
		prefix += "&"
	}
	prefix += url.QueryEscape(param) + "="
	suffix := strings.Join(after, "&")
	if suffix != "" {
		suffix = "&" + suffix
	}

	target := func(n int) string {
		v := *u
		v.Fragment, v.RawFragment = "", ""
		v.RawQuery = prefix + strconv.Itoa(n) + suffix
		v.ForceQuery = false
		return v.String()
	}
	links := Links{{Target: target(1), Rel: []string{RelFirst}}}
	if page > 1 {
		links = append(links, Link{Target: target(page - 1), Rel: []string{RelPrev}})
	}
	if page < last {
		links = append(links, Link{Target: target(page + 1), Rel: []string{RelNext}})
	}
	return append(links, Link{Target: target(last), Rel: []string{RelLast}})
}
