package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// rdExtended is the extended discovery answer of RFC 9176 Appendix B.2, as
// the RFC prints it, with its line breaks.
const rdExtended = `</sensors/temp>;rt=temperature;ct=0,
</sensors/light>;rt=light-lux;ct=0,
</t>;anchor="/sensors/temp";rel=alternate,
<http://www.example.com/sensors/t123>;anchor="/sensors/temp";
    rel=describedby
`

func TestLinkFormatStdin(t *testing.T) {
	// Resolved by RFC 6690 §2.1: the context in the anchor, hosts by
	// default, relative targets against their anchor; -format writes
	// link-format.
	base := "coap://[2001:db8:f0::1]/.well-known/core"
	runCmd(t, rdExtended, "-linkformat", "-base", base, "-format").want(t, exitOK, ""+
		`<coap://[2001:db8:f0::1]/sensors/temp>;rel="hosts";anchor="coap://[2001:db8:f0::1]/";rt="temperature";ct=0`+"\n"+
		`<coap://[2001:db8:f0::1]/sensors/light>;rel="hosts";anchor="coap://[2001:db8:f0::1]/";rt="light-lux";ct=0`+"\n"+
		`<coap://[2001:db8:f0::1]/t>;rel="alternate";anchor="coap://[2001:db8:f0::1]/sensors/temp"`+"\n"+
		`<http://www.example.com/sensors/t123>;rel="describedby";anchor="coap://[2001:db8:f0::1]/sensors/temp"`+"\n")
	runCmd(t, rdExtended, "-linkformat", "-base", base, "-rel", "hosts").want(t, exitOK,
		"coap://[2001:db8:f0::1]/sensors/temp\ncoap://[2001:db8:f0::1]/sensors/light\n")

	// Without -linkformat the same text is Link field values, resolved by
	// RFC 8288: </t> against the base, not its anchor, and no hosts.
	runCmd(t, rdExtended, "-base", base, "-rel", "alternate").want(t, exitOK, "coap://[2001:db8:f0::1]/t\n")
	runCmd(t, "</a/b>;anchor=\"/x/y\";rel=alternate,<c>;anchor=\"/x/y\";rel=alternate", "-linkformat", "-base", "coap://h/q/r", "-rel", "alternate").
		want(t, exitOK, "coap://h/a/b\ncoap://h/x/c\n")

	// Without a base, the targets and anchors stay as written, and the
	// relation type is hosts by default all the same; before, the links
	// had none, -rel hosts matched nothing and -json left every one out.
	runBinary(t, "</a>;rt=x,</b>;anchor=\"/c\";rel=alternate", "-linkformat", "-format").
		want(t, exitOK, "</a>;rel=\"hosts\";rt=\"x\"\n</b>;rel=\"alternate\";anchor=\"/c\"\n")
	runBinary(t, "</a>;rt=x", "-linkformat", "-rel", "hosts").want(t, exitOK, "/a\n")
	r := runBinary(t, "</a>;rt=x", "-linkformat", "-json")
	if r.code != exitOK || !strings.Contains(r.stdout, `"hosts": [`) || r.stderr != "" {
		t.Errorf("-json: exit %d, stdout %s, stderr %q", r.code, r.stdout, r.stderr)
	}
}

func TestLinkFormatStdinProblems(t *testing.T) {
	r := runCmd(t, "</a>;rel=memento,\nbroken;x,\n</c>", "-linkformat", "-rel", "hosts", "-base", "coap://h/")
	r.want(t, exitOK, "coap://h/c\n")
	r.wantErr(t, `line 2, byte 18: link-value must start with "<"`)
}

// linkFormatServer serves a /.well-known/core as application/link-format,
// a TimeMap as text/plain, and records the methods of the requests.
type linkFormatServer struct {
	mu      sync.Mutex
	methods []string
}

func (s *linkFormatServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.methods = append(s.methods, r.Method+" "+r.URL.Path)
	s.mu.Unlock()
	switch r.URL.Path {
	case "/.well-known/core":
		w.Header().Set("Content-Type", "application/link-format; charset=utf-8")
		w.Header().Set("Link", `<ignored>; rel=next`)
		fmt.Fprint(w, "</sensors/temp>;rt=\"temperature\";ct=0,\n</temperature/Malmö>;rel=live-environment-data")
	case "/timemap":
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, `<http://a.example/>;rel="original",
</web/20000620180259/http://a.example/>;rel="first memento";datetime="Tue, 20 Jun 2000 18:02:59 GMT",
</web/20091027204954/http://a.example/>;rel="last memento";datetime="Tue, 27 Oct 2009 20:49:54 GMT",
`)
	case "/missing":
		w.Header().Set("Content-Type", "application/link-format")
		http.Error(w, "", http.StatusNotFound)
	}
}

