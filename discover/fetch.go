package discover

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/transform"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/linksource"
	"github.com/weblinking/weblink/internal/peertext"
	"github.com/weblinking/weblink/internal/quote"
	"github.com/weblinking/weblink/internal/ratelimit"
	"github.com/weblinking/weblink/internal/readhook"
	"github.com/weblinking/weblink/internal/weborigin"
	"github.com/weblinking/weblink/paging"
)

// defaultMaxBytes is how much of a body Links reads without MaxBytes.
const defaultMaxBytes = 4 << 20

// ErrTruncated is wrapped by the error of Links and HTML when a body was
// longer than MaxBytes.
//
// The links found in the part read are returned, and those after it are
// missing; a cut linkset gives none, as its end may hold links that were
// never sent (rule 13). Test for it with errors.Is.
var ErrTruncated = errors.New("discover: body cut at MaxBytes")

// Option configures HTML and Links. Create one with [Hyperlinks],
// [MaxBytes] or [FollowLinksets]. A nil Option is ignored.
type Option func(*config)

type config struct {
	hyperlinks     bool
	followLinksets bool
	maxBytes       int64 // ≤ 0: not set
}

// configure applies opts.
func configure(opts []Option) config {
	var cfg config
	for _, opt := range opts {
		if opt != nil { // a nil Option is ignored
			opt(&cfg)
		}
	}
	return cfg
}

// Hyperlinks makes HTML and Links read <a> and <area> elements too, not
// only <link> elements.
//
// Webmention (W3C Webmention §3.1.2) accepts an endpoint in
// <a rel="webmention">, and rel="me", "license" or "nofollow" are mostly
// written on <a>.
func Hyperlinks() Option { return func(c *config) { c.hyperlinks = true } }

// MaxBytes sets how many bytes of a body [Links] reads (default 4 MiB).
//
// It bounds the body of the resource, and the linksets [FollowLinksets]
// fetches together (rule 17). A longer body is not read further: its links found so far
// (none for a linkset) are returned with an error wrapping [ErrTruncated]. [HTML] reads all of its
// reader unless MaxBytes is given. n ≤ 0 leaves the default.
func MaxBytes(n int64) Option { return func(c *config) { c.maxBytes = n } }

// FollowLinksets makes [Links] fetch the linksets its rel="linkset" links
// point to (RFC 9264 §6) and append their links.
//
// Only linksets on the origin of the resource's final URL are fetched,
// each once, and their links are resolved against the linkset's URL and not
// followed further (rule 14). At most 16 linksets are fetched, and at most
// MaxBytes of them are read together; those left out are an error wrapping
// [ErrLinksetLimit], and each linkset's problems are a [*FollowError]
// (rules 17 and 18).
// The requests carry Accept: application/linkset+json,
// application/linkset;q=0.9 and the User-Agent of the first request, and
// no other field of it. FollowLinksets has no effect on [HTML].
func FollowLinksets() Option { return func(c *config) { c.followLinksets = true } }

