package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// recorder is a server on 127.0.0.1 that records the headers of each
// request it gets, by path, and answers with handle.
type recorder struct {
	mu     sync.Mutex
	got    []http.Header
	paths  []string
	handle func(w http.ResponseWriter, r *http.Request)
	srv    *httptest.Server
}

func newRecorder(t *testing.T, handle func(w http.ResponseWriter, r *http.Request)) *recorder {
	rec := &recorder{handle: handle}
	rec.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.mu.Lock()
		h := r.Header.Clone()
		h.Set("X-Seen-Host", r.Host) // net/http moves Host out of the header
		rec.got = append(rec.got, h)
		rec.paths = append(rec.paths, r.URL.RequestURI())
		rec.mu.Unlock()
		rec.handle(w, r)
	}))
	t.Cleanup(rec.srv.Close)
	return rec
}

// requests returns the paths and headers of the requests so far.
func (rec *recorder) requests() ([]string, []http.Header) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]string(nil), rec.paths...), append([]http.Header(nil), rec.got...)
}

func TestRequestHeaders(t *testing.T) {
	// Another origin: a redirect and a next link lead there; it must see
	// none of the -H headers nor the -url userinfo.
	other := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `</more>; rel=next`)
	})
	home := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/1":
			w.Header().Set("Link", `</2>; rel=next`)
		case "/2":
			w.Header().Set("Link", "<"+other.srv.URL+"/3>; rel=next")
		case "/away":
			http.Redirect(w, r, other.srv.URL+"/landed", http.StatusFound)
		}
	})
	args := []string{"-H", "Authorization: Bearer T0KEN", "-H", "X-Api-Key:k3y", "-H", "X-Multi: a", "-H", "X-Multi: b"}

	// -all: every page of the origin gets them; the next link to another
	// origin is not followed, and the message says why in the command's terms.
	r := runCmd(t, "", append(args, "-url", home.srv.URL+"/1", "-all", "-rel", "next")...)
	r.want(t, exitNone, home.srv.URL+"/2\n"+other.srv.URL+"/3\n")
	r.wantErr(t, home.srv.URL+"/2 links to "+other.srv.URL+"/3, on another origin: weblink follows next links only within the origin of -url; run weblink -url "+other.srv.URL+"/3 -all to go on there")
	paths, got := home.requests()
	if strings.Join(paths, " ") != "/1 /2" {
		t.Errorf("home got %q", paths)
	}
	for i, h := range got {
		if h.Get("Authorization") != "Bearer T0KEN" || h.Get("X-Api-Key") != "k3y" || strings.Join(h.Values("X-Multi"), ",") != "a,b" {
			t.Errorf("home request %d: headers %v", i+1, h)
		}
	}
	if paths, _ := other.requests(); len(paths) != 0 {
		t.Errorf("the other origin got %q", paths)
	}

	// A redirect to another origin: the request there goes without them.
	r = runCmd(t, "", append(args, "-url", strings.Replace(home.srv.URL, "http://", "http://alice:s3cret@", 1)+"/away", "-rel", "next")...)
	r.want(t, exitOK, other.srv.URL+"/more\n")
	paths, got = other.requests()
	if len(paths) != 1 || paths[0] != "/landed" {
		t.Fatalf("the other origin got %q", paths)
	}
	for _, name := range []string{"Authorization", "X-Api-Key", "X-Multi"} {
		if v := got[0].Values(name); v != nil {
			t.Errorf("the other origin got %s: %q", name, v)
		}
	}
	_, got = home.requests()
	if h := got[len(got)-1]; h.Get("Authorization") != "Bearer T0KEN" {
		t.Errorf("-H Authorization wins over the userinfo of -url: %v", h)
	}
	if h := got[len(got)-1]; h.Get("X-Seen-Host") != strings.TrimPrefix(home.srv.URL, "http://") {
		t.Errorf("Host %q", h.Get("X-Seen-Host"))
	}

	// -H Host sets the request's Host, as with curl.
	runCmd(t, "", "-url", home.srv.URL+"/1", "-H", "Host: virtual.example", "-rel", "next").want(t, exitOK, home.srv.URL+"/2\n")
	_, got = home.requests()
	if h := got[len(got)-1]; h.Get("X-Seen-Host") != "virtual.example" {
		t.Errorf("-H Host: the server saw Host %q", h.Get("X-Seen-Host"))
	}
}

func TestRequestHeaderErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-url", "http://127.0.0.1:1/", "-H", "no colon"}, `-H: want "Name: value"`},
		{[]string{"-url", "http://127.0.0.1:1/", "-H", "Bad Name: x"}, `-H: want "Name: value"`},
		{[]string{"-url", "http://127.0.0.1:1/", "-H", "X: a\r\nY: b"}, "the value of X holds a control character"},
		{[]string{"-H", "X: a", "<a>; rel=next"}, "-H needs -url"},
		{[]string{"-url", "http://127.0.0.1:1/", "-timeout", "0"}, "-timeout must be more than 0"},
		{[]string{"-url", "http://127.0.0.1:1/", "-timeout", "soon"}, `invalid value "soon" for flag -timeout`},
		{[]string{"-url", "example.com"}, `-url: "example.com" is not an absolute http or https URL; did you mean -url "https://example.com"?`},
		// A loopback address or an IP literal is suggested with http://,
		// which a development server or a device answers; https:// (the
		// suggestion before) then failed.
		{[]string{"-url", "localhost:8080/x"}, `did you mean -url "http://localhost:8080/x"?`},
		{[]string{"-url", "127.0.0.1:8080/x"}, `did you mean -url "http://127.0.0.1:8080/x"?`},
		{[]string{"-url", "[::1]:8080/x"}, `did you mean -url "http://[::1]:8080/x"?`},
		{[]string{"-url", "192.168.1.20/status"}, `did you mean -url "http://192.168.1.20/status"?`},
		{[]string{"-url", "App.Localhost:3000"}, `did you mean -url "http://App.Localhost:3000"?`},
		{[]string{"-url", "[fe80::1%25eth0]:80/"}, `did you mean -url "http://[fe80::1%25eth0]:80/"?`},
		{[]string{"-url", "localhost.example.com/x"}, `did you mean -url "https://localhost.example.com/x"?`},
		{[]string{"-url", "127.0.0.1.nip.io/x"}, `did you mean -url "https://127.0.0.1.nip.io/x"?`},
		{[]string{"-url", "tok@example.com/x"}, `-url: "example.com/x" is not an absolute http or https URL; did you mean -url "https://example.com/x"?`},
	} {
		r := runCmd(t, "", c.args...)
		if r.code != exitProblem || r.stdout != "" {
			t.Errorf("%q: exit %d, stdout %q", c.args, r.code, r.stdout)
		}
		r.wantErr(t, c.msg)
	}
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	slow := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	r := runCmd(t, "", "-url", slow.srv.URL+"/slow", "-timeout", "100ms")
	r.want(t, exitNone, "")
	if want := "weblink: HEAD " + slow.srv.URL + "/slow: no response within 100ms (-timeout)\n"; r.stderr != want {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}
}

// TestTimeoutBetweenPages: -timeout that passes between two pages of -all
// (while the body of page 1 is read to its end, or while -wait waits out a
// rate limit) is said in the command's terms, as a request that does not
// answer within -timeout is, not as the context's "deadline exceeded".
func TestTimeoutBetweenPages(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow-body":
			if r.Method == http.MethodHead {
				w.WriteHeader(http.StatusMethodNotAllowed)
				return
			}
			w.Header().Set("Link", `</slow-body/2>; rel="next"`)
			for range 100 {
				io.WriteString(w, "x")
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
					return
				case <-time.After(50 * time.Millisecond):
				}
			}
		case "/limited":
			w.Header().Set("Link", `</limited/2>; rel="next"`)
		case "/limited/2":
			w.Header().Set("Retry-After", "30")
			w.WriteHeader(http.StatusTooManyRequests)
		}
	})
	u := rec.srv.URL
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-url", u + "/slow-body", "-all", "-timeout", "500ms"},
			"weblink: stopped after 1 page: -timeout 500ms passed before the next page, " + u + "/slow-body/2, arrived; raise -timeout to go on\n"},
		{[]string{"-url", u + "/limited", "-all", "-wait", "1m", "-timeout", "500ms"},
			"weblink: stopped after 1 page: -timeout 500ms passed before the next page, " + u + "/limited/2, arrived (the waits of -wait count towards -timeout); raise -timeout to go on\n"},
	} {
		r := runCmd(t, "", c.args...)
		if r.code != exitNone || !strings.HasPrefix(r.stdout, "page 1: ") {
			t.Errorf("%q: exit %d, stdout %q; want page 1 shown", c.args, r.code, r.stdout)
		}
		if r.stderr != c.msg {
			t.Errorf("%q: stderr\n%q\nwant\n%q", c.args, r.stderr, c.msg)
		}
	}
}

