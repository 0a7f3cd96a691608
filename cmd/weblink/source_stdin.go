// The source of standard input: what it holds (response heads, header
// blocks, Link field values, a linkset+json document) recognised and read.

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/weblinking/weblink/internal/ascii"
)

// maxInput is the most weblink reads from standard input: 1 MiB.
const maxInput = 1 << 20

// errTooLarge is the error for standard input longer than maxInput.
var errTooLarge = fmt.Errorf("input larger than 1 MiB (%d bytes)", maxInput)

// stdinSource returns the source of standard input: one page, whose
// heads, header block, field values or document it recognises by its first
// non-blank line (see the package documentation). Their links resolve
// against -base, moved by the Location of each redirect head.
func stdinSource(stdin io.Reader) source {
	return func(c *command) error {
		p, err := readInput(stdin, c.opts.baseURL)
		if err != nil {
			return fmt.Errorf("reading standard input: %w", err)
		}
		return c.show(p)
	}
}

// lineReader reads standard input a line at a time, counting lines and
// bytes. Reading curl -v output, its lines are the response lines of it
// (nextCurl).
type lineReader struct {
	r    *bufio.Reader
	n    int  // bytes read
	line int  // number of the last line read, from 1
	curl bool // curl -v output: read its response lines only
	// progress: curl's progress meter is mixed in; read each line without
	// its updates (withoutProgress)
	progress bool

	held     string // a line read ahead by startsHead, which next returns
	heldLine int    // its number
	holding  bool   // whether held is there
}

// next returns the next line with its line terminator, or false at the end
// of the input.
func (lr *lineReader) next() (string, bool) {
	switch {
	case lr.holding:
		lr.holding, lr.line = false, lr.heldLine
		return lr.held, true
	case lr.curl:
		return lr.nextCurl()
	}
	return lr.nextRaw()
}

// startsHead reports whether the next line starts a response head
// ("HTTP/"), without reading it.
func (lr *lineReader) startsHead() bool {
	if !lr.curl && !lr.progress {
		b, _ := lr.r.Peek(len("HTTP/"))
		return string(b) == "HTTP/"
	}
	if !lr.holding {
		line := lr.line
		s, ok := lr.next()
		if !ok {
			return false
		}
		lr.held, lr.heldLine, lr.holding, lr.line = s, lr.line, true, line
	}
	return strings.HasPrefix(lr.held, "HTTP/")
}

// nextRaw returns the next line of the input with its line terminator, or
// false at the end of the input.
func (lr *lineReader) nextRaw() (string, bool) {
	s, err := lr.r.ReadString('\n')
	if s == "" && err != nil {
		return "", false
	}
	lr.n += len(s)
	lr.line++
	if lr.progress {
		s = withoutProgress(s)
	}
	return s, true
}

// trimEOL removes a trailing LF or CRLF.
func trimEOL(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(s, "\r")
}

// readInput reads standard input and recognises what it holds by its first
// non-blank line (see the package documentation); a UTF-8 byte order mark
// before it is skipped. It reads at most maxInput+1 bytes, and stops at the
// end of the last response head without reading the body that follows it.
// base is -base, or nil.
func readInput(r io.Reader, base *url.URL) (page, error) {
	lr := &lineReader{r: bufio.NewReader(io.LimitReader(r, maxInput+1))}
	if b, _ := lr.r.Peek(len(byteOrderMark)); string(b) == byteOrderMark {
		lr.n, _ = lr.r.Discard(len(byteOrderMark))
	}
	p, err := recognise(lr, base)
	if lr.n > maxInput {
		return page{}, errTooLarge
	}
	return p, err
}

// byteOrderMark is U+FEFF in UTF-8, which some editors and Windows tools
// write at the start of a text file.
const byteOrderMark = "\ufeff"

// recognise reads the input of lr after deciding what it is.
func recognise(lr *lineReader, base *url.URL) (page, error) {
	var first string
	for {
		raw, ok := lr.next()
		if !ok && lr.curl {
			return page{}, errCurlNoHead
		}
		if !ok {
			return page{heads: []head{{base: base}}, blank: true}, nil
		}
		if strings.TrimSpace(raw) != "" {
			first = raw
			break
		}
	}
	start := lr.line
	line := trimEOL(first)
	switch {
	case strings.HasPrefix(line, "HTTP/"):
		return page{heads: readHeads(lr, line, base)}, nil
	case isHeaderLine(line):
		var h headerBlock
		h.add(line, start)
		hd := readHeader(lr, &h)
		hd.base = base
		return page{heads: []head{hd}}, nil
	}
	switch {
	case lr.curl:
		return page{}, errCurlNoHead // a "< " line that starts no head
	case isProgressMeter(line) && !lr.progress:
		// curl -i or curl -v output as 2>&1 pipes it, recognised by
		// what follows the meter's two lines.
		lr.progress = true
		lr.next()
		return recognise(lr, base)
	case isCurlVerbose(line):
		// Its response heads, read as those piped in without curl -v's
		// markers are.
		lr.curl = true
		if l, ok := curlResponseLine(strings.TrimLeft(line, " \t")); ok {
			lr.held, lr.heldLine, lr.holding = l+"\n", start, true
		}
		return recognise(lr, base)
	case isMarkup(line):
		return page{}, errMarkup
	case strings.HasPrefix(strings.TrimSpace(line), "["):
		return page{}, errJSONArray
	}
	rest, err := io.ReadAll(lr.r)
	lr.n += len(rest)
	if err != nil {
		return page{}, err
	}
	doc := first + string(rest)
	if strings.HasPrefix(strings.TrimSpace(line), "{") {
		text := []byte(doc)
		if isJSONBody(text) {
			return page{}, errJSONObject
		}
		return page{linkset: &document{text: text, line: start}}, nil
	}
	return page{heads: []head{{links: splitValues(doc, start), base: base}}}, nil
}

