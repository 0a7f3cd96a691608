package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/textproto"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weblinking/weblink/internal/rawpeer"
)

// api is a paginated test API: /items?page=N for N from 1 to pages, each
// with relative next and prev links and an absolute item link. It records
// the method of every request.
type api struct {
	pages      int
	rejectHead int  // status for HEAD requests; 0 to answer them
	fail       int  // a page that answers 500
	loop       bool // whether the last page links back to the first
	// anchored: each page but the last has, before its own next link, the
	// next link of another resource (anchor="/other").
	anchored bool
	mu       sync.Mutex
	methods  []string
}

func (a *api) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	a.methods = append(a.methods, r.Method)
	a.mu.Unlock()
	if r.Method == http.MethodHead && a.rejectHead != 0 {
		w.WriteHeader(a.rejectHead)
		return
	}
	if r.URL.Query().Get("page") == strconv.Itoa(a.fail) {
		http.Error(w, "broken", http.StatusInternalServerError)
		return
	}
	if r.URL.Path == "/old" {
		http.Redirect(w, r, "/items?page=1", http.StatusFound)
		return
	}
	n, err := strconv.Atoi(r.URL.Query().Get("page"))
	if r.URL.Path != "/items" || err != nil || n < 1 || n > a.pages {
		http.NotFound(w, r)
		return
	}
	if n < a.pages && a.anchored {
		w.Header().Add("Link", fmt.Sprintf(`</other?page=%d>; rel=next; anchor="/other"`, n+1))
	}
	if n < a.pages {
		w.Header().Add("Link", fmt.Sprintf(`</items?page=%d>; rel="next"`, n+1))
	}
	if n == a.pages && a.loop {
		w.Header().Add("Link", `</items?page=1>; rel="next"`)
	}
	if n > 1 {
		w.Header().Add("Link", fmt.Sprintf(`<?page=%d>; rel=prev`, n-1))
	}
	w.Header().Add("link", fmt.Sprintf(`<http://items.example/%d>; rel=item; title="Item %d"`, n, n))
	fmt.Fprintf(w, "page %d\n", n)
}

// reset forgets the requests so far.
func (a *api) reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.methods = nil
}

// requests returns the methods of the requests so far, joined by spaces.
func (a *api) requests() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return strings.Join(a.methods, " ")
}

