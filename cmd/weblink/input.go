package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/weblinking/weblink/internal/ascii"
)

// maxInput is the most weblink reads from standard input: 1 MiB.
const maxInput = 1 << 20

// errTooLarge is the error for standard input longer than maxInput.
var errTooLarge = fmt.Errorf("input larger than 1 MiB (%d bytes)", maxInput)

// field is one Link field value to parse.
type field struct {
	label string // where it is from: "argument 2", "line 7", "Link line 1"
	line  int    // its first line in standard input; 0 when not from there
	text  string // as written; line breaks are whitespace to the parser
}

// source is what one input or one fetched page holds: Link field values,
// or an application/linkset+json document.
type source struct {
	url      string // the page it was fetched from; "" for other inputs
	fields   []field
	json     []byte // the linkset+json document, when the input is one
	jsonSet  bool   // whether the input is a linkset+json document
	jsonLine int    // the line of standard input where the document starts
}

// argsSource returns the link values given as arguments.
func argsSource(values []string) source {
	var src source
	for i, v := range values {
		src.fields = append(src.fields, field{label: "argument " + strconv.Itoa(i+1), text: v})
	}
	return src
}

// lineReader reads standard input a line at a time, counting lines and
// bytes.
type lineReader struct {
	r    *bufio.Reader
	n    int // bytes read
	line int // number of the last line read, from 1
}

// next returns the next line with its line terminator, or false at the end
// of the input.
func (lr *lineReader) next() (string, bool) {
	s, err := lr.r.ReadString('\n')
	if s == "" && err != nil {
		return "", false
	}
	lr.n += len(s)
	lr.line++
	return s, true
}

// trimEOL removes a trailing LF or CRLF.
func trimEOL(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(s, "\r")
}

// readInput reads standard input and recognises what it holds by its first
// non-blank line (see the package documentation). It reads at most
// maxInput+1 bytes, and stops at the end of the last response head without
// reading the body that follows it.
func readInput(r io.Reader) (source, error) {
	lr := &lineReader{r: bufio.NewReader(io.LimitReader(r, maxInput+1))}
	src, err := recognise(lr)
	if lr.n > maxInput {
		return source{}, errTooLarge
	}
	return src, err
}

// recognise reads the input of lr after deciding what it is.
func recognise(lr *lineReader) (source, error) {
	var first string
	for {
		raw, ok := lr.next()
		if !ok {
			return source{}, nil
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
		return source{fields: readHeads(lr, line)}, nil
	case isHeaderLine(line):
		var h headerBlock
		h.add(line, start)
		return source{fields: readHeader(lr, &h)}, nil
	}
	rest, err := io.ReadAll(lr.r)
	lr.n += len(rest)
	if err != nil {
		return source{}, err
	}
	doc := first + string(rest)
	if strings.HasPrefix(strings.TrimSpace(line), "{") {
		return source{json: []byte(doc), jsonSet: true, jsonLine: start}, nil
	}
	return source{fields: []field{{label: "line " + strconv.Itoa(start), line: start, text: doc}}}, nil
}

// readHeads reads response heads after the status line of the first, and
// returns the Link fields of the last head: when a head that may be
// followed by another ends and the next line starts one ("HTTP/"), that
// one replaces it.
func readHeads(lr *lineReader, status string) []field {
	for {
		var h headerBlock
		fields := readHeader(lr, &h)
		if !h.ended || !followed(status) {
			return fields
		}
		if b, _ := lr.r.Peek(len("HTTP/")); string(b) != "HTTP/" {
			return fields
		}
		raw, _ := lr.next()
		status = trimEOL(raw)
	}
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
// block, or the end of the input, and returns the Link fields found.
func readHeader(lr *lineReader, h *headerBlock) []field {
	for !h.ended {
		raw, ok := lr.next()
		if !ok {
			break
		}
		h.add(trimEOL(raw), lr.line)
	}
	return h.fields
}

// headerBlock collects the Link fields of a header block, one line at a
// time.
type headerBlock struct {
	fields  []field
	folding bool // whether a continuation line belongs to the last field
	ended   bool // whether the blank line that ends the block was seen
}

// add adds line number n of the block.
func (h *headerBlock) add(line string, n int) {
	switch {
	case line == "":
		h.ended = true
	case line[0] == ' ' || line[0] == '\t':
		// obs-fold (RFC 9112 §5.2): the line continues the field value.
		if h.folding {
			f := &h.fields[len(h.fields)-1]
			f.text = strings.TrimRight(f.text, " \t") + " " + strings.Trim(line, " \t")
		}
	default:
		name, value, ok := splitHeader(line)
		h.folding = ok && isLink(name)
		if h.folding {
			h.fields = append(h.fields, field{label: "line " + strconv.Itoa(n), line: n, text: value})
		}
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
