package linkformat

import "github.com/weblinking/weblink"

// MediaType is the media type of CoRE Link Format documents (RFC 6690 §7.3),
// which CoAP numbers as Content-Format 40 (RFC 7252 §12.3).
const MediaType = "application/link-format"

// Parse parses a link-format document (RFC 6690 §2) into its links, one
// [weblink.Link] per link-value, in document order (rules 1 to 3):
//
//	Link       = link-value-list
//	link-value-list = [ link-value *[ "," link-value ]]
//	link-value = "<" URI-Reference ">" *( ";" link-param )
//
// The syntax is that of the Link header field (RFC 8288 §3), and Parse reads
// it exactly as [weblink.Parse] reads string(doc): the same links, the same
// errors with the same byte offsets. Whitespace (SP, HTAB, CR, LF) is
// allowed around the delimiters, as the documents of RFC 6690 §5 and the
// TimeMaps of RFC 7089 §5 are printed, and a trailing comma is an empty
// element. Targets and values are kept as written: UTF-8 stays UTF-8, escapes
// are not decoded, and rt, if, ct, sz and obs stay in Params, one Param per
// occurrence ([Values] and [ContentFormats] split them).
//
// The links do not refer to doc's memory: the caller may reuse it. The error
// is nil when nothing of doc was dropped; otherwise errors.As finds a
// [*weblink.SyntaxError] whose Offset is the byte of doc where the first
// problem is. The links are returned either way.
func Parse(doc []byte) (weblink.Links, error) {
	// string(doc) copies doc once; weblink.Parse's links are substrings
	// of that copy.
	return weblink.Parse(string(doc))
}
