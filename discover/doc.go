// Package discover finds the links of a resource in every serialisation
// that RFC 8288 Appendix A counts as one: the Link header field, HTML
// <link> (and <a>, <area>) elements, the links of Atom and RSS feeds, and
// RFC 9264 linksets. It is a subpackage because it imports
// golang.org/x/net/html, which programs that read only headers with package
// weblink do not need.
//
//	links, err := discover.Links(ctx, nil, req, discover.Hyperlinks())
//	if endpoint, ok := links.Rel("webmention"); ok {
//		// endpoint.Target is absolute
//	}
//
// The protocols built on Web Linking look for links in a fixed order:
// W3C Webmention §3.1.2 takes the Link header first, then the first <link>
// or <a> element in document order; W3C WebSub §4 the header, then HTML
// <link>, then the feed's atom:link; FAIR Signposting the header, HTML
// <link> and the linksets found through rel="linkset". Links returns the
// links in that order, so the first link with a relation type is the one
// these protocols mean. [Links] fetches; [HTML] and [Feed] read documents
// you already have.
//
// # Rules
//
// HTML (HTML Living Standard §4.2.3, §4.6, §13.2):
//
//  1. A <link> element, and with [Hyperlinks] an <a> or <area> element, is a
//     link when it has an href attribute and a rel attribute with at least
//     one token; others (no href, no rel, rel="") are skipped. Links are in
//     document order, one Link per element, whatever the nesting depth.
//  2. href is the Target, stripped of leading and trailing ASCII
//     whitespace and of TAB, LF and CR inside (the URL Standard's parser
//     does the same), resolved with RFC 3986 §5.2 against the document's
//     base URL: the first <base> element with an href, that href resolved
//     against the base passed in (the document's URL), and applying to
//     every link of the document, also those before it. A <base href> that
//     does not parse, or is a data: or javascript: URL, is ignored. An empty
//     href refers to the document, or to the <base> URL.
//  3. rel and rev are split on ASCII whitespace and ASCII lower-cased, in
//     order. hreflang (as a one-element Hreflang), media, title and type go
//     to their fields. Every other attribute goes to Params, lower-case, in
//     attribute order, except HTML's global attributes (accesskey, class,
//     dir, hidden, id, itemprop and the other microdata attributes, lang,
//     nonce, role, slot, style, tabindex, translate, data-*, aria-*, on*,
//     xml:*, xmlns...), which are about rendering and scripting. A repeated
//     attribute is dropped, as HTML tokenization drops it: the first counts.
//     Anchor stays "": the context of an HTML link is the document.
//  4. What is not an element in HTML is not a link: markup inside comments,
//     escaped text (&lt;link&gt;), the raw text of <script>, <style>,
//     <textarea>, <title>, <xmp>, <iframe>, <noembed>, <noframes> and
//     <noscript> (read as a browser with scripting enabled reads it), and
//     the content of <template>, which is not part of the document. In
//     application/xhtml+xml, CDATA sections are text too. HTML is read
//     with its tokenizer, without building the tree: inside <svg> and
//     <math> an <a> counts as one, and <style> and <title> hold text, as
//     they would outside (an SVG <a> is a link in browsers too).
//  5. Attribute values are read as UTF-8, character references decoded;
//     an invalid byte becomes U+FFFD, so every string returned is valid
//     UTF-8.
//
// Feeds (RFC 4287, RSS 2.0):
//
//  6. The links of an Atom feed are the link children of the root feed
//     element; no rel means rel="alternate" (RFC 4287 §4.2.7.2), and the IRI
//     form http://www.iana.org/assignments/relation/NAME means NAME. The
//     links of an RSS 2.0 channel are its link element (rel="alternate") and
//     its atom:link children. The links of entries and items are theirs,
//     not the feed's, and are skipped.
//  7. Targets are resolved against the xml:base in scope (XML Base), itself
//     resolved against the base passed in.
//
// Fetching ([Links]):
//
//  8. Header links come first, resolved against the final URL (after
//     redirects, RFC 8288 §3.1), then the body's links, also resolved
//     against the final URL: a base URI in the body applies only as rules
//     2 and 7 say. The user information of the URL is not part of the base:
//     a password in the request URL is not copied into every target.
//  9. The Content-Type chooses the parser: text/html and
//     application/xhtml+xml are HTML; application/atom+xml and
//     application/rss+xml are feeds, and so are text/xml and
//     application/xml when their root element is feed or rss (WebSub's test
//     suite serves feeds as text/xml); application/linkset and
//     application/linkset+json are linksets, and so is application/json
//     when it is one (rule 16). Any other body is not read.
//  10. text/plain is not sniffed: a server that labels HTML text/plain is
//     telling browsers to show it as text, and they do (the MIME Sniffing
//     standard never turns text/plain into text/html), so its markup is not
//     a link. Only a response without a Content-Type is sniffed
//     (http.DetectContentType), unless it says X-Content-Type-Options:
//     nosniff.
//  11. HTML is decoded from the charset of the byte order mark, the
//     Content-Type, or a <meta> in the first 1024 bytes; without one, UTF-8
//     when those bytes are valid UTF-8, else windows-1252 (HTML Living
//     Standard §13.2.3). A feed is decoded from the charset of its XML
//     declaration.
//  12. A response whose status is not 2xx gives its header links and a
//     [*paging.StatusError]; its body, an error page, is not read for links
//     (the StatusError carries its first 2 KiB, and the header).
//  13. At most [MaxBytes] of each body are read (4 MiB by default); a longer
//     body gives the links found in that much and an error wrapping
//     [ErrTruncated], and the rest is not downloaded. A linkset whose body
//     could not be read whole (the connection broke, the time ran out, it
//     was longer than MaxBytes) gives that one error and no links: a cut
//     linkset can parse into links that were never sent (rel="ite" of
//     rel="item"), and is not parsed.
//  14. With [FollowLinksets], each rel="linkset" target found in the header
//     or body that has the origin of the final URL is fetched once, with
//     Accept: application/linkset+json, application/linkset;q=0.9, and its
//     links are appended with targets and anchors resolved against the
//     linkset's URL (RFC 9264 §4). Links found in linksets are not
//     followed, so nothing loops. A linkset on another origin is not
//     fetched: anyone can point to a URL, and the links of a third party's
//     linkset are not the resource's.
//
// Errors are reported, not hidden, and never stop the reading: the links
// found are returned together with an error that joins every problem (at
// most 16 in detail per document), so a caller may use the links and log
// the error.
//
// # Credentials and fan-out
//
// These rules follow package weblink's rules on origins and credentials
// (rules 30 and 31 of package weblink).
//
//  15. A redirect keeps the header fields of req only to req's origin and
//     its https upgrade (rule 30 of package weblink says when two hosts are one);
//     a redirect to any other origin keeps only Accept, Accept-Encoding,
//     Accept-Language, Cache-Control, Pragma and User-Agent (rule
//     31 of package weblink). net/http alone compares host names, so a redirect from
//     127.0.0.1:8080 to 127.0.0.1:9090 would carry Authorization and
//     Cookie. The client's CheckRedirect still decides whether to follow.
//  16. A body served as application/json is a linkset only when it is one
//     JSON object whose sole member is "linkset" (RFC 9264 §4.2.1), for
//     servers that do not know application/linkset+json; any other JSON
//     document, such as an API's resource, is not read and is no error.
//     A linkset that [FollowLinksets] fetched must be a linkset whatever
//     its type says.
//  17. [FollowLinksets] fetches at most 16 linksets for a resource, and
//     reads at most [MaxBytes] (4 MiB by default) of them together, in the
//     order the links were found; the linkset that passes the bytes is cut
//     ([ErrTruncated]) and gives no links. The linksets left out are an error wrapping
//     [ErrLinksetLimit] that says how many and names the first: one page
//     listing 2,000 linksets made 2,001 requests and a 2.6 GB heap before.
//     Each URL is read once, also through redirects (compared without
//     fragment): a linkset named directly after a redirect reached it, or
//     a redirect to a linkset or to the resource read before, is not
//     requested again, and that is no problem.
//  18. Each problem of a linkset (its request failed, its status is not
//     2xx, it was cut, it is not a linkset) is a [*FollowError] naming it,
//     one of the errors the error of [Links] joins. A [*paging.StatusError]
//     outside a FollowError is the resource's own status.
//
// # Hostile input
//
// Documents are read in one pass with the x/net/html tokenizer and
// encoding/xml: time is linear in the input, memory proportional to the
// links found and the longest tag, and no input makes the package panic.
// [MaxBytes] bounds what a server can make [Links] read. The HTML tokenizer is not the x/net/html tree builder
// (html.Parse), whose known quadratic cases do not apply.
//
//  22. No error of the package carries a server's bytes raw: where
//     net/http's error quotes what a server sent (before Go 1.26 it puts a
//     header or trailer line it rejects in its message as it came, escape
//     sequences and all), the control, bidirectional and invalid bytes of
//     the message are escaped (\x1b, \u202e), on every Go version; the
//     error still unwraps to net/http's.
//
// # API catalogs
//
// [APICatalog] finds the APIs an organisation publishes (RFC 9727):
//
//  19. It GETs /.well-known/api-catalog on the scheme, host and port of the
//     origin it is given, with Accept: application/linkset+json,
//     application/linkset;q=0.9, and reads the body as a linkset whatever
//     the response's Link fields say; the links are resolved against the
//     URL the catalog came from after redirects. A status other than 2xx
//     is a [*paging.StatusError] and gives no links.
//  20. Redirects are followed to other origins (RFC 9727 §5.1: a publisher
//     redirects every domain's well-known URL to one canonical catalog),
//     but never from https to http ([ErrInsecureRedirect]), never back to
//     a URL of the same chain, and at most 10 times. The user information
//     of the origin URL is sent as Basic credentials to that origin and its
//     https upgrade only; an Authorization, Cookie or Proxy-Authorization
//     field is removed from a redirect to any other origin.
//  21. Links with rel="api-catalog" on the origin of the final URL are
//     nested catalogs (RFC 9727 §4.3): each is fetched once (compared
//     without fragment, the catalog itself included; a nested catalog that
//     redirects to a catalog already read is not read again), one level
//     deep, and
//     its links appended; at most 16 are fetched, and at most 4 MiB of each
//     and 16 MiB of all catalog bodies are read. What is not fetched or
//     read for these bounds is reported in the error, with the links found.
//     Once the context is done no nested catalog is requested; those left
//     out, for a bound or the context, are one problem, which wraps the
//     context's error when that is why.
package discover
