package weblink

import (
	"errors"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/weblinking/weblink/internal/ascii"
	"github.com/weblinking/weblink/internal/linkscan"
	"github.com/weblinking/weblink/internal/quote"
)

// Problem is one thing Check found in a Link field value that its sender
// should fix.
type Problem struct {
	Offset  int    // byte offset in the field value
	Msg     string // what is wrong and what to write instead
	Warning bool   // false: RFC 8288 forbids it or Parse dropped it; true: allowed, but will not work as meant
}

// maxProblems is the most problems Check returns.
const maxProblems = 256

// Check reports what the sender of the Link field value fieldValue should
// fix, in input order, or nil when there is nothing.
//
// It is the strict counterpart of Parse, for the links a server sends.
// Errors (Warning false) are what RFC 8288 and RFC 9110 forbid senders or
// what Parse drops:
//
//   - Everything Parse reports, at the same offsets: malformed link-values,
//     which Parse drops, and title* or name* values that do not decode
//     (RFC 8288 §3, RFC 8187 §3.2). Parse lists at most 16 problems a call;
//     Check lists them all.
//   - A repeated rel, anchor, rev, media, title, title* or type (RFC 8288
//     §3.3, §3.4.1; Appendix B.2 reads only the first anchor and rev), at
//     the first byte of the repeated parameter's name: parsers ignore it.
//   - An unquoted value that is not a token, such as rel=next junk or
//     type=text/html ("/" is not a tchar, RFC 9110 §5.6.2), at its first
//     byte that is not a tchar; an "=" with no value at the "=" (RFC 8288
//     §3: link-param = token BWS [ "=" BWS ( token / quoted-string ) ]).
//   - Whitespace around "=" (RFC 9110 §5.6.3: a sender must not generate
//     BWS), once per parameter, at the first whitespace byte.
//   - An empty list element (RFC 9110 §5.6.1.1: a sender must not generate
//     them): a leading comma, two commas with only whitespace between them,
//     or a trailing comma, at that comma.
//   - Every problem Link.Validate reports for a link that Parse returns, at
//     the offset of the link's "<" (RFC 8288 §2.1, §3.1-§3.4).
//
// Warnings (Warning true), at the offset of the link's "<", are for links
// that RFC 8288 allows but that will not work as their sender means:
//
//   - rel="preload" without an as parameter, or with an as that is not one
//     of the HTML Living Standard's preload destinations ("fetch", "font",
//     "image", "script", "style", "track", compared ASCII
//     case-insensitively; section "Link type preload"): browsers do not
//     fetch it.
//   - A preload with as=font or as=fetch and no crossorigin parameter: the
//     font or fetch() request is made in CORS mode, so it does not use the
//     preloaded response and the resource is downloaded twice.
//   - rel="preconnect" to a target with a path other than "/" or with a
//     query: preconnect opens a connection to an origin (HTML Living
//     Standard, "Link type preconnect"); the rest is ignored.
//   - A registered relation type written with upper-case letters, such as
//     rel="Next": RFC 8288 §2.1.1 makes them case-insensitive, but clients
//     that compare strings miss it.
//   - A field value longer than 4 KiB, which will not fit a proxy's
//     buffer: once, at the first link-value that ends beyond byte 4096
//     (rule 29).
//
// Problems at the same offset come errors first. An offset is at most
// len(fieldValue): Parse reports a star parameter whose value ends too soon
// at the end of its value, which can be the end of the field value. Check
// returns at most 256 problems; when it finds more, the 256th says how many
// more there are, at the offset of the first one not listed. Check is
// linear in the input and never panics; it splits the field value into
// link-values exactly where Parse does, and parses each with Parse. It
// allocates no more per input byte than Parse may (rule 33): problems
// beyond the 256th are counted, not built.
func Check(fieldValue string) []Problem {
	c := checker{s: fieldValue}
	c.run()
	return c.result()
}

