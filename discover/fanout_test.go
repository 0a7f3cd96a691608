package discover

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/weblinking/weblink"
)

// fanOut serves a resource whose body lists n same-origin linksets, each a
// linkset document of size bytes (a link, then spaces), and counts the
// requests.
func fanOut(t *testing.T, n, size int) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.URL.Path == "/" {
			w.Header().Set("Content-Type", "text/html")
			for i := range n {
				fmt.Fprintf(w, `<link rel="linkset" href="/ls/%d">`, i)
			}
			return
		}
		w.Header().Set("Content-Type", weblink.LinksetType)
		doc := "<" + r.URL.Path + `/x>; rel="item"`
		fmt.Fprint(w, doc+strings.Repeat(" ", max(size-len(doc), 0)))
	}))
	t.Cleanup(srv.Close)
	return srv, &requests
}

// TestFollowLinksetsCount: at most 16 linksets are followed (rule 32), and
// those left out are an error that says how many and names the first.
func TestFollowLinksetsCount(t *testing.T) {
	srv, requests := fanOut(t, 40, 30)
	links, err := get(t, srv.URL+"/", FollowLinksets())
	if got := requests.Load(); got != 17 {
		t.Errorf("%d requests, want 17: the resource and 16 linksets", got)
	}
	if got := len(links); got != 40+16 {
		t.Errorf("%d links, want 56", got)
	}
	if !errors.Is(err, ErrLinksetLimit) || !strings.Contains(err.Error(), "24 linksets not followed") || !strings.Contains(err.Error(), `/ls/16"`) {
		t.Errorf("error %v; want ErrLinksetLimit, 24 linksets not followed from /ls/16", err)
	}
}

// TestFollowLinksetsBytes: the linksets together are read up to MaxBytes
// (rule 32): the one that passes it is cut (ErrTruncated), the rest are not
// fetched, and that is an error too.
func TestFollowLinksetsBytes(t *testing.T) {
	srv, requests := fanOut(t, 10, 100)
	links, err := get(t, srv.URL+"/", FollowLinksets(), MaxBytes(350)) // the resource is 330 bytes
	if got := requests.Load(); got != 5 {
		t.Errorf("%d requests, want 5: the resource and 4 linksets", got)
	}
	if got := len(links); got != 10+4 {
		t.Errorf("%d links, want 14", got)
	}
	if !errors.Is(err, ErrTruncated) || !errors.Is(err, ErrLinksetLimit) || !strings.Contains(err.Error(), "6 linksets not followed") {
		t.Errorf("error %v; want the fourth linkset cut and 6 linksets not followed", err)
	}
}
