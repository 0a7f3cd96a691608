package weblink_test

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weblinking/weblink"
)

// Rule 47: a predicted page that is not 2xx and trickles its body is read
// ahead (its first 2 KiB, for the StatusError) for at most a second, as one
// page at a time reads it, and ends the iteration in its place; the pages
// before it are yielded whole.
func TestParallelStatusBodyTrickles(t *testing.T) {
	const pages = 6
	a := newAPI(t, pages, numbered(pages), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("page") != "3" {
				items.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Length", strconv.Itoa(400))
			w.WriteHeader(http.StatusInternalServerError)
			trickle(w, r, 400, 50*time.Millisecond) // 20 s
		})
	})
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	start := time.Now()
	r := collect(t, weblink.Pages(context.Background(), client, getItems(t, a.URL), weblink.Parallel(4)))
	r.check(t, itemsUpTo(1, 2), weblink.ErrStatus)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the iteration took %v: page 3's body was read ahead for more than a second", d)
	}
}

// bodies is a RoundTripper that counts the response bodies it has handed
// out and not seen closed.
type bodies struct {
	rt   http.RoundTripper
	open atomic.Int64
}

func (b *bodies) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := b.rt.RoundTrip(req)
	if err == nil {
		b.open.Add(1)
		resp.Body = &trackedClose{ReadCloser: resp.Body, open: &b.open}
	}
	return resp, err
}

type trackedClose struct {
	io.ReadCloser
	open *atomic.Int64
	once sync.Once
}

func (c *trackedClose) Close() error {
	c.once.Do(func() { c.open.Add(-1) })
	return c.ReadCloser.Close()
}

// Rule 46: a BeforeNext that panics, whether for the requests launched
// with the first page or for one launched further on, leaves no response
// body open: the page it was called with is closed too.
func TestParallelBeforeNextPanicsClosesBodies(t *testing.T) {
	const pages = 8
	for _, at := range []int{2, 6} {
		t.Run(strconv.Itoa(at), func(t *testing.T) {
			a := newAPI(t, pages, numbered(pages))
			client, tr := newClient(t)
			b := &bodies{rt: tr}
			client.Transport = b
			defer noLeak(t, tr)()
			hook := weblink.BeforeNext(func(prev *http.Response, next *http.Request) error {
				if pageOf(next.URL.RequestURI()) == at {
					panic("boom")
				}
				return nil
			})
			func() {
				defer func() {
					if v := recover(); v != "boom" {
						t.Errorf("recovered %v, want the panic of BeforeNext", v)
					}
				}()
				for resp, err := range weblink.Pages(context.Background(), client, getItems(t, a.URL), weblink.Parallel(3), hook) {
					if err != nil {
						t.Fatal(err)
					}
					_ = resp
				}
			}()
			if n := b.open.Load(); n != 0 {
				t.Errorf("%d response bodies left open", n)
			}
		})
	}
}
