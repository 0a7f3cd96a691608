package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weblinking/weblink/internal/weborigin"
)

// runRouted runs the command with every request, whatever its host, sent
// to the server of rec (as a resolver that answers 127.0.0.1 for every
// name would), so that look-alike host names can be tested.
func runRouted(t *testing.T, rec *recorder, args ...string) result {
	t.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, rec.srv.Listener.Addr().String())
	}
	t.Cleanup(tr.CloseIdleConnections)
	var stdout, stderr bytes.Buffer
	e := systemEnv(strings.NewReader(""), &stdout, &stderr, func(string) string { return "" })
	e.transport = tr
	code := runEnv(context.Background(), args, e)
	return result{stdout.String(), stderr.String(), code}
}

// TestLookalikeHostCredentials: -H headers go to the origin of -url only,
// and http://api.gİthub.test (U+0130) is not api.github.test, though
// strings.ToLower says so: net/http sends the request to
// api.xn--github-qyd.test (rule 30 of package weblink). Neither a redirect there
// nor, with -all, a next link carries Authorization.
func TestLookalikeHostCredentials(t *testing.T) {
	const lookalike = "http://api.g%C4%B0thub.test"
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, lookalike+"/landed", http.StatusFound)
		case "/p1":
			w.Header().Set("Link", "<"+lookalike+`/p2>; rel="next"`)
		default:
			w.Header().Set("Link", `</end>; rel="last"`)
		}
	})
	runRouted(t, rec, "-url", "http://api.github.test/away", "-H", "Authorization: Bearer T0KEN", "-rel", "last")
	runRouted(t, rec, "-url", "http://api.github.test/p1", "-H", "Authorization: Bearer T0KEN", "-all")
	paths, got := rec.requests()
	for i, h := range got {
		host := h.Get("X-Seen-Host")
		home := host == "api.github.test"
		if (h.Get("Authorization") != "") != home {
			t.Errorf("request %d, %s to %s: Authorization %q", i+1, paths[i], host, h.Get("Authorization"))
		}
	}
	if len(got) < 3 {
		t.Errorf("%d requests (%q), want the redirect, where it led, and page 1", len(got), paths)
	}
}

// TestDiscoverLinksetProblems: with -discover, each problem is on its own
// line, and a linkset that answers 500 is that linkset's problem, not a
// failure of -url: the endpoint -rel found is printed and the exit status
// is 0 (rule 18 of package discover).
func TestDiscoverLinksetProblems(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/post":
			w.Header().Add("Link", `</webmention>; rel="webmention"`)
			w.Header().Add("Link", `</ls500>; rel="linkset"`)
			w.Header().Add("Link", `</lsbad>; rel="linkset"`)
			w.Header().Add("Link", `</lsok>; rel="linkset"`)
		case "/ls500":
			http.Error(w, "oops", http.StatusInternalServerError)
		case "/lsbad":
			w.Header().Set("Content-Type", "application/linkset+json")
			w.Write([]byte(`{"linkset": 1}`))
		case "/lsok":
			w.Header().Set("Content-Type", "application/linkset")
			w.Write([]byte(`</x>; rel="item"; anchor="/post"`))
		}
	})
	r := runCmd(t, "", "-url", rec.srv.URL+"/post", "-discover", "-rel", "webmention")
	r.want(t, exitOK, rec.srv.URL+"/webmention\n")
	t.Logf("stderr:\n%s", r.stderr)
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "/ls500") || !strings.Contains(lines[0], "500") || !strings.Contains(lines[1], "/lsbad") {
		t.Errorf("stderr:\n%s\nwant one line for /ls500 and one for /lsbad", r.stderr)
	}
}

