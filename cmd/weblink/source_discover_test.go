package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/weblinking/weblink/internal/rawpeer"
)

// discoverSite serves a page with a Link header, HTML links of every kind
// and a linkset, and a feed.
func discoverSite() *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/post", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Link", `</wm-header>; rel="webmention"`)
		w.Header().Add("Link", `</ls>; rel="linkset"`)
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<link rel="stylesheet" href="/s.css" media="print"><a rel="webmention" href="/wm-a">x</a><link rel="alternate" type="application/atom+xml" href="/feed" title="Feed">`)
	})
	mux.HandleFunc("/ls", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/linkset")
		io.WriteString(w, `</data>; rel="item"; anchor="/post"`)
	})
	mux.HandleFunc("/feed", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/xml")
		io.WriteString(w, `<feed xmlns="http://www.w3.org/2005/Atom"><link rel="hub" href="https://hub.example/"/></feed>`)
	})
	mux.HandleFunc("/only-a", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<!-- <link rel="webmention" href="/no"> --><a rel="webmention" href="/wm-a">x</a>`)
	})
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Link", `</help>; rel="help"`)
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusGone)
		io.WriteString(w, `<link rel="x" href="/x">`)
	})
	return httptest.NewServer(mux)
}

func TestDiscoverTable(t *testing.T) {
	srv := discoverSite()
	defer srv.Close()
	u := srv.URL
	r := runCmd(t, "", "-url", u+"/post", "-discover")
	want := [][]string{
		{"SOURCE", "REL", "TARGET", "TITLE", "ATTRIBUTES"},
		{"header", "webmention", u + "/wm-header"},
		{"header", "linkset", u + "/ls"},
		{"link", "stylesheet", u + "/s.css", "media=print"},
		{"a", "webmention", u + "/wm-a"},
		{"link", "alternate", u + "/feed", "Feed", "type=application/atom+xml"},
		{"linkset", "item", u + "/data", "anchor=" + u + "/post"},
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	var got [][]string
	for _, l := range lines {
		got = append(got, strings.Fields(l))
	}
	if r.code != exitOK || r.stderr != "" || !reflect.DeepEqual(got, want) {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", r.code, r.stderr, r.stdout)
	}
	// The columns line up, and no line ends in spaces.
	for i, l := range lines {
		if strings.Index(l, want[i][2]) != strings.Index(lines[0], "TARGET") || strings.HasSuffix(l, " ") {
			t.Errorf("line %d not aligned with the TARGET column or padded: %q", i, l)
		}
	}
	if !strings.HasPrefix(lines[4], "a        webmention  ") {
		t.Errorf("line %q: want the columns two spaces apart", lines[4])
	}
}

func TestDiscoverRel(t *testing.T) {
	srv := discoverSite()
	defer srv.Close()
	for _, tc := range []struct{ path, rel, want string }{
		{"/post", "webmention", srv.URL + "/wm-header\n"}, // the header comes first
		{"/only-a", "webmention", srv.URL + "/wm-a\n"},    // then the first <link> or <a>
		{"/feed", "hub", "https://hub.example/\n"},
	} {
		r := runCmd(t, "", "-url", srv.URL+tc.path, "-discover", "-rel", tc.rel)
		r.want(t, exitOK, tc.want)
	}
	r := runCmd(t, "", "-url", srv.URL+"/post", "-discover", "-rel", "nothing")
	r.want(t, exitNone, "")
}

func TestDiscoverStatus(t *testing.T) {
	srv := discoverSite()
	defer srv.Close()
	r := runCmd(t, "", "-url", srv.URL+"/gone", "-discover")
	r.want(t, exitNone, "SOURCE  REL   TARGET\nheader  help  "+srv.URL+"/help\n")
	if !strings.Contains(r.stderr, "410 Gone") {
		t.Errorf("stderr %q; want the status", r.stderr)
	}
}

func TestDiscoverJSON(t *testing.T) {
	srv := discoverSite()
	defer srv.Close()
	r := runCmd(t, "", "-url", srv.URL+"/only-a", "-discover", "-json")
	want := `{"linkset":[{"anchor":"` + srv.URL + `/only-a","webmention":[{"href":"` + srv.URL + `/wm-a"}]}]}`
	if r.code != exitOK || strings.Join(strings.Fields(r.stdout), "") != want {
		t.Errorf("exit %d, stdout %s; want %s", r.code, r.stdout, want)
	}
}

// TestDiscoverRedirectUnnormalised: the links of a redirected -url are
// about the URL the redirects led to, also when the request's URL is
// written otherwise than -url: net/http drops an empty port
// ("http://old.test:/old" is requested as http://old.test/old).
func TestDiscoverRedirectUnnormalised(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/old":
			http.Redirect(w, r, "http://new.test/only-a", http.StatusFound)
		default:
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<a rel="webmention" href="/wm-a">x</a>`)
		}
	})
	want := `{"linkset":[{"anchor":"http://new.test/only-a","webmention":[{"href":"http://new.test/wm-a"}]}]}`
	for _, u := range []string{"http://old.test/old", "HTTP://old.test:/old", "http://old.test:/old?"} {
		r := runRouted(t, rec, "-url", u, "-discover", "-json")
		if r.code != exitOK || strings.Join(strings.Fields(r.stdout), "") != want {
			t.Errorf("-url %s: exit %d, stdout %s; want %s", u, r.code, r.stdout, want)
		}
	}
}

func TestDiscoverUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-discover"},
		{"-discover", "-url", "http://127.0.0.1/", "-all"},
		{"-discover", "-url", "http://127.0.0.1/", "-check"},
		{"-discover", "-url", "http://127.0.0.1/", "-format"},
	} {
		r := runCmd(t, "", args...)
		if r.code != exitProblem || !strings.Contains(r.stderr, "-discover needs -url") {
			t.Errorf("%q: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
}

func TestDiscoverProblemsOneALine(t *testing.T) {
	// Each problem of the header is a message of its own, with its line,
	// as for -url; before, they were one message, joined by an escaped
	// line break ("\x0a"), each with "weblink: " again inside it.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Link", "bad1, </a>; rel=next, bad2")
		w.Header().Add("Link", "bad3")
		w.Header().Set("Content-Type", "text/html")
	}))
	defer srv.Close()
	r := runBinary(t, "", "-url", srv.URL, "-discover")
	r.want(t, exitMalformed, "SOURCE  REL   TARGET\nheader  next  "+srv.URL+"/a\n")
	const dropped = `link-value must start with "<" (expected <URI-Reference>; params...); link-value dropped`
	if want := "" +
		"weblink: Link field line 1: syntax error at offset 0: " + dropped + "\n" +
		"weblink: Link field line 1: syntax error at offset 22: " + dropped + "\n" +
		"weblink: Link field line 2: syntax error at offset 0: " + dropped + "\n"; r.stderr != want {
		t.Errorf("stderr\n%s\nwant\n%s", r.stderr, want)
	}
}

func TestBaseNotIgnored(t *testing.T) {
	// -discover and -api-catalog resolve against what they fetch: a -base
	// given with them is a usage error rather than left unused.
	for _, args := range [][]string{
		{"-url", "https://example.com/post", "-discover", "-base", "https://example.org/"},
		{"-url", "https://example.com/", "-api-catalog", "-base", "https://example.org/"},
	} {
		r := runBinary(t, "", args...)
		if r.code != exitProblem || r.stdout != "" || !strings.Contains(r.stderr, "-base cannot be combined with -discover or -api-catalog") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
}

func TestDiscoverStatusLineEscapes(t *testing.T) {
	// The reason phrase of the resource, of a linkset it names and of an
	// API catalog is the server's, as for -url (TestStatusLineEscapes):
	// what reaches the terminal is printable ASCII.
	const status = "HTTP/1.1 500 \x1b]0;PWNED\x07\x1b[2J\x1b[31mboom"
	u := rawpeer.Serve(t, func(path string) string {
		if path == "/1" {
			return "HTTP/1.1 200 OK\r\nLink: </2>; rel=linkset\r\nContent-Type: text/plain\r\nContent-Length: 0\r\n\r\n"
		}
		return status + "\r\nContent-Length: 0\r\n\r\n"
	})
	const phrase = ` answered 500 "\x1b]0;PWNED\a\x1b[2J\x1b[31mboom"` + "\n"
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"-url", u + "/2", "-discover"}, exitNone, "weblink: " + u + "/2" + phrase},
		{[]string{"-url", u + "/1", "-discover"}, exitOK, "weblink: linkset " + u + "/2" + phrase},
		{[]string{"-url", u + "/1", "-api-catalog"}, exitNone, "weblink: " + u + "/.well-known/api-catalog" + phrase},
	} {
		r := runCmd(t, "", tc.args...)
		if strings.ContainsAny(r.stdout+r.stderr, "\x1b\x07") {
			t.Errorf("%q: terminal escapes reach the output:\n%q\n%q", tc.args, r.stdout, r.stderr)
		}
		if r.code != tc.code || r.stderr != tc.stderr {
			t.Errorf("%q: exit %d, stderr\n%q\nwant exit %d, stderr\n%q", tc.args, r.code, r.stderr, tc.code, tc.stderr)
		}
	}
}