func serve(t *testing.T, a *api) string {
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestURL(t *testing.T) {
	a := &api{pages: 3}
	u := serve(t, a)
	runCmd(t, "", "-url", u+"/items?page=2", "-rel", "next").want(t, exitOK, u+"/items?page=3\n")
	runCmd(t, "", "-url", u+"/items?page=2", "-format").want(t, exitOK, ""+
		"<"+u+"/items?page=3>; rel=\"next\"\n"+
		"<"+u+"/items?page=1>; rel=\"prev\"\n"+
		"<http://items.example/2>; rel=\"item\"; title=\"Item 2\"\n")
	// -base wins over the fetched URL.
	runCmd(t, "", "-url", u+"/items?page=2", "-rel", "prev", "-base", "https://other.example/items").
		want(t, exitOK, "https://other.example/items?page=1\n")
	// Links resolve against the URL after redirects.
	runCmd(t, "", "-url", u+"/old", "-rel", "next").want(t, exitOK, u+"/items?page=2\n")
	runCmd(t, "", "-url", u+"/items?page=3", "-rel", "item").want(t, exitOK, "http://items.example/3\n")
	if got := a.requests(); got != "HEAD HEAD HEAD HEAD HEAD HEAD" {
		t.Errorf("requests %q, want HEAD only", got)
	}
}

func TestURLTable(t *testing.T) {
	u := serve(t, &api{pages: 3})
	w := len(u + "/items?page=2")
	runCmd(t, "", "-url", u+"/items?page=3").want(t, exitOK, ""+
		"REL   "+pad("TARGET", w)+"  TITLE\n"+
		"prev  "+u+"/items?page=2\n"+
		"item  "+pad("http://items.example/3", w)+"  Item 3\n")
}

func TestURLFallbackToGet(t *testing.T) {
	for _, status := range []int{http.StatusMethodNotAllowed, http.StatusNotImplemented} {
		a := &api{pages: 2, rejectHead: status}
		u := serve(t, a)
		runCmd(t, "", "-url", u+"/items?page=1", "-rel", "next").want(t, exitOK, u+"/items?page=2\n")
		if got := a.requests(); got != "HEAD GET" {
			t.Errorf("HEAD answered %d: requests %q, want HEAD GET", status, got)
		}
		a.reset()
		runCmd(t, "", "-url", u+"/items?page=1", "-all", "-rel", "item").
			want(t, exitOK, "http://items.example/1\nhttp://items.example/2\n")
		if got := a.requests(); got != "HEAD GET GET" {
			t.Errorf("-all, HEAD answered %d: requests %q, want HEAD GET GET", status, got)
		}
	}
}

func TestURLFails(t *testing.T) {
	a := &api{pages: 2}
	u := serve(t, a)
	r := runCmd(t, "", "-url", u+"/missing")
	r.want(t, exitNone, "")
	r.wantErr(t, "404 Not Found")

	// A HEAD that fails with another status is not retried with GET.
	a = &api{pages: 2, rejectHead: http.StatusForbidden}
	r = runCmd(t, "", "-url", serve(t, a)+"/items?page=1", "-rel", "next")
	r.want(t, exitNone, "")
	r.wantErr(t, "403 Forbidden")
	if got := a.requests(); got != "HEAD" {
		t.Errorf("requests %q, want HEAD", got)
	}

	srv := httptest.NewServer(a)
	srv.Close()
	r = runCmd(t, "", "-url", srv.URL+"/items?page=1")
	r.want(t, exitNone, "")
	r.wantErr(t, "connect")
}

// TestURLStatusLinks: a response that is not 2xx shows its links before
// the error, which still sets the exit status: a 404 or a 500 may link to
// help or a status page. Before, the error alone. -next prints none: a
// failed page's next link is not one to follow.
func TestURLStatusLinks(t *testing.T) {
	u := serveFunc(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/missing":
			w.Header().Set("Link", `</help>; rel="help"`)
			w.WriteHeader(http.StatusNotFound)
		case "/broken":
			w.Header().Set("Link", `</status>; rel="status", </broken?p=2>; rel="next"`)
			w.WriteHeader(http.StatusInternalServerError)
		case "/items":
			w.Header().Set("Link", `</broken>; rel="next"`)
		}
	})
	r := runCmd(t, "", "-url", u+"/missing")
	r.want(t, exitNone, "REL   TARGET\nhelp  "+u+"/help\n")
	if want := "weblink: " + u + "/missing answered 404 Not Found\n"; r.stderr != want {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}
	r = runCmd(t, "", "-url", u+"/broken", "-rel", "status")
	r.want(t, exitNone, u+"/status\n")
	r.wantErr(t, "answered 500 Internal Server Error")
	r = runCmd(t, "", "-url", u+"/items", "-all", "-format")
	r.want(t, exitNone, "<"+u+"/broken>; rel=\"next\"\n<"+u+"/status>; rel=\"status\"\n<"+u+"/broken?p=2>; rel=\"next\"\n")
	r.wantErr(t, u+"/broken answered 500")
	r = runCmd(t, "", "-url", u+"/broken", "-next")
	r.want(t, exitNone, "")
	r.wantErr(t, "answered 500")
}

func TestAll(t *testing.T) {
	a := &api{pages: 3}
	u := serve(t, a)
	runCmd(t, "", "-url", u+"/items?page=1", "-all", "-rel", "item").
		want(t, exitOK, "http://items.example/1\nhttp://items.example/2\nhttp://items.example/3\n")
	if got := a.requests(); got != "HEAD HEAD HEAD" {
		t.Errorf("requests %q, want three HEAD", got)
	}
	w := len(u + "/items?page=1")
	page := func(n int, rows ...string) string {
		return "page " + strconv.Itoa(n) + ": " + u + "/items?page=" + strconv.Itoa(n) + "\n" +
			"REL   " + pad("TARGET", w) + "  TITLE\n" + strings.Join(rows, "")
	}
	row := func(rel string, n int) string { return rel + "  " + u + "/items?page=" + strconv.Itoa(n) + "\n" }
	item := func(n int) string {
		return "item  " + pad("http://items.example/"+strconv.Itoa(n), w) + "  Item " + strconv.Itoa(n) + "\n"
	}
	runCmd(t, "", "-all", "-url", u+"/items?page=1").want(t, exitOK,
		page(1, row("next", 2), item(1))+"\n"+
			page(2, row("next", 3), row("prev", 1), item(2))+"\n"+
			page(3, row("prev", 2), item(3)))

	// A failing page ends the run with status 1; what came before is shown.
	a = &api{pages: 5, fail: 4}
	u = serve(t, a)
	r := runCmd(t, "", "-url", u+"/items?page=2", "-all", "-rel", "item")
	r.want(t, exitNone, "http://items.example/2\nhttp://items.example/3\n")
	r.wantErr(t, "500 Internal Server Error")

	// A next link back to a page already shown ends the run too.
	u = serve(t, &api{pages: 3, loop: true})
	r = runCmd(t, "", "-url", u+"/items?page=1", "-all", "-rel", "item")
	r.want(t, exitNone, "http://items.example/1\nhttp://items.example/2\nhttp://items.example/3\n")
	r.wantErr(t, u+"/items?page=3 links back to "+u+"/items?page=1, already shown: the server's pagination loops")

	// -max-pages stops a server whose next links never end.
	u = serve(t, &api{pages: 50})
	r = runCmd(t, "", "-url", u+"/items?page=1", "-all", "-max-pages", "2", "-rel", "item")
	r.want(t, exitNone, "http://items.example/1\nhttp://items.example/2\n")
	r.wantErr(t, "stopped after 2 pages (-max-pages 2): "+u+"/items?page=2 links to "+u+"/items?page=3; raise -max-pages to go on")
	runCmd(t, "", "-url", u+"/items?page=1", "-all", "-max-pages", "0").want(t, exitProblem, "")
}

