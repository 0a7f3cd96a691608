package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestAPICatalogEmptyPort: -api-catalog with an empty port in -url
// ("http://h:/") shows and requests the catalog of http://h/, as -url
// drops the empty port; it showed the anchors as http://h:/.well-known/...
func TestAPICatalogEmptyPort(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/linkset+json")
		io.WriteString(w, `{"linkset": [{"anchor": "/x", "item": [{"href": "/api"}]}, {"anchor": "", "item": [{"href": "/other"}]}]}`)
	})
	want := `{"linkset":[{"anchor":"http://h.test/x","item":[{"href":"http://h.test/api"}]},{"anchor":"http://h.test/.well-known/api-catalog","item":[{"href":"http://h.test/other"}]}]}`
	for _, u := range []string{"http://h.test/", "http://h.test:/", "HTTP://h.test:/p?q"} {
		for _, args := range [][]string{{"-json"}, {}} {
			r := runRouted(t, rec, append([]string{"-url", u, "-api-catalog"}, args...)...)
			got := strings.Join(strings.Fields(r.stdout), "")
			if r.code != exitOK || len(args) > 0 && got != want || strings.Contains(r.stdout+r.stderr, "h.test:") {
				t.Errorf("-url %s -api-catalog %q: exit %d, stdout %s, stderr %s; want %s", u, args, r.code, r.stdout, r.stderr, want)
			}
		}
	}
	paths, hs := rec.requests()
	for i, p := range paths {
		if p != "/.well-known/api-catalog" || hs[i].Get("X-Seen-Host") != "h.test" {
			t.Errorf("request %d: %s of Host %q; want /.well-known/api-catalog of h.test", i, p, hs[i].Get("X-Seen-Host"))
		}
	}
}