// Links GETs req with client (nil means http.DefaultClient), following
// redirects, and returns the links of the resource's header and body.
//
// The links of every Link header field (RFC 8288 §3), resolved against the
// final URL, come first, then those of the body in document order (rules 8
// and 9). This is the precedence W3C Webmention §3.1.2
// and W3C WebSub §4 require, so
//
//	endpoint, ok := links.Rel("webmention")
//
// is the Webmention endpoint.
//
// The Content-Type decides how the body is read: HTML for text/html and
// application/xhtml+xml (in the charset of the Content-Type, the byte
// order mark or the <meta> prescan), Feed for application/atom+xml,
// application/rss+xml, and text/xml or application/xml whose root element
// is feed or rss, the linkset parsers for application/linkset and
// application/linkset+json; any other body is not read. text/plain is not
// sniffed as HTML; a response without Content-Type is sniffed (the MIME
// Sniffing standard, http.DetectContentType) unless it says
// X-Content-Type-Options: nosniff.
//
// A response whose status is not 2xx gives its header links with a
// [*paging.StatusError] (errors.Is(err, [paging.ErrStatus])), which
// carries the response's header and the first 2 KiB of its body; the body
// is not read for links. At most [MaxBytes] of a body are read (4 MiB by default). With
// [FollowLinksets], the linksets the resource points to are fetched and
// their links appended.
//
// The error is nil when nothing went wrong. Otherwise it joins everything
// that did: a header that did not parse (the well-formed links are kept), a
// reference that could not be resolved (kept as written), a body cut at
// MaxBytes ([ErrTruncated]), a linkset that could not be fetched or read.
// The links found are returned with it, except when the request failed.
//
// req must be a GET (or HEAD, whose response has no body to read) with a
// URL. The request sent is a clone of req with ctx; it is cancelled when
// ctx or req.Context() is done. A redirect to an origin other than req's
// (or its https upgrade) keeps only the header fields that carry no
// credentials (rule 15), under client.CheckRedirect as usual.
func Links(ctx context.Context, client *http.Client, req *http.Request, opts ...Option) (weblink.Links, error) {
	cfg := configure(opts)
	if cfg.maxBytes <= 0 {
		cfg.maxBytes = defaultMaxBytes
	}
	if client == nil {
		client = http.DefaultClient
	}
	switch {
	case ctx == nil:
		return nil, errors.New("discover: Links needs a non-nil context; use context.Background() if there is none")
	case req == nil || req.URL == nil:
		return nil, errors.New("discover: Links needs a request with a URL; create it with http.NewRequestWithContext")
	case req.Method != "" && req.Method != http.MethodGet && req.Method != http.MethodHead:
		return nil, fmt.Errorf("discover: %s %s not sent: Links sends GET or HEAD requests", req.Method, quote.URL(req.URL))
	}
	ctx, stop := mergeContexts(ctx, req.Context())
	defer stop()
	home := weborigin.Of(req.URL)
	f := fetcher{cfg: cfg, client: weborigin.GuardRedirects(client, home.Admits), sources: linksource.From(ctx), hook: readhook.From(ctx)}
	if f.sources != nil {
		*f.sources = (*f.sources)[:0]
	}
	return f.fetch(ctx, req)
}

// mergeContexts returns a context that is done when ctx or other is, and
// a function that releases it.
func mergeContexts(ctx, other context.Context) (context.Context, func()) {
	if other.Done() == nil {
		return ctx, func() {}
	}
	merged, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(other, func() { cancel(context.Cause(other)) })
	return merged, func() { stop(); cancel(nil) }
}

// fetcher holds the state of one call of Links.
type fetcher struct {
	cfg     config
	client  *http.Client
	sources *[]string      // the command's record of where each link came from
	hook    *readhook.Hook // package signposting's requests; nil for none
	links   weblink.Links
	probs   problems
}

// fetch GETs req and returns the links of its response.
func (f *fetcher) fetch(ctx context.Context, req *http.Request) (weblink.Links, error) {
	resp, err := f.do(req.Clone(ctx))
	if err != nil {
		return nil, fmt.Errorf("discover: %w", err)
	}
	defer resp.Body.Close()
	if resp.Request == nil || resp.Request.URL == nil {
		resp.Request = req // a RoundTripper other than net/http's may leave it nil
	}
	final := resp.Request.URL
	if f.hook != nil {
		f.hook.StatusCode, f.hook.URL = resp.StatusCode, final
	}
	header, err := weblink.ParseHeader(resp.Header)
	resolveLinks(header, baseOf(final), &f.probs)
	f.add(header, "header")
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	if !is2xx(resp.StatusCode) && (f.hook == nil || f.hook.ReadStatus != resp.StatusCode) {
		st := statusError(resp, final)
		return f.links, errors.Join(append([]error{st}, append(errs, f.probs.err())...)...)
	}
	f.body(resp, f.cfg.maxBytes, false)
	if f.cfg.followLinksets {
		f.followLinksets(ctx, req.Header.Get("User-Agent"), final)
	}
	return f.links, errors.Join(append(errs, f.probs.err())...)
}

// do sends req with f's client; its error comes back escaped (rule 22).
func (f *fetcher) do(req *http.Request) (*http.Response, error) {
	resp, err := f.client.Do(req)
	return resp, peertext.Error(err)
}

// add appends links, found in source.
func (f *fetcher) add(links weblink.Links, source string) {
	f.links = append(f.links, links...)
	if f.sources != nil {
		for range links {
			*f.sources = append(*f.sources, source)
		}
	}
}

// baseOf returns the base URI of a response with the URL u: u without its
// user information, so that a password given in the request URL is not
// copied into every resolved target, and without its fragment.
func baseOf(u *url.URL) *url.URL {
	v := *u
	v.User = nil
	v.Fragment, v.RawFragment = "", ""
	return &v
}

// is2xx reports whether code is a success status code (RFC 9110 §15.3).
func is2xx(code int) bool { return code >= 200 && code <= 299 }

