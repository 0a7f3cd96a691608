// The progress line of -all on a terminal: pages, links, time, the URL
// being fetched.

package main

import (
	"io"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/weblinking/weblink/internal/quote"
)

// progress is the one-line progress indicator of -all on a terminal's
// standard error: pages, links, elapsed time and the URL being fetched,
// redrawn in place and cleared at the end. A nil *progress draws nothing,
// which is what pipes, NO_COLOR and TERM=dumb get.
type progress struct {
	w       io.Writer
	start   time.Time
	now     func() time.Time
	columns func() int // the terminal's width; nil or 0 for 80 columns

	mu    sync.Mutex // the ticker redraws from its own goroutine
	shown bool       // whether a line is on the screen
	n     int        // what the line shows: page n is being requested from u, after links links
	links int
	u     *url.URL
}

// defaultColumns is the width of a terminal whose width is not known.
const defaultColumns = 80

// draw replaces the line with the state of the fetch: page n is being
// requested from u, after links links.
func (p *progress) draw(n, links int, u *url.URL) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n, p.links, p.u = n, links, u
	p.redraw()
}

// redraw draws the line; p.mu is held. The line is one column narrower
// than the terminal, so that it never wraps (a wrapped line cannot be
// redrawn in place).
func (p *progress) redraw() {
	cols := defaultColumns
	if p.columns != nil {
		if c := p.columns(); c > 0 {
			cols = c
		}
	}
	elapsed := p.now().Sub(p.start).Round(100 * time.Millisecond)
	line := "page " + strconv.Itoa(p.n) + ", " + strconv.Itoa(p.links) + " " + quote.Plural(p.links, "link") + ", " +
		elapsed.String() + ": " + showURL(p.u)
	io.WriteString(p.w, "\r\x1b[K"+truncate(line, max(cols-1, len("..."))))
	p.shown = true
}

// clear removes the line, if one is shown, so that other output starts at
// the beginning of an empty line.
func (p *progress) clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.shown {
		return
	}
	io.WriteString(p.w, "\r\x1b[K")
	p.shown = false
}

// tick redraws the line every d while it is shown, so that its elapsed
// time moves during a slow request, until the returned stop is called;
// stop returns when the ticker's goroutine has ended.
func (p *progress) tick(d time.Duration) (stop func()) {
	if p == nil || d <= 0 {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				p.mu.Lock()
				if p.shown {
					p.redraw()
				}
				p.mu.Unlock()
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}
