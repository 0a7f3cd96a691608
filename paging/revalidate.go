package paging

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/ascii"
	"github.com/weblinking/weblink/internal/quote"
	"github.com/weblinking/weblink/internal/weborigin"
)

// ErrNotModified is returned, wrapped with the page's URL, when a 304 Not
// Modified to a request that [Revalidate] made conditional does not fit
// the stored page (see rule 22).
var ErrNotModified = errors.New("paging: a 304 Not Modified that does not match the stored page")

// maxStoredBody is the largest body that [Revalidate] stores (rule 23): a
// page is read whole into memory before it is yielded to be stored.
const maxStoredBody = 8 << 20

// maxETag is the longest entity tag that [Revalidate] stores and sends
// back: GitHub's are under 70 bytes; one of a mebibyte is not a validator.
const maxETag = 512

// Revalidate makes [Pages] and [Items] keep the pages they fetch in store
// and request them again conditionally, reading unchanged pages from it.
//
// A page that has not changed is answered 304 Not Modified and read from
// the store (RFC 9110 §13.1, RFC 9111 §4.3): a re-sync of a collection
// then costs the requests, not the bodies, and on GitHub not even the rate
// limit. It is yielded as a 200 OK with its stored body; [Revalidated]
// tells it. See rules 20 to 26 for the keys (never shared between
// credentials), the validators, and the store's errors, which never end
// paging. A nil store means no revalidation. [NewMemoryStore] is a store
// in memory for one process.
//
// With [WaitRateLimits] or a [RateLimiter], a 304 still takes a request
// from the limiter's count, though GitHub does not charge it: a re-sync
// may wait for a reset while the API has requests left (the known
// limitation of the package doc's "Re-syncing", which says what to do).
func Revalidate(store PageStore) Option {
	return func(c *config) { c.store = store }
}

// Revalidated reports whether resp, a page that [Pages] yielded, was read
// from the [PageStore] of [Revalidate] after a 304 Not Modified (see rule
// 22).
func Revalidated(resp *http.Response) bool {
	if resp == nil {
		return false
	}
	_, ok := resp.Body.(*revalidatedBody)
	return ok
}

// revalidatedBody is the body of a page rebuilt from the store after a 304.
type revalidatedBody struct{ bytes.Reader }

func (*revalidatedBody) Close() error { return nil }

// do sends req, revalidating it with the store of [Revalidate] when there
// is one (rules 20 to 26), and returns the response as client.Do does: a
// 304 Not Modified to validators taken from the store becomes the stored
// page, a 200 that may be stored is read into memory and stored.
func (p *pager) do(req *http.Request) (*http.Response, error) {
	store := p.cfg.store
	if store == nil || req.Method == http.MethodHead {
		return p.client.Do(req)
	}
	key := p.pageKey(req)
	stored, ok := p.storedPage(req, key)
	send := req
	if ok {
		send = req.WithContext(req.Context()) // a shallow copy, whose header changes
		send.Header = req.Header.Clone()
		if send.Header == nil {
			send.Header = make(http.Header)
		}
		if etag := stored.Header.Get("ETag"); etag != "" {
			send.Header.Set("If-None-Match", etag)
		}
		if lm := stored.Header.Get("Last-Modified"); lm != "" {
			send.Header.Set("If-Modified-Since", lm)
		}
	}
	resp, err := p.client.Do(send)
	if err != nil {
		return nil, err
	}
	if resp.Request == nil {
		resp.Request = send
	}
	if ok && resp.StatusCode == http.StatusNotModified {
		return notModified(stored, resp)
	}
	if storable(req, resp) {
		p.keep(key, resp)
	}
	return resp, nil
}

