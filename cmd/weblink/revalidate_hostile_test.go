package main

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/weblinking/weblink/paging"
)

// TestDiskStoreKeepsBytes stores, in a -revalidate directory, a page whose
// header holds bytes that are not UTF-8 (obs-text, RFC 9110 §5.5: an
// entity tag or a title in Latin-1): the page read back is the one stored,
// byte for byte, or none, never one with other validators or links.
func TestDiskStoreKeepsBytes(t *testing.T) {
	s, err := newDiskStore(t.TempDir(), options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	want := paging.StoredPage{
		URL: "http://127.0.0.1/items?page=1",
		Header: http.Header{
			"Etag": {"\"caf\xe9\""},
			"Link": {"</items?page=2>; rel=\"next\"; title=\"caf\xe9\""},
		},
		Body: []byte("[1,2,3]"),
	}
	if err := s.Put(ctx, "k", want); err != nil {
		t.Fatal(err)
	}
	got, ok, err := s.Get(ctx, "k")
	if ok && err == nil {
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("the page read back is not the one stored (-stored +read):\n%s", diff)
		}
	}
	// A page in UTF-8 is still kept.
	want.Header = http.Header{"Etag": {`"café"`}}
	if err := s.Put(ctx, "k2", want); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := s.Get(ctx, "k2"); !ok || err != nil || !cmp.Equal(want, got) {
		t.Errorf("a UTF-8 page read back as %v, %v, %v", got, ok, err)
	}
}
