package paging

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// countingBody is a response body that counts the bytes read from it.
type countingBody struct {
	r      io.Reader
	read   int
	closed bool
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.read += n
	return n, err
}

func (b *countingBody) Close() error { b.closed = true; return nil }

func TestReleaseDrainsAtMost2KiB(t *testing.T) {
	for _, tc := range []struct {
		size  int
		drain bool
		read  int
	}{
		{0, true, 0},
		{100, true, 100},
		{drainBytes, true, drainBytes},
		{1 << 20, true, drainBytes}, // net/http's bound for a redirect's body
		{1 << 20, false, 0},         // the loop body broke: closed unread
	} {
		body := &countingBody{r: strings.NewReader(strings.Repeat("x", tc.size))}
		p := pager{ctx: context.Background()}
		p.renewRequestContext()
		p.release(&http.Response{Body: body}, tc.drain)
		if body.read != tc.read || !body.closed {
			t.Errorf("body of %d bytes, drain %v: read %d, closed %v; want %d read, closed", tc.size, tc.drain, body.read, body.closed, tc.read)
		}
		if p.reqCtx.Err() != nil {
			t.Errorf("body of %d bytes: a quick drain cancelled the request context", tc.size)
		}
	}
}

func TestOriginDefaultPorts(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"https://h/x", "https://H:443/y", true},
		{"http://h/", "http://h:80/", true},
		{"https://h/", "http://h:443/", false},
		{"https://h/", "https://h:8443/", false},
		{"http://h/", "http://g/", false},
	} {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if got := originOf(a) == originOf(b); got != tc.same {
			t.Errorf("same origin %s, %s = %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}
