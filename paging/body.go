package paging

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/plainuri"
	"github.com/weblinking/weblink/internal/quote"
)

// The bounds of the read of a body for its next link (rules 30 and 31).
const (
	maxBodyRead = 16 << 20 // of the body read to find the link
	maxBodyLink = 64 << 10 // of the link itself
)

// NextInBody makes [Pages] and [Items] take the next link of a page whose
// Link header has none from the JSON value at pointer in its body.
//
// The pointer is an RFC 6901 JSON Pointer such as "/links/next"
// (JSON:API), "/_links/next/href" (HAL), "/@odata.nextLink" (OData 4.0,
// Microsoft Graph) or "/nextLink" (Azure); the value there is the link, or
// a link object with an "href" (see rules 28 to 35). A pointer that is
// not a JSON Pointer makes Pages yield only an error, which says what to
// write, before any request is sent.
func NextInBody(pointer string) Option {
	p, err := parsePointer(pointer)
	return func(c *config) { c.inBody = &bodyPointer{ptr: p, err: err} }
}

// bodyPointer is the configuration of NextInBody: the pointer, or why it
// is not one.
type bodyPointer struct {
	ptr pointer
	err error
}

// linkFinder is the role that finds the next link of each page of an
// iteration: in its Link header ([headerLinks]), or, with NextInBody, in
// its body when the header has none ([*bodyLinks], rule 28).
type linkFinder interface {
	// read is given each 2xx page before it is yielded, its body unread;
	// it may read the body, and puts back what it read (rule 30).
	read(resp *http.Response)
	// next returns the next link of prev, a page given to read, or nil
	// when prev is the last page.
	next(prev *http.Response) (*url.URL, error)
}

// linkFinder returns the finder of next links for one iteration: a new
// one each time, as a bodyLinks remembers the latest page.
func (c *config) linkFinder() linkFinder {
	if c.inBody != nil {
		return &bodyLinks{ptr: c.inBody.ptr}
	}
	return headerLinks{}
}

// headerLinks finds next links in the Link header only (nextLink).
type headerLinks struct{}

func (headerLinks) read(*http.Response) {}

func (headerLinks) next(prev *http.Response) (*url.URL, error) { return nextLink(prev) }

// bodyLinks finds next links in the Link header, and in the body, at ptr,
// of a page whose header has none (NextInBody).
type bodyLinks struct {
	ptr  pointer
	last bodyLink // the next link the latest page's body gave
}

// bodyLink is the next link that a page's body gave, or the error that
// reading it did.
type bodyLink struct {
	page *http.Response // the page it is from; nil: none
	u    *url.URL
	err  error
}

// read reads the next link of resp from its body when its Link header has
// none (rule 28), and puts back what it read (rule 30).
func (b *bodyLinks) read(resp *http.Response) {
	if _, ok := weblink.NextURL(resp); ok {
		return
	}
	u, err := bodyNextLink(resp, b.ptr)
	if u != nil || err != nil {
		b.last = bodyLink{page: resp, u: u, err: err}
	}
}

// next is the package's nextLink of prev, or the link that prev's body
// gave (read).
func (b *bodyLinks) next(prev *http.Response) (*url.URL, error) {
	if b.last.page != nil && b.last.page == prev {
		return b.last.u, b.last.err
	}
	return nextLink(prev)
}

// bodyNextLink returns the next link that the JSON value at ptr in resp's
// body gives, resolved against the page URL (rule 31), or nil for none
// (rule 29). It reads the body up to the end of that value, or to its end
// when there is none, and puts back what it read in front of the rest
// (rule 30).
func bodyNextLink(resp *http.Response, ptr pointer) (*url.URL, error) {
	if resp.StatusCode == http.StatusNoContent || resp.Request.Method == http.MethodHead {
		return nil, nil
	}
	rec := &recorder{r: resp.Body, left: maxBodyRead}
	target, err := linkAt(&jsonReader{dec: json.NewDecoder(rec)}, ptr)
	resp.Body = putBack(rec.buf.Bytes(), resp.Body)
	page := resp.Request.URL
	switch {
	case rec.over:
		return nil, bodyError(page, ptr, fmt.Errorf("the value has not ended in the first %d MiB of the body; it may be longer than a page should be", maxBodyRead>>20))
	case err != nil:
		return nil, bodyError(page, ptr, err)
	case target == "":
		return nil, nil
	}
	u, err := plainuri.ResolveURL(page, target)
	if err != nil {
		return nil, bodyError(page, ptr, fmt.Errorf("%s is not a URI reference: %w", quote.Value(shorten(target)), quote.WithoutUserinfo(err)))
	}
	return u, nil
}

// bodyError is the error of a body, of the page at page, whose value at
// ptr is not a usable next link for the reason err: it wraps both
// [ErrNextLink] and err.
func bodyError(page *url.URL, ptr pointer, err error) error {
	return &nextLinkError{
		msg: fmt.Sprintf("paging: no usable next link in the body of %s at %s: %v", quote.URL(page), quote.Value(ptr.text), err),
		err: err,
	}
}

// nextLinkError is an error wrapping ErrNextLink and the reason.
type nextLinkError struct {
	msg string
	err error
}

func (e *nextLinkError) Error() string   { return e.msg }
func (e *nextLinkError) Unwrap() []error { return []error{ErrNextLink, e.err} }

