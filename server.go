package weblink

import (
	"bufio"
	"context"
	"errors"
	"io"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"

	"github.com/weblinking/weblink/internal/ascii"
)

// ErrHeadersWritten is returned by [EarlyHints] when the final response head
// has already been written.
//
// A 103 (Early Hints) response can then no longer be sent: RFC 8297 §2 and
// RFC 9110 §15.2 allow interim responses only before the final one. Call
// EarlyHints before the handler calls WriteHeader, Write or Flush.
var ErrHeadersWritten = errors.New("weblink: response head already written")

// Middleware returns net/http middleware adding links to every response as
// one Link header field line (RFC 8288 §3), formatted by Add.
//
// The middleware has the func(http.Handler) http.Handler shape that chi,
// alice and the standard library use.
//
// The links are added at the moment the final response head is written —
// when the handler calls WriteHeader with a non-1xx status, or first calls
// Write, Flush or ReadFrom, or, if it wrote nothing, when it returns — so a
// handler's Header().Set("Link", ...) cannot erase them. Link lines the
// handler set itself are kept. A link equal to one the handler already set
// (under any spelling of the Link key, which net/http sends all the same),
// or to an earlier one of links, is not added again: two links are equal
// when they have the same target and anchor, as written after formatting,
// and the same set of relation types (order and case do not matter).
//
// Informational (1xx) responses the handler sends, such as a 103 from
// EarlyHints, are not the final head (RFC 9110 §15.2) and do not get the
// links. A handler that hijacks the connection gets no links either.
//
// The ResponseWriter the handler sees implements http.Flusher,
// http.Hijacker and io.ReaderFrom by passing the call to the writer it
// wraps, and Unwrap, so http.ResponseController reaches the features of the
// underlying writer. Hijack returns an error wrapping http.ErrNotSupported
// when the underlying writer cannot hijack (HTTP/2).
//
// links is copied: changing the slice afterwards does not change what is
// sent.
func Middleware(links ...Link) func(http.Handler) http.Handler {
	s := newLinkAdder(links)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.serve(next, w, r, nil)
		})
	}
}

// EarlyHintsMiddleware returns middleware that sends one 103 (Early Hints)
// interim response (RFC 8297) and adds all links to the final response as
// Middleware does.
//
// The 103 holds the links with the relation type preload, preconnect or
// modulepreload, and is sent before calling the handler. Exactly one 103 is sent, because browsers act only on the first one. It
// carries only the Link field: headers that an outer middleware set before
// (Set-Cookie, for example) stay for the final response and are not sent in
// the 103. The 103 goes only where rule 25 allows it (HTTP/2 or later, or
// HTTP/1.1 through [EarlyHintsHTTP1]). No 103 is sent either when none of
// links is such a hint, or when the request carries a Sec-Fetch-Mode
// field (W3C Fetch Metadata Request Headers) with a value other than
// navigate: that is a browser fetching a subresource or calling fetch(),
// and browsers use Early Hints only for navigations. Requests without the
// field (curl, Go clients, browsers over plain HTTP to another host) get the
// 103. The links go on the final response in every case.
//
// A browser uses a preloaded response only when it is cacheable (give it
// Cache-Control, or it is downloaded twice), and a preloaded font needs the
// crossorigin parameter (Param{Name: "crossorigin"}); docs/serving.md has
// what browsers do with a 103.
//
// links is copied: changing the slice afterwards does not change what is
// sent.
func EarlyHintsMiddleware(links ...Link) func(http.Handler) http.Handler {
	s := newLinkAdder(links)
	hints := s.hints()
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.serve(next, w, r, hints)
		})
	}
}

// EarlyHintsFunc is [EarlyHintsMiddleware] with links chosen per request:
// the page being rendered decides what to preload.
//
// For each request it calls hints(r), once and before the handler, and
// then does what EarlyHintsMiddleware(hints(r)...) does.
//
// The returned [Links] are neither changed nor kept after the response, so
// hints may return the same slice for many requests. hints runs on the
// request's goroutine and may be called concurrently. EarlyHintsFunc panics
// if hints is nil.
func EarlyHintsFunc(hints func(r *http.Request) Links) func(http.Handler) http.Handler {
	if hints == nil {
		panic("weblink: EarlyHintsFunc with a nil hints function")
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s := newLinkAdder(hints(r))
			s.serve(next, w, r, s.hints())
		})
	}
}

