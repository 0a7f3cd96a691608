// Package weblink reads and writes the HTTP Link header of Web Linking
// (RFC 8288): it parses real headers correctly, finds the next page, serves
// links and 103 Early Hints, and checks what a server sends. It covers the
// ext-values of title* (RFC 8187), reference resolution (RFC 3986), the
// IANA link relations registry and linksets (RFC 9264).
//
// # A short tour
//
// Read the links of a response, resolved against the URL it came from, and
// its next page (an error means some link-values were malformed and
// dropped; the others are in links):
//
//	links, err := weblink.ParseResponse(resp)
//	for _, alt := range links.AllRel("alternate") {
//		fmt.Println(alt.Target)
//	}
//	if next, ok := weblink.NextURL(resp); ok {
//		fmt.Println("next page:", next)
//	}
//
// Find the next page with [NextURL], not links.Rel("next"): it passes over
// a next link anchored at another resource. [Parse] reads one field value,
// [ParseHeader] every Link line of an http.Header, and [Parser] is Parse
// for hot paths. Package [github.com/weblinking/weblink/paging] pages
// through an API safely (same origin, credentials, loops, rate limits).
//
// Serve links: [Add] writes a Link field line that no value can break out
// of, [Middleware] adds links to every response, [EarlyHintsMiddleware]
// sends preloads in a 103 Early Hints response first, [PageLinks] builds
// first, prev, next and last links, [MaxLinkBytes] keeps Link fields within
// a proxy's buffer, and [LinksetHandler] and [APICatalogHandler] serve
// linksets (docs/serving.md):
//
//	weblink.Add(w.Header(), weblink.Link{Target: "/items?page=3", Rel: []string{weblink.RelNext}})
//	http.ListenAndServe(":8080", weblink.Middleware(schemaLink)(mux))
//
// Lint what a server sends: [Check] reports, with byte offsets, what RFC
// 8288 forbids senders and what will not work as meant (a preload without
// as); [Link.Validate] checks a Link before it is sent:
//
//	for _, p := range weblink.Check(resp.Header.Get("Link")) {
//		fmt.Println(p.Offset, p.Msg)
//	}
//
// Package [github.com/weblinking/weblink/discover] finds the links of a
// page's body too (HTML, feeds, linksets); linktemplate reads Link-Template
// (RFC 9652), linkformat CoAP's link-format (RFC 6690) and TimeMaps (RFC
// 7089), signposting FAIR Signposting. The weblink command (cmd/weblink)
// shows, checks and follows Link headers: curl -sI https://example.com/ | weblink.
//
// The sections below are the reference. Their rules are numbered for this
// package; code, tests and testdata cite them as "rule N", other packages
// as "rule N of package weblink".
//
// # Reading links
//
// [Parse], [ParseHeader] and [ParseResponse] follow RFC 8288 §3 and
// Appendix B, with these rules where the algorithm as printed is wrong or
// silent:
//
//  1. A field value is a comma-separated list of link-values, and Parse
//     returns one [Link] per link-value (not one per relation type, as
//     Appendix B does): rel="start index" is one Link whose Rel is
//     ["start" "index"]. The comma between link-values is consumed (Appendix
//     B.2 as printed stops after the first link-value). Commas inside <...>
//     and quoted-strings do not separate; empty list elements (", ,",
//     leading or trailing commas) are skipped (RFC 9110 §5.6.1).
//  2. A link-value is OWS "<" target ">" then parameters; [Link.Target] is
//     the text between the brackets without surrounding whitespace. CR and
//     LF count as whitespace, so that documents with line breaks
//     (application/linkset, folded lines) parse.
//  3. A parameter is ";" OWS name BWS [ "=" BWS value ]. Names are
//     lower-cased (ASCII). A value that starts with a double quote is a
//     quoted-string, whose backslash escapes are removed; any other value
//     runs to the next ";" or "," without trailing whitespace, and a double
//     quote or "<" inside it is an ordinary character (type=text/html is
//     read as meant). A parameter without "=" (crossorigin) has the value
//     "". Empty parameters (";;") are skipped.
//  4. rel, anchor, rev, media, title, title* and type count once: the first
//     occurrence wins and later ones are ignored without an error (RFC 8288
//     §3.3, §3.4.1). hreflang and extension parameters keep every
//     occurrence, in order.
//  5. Relation types (of rel and rev) are split on runs of whitespace,
//     empty ones dropped, and ASCII-lower-cased: registered and extension
//     relation types compare case-insensitively (RFC 8288 §2.1.1, §2.1.2).
//  6. title* is decoded as an ext-value (rules 11 to 14; a quoted value is
//     unquoted first, as Appendix B.3 step 7 does). When it decodes it
//     replaces title, after rule 4 (RFC 8288 erratum 5878), and its language
//     goes to [Link.TitleLang]. When it does not, it is dropped, title
//     stays, and the error says why.
//  7. An extension parameter name* is decoded the same way. When it decodes
//     it replaces every plain name parameter of its link and is stored, at
//     the position of the name*, as Param{Name: "name", Value, Lang}; when it
//     does not, it is dropped and reported. Every name* is kept. rel*,
//     anchor*, rev*, hreflang*, media* and type* are not supported forms and
//     are ignored without an error.
//  8. A malformed link-value is dropped whole and reported: a header cut
//     short by a proxy never yields a link built from its broken end
//     (rel="la"). Malformed means: it does not start with "<" after OWS, its
//     "<" or a quoted-string is never closed, its target holds a "<", or
//     something other than OWS, ";" or "," follows ">" or a parameter.
//     Parsing resumes after the next comma outside <...> and
//     quoted-strings, the way browsers split the field; the links before
//     and after it are kept. No URI-reference or IRI holds a "<" (RFC 3986
//     §2, RFC 3987 §2.2): one in the target means that its ">" is missing
//     and that the "<" opens the next link-value, as in <a; rel=next, <b>.
//     When only whitespace separates the last such "<" from a comma before
//     it, the problem is reported at that comma, where the ">" is missing,
//     and parsing resumes after it; otherwise at the "<".
//  9. The error is nil when nothing of the input was dropped (rules 6, 7
//     and 8). Otherwise errors.As finds a [*SyntaxError] whose Offset is the
//     byte of the first problem, and errors.Is(err, [ErrSyntax]) is true.
//     What the RFC says to ignore (rules 4 and 7) and readings that lose
//     nothing (an unquoted type=text/html, whitespace inside <>) are not
//     errors. [ParseHeader] offsets are within the field line, and its
//     errors say which line. The well-formed links are returned either way.
//  10. Parsing is one pass over the bytes, linear in the input, with no
//     regular expressions; no input panics, and memory stays proportional
//     to the input. The strings it returns are substrings of the input where
//     nothing had to be unescaped or lower-cased; the values decoded from
//     the escapes of title* and name* parameters are substrings of one
//     string for the whole call, one allocation.
//
// # Ext-values
//
// [ParseExtValue] and [ExtValue.String] read and write the ext-values of RFC
// 8187 §3.2, which title* and other star parameters carry:
//
//  11. An ext-value is charset "'" [ language ] "'" value-chars, the
//     value-chars being attr-chars and %HH escapes in either case; "+" is a
//     literal plus. A quoted-string is rejected (RFC 8187 §3.2.2).
//  12. The charset is matched case-insensitively. UTF-8, US-ASCII and
//     ISO-8859-1 decode, and so do the single-byte charsets of
//     golang.org/x/text/encoding/charmap (windows-1252, KOI8-R, ...) by
//     their IANA names and aliases. Any other charset is an error matching
//     [ErrCharset]: never guess. An octet the charset leaves undefined (0x81
//     in windows-1252) is an error too.
//  13. The language is optional; when present it must be a well-formed
//     language tag (RFC 5646 §2.1: en_US is not). A well-formed tag with an
//     unknown subtag ("cn") is accepted and kept as written.
//  14. Decoded text must be valid UTF-8. A bad escape (%ZZ, %4), a byte
//     that is not an attr-char, a missing apostrophe and an empty charset
//     are errors, each a [*SyntaxError] at the byte where it was found.
//  15. Writing uses UTF-8 and escapes every byte that is not an attr-char as
//     upper-case %HH, so that ParseExtValue(v.String()) gives v back with
//     Charset "UTF-8".
//
// # Writing links
//
// [Link.String], [Links.String] and [Add] write field values with these
// rules:
//
//  16. Whatever a Link holds, the output is printable ASCII, without CR, LF,
//     NUL or any other control character: no value can end the field, add
//     a header or smuggle in a second link-value.
//  17. Target and Anchor are written as URIs: an IRI is converted with RFC
//     3987 §3.1, and a byte that cannot appear in a URI-reference (space,
//     "<", ">", double quote, controls) or a "%" that does not start a %HH
//     escape is percent-encoded.
//  18. rel, anchor, rev, title and type are always quoted (rel="next"), as
//     naive receivers expect (RFC 8288 §3); hreflang, media and extension
//     parameters are tokens when they can be, quoted-strings otherwise.
//     Text that a quoted-string cannot carry (non-ASCII, controls), or that
//     has a language, is written as an ext-value (title*=UTF-8'de'n%C3%A4chstes,
//     rule 15). A [Param] with an empty value is written bare ("; crossorigin").
//  19. The order is <target>, rel, anchor, rev, each hreflang, media, title
//     or title*, type, then the Params in order, with "; " between
//     parameters and ", " between link-values.
//  20. What cannot be written safely is left out or made safe, never passed
//     through: a Param whose name is not a token, ends in "*" or is one of
//     the link's own names (rel, anchor, rev, hreflang, media, title, type)
//     is omitted; non-ASCII and controls in rel, rev, hreflang, media and
//     type are percent-encoded with upper-case hex digits, as are the
//     escapes a relation type holds (RFC 3986 §2.1; Parse reads those of
//     rel and rev back lower-cased, rule 5, the same relation type), and so
//     is a space inside one relation type, which Parse would read as two;
//     invalid UTF-8 in a title becomes U+FFFD;
//     an ext-value language that is not well-formed is left out (a title
//     that is empty as well, whole). When one
//     value of an extension parameter needs the star form, every value of
//     that name is written in it, since a receiver lets name* replace the
//     plain ones (rule 7). [Link.Validate] reports each of these.
//  21. Round trip: Parse(l.String()) gives l back for every Link in the form
//     Parse produces (lower-case names and relation types, no empty
//     relation type) whose Target, Anchor, Rel, Rev, Hreflang, Media and
//     Type are printable ASCII, with Target and Anchor URI-references.
//     Title and Params may hold any text.
//
// # Base URIs
//
//  22. Targets and anchors are resolved with RFC 3986 §5.2 (net/url's
//     ResolveReference). The target is resolved against the base URI, never
//     against the anchor (RFC 8288 §3.2). An empty Anchor means the default
//     context and stays empty.
//  23. For a response, the base URI is the URL of the request that produced
//     it, after redirects ([ParseResponse]), without its user information
//     and fragment (RFC 9110 §4.2.4, §7.1: a password in the URL never
//     reaches the links). A base URI in the body is not used. A target or
//     anchor that net/url cannot parse is left as written by
//     [Links.Resolve], and ParseResponse reports it as a [*ResolveError].
//
// # Validate
//
//  24. [Link.Validate] is strict, for senders, and returns every problem it
//     finds (errors.Join, each wrapping [ErrInvalidLink]): a rel is
//     present; every relation type is a lower-case reg-rel-type, registered
//     name or absolute URI ([Link.Unregistered] is stricter); each hreflang
//     is a well-formed language tag; Type is type/subtype; Target and Anchor
//     are URI-references or IRIs (rule 17); Param names are tokens without a
//     trailing "*" and not the link's own names; no value holds controls or
//     invalid UTF-8, and rel, rev, hreflang, media and type are ASCII.
//
// # Behind reverse proxies
//
// A proxy that does not know 1xx responses (nginx before 1.29 with
// proxy_http_version 1.1) takes a 103 for the final response, and browsers
// act on a 103 only over HTTP/2; a proxy also answers 502 to a response head
// larger than its buffer (nginx's default is 4 KiB). docs/serving.md has the
// measurements and a safe nginx configuration.
//
//  25. [EarlyHintsMiddleware] and [EarlyHintsFunc] send their 103 only to
//     requests whose ProtoMajor is 2 or more, or over HTTP/1.1 when the
//     request passed through [EarlyHintsHTTP1] first (it marks the request's
//     context), never over HTTP/1.0 (RFC 9110 §15.2). The links go on the
//     final response in every case.
//  26. [EarlyHints] sends the 103 it is told to send, over HTTP/1.1 as
//     well: the caller decides. Under this package's middleware it sends
//     nothing to an HTTP/1.0 client.
//  27. [MaxLinkBytes]: when a head is about to be written (the final one by
//     WriteHeader, Write, ReadFrom, Flush or the handler's return; each 1xx
//     one), the lengths of its Link field line values are added up, for
//     every header map key that is "Link" in any case, in the order
//     net/http writes them. Within the budget n, the lines are left byte
//     for byte. Beyond it, they are replaced by one "Link" line written by
//     [Links.String], holding the longest prefix of the links [ParseHeader]
//     reads from them that fits in n bytes; no Link field when the first
//     link does not fit. Malformed link-values are dropped. n < 1 is no
//     budget.
//  28. The dropped function is called once for each head of which anything
//     was left out, with the links after the prefix (possibly none: a
//     malformed link-value is not a Link), before the head is written and
//     the header map changes. If it panics, that head is not written, the
//     header map is as the handler left it, and the panic propagates. A 1xx
//     head is budgeted on its own and the handler's lines are put back
//     after it. Without a dropped function the budget costs the kept bytes
//     and the largest link-value, whatever the size of the field.
//  29. [Check] warns, once per field value, at the first link-value that
//     ends beyond byte 4096 (not counting the comma and whitespace after
//     it), that the field will not fit nginx's default proxy buffer. With
//     the rest of the head a smaller field can still fail: budget 3500.
//
// # Origins, credentials and resolution
//
//  30. Two URLs are one origin (RFC 6454 §4) when their schemes and ports
//     (an absent port being the scheme's default) are equal and net/http
//     would send both requests to the same host: a host of plain ASCII is
//     compared ASCII case-insensitively (but the zone of an IPv6 literal,
//     RFC 6874, byte for byte); a host with any byte outside ASCII is
//     compared byte for byte and is never the origin of an ASCII host
//     (net/http dials it by its IDNA mapping: docs/pagination.md).
//     Package paging, package discover and the weblink command use this rule.
//  31. A request to an origin its caller did not address (a redirect, or a
//     next link that paging's AllowCrossOrigin lets through) keeps, of the
//     header fields the caller set, only Accept, Accept-Encoding,
//     Accept-Language, Cache-Control, Pragma and User-Agent, under any
//     spelling: any other field may carry a credential (Authorization,
//     PRIVATE-TOKEN, X-Api-Key, ...). The addressed origins are the
//     request's and its https upgrade (same host, http on port 80 to https
//     on port 443); never the other way.
//  32. Resolution never decodes an escape: every %HH of the reference is
//     kept as written, in its case (RFC 3986 §2.2, §6.2.2: %2F is not "/").
//     Bytes a URI cannot hold (outside ASCII, controls, space, "<>\^`{|},
//     a "#" inside the fragment) are percent-encoded in upper case, by the
//     IRI to URI mapping of RFC 3987 §3.1 for bytes outside ASCII: so
//     <http://x/a%2fb/ä> resolves to http://x/a%2fb/%C3%A4, where net/url
//     alone writes http://x/a/b/%C3%A4. User information is kept as written
//     ("@" as %40), but a url.URL holds it decoded: NextURL's URL for
//     <//a%3Db@h/> writes http://a=b@h/. The host is left to net/url.
//  33. [Check] allocates no more per input byte than [Parse] may (80 bytes
//     a byte): after 256 problems it only counts the rest, building no
//     message for them, and it parses each link-value into reused memory.
//
// # API catalogs
//
//  34. [APICatalogHandler] serves an API catalog (RFC 9727 §4) as a linkset
//     in application/linkset+json (RFC 9727 §4.2), with
//     profile="https://www.rfc-editor.org/info/rfc9727" (RFC 9264 §5).
//  35. A link without Anchor gets the publisher as its context; a link with
//     an Anchor keeps it (RFC 9727 Appendix A puts an API's service-desc
//     and service-doc links under the API's URL).
//  36. Requests are answered as [LinksetHandler] answers them: Accept
//     chooses application/linkset+json or application/linkset (both with
//     the profile), a strong ETag per format with 304 Not Modified, 406
//     when neither format is acceptable, 405 for methods other than GET
//     and HEAD.
//  37. Every response, whatever its status, carries Link: <path>;
//     rel="api-catalog" with the path the client sent (Request.RequestURI,
//     also under http.StripPrefix; RFC 9727 §2), and HEAD gets no body. A
//     path that starts with "//" is written "/.//...", never as a reference
//     to another host.
//  38. The catalog is what APICatalogHandler was given when it was called:
//     the links are copied, and later changes to them do not show.
package weblink
