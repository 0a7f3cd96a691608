package paging_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/weblinking/weblink/paging"
)

// store is what a long run keeps, as a database would: the items of the
// finished pages and the checkpoint, committed together in BeforeNext (rule
// 4), and the items of the page under way, lost in a crash.
type store struct {
	checkpoint string // the URL of the next page not started; "" to start from the first
	done       bool
	committed  []int
	pending    []int
}

// stop is how a run ends early at an item.
type stop int

const (
	goOn stop = iota
	returns
	panics
)

var errStopped = errors.New("stopped")

// run pages the api from the checkpoint, calling at for each item, and
// reports how the run ended. A panic is recovered here, as a supervisor
// restarting a job would.
func (s *store) run(base string, at func(item int) stop) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
		s.pending = nil // not committed: the crash loses it
	}()
	from := s.checkpoint
	if from == "" {
		from = base + "/items?page=1"
	}
	req, err := http.NewRequest(http.MethodGet, from, nil)
	if err != nil {
		return err
	}
	commit := paging.BeforeNext(func(_ *http.Response, next *http.Request) error {
		s.committed = append(s.committed, s.pending...)
		s.pending = nil
		s.checkpoint = next.URL.String()
		return nil
	})
	for item, err := range paging.Items(context.Background(), nil, req, paging.JSONItems[int], commit) {
		if err != nil {
			return err
		}
		switch at(item) {
		case returns:
			return errStopped
		case panics:
			panic("crash at item " + fmt.Sprint(item))
		}
		s.pending = append(s.pending, item)
	}
	s.committed = append(s.committed, s.pending...)
	s.checkpoint, s.done = "", true
	return nil
}

// TestItemsResume stops a run of 10 pages mid-way, by a loop body that
// returns, a panic or a server error, and resumes it from its checkpoint:
// every item is committed exactly once across both runs, and the second
// run requests no page that the first finished.
func TestItemsResume(t *testing.T) {
	const pages = 10
	for _, tc := range []struct {
		name      string
		item      int  // where the first run stops
		how       stop // goOn: a 500 on that page instead
		firstPage int  // of the second run
	}{
		{"return at the first item", 1, returns, 1},
		{"return at a page's last item", 12, returns, 4},
		{"return mid-page", 14, returns, 5},
		{"return at the last item", 30, returns, 10},
		{"panic at the first item of a page", 19, panics, 7},
		{"panic mid-page", 23, panics, 8},
		{"server error on page 6", 6, goOn, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			failed := false
			a := newAPI(t, pages, nextOnly(pages), func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if tc.how == goOn && r.URL.Query().Get("page") == fmt.Sprint(tc.item) && !failed {
						failed = true
						http.Error(w, "try later", http.StatusInternalServerError)
						return
					}
					h.ServeHTTP(w, r)
				})
			})
			var s store
			err := s.run(a.URL, func(item int) stop {
				if item == tc.item {
					return tc.how
				}
				return goOn
			})
			if err == nil || s.done {
				t.Fatalf("first run ended with %v, done %v; want it stopped", err, s.done)
			}
			t.Logf("first run: %v; checkpoint %q", err, strings.TrimPrefix(s.checkpoint, a.URL))
			before := len(a.requests())
			if err := s.run(a.URL, func(int) stop { return goOn }); err != nil || !s.done {
				t.Fatalf("second run: %v, done %v", err, s.done)
			}
			if want := itemsUpTo(1, pages); !slices.Equal(s.committed, want) {
				t.Errorf("committed %v, want %v, each once", s.committed, want)
			}
			second := a.uris()[before:]
			var want []string
			for p := tc.firstPage; p <= pages; p++ {
				want = append(want, fmt.Sprintf("/items?page=%d", p))
			}
			if !slices.Equal(second, want) {
				t.Errorf("second run requested %v, want %v", second, want)
			}
		})
	}
}