// checker holds the state of one Check call.
type checker struct {
	s    string
	out  []Problem
	more int // problems found beyond maxProblems
	// Whether every problem beyond maxProblems is a warning.
	moreWarnings bool

	parser Parser // parses each link-value into the same memory (rule 33)

	// Of the link-value being scanned: its problems, in input order, and
	// the raw values of its first rel and rev (quoted says which are the
	// inside of a quoted-string).
	found                []found
	rel, rev             string
	relQuoted, revQuoted bool
	// Where and why the link-value is malformed (drop is -1 when it is
	// not), and the star parameters whose values Parse decodes.
	drop    int
	dropWhy string
	// The link-value ends at the comma before a "<" of its target,
	// where Parse resumes: its ">" is missing (rule 8).
	strayComma bool
	starVals   []starValue
	semi       int // the ";" before the parameter being scanned

	long bool // the warning that the field value is beyond maxFieldBytes was given
}

// maxFieldBytes is the size beyond which Check warns about a field value
// (rule 29): nginx's default proxy_buffer_size, one memory page, which
// holds the whole response head.
const maxFieldBytes = 4096

// endsPastBudget reports whether the link-value s[start:end], which may end
// with the comma after it, ends beyond byte maxFieldBytes, not counting that
// comma and the whitespace before it.
func (c *checker) endsPastBudget(start, end int) bool {
	if end <= maxFieldBytes {
		return false
	}
	if c.s[end-1] == ',' {
		end--
	}
	for end > start && charClass[c.s[end-1]]&isSpace != 0 {
		end--
	}
	return end > maxFieldBytes
}

// starValue is the value of a star parameter: where it starts and ends in
// the field value, and what to do when it does not decode.
type starValue struct {
	semi       int // the ";" before the parameter
	start, end int
	advice     string
}

// found is a problem that the scanner of link-values found, with what its
// message needs.
type found struct {
	off  int
	kind uint8
	name string // the parameter's name, lower-cased
	arg  string // the unquoted value, for notToken
}

// The kinds of found problem.
const (
	repeated   = iota // a first-wins parameter again
	notToken          // an unquoted value that is not a token
	emptyValue        // "name=" with no value
	spaceEq           // whitespace around "="
)

// add lists a problem, or counts it once maxProblems are listed.
func (c *checker) add(p Problem) {
	if len(c.out) < maxProblems {
		c.out = append(c.out, p)
		return
	}
	if c.more == 0 {
		c.moreWarnings = true
	}
	c.more++
	c.moreWarnings = c.moreWarnings && p.Warning
}

// full reports whether maxProblems are listed, so that the messages of the
// rest need not be built.
func (c *checker) full() bool { return len(c.out) == maxProblems }

// result returns the problems, the last one a count of those not listed
// when there were too many.
func (c *checker) result() []Problem {
	if c.more == 0 {
		return c.out
	}
	last := &c.out[maxProblems-1]
	*last = Problem{
		Offset:  last.Offset,
		Msg:     strconv.Itoa(c.more+1) + " more problems not listed (Check lists at most " + strconv.Itoa(maxProblems) + "): fix the ones above and check again",
		Warning: last.Warning && c.moreWarnings,
	}
	return c.out
}

// run checks the field value, link-value by link-value, splitting it
// exactly where Parse does (RFC 8288 §3, Appendix B.2, and the package
// rules: a malformed link-value ends at the next comma outside
// quoted-strings and <...>).
func (c *checker) run() {
	s := c.s
	i := 0
	lastComma := -1 // the comma that ended the previous link-value, if any
	for {
		commas := false
		for i < len(s) && (s[i] == ',' || charClass[s[i]]&isSpace != 0) {
			if s[i] == ',' {
				c.add(Problem{Offset: i, Msg: `empty list element: remove this comma (RFC 9110 §5.6.1.1: a sender must not generate empty list elements)`})
				commas = true
			}
			i++
		}
		if i == len(s) {
			if !commas && lastComma >= 0 {
				c.add(Problem{Offset: lastComma, Msg: `a trailing comma makes an empty list element: remove it (RFC 9110 §5.6.1.1: a sender must not generate empty list elements)`})
			}
			return
		}
		end, comma := c.linkValue(i)
		c.element(i, end)
		lastComma = -1
		if comma {
			lastComma = end - 1
		}
		i = end
	}
}