func TestURLPasswordNotShown(t *testing.T) {
	u := serve(t, &api{pages: 2})
	withPassword := strings.Replace(u, "http://", "http://alice:s3cret@", 1)
	for _, args := range [][]string{
		{"-url", withPassword + "/items?page=1", "-json"},
		{"-url", withPassword + "/items?page=1", "-all"},
		{"-url", withPassword + "/items?page=1", "-rel", "next"},
	} {
		r := runCmd(t, "", args...)
		if r.code != exitOK || strings.Contains(r.stdout+r.stderr, "s3cret") {
			t.Errorf("weblink %q: exit %d, output shows the password:\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
}

func TestAllJSON(t *testing.T) {
	u := serve(t, &api{pages: 3})
	r := runCmd(t, "", "-url", u+"/items?page=1", "-all", "-json")
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	page := func(n int) string { return u + "/items?page=" + strconv.Itoa(n) }
	item := func(n int) string {
		return `"item": [{"href": "http://items.example/` + strconv.Itoa(n) + `", "title": "Item ` + strconv.Itoa(n) + `"}]`
	}
	sameJSON(t, r.stdout, `{"linkset": [
		{"anchor": "`+page(1)+`", "next": [{"href": "`+page(2)+`"}], `+item(1)+`},
		{"anchor": "`+page(2)+`", "next": [{"href": "`+page(3)+`"}], "prev": [{"href": "`+page(1)+`"}], `+item(2)+`},
		{"anchor": "`+page(3)+`", "prev": [{"href": "`+page(2)+`"}], `+item(3)+`}]}`)
}

// pad pads s with spaces to n characters.
func pad(s string, n int) string {
	return s + strings.Repeat(" ", max(n-len(s), 0))
}

func TestURLEarlyHints(t *testing.T) {
	// -url shows the links of the 103 Early Hints heads too, marked 103
	// in the table as for piped input; -rel takes the final head's only.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			w.Header().Set("Link", "</dropped.css>; rel=preload")
			w.WriteHeader(http.StatusEarlyHints) // for a request that is redirected
			w.Header().Del("Link")
			http.Redirect(w, r, "/page", http.StatusFound)
			return
		}
		w.Header().Set("Link", "</style.css>; rel=preload; as=style")
		w.WriteHeader(http.StatusEarlyHints)
		w.Header().Set("Link", "</app.js>; rel=preload; as=script")
		w.WriteHeader(http.StatusEarlyHints)
		w.Header().Set("Link", "</next>; rel=next")
	}))
	defer srv.Close()
	u := srv.URL
	want := "" +
		"FROM   REL      " + pad("TARGET", len(u+"/style.css")) + "  ATTRIBUTES\n" +
		"103    preload  " + pad(u+"/style.css", len(u+"/style.css")) + "  as=style\n" +
		"103    preload  " + pad(u+"/app.js", len(u+"/style.css")) + "  as=script\n" +
		"final  next     " + u + "/next\n"
	runBinary(t, "", "-url", u+"/page").want(t, exitOK, want)
	runBinary(t, "", "-url", u+"/old").want(t, exitOK, want)
	runBinary(t, "", "-url", u+"/page", "-rel", "preload").want(t, exitNone, "")
	runBinary(t, "", "-url", u+"/page", "-format").want(t, exitOK, "<"+u+"/next>; rel=\"next\"\n")
}

