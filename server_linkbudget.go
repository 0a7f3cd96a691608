package weblink

import (
	"maps"
	"net/http"
	"slices"

	"github.com/weblinking/weblink/internal/ascii"
)

// MaxLinkBytes returns middleware that keeps the Link fields of every
// response head within n bytes, for proxies that refuse a larger head.
//
// Each head, final or 1xx, is budgeted as rule 27 says: within n its Link
// lines are left byte for byte; beyond it they become one Link line with
// the longest prefix of their links that fits. Under http.TimeoutHandler,
// Flush writes nothing and so budgets nothing. n < 1 means no budget: the
// handler is returned unchanged.
//
// dropped (when not nil) is called as rule 28 says, with the request and
// the links left out, on the handler's goroutine, possibly concurrently
// for different requests. If it panics, the panic propagates from the call
// that was writing the head, and net/http's usual recovery ends the
// response without a head.
//
// Place it outermost, so that it sees the links that every inner
// middleware adds and those of the 103 responses:
//
//	handler := weblink.MaxLinkBytes(3500, logDropped)(weblink.EarlyHintsMiddleware(links...)(site))
//
// The ResponseWriter the handler sees supports http.Flusher,
// http.Hijacker, io.ReaderFrom and http.ResponseController (Unwrap) as the
// one of [Middleware] does; a hijacked connection is not budgeted.
func MaxLinkBytes(n int, dropped func(r *http.Request, dropped Links)) func(http.Handler) http.Handler {
	if n < 1 {
		return func(next http.Handler) http.Handler { return next }
	}
	b := &linkBudget{n: n, dropped: dropped}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			lw := &linkWriter{w: w, role: requestBudget{b, r}, interim: r.ProtoAtLeast(1, 1)}
			next.ServeHTTP(lw, r)
			lw.writeLinks()
		})
	}
}

// requestBudget is the headRole of MaxLinkBytes: the budget b applied to
// the heads of the response to r.
type requestBudget struct {
	b *linkBudget
	r *http.Request
}

func (rb requestBudget) final(h http.Header) { rb.b.apply(h, rb.r) }

func (rb requestBudget) interim(w http.ResponseWriter, code int) { rb.b.interim(w, rb.r, code) }

// linkBudget is the budget of one MaxLinkBytes middleware.
type linkBudget struct {
	n       int
	dropped func(r *http.Request, dropped Links)
}

// apply budgets the Link field of h, the header of a head about to be
// written for r: the lines of every key that is "Link" in any case, since
// net/http writes a "link" key set directly in the map as it is (rule 27).
// It returns those keys' lines as they were and whether it replaced them.
// dropped is called before h is changed, so that a panic leaves h as it
// was.
func (b *linkBudget) apply(h http.Header, r *http.Request) (saved http.Header, changed bool) {
	size := 0
	for k, lines := range h {
		if isLinkKey(k) {
			for _, v := range lines {
				size += len(v)
			}
		}
	}
	if size <= b.n {
		return nil, false
	}
	saved = make(http.Header)
	for k, lines := range h {
		if isLinkKey(k) {
			saved[k] = lines
		}
	}
	kept, left, lost := budgetLinks(linkLines(saved), b.n, b.dropped != nil)
	if lost && b.dropped != nil {
		b.dropped(r, left)
	}
	for k := range saved {
		delete(h, k)
	}
	if kept != "" {
		h["Link"] = []string{kept}
	}
	return saved, true
}

// isLinkKey reports whether the header map key k names the Link field:
// field names are case-insensitive (RFC 9110 §5.1).
func isLinkKey(k string) bool { return ascii.EqualFold(k, "Link") }

// linkLines returns the lines of the keys of h in the order net/http
// writes them: keys sorted by their bytes (as Header.Write and its HTTP/2
// server do), then each key's lines in order.
func linkLines(h http.Header) []string {
	keys := slices.Sorted(maps.Keys(h))
	if len(keys) == 1 {
		return h[keys[0]]
	}
	var lines []string
	for _, k := range keys {
		lines = append(lines, h[k]...)
	}
	return lines
}

// interim writes the informational response code through w with the
// field budgeted, and puts the field lines back for the heads to come.
func (b *linkBudget) interim(w http.ResponseWriter, r *http.Request, code int) {
	h := w.Header()
	saved, changed := b.apply(h, r)
	if changed {
		defer func() {
			delete(h, "Link")
			for k, lines := range saved {
				h[k] = lines
			}
		}()
	}
	writeInterim(w, code)
}

// budgetLinks returns the field value holding the longest prefix of the
// links of lines whose Links.String is at most n bytes long, and whether
// anything was left out: a link, or a malformed link-value or parameter
// (rule 8). When report is set, it also returns the links left out.
//
// The links are parsed one at a time into one reused Link, and formatted
// only while they fit, so that a field of any size costs the n bytes of
// the result and the largest link-value; the links left out are parsed
// again into a list only when they are reported.
func budgetLinks(lines []string, n int, report bool) (kept string, left Links, lost bool) {
	var p parser
	p.links, p.strs = makeBacking(1)
	b := make([]byte, 0, n)
	for li, line := range lines {
		for i, next, ok := 0, 0, true; ; i = next {
			if next, ok = p.parseOne(line, i); !ok {
				break
			}
			mark := len(b)
			if mark > 0 {
				b = append(b, ", "...)
			}
			if b = p.links[0].appendTo(b); len(b) > n {
				// This link and every one after it are left out.
				if report {
					rest := append([]string{line[i:]}, lines[li+1:]...)
					left, _ = ParseHeader(http.Header{"Link": rest})
				}
				return string(b[:mark]), left, true
			}
			p.reuse()
		}
	}
	return string(b), nil, len(p.errs) > 0 || p.more > 0
}
