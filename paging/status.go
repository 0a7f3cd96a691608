package paging

import (
	"bytes"
	"io"
	"net/http"
	"time"

	"github.com/weblinking/weblink/internal/ratelimit"
)

// statusBodyBytes is how much of the body of a response that is not 2xx
// Pages reads before it yields the response (rule 1).
const statusBodyBytes = ratelimit.BodyBytes

// readAhead reads the first statusBodyBytes of resp's body and returns them;
// resp.Body still reads from the first byte: what was read, then the rest
// (closing it closes the original body). The read takes at most drainTime,
// as the drain of release: a server still sending the first 2 KiB after a
// second has its body cut there, by cancelling the context of the page
// requests, which then gets a new one. A worker of Parallel, whose request
// shares the context of the run (and has no cancelReq), cuts it by closing
// the body instead: cancelling the run would cut the pages before it too.
func (p *pager) readAhead(resp *http.Response) []byte {
	body := resp.Body
	if body == nil || body == http.NoBody {
		return nil
	}
	cut := p.cancelReq
	if cut == nil {
		cut = func() { body.Close() }
	}
	timer := time.AfterFunc(drainTime, cut)
	buf := ratelimit.ReadBody(body) // an error is read again after the prefix
	if !timer.Stop() && p.cancelReq != nil {
		p.renewRequestContext()
	}
	resp.Body = readAheadBody{io.MultiReader(bytes.NewReader(buf), body), body}
	return buf
}

// readAheadBody is a response body whose first bytes were read ahead.
type readAheadBody struct {
	io.Reader
	io.Closer
}
