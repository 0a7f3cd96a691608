// Package weblink reads, follows and writes the HTTP Link header of Web
// Linking (RFC 8288, which replaced RFC 5988): it parses real headers
// correctly, pages through APIs safely by their rel="next" links, serves
// links and 103 Early Hints, and checks what a server sends. It covers the
// RFC 8187 (RFC 5987) ext-values of title*, the RFC 3986 reference
// resolution Link relies on, the IANA link relations registry and RFC 9264
// linksets.
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
// a next link anchored at another resource. [Parse] reads one field value
// and [ParseHeader] every Link line of an http.Header.
//
// Page through an API: [Pages] yields each page's response, [Items] the
// decoded items of every page. A page's body is closed when the loop body
// returns, so read it there; next links are followed on the first page's
// origin only, and its credentials are never sent to another origin:
//
//	for issue, err := range weblink.Items(ctx, nil, req, weblink.JSONItems[Issue],
//		weblink.WaitRateLimits(10*time.Minute)) {
//		if err != nil {
//			return err
//		}
//		handle(issue)
//	}
//
// A refused page ends the loop with a [*StatusError] that carries the
// response's header and the start of its body. For long runs, share one
// [RateLimiter] between the iterations that use one token, and resume from
// [BeforeNext]'s next URL after a crash; [Parallel] requests the pages of a
// page-numbered API (one with a rel="last" link) n at a time, in order.
//
// Serve links: [Add] writes a Link field line that no value can break out
// of, [Middleware] adds links to every response, [EarlyHintsMiddleware]
// sends the preloads in a 103 Early Hints response first, and [PageLinks]
// builds first, prev, next and last links for a paged collection:
//
//	weblink.Add(w.Header(), weblink.Link{Target: "/items?page=3", Rel: []string{weblink.RelNext}})
//	http.ListenAndServe(":8080", weblink.Middleware(schemaLink)(mux))
//
// The middlewares send their 103 over HTTP/2 only, unless [EarlyHintsHTTP1]
// says the proxy in front passes a 103 on; [MaxLinkBytes], outermost,
// keeps Link fields within a proxy's header buffer and reports what it
// drops; [APICatalog] serves an RFC 9727 API catalog.
//
// Lint what a server sends: [Check] reports, with byte offsets, what RFC
// 8288 forbids senders and what will not work as meant (a preload without
// as), and [Link.Validate] checks a Link before it is sent:
//
//	for _, p := range weblink.Check(resp.Header.Get("Link")) {
//		fmt.Println(p.Offset, p.Msg)
//	}
//
// Discover the links of a page's body too (HTML, feeds, linksets), in the
// order Webmention and WebSub want, with the discover package:
//
//	links, err := discover.Links(ctx, nil, req)
//
// Two subpackages read the formats built on Web Linking: linktemplate the
// Link-Template field of RFC 9652 (URI Templates, expanded by RFC 6570),
// and linkformat the application/link-format documents of CoAP discovery
// (RFC 6690) and web archives' TimeMaps (RFC 7089).
//
// From the shell, the weblink command (cmd/weblink) shows, checks and
// follows Link headers: curl -sI https://example.com/ | weblink.
//
// The sections below are the reference. Their rules are numbered once for
// the whole package: code, tests (rule1/...) and the reason fields of
// testdata cite them as "rule N".
//
// # Reading links
//
// [Parse] reads one field value, [ParseHeader] every Link line of a header,
// and [ParseResponse] the links of a response, resolved against the URL that
// the response came from:
//
//	links, err := weblink.ParseResponse(resp)
//	if alt, ok := links.Rel("alternate"); ok {
//		// alt.Target is absolute
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
//     nothing had to be unescaped or lower-cased; the values decoded from
//     the escapes of title* and name* parameters are substrings of one
//     string for the whole call, one allocation.
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
// builds first, prev, next and last links for a paged collection. [FormatLinksetJSON],
// [ParseLinksetJSON], [ParseLinkset], [FormatLinkset] and
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
// # Behind reverse proxies
//
// A reverse proxy that does not know 1xx responses takes the first response
// head it reads for the final one: nginx before 1.29 with
// proxy_http_version 1.1 (the usual setting, for keep-alive upstream
// connections) answers a client with the 103 and then no page at all
// (measured by TestProxies with Debian 12's nginx 1.22.1; Apache's
// mod_proxy_http and Caddy pass the 103 on). Browsers act on a 103 only
// over HTTP/2, so a request over HTTP/1.1 is almost always a proxy's hop.
// docs/serving.md has the table of proxies and a safe nginx configuration.
//
//  25. [EarlyHintsMiddleware] and [EarlyHintsFunc] send their 103 only to
//     requests whose ProtoMajor is 2 or more, or over HTTP/1.1 when the
//     request passed through [EarlyHintsHTTP1] before reaching them (it
//     marks the request's context), never over HTTP/1.0 (RFC 9110 §15.2).
//     The links go on the final response in every case.
//  26. [EarlyHints] sends the 103 it is told to send, over HTTP/1.1 as
//     well: the caller decides. Under this package's middleware it sends
//     nothing to an HTTP/1.0 client.
//
// Proxies also refuse response heads larger than their buffers: nginx's
// default proxy_buffer_size is one memory page (4 KiB), and a larger head is
// a 502. [MaxLinkBytes] keeps the Link field of every head within a budget,
// and reports what it leaves out:
//
//  27. When a head is about to be written (the final one by WriteHeader,
//     Write, ReadFrom, Flush or the handler's return; each 1xx one), the
//     lengths of the values of its Link field lines are added up: the
//     lines of every header map key that is "Link" in any case ("link",
//     set directly in the map, is sent as well), in the order net/http
//     writes them (keys sorted by their bytes, then each key's lines).
//     Within the budget n, the lines are left byte for byte. Beyond it,
//     they are replaced by one "Link" line written as [Links.String]
//     writes it, holding the longest prefix, in that order, of the links
//     ParseHeader reads from them whose Links.String is at most n bytes; no
//     Link field when the first link does not fit. Malformed link-values
//     are dropped. n < 1 is no budget.
//  28. The dropped function is called once for each head of which anything
//     was left out, with the links after the prefix (a malformed
//     link-value is not a Link: the list can be empty), before the head is
//     written and before the header map changes. If it panics, that head
//     is not written and the header map is as the handler left it; the
//     panic propagates from the call that was writing the head. A 1xx head
//     is budgeted on its own and the handler's lines are put back after
//     it, for the final head. Without a dropped function the budget costs
//     the kept bytes and the largest link-value, whatever the size of the
//     field; with one, the dropped links cost what ParseHeader makes of
//     them.
//  29. [Check] warns, once per field value, at the offset of the first
//     link-value whose last byte (not counting the comma and whitespace
//     after it) is beyond byte 4096, that the field value is longer than
//     4 KiB and will not fit nginx's default proxy buffer (a 502). A field
//     within 4096 bytes can still be too much with the rest of the head:
//     measured behind nginx 1.22.1, a Go server's head with a 4000-byte
//     Link field is a 502, and with a 3500-byte one passes.
//
// # Origins, credentials and fan-out
//
//  30. Two URLs are one origin (RFC 6454 §4) when their schemes and ports
//     (an absent port being the scheme's default) are equal and net/http
//     would send both requests to the same host: a host of plain ASCII is
//     compared ASCII case-insensitively, except the zone of an IPv6 literal
//     (http://[fe80::1%25eth0]/, RFC 6874), an interface name compared byte
//     for byte (eth0 and ETH0 are two); a host with any byte outside ASCII
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
//     discover alike. The user information is kept as written too, an "@"
//     inside it written %40; but a url.URL holds user information only decoded, so
//     the URL of [NextURL] and [Pages] has in URL.User the user name and
//     password net/http sends, which its String writes as net/url does:
//     <//a%3Db@h/> resolves to http://a%3Db@h/ as a target, and NextURL's
//     URL writes it http://a=b@h/. The host is left to net/url (rule 30).
//  33. [Check] allocates no more per input byte than [Parse] may (80 bytes
//     a byte of input; a Link is 192 bytes and "<>," is 3): once it has
//     listed its 256 problems it only counts the rest, building no message
//     and no error for them (Parse, told that its problems are full, counts
//     its own the same way), and it parses each link-value into the same
//     reused memory ([Parser]). Before, hostile input cost Check up to 243
//     bytes a byte.
//
// # Long runs: rate limits, errors, resuming
//
//  40. With [WaitRateLimits], a refusal that says how long to wait
//     (Retry-After, or a remaining count of 0 and a reset) is waited that
//     long. A 429 that says neither, and a 403 whose body's first 2 KiB
//     hold "rate limit" (ASCII case-insensitive; also when
//     X-RateLimit-Remaining is above 0), are backed off as GitHub documents
//     for its secondary rate limits: 60 s before the first retry of that
//     page, doubled for each further such refusal of the same page (60,
//     120, 240 s...); refusals that said how long do not count. A 503
//     without Retry-After stays an error. Every wait is within maxWait and
//     the 10 retries of a page; a wait that would pass maxWait is not slept.
//     The 2 KiB read to recognise a 403 is put back: a response yielded
//     with an error reads from its first byte.
//  41. A [RateLimiter] is WaitRateLimits shared by every iteration given
//     its [RateLimiter.PageOption], concurrent or later: what one of them
//     learns (a Retry-After, a reset, a backoff of rule 40, a 2xx page
//     saying the limit is spent) is a time T until which the API is limited,
//     and every request of every one of them, the first included, waits
//     until T. Each iteration's own waits still add up to at most maxWait;
//     a wait that would pass it ends the iteration at once with
//     [ErrRateLimited]. Safe for concurrent use; no goroutine is started.
//  42. A [*StatusError] carries the response's Header and the first 2 KiB
//     of its Body (nil when empty), read before the response is yielded;
//     [Pages] puts them back in front of the rest, so that resp.Body in the
//     loop still reads from byte 0 (a server that takes more than a second
//     to send them has the body cut where it was), and [Items], which closes
//     the body, leaves them in the error. A larger body costs 2 KiB, no
//     more. [StatusError.Error] shows neither: they are the peer's raw text.
//  43. Resuming: [BeforeNext] runs once the loop body has taken every item
//     of the previous page, and its next.URL is the checkpoint of a long
//     run: a new [Pages] or [Items] on a request for that URL yields the
//     rest, no item of a finished page again. The page under way when a run
//     stopped is requested again whole, so its first items come twice: make
//     what the loop body does idempotent, or commit a page's effects with
//     the checkpoint.
//  44. What a peer sends cannot stretch a run: a Retry-After or reset that
//     is negative, not a number (1e300, NaN) or past time.Duration is no
//     wait or a wait no maxWait allows (never slept); Retry-After: 0 again
//     and again ends after 10 retries of the page; the sum of one
//     iteration's waits never passes its maxWait; the body read ahead is
//     at most 2 KiB, for at most a second; every wait ends when ctx or
//     req.Context() is done.
//
// # Parallel pages
//
// [Parallel](n) lets [Pages] and [Items] request up to n pages at a time
// when an API numbers its pages, as GitHub, GitLab and json-server do, and
// still yield them one at a time, in order:
//
//  45. A series is predicted only when n > 1 and the first page has a
//     rel="last" link (whose context is the page, as for rel="next") whose
//     URL is that of the page's next link but for the value of one query
//     parameter, both values decimal integers without a sign or leading
//     zero, the next link's at most the last link's, and the next link's
//     one more than the current page's (a current URL without that
//     parameter is page 1). The URL of page k is then the next link with k
//     as that value. Anything else (no last link, a cursor, a last link on
//     another origin, scheme, host or path, two values that differ) is
//     paged one page at a time, as without Parallel.
//  46. The pages from next to last are requested with at most n in flight
//     (n above 64 is 64; a sliding window: a last page of 10^12 schedules
//     no more than n ahead) and yielded in page order; a slow page holds up its place in
//     the order, not the requests of the others. At most n responses wait,
//     unread, to be yielded, each holding its connection. The requests are
//     made by up to n goroutines, which the caller asks for by giving
//     Parallel; breaking out of the loop (or a panic in it) cancels the
//     requests in flight and closes their bodies, and no goroutine outlives
//     the iteration; a panic of the client (its RoundTripper or
//     CheckRedirect) for a page requested ahead is raised in the loop, in
//     that page's place, as one page at a time raises it. When ctx or req.Context() is done, a page received
//     but not yet yielded (its body cut) is not yielded: the context's
//     error ends the iteration in its place. A predicted page is compared with the next link of the
//     page before it as the server wrote it, and parsed only when the text
//     differs, so that a page costs no more allocations than one page at a
//     time but the query of its predicted URL.
//  47. Each predicted page is checked as a followed next link is (scheme,
//     origin, loops, credentials only to req's origin; its redirects under
//     the same rules; one that leads to a page visited or requested ahead
//     ends the prediction there, as if its next link were not the one
//     predicted, so that a loop is found as one page at a time finds it),
//     and its own next link must be the URL predicted for
//     the page after it, as written. When it is not (the collection
//     changed: a new snapshot, a page that is now the last, a last page
//     that now has a next link), the pages requested after it are
//     discarded unread (requests cancelled, bodies closed, no longer
//     counted as visited, under the URL predicted nor the one BeforeNext
//     gave them) once the loop body is done with that page, whose body is
//     read whole, and paging goes on from its own next link, one page at a
//     time. The body of a predicted page that the loop body leaves unread
//     is drained as one page at a time drains it, for at most a second:
//     a drain cut short cancels the requests ahead too (they share a
//     context), which are discarded, and paging goes on from that page's
//     own next link, one page at a time. A refused page that a rate limit
//     makes Pages request again is closed undrained. A page that is not 2xx, or any other error, ends the
//     iteration in its place, as it would one page at a time.
//  48. [MaxPages](m) counts yielded pages: no page beyond m is requested.
//     With [WaitRateLimits] or a [RateLimiter], a page refused by a rate
//     limit, or a 2xx page whose remaining count is 0, pauses every request
//     not yet sent until the time the server gave (rules 40 and 41; the
//     refused page is then requested again). Requests of the iteration
//     waiting at once for the same time are charged to maxWait once: the
//     iteration's waits are the time it was paused, in all. When a pause
//     would pass maxWait, no more requests are sent, and the first page in
//     order that was refused or not sent ends the iteration with
//     [ErrRateLimited].
//  49. [BeforeNext] runs in the goroutine that ranges over the sequence,
//     for each request before it is sent, which is ahead of the loop body:
//     its prev is the latest page received in order (whose body it must not
//     read). The checkpoint from which to resume a stopped iteration is
//     therefore [NextURL] of the last page the loop body finished, not the
//     latest request BeforeNext saw.
//
// # API catalogs
//
//  50. [APICatalog] serves an API catalog (RFC 9727 §4): the links as a
//     linkset in application/linkset+json, the format RFC 9727 §4.2
//     requires, with profile="https://www.rfc-editor.org/info/rfc9727" on
//     the media type (RFC 9264 §5).
//  51. A link without Anchor gets the publisher given to APICatalog as its
//     context; a link with an Anchor keeps it (RFC 9727 Appendix A puts an
//     API's service-desc and service-doc links under the API's URL).
//  52. Requests are answered as [LinksetHandler] answers them: Accept
//     chooses application/linkset+json or application/linkset (both with
//     the profile), a strong ETag per format with 304 Not Modified, 406
//     when neither format is acceptable, 405 for methods other than GET
//     and HEAD.
//  53. Every response, whatever its status, carries Link: <path>;
//     rel="api-catalog", with the request's path (RFC 9727 §2 requires it
//     of HEAD), and a HEAD request is answered with the header and no body.
//     The path is the one the client sent (Request.RequestURI), also under
//     http.StripPrefix. A path that starts with "//" is written "/.//..."
//     (the same path, RFC 3986 §5.2.4), never as a reference to another
//     host.
//  54. The catalog is what APICatalog was given when it was called: the
//     links are copied, and later changes to them do not show.
package weblink
