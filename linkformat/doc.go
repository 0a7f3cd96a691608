// Package linkformat reads and writes application/link-format documents:
// the CoRE Link Format of RFC 6690, which CoAP devices serve at
// /.well-known/core and resource directories (RFC 9176) and LwM2M servers
// exchange, and the Memento TimeMaps of RFC 7089 §5, which web archives
// serve. The syntax is that of the HTTP Link header field, which package
// weblink reads; the meaning differs, and that is what this package adds.
//
// A client needs two calls, [Parse] then [Resolve]:
//
//	links, err := linkformat.Parse(payload) // the body of GET /.well-known/core
//	links = linkformat.Resolve(links, docURL)
//	for _, l := range links {
//		if slices.Contains(linkformat.Values(l, "rt"), "temperature-c") {
//			// l.Target is absolute; l.Anchor is the host that has it
//		}
//	}
//
// or, for a TimeMap, [ParseTimeMap]:
//
//	tm, err := linkformat.ParseTimeMap(body, timeMapURL)
//	for _, m := range tm.Mementos {
//		// m.Target, m.Datetime (UTC), m.Rel ("first memento", ...)
//	}
//
// [Values] splits the space-separated rt and if attributes, and
// [ContentFormats] the ct attribute. [Format] writes links back as strictly
// as the deployed parsers need. The links are [weblink.Links], the model of
// package weblink: only how they are read and resolved differs.
//
// The rules below are numbered for this package: code and tests cite them
// as "rule N".
//
// # Reading
//
//  1. [Parse] gives the same links, the same errors and the same byte
//     offsets as weblink.Parse(string(doc)), for every input: the first rel,
//     anchor, rev, media, title, title* and type count; every other
//     attribute is kept in Params, in order, repeats included; names are
//     lower-cased; rel and rev are split and lower-cased; title* and name*
//     are decoded; a malformed link-value is dropped whole and reported with
//     a [*weblink.SyntaxError] at its byte offset in doc, the links around
//     it kept; an empty document is no links and no error.
//  2. Whitespace is SP, HTAB, CR and LF, wherever RFC 8288 allows it (before
//     "<", after ">", around ";", "," and "="): RFC 6690 §5 and RFC 7089 §5
//     print their documents with line breaks there, and archives end every
//     line with ",\n", the last one too: a trailing comma is an empty
//     element, skipped. Inside a quoted-string a line break is content.
//  3. Targets and values are kept as written: UTF-8 stays UTF-8 (a
//     link-format document is UTF-8, RFC 6690 §2), percent-escapes are not
//     decoded, rt and if values keep their case. Leniency that loses
//     nothing is not an error: ct=60 110 112 unquoted, a repeated ct or rt,
//     spaces around delimiters. The links do not refer to doc's memory.
//
// # Attributes
//
//  4. [Values] returns the values of every Param of a name (ASCII
//     case-insensitive), each split on runs of ASCII whitespace, in order,
//     repeats included, nil when there is none: rt and if are
//     space-separated lists (RFC 6690 §3.1, §3.2). obs (RFC 7641 §6) is a
//     Param with an empty value; sz (RFC 6690 §3.3) a Param of digits.
//  5. [ContentFormats] returns every token of every ct Param (RFC 7252
//     §7.2.1: the quoted list ct="0 41", an unquoted one, ct repeated), in
//     order, duplicates kept. A token that is not 1 to 5 ASCII digits with a
//     value up to 65535 is skipped and named in the error; the numbers that
//     parse are returned either way. No ct: nil, nil.
//
// # Resolving
//
//  6. The origin of a URI is its scheme (lower-cased), "://", its host and
//     port as written, and the path "/": userinfo, query and fragment
//     dropped (RFC 6454 §4; RFC 9176 Appendix B.4 resolves the reference "/"
//     against the URI). For [Resolve], the URI is doc, the one the document
//     was retrieved from (for CoAP, built from the responding endpoint as
//     RFC 7252 §6.5 and §8.2 say); only its origin is used, with its host
//     written as in a URI (the zone of [fe80::1%25wlan0] keeps its %25,
//     which url.Parse decodes).
//  7. Each link's context becomes its Anchor, always absolute: an anchor is
//     resolved against the origin of doc (RFC 6690 §2.1 (a); anchor="" is
//     the same as none); without one, the context is the origin of the
//     link's resolved target when that has a scheme and a host (§2.1 (b):
//     a resource directory's <coap://[2001:db8:f0::1]/sensors/temp> is
//     hosted by coap://[2001:db8:f0::1]/, not by the directory), else the
//     origin of doc (a urn: target).
//  8. A relative target is resolved against the link's anchor when it has
//     one (<t123.pdf>;anchor="http://www.example.com/sensors/t123" is
//     http://www.example.com/sensors/t123.pdf), else against the origin of
//     doc (<sensors> in /device/index is /sensors). Resolution is the
//     strict algorithm of RFC 3986 §5.2 (http:g is absolute) and passes
//     the examples of §5.4; the dot-segments of absolute targets are
//     removed too, in time linear in the path. A path that would start
//     with "//" without an authority is written "/." then the path, as the
//     URL Standard does, so that it is not read as an authority.
//  9. A link without a relation type gets Rel ["hosts"] (RFC 6690 §2.2, §7.2).
//  10. Nothing is percent-encoded or decoded: UTF-8 stays UTF-8
//     (coap://host/temperature/Malmö), %2F stays %2F. After Resolve every
//     link is self-contained (absolute Target and Anchor, a relation), and
//     resolving again changes nothing. The argument is not modified. A nil
//     doc, or one without a scheme or a host, gives an unchanged copy.
//
// # Writing
//
//  11. [Format] joins link-values with "," and introduces parameters with
//     ";", with no whitespace outside quoted-strings and no trailing comma
//     or newline (the ABNF of RFC 6690 §2 allows none); no links is an empty
//     document. The order within a link is <target>, rel, anchor, rev, each
//     hreflang, media, title or title*, type, then Params in order. Target
//     and anchor are written as UTF-8 IRIs, never converted to URIs (RFC
//     9176 Appendix B.4); only what cannot stand in an IRI-reference is
//     percent-encoded as upper-case %HH: bytes 0x00 to 0x20 and 0x7F, `"`
//     `<` `>` `\` `^` "`" `{` `|` `}`, the C1 controls U+0080 to U+009F
//     (not characters of an IRI, RFC 3987 §2.2; a terminal reads U+009B as
//     CSI), and bytes that are not valid UTF-8. "%" is written as is.
//  12. Relation types (rel, rev) are ASCII lower-cased and joined by one
//     space; a type's whitespace, controls (C0, DEL and C1), `"`, `\` and
//     invalid UTF-8 are percent-encoded, so that it stays one type; its
//     escapes, those written and those it holds, have upper-case hex
//     digits (%0A), as RFC 3986 §2.1 asks of producers (relation types are
//     read lower-cased, so Parse reads %0a, the same type). Empty types are
//     left out.
//  13. Quoting is for the naive parsers deployed (Californium matches
//     \w+, RFC 6690 §5 quotes so): rel, rev, anchor, title, type, rt and if
//     are always quoted-strings; ct and sz are bare when all digits (ct=40,
//     sz=262144) and quoted otherwise (ct="0 41"); hreflang, media and every
//     other Param are bare when the value is an RFC 9110 token (ver=1.1)
//     and quoted otherwise; a Param with an empty value is its bare name
//     (obs). In quoted-strings `"` and `\` are escaped with `\` and UTF-8 is
//     written as is; in hreflang, media and type, controls (C0, DEL and C1)
//     and invalid UTF-8 are %HH.
//  14. A title with a TitleLang that is a well-formed language tag, or
//     holding a control character (C0, DEL or C1), is written title*= as
//     [weblink.ExtValue.String] writes it (RFC 6690 §2 allows title*);
//     otherwise title="..." in UTF-8. The same for Params: when one Param
//     of a name has such a Lang or a control character, every Param of that
//     name in the link is written name*=, since a name* replaces the plain
//     ones when read. Invalid UTF-8 in titles and values becomes U+FFFD.
//  15. A Param whose name is not an RFC 5987 parmname (ALPHA, DIGIT,
//     !#$&+-.^_`|~) or is one of the link's own names (rel, anchor, rev,
//     hreflang, media, title, type; ASCII case-insensitive) is left out.
//  16. The output is valid UTF-8 without control characters (C0, DEL or
//     C1). Whatever a Link holds, it becomes exactly one link-value that
//     Parse reads back without error, and Format(Parse(Format(ls))) is
//     Format(ls).
//     Parse(Format(ls)) is ls for links in the parsed form: lower-case
//     names and relation types, no empty or space-holding relation types,
//     targets and anchors without the characters of rule 11, valid UTF-8,
//     well-formed or empty languages, Param names that are parmnames.
//
// # TimeMaps
//
//  17. [ParseTimeMap] reads doc as Parse does and, when its docURL is not
//     nil, resolves targets and anchors as Resolve does, but leaves an
//     absent anchor and an absent rel absent: RFC 7089 §5 gives TimeMap
//     links their own contexts (the self link's is the TimeMap, the others'
//     the Original Resource). With a nil docURL everything is as written.
//  18. Original, TimeGate and Self are the targets of the first link having
//     each relation type; one link may be several (rel="original
//     timegate", RFC 7089 §4.1). From and Until are the self link's from
//     and until attributes, zero when absent or unreadable. The from and
//     until of timemap links (paging and index TimeMaps) stay in their
//     Params as written.
//  19. Mementos are the links having the relation type memento (alone or
//     with first, last, prev, next; in any case) whose datetime reads, in
//     document order: never sorted, duplicates kept (the Wayback Machine
//     lists one memento as both "first memento" and "memento"). A Memento's
//     Link is the parsed, resolved link, Params included.
//  20. Datetimes (datetime, from, until) are HTTP-dates read as
//     http.ParseTime reads them (RFC 7089 asks for rfc1123-date; the
//     obsolete forms of RFC 9110 §5.6.7 are accepted too), returned in UTC
//     whatever time.Local is.
//  21. Links holds every other link, in document order: those that supplied
//     none of Original, TimeGate and Self and are not Mementos (timemap
//     links, a second original, a memento whose datetime is missing or
//     unreadable). The error holds the problems Parse reports, one
//     [*weblink.SyntaxError] for each memento without a readable datetime,
//     and one for each unreadable from or until of the self link, each with
//     the Offset of its link's "<" in doc and a message naming the target
//     as written and the bad value; all in document order. As weblink.Parse
//     does, it lists the first 16 of them and counts the others in one
//     last error, "weblink: N more problems not listed". It is nil when
//     there are none; the rest of the TimeMap is returned either way.
//
// # Robustness
//
//  22. No input panics any function. Parse, Format, Resolve and
//     ParseTimeMap run in time linear in their input and use memory
//     proportional to it: a megabyte of "<", of `\"` inside an unclosed
//     quote, of ";x", of "</a>,", of dot-segments in one target, 100 000
//     mementos or random bytes return promptly.
//
// # What differs from RFC 8288
//
// The same links read as a Link header field ([weblink.Links.Resolve]) and
// as a link-format document ([Resolve]):
//
//	                      RFC 8288 (Links.Resolve)           RFC 6690 (linkformat.Resolve)
//	context, no anchor    the document's URI (Anchor "")      origin of the target, else of the
//	                                                          document; Anchor filled
//	relative target       against the document's URI,         against the anchor, else the
//	                      never the anchor                    document's origin
//	relative anchor       against the document's URI          against the document's origin
//	no rel                no relation                         hosts
//	non-ASCII, escapes    IRI→URI on output                   kept as written (UTF-8 document)
//	serialisation         ", " and "; ", IRIs percent-        "," and ";", UTF-8 as is, title*
//	                      encoded, title* for non-ASCII       only for a language or controls
//
// Documents in the Limited Link Format of RFC 9176 Appendix C (every
// reference a full URI or starting with a single "/") mean the same under
// both readings, except for the default context and relation.
//
// RFC 9176 Appendix B.4 and the CoRE working group's "Modernized Link
// Format" appendix (core-wg/resource-directory) describe these differences;
// erratum 5078 to RFC 7252 forbids a repeated ct to senders only, which is
// why Parse reads one (rule 3) and Format writes what it is given.
package linkformat
