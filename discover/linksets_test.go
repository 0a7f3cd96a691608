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

// TestFollowLinksetsCount: at most 16 linksets are followed (rule 17), and
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

// TestFollowLinksetsOneLeftOut: one linkset left out is said in the
// singular, as one nested API catalog is (rule 17).
func TestFollowLinksetsOneLeftOut(t *testing.T) {
	srv, _ := fanOut(t, 17, 30)
	_, err := get(t, srv.URL+"/", FollowLinksets())
	want := `discover: linkset limit reached: 1 linkset not followed, from "` + srv.URL + `/ls/16" on: 16 were fetched, the most FollowLinksets fetches`
	if !errors.Is(err, ErrLinksetLimit) || err.Error() != want {
		t.Errorf("error %v\nwant %s", err, want)
	}
}

// TestFollowLinksetsBytes: the linksets together are read up to MaxBytes
// (rule 17): the one that passes it is cut (ErrTruncated) and gives no
// links (rule 13), the rest are not fetched, and that is an error too.
func TestFollowLinksetsBytes(t *testing.T) {
	srv, requests := fanOut(t, 10, 100)
	links, err := get(t, srv.URL+"/", FollowLinksets(), MaxBytes(350)) // the resource is 330 bytes
	if got := requests.Load(); got != 5 {
		t.Errorf("%d requests, want 5: the resource and 4 linksets", got)
	}
	if got := len(links); got != 10+3 {
		t.Errorf("%d links, want 13: the cut fourth linkset gives none", got)
	}
	if !errors.Is(err, ErrTruncated) || !errors.Is(err, ErrLinksetLimit) || !strings.Contains(err.Error(), "6 linksets not followed") {
		t.Errorf("error %v; want the fourth linkset cut and 6 linksets not followed", err)
	}
}

// TestFollowLinksetsRedirectOnce: a linkset reached through a redirect is
// not fetched again when another link names it directly, in either order,
// nor when a second redirect leads to it; its links are appended once
// (rule 17). A redirect loop is still a problem.
func TestFollowLinksetsRedirectOnce(t *testing.T) {
	for _, c := range []struct {
		name  string
		links string // the resource's Link field
		want  []string
	}{
		{"redirect first", `</a>; rel=linkset, </b>; rel=linkset`, []string{"/", "/a", "/b"}},
		{"direct first", `</b>; rel=linkset, </a>; rel=linkset`, []string{"/", "/b", "/a"}},
		{"two redirects", `</a>; rel=linkset, </c>; rel=linkset, </b>; rel=linkset`, []string{"/", "/a", "/b", "/c"}},
		{"to the resource", `</self>; rel=linkset, </b>; rel=linkset`, []string{"/", "/self", "/b"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got = append(got, r.URL.Path) // one request at a time
				switch r.URL.Path {
				case "/":
					w.Header().Set("Link", c.links)
				case "/a", "/c":
					http.Redirect(w, r, "/b", http.StatusFound)
				case "/self":
					http.Redirect(w, r, "/", http.StatusFound)
				case "/b":
					w.Header().Set("Content-Type", weblink.LinksetType)
					fmt.Fprint(w, `</item>; rel="item"`)
				}
			}))
			defer srv.Close()
			links, err := get(t, srv.URL+"/", FollowLinksets())
			if err != nil {
				t.Errorf("error %v", err)
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("requests %q, want %q: each final URL once", got, c.want)
			}
			if n := len(links.AllRel("item")); n != 1 {
				t.Errorf("%d item links, want the one of /b once", n)
			}
		})
	}
	t.Run("loop", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/":
				w.Header().Set("Link", `</a>; rel=linkset`)
			case "/a":
				http.Redirect(w, r, "/x", http.StatusFound)
			case "/x":
				http.Redirect(w, r, "/a", http.StatusFound)
			}
		}))
		defer srv.Close()
		_, err := get(t, srv.URL+"/", FollowLinksets())
		var fe *FollowError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), "redirects") {
			t.Errorf("error %v; want the loop said as the linkset's problem", err)
		}
	})
}