// body reads the links of a 2xx response's body, at most limit bytes of
// it, by its media type, and returns how many bytes it read. When fetched
// is set (a linkset FollowLinksets fetched), a body that is not a linkset
// is an error, and the errors do not name the linkset: the *FollowError
// that wraps them does.
func (f *fetcher) body(resp *http.Response, limit int64, fetched bool) int64 {
	base := baseOf(resp.Request.URL)
	what := quote.URL(base)
	if fetched {
		what = "it"
	}
	cr := &capReader{r: resp.Body, n: limit}
	br := bufio.NewReaderSize(cr, 1024)
	contentType := resp.Header.Get("Content-Type")
	mediaType := mediaTypeOf(contentType)
	if contentType == "" && !strings.EqualFold(resp.Header.Get("X-Content-Type-Options"), "nosniff") {
		peek, _ := br.Peek(512)
		mediaType = mediaTypeOf(http.DetectContentType(peek))
	}
	if fetched && !isLinksetType(mediaType) {
		f.probs.add(fmt.Errorf("served as %s, not %s or %s; not read",
			quote.Value(contentType), weblink.LinksetJSONType, weblink.LinksetType))
		return 0
	}
	switch mediaType {
	case "text/html", "application/xhtml+xml":
		s := htmlScanner{hyperlinks: f.cfg.hyperlinks, xhtml: mediaType == "application/xhtml+xml", sources: f.sources}
		links, err := s.scan(decodeHTML(br, contentType), base)
		f.links = append(f.links, links...)
		f.probs.add(err)
	case "application/atom+xml", "application/rss+xml", "text/xml", "application/xml":
		s := feedScanner{sources: f.sources}
		links, root, err := s.scan(br, baseURL{URL: base})
		f.links = append(f.links, links...)
		if err == nil && root != "feed" && root != "rss" && strings.HasPrefix(mediaType, "application/") && mediaType != "application/xml" {
			err = fmt.Errorf("discover: %s served as %s has the root element %s, not feed or rss", quote.URL(base), mediaType, quote.Value("<"+root+">"))
		}
		f.probs.add(err)
	default:
		if isLinksetType(mediaType) && f.linkset(br, cr, mediaType, base, fetched) {
			lost := "a cut linkset gives no links"
			if mediaType == "application/json" && !fetched {
				lost = "a cut JSON document is not read as a linkset"
			}
			f.probs.add(truncated(limit, what, lost))
			return limit - max(cr.n, 0)
		}
	}
	if cr.cut {
		f.probs.add(truncated(limit, what, "links after them are missing"))
	}
	return limit - max(cr.n, 0)
}

// isLinksetType reports whether a linkset parser reads mediaType;
// application/json is read as application/linkset+json, for servers that
// do not know the linkset types, when the document is one (see
// isLinksetDocument).
func isLinksetType(mediaType string) bool {
	return mediaType == weblink.LinksetType || mediaType == weblink.LinksetJSONType || mediaType == "application/json"
}

// linkset reads a linkset document (RFC 9264 §4.1 or §4.2) from r, which
// reads cr, and appends its links, resolved against base. A document whose
// reading failed (the connection broke, the time ran out) is not parsed,
// nor is one cut at MaxBytes: for that one linkset returns true and
// leaves the error to its caller (rule 13). A body served as application/json
// that is not a linkset document is an ordinary resource, and is passed
// over unless FollowLinksets fetched it (fetched) as a linkset.
func (f *fetcher) linkset(r io.Reader, cr *capReader, mediaType string, base *url.URL, fetched bool) (cut bool) {
	doc, err := io.ReadAll(r)
	if err != nil {
		// What came can parse into links that were never sent (rel=ite
		// of rel=item): a document whose reading failed is not parsed.
		f.probs.add(f.linksetErr(base, fetched, "reading: %w", err))
		return false
	}
	if cr.cut {
		// The same holds for a document cut at MaxBytes, and parsing
		// one only to fail on its end cost up to 40 bytes of heap per
		// byte read (a 100 MB linkset, issue #36 review).
		return true
	}
	var links weblink.Links
	switch {
	case f.hook != nil && f.hook.ParseLinkset != nil:
		links, err = f.hook.ParseLinkset(base, doc, mediaType)
	case mediaType == weblink.LinksetType:
		links, err = weblink.ParseLinkset(doc)
	default:
		links, err = weblink.ParseLinksetJSON(doc)
	}
	if err != nil && mediaType == "application/json" && !fetched && !isLinksetDocument(doc) {
		return false // an ordinary JSON resource, not a linkset (rule 16)
	}
	if err != nil {
		f.probs.add(f.linksetErr(base, fetched, "%w", err))
	}
	resolveLinks(links, base, &f.probs)
	f.add(links, "linkset")
	return false
}

