package weblink_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/weblinking/weblink"
)

// Rule 47: a predicted page that is not 2xx and trickles its body is read
// ahead (its first 2 KiB, for the StatusError) for at most a second, as one
// page at a time reads it, and ends the iteration in its place; the pages
// before it are yielded whole.
func TestParallelStatusBodyTrickles(t *testing.T) {
	const pages = 6
	a := newAPI(t, pages, numbered(pages), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("page") != "3" {
				items.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Length", strconv.Itoa(400))
			w.WriteHeader(http.StatusInternalServerError)
			trickle(w, r, 400, 50*time.Millisecond) // 20 s
		})
	})
	client, tr := newClient(t)
	defer noLeak(t, tr)()
	start := time.Now()
	r := collect(t, weblink.Pages(context.Background(), client, getItems(t, a.URL), weblink.Parallel(4)))
	r.check(t, itemsUpTo(1, 2), weblink.ErrStatus)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the iteration took %v: page 3's body was read ahead for more than a second", d)
	}
}