func TestLinkFormatURL(t *testing.T) {
	s := &linkFormatServer{}
	srv := httptest.NewServer(s)
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")

	// Detected by its Content-Type: HEAD, then GET for the body; the
	// body's links, not the header's.
	r := runCmd(t, "", "-url", srv.URL+"/.well-known/core", "-format")
	r.want(t, exitOK, ""+
		`<http://`+host+`/sensors/temp>;rel="hosts";anchor="http://`+host+`/";rt="temperature";ct=0`+"\n"+
		`<http://`+host+`/temperature/Malmö>;rel="live-environment-data";anchor="http://`+host+`/"`+"\n")
	if got := strings.Join(s.methods, ", "); got != "HEAD /.well-known/core, GET /.well-known/core" {
		t.Errorf("requests: %s", got)
	}

	// -linkformat reads the body whatever its Content-Type, with one GET.
	s.methods = nil
	runCmd(t, "", "-url", srv.URL+"/timemap", "-linkformat", "-rel", "memento").want(t, exitOK, ""+
		"http://"+host+"/web/20000620180259/http://a.example/\n"+
		"http://"+host+"/web/20091027204954/http://a.example/\n")
	if got := strings.Join(s.methods, ", "); got != "GET /timemap" {
		t.Errorf("requests: %s", got)
	}

	// A status other than 2xx fails as -url does.
	r = runCmd(t, "", "-url", srv.URL+"/missing", "-linkformat")
	r.want(t, exitNone, "")
	r.wantErr(t, "answered 404")
}

func TestLinkFormatUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-linkformat", "-check"},
		{"-linkformat", "-url", "http://example.com/", "-all"},
		{"-linkformat", "-url", "http://example.com/", "-discover"},
		{"-linkformat", "</a>"},
	} {
		r := runCmd(t, "", args...)
		r.want(t, exitProblem, "")
		r.wantErr(t, "-linkformat reads standard input or the body of -url")
	}
}

// hostileLinkFormat is a link-format document whose targets, relation
// types, attributes and title hold ESC, CR, BEL and C1 controls (U+009B is
// CSI, U+0085 NEL): terminal escapes a server could send.
const hostileLinkFormat = "</a\x1b[31mX\u009b31mY\rZ>;rel=\"r\u009bq hosts\";anchor=\"/an\u009b\x1b]0;t\x07\";" +
	"title=\"t\x1b[2J\u0085\";hreflang=\"h\u009b\";media=\"m\u0085\";type=\"ty\u009b\";x=\"v\u009b\";y=tok\x1b"

// TestLinkFormatEscapes checks that no terminal escape of a link-format
// document reaches the terminal raw, in any output, from standard input
// and from -url.
func TestLinkFormatEscapes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/link-format")
		fmt.Fprint(w, hostileLinkFormat)
	}))
	defer srv.Close()
	for _, out := range [][]string{nil, {"-format"}, {"-json"}, {"-rel", "hosts"}} {
		for _, in := range [][]string{{"-linkformat", "-base", "coap://h/"}, {"-url", srv.URL}} {
			args := append(append([]string{}, in...), out...)
			stdin := ""
			if in[0] == "-linkformat" {
				stdin = hostileLinkFormat
			}
			r := runCmd(t, stdin, args...)
			if r.code != exitOK || r.stdout == "" {
				t.Errorf("%q: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
			}
			for _, s := range []string{r.stdout, r.stderr} {
				if i := strings.IndexFunc(s, func(r rune) bool { return r < ' ' && r != '\n' || 0x7f <= r && r <= 0x9f }); i >= 0 {
					t.Errorf("%q: a control character at %d: %q", args, i, s)
				}
			}
		}
	}
}

// TestLinkFormatHostileBody: a link-format body of 20 MiB is cut at 16 MiB
// with an error saying so, and one that stops coming gives up after
// -timeout.
func TestLinkFormatHostileBody(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/link-format")
		switch r.URL.Path {
		case "/huge":
			chunk := []byte(strings.Repeat("</a>,", 1<<16))
			for written := 0; written < 20<<20; written += len(chunk) {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		case "/slow":
			fmt.Fprint(w, "</a>,")
			w.(http.Flusher).Flush()
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
	}))
	defer srv.Close()
	defer close(release)

	for _, args := range [][]string{{"-url", srv.URL + "/huge"}, {"-url", srv.URL + "/huge", "-linkformat"}} {
		r := runCmd(t, "", args...)
		r.want(t, exitNone, "")
		if want := "weblink: GET " + srv.URL + "/huge: the link-format body is larger than 16 MiB\n"; r.stderr != want {
			t.Errorf("%q: stderr %q, want %q", args, r.stderr, want)
		}
	}

	start := time.Now()
	r := runCmd(t, "", "-url", srv.URL+"/slow", "-timeout", "500ms")
	r.want(t, exitNone, "")
	if want := "weblink: GET " + srv.URL + "/slow: no response within 500ms (-timeout)\n"; r.stderr != want {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("gave up after %v, with -timeout 500ms", d)
	}
}

