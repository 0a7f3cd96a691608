package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
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
