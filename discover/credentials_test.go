package discover

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestLinksRedirectCredentials: a redirect from 127.0.0.1:A to 127.0.0.1:B
// is another origin, so the request there keeps only the fields of
// rule 31 of package weblink, though net/http compares host names only and would
// send Authorization and Cookie; a redirect back to A gets them again. The
// caller's CheckRedirect still decides.
func TestLinksRedirectCredentials(t *testing.T) {
	seen := map[string]http.Header{}
	var a, b *httptest.Server
	b = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen["b"+r.URL.Path] = r.Header.Clone()
		http.Redirect(w, r, a.URL+"/back", http.StatusFound)
	}))
	defer b.Close()
	a = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen["a"+r.URL.Path] = r.Header.Clone()
		if r.URL.Path == "/start" {
			http.Redirect(w, r, b.URL+"/there", http.StatusFound)
			return
		}
		respond(200, "text/html", `<link rel="me" href="/me">`)(w, r)
	}))
	defer a.Close()
	var hops int
	client := &http.Client{CheckRedirect: func(req *http.Request, via []*http.Request) error {
		hops++
		return nil
	}}
	req, err := http.NewRequest("GET", a.URL+"/start", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"Authorization", "Cookie", "Proxy-Authorization", "PRIVATE-TOKEN", "X-Api-Key", "X-Trace"} {
		req.Header.Set(h, "secret")
	}
	req.Header.Set("User-Agent", "discover-test")
	links, err := Links(context.Background(), client, req)
	if err != nil || len(links) != 1 {
		t.Fatalf("Links = %v, %v; want one link", links, err)
	}
	if hops != 2 {
		t.Errorf("the client's CheckRedirect ran %d times, want 2", hops)
	}
	for _, tc := range []struct {
		at    string
		creds bool
	}{{"a/start", true}, {"b/there", false}, {"a/back", true}} {
		h, ok := seen[tc.at]
		if !ok {
			t.Errorf("%s not requested", tc.at)
			continue
		}
		for _, name := range []string{"Authorization", "Cookie", "Proxy-Authorization", "PRIVATE-TOKEN", "X-Api-Key", "X-Trace"} {
			if got := h.Get(name) != ""; got != tc.creds {
				t.Errorf("%s: %s present = %v, want %v", tc.at, name, got, tc.creds)
			}
		}
		if h.Get("User-Agent") != "discover-test" {
			t.Errorf("%s: User-Agent %q, want discover-test", tc.at, h.Get("User-Agent"))
		}
	}
}
