package paging_test

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/weblinking/weblink/paging"
)

// TestRevalidateJSONServer pages a real API, json-server 0.17.4, twice with
// one store: the second run sends If-None-Match, gets 304s for every page
// but the last (rule 24), yields the same items in order, and reads from
// the network no body of a page answered 304; a third run does the same
// with Parallel. It first checks json-server's own 304s, so that a change
// there fails here, not as a puzzle below.
func TestRevalidateJSONServer(t *testing.T) {
	base, want := startJSONServer(t, 103)
	const first = "/items?_page=1&_limit=10" // 11 pages, the last of 3 items

	// json-server answers a GET with a weak ETag, and If-None-Match with
	// that ETag with a 304 without a body.
	resp, err := http.Get(base + first)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	etag := resp.Header.Get("ETag")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(etag, `W/"`) {
		t.Fatalf("json-server answered %s with ETag %q, want 200 and a weak ETag", resp.Status, etag)
	}
	req, _ := http.NewRequest(http.MethodGet, base+first, nil)
	req.Header.Set("If-None-Match", etag)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotModified || len(body) != 0 || resp.Header.Get("ETag") != etag {
		t.Fatalf("json-server answered If-None-Match with %s, ETag %q, %d bytes; want 304, the same ETag, no body", resp.Status, resp.Header.Get("ETag"), len(body))
	}

	counter := &bodyCounter{rt: http.DefaultTransport}
	client := &http.Client{Transport: counter}
	store := paging.NewMemoryStore(1 << 20)
	var storeErrs []error
	page := func(opts ...paging.Option) (items []jsonItem, revalidated int, bodyBytes int64, conditional int) {
		counter.bytes.Store(0)
		counter.conditional.Store(0)
		req, _ := http.NewRequest(http.MethodGet, base+first, nil)
		decode := func(resp *http.Response) ([]jsonItem, error) {
			if paging.Revalidated(resp) {
				revalidated++
			}
			return paging.JSONItems[jsonItem](resp)
		}
		opts = append(opts, paging.Revalidate(store), paging.StoreErrors(func(err error) { storeErrs = append(storeErrs, err) }))
		for it, err := range paging.Items(context.Background(), client, req, decode, opts...) {
			if err != nil {
				t.Fatal(err)
			}
			items = append(items, it)
		}
		return items, revalidated, counter.bytes.Load(), int(counter.conditional.Load())
	}
	items, revalidated, full, _ := page()
	if !slices.Equal(items, want) || revalidated != 0 {
		t.Fatalf("first run: %d items, %d revalidated", len(items), revalidated)
	}
	lastPage := int64(len(`[
  {
    "id": 101,
    "name": "item 101"
  },
  {
    "id": 102,
    "name": "item 102"
  },
  {
    "id": 103,
    "name": "item 103"
  }
]`))
	for _, opts := range [][]paging.Option{nil, {paging.Parallel(4)}} {
		items, revalidated, bytes, conditional := page(opts...)
		if !slices.Equal(items, want) {
			t.Errorf("run with %d options: %d items, not those of the first run", len(opts), len(items))
		}
		if revalidated != 10 || conditional != 10 || bytes != lastPage {
			t.Errorf("run with %d options: %d pages revalidated, %d requests with If-None-Match, %d body bytes read of %d in all; want 10, 10 and the last page's %d",
				len(opts), revalidated, conditional, bytes, full, lastPage)
		}
		t.Logf("re-sync with %d options: 11 pages, %d answered 304, %d body bytes read from the network (first run %d)", len(opts), revalidated, bytes, full)
	}
	if len(storeErrs) != 0 {
		t.Errorf("store errors: %v", storeErrs)
	}
}
