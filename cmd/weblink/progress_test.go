package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// gatedAPI is api whose page 3 waits until seen is closed (for at most 10
// seconds, then it answers 500): a page that a slow API sends late.
func gatedAPI(t *testing.T, seen <-chan struct{}) string {
	a := &api{pages: 3}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("page") == "3" {
			select {
			case <-seen:
			case <-time.After(10 * time.Second):
				http.Error(w, "page 1 was not printed before page 3 was asked for", http.StatusInternalServerError)
				return
			}
		}
		a.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// watcher is an io.Writer that closes seen once what was written holds
// want.
type watcher struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *watcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

func TestAllStreams(t *testing.T) {
	// Each page is printed as it arrives: the server answers page 3 only
	// after page 1's links reached stdout.
	for _, args := range [][]string{{"-rel", "item"}, {}, {"-format"}} {
		seen := make(chan struct{})
		u := gatedAPI(t, seen)
		w := &watcher{want: "http://items.example/1", seen: seen}
		var stderr bytes.Buffer
		code := runEnv(context.Background(), append([]string{"-url", u + "/items?page=1", "-all"}, args...),
			env{stdin: strings.NewReader(""), stdout: w, stderr: &stderr, getenv: func(string) string { return "" }, now: time.Now})
		if code != exitOK || !strings.Contains(w.buf.String(), "http://items.example/3") {
			t.Errorf("%q: exit %d, stderr %q\n%s", args, code, stderr.String(), w.buf.String())
		}
	}
}

func TestAllStreamsThroughPipe(t *testing.T) {
	// The same through the binary and a pipe: the first line can be read
	// while page 3 is held back.
	seen := make(chan struct{})
	u := gatedAPI(t, seen)
	cmd := exec.Command(binary, "-url", u+"/items?page=1", "-all", "-rel", "item")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if len(lines) == 1 {
			close(seen)
		}
	}
	if err := cmd.Wait(); err != nil || strings.Join(lines, " ") != "http://items.example/1 http://items.example/2 http://items.example/3" {
		t.Errorf("%v: %q, stderr %q", err, lines, stderr.String())
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr %q: no progress line in a pipe", stderr.String())
	}
}

func TestProgress(t *testing.T) {
	u := serve(t, &api{pages: 3})
	page := func(n int) string { return u + "/items?page=" + fmt.Sprint(n) }
	const redraw = "\r\x1b[K"
	// On a terminal: the line is redrawn before each request and cleared
	// before each page is printed and at the end. The fake clock moves a
	// second each time it is read.
	r := runFake(t, strings.NewReader(""), nil, terminals{stderr: true}, "-url", page(1), "-all", "-rel", "item")
	r.want(t, exitOK, "http://items.example/1\nhttp://items.example/2\nhttp://items.example/3\n")
	want := redraw + "page 1, 0 links, 1s: " + page(1) + redraw +
		redraw + "page 2, 2 links, 2s: " + page(2) + redraw +
		redraw + "page 3, 5 links, 3s: " + page(3) + redraw
	if r.stderr != want {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}
	// An error clears the line before it is printed.
	r = runFake(t, strings.NewReader(""), nil, terminals{stderr: true}, "-url", page(1), "-all", "-max-pages", "1", "-rel", "item")
	if !strings.HasSuffix(r.stderr, redraw+"weblink: stopped after 1 page (-max-pages 1): "+page(1)+" links to "+page(2)+"; raise -max-pages to go on\n") {
		t.Errorf("stderr %q", r.stderr)
	}
	// Nothing with NO_COLOR or TERM=dumb, not on a pipe, not without -all.
	for _, c := range []struct {
		vars map[string]string
		term bool
		args []string
	}{
		{map[string]string{"NO_COLOR": "1"}, true, []string{"-all"}},
		{map[string]string{"TERM": "dumb"}, true, []string{"-all"}},
		{nil, false, []string{"-all"}},
		{nil, true, nil},
	} {
		r := runFake(t, strings.NewReader(""), c.vars, terminals{stderr: c.term}, append([]string{"-url", page(1), "-rel", "item"}, c.args...)...)
		if r.code != exitOK || r.stderr != "" {
			t.Errorf("%v, terminal %v, %q: exit %d, stderr %q", c.vars, c.term, c.args, r.code, r.stderr)
		}
	}
}

func TestProgressLine(t *testing.T) {
	// The line fits 79 columns, whatever the URL, and shows it cleaned.
	var b bytes.Buffer
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &progress{w: &b, start: start, now: func() time.Time { return start.Add(1234 * time.Millisecond) }}
	u := mustParse(t, "https://api.example.com/"+strings.Repeat("日", 60)+"?q=%1b")
	p.draw(12, 1, u)
	line := strings.TrimPrefix(b.String(), "\r\x1b[K")
	if !strings.HasPrefix(line, "page 12, 1 link, 1.2s: https://api.example.com/%E6%97%A5") || textWidth(line) > 79 || !strings.HasSuffix(line, "...") {
		t.Errorf("line %q, %d columns", line, textWidth(line))
	}
	var nilProgress *progress
	nilProgress.draw(1, 1, u) // draws nothing
	nilProgress.clear()
}