// element reports the problems of the link-value s[start:end], which
// linkValue has scanned: Parse's, those of the scanner, and those of the
// link Parse returns.
func (c *checker) element(start, end int) {
	sub := c.s[start:end]
	if c.full() {
		c.countElement(start, end)
		return
	}
	var links Links
	var err error
	if c.strayComma {
		// Parse of sub alone would find its "<" never closed; Parse of
		// the field value reports the missing ">" at the comma.
		err = &SyntaxError{Offset: c.drop - start, Msg: strayOpenMsg(true)}
	} else {
		links, err = c.parser.Parse(sub)
	}
	for _, l := range links { // one, unless Parse dropped it
		c.checkLink(start, l)
	}
	// Parse's problems and the scanner's, merged by offset.
	k := 0
	emit := func(off int) {
		for ; k < len(c.found) && c.found[k].off <= off; k++ {
			c.addFound(c.found[k])
		}
	}
	// The size warning of rule 29, after the errors at start.
	long := !c.long && c.endsPastBudget(start, end)
	warnLong := func() {
		if long {
			long, c.long = false, true
			emit(start)
			c.add(Problem{Offset: start, Warning: true, Msg: `the field value is longer than 4 KiB from this link-value on: ` +
				`it will not fit nginx's default proxy buffer (proxy_buffer_size, one 4 KiB page for the whole response head), ` +
				`which answers 502 Bad Gateway; send fewer links, or put the rest in the page or a linkset (RFC 9264)`})
		}
	}
	c.parseProblems(start, end, err, func(off int, msg string) {
		if off > start {
			warnLong()
		}
		emit(off)
		if c.full() {
			c.add(Problem{Offset: off}) // counted, not listed
			return
		}
		c.add(Problem{Offset: off, Msg: msg + "; " + c.parseAdvice(off)})
	})
	warnLong()
	emit(end)
}

// countElement is element once maxProblems are listed: it counts the
// problems of the link-value s[start:end] without building a message for
// any (rule 33). Parse is told that its problems are full, so that it
// only counts them too.
func (c *checker) countElement(start, end int) {
	links, n := c.countParse(c.s[start:end])
	for _, l := range links {
		c.checkLink(start, l)
	}
	for range n + len(c.found) {
		c.add(Problem{Offset: start})
	}
	if !c.long && c.endsPastBudget(start, end) {
		c.long = true
		c.add(Problem{Offset: start, Warning: true}) // rule 29, counted
	}
}

// countParse parses s with c.parser and returns the links and how many
// problems Parse finds: Parse is told that its problems are full, so that
// it counts every one and builds none.
func (c *checker) countParse(s string) (Links, int) {
	q := &c.parser.p
	c.parser.reset()
	q.kept = maxErrors
	q.parse(s)
	return q.links, q.more
}

// parseProblems calls f with the offset and message of each problem that
// Parse reports for the link-value s[start:end], given err, the error of
// Parse(s[start:end]).
//
// When Parse lists only some of them (it lists 16 a call), the link-value
// is parsed again in pieces, each with fewer problems than that: the
// target and the parameters up to the 16th star parameter, then "<>"
// followed by the next 15 star parameters and the parameters around them,
// and so on. A problem of Parse is about one star parameter, or about the
// byte where the link-value turned out malformed, so each piece reports
// what Parse reports of it. In the pieces after the first, every title*
// is a repeat, which Parse ignores: its name is written as "media*", an
// ignored name of the same length, so that it is ignored there too.
func (c *checker) parseProblems(start, end int, err error, f func(off int, msg string)) {
	truncated := false
	walkSyntaxErrors(err, func(*SyntaxError) {}, func() { truncated = true })
	if !truncated {
		walkSyntaxErrors(err, func(se *SyntaxError) { f(start+se.Offset, se.Msg) }, func() {})
		return
	}
	const perPiece = 15
	from, next := start, 0 // next: the first of c.found not before from
	for k := 0; from < end; k += perPiece {
		to := end
		if k+perPiece < len(c.starVals) {
			to = c.starVals[k+perPiece].semi
		}
		piece, shift := c.s[from:to], from
		if from > start {
			b := append([]byte("<>"), piece...)
			for ; next < len(c.found) && c.found[next].off < to; next++ {
				if x := c.found[next]; x.kind == repeated && x.name == "title*" && x.off >= from {
					copy(b[2+x.off-from:], "media*")
				}
			}
			piece, shift = string(b), from-2
		}
		from = to
		if c.full() { // only counted from here on (rule 33)
			_, n := c.countParse(piece)
			for range n {
				f(shift+len(piece), "")
			}
			continue
		}
		_, err := Parse(piece)
		walkSyntaxErrors(err, func(se *SyntaxError) { f(shift+se.Offset, se.Msg) }, func() {
			f(shift+len(piece), "Parse lists no more problems of this link-value: fix the ones above and check again")
		})
	}
}