func TestStatusLineEscapes(t *testing.T) {
	// The reason phrase and the URL are the server's; what reaches the
	// terminal is printable ASCII.
	const status = "HTTP/1.1 500 \x1b]0;PWNED\x07\x1b[2J\x1b[31mboom"
	u := rawpeer.Serve(t, func(path string) string {
		if path == "/1" {
			return "HTTP/1.1 200 OK\r\nLink: </2>; rel=next\r\nContent-Length: 0\r\n\r\n"
		}
		return status + "\r\nContent-Length: 0\r\n\r\n"
	})
	for _, args := range [][]string{
		{"-url", u + "/2"},
		{"-url", u + "/1", "-all"},
		{"-url", u + "/1", "-all", "-json"},
		{"-url", u + "/2", "-check"},
	} {
		r := runCmd(t, "", args...)
		if r.code != exitNone {
			t.Errorf("%q: exit %d, want %d", args, r.code, exitNone)
		}
		if strings.ContainsAny(r.stdout+r.stderr, "\x1b\x07") {
			t.Errorf("%q: terminal escapes reach the output:\n%q\n%q", args, r.stdout, r.stderr)
		}
		want := "weblink: " + u + `/2 answered 500 "\x1b]0;PWNED\a\x1b[2J\x1b[31mboom"` + "\n"
		if r.stderr != want {
			t.Errorf("%q: stderr\n%q\nwant\n%q", args, r.stderr, want)
		}
	}
}

func TestEarlyHintsFlood(t *testing.T) {
	// Since Go 1.24, net/http leaves the limits on 1xx responses to a
	// client that sees them: the command stops a request after 100 of
	// them, or when its 103 heads hold more than 1 MiB together; under
	// that, it shows them, escaped. Before Go 1.24, net/http ends a request
	// at its sixth 1xx response itself, before the command's count is
	// reached, and the command shows that error.
	limit, tooMany := maxInterim, "more than 100 interim (1xx) responses"
	if netHTTPLimits1xx(t) {
		limit, tooMany = 5, "net/http: too many 1xx informational responses"
	}
	hint := func(n int) string {
		return "HTTP/1.1 103 Early Hints\r\nLink: <" + strings.Repeat("a", n) + ">; rel=preload; title*=UTF-8''%1B%5B2J\r\n\r\n"
	}
	const final = "HTTP/1.1 200 OK\r\nLink: </next>; rel=next\r\nContent-Length: 0\r\n\r\n"
	for _, c := range []struct {
		name, response, msg string
	}{
		{fmt.Sprint(limit, " small hints"), strings.Repeat(hint(10), limit) + final, ""},
		{fmt.Sprint(limit+1, " small hints"), strings.Repeat(hint(10), limit+1) + final, tooMany},
		{fmt.Sprint(limit+1, " interim responses"), strings.Repeat("HTTP/1.1 102 Processing\r\n\r\n", limit+1) + final, tooMany},
		// Under net/http's count of old, for the size to be what ends it.
		{"4 hints of 250 KiB", strings.Repeat(hint(250<<10), 4) + final, ""},
		{"5 hints of 250 KiB", strings.Repeat(hint(250<<10), 5) + final, "the 103 Early Hints heads are larger than 1 MiB together"},
	} {
		u := rawpeer.Serve(t, func(string) string { return c.response })
		r := runCmd(t, "", "-url", u+"/")
		switch {
		case strings.ContainsAny(r.stdout+r.stderr, "\x1b"):
			t.Errorf("%s: terminal escapes reach the output", c.name)
		case c.msg == "" && (r.code != exitOK || !strings.Contains(r.stdout, "final  next") || r.stderr != ""):
			t.Errorf("%s: exit %d, stderr %.300q", c.name, r.code, r.stderr)
		case c.msg != "" && (r.code != exitNone || r.stdout != "" || !strings.Contains(r.stderr, c.msg)):
			t.Errorf("%s: exit %d, stdout %.100q, stderr %.300q; want %q", c.name, r.code, r.stdout, r.stderr, c.msg)
		}
	}
}

func TestClientErrorShortened(t *testing.T) {
	// net/http quotes a malformed header line whole in its error: the
	// message shows its start, escaped.
	u := rawpeer.Serve(t, func(string) string {
		return "HTTP/1.1 200 OK\r\nLink: <" + strings.Repeat("a", 512<<10) + ">; title=\"\x1b[2J\"\r\n\r\n"
	})
	r := runCmd(t, "", "-url", u+"/")
	if r.code != exitNone || len(r.stderr) > 500 || !strings.Contains(r.stderr, "malformed MIME header line") ||
		strings.Contains(r.stderr, "\x1b") {
		t.Errorf("exit %d, %d bytes of stderr: %.400q", r.code, len(r.stderr), r.stderr)
	}
}