// EarlyHints sends a 103 (Early Hints) interim response (RFC 8297) carrying
// links, before the handler writes its final response.
//
// Browsers use it to start preloading and preconnecting while the server
// is still working; see [EarlyHintsMiddleware] for what they need.
//
// The 103 holds only one Link field line with links: net/http sends the
// whole current header map with an interim response, so EarlyHints sets
// aside every header set so far (Set-Cookie, Link lines meant for the final
// response, ...) while it sends the 103, and puts them back afterwards for
// the final response. EarlyHints with no links sends nothing.
//
// EarlyHints returns ErrHeadersWritten when the final response head was
// already written, without sending anything; this is guaranteed when w is,
// or wraps (through Unwrap methods), a writer of this package's middleware.
// net/http gives no public way to ask another writer whether its head was
// written; for those, a late 103 is dropped by net/http (which logs a
// "superfluous response.WriteHeader call") and EarlyHints returns nil. The
// final response is unharmed either way.
//
// EarlyHints cannot see the request. RFC 9110 §15.2 forbids 1xx responses
// to HTTP/1.0 clients, so call it only when r.ProtoAtLeast(1, 1), or use
// EarlyHintsMiddleware, which checks. Under this package's middleware the
// check is made for you: EarlyHints sends nothing to an HTTP/1.0 client and
// returns nil.
//
// Otherwise EarlyHints sends what it is told, over HTTP/1.1 too (rule 26);
// the middlewares are more careful (rule 25). Send a 103 over HTTP/1.1 only
// when every proxy in front passes 1xx responses on (docs/serving.md).
func EarlyHints(w http.ResponseWriter, links ...Link) error {
	if lw := findLinkWriter(w); lw != nil {
		switch {
		case lw.hijacked:
			return http.ErrHijacked
		case lw.wroteHeader:
			return ErrHeadersWritten
		case !lw.interim:
			return nil
		}
	}
	if len(links) == 0 {
		return nil
	}
	sendEarlyHints(w, links)
	return nil
}

// sendEarlyHints writes a 103 whose only header is one Link line holding
// links. It empties w.Header() for the duration of the WriteHeader call and
// restores it afterwards, even if WriteHeader panics; writeInterim makes
// sure net/http is done with the map when WriteHeader returns.
func sendEarlyHints(w http.ResponseWriter, links Links) {
	h := w.Header()
	saved := maps.Clone(h)
	clear(h)
	defer func() {
		clear(h)
		maps.Copy(h, saved)
	}()
	Add(h, links...)
	writeInterim(w, http.StatusEarlyHints)
}

// writeInterim writes the informational (1xx) response code with the
// current header of w, such that net/http no longer reads the header map
// once WriteHeader has returned.
//
// net/http's HTTP/2 server hands the handler's own header map to its frame
// writer goroutine to encode a 1xx response, and its WriteHeader returns as
// soon as the stream closes, even while that goroutine is still encoding
// the map (golang/go#67940). A client that resets the stream after the
// first 103 (a browser navigating away, a cancelled request) thus left the
// next change to the map — putting the header back after a 103, adding the
// final response's links, the handler's own Header().Set — racing with the
// encoder: a data race, and at worst "fatal error: concurrent map iteration
// and map write", which no recover catches and which kills the server.
//
// For a 1xx response, net/http (and golang.org/x/net/http2) encode a clone
// of the header map instead of the map itself when it holds a
// Content-Length or Transfer-Encoding key, and delete those keys from the
// clone; the clone is made on the handler's goroutine, before WriteHeader
// queues the frame. So a Content-Length key with no value, present only
// during the call, makes net/http encode a copy that nobody else changes.
// HTTP/1.1 writes a 1xx response before WriteHeader returns and leaves
// Content-Length out of it; a key with no value writes nothing anyway.
// TestEarlyHintsHTTP2Cancel reproduces the race, under -race, if this
// stops working.
func writeInterim(w http.ResponseWriter, code int) {
	h := w.Header()
	if _, ok := h["Content-Length"]; !ok && h != nil {
		h["Content-Length"] = nil
		defer delete(h, "Content-Length")
	}
	w.WriteHeader(code)
}

// findLinkWriter returns the *linkWriter that w is or wraps, following
// Unwrap methods the way http.ResponseController does, or nil.
func findLinkWriter(w http.ResponseWriter) *linkWriter {
	for w != nil {
		switch t := w.(type) {
		case *linkWriter:
			return t
		case interface{ Unwrap() http.ResponseWriter }:
			w = t.Unwrap()
		default:
			return nil
		}
	}
	return nil
}

// linkAdder is the links of one middleware (of one request, under
// EarlyHintsFunc), with the keys that de-duplication compares, computed
// once.
type linkAdder struct {
	links Links
	keys  []linkKey
}

// linkKey identifies a link for de-duplication: target and anchor as a
// receiver parses them back, and the sorted, de-duplicated relation types.
type linkKey struct {
	target, anchor, rels string
}