// TestDiscoverTimeout: -timeout is the deadline of the whole run, not of
// each request: 15 linksets that never answer hold -discover -timeout
// 500ms for about 500ms, not 15 times that. (The bound checked is wide: a
// loaded machine is slow, but not 7 seconds slow.) The endpoint found in
// the header is printed, and the exit status is 1: -timeout cut the run,
// so the linksets may hold an endpoint that comes first. Before, one
// linkset that never answers exited 0, and with 15 stderr said that the
// body of /post, which arrived whole, did not arrive (the linksets left
// out were taken for it).
func TestDiscoverTimeout(t *testing.T) {
	for _, n := range []int{1, 15} {
		t.Run(fmt.Sprintf("%d_linksets", n), func(t *testing.T) {
			stall := make(chan struct{})
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/post" {
					w.Header().Add("Link", `</webmention>; rel="webmention"`)
					for i := range n {
						w.Header().Add("Link", "</ls/"+string(rune('a'+i))+`>; rel="linkset"`)
					}
					return
				}
				select {
				case <-stall:
				case <-r.Context().Done():
				}
			})
			defer close(stall)
			start := time.Now()
			r := runCmd(t, "", "-url", rec.srv.URL+"/post", "-discover", "-rel", "webmention", "-timeout", "500ms")
			if took := time.Since(start); took > 4*time.Second {
				t.Errorf("-discover -timeout 500ms took %v", took)
			}
			t.Logf("stderr:\n%s", r.stderr)
			if !strings.Contains(r.stderr, "-timeout") {
				t.Errorf("stderr %q, want it to say -timeout ended the run", r.stderr)
			}
			if strings.Contains(r.stderr, "body did not arrive") {
				t.Errorf("stderr %q says the body of /post did not arrive; it did", r.stderr)
			}
			r.want(t, exitNone, rec.srv.URL+"/webmention\n")
		})
	}
}

// TestOtherOriginHeaders: a request to another origin gets, of the -H
// headers, only those of rule 31 of package weblink (Accept, User-Agent, ...), as
// Pages and discover send them: not PRIVATE-TOKEN, X-Api-Key or the like.
func TestOtherOriginHeaders(t *testing.T) {
	other := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `</more>; rel="next"`)
	})
	home := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.srv.URL+"/landed", http.StatusFound)
	})
	runCmd(t, "", "-url", home.srv.URL+"/away", "-rel", "next", "-H", "Accept: application/vnd.api+json", "-H", "User-Agent: my-agent",
		"-H", "PRIVATE-TOKEN: glpat", "-H", "X-Api-Key: k3y", "-H", "Api-Key: k", "-H", "X-Auth-Token: t").want(t, exitOK, other.srv.URL+"/more\n")
	_, got := other.requests()
	if len(got) != 1 {
		t.Fatalf("the other origin got %d requests", len(got))
	}
	h := got[0]
	for _, name := range []string{"PRIVATE-TOKEN", "X-Api-Key", "Api-Key", "X-Auth-Token"} {
		if v := h.Values(name); v != nil {
			t.Errorf("the other origin got %s: %q", name, v)
		}
	}
	if h.Get("Accept") != "application/vnd.api+json" || h.Get("User-Agent") != "my-agent" {
		t.Errorf("the other origin got Accept %q, User-Agent %q; want those of -H", h.Get("Accept"), h.Get("User-Agent"))
	}
}