func TestLongURLShortened(t *testing.T) {
	// A server can redirect to a URL of nearly 1 MiB: a message shows its
	// start, as it does of a reason phrase. Before, the whole URL was
	// printed, 900 KB on one line.
	long := strings.Repeat("a", 900_000)
	u := rawpeer.Serve(t, func(path string) string {
		switch path {
		case "/to-404":
			return "HTTP/1.1 302 Found\r\nLocation: /" + long + "\r\nContent-Length: 0\r\n\r\n"
		case "/to-nowhere":
			return "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:1/" + long + "\r\nContent-Length: 0\r\n\r\n"
		}
		return "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
	})
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-url", u + "/to-404"}, " answered 404 Not Found"},
		{[]string{"-url", u + "/to-404", "-discover"}, " answered 404 Not Found"},
		{[]string{"-url", u + "/to-404", "-linkformat"}, " answered 404 Not Found"},
		{[]string{"-url", u + "/to-nowhere"}, "weblink: HEAD http://127.0.0.1:1/aaa"},
	} {
		r := runBinary(t, "", c.args...)
		if r.code != exitNone || len(r.stderr) > 1000 || !strings.Contains(r.stderr, c.msg) || !strings.Contains(r.stderr, "a...") {
			t.Errorf("%q: exit %d, %d bytes of stderr: %.300q; want it short, with %q", c.args, r.code, len(r.stderr), r.stderr, c.msg)
		}
	}
}

// TestWaitMessageLongURLShortened: the page named by the message of a
// rate limit spent before the next page (TestWaitMessageBeforeNextPage) is
// the server's URL, after a redirect of nearly 1 MiB: the message shows its
// start, as TestLongURLShortened's do.
func TestWaitMessageLongURLShortened(t *testing.T) {
	long := strings.Repeat("a", 900_000)
	u := rawpeer.Serve(t, func(path string) string {
		if path == "/items" {
			return "HTTP/1.1 302 Found\r\nLocation: /" + long + "\r\nContent-Length: 0\r\n\r\n"
		}
		return "HTTP/1.1 200 OK\r\nLink: <?page=2>; rel=next\r\nX-RateLimit-Remaining: 0\r\nX-RateLimit-Reset: 3600\r\nContent-Length: 0\r\n\r\n"
	})
	r := runCmd(t, "", "-url", u+"/items", "-all", "-wait", "1m")
	const msg = "a... says its rate limit is spent, reset in 1h — more than -wait 1m allows; use -wait 1h to wait it out\n"
	if r.code != exitNone || len(r.stderr) > 1000 || !strings.HasSuffix(r.stderr, msg) {
		t.Errorf("exit %d, %d bytes of stderr: %.300q; want %d, short, ending %q", r.code, len(r.stderr), r.stderr, exitNone, msg)
	}
}

