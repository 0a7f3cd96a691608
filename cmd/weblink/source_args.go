// The source of link values given as arguments, and of a header pasted
// as one.

package main

import (
	"fmt"
	"strconv"
	"strings"
)

// argsSource returns the source of the link values given as arguments: one
// page of one head, without status or URL, whose Link field values they
// are. An argument that is a pasted header line, "Link: value" in any
// letter case, is its value; a pasted "Link-Template: value" line is a
// Link-Template field value (RFC 9652) of the head. A pasted header is
// read however it was copied (pastedHeader): with whitespace before it, as
// several header lines after a status line or not, or as curl -v output
// (its response lines, after "< ").
func argsSource(values []string) source {
	return func(c *command) error {
		h := head{base: c.opts.baseURL}
		for i, v := range values {
			label := "argument " + strconv.Itoa(i+1)
			ok, after := pastedHeader(&h, label, v)
			if !ok {
				h.links = append(h.links, field{label: label, text: v})
			}
			if after > 0 {
				c.problem(label, fmt.Errorf("line %d and after not read: the header ended at the blank line before it; pipe response heads into weblink, which reads each of them", after))
			}
		}
		return c.show(page{heads: []head{h}})
	}
}

// pastedHeader adds to h the Link and Link-Template fields of v, an
// argument labelled label, and reports whether v was a pasted header: its
// first line that is not blank, without the whitespace before it (and, in
// curl -v output, its first response line without the "< " that curl
// writes before it: isCurlVerbose, curlResponseLine), is "Link: value" or
// "Link-Template: value", or, when more lines follow, any header line or a
// status line ("HTTP/..."). Several lines are read as a header block on
// standard input is (headerBlock: other fields ignored, a folded line
// joined, each field labelled with its line in v) up to a blank line,
// without the indentation of the first line (a block copied indented:
// a folded line is indented further);
// after is the number of the first line after that which is not blank, 0
// when there is none. Lines with neither field are not a pasted header,
// but a malformed link-value, which Parse will say.
func pastedHeader(h *head, label, v string) (ok bool, after int) {
	lines := strings.Split(v, "\n")
	first := 0
	for first < len(lines) && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	if first == len(lines) {
		return false, 0
	}
	line := strings.TrimLeft(trimEOL(lines[first]), " \t")
	indent := len(trimEOL(lines[first])) - len(line) // of a block copied indented
	curl := isCurlVerbose(line)
	if curl {
		// Its response lines only, from the first that is not blank.
		for ; first < len(lines); first++ {
			l, ok := curlResponseLine(dedent(trimEOL(lines[first]), indent))
			if ok && strings.TrimSpace(l) != "" {
				line = l
				break
			}
		}
		if first == len(lines) {
			return false, 0
		}
	}
	name, value, header := splitHeader(line)
	more := strings.TrimSpace(strings.Join(lines[first+1:], "")) != ""
	switch {
	case !more && header && isLink(name):
		h.links = append(h.links, field{label: label, text: value})
		return true, 0
	case !more && header && isLinkTemplate(name):
		h.templates = append(h.templates, field{label: label, text: value})
		return true, 0
	case !more || !header && !strings.HasPrefix(line, "HTTP/"):
		return false, 0 // a link-value, or said as not one
	}
	var b headerBlock
	b.add(line, first+1)
	for n := first + 1; n < len(lines); n++ {
		line := dedent(trimEOL(lines[n]), indent)
		if curl {
			var ok bool
			if line, ok = curlResponseLine(line); !ok {
				continue // curl -v's request, information or data
			}
		}
		if !b.ended {
			b.add(line, n+1)
		} else if strings.TrimSpace(line) != "" {
			after = n + 1
			break
		}
	}
	if len(b.fields)+len(b.templates) == 0 {
		return false, 0 // no header with links: said as not a link-value
	}
	for _, f := range b.fields {
		h.links = append(h.links, field{label: label + ", " + f.label, text: f.text})
	}
	for _, f := range b.templates {
		h.templates = append(h.templates, field{label: label + ", " + f.label, text: f.text})
	}
	return true, after
}

// dedent returns line without at most n spaces or tabs at its start.
func dedent(line string, n int) string {
	i := 0
	for i < n && i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return line[i:]
}
