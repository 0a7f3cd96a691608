package linkformat

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/ascii"
	"github.com/weblinking/weblink/internal/linkscan"
	"github.com/weblinking/weblink/internal/quote"
)

// Memento is a memento of a TimeMap (RFC 7089 §5): a link that has the
// relation type "memento", with its datetime attribute read.
//
// The link is embedded, as parsed and resolved: m.Target is the URI-M, m.Rel
// says whether it is also the first, last, prev or next memento, and
// m.Params keeps every attribute, datetime included, and those an archive
// adds (license in RFC 7089's own example, collection in pywb's TimeMaps).
type Memento struct {
	weblink.Link           // the memento link, resolved: Target, Rel, Params (license, ...)
	Datetime     time.Time // its datetime attribute, in UTC
}

// TimeMap is a Memento TimeMap (RFC 7089 §5): the list of the mementos, the
// prior states, of an Original Resource that a web archive holds, with the
// resources around them.
type TimeMap struct {
	Original    string        // URI-R: target of the first link with relation type "original"
	TimeGate    string        // URI-G: target of the first "timegate" link
	Self        string        // URI-T: target of the first "self" link
	From, Until time.Time     // that self link's from and until attributes; zero when absent
	Mementos    []Memento     // every memento link, in document order
	Links       weblink.Links // every other link, in document order
}

// ParseTimeMap parses a TimeMap in the link-format serialisation of RFC 7089
// §5 (rules 17 to 21).
//
// doc is read as [Parse] reads it; when docURL is not nil, targets and anchors are then resolved as [Resolve] resolves them,
// except that an absent anchor and an absent rel stay absent: RFC 7089 §5
// gives TimeMap links their own contexts.
//
// Original, TimeGate and Self are the targets of the first link having each
// relation type; one link may be several (rel="original timegate"). From
// and Until are the self link's from and until. Mementos holds, in document
// order, never sorted and with duplicates kept, every link having the
// relation type memento (alone or with first, last, prev or next) whose
// datetime reads as an HTTP-date (http.ParseTime), in UTC. Links holds every
// other link, in document order: timemap links (paging and index TimeMaps,
// their from and until left in Params), a second original, a memento
// without a readable datetime.
//
// The error reports the malformed link-values Parse reports, and one
// [*weblink.SyntaxError] for each memento without a readable datetime and
// each unreadable from or until of the self link, whose Offset is that
// link's "<" in doc and whose message names its target as written and the
// bad value; all in document order, so errors.As finds the first. As
// weblink.Parse does, it lists at most 16 problems in detail, the first in
// document order, and counts the rest in one last error, "weblink: N more
// problems not listed". The rest of the TimeMap is returned either way.
func ParseTimeMap(doc []byte, docURL *url.URL) (TimeMap, error) {
	s := string(doc)
	// The links are this call's own: they are resolved in place, and the
	// ones that go to tm.Links are moved down within the same array.
	links, perr := weblink.Parse(s)
	r, resolve := newResolver(docURL, links)
	var tm TimeMap
	var have struct{ original, timeGate, self bool }
	var problems problems
	kept := 0 // links[:kept] are tm.Links
	for i := range links {
		l := &links[i]
		written := l.Target // for error messages
		if resolve {
			r.resolve(l, true)
		}
		supplied := false
		if !have.original && l.HasRel("original") {
			tm.Original, have.original, supplied = l.Target, true, true
		}
		if !have.timeGate && l.HasRel("timegate") {
			tm.TimeGate, have.timeGate, supplied = l.Target, true, true
		}
		if !have.self && l.HasRel("self") {
			tm.Self, have.self, supplied = l.Target, true, true
			var bad string
			if tm.From, bad = readDatetime(*l, "from"); bad != "" && !problems.full() {
				problems.add(i, "self link "+quote.Value(written)+": "+bad+"; From left zero")
			}
			if tm.Until, bad = readDatetime(*l, "until"); bad != "" && !problems.full() {
				problems.add(i, "self link "+quote.Value(written)+": "+bad+"; Until left zero")
			}
		}
		if l.HasRel("memento") {
			p, ok := l.Param("datetime")
			if ok {
				if t, err := http.ParseTime(p.Value); err == nil {
					if tm.Mementos == nil {
						tm.Mementos = make([]Memento, 0, countMementos(links[i:]))
					}
					tm.Mementos = append(tm.Mementos, Memento{Link: *l, Datetime: t.UTC()})
					continue
				}
			}
			if !problems.full() {
				msg := "memento " + quote.Value(written) + " has no datetime"
				if ok {
					msg = "memento " + quote.Value(written) + ": datetime " + quote.Value(p.Value) + " is not an HTTP-date"
				}
				problems.add(i, msg+"; kept in Links")
			}
		}
		if !supplied {
			links[kept] = *l
			kept++
		}
	}
	switch {
	case kept == 0:
	case kept <= len(links)/2:
		// Mostly mementos: a copy lets the array of every link go,
		// which tm.Links would otherwise hold for a few links.
		tm.Links = slices.Clone(links[:kept])
	default:
		clear(links[kept:]) // let the strings of the links moved away go
		tm.Links = links[:kept:kept]
	}
	return tm, timeMapError(s, perr, problems)
}