// TestRedirectSendsNoReferer: a redirect to another origin carries no
// Referer, which would give that origin the path and query of -url (an
// access_token in the query is a credential).
func TestRedirectSendsNoReferer(t *testing.T) {
	other := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `</x>; rel=alternate`)
	})
	home := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.srv.URL+"/landed", http.StatusFound)
	})
	for _, mode := range [][]string{{}, {"-discover"}} {
		args := append([]string{"-url", home.srv.URL + "/away?access_token=QS3CRET"}, mode...)
		r := runCmd(t, "", args...)
		if r.code != exitOK {
			t.Errorf("%q: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
	paths, got := other.requests()
	if len(got) == 0 {
		t.Fatal("the redirect was not followed")
	}
	for i, h := range got {
		if ref := h.Get("Referer"); ref != "" {
			t.Errorf("%s got Referer %q", paths[i], ref)
		}
	}
}

// TestServerUserinfoNotShown: a URL with userinfo that the server sends
// (a Location, and so a redirect error) is not shown with it in any
// message of -url, -all or -discover.
func TestServerUserinfoNotShown(t *testing.T) {
	var home string // the server's URL, for its Location fields
	u := rawpeer.Serve(t, func(path string) string {
		loc := ""
		switch path {
		case "/badloc":
			loc = "http://tok3n:pw0rd@127.0.0.1:1/%zz"
		case "/loop":
			loc = "http://tok3n:pw0rd@" + strings.TrimPrefix(home, "http://") + "/loop"
		case "/missing":
			loc = "http://tok3n:pw0rd@" + strings.TrimPrefix(home, "http://") + "/404"
		default:
			return "HTTP/1.1 404 Not Found\r\nLink: </x>; rel=alternate\r\nContent-Length: 0\r\n\r\n"
		}
		return "HTTP/1.1 302 Found\r\nLocation: " + loc + "\r\nContent-Length: 0\r\n\r\n"
	})
	home = u
	for _, path := range []string{"/badloc", "/loop", "/missing"} {
		for _, mode := range [][]string{{}, {"-all"}, {"-discover"}, {"-json"}} {
			args := append([]string{"-url", u + path}, mode...)
			r := runCmd(t, "", args...)
			if r.code != exitNone {
				t.Errorf("%q: exit %d, want %d", args, r.code, exitNone)
			}
			out := r.stdout + r.stderr
			if out == "" {
				t.Errorf("%q: no output", args)
			}
			for _, s := range []string{"tok3n", "pw0rd", "xxxxx", "***"} {
				if strings.Contains(out, s) {
					t.Errorf("%q: output shows %q:\n%s", args, s, out)
				}
			}
		}
	}
}

func TestRedactUserinfo(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"no url here", "no url here"},
		{"mailto:a@b.example", "mailto:a@b.example"},
		{"http://e.x/a@b", "http://e.x/a@b"},
		{"http://u:p@e.x/", "http://e.x/"},
		{"http://u:p@e.x", "http://e.x"},
		{`Get "http://tok:***@e.x:8/slow": timeout`, `Get "http://e.x:8/slow": timeout`},
		{`header "http://a:b@x/%zz": parse "http://a:b@x/%zz"`, `header "http://x/%zz": parse "http://x/%zz"`},
		{"//u@h?q=//v@w#//x@y", "//h?q=//w#//y"},
		{"http://a@b@c/", "http://c/"},
		{`http://\u009b@e.x/`, "http://e.x/"},
		{"<http://u:p@e.x> and <https://v@f.x>", "<http://e.x> and <https://f.x>"},
	} {
		if got := redactUserinfo(c.in); got != c.want {
			t.Errorf("redactUserinfo(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestDiscoverFailsLikeURL: -discover words a failed fetch as -url does
// (a status, a -timeout, a refused connection), in one line: no "no links
// found" after it.
func TestDiscoverFailsLikeURL(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow":
			select {
			case <-release:
			case <-r.Context().Done():
			}
		case "/teapot":
			w.WriteHeader(http.StatusTeapot)
		}
	})
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	for _, u := range []string{srv.srv.URL + "/slow", srv.srv.URL + "/teapot", closed.URL + "/x"} {
		url := runCmd(t, "", "-url", u, "-timeout", "200ms")
		disc := runCmd(t, "", "-url", u, "-timeout", "200ms", "-discover")
		disc.want(t, exitNone, "")
		want := strings.Replace(url.stderr, "weblink: HEAD ", "weblink: GET ", 1)
		if disc.stderr != want || strings.Count(want, "\n") != 1 {
			t.Errorf("-discover %s: stderr\n%q\nwant (as -url says it)\n%q", u, disc.stderr, want)
		}
	}
}

// TestDiscoverInterrupted: an interrupt (the context of main) ends
// -discover; before, the request did not see it and an interrupt waited
// for -timeout.
func TestDiscoverInterrupted(t *testing.T) {
	arrived := make(chan struct{}, 1)
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-r.Context().Done()
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-arrived
		cancel()
	}()
	var stdout, stderr bytes.Buffer
	code := runEnv(ctx, []string{"-url", srv.srv.URL + "/slow", "-discover", "-timeout", "1h"},
		env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }, now: time.Now})
	if code != exitNone || stdout.Len() != 0 || stderr.String() != "weblink: interrupted after 0 pages\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// TestHugeResponseHead: -url reads at most 1 MiB of a response head, as
// it reads of standard input; net/http alone accepts 10 MiB, whose "<>,"
// links cost the command over 2 GB of memory and 20 s.
func TestHugeResponseHead(t *testing.T) {
	big := "HTTP/1.1 200 OK\r\nLink: " + strings.Repeat("<>,", 400_000) + "\r\nContent-Length: 0\r\n\r\n"
	u := rawpeer.Serve(t, func(path string) string {
		if path == "/small" {
			return "HTTP/1.1 200 OK\r\nLink: " + strings.Repeat("<a>; rel=next,", 70_000) + "\r\nContent-Length: 0\r\n\r\n"
		}
		return big
	})
	r := runCmd(t, "", "-url", u+"/big", "-rel", "next")
	r.want(t, exitNone, "")
	if want := "weblink: HEAD " + u + "/big: the response head is larger than 1 MiB\n"; r.stderr != want {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}
	// Just under 1 MiB is read.
	r = runCmd(t, "", "-url", u+"/small", "-rel", "next")
	if r.code != exitOK || strings.Count(r.stdout, "\n") != 70_000 {
		t.Errorf("exit %d, %d lines, stderr %q", r.code, strings.Count(r.stdout, "\n"), r.stderr)
	}
}

