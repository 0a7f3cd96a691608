package weblink

import (
	"bytes"
	"io"
	"net/http"
	"time"

	"github.com/weblinking/weblink/internal/ratelimit"
)

// statusBodyBytes is how much of the body of a response that is not 2xx
// Pages reads before it yields the response (rule 40).
const statusBodyBytes = ratelimit.BodyBytes

// readAhead reads the first statusBodyBytes of resp's body and returns them;
// resp.Body still reads from the first byte: what was read, then the rest
// (closing it closes the original body). The read takes at most drainTime,
// as the drain of release: a server still sending the first 2 KiB after a
// second has its body cut there, by cancelling the context of the page
// requests, which then gets a new one.
func (p *pager) readAhead(resp *http.Response) []byte {
	if resp.Body == nil || resp.Body == http.NoBody {
		return nil
	}
	timer := time.AfterFunc(drainTime, p.cancelReq)
	buf := ratelimit.ReadBody(resp.Body) // an error is read again after the prefix
	if !timer.Stop() {
		p.renewRequestContext()
	}
	resp.Body = readAheadBody{io.MultiReader(bytes.NewReader(buf), resp.Body), resp.Body}
	return buf
}

// readAheadBody is a response body whose first bytes were read ahead.
type readAheadBody struct {
	io.Reader
	io.Closer
}
