// Package signposting reads and checks FAIR Signposting (the profile of
// signposting.org/FAIR, version 2023-10-02): the typed links with which a
// research repository tells machines where the persistent identifier, the
// metadata, the files, the licence and the authors of a record are.
//
//	s, err := signposting.Fetch(ctx, nil, req)
//	if err != nil {
//		return err // the request failed, or the status is an error
//	}
//	for _, p := range s.Check() {
//		log.Printf("level %d: %s", p.Level, p.Msg)
//	}
//	if pid, ok := s.CiteAs.Rel("cite-as"); ok {
//		// pid.Target is the persistent identifier
//	}
//
// Level 1 is the links written by value in the Link header field and the
// HTML <link> elements of a landing page (header first, as
// [discover.Links] returns them); Level 2 is the links of the RFC 9264
// linksets the landing page points to with rel="linkset". [Fetch] reads
// both; [FromLinks] builds the Level 1 signposts of links you already
// have; [Signposts.Check] lists what breaks the profile and
// [Signposts.Level] says which level holds.
//
// A resource is one of three kinds: a content resource (a file of the
// record) when it has a collection link, a metadata resource when it has a
// describes link, and a landing page otherwise. The same holds for each
// link context (anchor) of a linkset.
//
// # Rules
//
// Each problem [Signposts.Check] reports names its rule, "(rule 3)", and is
// an error (the profile's MUST) unless the rule says warning (its SHOULD).
// Level 1 rules apply to the links of the header and HTML, and the same
// rules apply at Level 2 to the link context objects of the linksets,
// with the problem's Level set to 2.
//
// Landing page (the profile's cardinalities):
//
//  1. A landing page has exactly one cite-as link: the persistent
//     identifier to cite and link to. None, or two with different targets,
//     is an error on each extra link.
//  2. The cite-as of the Link header and that of the HTML must be the same
//     target when both are given: a harvester cannot tell which to cite.
//     The HTML link at fault is reported, once, instead of rule 1.
//  3. A landing page has at least one describedby link, to a metadata
//     record about it, and each has a type attribute (the metadata's media
//     type), without which a harvester cannot choose a format.
//  4. Each item link (to a file of the record) has a type attribute.
//  5. A landing page has at most one license link.
//  6. A landing page has one or two type links (a schema.org or similar
//     type, and optionally https://schema.org/AboutPage).
//  7. A content resource has exactly one collection link, to its landing
//     page.
//  8. A metadata resource has exactly one describes link, to its landing
//     page.
//
// Every link:
//
//  9. The same link twice in one serialisation (the same relation type,
//     context, target and attributes) is a warning and counts once. The
//     same link in the header and in the HTML is no problem: the profile
//     lets a publisher write both.
//  10. A type attribute is a media type, type "/" subtype with optional
//     parameters (RFC 6838 §4.2, RFC 9110 §8.3.1): "csv" or "text/" is an
//     error.
//  11. A signpost's target is an absolute URI: a target with a control
//     byte, a space, or no scheme is an error.
//  12. A cite-as target on the landing page's own origin is a warning: the
//     profile means a persistent identifier (a DOI, a Handle at
//     hdl.handle.net, an ARK...), which outlives the repository's host
//     names, and a URL of the repository itself seldom is one.
//  13. The Link header and the HTML of the resource are well-formed: a
//     field that does not parse, or a body cut at discover's MaxBytes, is
//     an error (the signposts after it are lost).
//
// Level 2 (linksets):
//
//  14. A linkset is announced with rel="linkset" and a type attribute of
//     application/linkset+json or application/linkset (RFC 9264 §6): a
//     harvester chooses the format by it.
//  15. Each link of a linkset has an absolute anchor and an absolute
//     target, as written (the profile requires it, so that a linkset
//     means the same wherever it is copied); links without are an error,
//     resolved against the linkset's URL all the same.
//  16. The linksets hold a link context object for the landing page, its
//     URL as the anchor, and it has at least one item link (at Level 1
//     items are optional).
//  17. Level 2 needs a linkset that was read: a landing page without a
//     rel="linkset" link, or whose linksets could not be fetched or parsed
//     (a status other than 2xx, a body that is not a linkset, one cut at
//     MaxBytes, more linksets than discover follows), is an error naming
//     the rel="linkset" link at fault.
//  18. A target attribute written as a JSON string where RFC 9264 §4.2.4.3
//     requires an array of strings (InvenioRDM writes "profile" so) is read
//     as one value and is a warning.
//  19. A linkset wrapped in an envelope, {"data": {"linkset": [...]}} (the
//     Dataverse API before version 5.14), is read and is an error: RFC 9264
//     §4.2.1 readers reject it.
//
// At most 16 problems are reported for one rule and level; the next one
// says how many more there are, so a page of 10,000 bad signposts gives a
// short list. Messages quote what a peer sent with Go escapes, so they
// carry no control bytes to a terminal or log.
//
// # Reading
//
// [Fetch] uses [discover.Links] with [discover.FollowLinksets], and so
// discover's bounds and credential rules: at most 4 MiB of the landing
// page and of its linksets together, at most 16 linksets, only on the
// landing page's origin, each fetched once and never from a linkset (a
// linkset that points to itself is read once), and Authorization and
// Cookie kept only on redirects within the origin. A linkset request
// carries the User-Agent of the request and none of its credentials, on
// the origin too: a linkset behind a login is not read (rule 17). HTML
// <a> elements are not signposts. A 410 Gone response is a tombstone
// page, which the profile wants to keep its signposts: it is read like a
// 200, and [Signposts.StatusCode] says 410.
//
// # Publishing
//
// A server writes Level 1 with [weblink.Middleware] on the landing page
// (and on each file, with its collection link, and each metadata record,
// with its describes link), and Level 2 with [weblink.LinksetHandler]
// serving the links of all three kinds, each with an absolute anchor; see
// the package example.
package signposting