// TestRequestHeaderErrorHidesValue: a wrong -H is reported without its
// value, which is often a token (here with the CR of a file with CRLF line
// ends, or without the name).
func TestRequestHeaderErrorHidesValue(t *testing.T) {
	for _, c := range []struct{ h, msg string }{
		{"Authorization: Bearer S3CRET\r", "weblink: -H: the value of Authorization holds a control character\n"},
		{"Bearer S3CRET", "weblink: -H: want \"Name: value\", such as \"Authorization: Bearer $TOKEN\"\n"},
		{"Authorization=S3CRET", "weblink: -H: want \"Name: value\", such as \"Authorization: Bearer $TOKEN\"\n"},
	} {
		r := runCmd(t, "", "-url", "http://127.0.0.1:1/", "-H", c.h)
		r.want(t, exitProblem, "")
		if want := c.msg + "Run weblink -h for usage.\n"; r.stderr != want {
			t.Errorf("-H %q: stderr %q, want %q", c.h, r.stderr, want)
		}
	}
}

// TestCheckUnregisteredOnce: a relation type that Check reports as an
// error (not a registered name's syntax nor a URI) is not reported again
// as an unregistered warning, whose %q of the escaped name doubled every
// backslash ("\\u009b"); a well-formed unregistered name is a warning.
func TestCheckUnregisteredOnce(t *testing.T) {
	r := runCmd(t, "", "-check", "<a>; rel=\"Foo_x fo\u009b foo\"")
	if r.code != exitProblem || strings.Count(r.stdout, ": error: rel ") != 2 ||
		strings.Count(r.stdout, "warning:") != 1 || strings.Contains(r.stdout, `\\`) ||
		!strings.Contains(r.stdout, `link 1 <a>: warning: relation type "foo" is not registered and not a URI`) ||
		!strings.HasSuffix(r.stdout, "1 link: 2 errors, 1 warning\n") {
		t.Errorf("exit %d, stdout:\n%s", r.code, r.stdout)
	}
	// A linkset+json document: the error is Validate's.
	r = runCmd(t, `{"linkset":[{"anchor":"https://e.x/","Foo_x":[{"href":"/a"}],"foo":[{"href":"/b"}]}]}`, "-check")
	if r.code != exitProblem || strings.Count(r.stdout, "warning:") != 1 || !strings.HasSuffix(r.stdout, "2 links: 1 error, 1 warning\n") {
		t.Errorf("exit %d, stdout:\n%s", r.code, r.stdout)
	}
}

// TestTableHidesServerUserinfo: the table, the -discover table and the
// link names of -check show a server's targets and anchors without their
// userinfo; -rel, -format and -json give the links as sent, for programs,
// and the excerpts of -check the field value as written.
func TestTableHidesServerUserinfo(t *testing.T) {
	const links = "<http://tok3n:pw0rd@127.0.0.1:1/2>; rel=next; anchor=\"http://tok3n@127.0.0.1:1/\", <http://tok3n:pw0rd@127.0.0.1:1/f>; rel=foo"
	u := rawpeer.Serve(t, func(path string) string {
		return "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nLink: " + links + "\r\nContent-Length: 0\r\n\r\n"
	})
	for _, args := range [][]string{
		{"-url", u + "/1"},
		{"-url", u + "/1", "-discover"},
		{"-url", u + "/1", "-check"},
		{links},
		{"-check", links},
	} {
		r := runCmd(t, "", args...)
		if r.stdout == "" || strings.Contains(r.stdout+r.stderr, "tok3n") || strings.Contains(r.stdout+r.stderr, "pw0rd") {
			t.Errorf("%q: exit %d, output shows the userinfo:\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
	r := runCmd(t, "", "-rel", "next", links)
	r.want(t, exitOK, "http://tok3n:pw0rd@127.0.0.1:1/2\n")
}

// TestJSONLeavesOutSummarised: -json names the first links it leaves out
// and counts the rest in one line; 349 000 "<>," in 1 MiB gave as many
// lines on standard error.
func TestJSONLeavesOutSummarised(t *testing.T) {
	in := strings.Repeat("<>,", 1000) + "<a>; rel=next"
	r := runCmd(t, in, "-json")
	if r.code != exitOK || !strings.Contains(r.stdout, `"next"`) {
		t.Errorf("exit %d, stdout %q", r.code, r.stdout)
	}
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	if len(lines) != maxReported+1 || lines[len(lines)-1] != "weblink: -json leaves out 990 more links" {
		t.Errorf("%d lines on stderr, ending %q", len(lines), lines[len(lines)-1])
	}
}

// TestDiscoverJSONAnchorAfterRedirect: -discover -json anchors the links
// at the URL they came from after redirects, as -url -json does (they
// were anchored at -url, which redirected elsewhere).
func TestDiscoverJSONAnchorAfterRedirect(t *testing.T) {
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
			return
		}
		w.Header().Set("Link", "</x>; rel=alternate")
	})
	want := `{"linkset":[{"anchor":"` + srv.srv.URL + `/new","alternate":[{"href":"` + srv.srv.URL + `/x"}]}]}`
	for _, mode := range [][]string{{"-json"}, {"-json", "-discover"}} {
		r := runCmd(t, "", append([]string{"-url", srv.srv.URL + "/old"}, mode...)...)
		if got := strings.Join(strings.Fields(r.stdout), ""); r.code != exitOK || got != want {
			t.Errorf("%q: exit %d, stdout %s; want %s", mode, r.code, got, want)
		}
	}
}

