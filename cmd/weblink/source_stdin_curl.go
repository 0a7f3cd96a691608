// Standard input from curl -v: its response lines after "< ", without
// the progress meter.

package main

import (
	"errors"
	"strings"
)

// curl -v writes what it does on standard error, each line after a
// marker: "* " information, "> " the request, "< " the response head ("<"
// alone, or "< ", for the blank line that ends it), "{ [" and "} [" the
// data sent and received. `curl -v URL 2>&1 | weblink` pipes that in with
// the body, and, since curl's output is then not a terminal, with curl's
// progress meter: its header lines first, and its updates, each after a
// carriage return and without a line feed, before the line written next.
// weblink reads the response lines, as pasted arguments (pastedHeader) and
// as standard input (lineReader.curl).

// isCurlVerbose reports whether line, the first non-blank line of the
// input (after the progress meter, isProgressMeter), is one of curl -v: a
// line after a marker. A linkset+json document ("{ " then a member) and
// link-values ("<" then a URI) are not.
func isCurlVerbose(line string) bool {
	line = strings.TrimLeft(afterProgress(line), " \t")
	if rest, ok := curlResponseLine(line); ok {
		// A status line or a header line, but not a link-value "< URL>"
		// whose scheme looks like a field name.
		name, _, header := splitHeader(rest)
		return strings.HasPrefix(rest, "HTTP/") || header && !strings.HasPrefix(rest[len(name):], "://")
	}
	for _, marker := range []string{"* ", "> ", "{ [", "} ["} {
		if strings.HasPrefix(line, marker) {
			return true
		}
	}
	return line == "*" || line == ">"
}

// curlResponseLine returns line, a line of curl -v output without its line
// terminator, without the "<" and the space after it that curl writes
// before a line of a response head, and whether it was one: "<", then a
// space or nothing (so that a body's "<html>" is not).
func curlResponseLine(line string) (string, bool) {
	rest, ok := strings.CutPrefix(afterProgress(line), "<")
	if !ok || rest != "" && rest[0] != ' ' {
		return "", false
	}
	return strings.TrimPrefix(rest, " "), true
}

// afterProgress returns line without the updates of curl's progress meter
// before it: when it holds a carriage return, what follows the last one
// after the digits, spaces and "-:.kMGTP" of an update.
func afterProgress(line string) string {
	if i := strings.LastIndexByte(line, '\r'); i >= 0 {
		return strings.TrimLeft(line[i+1:], " 0123456789-:.kMGTP")
	}
	return line
}

// isProgressMeter reports whether line, the first non-blank line of the
// input, is the first line of curl's progress meter ("  % Total    %
// Received ..."), which curl -i and curl -v write when their output is not
// a terminal (2>&1 pipes it in).
func isProgressMeter(line string) bool {
	return strings.HasPrefix(strings.TrimLeft(line, " "), "% Total")
}

// withoutProgress returns s, a line of the input with its line terminator,
// without the updates of curl's progress meter in it (afterProgress).
func withoutProgress(s string) string {
	body := trimEOL(s)
	if strings.IndexByte(body, '\r') < 0 {
		return s
	}
	return afterProgress(body) + s[len(body):]
}

// errCurlNoHead is the error for curl -v output on standard input that
// has no response head: the request failed, or curl's options hid it.
var errCurlNoHead = errors.New(`it is curl -v output without a response head (lines after "< "): the request failed, or the head was not printed`)

// nextCurl returns the next response line of curl -v output on lr, without
// its "< " (curlResponseLine), skipping the others, or false at the end of
// the input. lr.line is the number of its line in the input.
func (lr *lineReader) nextCurl() (string, bool) {
	for {
		raw, ok := lr.nextRaw()
		if !ok {
			return "", false
		}
		if line, ok := curlResponseLine(trimEOL(raw)); ok {
			return line + "\n", true
		}
	}
}
