// Package weblink parses, resolves and writes the HTTP Link header of Web
// Linking (RFC 8288, which replaced RFC 5988), with the RFC 8187 (RFC 5987)
// ext-values of title*, the RFC 3986 reference resolution it relies on, and
// the IANA link relations registry.
//
// # Reading links
//
// Parse reads one field value, ParseHeader every Link line of a header, and
// ParseResponse the links of a response, resolved against the URL that the
// response came from:
//
//	links, err := weblink.ParseResponse(resp)
//	if next, ok := links.Rel("next"); ok {
//		// next.Target is absolute
//	}
//
// Parse returns one Link per link-value; a link with rel="start index" is one
// Link whose Rel is ["start" "index"]. It follows RFC 8288 Appendix B with
// these decisions, where the algorithm as printed is wrong or silent:
//
//   - The comma between link-values is consumed (Appendix B.2 as printed
//     stops after the first link-value). Commas and semicolons inside <...>
//     and quoted-strings do not separate; empty list elements are skipped
//     (RFC 9110 §5.6.1).
//   - Parameter names and relation types are lower-cased (RFC 8288 §2.1.1,
//     §2.1.2, §3). A parameter without "=" (crossorigin) has the value "".
//     An unquoted value runs to the next ";" or ",", so type=text/html is
//     read as the sender meant.
//   - rel, anchor, rev, media, title, title* and type count once: the first
//     occurrence wins and later ones are ignored without an error (RFC 8288
//     §3.3, §3.4.1). hreflang and extension parameters keep every
//     occurrence.
//   - title* replaces title when it decodes (after the first-wins filtering,
//     per RFC 8288 erratum 5878) and its language goes to TitleLang; when it
//     does not decode, title stays and the error says why. An extension
//     parameter name* replaces every plain name parameter of its link the
//     same way. rel*, anchor*, rev*, hreflang*, media* and type* are not
//     supported forms and are ignored.
//   - A malformed link-value is dropped whole and reported, and parsing
//     resumes at the next comma outside <...> and quoted-strings: a header
//     cut short by a proxy never yields a link built from its broken end.
//   - CR and LF count as whitespace, so that documents with line breaks
//     (application/linkset, folded lines) parse; net/http never hands a
//     header value with CR or LF to a program.
//
// The error from the parse functions is nil when nothing was dropped.
// Otherwise errors.As finds a *SyntaxError at the offset of the first
// problem, errors.Is(err, ErrSyntax) is true, and the links that were
// well-formed are returned all the same: a caller may ignore the error.
// Parsing is one pass over the bytes, linear in the input, and the strings
// it returns are substrings of the input where nothing had to be unescaped
// or lower-cased.
//
// # Paging
//
// Pages follows rel="next" from page to page as an iterator, with the safety
// checks an API client needs (loops, schemes, origins, credentials, page
// limits); NextURL gives the next page of one response.
//
// # Writing links
//
// Link.String and Links.String write field values, and Add appends a Link
// line to a header. Whatever a Link holds, the output is printable ASCII: no
// value can end the field, add a header or smuggle in a second link-value.
// rel, anchor, rev, title and type are always quoted (rel="next"), as the
// most naive receivers expect; text a quoted-string cannot carry goes into
// an RFC 8187 ext-value (title*=UTF-8'de'n%C3%A4chstes). Link.Validate
// reports what a link about to be sent gets wrong, and Link.Unregistered the
// relation types that are neither registered nor URIs.
//
// Middleware, EarlyHints and EarlyHintsMiddleware add links to the
// responses of a net/http server, and PageLinks builds first, prev, next and
// last links for a paged collection. Links.MarshalJSON, Links.UnmarshalJSON,
// ParseLinkset, FormatLinkset and LinksetHandler speak the linkset formats
// of RFC 9264.
//
// # Base URIs
//
// Targets and anchors are resolved with RFC 3986 §5.2 (net/url). The target
// is resolved against the base URI, never against the anchor (RFC 8288
// §3.2). An empty Anchor means the default context and stays empty.
package weblink
