package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/weblinking/weblink"
)

// TestAPICatalogTimeout: -timeout is the deadline of the whole run, also
// for -api-catalog, whose catalog lists 16 nested catalogs that a slow
// server answers each after 600 ms: the run ends about -timeout after it
// started (with wide slack), not 17 × -timeout, and says that -timeout
// ended it, with exit status 1 after the links read by then: a run that
// -timeout cut did not do what was asked (before, it exited 0).
func TestAPICatalogTimeout(t *testing.T) {
	var nested weblink.Links
	for i := range 16 {
		nested = append(nested, weblink.Link{Target: fmt.Sprintf("/nested/%d", i), Rel: []string{"api-catalog"}})
	}
	nested = append(nested, weblink.Link{Target: "/apis/orders", Rel: []string{"item"}})
	well := weblink.APICatalogHandler("https://example.com/", nested)
	inner := weblink.APICatalogHandler("https://example.com/", weblink.Links{{Target: "/apis/stock", Rel: []string{"item"}}})
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/api-catalog" {
			well.ServeHTTP(w, r)
			return
		}
		select {
		case <-time.After(600 * time.Millisecond):
		case <-r.Context().Done():
			return
		}
		inner.ServeHTTP(w, r)
	})
	const timeout = time.Second
	start := time.Now()
	r := runCmd(t, "", "-url", rec.srv.URL, "-api-catalog", "-rel", "item", "-timeout", timeout.String())
	took := time.Since(start)
	t.Logf("took %v; exit %d; stdout:\n%s\nstderr:\n%s", took, r.code, r.stdout, r.stderr)
	if took > 3*timeout {
		t.Errorf("-api-catalog -timeout %v took %v, want less than %v", timeout, took, 3*timeout)
	}
	if !strings.Contains(r.stderr, "-timeout") {
		t.Errorf("stderr %q, want it to say -timeout ended the run", r.stderr)
	}
	if r.code != exitNone {
		t.Errorf("exit status %d, want %d: -timeout cut the run", r.code, exitNone)
	}
	if !strings.HasPrefix(r.stdout, rec.srv.URL+"/apis/orders\n") {
		t.Errorf("stdout %q, want the links found before -timeout", r.stdout)
	}
}

// TestAllTimeout: -all cut by -timeout fails as -api-catalog and -discover
// do: the pages read by then are shown, the page that did not come is
// named, and the exit status is 1.
func TestAllTimeout(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/items" {
			w.Header().Set("Link", `</items/2>; rel="next"`)
			return
		}
		<-r.Context().Done()
	})
	r := runCmd(t, "", "-url", rec.srv.URL+"/items", "-all", "-rel", "next", "-timeout", "300ms")
	r.want(t, exitNone, rec.srv.URL+"/items/2\n")
	if want := "weblink: HEAD " + rec.srv.URL + "/items/2: no response within 300ms (-timeout)\n"; r.stderr != want {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}
}