// TestAllJSONBounded: -all -json keeps its document in memory, so an
// endless chain of pages full of links ends at maxJSONLinks with an error
// (and the document of the links so far), not at -max-pages: 1000 pages of
// 1 MiB heads would hold about 80 GB.
func TestAllJSONBounded(t *testing.T) {
	links := strings.Repeat("<a>; rel=x,", 20_000)
	u := rawpeer.Serve(t, func(path string) string {
		return "HTTP/1.1 200 OK\r\nLink: " + links + "<" + path + "x>; rel=next\r\nContent-Length: 0\r\n\r\n"
	})
	r := runCmd(t, "", "-url", u+"/p", "-all", "-json")
	if r.code != exitNone || !strings.HasPrefix(r.stdout, "{") {
		t.Errorf("exit %d, stdout %.100q", r.code, r.stdout)
	}
	want := "weblink: stopped after 5 pages: -json holds its document in memory, and these pages have more than 100000 links; -format and the table print each page as it arrives\n"
	if r.stderr != want {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}
}

// TestBodyCut: a body that stops arriving ends -discover with exit status
// 1 after -timeout, and 130 at an interrupt, said in the command's terms;
// the header's links read before are shown. Before, -timeout exited 0 and
// both printed net/http's "use of closed network connection". A
// link-format body is worded the same (before: "reading the body: context
// deadline exceeded").
func TestBodyCut(t *testing.T) {
	sent := make(chan struct{}, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/core" {
			w.Header().Set("Content-Type", "application/link-format")
			io.WriteString(w, "</sensors/temp>;rt=\"temperature\",")
		} else {
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Link", "</hub>; rel=hub")
			io.WriteString(w, "<!doctype html><html><head><title>slow</title>")
		}
		w.(http.Flusher).Flush()
		sent <- struct{}{}
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer srv.Close()
	u := srv.URL + "/post"
	table := "SOURCE  REL  TARGET\nheader  hub  " + srv.URL + "/hub\n"
	r := runBinary(t, "", "-url", u, "-discover", "-timeout", "300ms")
	r.want(t, exitNone, table)
	if want := "weblink: GET " + u + ": the body did not arrive within 300ms (-timeout)\n"; r.stderr != want {
		t.Errorf("-timeout: stderr %q, want %q", r.stderr, want)
	}
	r = runBinary(t, "", "-url", srv.URL+"/core", "-linkformat", "-timeout", "300ms")
	r.want(t, exitNone, "")
	if want := "weblink: GET " + srv.URL + "/core: the body did not arrive within 300ms (-timeout)\n"; r.stderr != want {
		t.Errorf("-linkformat -timeout: stderr %q, want %q", r.stderr, want)
	}

	for len(sent) > 0 {
		<-sent // the requests above
	}
	cmd := exec.Command(binary, "-url", u, "-discover")
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	<-sent
	time.Sleep(200 * time.Millisecond) // the head read, the body being read
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
		t.Errorf("interrupt: %v, want exit status 130", err)
	}
	if want := "weblink: interrupted while reading the body of " + u + "\n"; stderr.String() != want || stdout.String() != table {
		t.Errorf("interrupt: stdout %q, stderr %q; want %q, %q", stdout.String(), stderr.String(), table, want)
	}
}

// netHTTPLimits1xx reports whether net/http's client ends a request at
// its sixth 1xx response even when a Got1xxResponse hook sees them, as it
// does before Go 1.24.
func netHTTPLimits1xx(t *testing.T) bool {
	u := rawpeer.Serve(t, func(string) string {
		return strings.Repeat("HTTP/1.1 102 Processing\r\n\r\n", 6) + "HTTP/1.1 204 No Content\r\n\r\n"
	})
	trace := &httptrace.ClientTrace{Got1xxResponse: func(int, textproto.MIMEHeader) error { return nil }}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace), http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if strings.Contains(err.Error(), "too many 1xx informational responses") {
			return true
		}
		t.Fatal(err)
	}
	resp.Body.Close()
	return false
}