// errMarkup is the error for standard input that is an HTML or XML
// document: a response body, piped in by curl without -I.
var errMarkup = errors.New("it is a document (HTML or XML), not a response head: pipe the head (curl -sI URL | weblink), or let weblink read the links of the document: weblink -url URL -discover")

// errJSONArray is the error for standard input that is a JSON array,
// which neither Link field values nor a linkset+json document (an object)
// start with: the body of an API's response, piped in by curl without -I.
var errJSONArray = jsonBodyError("a JSON array")

// errJSONObject is the error for standard input that is a JSON object
// without a "linkset" member (isJSONBody): the body of an API's response,
// not a linkset+json document.
var errJSONObject = jsonBodyError(`a JSON object without a "linkset" member`)

// jsonBodyError returns the error for standard input that is what, a JSON
// body rather than a head or a linkset.
func jsonBodyError(what string) error {
	return errors.New("it is " + what + ", not a response head or a linkset: pipe the head (curl -sI URL | weblink), or let weblink fetch it: weblink -url URL")
}

// isJSONBody reports whether doc, which starts with "{", is a JSON object
// with members none of which is "linkset" (RFC 9264 §4.2.1): read up to
// its end or to the first syntax error, it has at least one member name
// and "linkset" is not among them. A document that has a "linkset" member,
// or that breaks before its first member name, is left to the linkset
// parser, whose errors point into it.
func isJSONBody(doc []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(doc))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	members := 0
	for dec.More() {
		name, err := dec.Token()
		if err != nil {
			break
		}
		if name == "linkset" {
			return false
		}
		members++
		var value json.RawMessage
		if dec.Decode(&value) != nil {
			break
		}
	}
	return members > 0
}

// isMarkup reports whether line, the first non-blank line of the input,
// starts an HTML or XML document rather than Link field values: a
// doctype, an XML declaration, or an <html> start tag ("<html" then a
// space or ">") on a line without ";", which a link-value "<html>; rel=x"
// has.
func isMarkup(line string) bool {
	s := strings.TrimLeft(line, " \t")
	switch {
	case hasPrefixFold(s, "<!doctype"), strings.HasPrefix(s, "<?xml"):
		return true
	case hasPrefixFold(s, "<html") && len(s) > len("<html"):
		c := s[len("<html")]
		return (c == ' ' || c == '>') && !strings.Contains(s, ";")
	}
	return false
}

// splitValues splits doc, Link field values or an application/linkset
// document whose first line is line number start, into field values: a
// line whose first non-blank byte is "<" starts a new field value unless
// the line before it that is not blank ends with a comma, so that one value
// per line (as -format prints them) are separate values, while a value
// continued after a comma or over lines that do not start with "<" (an
// application/linkset document, RFC 9264 §4.1) stays one.
func splitValues(doc string, start int) []field {
	var fields []field
	from, fromLine := 0, start // the field value being read
	comma := false             // whether the last non-blank line ended with ","
	line := start
	for i := 0; i < len(doc); line++ {
		end := len(doc)
		if j := strings.IndexByte(doc[i:], '\n'); j >= 0 {
			end = i + j + 1
		}
		text := strings.Trim(doc[i:end], " \t\r\n")
		if text != "" {
			if text[0] == '<' && i > from && !comma {
				fields = append(fields, field{label: "line " + strconv.Itoa(fromLine), line: fromLine, text: doc[from:i]})
				from, fromLine = i, line
			}
			comma = text[len(text)-1] == ','
		}
		i = end
	}
	return append(fields, field{label: "line " + strconv.Itoa(fromLine), line: fromLine, text: doc[from:]})
}

