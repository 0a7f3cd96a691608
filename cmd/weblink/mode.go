// The stages of a mode (source, reporter, renderer) and how the options
// choose them.

package main

import "io"

// A source reads the input of a run and hands each page it gets to c.show,
// in order, as it arrives. It stops at the first error c.show returns, and
// returns it; its error ends the run, after the pages already shown.
type source func(c *command) error

// A renderer shows links on standard output: those of each page as the
// page arrives, and then what is printed once at the end.
type renderer interface {
	// page shows the links of one page. An error stops the source.
	page(c *command, p *pageLinks) error
	// end prints what comes after the last page and returns the exit
	// status of the run.
	end(c *command) int
}

// mode returns the source, the reporter and the renderer that the options
// choose: a mode of the command is one of each. values are the link values
// given as arguments, stdin is standard input.
func (o *options) mode(values []string, stdin io.Reader) (source, reporter, renderer) {
	if o.signpost {
		return signpostingSource, stderrReport{}, &signpostingReport{json: o.json}
	}
	var src source
	switch {
	case o.url != "" && o.discover:
		src = discoverSource
	case o.url != "" && o.linkformat:
		src = linkformatFetchSource
	case o.url != "" && o.catalog:
		src = apiCatalogSource
	case o.url != "":
		src = fetchSource
	case o.linkformat:
		src = linkformatStdinSource(stdin)
	case o.nextInBody != "":
		src = bodyStdinSource(stdin)
	case len(values) > 0:
		src = argsSource(values)
	default:
		src = stdinSource(stdin)
	}
	var r renderer
	var rep reporter = stderrReport{}
	switch {
	case o.rel != "":
		r = &relTargets{rel: o.rel, first: o.discover}
	case o.next:
		r = &nextPage{}
	case o.json:
		r = &linksetJSON{}
	case o.check:
		k := &checker{}
		r, rep = k, k
	case o.format:
		r = &formatter{}
	default:
		r = &table{bySource: o.discover}
	}
	return src, rep, r
}
