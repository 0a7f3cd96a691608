package weblink

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/weblinking/weblink/internal/ascii"
)

// LinksetHandler returns an http.Handler that serves ls as a linkset
// resource (RFC 9264 §6, §7), in the format the request's Accept field asks
// for.
//
// The formats are application/linkset+json (FormatLinksetJSON, with a final
// newline) and application/linkset ([FormatLinkset]). Publishing a linkset
// takes two lines:
//
//	mux.Handle("/links/resource1", weblink.LinksetHandler(links))
//	weblink.Add(w.Header(), weblink.Link{Target: "/links/resource1", Rel: []string{"linkset"}, Type: weblink.LinksetJSONType})
//
// Content negotiation follows RFC 9110 §12.5.1: the most specific media
// range of the Accept field that matches a format gives its quality (exact
// type, then application/json for the JSON format, then application/*, then
// */*); media range parameters other than q are not compared. A quality is
// read by the qvalue grammar of RFC 9110 §12.4.2 ("0.5", "1.000", not
// "NaN", "1e-1" or ".5"); an element whose q is not a qvalue is ignored. The format of
// highest non-zero quality is served, JSON on a tie or when the request has
// no Accept field; when neither is acceptable the response is 406 Not
// Acceptable. Responses say Vary: Accept.
//
// Each format has a strong ETag, a hash of its body, and conditional and
// range requests (If-None-Match, If-Match, Range) are answered by
// http.ServeContent, so a client that revalidates gets 304 Not Modified.
// GET and HEAD are served; other methods get 405 Method Not Allowed.
//
// The handler serves ls as it is when LinksetHandler is called, so later
// changes to ls do not show. When ls cannot be written as JSON (see
// FormatLinksetJSON) every request gets 500 Internal Server Error with the reason
// in the body: check ls with [FormatLinksetJSON] first when it does not come from
// your own code.
func LinksetHandler(ls Links) http.Handler { return newLinksetHandler(ls, "") }

// newLinksetHandler returns the handler of LinksetHandler, with profile
// (RFC 9264 §5) as the profile parameter of both media types when it is
// not "".
func newLinksetHandler(ls Links, profile string) *linksetHandler {
	h := &linksetHandler{}
	js, err := FormatLinksetJSON(ls)
	if err != nil {
		h.err = err
		return h
	}
	params := ""
	if profile != "" {
		params = `; profile="` + profile + `"`
	}
	h.reps = [2]representation{
		newRepresentation(LinksetJSONType+params, append(js, '\n')),
		newRepresentation(LinksetType+params, FormatLinkset(ls)),
	}
	return h
}

// linksetHandler is the http.Handler of LinksetHandler.
type linksetHandler struct {
	reps [2]representation // in order of preference: JSON, then Link syntax
	err  error
}

// representation is one format of a linkset, ready to serve.
type representation struct {
	contentType string
	body        []byte
	etag        string
}

func newRepresentation(contentType string, body []byte) representation {
	sum := sha256.Sum256(body)
	return representation{contentType, body, `"` + hex.EncodeToString(sum[:16]) + `"`}
}

func (h *linksetHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Add("Vary", "Accept")
	if h.err != nil {
		http.Error(w, h.err.Error(), http.StatusInternalServerError)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "405 method not allowed: a linkset is read with GET or HEAD", http.StatusMethodNotAllowed)
		return
	}
	i, ok := negotiate(r.Header.Values("Accept"))
	if !ok {
		http.Error(w, "406 not acceptable: this linkset is available as "+LinksetJSONType+" and "+LinksetType, http.StatusNotAcceptable)
		return
	}
	rep := &h.reps[i]
	w.Header().Set("Content-Type", rep.contentType)
	w.Header().Set("ETag", rep.etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(rep.body))
}

// negotiate returns the index in linksetHandler.reps of the format that the
// Accept field values prefer (RFC 9110 §12.5.1), and false when neither is
// acceptable. No field, or one without media ranges, accepts anything.
func negotiate(accept []string) (int, bool) {
	// For each format: the specificity of the best matching media range
	// so far (-1: none) and its quality.
	spec := [2]int{-1, -1}
	var q [2]int
	ranges := 0
	for _, field := range accept {
		for _, elem := range strings.Split(field, ",") {
			mr, qv, ok := parseMediaRange(elem)
			if !ok {
				continue
			}
			ranges++
			for i, s := range [2]int{matchJSON(mr), matchLinkset(mr)} {
				if s > spec[i] {
					spec[i], q[i] = s, qv
				}
			}
		}
	}
	if ranges == 0 {
		return 0, true
	}
	best := 0
	if q[1] > q[0] {
		best = 1
	}
	return best, q[best] > 0
}

// Specificities of the media ranges that match a format, least to most.
const (
	matchAny      = iota // */*
	matchSubtypes        // application/*
	matchJSONType        // application/json, for the JSON format
	matchExact           // the format's own media type
)

func matchJSON(mr string) int {
	if mr == "application/json" {
		return matchJSONType
	}
	return matchRange(mr, LinksetJSONType)
}

func matchLinkset(mr string) int { return matchRange(mr, LinksetType) }

// matchRange returns how specifically the lower-case media range mr matches
// the media type t, or -1.
func matchRange(mr, t string) int {
	switch mr {
	case t:
		return matchExact
	case "application/*":
		return matchSubtypes
	case "*/*":
		return matchAny
	}
	return -1
}

// parseMediaRange parses one element of an Accept field (RFC 9110 §12.5.1)
// into its lower-case media range and quality in thousandths (0 to 1000).
// It reports false for an empty element, one without "/", and one whose
// weight is not `q=` followed by a qvalue (RFC 9110 §12.4.2):
//
//	weight = OWS ";" OWS "q=" qvalue
func parseMediaRange(elem string) (string, int, bool) {
	params := strings.Split(elem, ";")
	mr := ascii.Lower(trimSpace(params[0]))
	if !strings.Contains(mr, "/") {
		return "", 0, false
	}
	q := 1000
	for _, p := range params[1:] {
		name, value, _ := strings.Cut(trimSpace(p), "=")
		if !ascii.EqualFold(trimSpace(name), "q") {
			continue
		}
		v, ok := parseQValue(value)
		if !ok || len(name) != 1 { // "q =" is not a weight
			return "", 0, false
		}
		q = v
	}
	return mr, q, true
}

// parseQValue parses a qvalue (RFC 9110 §12.4.2) into thousandths:
//
//	qvalue = ( "0" [ "." 0*3DIGIT ] )
//	       / ( "1" [ "." 0*3("0") ] )
//
// Unlike strconv.ParseFloat it accepts nothing else: no NaN, Inf, sign,
// exponent, hex or leading ".".
func parseQValue(s string) (int, bool) {
	if s == "" || s[0] != '0' && s[0] != '1' {
		return 0, false
	}
	v := int(s[0]-'0') * 1000
	if len(s) == 1 {
		return v, true
	}
	if s[1] != '.' || len(s) > 5 {
		return 0, false
	}
	scale := 100
	for i := 2; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' || v == 1000 && c != '0' {
			return 0, false
		}
		v += int(c-'0') * scale
		scale /= 10
	}
	return v, true
}