func TestAdviceInCommandTerms(t *testing.T) {
	// Errors speak of the command's flags, not of the library's API.
	home := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/broken":
			w.Header().Set("Link", `<a>; rel=prev, <b; rel=next`)
		case "/ftp":
			w.Header().Set("Link", `<ftp://e.x/2>; rel=next`)
		case "/loop":
			w.Header().Set("Link", `</loop>; rel=next`)
		case "/more":
			w.Header().Set("Link", `</more?x>; rel=next`)
		case "/cross":
			w.Header().Set("Link", `<http://localhost:1/x>; rel=next`)
		}
	})
	u := home.srv.URL
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-url", u + "/broken", "-all"}, "weblink: " + u + "/broken: its Link header is malformed and has no usable next link, so paging stops"},
		{[]string{"-url", u + "/ftp", "-all"}, "weblink: " + u + "/ftp links to ftp://e.x/2, which is not an http or https URL; weblink follows only those\n"},
		{[]string{"-url", u + "/loop", "-all"}, "weblink: " + u + "/loop links back to " + u + "/loop, already shown: the server's pagination loops\n"},
		{[]string{"-url", u + "/more", "-all", "-max-pages", "1"}, "weblink: stopped after 1 page (-max-pages 1): " + u + "/more links to " + u + "/more?x; raise -max-pages to go on\n"},
		{[]string{"-url", u + "/cross", "-all"}, "weblink: " + u + "/cross links to http://localhost:1/x, on another origin: weblink follows next links only within the origin of -url; run weblink -url http://localhost:1/x -all to go on there\n"},
		{[]string{"-json", "<b>"}, "weblink: -json leaves out <b>: it has no relation type"},
	} {
		r := runCmd(t, "", c.args...)
		if !strings.Contains(r.stderr, c.msg) {
			t.Errorf("%q: stderr %q, want %q", c.args, r.stderr, c.msg)
		}
		for _, lib := range []string{"weblink.", "AllowCrossOrigin", "MaxPages", " in Rel", "Pages", "BeforeNext"} {
			if strings.Contains(r.stderr, lib) {
				t.Errorf("%q: stderr speaks of %q: %s", c.args, lib, r.stderr)
			}
		}
	}
}

func TestUserAgent(t *testing.T) {
	// Every request says it is weblink's: -url, the next pages of -all,
	// the linksets of -discover and the API catalog (before, that one
	// went as Go-http-client/1.1). A -H User-Agent replaces it on the
	// origin of -url.
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/api-catalog":
			w.Header().Set("Content-Type", "application/linkset+json")
			io.WriteString(w, `{"linkset": [{"anchor": "http://`+r.Host+`/.well-known/api-catalog", "item": [{"href": "/api"}]}]}`)
		case "/ls":
			w.Header().Set("Content-Type", "application/linkset")
			io.WriteString(w, `</data>; rel="item"; anchor="/post"`)
		case "/post":
			w.Header().Set("Link", `</ls>; rel="linkset"`)
			if r.URL.RawQuery == "" {
				w.Header().Add("Link", `</post?2>; rel=next`)
			}
			w.Header().Set("Content-Type", "text/html")
		}
	})
	u := rec.srv.URL
	for _, args := range [][]string{
		{"-url", u + "/post", "-all"},
		{"-url", u + "/post", "-discover"},
		{"-url", u, "-api-catalog"},
	} {
		if r := runBinary(t, "", args...); r.code != exitOK {
			t.Fatalf("%q: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
	paths, headers := rec.requests()
	seen := map[string]bool{}
	for i, h := range headers {
		seen[paths[i]] = true
		if got := h.Get("User-Agent"); got != "weblink (github.com/weblinking/weblink)" {
			t.Errorf("%s: User-Agent %q", paths[i], got)
		}
	}
	for _, p := range []string{"/post", "/post?2", "/ls", "/.well-known/api-catalog"} {
		if !seen[p] {
			t.Errorf("no request for %s; requests %q", p, paths)
		}
	}
	runBinary(t, "", "-url", u+"/post", "-H", "User-Agent: mine/1.0", "-rel", "next")
	paths, headers = rec.requests()
	if got := headers[len(headers)-1].Get("User-Agent"); got != "mine/1.0" {
		t.Errorf("-H: %s: User-Agent %q", paths[len(paths)-1], got)
	}
}