// pageKey returns the key of the page req asks for (rule 20): its URL
// without user information or fragment, and a SHA-256 of its credentials,
// which are never stored: every header field that [Pages] treats as one
// (all but Accept, Accept-Encoding, Accept-Language, Cache-Control, Pragma
// and User-Agent, under any spelling; the conditional fields excepted),
// the URL's user information, and the cookies of the client's Jar.
func (p *pager) pageKey(req *http.Request) string {
	var fields []string
	for name, values := range req.Header {
		if weborigin.IsShared(name) || isConditional(name) {
			continue
		}
		canon := http.CanonicalHeaderKey(name)
		for _, v := range values {
			fields = append(fields, canon+":"+v)
		}
	}
	if req.URL.User != nil {
		fields = append(fields, "userinfo:"+req.URL.User.String())
	}
	if jar := p.client.Jar; jar != nil {
		for _, c := range jar.Cookies(req.URL) {
			fields = append(fields, "jar:"+c.Name+"="+c.Value)
		}
	}
	slices.Sort(fields)
	h := sha256.New()
	var n [8]byte
	for _, f := range fields { // length-prefixed: no two lists hash alike
		binary.BigEndian.PutUint64(n[:], uint64(len(f)))
		h.Write(n[:])
		h.Write([]byte(f))
	}
	return quote.Redacted(req.URL) + " " + hex.EncodeToString(h.Sum(nil))
}

// isConditional reports whether name is a precondition field (RFC 9110
// §13.1), which the key of a page leaves out.
func isConditional(name string) bool {
	for _, c := range [...]string{"If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range"} {
		if ascii.EqualFold(name, c) {
			return true
		}
	}
	return false
}

// storedPage returns the page stored under key that req may revalidate
// (rules 21, 24 and 26): none when the caller set a validator of its own,
// when the stored page was the last one, or when the store fails or holds
// a page that is not sound, which is reported as a store error.
func (p *pager) storedPage(req *http.Request, key string) (StoredPage, bool) {
	if req.Header.Get("If-None-Match") != "" || req.Header.Get("If-Modified-Since") != "" {
		return StoredPage{}, false // the caller's own conditional request
	}
	sp, ok, err := p.cfg.store.Get(req.Context(), key)
	if err != nil {
		p.cfg.storeError(fmt.Errorf("paging: page store: reading %s: %w", quote.URL(req.URL), err))
		return StoredPage{}, false
	}
	if !ok {
		return StoredPage{}, false
	}
	if err := checkStored(sp); err != nil {
		p.cfg.storeError(fmt.Errorf("paging: page store: the page stored for %s is not used: %w", quote.URL(req.URL), err))
		return StoredPage{}, false
	}
	return sp, !wasLast(sp)
}

// checkStored checks a page read from a store: a URL, validators that
// could have been stored, a body as long as its Content-Length says, and a
// header fit to be sent (no control bytes): a store is a file or a server,
// and its page may be truncated or corrupt.
func checkStored(sp StoredPage) error {
	if _, err := requestURL(sp.URL); err != nil {
		return err
	}
	if !hasValidator(sp.Header) {
		return errors.New("no valid ETag or Last-Modified")
	}
	if cl := sp.Header.Values("Content-Length"); len(cl) > 0 {
		if n, err := strconv.ParseInt(cl[0], 10, 64); err != nil || len(cl) > 1 || n != int64(len(sp.Body)) {
			return fmt.Errorf("body of %d bytes, Content-Length %s: truncated or corrupt", len(sp.Body), quote.Value(strings.Join(cl, ", ")))
		}
	}
	if len(sp.Body) > maxStoredBody {
		return fmt.Errorf("body of %d bytes, more than a page stored may hold", len(sp.Body))
	}
	for name, values := range sp.Header {
		if !ascii.IsToken(name) {
			return fmt.Errorf("header field name %s", quote.Value(name))
		}
		for _, v := range values {
			if !fieldValue(v) {
				return fmt.Errorf("header field %s with a control byte", name)
			}
		}
	}
	return nil
}

// requestURL parses the stored URL of a page, which must be an absolute
// http or https URL.
func requestURL(s string) (*http.Request, error) {
	req, err := http.NewRequest(http.MethodGet, s, nil)
	if err != nil {
		return nil, fmt.Errorf("stored URL %s: %w", quote.Value(s), err)
	}
	if !isHTTP(req.URL) {
		return nil, fmt.Errorf("stored URL %s is not an http or https URL", quote.Value(s))
	}
	return req, nil
}