// parseAdvice says what to write instead for the problem that Parse
// reported at offset off of the link-value just scanned.
func (c *checker) parseAdvice(off int) string {
	if off == c.drop {
		return c.dropWhy
	}
	// The star values are in input order: find the last one starting at
	// or before off.
	if k := sort.Search(len(c.starVals), func(k int) bool { return c.starVals[k].start > off }) - 1; k >= 0 && off <= c.starVals[k].end {
		return c.starVals[k].advice
	}
	return "write the link-value as RFC 8288 §3 describes"
}

// Advice for the ways a link-value can be malformed (RFC 8288 §3).
const (
	adviceNoAngle = `start each link-value with its target in angle brackets, as in </page/2>; rel="next"`
	adviceAngle   = `close the target with ">"`

	adviceMissingAngle = `close the target with ">" before this comma`
	adviceStrayOpen    = `close the target with ">" before the "<", or percent-encode the "<" as %3C (RFC 3986 §2.1)`
	adviceQuote        = `close the quoted-string with a '"', and escape each '"' inside it as \"`
	adviceSep          = `separate parameters with ";" and link-values with ","; quote a value that holds other characters`
	adviceName         = `a parameter name is a token (RFC 9110 §5.6.2): remove the character or rename the parameter`
	adviceStarName     = `rename it: a star parameter is a token followed by one "*" (RFC 8288 §3.4.2)`
	adviceExtValue     = `write an RFC 8187 ext-value, charset'language'value with every byte that is not an attr-char percent-encoded, such as UTF-8'de'n%C3%A4chste (RFC 8187 §3.2.1)`
)

// dropped records that the link-value is malformed at offset off.
func (c *checker) dropped(off int, advice string) {
	c.drop, c.dropWhy = off, advice
}