// readHeads reads response heads after the status line of the first, and
// returns the last head, after the 103 Early Hints heads just before it:
// when a head that may be followed by another ends and the next line
// starts one ("HTTP/"), that one replaces it, except that a 103 is kept
// for the final response of the same request (a redirect drops it). The
// Location of a redirect (3xx) moves the base of the heads after it, as
// curl -L follows it: resolved against base, the base before it (RFC 9110
// §10.2.2); the base is unknown (nil) after a relative Location that has
// nothing to resolve against, or one that is not a URI reference.
func readHeads(lr *lineReader, status string, base *url.URL) []head {
	var hints []head
	for {
		var h headerBlock
		final := readHeader(lr, &h)
		final.status, final.base = statusNumber(status), base
		if code := final.status; code/100 == 3 && h.located {
			base = moveBase(base, h.location)
		}
		if !h.ended || !followed(status) {
			return append(hints, final)
		}
		if !lr.startsHead() {
			return append(hints, final)
		}
		if statusCode(status) == "103" {
			hints = append(hints, final)
		} else if !strings.HasPrefix(statusCode(status), "1") {
			hints = nil // the hints were for a request that was redirected or answered again
		}
		raw, _ := lr.next()
		status = trimEOL(raw)
	}
}

// moveBase returns the URL that a redirect to location leads to from
// base, without userinfo, or nil when it is not known: location does not
// parse, or is relative with no base.
func moveBase(base *url.URL, location string) *url.URL {
	ref, err := url.Parse(location)
	switch {
	case err != nil:
		return nil
	case base != nil:
		ref = base.ResolveReference(ref)
	case !ref.IsAbs():
		return nil
	}
	ref.User = nil
	return ref
}

// statusNumber returns the status code of a status line as a number, 0
// when it has none.
func statusNumber(status string) int {
	n, err := strconv.Atoi(statusCode(status))
	if err != nil || n < 100 || n > 999 {
		return 0
	}
	return n
}

// statusCode returns the status code of a status line, "" when it has none.
func statusCode(status string) string {
	_, rest, _ := strings.Cut(status, " ")
	code, _, _ := strings.Cut(rest, " ")
	return code
}

// followed reports whether the response head with this status line may be
// followed by another head rather than a body: an interim 1xx response, a
// redirect (curl -L), an authentication challenge that curl answers, or a
// proxy's answer to CONNECT.
func followed(status string) bool {
	_, rest, _ := strings.Cut(status, " ")
	code, reason, _ := strings.Cut(rest, " ")
	switch {
	case len(code) == 3 && (code[0] == '1' || code[0] == '3'):
		return true
	case code == "401" || code == "407":
		return true // curl --digest or --anyauth: the authenticated request follows
	case code == "200":
		return strings.EqualFold(strings.TrimSpace(reason), "connection established")
	}
	return false
}

// readHeader reads header lines into h up to the blank line that ends the
// block, or the end of the input, and returns the head of the Link and
// Link-Template fields found.
func readHeader(lr *lineReader, h *headerBlock) head {
	for !h.ended {
		if lr.curl && lr.startsHead() {
			// curl -v writes no blank line after a 1xx head (curl
			// 7.88): the status line of the next head ends it.
			h.ended = true
			break
		}
		raw, ok := lr.next()
		if !ok {
			break
		}
		h.add(trimEOL(raw), lr.line)
	}
	return head{links: h.fields, templates: h.templates}
}

// headerBlock collects the Link and Link-Template fields of a header
// block, one line at a time.
type headerBlock struct {
	fields    []field
	templates []field
	location  string   // the value of its last Location field
	located   bool     // whether it has a Location field
	folding   *[]field // the fields whose last one a continuation line belongs to; nil when none
	ended     bool     // whether the blank line that ends the block was seen
}

// add adds line number n of the block.
func (h *headerBlock) add(line string, n int) {
	switch {
	case line == "":
		h.ended = true
	case line[0] == ' ' || line[0] == '\t':
		// obs-fold (RFC 9112 §5.2): the line continues the field value.
		if h.folding != nil {
			f := &(*h.folding)[len(*h.folding)-1]
			f.text = strings.TrimRight(f.text, " \t") + " " + strings.Trim(line, " \t")
		}
	default:
		name, value, ok := splitHeader(line)
		h.folding = nil
		switch {
		case ok && isLink(name):
			h.folding = &h.fields
		case ok && isLinkTemplate(name):
			h.folding = &h.templates
		case ok && ascii.EqualFold(name, "location"):
			h.location, h.located = value, true
			return
		default:
			return
		}
		*h.folding = append(*h.folding, field{label: "line " + strconv.Itoa(n), line: n, text: value})
	}
}

// isHeaderLine reports whether line is a header field line, "Name: value".
func isHeaderLine(line string) bool {
	_, _, ok := splitHeader(line)
	return ok
}

// splitHeader splits a header field line into its name and its value
// without surrounding whitespace. ok is false when line does not start with
// a token and a colon.
func splitHeader(line string) (name, value string, ok bool) {
	i := strings.IndexByte(line, ':')
	if i <= 0 {
		return "", "", false
	}
	for j := 0; j < i; j++ {
		if !ascii.IsTokenChar(line[j]) {
			return "", "", false
		}
	}
	return line[:i], strings.Trim(line[i+1:], " \t"), true
}

// isLink reports whether name is "Link" in any letter case (ASCII only).
func isLink(name string) bool { return ascii.EqualFold(name, "link") }

// isLinkTemplate reports whether a field name is Link-Template (RFC 9652),
// in any letter case.
func isLinkTemplate(name string) bool { return ascii.EqualFold(name, "link-template") }