// fieldValue reports whether v has no control byte but HTAB (RFC 9110
// §5.5): nothing that can end a field or a line.
func fieldValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// wasLast reports whether sp was the last page: its stored header has no
// next link (rule 24).
func wasLast(sp StoredPage) bool {
	req, err := requestURL(sp.URL)
	if err != nil {
		return true
	}
	_, ok := weblink.NextURL(&http.Response{Header: sp.Header, Request: req})
	return !ok
}

// hasValidator reports whether h has a single ETag that may be stored
// (validETag) or a single Last-Modified that is an HTTP-date.
func hasValidator(h http.Header) bool {
	etag, lm := h.Values("ETag"), h.Values("Last-Modified")
	if len(etag) > 1 || len(lm) > 1 || len(etag) == 1 && !validETag(etag[0]) {
		return false
	}
	if len(lm) == 1 {
		if _, err := http.ParseTime(lm[0]); err != nil || len(lm[0]) > 64 {
			return false
		}
	}
	return len(etag)+len(lm) > 0
}

// validETag reports whether s is an entity-tag of at most maxETag bytes
// (RFC 9110 §8.8.3):
//
//	entity-tag = [ weak ] opaque-tag
//	weak       = %s"W/"
//	opaque-tag = DQUOTE *etagc DQUOTE
//	etagc      = %x21 / %x23-7E / obs-text
func validETag(s string) bool {
	s = strings.TrimPrefix(s, "W/")
	if len(s) < 2 || len(s) > maxETag || s[0] != '"' || s[len(s)-1] != '"' {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; c < 0x21 || c == '"' || c == 0x7f {
			return false
		}
	}
	return true
}

// storable reports whether resp, the response to req, may be stored (rule
// 23): a 200 to a GET, with a validator, without Cache-Control: no-store
// or Vary: *, and a body that is not known to be too large.
func storable(req *http.Request, resp *http.Response) bool {
	return resp.StatusCode == http.StatusOK && req.Method != http.MethodHead &&
		hasValidator(resp.Header) && !hasElement(resp.Header["Cache-Control"], "no-store") &&
		!hasElement(resp.Header["Vary"], "*") && resp.ContentLength <= maxStoredBody
}

// hasElement reports whether a comma-separated list field (RFC 9110 §5.6.1)
// has the element name, compared case-insensitively, with or without a
// "=value".
func hasElement(values []string, name string) bool {
	for _, v := range values {
		for _, e := range strings.Split(v, ",") {
			e, _, _ = strings.Cut(e, "=")
			if ascii.EqualFold(strings.TrimSpace(e), name) {
				return true
			}
		}
	}
	return false
}

// keep reads the body of resp, a page that may be stored, into memory,
// gives resp a body that reads from there, and stores the page under key
// (rule 23). A body larger than maxStoredBody, or whose read fails, is not
// stored, and its resp.Body still reads what the network sends.
func (p *pager) keep(key string, resp *http.Response) {
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxStoredBody+1))
	if err != nil || len(body) > maxStoredBody {
		resp.Body = &prefixedBody{Reader: io.MultiReader(bytes.NewReader(body), errReader{err}, resp.Body), body: resp.Body}
		return
	}
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	sp := StoredPage{URL: quote.Redacted(resp.Request.URL), Header: storedHeader(resp.Header), Body: body}
	if err := p.cfg.store.Put(resp.Request.Context(), key, sp); err != nil {
		p.cfg.storeError(fmt.Errorf("paging: page store: storing %s: %w", quote.URL(resp.Request.URL), err))
	}
}

// prefixedBody reads what was read ahead of a body and then the rest of it.
type prefixedBody struct {
	io.Reader
	body io.Closer
}

func (b *prefixedBody) Close() error { return b.body.Close() }

// errReader returns err, or io.EOF when err is nil.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) {
	if r.err == nil {
		return 0, io.EOF
	}
	return 0, r.err
}

// storedHeader returns the header of a page as it is stored: h without the
// fields that are the response's alone (rule 22): Set-Cookie, which may be
// a credential, the rate-limit fields, and the hop-by-hop fields.
func storedHeader(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for name, values := range h {
		if !responseOnly(name) {
			canon := http.CanonicalHeaderKey(name)
			out[canon] = append(out[canon], values...)
		}
	}
	return out
}