func newLinkAdder(links []Link) *linkAdder {
	s := &linkAdder{links: slices.Clone(Links(links)), keys: make([]linkKey, 0, len(links))}
	var p Parser // a throwaway parse a link: keyOf copies what it keeps
	for _, l := range s.links {
		// Compare in the form a receiver sees: what the formatter writes,
		// parsed back (it percent-encodes, lower-cases relation types, ...).
		if parsed, err := p.Parse(l.String()); err == nil && len(parsed) == 1 {
			l = parsed[0]
		}
		s.keys = append(s.keys, keyOf(l))
	}
	return s
}

func keyOf(l Link) linkKey {
	// A link has a relation type or two: they are sorted in an array on
	// the stack (a make of a variable length is on the heap before Go 1.25).
	var buf [4]string
	rels := buf[:0]
	for _, r := range l.Rel {
		rels = append(rels, ascii.Lower(r))
	}
	slices.Sort(rels)
	rels = slices.Compact(rels)
	return linkKey{target: l.Target, anchor: l.Anchor, rels: strings.Join(rels, " ")}
}

// hints returns the links of s that belong in a 103: those with the
// relation type preload, preconnect or modulepreload.
func (s *linkAdder) hints() Links {
	var hints Links
	for _, l := range s.links {
		if l.HasRel(RelPreload) || l.HasRel(RelPreconnect) || l.HasRel(RelModulePreload) {
			hints = append(hints, l)
		}
	}
	return hints
}

// EarlyHintsHTTP1 returns h with its requests allowed to get the 103 of
// [EarlyHintsMiddleware] and [EarlyHintsFunc] over HTTP/1.1 too (rule 25).
//
// Use it behind a reverse proxy that passes a 103 on, such as Apache's
// mod_proxy_http or Caddy; never behind one that does not (nginx before
// 1.29 with proxy_http_version 1.1), which breaks every page.
//
// It marks the request's context, so it must wrap the middleware, not the
// other way round:
//
//	handler := weblink.EarlyHintsHTTP1(weblink.EarlyHintsMiddleware(links...)(site))
func EarlyHintsHTTP1(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ProtoMajor == 1 && r.ProtoMinor >= 1 && r.Context().Value(http1HintsKey{}) == nil {
			r = r.WithContext(context.WithValue(r.Context(), http1HintsKey{}, true))
		}
		h.ServeHTTP(w, r)
	})
}

// http1HintsKey is the context key with which EarlyHintsHTTP1 marks a
// request.
type http1HintsKey struct{}

// mayHint reports whether the middlewares send their 103 to r (rule 25):
// over HTTP/2 or later, or over HTTP/1.1 through EarlyHintsHTTP1.
func mayHint(r *http.Request) bool {
	if r.ProtoMajor >= 2 {
		return true
	}
	return r.ProtoAtLeast(1, 1) && r.Context().Value(http1HintsKey{}) != nil
}

// serve runs next with a writer that adds the links of s to the final
// response head, after sending hints in a 103 when there are some and the
// request may get one.
func (s *linkAdder) serve(next http.Handler, w http.ResponseWriter, r *http.Request, hints Links) {
	lw := &linkWriter{w: w, role: s, interim: r.ProtoAtLeast(1, 1)}
	if len(hints) > 0 && mayHint(r) && navigation(r) {
		sendEarlyHints(lw, hints)
	}
	next.ServeHTTP(lw, r)
	lw.writeLinks()
}

// navigation reports whether r may be a navigation, the only requests for
// which browsers act on Early Hints: true unless r carries a Sec-Fetch-Mode
// field whose value is not navigate. In W3C Fetch Metadata Request Headers,
// Sec-Fetch-Mode is a structured header whose value is a token (cors,
// navigate, no-cors, same-origin or websocket), and tokens are
// case-sensitive; a field in more than one line is not one token, so not
// navigate.
func navigation(r *http.Request) bool {
	mode, ok := r.Header["Sec-Fetch-Mode"]
	return !ok || len(mode) == 1 && strings.Trim(mode[0], " \t") == "navigate"
}

// linkWriter is the http.ResponseWriter that Middleware,
// EarlyHintsMiddleware, EarlyHintsFunc and MaxLinkBytes give to the
// handler. Its role does what one of them does to a head about to be
// written.
type linkWriter struct {
	w    http.ResponseWriter
	role headRole

	interim     bool // the request may get 1xx responses (HTTP/1.1 or later)
	wroteHeader bool // the final head was written (or is being written)
	hijacked    bool // the handler took over the connection
}