// countMementos returns how many of ls have the relation type memento, to
// size TimeMap.Mementos once.
func countMementos(ls weblink.Links) int {
	n := 0
	for i := range ls {
		if ls[i].HasRel("memento") {
			n++
		}
	}
	return n
}

// readDatetime reads the attribute name of l as an HTTP-date, in UTC. When
// it is present but does not read, bad describes it and the time is zero.
func readDatetime(l weblink.Link, name string) (t time.Time, bad string) {
	p, ok := l.Param(name)
	if !ok {
		return time.Time{}, ""
	}
	t, err := http.ParseTime(p.Value)
	if err != nil {
		return time.Time{}, name + " " + quote.Value(p.Value) + " is not an HTTP-date"
	}
	return t.UTC(), ""
}

// problem is something wrong with the link of index link in a TimeMap.
type problem struct {
	link int
	msg  string
}

// problems are the problems found in the links of a TimeMap, in document
// order: the first linkscan.MaxErrors in list, the others counted in more.
type problems struct {
	list []problem
	more int
}

// full reports whether linkscan.MaxErrors problems are listed already, and
// then counts the problem about to be added: a caller that gets true
// builds no message, so that a TimeMap of broken entries costs no memory
// for the problems beyond them.
func (ps *problems) full() bool {
	if len(ps.list) < linkscan.MaxErrors {
		return false
	}
	ps.more++
	return true
}

// add lists a problem of the link of index link.
func (ps *problems) add(link int, msg string) {
	ps.list = append(ps.list, problem{link, msg})
}

// timeMapError merges the errors of Parse (perr) with the problems ps found
// in the links of s, as *weblink.SyntaxErrors at the "<" of their link, in
// document order. It returns nil when there are none.
//
// Both are in document order already, so one pass merges them: at one
// offset the errors of Parse come first. The first linkscan.MaxErrors of
// the merged errors are listed, and one *linkscan.More counts the others:
// those beyond the list, those ps counted and those Parse's own
// *linkscan.More counted.
func timeMapError(s string, perr error, ps problems) error {
	if len(ps.list) == 0 {
		return perr
	}
	var perrs []error
	if j, ok := perr.(interface{ Unwrap() []error }); ok {
		perrs = j.Unwrap()
	} else if perr != nil {
		perrs = []error{perr}
	}
	more := ps.more
	if n := len(perrs); n > 0 {
		if m, ok := perrs[n-1].(*linkscan.More); ok {
			more += m.N
			perrs = perrs[:n-1]
		}
	}
	errs := make([]error, 0, linkscan.MaxErrors+1)
	add := func(err error) {
		if len(errs) < linkscan.MaxErrors {
			errs = append(errs, err)
		} else {
			more++
		}
	}
	starts := linkStarts(s, ps.list[len(ps.list)-1].link+1)
	k := 0 // the next error of perrs
	for _, p := range ps.list {
		off := 0
		if p.link < len(starts) {
			off = starts[p.link]
		}
		for ; k < len(perrs) && errOffset(perrs[k]) <= off; k++ {
			add(perrs[k])
		}
		add(&weblink.SyntaxError{Offset: off, Msg: p.msg})
	}
	for _, err := range perrs[k:] {
		add(err)
	}
	if more > 0 {
		errs = append(errs, &linkscan.More{N: more})
	}
	return errors.Join(errs...)
}

