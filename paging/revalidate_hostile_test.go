package paging_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/weblinking/weblink/paging"
)

// TestRevalidateGzip304ContentLength pages twice a server that sends its
// page gzip-coded (net/http asks for it, and decodes it: the stored body is
// the decoded one) and answers the second request 304 with the
// Content-Length the 200 would have had, as RFC 9110 §8.6 allows: the
// coded length. That 304 fits the stored page (rule 22).
func TestRevalidateGzip304ContentLength(t *testing.T) {
	const page = `["a","b","c"]`
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	_, _ = io.WriteString(zw, page+strings.Repeat(" ", 200))
	_ = zw.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/last" {
			return // the last page: requested without validators (rule 24)
		}
		if r.Header.Get("If-None-Match") == `"v1"` {
			conn, buf, err := w.(http.Hijacker).Hijack() // net/http drops Content-Length from a 304
			if err != nil {
				panic(err)
			}
			defer conn.Close()
			_, _ = buf.WriteString("HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nContent-Length: " +
				strconv.Itoa(zipped.Len()) + "\r\nConnection: close\r\n\r\n")
			_ = buf.Flush()
			return
		}
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Link", `</last>; rel="next"`)
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", strconv.Itoa(zipped.Len()))
		_, _ = w.Write(zipped.Bytes())
	}))
	defer srv.Close()
	store := paging.NewMemoryStore(1 << 20)
	for run := range 2 {
		req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
		for resp, err := range paging.Pages(context.Background(), nil, req, paging.Revalidate(store)) {
			if err != nil {
				t.Fatalf("run %d: %v", run+1, err)
			}
			if resp.Request.URL.Path == "/last" {
				continue
			}
			body, _ := io.ReadAll(resp.Body)
			if !strings.HasPrefix(string(body), page) || paging.Revalidated(resp) != (run == 1) {
				t.Errorf("run %d: body %q, revalidated %v", run+1, body, paging.Revalidated(resp))
			}
		}
	}
}