// linksetErr is the error of a linkset document at base: named by the
// message when the resource itself is the linkset, and left to the
// *FollowError that wraps it when FollowLinksets fetched it.
func (f *fetcher) linksetErr(base *url.URL, fetched bool, format string, err error) error {
	if fetched {
		return fmt.Errorf(format, err)
	}
	return fmt.Errorf("discover: linkset %s: "+format, quote.URL(base), err)
}

// isLinksetDocument reports whether doc is one JSON object whose sole
// member is "linkset" (RFC 9264 §4.2.1), whatever that member holds: the
// shape that tells a linkset served as application/json from any other
// JSON resource (rule 16).
func isLinksetDocument(doc []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(doc))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	if tok, err := dec.Token(); err != nil || tok != "linkset" {
		return false
	}
	var value json.RawMessage
	if err := dec.Decode(&value); err != nil {
		return false
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return false
	}
	_, err := dec.Token()
	return err == io.EOF
}

// decodeHTML returns r decoded to UTF-8 from the charset that the HTML
// Living Standard's encoding sniffing algorithm (§13.2.3.2) finds: a byte
// order mark, the charset parameter of contentType, a <meta> charset in
// the first 1024 bytes, UTF-8 when those bytes are valid UTF-8, else
// windows-1252.
func decodeHTML(r *bufio.Reader, contentType string) io.Reader {
	peek, _ := r.Peek(1024)
	enc, name, _ := charset.DetermineEncoding(peek, contentType)
	if name == "utf-8" {
		return r
	}
	return transform.NewReader(r, enc.NewDecoder())
}

// mediaTypeOf returns the lower-case media type of a Content-Type value,
// "" when there is none.
func mediaTypeOf(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil && mt == "" {
		return ""
	}
	return mt
}

// capReader reads at most n bytes of r and then reports io.EOF; cut is set
// when r had more.
type capReader struct {
	r   io.Reader
	n   int64
	cut bool
}

// Read implements io.Reader.
func (c *capReader) Read(p []byte) (int, error) {
	if c.n <= 0 {
		if c.n == 0 && !c.cut {
			var one [1]byte
			n, _ := io.ReadFull(c.r, one[:])
			c.cut, c.n = n > 0, -1 // probe once
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.n {
		p = p[:c.n]
	}
	n, err := c.r.Read(p)
	c.n -= int64(n)
	if err != nil && err != io.EOF {
		err = peertext.Error(err) // a trailer line net/http rejects (rule 22)
	}
	return n, err
}

// truncated is the error for a document cut at n bytes; lost says which
// links that cost.
func truncated(n int64, what, lost string) error {
	return fmt.Errorf("%w: read the first %d bytes of %s, which is longer; %s", ErrTruncated, n, what, lost)
}

// origin is a URL's scheme, host and port (RFC 6454 §4).
type origin = weborigin.Origin

// withoutFragment is u as a string without its fragment.
func withoutFragment(u *url.URL) string { return withoutFragmentURL(u).String() }

// statusError is the *paging.StatusError of resp, a response to u whose
// status is not 2xx, with its header and the first 2 KiB of its body, read
// here: the body is closed unread for links afterwards.
func statusError(resp *http.Response, u *url.URL) *paging.StatusError {
	return &paging.StatusError{StatusCode: resp.StatusCode, Status: resp.Status, URL: quote.Redacted(u),
		Header: resp.Header, Body: ratelimit.ReadBody(resp.Body)}
}

// targets yields the absolute targets of the links found so far that
// have the relation type rel and the origin o, each once: a target in
// seen (compared without fragment) is skipped, and one yielded is added to
// seen. Links appended while the loop runs are not visited (one level).
func (f *fetcher) targets(rel string, o origin, seen map[string]bool) iter.Seq[*url.URL] {
	return func(yield func(*url.URL) bool) {
		n := len(f.links)
		for i := 0; i < n; i++ {
			if !f.links[i].HasRel(rel) {
				continue
			}
			u, err := url.Parse(f.links[i].Target)
			if err != nil || !u.IsAbs() || weborigin.Of(u) != o || seen[withoutFragment(u)] {
				continue
			}
			seen[withoutFragment(u)] = true
			if !yield(u) {
				return
			}
		}
	}
}
