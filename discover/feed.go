package discover

import (
	"encoding/xml"
	"fmt"
	"io"
	"net/url"
	"strings"

	"golang.org/x/net/html/charset"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/quote"
)

// Namespaces of the names Feed looks for.
const (
	atomNS = "http://www.w3.org/2005/Atom"          // RFC 4287 §2
	xmlNS  = "http://www.w3.org/XML/1998/namespace" // the xml: prefix, for xml:base
	// ianaRelPrefix makes an Atom rel value an IRI equivalent to the
	// registered name it ends with (RFC 4287 §4.2.7.2).
	ianaRelPrefix = "http://www.iana.org/assignments/relation/"
)

// Feed returns the feed-level links of an Atom feed or an RSS 2.0 channel
// read from r:
//
//   - Atom (RFC 4287 §4.1.1, §4.2.7): every link child of the root feed
//     element, with href as the Target, rel as the one relation type
//     ("alternate" when it is absent or empty, §4.2.7.2; the IANA IRI form
//     http://www.iana.org/assignments/relation/NAME is read as NAME), type,
//     hreflang and title to their fields, and length and every other
//     attribute without a namespace to Params.
//   - RSS 2.0: the channel's link element, whose text is the Target of a
//     link with relation type "alternate" (the site the channel is about),
//     and every atom:link child of the channel, read as in Atom; this is
//     where WebSub puts rel="hub" and rel="self" in RSS.
//
// Links of entries and items are not the feed's links and are skipped.
// RSS 1.0 (an rdf:RDF root) is not read.
// Targets are resolved against the xml:base in scope (XML Base, RFC 4287
// §2), itself resolved against base. Links are returned in document order.
//
// The document is read with encoding/xml in its lenient mode, which accepts
// HTML's named entities (&nbsp;) as feeds on the Web use them, in the
// charset its XML declaration names. A root element other than feed or rss is an error.
// A syntax error ends the reading: the links found before it are returned
// with the error.
func Feed(r io.Reader, base *url.URL) (weblink.Links, error) {
	s := feedScanner{}
	links, root, err := s.scan(r, baseURL{URL: base})
	if err == nil && root != "feed" && root != "rss" {
		err = fmt.Errorf("discover: not an Atom feed or RSS 2.0 channel: the root element is %s", quote.Value("<"+root+">"))
	}
	return links, err
}

// feedScanner holds the state of one feed document.
type feedScanner struct {
	d       *xml.Decoder
	links   weblink.Links
	sources *[]string // when not nil, "feed" for each link
	probs   problems
}

// scan reads the document and returns its feed-level links and the local
// name of its root element; it stops at once when the root is neither feed
// nor rss.
func (s *feedScanner) scan(r io.Reader, base baseURL) (weblink.Links, string, error) {
	s.d = xml.NewDecoder(r)
	s.d.Strict = false
	s.d.Entity = xml.HTMLEntity
	s.d.CharsetReader = charset.NewReaderLabel
	var root xml.StartElement
	for {
		tok, err := s.d.Token()
		if err != nil {
			return nil, "", readError(err)
		}
		if t, ok := tok.(xml.StartElement); ok {
			root = t
			break
		}
	}
	var err error
	switch root.Name.Local {
	case "feed":
		err = s.atomFeed(root, base)
	case "rss":
		err = s.children(root, base, func(t xml.StartElement, base baseURL) (bool, error) {
			if t.Name.Local == "channel" && t.Name.Space == "" {
				return true, s.channel(t, base)
			}
			return false, nil
		})
	default:
		return nil, root.Name.Local, nil
	}
	if err != nil {
		s.probs.add(readError(err))
	}
	return s.links, root.Name.Local, s.probs.err()
}

// readError wraps an error of the XML decoder.
func readError(err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("discover: reading the feed: %w", err)
}

// children reads the child elements of parent up to its end tag, calling
// child for each start tag with the xml:base in scope; the children that
// child did not consume (it returns false) are skipped.
func (s *feedScanner) children(parent xml.StartElement, base baseURL, child func(xml.StartElement, baseURL) (bool, error)) error {
	base = s.xmlBase(parent, base)
	for {
		tok, err := s.d.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			consumed, err := child(t, base)
			if err != nil {
				return err
			}
			if !consumed {
				if err := s.d.Skip(); err != nil {
					return err
				}
			}
		case xml.EndElement:
			return nil
		}
	}
}