// responseOnly reports whether the field name belongs to one response and
// is neither stored nor taken from the store: Set-Cookie, the rate-limit
// fields (X-RateLimit-*, RateLimit*, X-Rate-Limit-*, Retry-After), and the
// hop-by-hop fields (RFC 9110 §7.6.1).
func responseOnly(name string) bool {
	l := ascii.Lower(name)
	switch l {
	case "set-cookie", "set-cookie2", "retry-after", "connection", "keep-alive", "proxy-connection",
		"te", "trailer", "transfer-encoding", "upgrade":
		return true
	}
	return strings.HasPrefix(l, "x-ratelimit") || strings.HasPrefix(l, "ratelimit") || strings.HasPrefix(l, "x-rate-limit")
}

// notFromNotModified reports whether the field name of a 304 does not
// update the stored header (RFC 9111 §3.2): the stored body's own length,
// coding and range, and its entity tag, which the 304 matched.
func notFromNotModified(name string) bool {
	switch ascii.Lower(name) {
	case "content-length", "content-encoding", "content-range", "etag":
		return true
	}
	return false
}

// notModified returns the stored page sp as the response to the request
// of resp, a 304 Not Modified answered to sp's validators (rule 22): 200
// OK, sp's body, sp's header updated with resp's fields (RFC 9111 §4.3.4),
// the rate-limit fields resp's alone. A 304 that does not fit sp is an
// error wrapping ErrNotModified.
func notModified(sp StoredPage, resp *http.Response) (*http.Response, error) {
	resp.Body.Close()
	if err := fits(sp, resp); err != nil {
		return nil, fmt.Errorf("%w: %s answered 304 %s", ErrNotModified, quote.URL(resp.Request.URL), err)
	}
	h := make(http.Header, len(sp.Header)+len(resp.Header))
	for name, values := range sp.Header {
		if !responseOnly(name) {
			canon := http.CanonicalHeaderKey(name)
			h[canon] = append(h[canon], values...)
		}
	}
	for name := range resp.Header {
		if !notFromNotModified(name) {
			delete(h, http.CanonicalHeaderKey(name))
		}
	}
	for name, values := range resp.Header {
		if !notFromNotModified(name) {
			canon := http.CanonicalHeaderKey(name)
			h[canon] = append(h[canon], values...)
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(sp.Body)))
	out := *resp
	out.Status, out.StatusCode = "200 OK", http.StatusOK
	out.Header = h
	out.Body = &revalidatedBody{}
	out.Body.(*revalidatedBody).Reset(sp.Body)
	out.ContentLength = int64(len(sp.Body))
	out.TransferEncoding, out.Uncompressed, out.Trailer = nil, false, nil
	return &out, nil
}

// fits returns why resp, a 304 Not Modified, does not fit sp, the page
// whose validators it answers, or nil: it must come from sp's URL, name
// sp's entity tag if it names one (weak comparison, RFC 9110 §8.8.3.2), and
// give sp's stored Content-Length if both give one (RFC 9110 §8.6).
func fits(sp StoredPage, resp *http.Response) error {
	if u := quote.Redacted(resp.Request.URL); u != sp.URL {
		return fmt.Errorf("for the page stored from %s", quote.URLString(sp.URL))
	}
	if etag := resp.Header.Values("ETag"); len(etag) > 0 {
		stored := sp.Header.Get("ETag")
		if len(etag) > 1 || stored != "" && strings.TrimPrefix(etag[0], "W/") != strings.TrimPrefix(stored, "W/") {
			return fmt.Errorf("with ETag %s, not the stored page's %s", quote.Value(strings.Join(etag, ", ")), quote.Value(stored))
		}
	}
	// Without a stored Content-Length (a chunked 200, or a gzip-coded one
	// that net/http decoded) the 200's length as sent is not known: the
	// decoded body's is not it.
	if cl := resp.Header.Values("Content-Length"); len(cl) > 0 && sp.Header.Get("Content-Length") != "" {
		want := sp.Header.Get("Content-Length")
		if len(cl) > 1 || cl[0] != want {
			return fmt.Errorf("with Content-Length %s, not the stored page's %s", quote.Value(strings.Join(cl, ", ")), want)
		}
	}
	return nil
}
