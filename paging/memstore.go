package paging

import (
	"container/list"
	"context"
	"net/http"
	"sync"
)

// NewMemoryStore returns a [PageStore] for [Revalidate] that keeps pages in
// memory, up to maxBytes in all, least recently used first out (see rule
// 27).
//
// A maxBytes of 0 or less stores nothing. The store keeps the pages it is
// given without copying their bodies, and Get returns them so: a page must
// not be modified once stored. One store may serve [Parallel] and several
// iterations; its pages last as long as the process.
func NewMemoryStore(maxBytes int64) PageStore {
	return &memoryStore{max: maxBytes, pages: make(map[string]*list.Element), lru: list.New()}
}

// memoryStore is the store of NewMemoryStore: a map to the elements of a
// list, most recently used first.
type memoryStore struct {
	mu    sync.Mutex
	max   int64
	size  int64
	pages map[string]*list.Element // of *memoryPage
	lru   *list.List
}

// memoryPage is a page of a memoryStore and its size.
type memoryPage struct {
	key  string
	page StoredPage
	size int64
}

// Get returns the page stored under key, a copy of its header, and makes it
// the most recently used.
func (s *memoryStore) Get(_ context.Context, key string) (StoredPage, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.pages[key]
	if !ok {
		return StoredPage{}, false, nil
	}
	s.lru.MoveToFront(e)
	p := e.Value.(*memoryPage).page
	p.Header = p.Header.Clone()
	return p, true, nil
}

// Put stores p under key, with a copy of its header, replacing the page
// stored there, and removes the least recently used pages until all fit.
func (s *memoryStore) Put(_ context.Context, key string, p StoredPage) error {
	size := pageSize(key, p)
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.pages[key]; ok {
		s.remove(e)
	}
	if size > s.max {
		return nil
	}
	p.Header = p.Header.Clone()
	s.pages[key] = s.lru.PushFront(&memoryPage{key: key, page: p, size: size})
	s.size += size
	for s.size > s.max {
		s.remove(s.lru.Back())
	}
	return nil
}

// remove removes the page of e.
func (s *memoryStore) remove(e *list.Element) {
	mp := s.lru.Remove(e).(*memoryPage)
	delete(s.pages, mp.key)
	s.size -= mp.size
}

// pageSize is the size of p stored under key: its key, URL, header names
// and values, and body.
func pageSize(key string, p StoredPage) int64 {
	n := len(key) + len(p.URL) + len(p.Body)
	n += headerSize(p.Header)
	return int64(n)
}

// headerSize is the bytes of the names and values of h.
func headerSize(h http.Header) int {
	n := 0
	for name, values := range h {
		for _, v := range values {
			n += len(name) + len(v)
		}
	}
	return n
}
