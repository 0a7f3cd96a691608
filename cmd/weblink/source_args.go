package main

import "strconv"

// argsSource returns the source of the link values given as arguments: one
// page of one head, without status or URL, whose Link field values they
// are. An argument that is a pasted header line, "Link: value" in any
// letter case, is its value; a pasted "Link-Template: value" line is a
// Link-Template field value (RFC 9652) of the head.
func argsSource(values []string) source {
	return func(c *command) error {
		h := head{base: c.opts.baseURL}
		for i, v := range values {
			f := field{label: "argument " + strconv.Itoa(i+1), text: v}
			name, value, ok := splitHeader(v)
			switch {
			case ok && isLinkTemplate(name):
				f.text = value
				h.templates = append(h.templates, f)
				continue
			case ok && isLink(name):
				f.text = value
			}
			h.links = append(h.links, f)
		}
		return c.show(page{heads: []head{h}})
	}
}