// walkSyntaxErrors calls f for the *SyntaxError of each problem that err,
// an error of Parse, reports, in order, and other for each problem that is
// not a *SyntaxError (Parse's count of the problems it does not list).
func walkSyntaxErrors(err error, f func(*SyntaxError), other func()) {
	if err == nil {
		return
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, err := range errs {
		var se *SyntaxError
		if errors.As(err, &se) {
			f(se)
		} else {
			other()
		}
	}
}

// addFound lists a problem of the scanner, with its message.
func (c *checker) addFound(f found) {
	if c.full() {
		c.add(Problem{Offset: f.off})
		return
	}
	var msg string
	switch f.kind {
	case repeated:
		msg = `repeated "` + f.name + `" is ignored, only the first counts: ` + repeatAdvice(f.name)
	case notToken:
		msg = `the unquoted value of "` + f.name + `" holds ` + quote.Value(c.s[f.off:f.off+1]) +
			`, which only a quoted-string may: write ` + f.name + `=` + quote.Value(f.arg) + ` (RFC 8288 §3: a value is a token or a quoted-string)`
	case emptyValue:
		msg = `"` + f.name + `=" has no value: write ` + f.name + `="" or leave out the "=" (RFC 8288 §3: a value is a token or a quoted-string)`
	case spaceEq:
		msg = `whitespace around "=" in "` + f.name + `": write ` + f.name + `=value with nothing between (RFC 9110 §5.6.3: a sender must not generate BWS)`
	}
	c.add(Problem{Offset: f.off, Msg: msg})
}

// repeatAdvice says what to do about a repeat of the first-wins parameter
// name.
func repeatAdvice(name string) string {
	switch name {
	case "rel":
		return `put every relation type in the first rel, separated by spaces: rel="a b" (RFC 8288 §3.3)`
	case "rev":
		return `put every relation type in the first rev, separated by spaces (RFC 8288 Appendix B.2); better, write the inverse relation with rel, as rev is deprecated (RFC 8288 §3.3)`
	case "anchor":
		return `write a separate link-value for each context (RFC 8288 §3.2, Appendix B.2 step 11)`
	}
	return `remove it (RFC 8288 §3.4.1: it must not appear more than once in a link-value)`
}

// linkValue scans the link-value at s[i] as Parse does (RFC 8288 §3),
// recording in c.found what Parse tolerates but a sender must not write.
// It returns the index after the link-value and its comma, and whether
// there was a comma.
//
// It splits elements with the scanner Parse uses (linkscan: quoted-strings,
// the next element, a "<" in a target), but reads parameters with param
// below rather than with Parse's: Parse's reader is tuned to skip what
// Check must see (whitespace around "=", a value that is not a token, a
// repeated parameter, each at its byte), and Check runs on a sender's
// headers, not on every response, so the two stay apart on purpose.
//
//	link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )
func (c *checker) linkValue(i int) (end int, comma bool) {
	s := c.s
	c.found, c.starVals = c.found[:0], c.starVals[:0]
	c.rel, c.rev, c.drop, c.strayComma = "", "", -1, false
	if s[i] != '<' {
		c.dropped(i, adviceNoAngle)
		return linkscan.NextElement(s, i)
	}
	j := strings.IndexByte(s[i+1:], '>')
	if j < 0 {
		c.dropped(i, adviceAngle)
		return len(s), false
	}
	if off, comma := linkscan.StrayOpen(s, i, i+1+j); off >= 0 {
		// Split where Parse resumes (rule 8).
		if comma {
			c.dropped(off, adviceMissingAngle)
			c.strayComma = true
			return off + 1, true
		}
		c.dropped(off, adviceStrayOpen)
		return linkscan.NextElement(s, off)
	}
	i += j + 2
	var seen uint // 1<<kind of the first-wins parameters seen
	for {
		if i == len(s) || s[i] != ';' {
			i = skipSpace(s, i)
			if i == len(s) {
				return i, false
			}
			if s[i] == ',' {
				return i + 1, true
			}
			if s[i] != ';' {
				c.dropped(i, adviceSep)
				return linkscan.NextElement(s, i)
			}
		}
		var ok bool
		if i, ok = c.param(i+1, &seen); !ok {
			if i == len(s) {
				return i, false
			}
			return linkscan.NextElement(s, i)
		}
	}
}

// param scans one parameter after its ";", as Parse does, and returns the
// index after it; ok is false when it is malformed.
//
//	link-param = token BWS [ "=" BWS ( token / quoted-string ) ]
func (c *checker) param(i int, seen *uint) (next int, ok bool) {
	s := c.s
	c.semi = i - 1
	i = skipSpace(s, i)
	start := i
	for i < len(s) && charClass[s[i]]&isTchar != 0 {
		i++
	}
	if i == start {
		// An empty parameter (";;") is skipped; anything else is
		// malformed.
		if i == len(s) || s[i] == ';' || s[i] == ',' {
			return i, true
		}
		c.dropped(i, adviceName)
		return i, false
	}
	name := ascii.Lower(s[start:i])
	kind := firstWins(name)
	if kind >= 0 && *seen&(1<<kind) != 0 {
		c.found = append(c.found, found{off: start, kind: repeated, name: name})
	}
	space := -1 // the first whitespace byte around "="
	if i < len(s) && charClass[s[i]]&isSpace != 0 {
		space = i
		i = skipSpace(s, i)
	}
	if i == len(s) || s[i] != '=' {
		c.star(name, i, i)
		c.first(kind, seen, "", false)
		return i, true
	}
	eq := i
	i++
	if i < len(s) && charClass[s[i]]&isSpace != 0 {
		if space < 0 {
			space = i
		}
		i = skipSpace(s, i)
	}
	if i < len(s) && s[i] == '"' {
		end, _, closed := linkscan.QuotedEnd(s, i)
		if !closed {
			c.dropped(i, adviceQuote)
			return len(s), false
		}
		c.star(name, i+1, end-1)
		c.spaceAround(space, name)
		c.first(kind, seen, s[i+1:end-1], true)
		return end, true
	}
	end := i
	for end < len(s) && s[end] != ';' && s[end] != ',' {
		end++
	}
	value := trimSpace(s[i:end])
	c.star(name, i, i+len(value))
	switch k := nonTchar(value); {
	case value == "":
		// The "=" comes before any whitespace after it.
		if space > eq {
			c.found = append(c.found, found{off: eq, kind: emptyValue, name: name})
			c.spaceAround(space, name)
			break
		}
		c.spaceAround(space, name)
		c.found = append(c.found, found{off: eq, kind: emptyValue, name: name})
	case k >= 0:
		c.spaceAround(space, name)
		c.found = append(c.found, found{off: i + k, kind: notToken, name: name, arg: value})
	default:
		c.spaceAround(space, name)
	}
	c.first(kind, seen, value, false)
	return end, true
}

// star records the value s[start:end] of parameter name when name is that
// of a star parameter, whose value Parse decodes as an ext-value.
func (c *checker) star(name string, start, end int) {
	if !strings.HasSuffix(name, "*") {
		return
	}
	advice := adviceExtValue
	if base := name[:len(name)-1]; base == "" || strings.HasSuffix(base, "*") {
		advice = adviceStarName
	}
	c.starVals = append(c.starVals, starValue{c.semi, start, end, advice})
}

// spaceAround records whitespace around the "=" of parameter name, at
// offset space, unless space is -1.
func (c *checker) spaceAround(space int, name string) {
	if space >= 0 {
		c.found = append(c.found, found{off: space, kind: spaceEq, name: name})
	}
}

// The parameters of which only the first occurrence counts (RFC 8288
// §3.3, §3.4.1, Appendix B.2), as returned by firstWins.
const (
	firstRel = iota
	firstRev
	firstOther // anchor, media, title, title*, type: firstOther + their index
)

// firstWins returns the index of the lower-case parameter name among the
// parameters of which only the first occurrence counts, or -1.
func firstWins(name string) int {
	switch name {
	case "rel":
		return firstRel
	case "rev":
		return firstRev
	}
	for i, n := range [...]string{"anchor", "media", "title", "title*", "type"} {
		if name == n {
			return firstOther + i
		}
	}
	return -1
}

// first records that a parameter of kind was seen, and the raw value of the
// first rel and rev.
func (c *checker) first(kind int, seen *uint, value string, quoted bool) {
	if kind < 0 || *seen&(1<<kind) != 0 {
		return
	}
	*seen |= 1 << kind
	switch kind {
	case firstRel:
		c.rel, c.relQuoted = value, quoted
	case firstRev:
		c.rev, c.revQuoted = value, quoted
	}
}

// nonTchar returns the index of the first byte of s that is not a tchar, or
// -1.
func nonTchar(s string) int {
	for i := 0; i < len(s); i++ {
		if charClass[s[i]]&isTchar == 0 {
			return i
		}
	}
	return -1
}

// checkLink reports the Validate problems and the warnings of l, whose "<"
// is at offset off.
func (c *checker) checkLink(off int, l Link) {
	l.validate(func(field, msg string) {
		if c.full() {
			c.add(Problem{Offset: off}) // counted, not listed
			return
		}
		c.add(Problem{Offset: off, Msg: validateMessage(invalid(field, msg).Error())})
	})
	warn := func(msg string) { c.add(Problem{Offset: off, Msg: msg, Warning: true}) }
	c.upperCase(c.rel, c.relQuoted, "rel", warn)
	c.upperCase(c.rev, c.revQuoted, "rev", warn)
	if l.HasRel("preload") {
		as, ok := l.Param("as")
		switch {
		case !ok:
			warn(`preload without "as": browsers do not fetch it; add as= with one of ` + preloadDestinations + ` (HTML Living Standard, "Link type preload")`)
		case !isPreloadDestination(as.Value):
			warn(`preload with as=` + quote.Value(as.Value) + `, which is not a preload destination: browsers do not fetch it; use one of ` + preloadDestinations + ` (HTML Living Standard, "Link type preload")`)
		case ascii.EqualFold(as.Value, "font") || ascii.EqualFold(as.Value, "fetch"):
			if _, ok := l.Param("crossorigin"); !ok {
				warn(`preload as=` + ascii.Lower(as.Value) + ` without crossorigin: the ` + ascii.Lower(as.Value) + ` request is made in CORS mode, so it does not use the preload and downloads the resource twice; add "; crossorigin"`)
			}
		}
	}
	if l.HasRel("preconnect") {
		if u, err := url.Parse(l.Target); err == nil && (u.Opaque != "" || u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.ForceQuery) {
			origin := "the origin alone, such as <https://cdn.example.com>"
			if u.Scheme != "" && u.Host != "" {
				origin = "<" + u.Scheme + "://" + u.Host + ">"
			}
			warn(`preconnect to ` + quote.Value(l.Target) + `: a preconnect opens a connection to an origin and ignores the path and query; write ` + origin + ` (HTML Living Standard, "Link type preconnect")`)
		}
	}
}

// upperCase warns about each registered relation type in the raw value of
// a rel or rev parameter (the inside of a quoted-string when quoted) that is
// written with upper-case letters.
func (c *checker) upperCase(value string, quoted bool, param string, warn func(string)) {
	for i := 0; i < len(value); {
		for i < len(value) && charClass[value[i]]&isSpace != 0 {
			i++
		}
		start, upper, escaped := i, false, false
		for i < len(value) && charClass[value[i]]&isSpace == 0 {
			upper = upper || charClass[value[i]]&isUpper != 0
			if quoted && value[i] == '\\' && i+1 < len(value) {
				escaped = true
				i++
			}
			i++
		}
		if !upper {
			continue
		}
		t := value[start:i]
		if escaped {
			t = unescapeQuoted(t)
		}
		if r, ok := LookupRelation(t); ok {
			warn(`relation type ` + quote.Value(t) + ` in ` + param + ` is registered as ` + quote.Value(r.Name) + `: write it in lower case; relation types compare case-insensitively (RFC 8288 §2.1.1), but clients that compare strings miss it`)
		}
	}
}

// unescapeQuoted removes the backslashes of the quoted-pairs in s (RFC 9110
// §5.6.4).
func unescapeQuoted(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b = append(b, s[i])
	}
	return string(b)
}

