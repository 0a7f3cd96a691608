// Package weblink parses, resolves and writes the HTTP Link header of Web
// Linking (RFC 8288, which replaced RFC 5988), with the RFC 8187 (RFC 5987)
// ext-values of title*, the RFC 3986 reference resolution it relies on, and
// the IANA link relations registry.
//
// The rules below are numbered once for the whole package: code, tests
// (rule1/...) and the reason fields of testdata cite them as "rule N".
//
// # Reading links
//
// [Parse] reads one field value, [ParseHeader] every Link line of a header,
// and [ParseResponse] the links of a response, resolved against the URL that
// the response came from:
//
//	links, err := weblink.ParseResponse(resp)
//	if next, ok := links.Rel("next"); ok {
//		// next.Target is absolute
//	}
//
// The parsers follow RFC 8288 §3 and Appendix B with these rules, where the
// algorithm as printed is wrong or silent:
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
//     (application/linkset, folded lines) parse; net/http never hands a
//     header value with CR or LF to a program.
//  3. A parameter is ";" OWS name BWS [ "=" BWS value ]. Names are
//     lower-cased (ASCII). A value that starts with a double quote is a
//     quoted-string, whose backslash escapes are removed; any other value
//     runs to the next ";" or "," without trailing whitespace, and a double
//     quote or "<" inside it is an ordinary character, so type=text/html is
//     read as the sender meant. A parameter without "=" (crossorigin) has
//     the value "". Empty parameters (";;") are skipped.
//  4. rel, anchor, rev, media, title, title* and type count once: the first
//     occurrence wins and later ones are ignored without an error (RFC 8288
//     §3.3, §3.4.1). hreflang and extension parameters keep every
//     occurrence, in order.
//  5. Relation types (of rel and rev) are split on runs of whitespace,
//     empty ones dropped, and ASCII-lower-cased: registered and extension
//     relation types compare case-insensitively (RFC 8288 §2.1.1, §2.1.2).
//  6. title* is decoded as an ext-value (rules 11 to 14; a quoted value is
//     unquoted first, as Appendix B.3 step 7 does). When it decodes it
//     replaces title, after the first-wins filtering of rule 4 (RFC 8288
//     erratum 5878), and its language goes to [Link.TitleLang]. When it does
//     not, it is dropped, title stays, and the error says why.
//  7. An extension parameter name* is decoded the same way. When it decodes
//     it replaces every plain name parameter of its link and is stored, at
//     the position of the name*, as Param{Name: "name", Value, Lang}; when it
//     does not, it is dropped and reported. Every name* is kept (extension
//     parameters repeat). rel*, anchor*, rev*, hreflang*, media* and type*
//     are not supported forms and are ignored without an error, like the
//     repeats of rule 4.
//  8. A malformed link-value is dropped whole and reported: a header cut
//     short by a proxy never yields a link built from its broken end
//     (rel="la"). Malformed means: it does not start with "<" after OWS, its
//     "<" or a quoted-string is never closed, or something other than OWS,
//     ";" or "," follows ">" or a parameter. Parsing resumes after the next
//     comma outside <...> and quoted-strings, the way browsers split the
//     field; the links before and after it are kept.
//  9. The error is nil when nothing of the input was dropped (rules 6, 7
//     and 8). Otherwise it reports each problem: errors.As finds a
//     [*SyntaxError] whose Offset is the byte of the first one, and
//     errors.Is(err, [ErrSyntax]) is true. What the RFC itself says to
//     ignore (the repeats of rule 4, the star forms of rule 7) and readings
//     that lose nothing (an unquoted type=text/html, whitespace inside <>)
//     are not errors. [ParseHeader] offsets are within the field line, and
//     its errors say which line. The links that were well-formed are
//     returned either way: a caller may ignore the error.
//  10. Parsing is one pass over the bytes, linear in the input, with no
//     regular expressions; no input panics, and memory stays proportional
//     to the input. The strings it returns are substrings of the input where
//     nothing had to be unescaped or lower-cased.
//
// # Ext-values
//
// [ParseExtValue] and [ExtValue.String] read and write the ext-values of RFC
// 8187 §3.2 (RFC 5987 before it), which title* and other star parameters
// carry:
//
//  11. An ext-value is charset "'" [ language ] "'" value-chars, the
//     value-chars being attr-chars and %HH escapes in either case of hex
//     digit; "+" is a literal plus. ParseExtValue rejects a quoted-string
//     (a double quote is not an attr-char; RFC 8187 §3.2.2).
//  12. The charset is matched case-insensitively. UTF-8, US-ASCII and
//     ISO-8859-1 (which RFC 5987 required) decode, and so do the other
//     single-byte charsets of golang.org/x/text/encoding/charmap
//     (windows-1252, ISO-8859-15, KOI8-R, ...) by their IANA names and
//     aliases. Any other charset is an error matching [ErrCharset]: never
//     guess. An octet that the charset leaves undefined (0x81 in
//     windows-1252, 0x80-0x9F in ISO-8859-n) is an error too.
//  13. The language is optional; when present it must be a well-formed
//     language tag (RFC 5646 §2.1: ASCII letters, digits and hyphens, so
//     en_US is not) as golang.org/x/text/language parses it. A well-formed
//     tag with an unknown subtag ("cn") is accepted; the tag is kept as
//     written.
//  14. Decoded UTF-8 must be valid UTF-8. A bad escape (%ZZ, %4), a byte
//     that is not an attr-char, a missing apostrophe and an empty charset
//     are errors, each a [*SyntaxError] at the byte where it was found.
//  15. Writing always uses UTF-8 and escapes every byte that is not an
//     attr-char as upper-case %HH, so that ParseExtValue(v.String()) gives
//     v back with Charset "UTF-8".
//
// # Paging
//
// [Pages] follows rel="next" from page to page as an iterator, with the
// safety checks an API client needs (loops, schemes, origins, credentials,
// page limits); [NextURL] gives the next page of one response. [Items]
// yields the items of every page instead of the responses ([JSONItems]
// decodes a JSON array), and [WaitRateLimits] makes either wait out the
// rate limits of GitHub, GitLab and Retry-After instead of failing.
// [Links.AllRel] gives every link of a relation type, not only the first.
//
// # Writing links
//
// [Link.String] and [Links.String] write field values, and [Add] appends a
// Link line to a header, with these rules:
//
//  16. Whatever a Link holds, the output is printable ASCII, without CR, LF,
//     NUL or any other control character: no value can end the field, add
//     a header or smuggle in a second link-value.
//  17. Target and Anchor are written as URIs: an IRI is converted with RFC
//     3987 §3.1 (UTF-8, then percent-encoding), and a byte that cannot
//     appear in a URI-reference (space, "<", ">", double quote, controls)
//     or a "%" that does not start a %HH escape is percent-encoded.
//  18. rel, anchor, rev, title and type are always quoted (rel="next"), as
//     the most naive receivers expect (RFC 8288 §3: "senders wishing to
//     maximize interoperability"); hreflang, media and extension parameters
//     are tokens when they can be, quoted-strings otherwise, escaping the
//     double quote and backslash. Text that a quoted-string cannot carry
//     (non-ASCII, controls), or that has a language, goes into an RFC 8187
//     ext-value (title*=UTF-8'de'n%C3%A4chstes, rule 15). A [Param] with an
//     empty value is written bare ("; crossorigin").
//  19. The order is <target>, rel, anchor, rev, each hreflang, media, title
//     or title*, type, then the Params in order, with "; " between
//     parameters and ", " between link-values.
//  20. What cannot be written safely is left out or made safe, never passed
//     through: a Param whose name is not a token, ends in "*" or is one of
//     the link's own names (rel, anchor, rev, hreflang, media, title, type)
//     is omitted; non-ASCII and controls in rel, rev, hreflang, media and
//     type are percent-encoded; invalid UTF-8 in a title becomes U+FFFD; an
//     ext-value language that is not well-formed is left out. When one
//     value of an extension parameter needs the star form, every value of
//     that name is written in it, since a receiver lets name* replace the
//     plain ones (rule 7). [Link.Validate] reports each of these.
//  21. Round trip: Parse(l.String()) gives l back for every Link in the form
//     Parse produces (lower-case names and relation types, no empty
//     relation type) whose Target, Anchor, Rel, Rev, Hreflang, Media and
//     Type are printable ASCII, with Target and Anchor URI-references.
//     Title and Params may hold any text.
//
// [Link.Validate] reports what a link about to be sent gets wrong, and
// [Link.Unregistered] the relation types that are neither registered nor
// URIs. [Check] reads a whole field value as a sender wrote it and reports,
// with byte offsets, what RFC 8288 and RFC 9110 forbid senders but Parse
// tolerates, every Validate problem, and links that are allowed but will not
// work as meant (a preload without as, a font preload without crossorigin).
// [Parser] is Parse for hot paths: it reuses the memory of its previous
// result.
//
// [Middleware], [EarlyHints], [EarlyHintsMiddleware] and [EarlyHintsFunc]
// add links to the responses of a net/http server (with 103 Early Hints
// that Chromium acts on over HTTP/2: see docs/serving.md), and [PageLinks]
// builds first, prev, next and last links for a paged collection. [Links.MarshalJSON],
// [Links.UnmarshalJSON], [ParseLinkset], [FormatLinkset] and
// [LinksetHandler] speak the linkset formats of RFC 9264.
//
// # Base URIs
//
//  22. Targets and anchors are resolved with RFC 3986 §5.2 (net/url's
//     ResolveReference, which passes every example of §5.4). The target is
//     resolved against the base URI, never against the anchor (RFC 8288
//     §3.2). An empty Anchor means the default context and stays empty.
//  23. For a response, the base URI is the URL of the request that produced
//     it, after redirects ([ParseResponse]), as its target URI: without the
//     user information and fragment of the request URL, which RFC 9110
//     §4.2.4 and §7.1 keep out of requests (so a password in the URL never
//     reaches the links). A base URI in the body is not used. A target or anchor that net/url cannot parse is left as written
//     by [Links.Resolve], and ParseResponse reports it as a [*ResolveError].
//
// # Validate
//
//  24. [Link.Validate] is strict, for senders, and returns every problem it
//     finds (errors.Join, each wrapping [ErrInvalidLink]), not just the
//     first: a rel is present; every relation type is a lower-case
//     reg-rel-type, a lower-case registered name or an absolute URI
//     (unregistered types are accepted; [Link.Unregistered] is stricter);
//     each hreflang is a well-formed language tag; Type is type/subtype
//     (mime.ParseMediaType); Target and Anchor are URI-references or IRIs
//     (rule 17 converts IRIs); Param names are tokens without a trailing
//     "*" and not the link's own names; no value holds control characters
//     or invalid UTF-8, and rel, rev, hreflang, media and type are ASCII.
//
// # Origins, credentials and fan-out
//
//  30. Two URLs are one origin (RFC 6454 §4) when their schemes and ports
//     (an absent port being the scheme's default) are equal and net/http
//     would send both requests to the same host: a host of plain ASCII is
//     compared ASCII case-insensitively; a host with any byte outside ASCII
//     is compared byte for byte and is never the origin of an ASCII host.
//     net/http dials such a host by its IDNA mapping (UTS #46), which
//     strings.ToLower does not follow: http://api.gİthub.test (U+0130) goes
//     to api.xn--github-qyd.test, not api.github.test, so it gets none of
//     the credentials of api.github.test, and an error shows its host as
//     net/url writes it, api.g%C4%B0thub.test. [Pages], package discover
//     and the weblink command use this rule.
//  31. A request that goes to an origin its caller did not address (a
//     redirect, or a next link with [AllowCrossOrigin]) keeps, of the
//     header fields the caller set, only Accept, Accept-Encoding,
//     Accept-Language, Cache-Control, Pragma and User-Agent, under any
//     spelling of their names. Any other field may carry a credential:
//     Authorization, Cookie and Proxy-Authorization, which net/http knows,
//     but also PRIVATE-TOKEN (GitLab), X-Api-Key, Api-Key, X-Auth-Token and
//     every API's own name, which no list can hold. "Its caller addressed"
//     means req's origin and its https upgrade (the same host, from http on
//     port 80 to https on port 443); never the other way.
//  32. Resolution never decodes an escape: every %HH of the reference is
//     kept as written (RFC 3986 §2.2 and §6.2.2.2: only unreserved
//     characters may be decoded, and %2F is not "/"), in its case as
//     written, which §6.2.2.1 makes equivalent to upper case. Bytes a URI
//     cannot hold (outside ASCII, controls, space, "<>\^`{|}, and a "#"
//     inside the fragment) are percent-encoded in upper case: for the bytes outside ASCII, the IRI
//     to URI mapping of RFC 3987 §3.1. So <http://x/a%2fb/ä> resolves to
//     http://x/a%2fb/%C3%A4, where net/url alone writes http://x/a/b/%C3%A4
//     (it drops a path as written when the path is not plain ASCII), in
//     [Links.Resolve], [ParseResponse], [NextURL], [Pages] and package
//     discover alike. The host is left to net/url (rule 30).
//  33. [Check] allocates no more per input byte than [Parse] may (80 bytes
//     a byte of input; a Link is 192 bytes and "<>," is 3): once it has
//     listed its 256 problems it only counts the rest, building no message
//     and no error for them (Parse, told that its problems are full, counts
//     its own the same way), and it parses each link-value into the same
//     reused memory ([Parser]). Before, hostile input cost Check up to 243
//     bytes a byte.
package weblink
