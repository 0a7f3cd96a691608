package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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

	// A catalog larger than 4 MiB that is not a linkset in what is read:
	// two problems, each on its own line (not joined with an escaped
	// newline).
	big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", weblink.LinksetJSONType)
		w.Write([]byte(strings.Repeat(" ", 5<<20)))
	}))
	defer big.Close()
	r = runCmd(t, "", "-url", big.URL, "-api-catalog")
	noEscape("big", r)
	if r.code == exitOK || strings.Contains(r.stderr, `\x0a`) || strings.Count(r.stderr, "\n") != 2 {
		t.Errorf("big: exit %d, stderr %q; want two problems on two lines", r.code, r.stderr)
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
