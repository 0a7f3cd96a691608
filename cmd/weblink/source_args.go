package main

import "strconv"

// argsSource returns the source of the link values given as arguments: one
// page of one head, without status or URL, whose Link field values they
// are. An argument that is a pasted header line, "Link: value" in any
// letter case, is its value.
func argsSource(values []string) source {
	return func(c *command) error {
		var h head
		for i, v := range values {
			if name, value, ok := splitHeader(v); ok && isLink(name) {
				v = value
			}
			h.links = append(h.links, field{label: "argument " + strconv.Itoa(i+1), text: v})
		}
		return c.show(page{heads: []head{h}})
	}
}