// linkAt reads r's document up to the value at ptr and returns the link it
// gives: the string, or the "href" of a link object; "" for none (absent,
// null or ""). Any other value is an error.
func linkAt(r *jsonReader, ptr pointer) (string, error) {
	found, err := r.seek(ptr)
	switch {
	case err == io.EOF && len(r.open) == 0:
		return "", errNoJSON
	case err != nil:
		return "", unexpectedEOF(err)
	case !found:
		return "", nil
	}
	tok, err := r.token()
	if err != nil {
		return "", unexpectedEOF(err)
	}
	if tok == json.Delim('{') {
		return linkObject(r)
	}
	switch tok := tok.(type) {
	case nil:
		return "", nil
	case string:
		return tok, checkLink(tok)
	}
	return "", fmt.Errorf("the value is %s, not a link (a string, or an object with a string \"href\")", kindOf(tok))
}

// linkObject reads the link object just opened (JSON:API, HAL) up to its
// "href" member, a string, and returns it.
func linkObject(r *jsonReader) (string, error) {
	found, err := r.member("href")
	switch {
	case err != nil:
		return "", unexpectedEOF(err)
	case !found:
		return "", errors.New(`the value is an object without "href", not a link`)
	}
	tok, err := r.token()
	if err != nil {
		return "", unexpectedEOF(err)
	}
	href, ok := tok.(string)
	if !ok {
		return "", fmt.Errorf(`the value is an object whose "href" is %s, not a string`, kindOf(tok))
	}
	if href == "" {
		return "", errors.New(`the value is an object whose "href" is "", not a link (write null, or leave the link out, on the last page)`)
	}
	return href, checkLink(href)
}

// checkLink reports what makes link, a string from a body, unusable as a
// next link before it is resolved (rule 31): a length past maxBodyLink,
// invalid UTF-8 (which the decoder has made U+FFFD) or a control
// character, which no header link can hold.
func checkLink(link string) error {
	switch {
	case len(link) > maxBodyLink:
		return fmt.Errorf("the link is %d bytes long, more than the %d KiB a next link may have", len(link), maxBodyLink>>10)
	case strings.ContainsRune(link, utf8.RuneError):
		return fmt.Errorf("the link %s holds invalid UTF-8 (or U+FFFD)", quote.Value(shorten(link)))
	case strings.ContainsFunc(link, isControl):
		return fmt.Errorf("the link %s holds a control character", quote.Value(shorten(link)))
	}
	return nil
}

// isControl reports whether r is a C0 or C1 control character or DEL.
func isControl(r rune) bool { return r < 0x20 || r >= 0x7f && r <= 0x9f }

// shorten returns s cut to its first 200 bytes (at a character boundary),
// for an error message.
func shorten(s string) string {
	if len(s) <= 200 {
		return s
	}
	i := 200
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

// recorder reads r and keeps what it read, up to left bytes: a read past
// that ends with io.ErrUnexpectedEOF and sets over.
type recorder struct {
	r    io.Reader
	buf  bytes.Buffer
	left int
	over bool
}

func (rec *recorder) Read(b []byte) (int, error) {
	if rec.left <= 0 {
		rec.over = true
		return 0, io.ErrUnexpectedEOF
	}
	if len(b) > rec.left {
		b = b[:rec.left]
	}
	n, err := rec.r.Read(b)
	rec.buf.Write(b[:n])
	rec.left -= n
	return n, err
}

// putBack returns body reading read first and then the rest of body, and
// closing body.
func putBack(read []byte, body io.ReadCloser) io.ReadCloser {
	return struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(read), body), body}
}

// JSONItemsAt returns a decode function for [Items] that decodes the JSON
// array at pointer, an RFC 6901 JSON Pointer, in a page's body.
//
// The pointer is, for example, "/data" (JSON:API), "/value" (OData,
// Microsoft Graph, Azure), "/items" (GitHub's search) or
// "/_embedded/orders" (HAL); "" is the whole body, as [JSONItems]. It
// streams as JSONItems does, and absent or null at pointer is no items
// (see rules 32 to 34).
func JSONItemsAt[T any](pointer string) func(*http.Response) ([]T, error) {
	ptr, perr := parsePointer(pointer)
	return func(resp *http.Response) ([]T, error) {
		if perr != nil {
			return nil, perr
		}
		if len(ptr.tokens) == 0 {
			return JSONItems[T](resp)
		}
		if resp.StatusCode == http.StatusNoContent || resp.Request != nil && resp.Request.Method == http.MethodHead {
			return nil, nil
		}
		return itemsAt[T](&jsonReader{dec: json.NewDecoder(resp.Body)}, ptr)
	}
}

// itemsAt decodes the array at ptr in r's document, and reads the rest of
// it.
func itemsAt[T any](r *jsonReader, ptr pointer) ([]T, error) {
	found, err := r.seek(ptr)
	switch {
	case err == io.EOF && len(r.open) == 0:
		return nil, nil // an empty body
	case err != nil:
		return nil, unexpectedEOF(err)
	}
	var items []T
	if found {
		if items, err = arrayAt[T](r, ptr); err != nil {
			return nil, err
		}
	}
	if err := r.finish(); err != nil {
		return nil, unexpectedEOF(err)
	}
	return items, nil
}

// arrayAt decodes the value r is at, the one at ptr: an array of T, or
// null.
func arrayAt[T any](r *jsonReader, ptr pointer) ([]T, error) {
	tok, err := r.dec.Token() // not r.token: the array's "]" is read here too
	switch {
	case err != nil:
		return nil, unexpectedEOF(err)
	case tok == nil:
		return nil, nil
	case tok != json.Delim('['):
		return nil, &json.UnmarshalTypeError{Value: jsonKind(tok), Type: reflect.TypeFor[[]T](), Offset: r.dec.InputOffset(), Field: ptr.text}
	}
	return elements[T](r.dec)
}