// atomFeed reads the link children of an Atom feed element (RFC 4287
// §4.1.1); entries are skipped.
func (s *feedScanner) atomFeed(feed xml.StartElement, base baseURL) error {
	return s.children(feed, base, func(t xml.StartElement, base baseURL) (bool, error) {
		if t.Name.Local == "link" && t.Name.Space == feed.Name.Space {
			s.atomLink(t, base)
		}
		return false, nil
	})
}

// channel reads the link and atom:link children of an RSS 2.0 channel;
// items are skipped.
func (s *feedScanner) channel(ch xml.StartElement, base baseURL) error {
	return s.children(ch, base, func(t xml.StartElement, base baseURL) (bool, error) {
		if t.Name.Local != "link" {
			return false, nil
		}
		switch t.Name.Space {
		case atomNS:
			s.atomLink(t, base)
		case "":
			text, err := s.text()
			if err != nil {
				return true, err
			}
			if text = trimSpace(text); text != "" {
				s.add(weblink.Link{Target: resolve(s.xmlBase(t, base), cleanURL(text), &s.probs), Rel: []string{"alternate"}})
			}
			return true, nil
		}
		return false, nil
	})
}

// atomLink appends the link of an atom:link element (RFC 4287 §4.2.7).
// An element without href is no link and is skipped.
func (s *feedScanner) atomLink(t xml.StartElement, base baseURL) {
	var l weblink.Link
	href, rel, hasHref := "", "", false
	for _, a := range t.Attr {
		if a.Name.Space != "" {
			continue // xml:base, xmlns and other vocabularies' attributes
		}
		switch a.Name.Local {
		case "href":
			href, hasHref = a.Value, true
		case "rel":
			rel = a.Value
		case "type":
			l.Type = a.Value
		case "hreflang":
			l.Hreflang = []string{a.Value}
		case "title":
			l.Title = a.Value
		case "xmlns":
		default:
			l.Params = append(l.Params, weblink.Param{Name: strings.ToLower(a.Name.Local), Value: a.Value})
		}
	}
	if !hasHref {
		return
	}
	l.Rel = []string{atomRel(rel)}
	l.Target = resolve(s.xmlBase(t, base), cleanURL(href), &s.probs)
	s.add(l)
}

// atomRel returns the relation type of an Atom rel attribute value:
// lower-cased, "alternate" when empty, and the registered name for its IANA
// IRI form (RFC 4287 §4.2.7.2).
func atomRel(rel string) string {
	rel = strings.ToLower(trimSpace(rel))
	if n, ok := strings.CutPrefix(rel, ianaRelPrefix); ok && n != "" {
		rel = n
	}
	if rel == "" {
		rel = "alternate"
	}
	return rel
}

// add appends a feed link.
func (s *feedScanner) add(l weblink.Link) {
	s.links = appendLink(s.links, l)
	if s.sources != nil {
		*s.sources = append(*s.sources, "feed")
	}
}

// xmlBase returns the base URI of element t: its xml:base resolved against
// base, the base URI of its parent (XML Base §4.2), or base without one.
func (s *feedScanner) xmlBase(t xml.StartElement, base baseURL) baseURL {
	for _, a := range t.Attr {
		if a.Name.Space == xmlNS && a.Name.Local == "base" {
			return resolveURL(base, cleanURL(a.Value), &s.probs)
		}
	}
	return base
}

// text returns the character data of the element whose start tag was just
// read, up to its end tag; the text of child elements is included.
func (s *feedScanner) text() (string, error) {
	var b strings.Builder
	for depth := 1; depth > 0; {
		tok, err := s.d.Token()
		if err != nil {
			return b.String(), err
		}
		switch t := tok.(type) {
		case xml.CharData:
			b.Write(t)
		case xml.StartElement:
			depth++
		case xml.EndElement:
			depth--
		}
	}
	return b.String(), nil
}
