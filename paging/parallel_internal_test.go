package paging

import (
	"errors"
	"net/url"
	"testing"
	"time"
)

// Rule 6: which next and last links make a series of numbered pages.
func TestPredictSeries(t *testing.T) {
	for _, tc := range []struct {
		page, next, last string
		next2            string // the URL predicted for the page after next; "" when not predicted
		from, to         int
	}{
		{"https://api.github.com/r/issues?page=1", "https://api.github.com/r/issues?page=2", "https://api.github.com/r/issues?page=9", "https://api.github.com/r/issues?page=3", 2, 9},
		{"https://a/i", "https://a/i?per_page=100&page=2", "https://a/i?per_page=100&page=50", "https://a/i?per_page=100&page=3", 2, 50}, // no parameter: page 1
		{"https://a/i?page=4&x=y", "https://a/i?page=5&x=y", "https://a/i?page=5&x=y", "", 0, 0},                                         // next is last: nothing ahead
		{"http://h:3000/items?_page=1&_limit=5", "http://h:3000/items?_page=2&_limit=5", "http://h:3000/items?_page=5&_limit=5", "http://h:3000/items?_page=3&_limit=5", 2, 5},
		{"https://a/i?page=0", "https://a/i?page=1", "https://a/i?page=3", "https://a/i?page=2", 1, 3}, // zero-based
		{"https://a/i?page=1", "https://a/i?page=2", "https://a/i?page=1000000000000", "https://a/i?page=3", 2, 1000000000000},
		{"https://a/i?page=1", "https://a/i?page=2#f", "https://a/i?page=9#f", "https://a/i?page=3#f", 2, 9},
		// Not a series:
		{"https://a/i?page=1", "https://a/i?page=2", "", "", 0, 0},                                      // no last
		{"https://a/i?page=1", "https://a/i?page=2", "https://b/i?page=9", "", 0, 0},                    // another host
		{"https://a/i?page=1", "https://a/i?page=2", "http://a/i?page=9", "", 0, 0},                     // another scheme
		{"https://a/i?page=1", "https://a/i?page=2", "https://a:8443/i?page=9", "", 0, 0},               // another port
		{"https://a/i?page=1", "https://a/i?page=2", "https://a/j?page=9", "", 0, 0},                    // another path
		{"https://a/i?page=1", "https://a/i?page=2", "https://u@a/i?page=9", "", 0, 0},                  // userinfo
		{"https://a/i?page=1", "https://a/i?page=2&x=1", "https://a/i?page=9&x=2", "", 0, 0},            // two values differ
		{"https://a/i?page=1", "https://a/i?page=2", "https://a/i?page=9&x=2", "", 0, 0},                // an element more
		{"https://a/i?page=1", "https://a/i?page=2&x=1", "https://a/i?page=9", "", 0, 0},                // an element less
		{"https://a/i?page=1", "https://a/i?page=2", "https://a/i?pages=9", "", 0, 0},                   // another name
		{"https://a/i?page=1", "https://a/i?page=2", "https://a/i?page=z9", "", 0, 0},                   // not a number
		{"https://a/i?page=1", "https://a/i?page=2", "https://a/i?page=-9", "", 0, 0},                   // a sign
		{"https://a/i?page=1", "https://a/i?page=2", "https://a/i?page=+9", "", 0, 0},                   // a sign
		{"https://a/i?page=1", "https://a/i?page=2", "https://a/i?page=09", "", 0, 0},                   // a leading zero
		{"https://a/i?page=1", "https://a/i?page=02", "https://a/i?page=9", "", 0, 0},                   // a leading zero
		{"https://a/i?page=1", "https://a/i?page=2", "https://a/i?page=99999999999999999999", "", 0, 0}, // beyond an int
		{"https://a/i?page=1", "https://a/i?page=2", "https://a/i?page=", "", 0, 0},                     // empty
		{"https://a/i?page=1", "https://a/i?c=ab", "https://a/i?c=zz", "", 0, 0},                        // a cursor
		{"https://a/i?page=2", "https://a/i?page=2", "https://a/i?page=9", "", 0, 0},                    // next is not current+1
		{"https://a/i?page=1", "https://a/i?page=3", "https://a/i?page=9", "", 0, 0},                    // skips a page
		{"https://a/i", "https://a/i?page=3", "https://a/i?page=9", "", 0, 0},                           // no parameter is page 1
		{"https://a/i?page=8", "https://a/i?page=9", "https://a/i?page=3", "", 0, 0},                    // next beyond last
		{"https://a/i?page=1&page=1", "https://a/i?page=2", "https://a/i?page=9", "", 0, 0},             // current page twice
		{"https://a/i?page=1", "https://a/i?page=2&page=2", "https://a/i?page=9&page=2", "", 0, 0},      // the parameter twice
		{"https://a/i?page=x", "https://a/i?page=2", "https://a/i?page=9", "", 0, 0},                    // current is no number
		{"https://a/i?page=1", "https://a/i?2", "https://a/i?9", "", 0, 0},                              // no name
		{"https://a/i?page=1", "https://a/i?page=2&n=5", "https://a/i?page=7&n=5&", "", 0, 0},           // an "&" at the end of one
		{"https://a/i?page=1", "https://a/i?page=2&n=5&", "https://a/i?page=7&n=5", "", 0, 0},           // of the other
	} {
		page, next, last := parse(t, tc.page), parse(t, tc.next), parse(t, tc.last)
		s, ok := predictSeries(page, next, last)
		if ok != (tc.from != 0) {
			t.Errorf("%s → %s … %s: predicted %v, want %v", tc.page, tc.next, tc.last, ok, !ok)
			continue
		}
		if !ok {
			continue
		}
		if s.next != tc.from || s.last != tc.to {
			t.Errorf("%s → %s … %s: pages %d to %d, want %d to %d", tc.page, tc.next, tc.last, s.next, s.last, tc.from, tc.to)
		}
		if got := s.url(s.next).String(); got != tc.next {
			t.Errorf("%s: page %d is %s, want the next link", tc.next, s.next, got)
		}
		if tc.next2 != "" {
			if got := s.url(s.next + 1).String(); got != tc.next2 {
				t.Errorf("%s: page %d is %s, want %s", tc.next, s.next+1, got, tc.next2)
			}
		}
	}
}

