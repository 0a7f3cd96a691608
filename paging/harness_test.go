// The test harness of package paging: the fake paged API and the
// helpers that the external tests of several files share.

package paging_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/weblinking/weblink/paging"
)

// unsafeInError reports the first byte or rune of s that must not reach a
// terminal: a C0 or C1 control, DEL, or a bidi formatting character.
func unsafeInError(s string) (rune, bool) {
	for _, r := range s {
		switch {
		case r < 0x20, r >= 0x7f && r <= 0x9f,
			r == 0x061c, r == 0x200e, r == 0x200f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069,
			r == 0xfffd: // an invalid byte, written raw
			return r, true
		}
	}
	return 0, false
}

// trickle writes n bytes to w, one every d, until the client gives up.
func trickle(w http.ResponseWriter, r *http.Request, n int, d time.Duration) {
	for range n {
		if _, err := w.Write([]byte{'x'}); err != nil {
			return
		}
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
			return
		case <-time.After(d):
		}
	}
}

// hostileRoundTripper answers in memory as a hostile server would, for
// hosts that only a proxy could reach.
type hostileRoundTripper func(*http.Request) *http.Response

func (f hostileRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	resp := f(req)
	resp.Request = req
	if resp.Body == nil {
		resp.Body = http.NoBody
	}
	return resp, nil
}

// memPages is an http.RoundTripper that answers GET /items?page=P, P from 1
// to n, from memory: a small JSON body and a GitHub-like Link header whose
// next link leads to page P+1. It measures what Pages itself costs per page,
// without a network.
type memPages struct{ n int }

func (rt memPages) RoundTrip(req *http.Request) (*http.Response, error) {
	p, _ := strconv.Atoi(req.URL.Query().Get("page"))
	h := http.Header{"Content-Type": {"application/json"}}
	base := "https://" + req.URL.Host + "/items?page="
	links := `<` + base + `1>; rel="first", <` + base + strconv.Itoa(rt.n) + `>; rel="last"`
	if p < rt.n {
		links += `, <` + base + strconv.Itoa(p+1) + `>; rel="next"`
	}
	h.Set("Link", links)
	return &http.Response{
		StatusCode: http.StatusOK,
		Status:     "200 OK",
		Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  h,
		Body:    io.NopCloser(bytes.NewReader([]byte(`[1,2,3]`))),
		Request: req,
	}, nil
}

// issuePage returns a JSON array of n GitHub-like issues.
func issuePage(n int) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"number":` + strconv.Itoa(i) + `,"title":"` + string(bytes.Repeat([]byte("x"), 80)) + `","labels":["bug","help wanted"]}`)
	}
	b.WriteByte(']')
	return b.Bytes()
}

type benchIssue struct {
	Number int      `json:"number"`
	Title  string   `json:"title"`
	Labels []string `json:"labels"`
}

// benchPages runs one benchmark for each n, ranging over the pages that
// req begins with Parallel(n), or one at a time for an n of 1, named after
// it and suffix.
func benchPages(b *testing.B, client *http.Client, req *http.Request, pages int, suffix string, ns ...int) {
	for _, n := range ns {
		name, opts := "sequential", []paging.Option(nil)
		if n > 1 {
			name, opts = "Parallel"+strconv.Itoa(n), []paging.Option{paging.Parallel(n)}
		}
		b.Run(name+suffix, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				n := 0
				for _, err := range paging.Pages(context.Background(), client, req, opts...) {
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
				if n != pages {
					b.Fatalf("%d pages, want %d", n, pages)
				}
			}
		})
	}
}
