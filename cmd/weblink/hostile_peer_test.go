package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/weblinking/weblink/internal/rawpeer"
)

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