// FuzzPredictSeries guards rule 6 on any three URLs: no panic, and a
// predicted series starts at the next link as written, which s.is accepts,
// ends at the last link, and numbers its pages in the query alone.
func FuzzPredictSeries(f *testing.F) {
	f.Add("https://a/i?page=1", "https://a/i?page=2&per_page=9", "https://a/i?page=50&per_page=9")
	f.Add("https://a/i", "https://a/i?x=&page=2", "https://a/i?x=&page=3")
	f.Add("http://h/items?_page=1&_limit=5", "http://h/items?_page=2&_limit=5", "http://h/items?_page=5&_limit=5")
	f.Add("https://a/i?page=1", "https://a/i?page=2&&", "https://a/i?page=9&&")
	f.Fuzz(func(t *testing.T, page, next, last string) {
		pu, err1 := url.Parse(page)
		nu, err2 := url.Parse(next)
		lu, err3 := url.Parse(last)
		if err1 != nil || err2 != nil || err3 != nil {
			return
		}
		s, ok := predictSeries(pu, nu, lu)
		if !ok {
			return
		}
		if s.next > s.last || s.next < 0 {
			t.Fatalf("pages %d to %d", s.next, s.last)
		}
		if got := s.url(s.next); got.String() != nu.String() || !s.is(nu, s.next) {
			t.Errorf("page %d is %s, want the next link %s", s.next, got, nu)
		}
		if got := s.url(s.last); got.RawQuery != lu.RawQuery || !s.is(lu, s.last) {
			t.Errorf("page %d has the query %q, want the last link's %q", s.last, got.RawQuery, lu.RawQuery)
		}
		if s.last > s.next && s.is(nu, s.next+1) {
			t.Errorf("%s is both page %d and page %d", nu, s.next, s.next+1)
		}
	})
}

// Rule 9: waits for the same time, taken at once by several requests of
// one iteration, are charged once; waits one after another add up.
func TestWaitBudgetChargesOverlapOnce(t *testing.T) {
	t0 := time.Unix(1e9, 0)
	b := &waitBudget{max: 25 * time.Second}
	for range 4 { // four requests waiting for the same reset
		if err := b.take(t0, t0.Add(10*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	if b.waited != 10*time.Second {
		t.Errorf("waited %v, want 10s", b.waited)
	}
	if err := b.take(t0.Add(time.Second), t0.Add(12*time.Second)); err != nil || b.waited != 12*time.Second {
		t.Errorf("a later time: waited %v (%v), want 12s", b.waited, err)
	}
	if err := b.fits(t0.Add(12*time.Second), t0.Add(25*time.Second)); err != nil {
		t.Errorf("13 s more fit in 25 s: %v", err)
	}
	if err := b.fits(t0.Add(12*time.Second), t0.Add(26*time.Second)); !errors.Is(err, ErrRateLimited) {
		t.Errorf("14 s more: %v, want ErrRateLimited", err)
	}
	if err := b.take(t0.Add(20*time.Second), t0.Add(30*time.Second)); err != nil || b.waited != 22*time.Second {
		t.Errorf("a wait after the others: waited %v (%v), want 22s", b.waited, err)
	}
}
