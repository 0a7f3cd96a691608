package paging_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/weblinking/weblink/paging"
)

// TestPointerBigNumber reads bodies with a number beyond float64 (valid
// JSON, RFC 8259 §6) before or after the value at the pointer, with and
// without a run of whitespace in front of it: the number is skipped as any
// other (rule 33), whatever the decoder happens to have buffered.
func TestPointerBigNumber(t *testing.T) {
	spaces := strings.Repeat(" ", 100)
	for _, gap := range []string{"", spaces} {
		before := `{"total":` + gap + `1e400,"links":{"next":"/p2"},"data":[1,2]}`
		after := `{"links":{"next":"/p2"},"data":[1,2],"total":` + gap + `1e400}`
		for _, body := range []string{before, after} {
			resp := &http.Response{StatusCode: 200, Request: &http.Request{Method: http.MethodGet}, Body: io.NopCloser(strings.NewReader(body))}
			items, err := paging.JSONItemsAt[int]("/data")(resp)
			if err != nil || !slices.Equal(items, []int{1, 2}) {
				t.Errorf("JSONItemsAt(%q) = %v, %v; want [1 2]", body, items, err)
			}
			pages := map[string]string{"/p1": body, "/p2": `{}`}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, pages[r.URL.Path])
			}))
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/p1", nil)
			var got []string
			for resp, err := range paging.Pages(context.Background(), srv.Client(), req, paging.NextInBody("/links/next")) {
				if err != nil {
					t.Errorf("Pages over %q: %v", body, err)
					break
				}
				got = append(got, resp.Request.URL.Path)
			}
			srv.Close()
			if !slices.Equal(got, []string{"/p1", "/p2"}) {
				t.Errorf("Pages over %q yielded %v, want [/p1 /p2]", body, got)
			}
		}
	}
}
