package signposting

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strconv"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/ascii"
	"github.com/weblinking/weblink/internal/quote"
	"github.com/weblinking/weblink/internal/readhook"
)

// reader is the state of one Fetch: what it asks discover for, and the
// problems of the linksets it parsed (rules 15, 18, 19).
type reader struct {
	hook    readhook.Hook
	notes   problems
	docLens []int // how many links each linkset document parsed gave
}

// parseLinkset parses a linkset document that discover fetched from base:
// an application/linkset document as weblink.ParseLinkset does, any other
// as weblink.ParseLinksetJSON does, or, when that fails, after reading
// the deviations of rules 18 and 19. It notes the links without an
// absolute anchor or target as written (rule 15).
func (r *reader) parseLinkset(base *url.URL, doc []byte, mediaType string) (weblink.Links, error) {
	links, err := r.parse(base, doc, mediaType)
	r.docLens = append(r.docLens, len(links))
	return links, err
}

// parse is parseLinkset without the record of docLens.
func (r *reader) parse(base *url.URL, doc []byte, mediaType string) (weblink.Links, error) {
	if mediaType == weblink.LinksetType {
		links, err := weblink.ParseLinkset(doc)
		r.noteRelative(links)
		return links, err
	}
	links, err := weblink.ParseLinksetJSON(doc)
	if err != nil {
		fixed, quirks, ok := lenientLinkset(doc)
		if !ok {
			return links, err
		}
		lenient, err2 := weblink.ParseLinksetJSON(fixed)
		if err2 != nil {
			return links, err // the deviations were not the only problem
		}
		links, err = lenient, nil
		for _, q := range quirks {
			var l *weblink.Link
			if q.target >= 0 && q.target < len(links) {
				l = &links[q.target]
			}
			if q.envelope {
				r.notes.add(19, 2, false, l, "the linkset of "+quote.URLString(quote.Redacted(base))+" is wrapped in {\"data\": ...}: serve {\"linkset\": [...]} alone (RFC 9264 §4.2.1)")
				continue
			}
			r.notes.add(18, 2, true, l, q.path+" is a JSON string: write an array of strings, [\"...\"] (RFC 9264 §4.2.4.3)")
		}
	}
	r.noteRelative(links)
	return links, err
}

// noteRelative notes each link whose anchor or target, as written, is not
// an absolute URI (rule 15).
func (r *reader) noteRelative(links weblink.Links) {
	for i := range links {
		for _, ref := range [...]struct{ what, s string }{{"anchor", links[i].Anchor}, {"target", links[i].Target}} {
			if u, err := url.Parse(ref.s); err != nil || !u.IsAbs() {
				r.notes.add(15, 2, false, &links[i], "the "+ref.what+" "+quote.URLString(ref.s)+" is not an absolute URI: a linkset writes both in full")
				break
			}
		}
	}
}

// quirk is one deviation lenientLinkset read: a string where an array of
// strings belongs (rule 18), or the envelope (rule 19); target is the
// index of the link target object in document order, -1 for the envelope.
type quirk struct {
	target   int
	path     string
	envelope bool
}

// member is one member of a JSON object, its value as written.
type member struct {
	name  string
	value json.RawMessage
}

// objectMembers returns the members of the JSON object raw in order; ok
// is false when raw is not an object.
func objectMembers(raw []byte) (ms []member, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		ms = append(ms, member{name, v})
	}
	return ms, true
}

// writeObject appends the JSON object of ms to b.
func writeObject(b []byte, ms []member) []byte {
	b = append(b, '{')
	for i, m := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		name, _ := json.Marshal(m.name) // a string cannot fail
		b = append(b, name...)
		b = append(b, ':')
		b = append(b, m.value...)
	}
	return append(b, '}')
}

// stringAttributes are the target attributes RFC 9264 §4.2.4.1 writes as
// strings; every other one is an array.
var stringAttributes = map[string]bool{"href": true, "type": true, "media": true, "title": true}

// lenientLinkset rewrites doc, a linkset document with the deviations of
// rules 18 and 19, into one that weblink.ParseLinksetJSON reads: the
// envelope {"data": {"linkset": ...}} is taken off, and a target attribute
// written as a string becomes an array of that string. ok is false when
// doc has neither deviation, or is not shaped like a linkset at all.
func lenientLinkset(doc []byte) (fixed []byte, quirks []quirk, ok bool) {
	top, isObj := objectMembers(doc)
	if !isObj {
		return nil, nil, false
	}
	set := findMember(top, "linkset")
	if set == nil {
		data := findMember(top, "data")
		if data == nil {
			return nil, nil, false
		}
		if top, isObj = objectMembers(*data); !isObj {
			return nil, nil, false
		}
		if set = findMember(top, "linkset"); set == nil {
			return nil, nil, false
		}
		quirks = append(quirks, quirk{target: -1, envelope: true})
	}
	var contexts []json.RawMessage
	if json.Unmarshal(*set, &contexts) != nil {
		return nil, nil, false
	}
	target := 0
	out := append([]byte(nil), `{"linkset":[`...)
	for i, ctx := range contexts {
		if i > 0 {
			out = append(out, ',')
		}
		ms, isObj := objectMembers(ctx)
		if !isObj {
			out = append(out, ctx...)
			continue
		}
		for j := range ms {
			if ascii.EqualFold(ms[j].name, "anchor") {
				continue
			}
			var targets []json.RawMessage
			if json.Unmarshal(ms[j].value, &targets) != nil {
				continue
			}
			arr := []byte{'['}
			for k, t := range targets {
				if k > 0 {
					arr = append(arr, ',')
				}
				tms, isObj := objectMembers(t)
				if !isObj {
					arr = append(arr, t...)
					continue
				}
				for a := range tms {
					if v := bytes.TrimSpace(tms[a].value); len(v) > 0 && v[0] == '"' && !stringAttributes[ascii.Lower(tms[a].name)] {
						tms[a].value = append(append([]byte{'['}, v...), ']')
						path := "linkset[" + strconv.Itoa(i) + "]." + ms[j].name + "[" + strconv.Itoa(k) + "]." + tms[a].name
						quirks = append(quirks, quirk{target: target, path: quote.URLString(path)})
					}
				}
				arr = writeObject(arr, tms)
				target++
			}
			ms[j].value = append(arr, ']')
		}
		out = writeObject(out, ms)
	}
	out = append(out, "]}"...)
	return out, quirks, len(quirks) > 0
}

// findMember returns the value of the member name of ms, nil when there
// is none.
func findMember(ms []member, name string) *json.RawMessage {
	for i := range ms {
		if ms[i].name == name {
			return &ms[i].value
		}
	}
	return nil
}
