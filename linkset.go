package weblink

import (
	"errors"
)

// Media types of the two linkset formats (RFC 9264 §8.2 and §8.3).
//
// They are for Content-Type and Accept fields and for the type attribute
// of a link with the relation type "linkset" (RFC 9264 §6).
const (
	// LinksetType is the media type of the Link-field syntax of RFC 9264
	// §4.1, which FormatLinkset writes and ParseLinkset reads.
	LinksetType = "application/linkset"
	// LinksetJSONType is the media type of the JSON format of RFC 9264
	// §4.2, which FormatLinksetJSON writes and ParseLinksetJSON reads.
	LinksetJSONType = "application/linkset+json"
)

// ErrInvalidLinkset is wrapped by every error of [ParseLinksetJSON] and
// [FormatLinksetJSON].
//
// ParseLinksetJSON returns one for a document that breaks a rule of RFC 9264
// §4.2, FormatLinksetJSON for a link that the JSON format cannot represent.
// Test for it with errors.Is.
var ErrInvalidLinkset = errors.New("weblink: invalid linkset")

// ParseLinkset parses an application/linkset document (RFC 9264 §4.1).
//
// The document has the syntax of a Link header field value in which
// newlines may separate link-values and parameters, as spaces and tabs do.
// ParseLinkset applies the rules of [Parse], with the same links, errors and
// offsets (byte offsets in doc); the links of a malformed link-value are
// dropped and reported, the others are returned either way.
func ParseLinkset(doc []byte) (Links, error) {
	// Parse already counts CR and LF as whitespace (chars.go), which is the
	// only difference RFC 9264 §4.1 makes.
	return Parse(string(doc))
}

// FormatLinkset returns ls as an application/linkset document (RFC 9264
// §4.1).
//
// The document has one link-value per line, written by [Link.String], each
// line but the last ending with ",", and a final newline. It is ASCII, as §4.1
// requires. [ParseLinkset] reads it back, and so does [Parse] once the newlines
// are removed (which RFC 9264 §4.1 requires before the document is used as a
// Link field value). An empty ls gives an empty document.
func FormatLinkset(ls Links) []byte {
	var b []byte
	for i, l := range ls {
		b = l.appendTo(b) // Link.String's formatter
		if i < len(ls)-1 {
			b = append(b, ',')
		}
		b = append(b, '\n')
	}
	return b
}
