package paging_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/weblinking/weblink/paging"
)

// TestMemoryStore checks rule 27: pages up to maxBytes in all, the least
// recently used (stored or read) going first, a page larger than maxBytes
// not stored, nothing stored with maxBytes 0, a header that Get returns
// not shared with the store.
func TestMemoryStore(t *testing.T) {
	ctx := context.Background()
	page := func(body string) paging.StoredPage {
		return paging.StoredPage{URL: "https://a.example/", Header: http.Header{"Etag": {`"x"`}}, Body: []byte(body)}
	}
	// Each page is key (1) + URL (19) + header (4+3) + body (73) = 100 bytes.
	body := strings.Repeat("b", 73)
	s := paging.NewMemoryStore(300)
	for _, k := range []string{"a", "b", "c"} {
		if err := s.Put(ctx, k, page(body)); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok, _ := s.Get(ctx, "a"); !ok { // a is now the most recently used
		t.Fatal("a not stored")
	}
	_ = s.Put(ctx, "d", page(body)) // b goes
	has := func(k string) bool { _, ok, _ := s.Get(ctx, k); return ok }
	if has("b") || !has("a") || !has("c") || !has("d") {
		t.Errorf("after d: b %v a %v c %v d %v; want b gone, the others there", has("b"), has("a"), has("c"), has("d"))
	}
	_ = s.Put(ctx, "e", page(strings.Repeat("b", 300))) // larger than the store
	if has("e") || !has("a") {
		t.Errorf("a page larger than maxBytes: stored %v, a kept %v", has("e"), has("a"))
	}
	_ = s.Put(ctx, "a", page("short")) // replaces a
	if p, _, _ := s.Get(ctx, "a"); string(p.Body) != "short" {
		t.Errorf("a replaced: body %q", p.Body)
	}
	p, _, _ := s.Get(ctx, "a")
	p.Header.Set("Etag", `"changed"`)
	if q, _, _ := s.Get(ctx, "a"); q.Header.Get("Etag") != `"x"` {
		t.Errorf("a header changed through Get: %v", q.Header)
	}
	none := paging.NewMemoryStore(0)
	_ = none.Put(ctx, "a", page("x"))
	if _, ok, _ := none.Get(ctx, "a"); ok {
		t.Error("NewMemoryStore(0) stored a page")
	}
}

// TestMemoryStoreConcurrent uses one store from several goroutines (with
// -race, a data race fails it).
func TestMemoryStoreConcurrent(t *testing.T) {
	s := paging.NewMemoryStore(10 << 10)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				k := fmt.Sprint((g + i) % 50)
				_ = s.Put(context.Background(), k, paging.StoredPage{URL: "https://a.example/" + k, Body: make([]byte, 100)})
				if p, ok, _ := s.Get(context.Background(), k); ok && p.URL != "https://a.example/"+k {
					t.Errorf("key %s holds the page of %s", k, p.URL)
				}
			}
		}()
	}
	wg.Wait()
}
