package paging_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/weblinking/weblink/paging"
)

// repeatBody is a generated body: head, then fill repeated as many whole
// times as fit in size bytes with tail, then tail; it is never held in
// memory.
type repeatBody struct {
	head, fill, tail string
	size, off        int64
}

func (b *repeatBody) Read(p []byte) (int, error) {
	head, fill, tail := int64(len(b.head)), int64(len(b.fill)), int64(len(b.tail))
	fillEnd := head + (b.size-head-tail)/fill*fill
	n := 0
	for ; n < len(p) && b.off < fillEnd+tail; n++ {
		switch {
		case b.off < head:
			p[n] = b.head[b.off]
		case b.off >= fillEnd:
			p[n] = b.tail[b.off-fillEnd]
		default:
			p[n] = b.fill[(b.off-head)%fill]
		}
		b.off++
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

func (b *repeatBody) Close() error { return nil }

// generatedPages is a RoundTripper that answers every request with a new
// body from body().
type generatedPages func() io.ReadCloser

func (g generatedPages) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Status: "200 OK", Header: http.Header{}, Body: g(), Request: req}, nil
}

// measure runs f and returns the most heap it had in use at once, as
// sampled every millisecond, and how long it took.
func measure(f func()) (uint64, time.Duration) {
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		var m runtime.MemStats
		var most uint64
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&m)
			most = max(most, m.HeapAlloc)
			select {
			case <-done:
				peak <- most - min(most, base.HeapAlloc)
				return
			case <-tick.C:
			}
		}
	}()
	start := time.Now()
	f()
	d := time.Since(start)
	close(done)
	return <-peak, d
}

// TestNextInBodyHostile: what a peer sends ends with a clear error, in
// bounded memory, never a silent stop (rules 29 to 31, 33).
func TestNextInBodyHostile(t *testing.T) {
	giB := int64(1 << 30)
	if testing.Short() {
		giB = 64 << 20 // the read stops at 16 MiB either way
	}
	for _, tc := range []struct {
		name     string
		ptr      string
		body     func() io.ReadCloser
		err      error
		msg      string
		maxAlloc uint64
	}{
		{"1 GiB, the link at the end", "/links/next", func() io.ReadCloser {
			return &repeatBody{head: `{"data": [`, fill: `{"id": "1", "type": "t"},`, tail: `{}], "links": {"next": "/2"}}`, size: giB}
		}, paging.ErrNextLink, "first 16 MiB of the body", 128 << 20},
		{"a 10 MB link", "/next", func() io.ReadCloser {
			return &repeatBody{head: `{"next": "/`, fill: "a", tail: `"}`, size: 10 << 20}
		}, paging.ErrNextLink, "64 KiB", 128 << 20},
		{"a million levels", "/next", func() io.ReadCloser {
			return &repeatBody{head: `{"a": `, fill: "[", tail: "", size: 1 << 20}
		}, paging.ErrNextLink, "deeper than 10000", 32 << 20},
		{"a 1 GiB string", "/next", func() io.ReadCloser {
			return &repeatBody{head: `{"a": "`, fill: "x", tail: `", "next": "/2"}`, size: giB}
		}, paging.ErrNextLink, "first 16 MiB of the body", 128 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client := &http.Client{Transport: generatedPages(tc.body)}
			req, _ := http.NewRequest(http.MethodGet, "https://api.example/1", nil)
			var err error
			pages := 0
			alloc, d := measure(func() {
				for _, e := range paging.Pages(context.Background(), client, req, paging.NextInBody(tc.ptr)) {
					if e != nil {
						err = e
						break
					}
					pages++
				}
			})
			if pages != 1 || !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%d pages, error %v; want 1 page, then %v saying %q", pages, err, tc.err, tc.msg)
			}
			if alloc > tc.maxAlloc {
				t.Errorf("%d MiB of heap in use, want at most %d MiB", alloc>>20, tc.maxAlloc>>20)
			}
			t.Logf("%v, at most %d MiB of heap in use", d, alloc>>20)
		})
	}
}

// TestJSONItemsAtHostile: a long page and deep nesting before the array
// are read in memory that does not grow with them (rules 33, 34).
func TestJSONItemsAtHostile(t *testing.T) {
	size := int64(256 << 20) // at 10 to 40 MB/s: skipped token by token
	if testing.Short() {
		size = 32 << 20
	}
	for _, tc := range []struct {
		name  string
		body  *repeatBody
		items int
		msg   string
	}{
		{"the array at the end", &repeatBody{head: `{"meta": [`, fill: `{"id": "1", "n": 2.5, "ok": true},`, tail: `{}], "data": [1, 2, 3]}`, size: size}, 3, ""},
		{"a million levels", &repeatBody{head: `{"a": `, fill: "[", size: 1 << 20}, 0, "deeper than 10000"},
		{"10 000 levels", &repeatBody{head: `{"a": ` + strings.Repeat("[", 9999), fill: " ", tail: strings.Repeat("]", 9999) + `, "data": [7]}`, size: 1 << 20}, 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := &http.Response{StatusCode: 200, Body: tc.body}
			var items []int
			var err error
			alloc, d := measure(func() { items, err = paging.JSONItemsAt[int]("/data")(resp) })
			if tc.msg != "" {
				if err == nil || !strings.Contains(err.Error(), tc.msg) {
					t.Errorf("error %v, want one saying %q", err, tc.msg)
				}
			} else if err != nil || len(items) != tc.items {
				t.Errorf("%v, error %v; want %d items", items, err, tc.items)
			}
			if alloc > 64<<20 {
				t.Errorf("%d MiB of heap in use for a %d MiB body, want at most 64", alloc>>20, tc.body.size>>20)
			}
			t.Logf("%d MiB in %v, at most %d MiB of heap in use", tc.body.size>>20, d, alloc>>20)
		})
	}
}
