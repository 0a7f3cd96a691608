package main

import (
	"io"
	"net/url"
	"strconv"
	"time"
)

// progress is the one-line progress indicator of -all on a terminal's
// standard error: pages, links, elapsed time and the URL being fetched,
// redrawn in place and cleared at the end. A nil *progress draws nothing,
// which is what pipes, NO_COLOR and TERM=dumb get.
type progress struct {
	w     io.Writer
	start time.Time
	now   func() time.Time
	shown bool // whether a line is on the screen
}

// progressWidth is the most columns the line takes, so that it fits an
// 80-column terminal without wrapping (a wrapped line cannot be redrawn).
const progressWidth = 79

// draw replaces the line with the state of the fetch: page n is being
// requested from u, after links links.
func (p *progress) draw(n, links int, u *url.URL) {
	if p == nil {
		return
	}
	elapsed := p.now().Sub(p.start).Round(100 * time.Millisecond)
	line := "page " + strconv.Itoa(n) + ", " + strconv.Itoa(links) + " " + plural(links, "link") + ", " +
		elapsed.String() + ": " + showURL(u)
	io.WriteString(p.w, "\r\x1b[K"+truncate(line, progressWidth))
	p.shown = true
}

// clear removes the line, if one is shown, so that other output starts at
// the beginning of an empty line.
func (p *progress) clear() {
	if p == nil || !p.shown {
		return
	}
	io.WriteString(p.w, "\r\x1b[K")
	p.shown = false
}
