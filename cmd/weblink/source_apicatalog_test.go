package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/rawpeer"
)

// TestAPICatalogHostilePeers runs -api-catalog against catalog servers
// that misbehave: each gives a one-line error or bounded output, and
// nothing a server sends reaches the terminal as an escape or a line.
func TestAPICatalogHostilePeers(t *testing.T) {
	noEscape := func(name string, r result) {
		t.Helper()
		if strings.ContainsAny(r.stdout+r.stderr, "\x1b\r\x07\x00") {
			t.Errorf("%s: a control reached the output:\nstdout %q\nstderr %q", name, r.stdout, r.stderr)
		}
	}

	// A response head larger than 1 MiB.
	huge := rawpeer.Serve(t, func(string) string {
		return "HTTP/1.1 200 OK\r\nX-Pad: " + strings.Repeat("a", 10<<20) + "\r\nContent-Length: 0\r\n\r\n"
	})
	r := runCmd(t, "", "-url", huge, "-api-catalog")
	noEscape("huge head", r)
	if r.code == exitOK || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "larger than 1 MiB") {
		t.Errorf("huge head: exit %d, stderr %q; want one line saying the head is too large", r.code, r.stderr)
	}

	// A redirect loop, with an escape in the Location.
	loop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/a%1B[2J"+map[bool]string{true: "x", false: "y"}[r.URL.Path == "/a\x1b[2Jy"], http.StatusFound)
	}))
	defer loop.Close()
	r = runCmd(t, "", "-url", loop.URL, "-api-catalog")
	noEscape("loop", r)
	if r.code == exitOK || !strings.Contains(r.stderr, "redirect loop") {
		t.Errorf("loop: exit %d, stderr %q; want a redirect loop error", r.code, r.stderr)
	}

	// A body that starts and never ends: -timeout ends it.
	trickle := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", weblink.LinksetJSONType)
		w.Write([]byte(`{"linkset":[`))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer trickle.Close()
	r = runCmd(t, "", "-url", trickle.URL, "-api-catalog", "-timeout", "200ms")
	noEscape("trickle", r)
	if r.code == exitOK || !strings.Contains(r.stderr, "(-timeout 200ms)") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("trickle: exit %d, stderr %q; want one line saying -timeout ran out", r.code, r.stderr)
	}

	// A catalog whose two nested catalogs fail, one with a 404 and one
	// larger than 4 MiB: two problems, each on its own line (not joined
	// with an escaped newline), and the catalog's own links (exit 0). The
	// cut catalog is one problem, not also the invalid JSON it was cut
	// into (rule 13 of package discover).
	big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/api-catalog":
			w.Header().Set("Content-Type", weblink.LinksetJSONType)
			io.WriteString(w, `{"linkset":[{"anchor":"/","api-catalog":[{"href":"/gone"},{"href":"/big"}]}]}`)
		case "/big":
			w.Header().Set("Content-Type", weblink.LinksetJSONType)
			w.Write([]byte(`{"linkset":[` + strings.Repeat(" ", 5<<20)))
		default:
			http.NotFound(w, r)
		}
	}))
	defer big.Close()
	r = runCmd(t, "", "-url", big.URL, "-api-catalog")
	noEscape("big", r)
	if r.code != exitOK || strings.Contains(r.stderr, `\x0a`) || strings.Count(r.stderr, "\n") != 2 ||
		strings.Count(r.stderr, "cut at MaxBytes") != 1 || strings.Contains(r.stderr, "invalid") {
		t.Errorf("big: exit %d, stderr %q; want two problems on two lines, the cut once", r.code, r.stderr)
	}

	// 10 000 nested catalogs, titles with escapes, a nested catalog served
	// with an escape in its Content-Type, and a Link-Template field whose
	// title holds escapes.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/.well-known/api-catalog" {
			w.Header().Set("Content-Type", "text/\x1b[31mevil")
			return
		}
		w.Header().Set("Content-Type", weblink.LinksetJSONType)
		w.Header().Set("Link-Template", `"/w/{id}"; rel="item"; title=%"a%1b[31mb%0d%0aFAKE: c%07"`)
		var b strings.Builder
		b.WriteString(`{"linkset":[{"anchor":"/","item":[{"href":"/api","title":"Orders\u001b[2J\rFAKE"}],"api-catalog":[`)
		for i := range 10000 {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"href":"/c%d","title":"c\u001b]0;t\u0007"}`, i)
		}
		b.WriteString(`]}]}`)
		w.Write([]byte(b.String()))
	}))
	defer srv.Close()
	for _, args := range [][]string{{}, {"-json"}, {"-rel", "item"}} {
		r = runCmd(t, "", append([]string{"-url", srv.URL, "-api-catalog"}, args...)...)
		noEscape(fmt.Sprint("10 000 nested ", args), r)
		if r.code != exitOK {
			t.Errorf("10 000 nested %v: exit %d, stderr %.300q", args, r.code, r.stderr)
		}
		if n := strings.Count(r.stderr, "\n"); n > 20 {
			t.Errorf("10 000 nested %v: %d lines on stderr; want the problems bounded", args, n)
		}
	}
	if n := strings.Count(r.stdout, "\n"); n != 1 {
		t.Errorf("-rel item: %d lines; want the one item link", n)
	}
}

// TestLinkTemplateEscapes pipes heads whose Link-Template fields carry
// escapes: decoded from a Display String (%1b, %0d%0a, %07) into a title
// and another parameter, and raw bytes in a field that fails to parse.
// Neither the table, -json, nor the error messages pass one on.
func TestLinkTemplateEscapes(t *testing.T) {
	for _, head := range []string{
		"HTTP/1.1 200 OK\r\nLink-Template: \"/w/{id}\"; rel=\"item\"; title=%\"a%1b[31mb%0d%0aFAKE: c\"; x=%\"%1b]0;t%07\"\r\n\r\n",
		"HTTP/1.1 200 OK\r\nLink-Template: \"/w/{id}\x1b[31m\"\r\nLink-Template: \"/v\x1b[2J\r\"\r\n\r\n",
	} {
		for _, args := range [][]string{{}, {"-json"}, {"-check"}} {
			r := runCmd(t, head, args...)
			if strings.ContainsAny(r.stdout+r.stderr, "\x1b\r\x07") || r.stdout+r.stderr == "" {
				t.Errorf("%q %v: a control reached the output, or nothing was said:\nstdout %q\nstderr %q", head, args, r.stdout, r.stderr)
			}
		}
	}
}

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

// catalogSite serves an API catalog at the canonical origin, a nested
// catalog, and a second origin that redirects its well-known URL there.
func catalogSite(t *testing.T) (canonical, other *httptest.Server) {
	mux := http.NewServeMux()
	mux.Handle("/.well-known/api-catalog", weblink.APICatalogHandler("https://example.com/", weblink.Links{
		{Target: "/apis/orders", Rel: []string{"item"}, Title: "Orders"},
		{Target: "/catalogs/more", Rel: []string{"api-catalog"}},
	}))

	mux.Handle("/catalogs/more", weblink.APICatalogHandler("https://example.com/", weblink.Links{
		{Target: "/apis/stock", Rel: []string{"item"}},
	}))
	mux.HandleFunc("/templated", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Link", `</a>; rel="next"`)
		w.Header().Add("Link-Template", `"/widgets/{widget_id}"; rel="item"; var-base="/vars/"`)
	})
	canonical = httptest.NewServer(mux)
	t.Cleanup(canonical.Close)
	other = httptest.NewServer(http.RedirectHandler(canonical.URL+"/.well-known/api-catalog", http.StatusMovedPermanently))
	t.Cleanup(other.Close)
	return canonical, other
}

func TestAPICatalogFlag(t *testing.T) {
	canonical, other := catalogSite(t)
	u := canonical.URL
	r := runCmd(t, "", "-url", other.URL+"/ignored/path", "-api-catalog")
	w := len(u + "/catalogs/more  ")
	r.want(t, exitOK, ""+
		fmt.Sprintf("%-13s%-*s%-8s%s\n", "REL", w, "TARGET", "TITLE", "ATTRIBUTES")+
		fmt.Sprintf("%-13s%-*s%-8s%s\n", "item", w, u+"/apis/orders", "Orders", "anchor=https://example.com/")+
		fmt.Sprintf("%-13s%-*s%-8s%s\n", "api-catalog", w, u+"/catalogs/more", "", "anchor=https://example.com/")+
		fmt.Sprintf("%-13s%-*s%-8s%s\n", "item", w, u+"/apis/stock", "", "anchor=https://example.com/"))
	if r.stderr != "" {
		t.Errorf("stderr %q", r.stderr)
	}
	runCmd(t, "", "-url", other.URL, "-api-catalog", "-rel", "item").want(t, exitOK, u+"/apis/orders\n"+u+"/apis/stock\n")
	r = runCmd(t, "", "-url", canonical.URL, "-api-catalog", "-json")
	if r.code != exitOK || !strings.Contains(r.stdout, `"item": [`) || !strings.Contains(r.stdout, u+"/apis/stock") {
		t.Errorf("-json: exit %d, stdout:\n%s", r.code, r.stdout)
	}
	// A nested catalog that is not there is said on standard error; the
	// links found are shown.
	bmux := http.NewServeMux()
	bmux.Handle("/.well-known/api-catalog", weblink.APICatalogHandler("https://example.com/", weblink.Links{
		{Target: "/catalogs/gone", Rel: []string{"api-catalog"}},
		{Target: "/apis/orders", Rel: []string{"item"}},
	}))
	broken := httptest.NewServer(bmux)
	defer broken.Close()
	r = runCmd(t, "", "-url", broken.URL, "-api-catalog", "-rel", "item")
	r.want(t, exitOK, broken.URL+"/apis/orders\n")
	if !strings.Contains(r.stderr, "404") {
		t.Errorf("nested catalog missing: stderr %q; want it said", r.stderr)
	}
	none := httptest.NewServer(http.NotFoundHandler())
	defer none.Close()
	r = runCmd(t, "", "-url", none.URL, "-api-catalog")
	if r.code != exitNone {
		t.Errorf("no catalog: exit %d", r.code)
	}
	r.wantErr(t, "answered 404")
}

func TestAPICatalogFlagUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-api-catalog"},
		{"-api-catalog", "-url", "https://example.com", "-all"},
		{"-api-catalog", "-url", "https://example.com", "-discover"},
		{"-api-catalog", "-url", "https://example.com", "-check"},
		{"-api-catalog", "-url", "https://example.com", "-format"},
	} {
		r := runCmd(t, "", args...)
		if r.code != exitProblem || r.stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want 2 and nothing", args, r.code, r.stdout)
		}
		r.wantErr(t, "-api-catalog needs -url")
	}
}

// TestLinkTemplateShown checks that Link-Template fields are shown, never
// expanded: in a piped head (folded over two lines), a header block, an
// argument and a -url response, in the table and in -json.
func TestLinkTemplateShown(t *testing.T) {
	head := "HTTP/1.1 200 OK\r\nLink: </a>; rel=\"next\"\r\n" +
		"link-template: \"/widgets/{widget_id}\"; rel=\"item\"; var-base=\"https://example.org/vars/\",\r\n" +
		"  \"/author\"; rel=\"author\"; title=%\"Bj%c3%b6rn\"\r\n\r\nbody"
	wantTable := "" +
		"FROM      REL     TARGET                TITLE  ATTRIBUTES\n" +
		"          next    /a\n" +
		"template  item    /widgets/{widget_id}         var-base=https://example.org/vars/\n" +
		"template  author  /author               Björn\n"
	runCmd(t, head).want(t, exitOK, wantTable)
	runCmd(t, strings.TrimPrefix(head, "HTTP/1.1 200 OK\r\n")).want(t, exitOK, wantTable)
	runCmd(t, "", `Link-Template: "/{x}"; rel="item"`).want(t, exitOK, ""+
		"FROM      REL   TARGET\n"+
		"template  item  /{x}\n")
	runCmd(t, head, "-json").want(t, exitOK, `{
  "linkset": [
    {
      "next": [
        { "href": "/a" }
      ]
    }
  ],
  "link-template": [
    { "template": "/widgets/{widget_id}", "rel": ["item"], "var-base": "https://example.org/vars/" },
    { "template": "/author", "rel": ["author"], "params": { "title": "Björn" } }
  ]
}
`)
	runCmd(t, `Link-Template: "/{x}"; rel=item`).wantErr(t, "line 1, byte 8: Link-Template: the rel parameter is a Token, not a String")

	canonical, _ := catalogSite(t)
	r := runCmd(t, "", "-url", canonical.URL+"/templated")
	w := max(len(canonical.URL+"/a"), len("/widgets/{widget_id}")) + 2
	r.want(t, exitOK, ""+
		fmt.Sprintf("FROM      REL   %-*s%s\n", w, "TARGET", "ATTRIBUTES")+
		"          next  "+canonical.URL+"/a\n"+
		fmt.Sprintf("template  item  %-*s%s\n", w, "/widgets/{widget_id}", "var-base=/vars/"))
}

func TestOnlyTemplates(t *testing.T) {
	// -rel and -format have no links to show when there are only
	// templated links, and say why; before: "no links found", while the
	// table shows them. -next says nothing, as on a last page. -check
	// checks them (TestCheckTemplates).
	const tmpl = `Link-Template: "/{x}"; rel="item"`
	const why = "weblink: no links found, only 1 templated link (Link-Template), which the table and -json show\n"
	for _, c := range []struct {
		args   []string
		stdout string
		stderr string
	}{
		{[]string{"-rel", "item", tmpl}, "", why},
		{[]string{"-format", tmpl}, "", why},
		{[]string{"-next", tmpl}, "", ""},
	} {
		r := runBinary(t, "", c.args...)
		if r.code != exitNone || r.stdout != c.stdout || r.stderr != c.stderr {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 1, %q and %q", c.args, r.code, r.stdout, r.stderr, c.stdout, c.stderr)
		}
	}
}