func TestAllInterrupted(t *testing.T) {
	// An interrupt (the context of main) ends -all: what was printed
	// stays, the progress line is cleared, and the message says so.
	seen := make(chan struct{})
	u := gatedAPI(t, seen)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &watcher{want: "http://items.example/2", seen: make(chan struct{})}
	go func() {
		<-w.seen
		cancel() // while page 3 is held back
	}()
	var stderr bytes.Buffer
	code := runEnv(ctx, []string{"-url", u + "/items?page=1", "-all", "-rel", "item"},
		env{stdin: strings.NewReader(""), stdout: w, stderr: &stderr, getenv: func(string) string { return "" },
			stderrTerminal: true, now: time.Now})
	close(seen)
	if code != exitNone || w.buf.String() != "http://items.example/1\nhttp://items.example/2\n" ||
		!strings.HasSuffix(stderr.String(), "\r\x1b[Kweblink: interrupted after 2 pages\n") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, w.buf.String(), stderr.String())
	}
}

func TestProgressFitsTheTerminal(t *testing.T) {
	// The line is one column narrower than the terminal, as COLUMNS says,
	// also below 80 columns; without COLUMNS (and no terminal to ask) it
	// takes 79.
	u := serve(t, &api{pages: 2})
	long := u + "/items?page=1&" + strings.Repeat("q", 100)
	for _, c := range []struct {
		columns string
		width   int
	}{{"40", 39}, {"20", 19}, {"132", 131}, {"", 79}, {"zero", 79}} {
		r := runFake(t, strings.NewReader(""), map[string]string{"COLUMNS": c.columns}, terminals{stderr: true}, "-url", long, "-all", "-rel", "item")
		drawn := 0
		for _, line := range strings.Split(r.stderr, "\r\x1b[K") {
			if line == "" {
				continue
			}
			drawn++
			if w := textWidth(line); w > c.width || !strings.HasPrefix(line, "page ") {
				t.Errorf("COLUMNS=%q: line %q, %d columns, want at most %d", c.columns, line, w, c.width)
			}
		}
		if drawn == 0 || r.code != exitOK {
			t.Errorf("COLUMNS=%q: exit %d, stderr %q", c.columns, r.code, r.stderr)
		}
	}
}

func TestProgressTicks(t *testing.T) {
	// During a slow request the line is redrawn, its elapsed time moving,
	// and the ticker ends with the command.
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release
		w.Header().Set("Link", "<a>; rel=item")
	}))
	defer srv.Close()
	var stderr lockedBuffer
	go func() {
		time.Sleep(600 * time.Millisecond)
		close(release)
	}()
	code := runEnv(context.Background(), []string{"-url", srv.URL, "-all", "-rel", "item"},
		env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr, getenv: func(string) string { return "" },
			stderrTerminal: true, now: time.Now, tick: 20 * time.Millisecond})
	after := stderr.String()
	time.Sleep(100 * time.Millisecond)
	if code != exitOK || stderr.String() != after {
		t.Errorf("exit %d; stderr changed after the command ended: %q", code, stderr.String())
	}
	elapsed := map[string]bool{}
	for _, line := range strings.Split(after, "\r\x1b[K") {
		if rest, ok := strings.CutPrefix(line, "page 1, 0 links, "); ok {
			e, _, _ := strings.Cut(rest, ":")
			elapsed[e] = true
		}
	}
	if len(elapsed) < 3 {
		t.Errorf("elapsed times %v, want the line redrawn as the time moves; stderr %q", elapsed, after)
	}
}

// lockedBuffer is a bytes.Buffer safe for concurrent use.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestInterruptExitStatus(t *testing.T) {
	// Ctrl-C (SIGINT) ends the command promptly with exit status 130:
	// during a request that does not answer, and while standard input
	// stays open without an end.
	requested := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requested <- struct{}{}
		<-r.Context().Done()
	}))
	defer srv.Close()
	for _, c := range []struct {
		name string
		args []string
		msg  string
	}{
		{"a stalled -url request", []string{"-url", srv.URL + "/stalled"}, "weblink: interrupted"},
		{"standard input without end", nil, ""},
	} {
		cmd := exec.Command(binary, c.args...)
		stdin, err := cmd.StdinPipe() // never written to nor closed before the end
		if err != nil {
			t.Fatal(err)
		}
		var stderr lockedBuffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if c.args != nil {
			<-requested
		} else {
			time.Sleep(300 * time.Millisecond) // reading
		}
		start := time.Now()
		cmd.Process.Signal(os.Interrupt)
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		select {
		case err = <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			err = <-exited
			t.Errorf("%s: still running 10s after SIGINT", c.name)
		}
		stdin.Close()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
			t.Errorf("%s: %v after %v, want exit status 130; stderr %q", c.name, err, time.Since(start), stderr.String())
		}
		if !strings.Contains(stderr.String(), c.msg) {
			t.Errorf("%s: stderr %q, want %q", c.name, stderr.String(), c.msg)
		}
	}
}
