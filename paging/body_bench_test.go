package paging_test

import (
	"bytes"
	"io"
	"net/http"
	"runtime"
	"testing"

	"github.com/weblinking/weblink/paging"
)

// BenchmarkJSONItemsAt decodes the 100 issues of BenchmarkJSONItems's page
// (about 13 KB) wrapped as GitHub's search wraps them ("/items"), and as a
// JSON:API page whose array comes after its links and before 100 more
// issues that are skipped ("/data"), next to JSONItems on the bare array.
// Besides B/op it reports the bytes allocated per byte of the page.
func BenchmarkJSONItemsAt(b *testing.B) {
	array := issuePage(100)
	search := append(append([]byte(`{"total_count":100,"incomplete_results":false,"items":`), array...), '}')
	jsonapi := append(append(append(append([]byte(`{"links":{"self":"/issues?page=1","next":"/issues?page=2"},"meta":{"count":100},"data":`), array...), `,"included":`...), array...), '}')
	for _, bc := range []struct {
		name   string
		body   []byte
		decode func(*http.Response) ([]benchIssue, error)
	}{
		{"JSONItems", array, paging.JSONItems[benchIssue]},
		{"items", search, paging.JSONItemsAt[benchIssue]("/items")},
		{"data", jsonapi, paging.JSONItemsAt[benchIssue]("/data")},
	} {
		b.Run(bc.name, func(b *testing.B) {
			req := &http.Request{Method: http.MethodGet}
			b.SetBytes(int64(len(bc.body)))
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for range b.N {
				resp := &http.Response{StatusCode: 200, Body: io.NopCloser(bytes.NewReader(bc.body)), Request: req}
				if items, err := bc.decode(resp); err != nil || len(items) != 100 {
					b.Fatal(len(items), err)
				}
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(len(bc.body)), "allocB/pageB")
		})
	}
}