// preloadDestinations lists the values of as that a preload may have: the
// preload destinations of the HTML Living Standard ("Link type preload").
const preloadDestinations = "fetch, font, image, script, style, track"

// isPreloadDestination reports whether as is a preload destination,
// compared ASCII case-insensitively.
func isPreloadDestination(as string) bool {
	for _, d := range [...]string{"fetch", "font", "image", "script", "style", "track"} {
		if ascii.EqualFold(as, d) {
			return true
		}
	}
	return false
}

// validateMessage turns a problem that Link.Validate reported into a Check
// message: without the "weblink: invalid link: " prefix, and followed by
// what to write instead.
func validateMessage(msg string) string {
	msg = strings.TrimPrefix(msg, ErrInvalidLink.Error()+": ")
	field, _, _ := strings.Cut(msg, " ")
	var advice string
	switch field {
	case "target", "anchor":
		advice = "percent-encode it (RFC 3986 §2.1), as Link.String does"
	case "rel", "rev":
		if strings.Contains(msg, "missing") {
			advice = `add a relation type, such as rel="next"`
		} else {
			advice = `write a registered relation type in lower case, or an absolute URI such as "https://example.com/rels/thing" (RFC 8288 §2.1.2)`
		}
	case "hreflang":
		advice = `write a language tag such as "en" or "de-CH" (RFC 5646)`
	case "type":
		advice = `write a media type such as "text/html" (RFC 6838)`
	case "media":
		advice = "write the media query in ASCII"
	default: // title, param
		advice = "send text without control characters, and text that is not ASCII as UTF-8 in an ext-value, name*=UTF-8'lang'%XX... (RFC 8187 §3.2), as Link.String does"
	}
	return msg + "; " + advice
}
