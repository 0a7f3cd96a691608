package paging_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/weblinking/weblink/paging"
)

// TestPagesLookalikeHost follows a next link to a host that differs from
// the first page's only by a character outside ASCII: strings.ToLower makes
// api.gİthub.test api.github.test, but net/http sends the request to
// api.xn--github-qyd.test, another host. Every host that is not plain
// ASCII is another origin than every other host (rule 30 of package weblink): not followed
// without AllowCrossOrigin, and without credentials with it.
func TestPagesLookalikeHost(t *testing.T) {
	for _, tc := range []struct{ name, home, next string }{
		// net/http dials api.xn--github-qyd.test.
		{"dotted capital I", "http://api.github.test", "http://api.g%C4%B0thub.test"},
		// strings.ToLower makes ẞ ß, but net/http dials api.githuss.test
		// for ẞ and api.xn--githu-9ua.test for ß.
		{"capital sharp s", "http://api.githu%C3%9F.test", "http://api.githu%E1%BA%9E.test"},
		// The Kelvin sign: net/http dials k.example, the same host; still
		// another origin, as every host that is not plain ASCII.
		{"Kelvin sign", "http://k.example", "http://%E2%84%AA.example"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newHostSim(t, func(w http.ResponseWriter, r *http.Request, u string) {
				if strings.HasSuffix(u, "?page=1") {
					page(w, 1, tc.next+"/items?page=2")
					return
				}
				page(w, 2, "")
			})
			checkOtherOrigin(t, s, withCredentials(getItems(t, tc.home)))
		})
	}
}

// checkOtherOrigin pages req twice on s, whose first page links to a
// second and last page on another origin: without AllowCrossOrigin, it is
// not requested (ErrCrossOrigin); with it, it is, without credentials.
func checkOtherOrigin(t *testing.T, s *hostSim, req *http.Request) {
	t.Helper()
	collect(t, paging.Pages(context.Background(), s.client, req)).check(t, pageItems(1), paging.ErrCrossOrigin)
	collect(t, paging.Pages(context.Background(), s.client, req, paging.AllowCrossOrigin())).check(t, itemsUpTo(1, 2), nil)
	got := s.requests()
	if len(got) != 3 {
		t.Fatalf("%d requests, want 3", len(got))
	}
	checkCredentials(t, got[0], true)
	checkCredentials(t, got[1], true)
	checkCredentials(t, got[2], false)
}