// TestLinkFormatEarlyHints: a link-format response fetched with -url shows
// the Link and Link-Template fields of the 103 Early Hints heads before it
// in the table, marked 103, as every other -url output does, whether it
// was found by its Content-Type (HEAD, then GET) or read with -linkformat;
// -format, -rel and -json take the document's links only. Before, the
// table dropped the 103 heads of a link-format response.
func TestLinkFormatEarlyHints(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", "</style.css>; rel=preload; as=style")
		w.Header().Set("Link-Template", `"/t/{x}"; rel="item"`)
		w.WriteHeader(http.StatusEarlyHints)
		w.Header().Del("Link-Template")
		w.Header().Set("Link", "<ignored>; rel=next") // the body holds the links
		w.Header().Set("Content-Type", "application/link-format")
		fmt.Fprint(w, `</sensors/temp>;rt="temperature"`)
	}))
	defer srv.Close()
	u := srv.URL
	for _, args := range [][]string{{"-url", u + "/core"}, {"-url", u + "/core", "-linkformat"}} {
		r := runBinary(t, "", args...)
		if r.code != exitOK || r.stderr != "" {
			t.Errorf("%q: exit %d, stderr %q", args, r.code, r.stderr)
		}
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		if len(lines) != 4 ||
			!strings.HasPrefix(lines[1], "103  ") || !strings.Contains(lines[1], "preload") || !strings.Contains(lines[1], u+"/style.css") ||
			!strings.HasPrefix(lines[2], "final  ") || !strings.Contains(lines[2], u+"/sensors/temp") ||
			!strings.HasPrefix(lines[3], "103 template  item") || !strings.Contains(lines[3], "/t/{x}") || strings.Contains(r.stdout, "ignored") {
			t.Errorf("%q: stdout:\n%s\nwant a header, the 103 head's link, the document's link, the 103 head's template (the table's order)", args, r.stdout)
		}
	}
	host := strings.TrimPrefix(u, "http://")
	runBinary(t, "", "-url", u+"/core", "-format").want(t, exitOK,
		`<http://`+host+`/sensors/temp>;rel="hosts";anchor="http://`+host+`/";rt="temperature"`+"\n")
	runBinary(t, "", "-url", u+"/core", "-rel", "preload").want(t, exitNone, "")
}

// TestLinksetURL: -url on a response that is application/linkset or
// application/linkset+json (RFC 9264 §4) shows the links of the linkset in
// its body, resolved against the URL, as it shows those of a link-format
// body: HEAD, then GET for the body, the head's own Link field left out.
// Before, both said "no links found" (the head has none) and exited 1.
func TestLinksetURL(t *testing.T) {
	var methods []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		methods = append(methods, r.Method+" "+r.URL.Path)
		w.Header().Set("Link", "<ignored>; rel=next") // the body holds the links
		switch r.URL.Path {
		case "/ls":
			w.Header().Set("Content-Type", "application/linkset")
			io.WriteString(w, "<items?page=2>; rel=next,\n  </about>; rel=describedby,\n<items?page=9>;\n  rel=last\n")
		case "/lsj":
			w.Header().Set("Content-Type", `application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"`)
			io.WriteString(w, `{"linkset": [{"anchor": "/items", "next": [{"href": "/items?page=2"}], "item": [{"href": "/i/1"}]}]}`)
		case "/bad":
			w.Header().Set("Content-Type", "application/linkset+json")
			io.WriteString(w, `{"linkset": [{"next": [{"type": "text/html"}]}]}`)
		}
	}))
	defer srv.Close()
	u := srv.URL
	r := runCmd(t, "", "-url", u+"/ls", "-format")
	r.want(t, exitOK, "<"+u+"/items?page=2>; rel=\"next\"\n<"+u+"/about>; rel=\"describedby\"\n<"+u+"/items?page=9>; rel=\"last\"\n")
	if got := strings.Join(methods, ", "); got != "HEAD /ls, GET /ls" {
		t.Errorf("requests: %s", got)
	}
	runCmd(t, "", "-url", u+"/ls", "-next").want(t, exitOK, u+"/items?page=2\n")
	runCmd(t, "", "-url", u+"/lsj", "-rel", "item").want(t, exitOK, u+"/i/1\n")
	w := len(u + "/items?page=2")
	runCmd(t, "", "-url", u+"/lsj").want(t, exitOK, ""+
		fmt.Sprintf("REL   %-*s  ATTRIBUTES\n", w, "TARGET")+
		fmt.Sprintf("next  %-*s  anchor=%s/items\n", w, u+"/items?page=2", u)+
		fmt.Sprintf("item  %-*s  anchor=%s/items\n", w, u+"/i/1", u))
	r = runCmd(t, "", "-url", u+"/bad")
	r.want(t, exitMalformed, "")
	r.wantErr(t, "invalid linkset: linkset[0].next[0].href: missing")
}