// TestNoUserinfo: the command never prints the userinfo of -url or -base
// (a user name is often a token), in any mode or message; the server still
// gets it, as Basic credentials.
func TestNoUserinfo(t *testing.T) {
	var mu sync.Mutex
	var auth []string
	a := &api{pages: 2}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		user, pass, _ := r.BasicAuth()
		auth = append(auth, user+":"+pass)
		mu.Unlock()
		a.ServeHTTP(w, r)
	}))
	defer srv.Close()
	closed := httptest.NewServer(a)
	closed.Close()
	secret := func(u string) string { return strings.Replace(u, "http://", "http://alice:s3cret@", 1) }
	u := secret(srv.URL)
	const base = "http://bob:B4SE@e.x/dir/"
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"-url", u + "/items?page=1"}, exitOK},
		{[]string{"-url", u + "/items?page=1", "-all"}, exitOK},
		{[]string{"-url", u + "/items?page=1", "-json"}, exitOK},
		{[]string{"-url", u + "/items?page=1", "-all", "-json"}, exitOK},
		{[]string{"-url", u + "/items?page=1", "-rel", "next"}, exitOK},
		{[]string{"-url", u + "/items?page=1", "-format"}, exitOK},
		{[]string{"-url", u + "/items?page=1", "-check"}, exitOK},
		{[]string{"-url", u + "/missing"}, exitNone},
		{[]string{"-url", u + "/items?page=1", "-all", "-max-pages", "1"}, exitNone},
		{[]string{"-url", secret(closed.URL) + "/items?page=1"}, exitNone},
		{[]string{"-url", "ftp://alice:s3cret@e.x/"}, exitProblem},
		{[]string{"-url", "http://alice:s3cret@e.x/%zz"}, exitProblem},
		{[]string{"-url", "http://alice:s3cret@/"}, exitProblem},
		{[]string{"-base", "//bob:B4SE@e.x/", "<a>; rel=next"}, exitProblem},
		{[]string{"-base", base, "<a>; rel=next"}, exitOK},
		{[]string{"-base", base, "-json", "<a>; rel=next"}, exitOK},
		{[]string{"-base", base, "-rel", "next", "<a>; rel=next"}, exitOK},
		{[]string{"-base", base, "-format", "<a>; rel=next"}, exitOK},
		{[]string{"-base", base, "-check", "<a>; rel=next; anchor=#x"}, exitOK},
		{[]string{"-base", base, "-check", "<a>; rel=next; type=bogus"}, exitProblem},
	} {
		r := runCmd(t, "", c.args...)
		out := r.stdout + r.stderr
		if r.code != c.code || out == "" {
			t.Errorf("%q: exit %d, want %d; output %q", c.args, r.code, c.code, out)
		}
		for _, s := range []string{"alice", "s3cret", "bob", "B4SE"} {
			if strings.Contains(out, s) {
				t.Errorf("%q: output shows %q:\n%s", c.args, s, out)
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, got := range auth {
		if got != "alice:s3cret" {
			t.Errorf("server got credentials %q, want alice:s3cret", got)
		}
	}
	if len(auth) < 8 {
		t.Errorf("%d requests", len(auth))
	}
}

func TestWithoutUserinfo(t *testing.T) {
	for in, want := range map[string]string{
		"http://alice:s3cret@e.x/p?q#f": "http://e.x/p?q#f",
		"http://tok@e.x":                "http://e.x",
		"//a:b@c@e.x/":                  "//e.x/",
		"http://e.x/@path":              "http://e.x/@path",
		"http://e.x?u=a@b":              "http://e.x?u=a@b",
		"relative@x":                    "x",
		"tok@e.x/p@q":                   "e.x/p@q",
		"http://a:b@[::1":               "http://[::1",
	} {
		if got := withoutUserinfo(in); got != want {
			t.Errorf("withoutUserinfo(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSameOrigin(t *testing.T) {
	o := func(s string) origin {
		u, err := url.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return weborigin.Of(u)
	}
	for _, c := range []struct {
		to, home string
		want     bool
	}{
		{"http://e.x/a", "http://e.x/b", true},
		{"http://E.X:80/a", "http://e.x/b", true},
		{"https://e.x/", "http://e.x/", true}, // the https upgrade
		{"https://e.x:8443/", "http://e.x/", false},
		{"https://e.x/", "http://e.x:8080/", false},
		{"http://e.x/", "https://e.x/", false}, // no downgrade
		{"http://e.x:8080/", "http://e.x/", false},
		{"http://api.e.x/", "http://e.x/", false},
		{"http://e.x.evil/", "http://e.x/", false},
	} {
		if got := sameOrigin(o(c.to), o(c.home)); got != c.want {
			t.Errorf("sameOrigin(%s, %s) = %v, want %v", c.to, c.home, got, c.want)
		}
	}
}

// mustParse parses the URL s.
func mustParse(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
