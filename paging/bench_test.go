package paging_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/benchdata"
	"github.com/weblinking/weblink/paging"
)

// BenchmarkPagesNextURL finds the next page of a response carrying the
// 4-link header GitHub sends.
func BenchmarkPagesNextURL(b *testing.B) {
	req, err := http.NewRequest(http.MethodGet, "https://api.github.com/repositories/1300192/issues?page=3", nil)
	if err != nil {
		b.Fatal(err)
	}
	resp := &http.Response{Request: req, Header: http.Header{"Link": {benchdata.GitHub4}}}
	b.SetBytes(int64(len(benchdata.GitHub4)))
	b.ReportAllocs()
	for range b.N {
		u, ok := weblink.NextURL(resp)
		if !ok || u.String() != benchdata.GitHub4Next {
			b.Fatalf("NextURL = %v, %v", u, ok)
		}
	}
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

// BenchmarkPagesInMemory ranges over 10 pages served from memory, leaving
// each body for Pages to drain.
func BenchmarkPagesInMemory(b *testing.B) {
	const pages = 10
	client := &http.Client{Transport: memPages{pages}}
	req, err := http.NewRequest(http.MethodGet, "https://api.example/items?page=1", nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for range b.N {
		n := 0
		for _, err := range paging.Pages(ctx, client, req) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != pages {
			b.Fatalf("%d pages, want %d", n, pages)
		}
	}
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

// BenchmarkJSONItems decodes a page of 100 issues (about 13 KB).
func BenchmarkJSONItems(b *testing.B) {
	body := issuePage(100)
	req := &http.Request{Method: http.MethodGet}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for range b.N {
		resp := &http.Response{StatusCode: 200, Body: io.NopCloser(bytes.NewReader(body)), Request: req}
		if _, err := paging.JSONItems[benchIssue](resp); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParallelPages ranges over 40 numbered pages of a server on
// 127.0.0.1 that answers each request after 50 ms, as a distant API would:
// one page at a time, then with Parallel(4) and Parallel(8). The client's
// transport keeps 8 idle connections, so that the parallel runs reuse
// theirs. Allocations include the server's, which are the same per page
// in every run.
func BenchmarkParallelPages(b *testing.B) {
	const pages, latency = 40, 50 * time.Millisecond
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := strconv.Atoi(r.URL.Query().Get("page"))
		weblink.Add(w.Header(), weblink.PageLinks(r.URL, "page", max(p, 1), pages)...)
		time.Sleep(latency)
		_, _ = w.Write([]byte(`[1,2,3]`))
	}))
	defer srv.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: 8}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	req, err := http.NewRequest(http.MethodGet, srv.URL+"/items?per_page=3&page=1", nil)
	if err != nil {
		b.Fatal(err)
	}
	benchPages(b, client, req, pages, "", 1, 4, 8)
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

// BenchmarkParallelPagesInMemory ranges over the 40 and the 400 pages of
// memPages, one at a time and with Parallel(4): what Parallel costs on the
// client, without a network or a server. The difference between the two
// lengths is the cost of a page; the rest is that of a run.
func BenchmarkParallelPagesInMemory(b *testing.B) {
	for _, pages := range []int{40, 400} {
		client := &http.Client{Transport: memPages{pages}}
		req, err := http.NewRequest(http.MethodGet, "https://api.example/items?page=1", nil)
		if err != nil {
			b.Fatal(err)
		}
		benchPages(b, client, req, pages, "/pages="+strconv.Itoa(pages), 1, 4)
	}
}
