//go:build unix

package main

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/weblinking/weblink/paging"
)

// TestDiskStoreFIFO puts a named pipe where a page file would be (a
// directory shared with another user, or a mistake): Get returns at once,
// with an error, instead of waiting for ever for a writer.
func TestDiskStoreFIFO(t *testing.T) {
	s, err := newDiskStore(t.TempDir(), options{})
	if err != nil {
		t.Fatal(err)
	}
	path, _ := s.path("k")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := s.Get(context.Background(), "k")
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Error("Get of a named pipe: no error")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Get of a named pipe still blocked after 5s")
	}
	// The page fetched afresh replaces it.
	page := paging.StoredPage{URL: "http://127.0.0.1/", Body: []byte("x")}
	if err := s.Put(context.Background(), "k", page); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := s.Get(context.Background(), "k"); !ok || err != nil || string(got.Body) != "x" {
		t.Errorf("after Put: %v, %v, %v", got, ok, err)
	}
}