// headRole is what a linkWriter does to the heads of one response: a
// *linkAdder adds its links to the final head; a requestBudget budgets
// the Link field of every head.
type headRole interface {
	// final changes h, the header of the final head about to be written.
	final(h http.Header)
	// interim writes the 1xx response code with the header of w, changed
	// as the role changes heads.
	interim(w http.ResponseWriter, code int)
}

// writeLinks lets the role change the final head, once, when it is about
// to be written. The head counts as written only once the role has
// returned: after a panic (MaxLinkBytes's dropped function), nothing was
// written.
func (lw *linkWriter) writeLinks() {
	if lw.wroteHeader || lw.hijacked {
		return
	}
	lw.role.final(lw.w.Header())
	lw.wroteHeader = true
}

// final adds the links of s that are not already in h to it as one Link
// line.
func (s *linkAdder) final(h http.Header) {
	var have []linkKey
	var p Parser // keyOf copies what it keeps
	for k, lines := range h {
		if !isLinkKey(k) {
			continue // "Link" in any case, which net/http sends all the same
		}
		for _, v := range lines {
			// Malformed link-values are dropped by the parser; the links
			// that remain are what a receiver would see, so compare with
			// those and ignore the error.
			existing, _ := p.Parse(v)
			for _, l := range existing {
				have = append(have, keyOf(l))
			}
		}
	}
	var add Links
	for i, l := range s.links {
		k := s.keys[i]
		if slices.Contains(have, k) {
			continue
		}
		have = append(have, k)
		add = append(add, l)
	}
	Add(h, add...)
}

// interim passes the handler's 1xx response through: links go to the
// final head only.
func (s *linkAdder) interim(w http.ResponseWriter, code int) { writeInterim(w, code) }

// Header returns the header map of the wrapped writer.
func (lw *linkWriter) Header() http.Header { return lw.w.Header() }

// WriteHeader adds the links before a final (non-1xx, or 101) status is
// written. Interim responses pass through untouched, as net/http sends them
// without ending the head.
func (lw *linkWriter) WriteHeader(code int) {
	if code < 100 || code > 199 || code == http.StatusSwitchingProtocols {
		lw.writeLinks()
		lw.w.WriteHeader(code)
		return
	}
	// The handler's own 1xx response: writeLinks changes the header map
	// later, which net/http must not be reading then. After the final
	// head or a hijack, net/http writes no head, so there is nothing to
	// budget.
	if !lw.wroteHeader && !lw.hijacked {
		lw.role.interim(lw.w, code)
		return
	}
	writeInterim(lw.w, code)
}

// Write adds the links before the first body bytes make net/http write the
// head.
func (lw *linkWriter) Write(b []byte) (int, error) {
	lw.writeLinks()
	return lw.w.Write(b)
}

// ReadFrom adds the links, then copies from r with the wrapped writer's
// ReadFrom when it has one (net/http uses sendfile for files).
func (lw *linkWriter) ReadFrom(r io.Reader) (int64, error) {
	lw.writeLinks()
	if rf, ok := lw.w.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(lw.w, r)
}

// Flush implements http.Flusher: it adds the links and flushes the wrapped
// writer, ignoring the error that FlushError reports.
func (lw *linkWriter) Flush() { _ = lw.FlushError() }

// FlushError adds the links and flushes the wrapped writer, returning its
// error; http.ResponseController.Flush calls it. The error wraps
// http.ErrNotSupported when the wrapped writer cannot flush (the writer of
// http.TimeoutHandler, for one): then no head is written, so the links are
// not added yet, and a Link field the handler sets afterwards still gets
// them, and the budget.
func (lw *linkWriter) FlushError() error {
	if canFlush(lw.w) {
		lw.writeLinks()
	}
	return http.NewResponseController(lw.w).Flush()
}

// canFlush reports whether http.ResponseController can flush w: whether w,
// or a writer it wraps (through Unwrap methods), has a FlushError or Flush
// method, which is what the controller looks for.
func canFlush(w http.ResponseWriter) bool {
	for w != nil {
		switch t := w.(type) {
		case interface{ FlushError() error }, http.Flusher:
			return true
		case interface{ Unwrap() http.ResponseWriter }:
			w = t.Unwrap()
		default:
			return false
		}
	}
	return false
}

// Hijack implements http.Hijacker by hijacking the wrapped writer; links are
// not added to a hijacked connection. The error wraps http.ErrNotSupported
// when the wrapped writer cannot hijack, as with HTTP/2.
func (lw *linkWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, rw, err := http.NewResponseController(lw.w).Hijack()
	if err == nil {
		lw.hijacked = true
	}
	return conn, rw, err
}

// Unwrap returns the wrapped writer, for http.ResponseController.
func (lw *linkWriter) Unwrap() http.ResponseWriter { return lw.w }