// errOffset returns the offset of a *weblink.SyntaxError, and for another
// error the largest offset, so that it comes last.
func errOffset(err error) int {
	var se *weblink.SyntaxError
	if errors.As(err, &se) {
		return se.Offset
	}
	return int(^uint(0) >> 1)
}

// linkStarts returns the offset in s of the "<" of each of the first n
// links that [weblink.Parse] returns for s, in order. It follows the grammar of
// weblink.Parse (RFC 8288 §3, rules 1 to 3 and 8 of package weblink) only as far as
// needed to find where each link-value starts and whether it is kept:
// elements are separated by commas outside <...>, quoted-strings, and
// unquoted values; a malformed element is skipped to the next comma
// outside <...> and quoted-strings.
func linkStarts(s string, n int) []int {
	starts := make([]int, 0, n)
	i := 0
	for len(starts) < n {
		for i < len(s) && (s[i] == ',' || isOWS(s[i])) {
			i++
		}
		if i == len(s) {
			return starts
		}
		start := i
		next, ok := linkValueEnd(s, i)
		if ok {
			starts = append(starts, start)
			i = next
			continue
		}
		i = linkscan.SkipElement(s, next)
	}
	return starts
}

// linkValueEnd returns the index after the link-value at s[i] and its
// comma, and whether it is well-formed; when it is not, the index where
// weblink.Parse resumes looking for the next comma.
func linkValueEnd(s string, i int) (int, bool) {
	if s[i] != '<' {
		return i, false
	}
	end := strings.IndexByte(s[i+1:], '>')
	if end < 0 {
		return len(s), false
	}
	if off, _ := linkscan.StrayOpen(s, i, i+1+end); off >= 0 {
		return off, false // a missing ">", as weblink.Parse finds it (rule 8 of package weblink)
	}
	i += end + 2
	for {
		for i < len(s) && isOWS(s[i]) {
			i++
		}
		switch {
		case i == len(s):
			return i, true
		case s[i] == ',':
			return i + 1, true
		case s[i] != ';':
			return i, false
		}
		var ok bool
		if i, ok = paramEnd(s, i+1); !ok {
			return i, false
		}
	}
}

// paramEnd returns the index after the parameter that starts after its ";"
// at s[i], and whether it is well-formed:
//
//	link-param = token BWS [ "=" BWS ( token / quoted-string ) ]
//
// Whitespace and ";" of empty parameters before the name are skipped; a
// missing name is an empty parameter at the end or before a ",". An
// unquoted value runs to the next ";" or ",".
func paramEnd(s string, i int) (int, bool) {
	for i < len(s) && (s[i] == ';' || isOWS(s[i])) {
		i++
	}
	start := i
	for i < len(s) && ascii.IsTokenChar(s[i]) {
		i++
	}
	if i == start {
		return i, i == len(s) || s[i] == ','
	}
	for i < len(s) && isOWS(s[i]) {
		i++
	}
	if i == len(s) || s[i] != '=' {
		return i, true
	}
	i++
	for i < len(s) && isOWS(s[i]) {
		i++
	}
	if i < len(s) && s[i] == '"' {
		end, _, closed := linkscan.QuotedEnd(s, i)
		return end, closed
	}
	for i < len(s) && s[i] != ';' && s[i] != ',' {
		i++
	}
	return i, true
}

// isOWS reports whether c is whitespace where RFC 8288 allows OWS or BWS:
// SP and HTAB, and the CR and LF of documents.
func isOWS(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
