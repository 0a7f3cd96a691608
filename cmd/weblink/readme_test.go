package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// readmeLoop returns the shell loop of the README that pages through an
// API, from its "u=" line to its "done".
func readmeLoop(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	const start = "u=https://api.example.com/items\n"
	i := strings.Index(s, start)
	if i < 0 {
		t.Fatalf("README has no line %q", start)
	}
	j := strings.Index(s[i:], "\ndone\n")
	if j < 0 {
		t.Fatal("README: the loop has no done")
	}
	return s[i : i+j+len("\ndone\n")]
}

func TestReadmeShellLoop(t *testing.T) {
	// The loop as the README prints it, run by bash with curl and the
	// weblink binary against a local API of three pages: one request per
	// page, each page in its own file. Each page also has the next link of
	// another resource (anchor="/other"), which the loop must not follow.
	bash := lookBashAndCurl(t)
	var requests atomic.Int32
	a := &api{pages: 3, anchored: true}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		a.ServeHTTP(w, r)
	}))
	defer srv.Close()
	loop := strings.Replace(readmeLoop(t), "https://api.example.com/items", srv.URL+"/items?page=1", 1)
	for _, flags := range []string{"-c", "-euc"} {
		requests.Store(0)
		a.reset()
		t.Run(flags, func(t *testing.T) { runLoop(t, bash, flags, loop, a, &requests) })
	}
}

// lookBashAndCurl returns the path of bash, and skips the test (fails it
// in CI) when bash or curl is missing.
func lookBashAndCurl(t *testing.T) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err == nil {
		_, err = exec.LookPath("curl")
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI needs bash and curl: %v", err)
		}
		t.Skip(err)
	}
	return bash
}

// loopCommand returns the command that runs the README loop with bash
// flags in dir, with the weblink binary first in PATH.
func loopCommand(bash, flags, loop, dir string) *exec.Cmd {
	cmd := exec.Command(bash, flags, loop)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"))
	return cmd
}

// runLoop runs the README loop with bash flags and checks what it did.
func runLoop(t *testing.T, bash, flags, loop string, a *api, requests *atomic.Int32) {
	dir := t.TempDir()
	if out, err := loopCommand(bash, flags, loop, dir).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s\n%s", err, out, loop)
	}
	for n := 1; n <= 4; n++ {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("page-%d.json", n)))
		switch {
		case n == 4 && !os.IsNotExist(err):
			t.Errorf("page-4.json: %v, want no such file", err)
		case n < 4 && (err != nil || string(b) != fmt.Sprintf("page %d\n", n)):
			t.Errorf("page-%d.json: %q, %v", n, b, err)
		}
	}
	if got := requests.Load(); got != 3 {
		t.Errorf("%d requests, want one per page (3)", got)
	}
	if got := a.requests(); got != "GET GET GET" {
		t.Errorf("requests %q", got)
	}
}

// TestReadmeShellLoopMalformed: the README loop tells a malformed Link
// header from the last page. Page 2 lost the ">" of its next link, so
// weblink -next finds no usable next link and exits with status 3: the
// loop says so on standard error and stops, under set -e too. Before,
// -next exited 1 there, as on a last page, and the loop ended silently.
func TestReadmeShellLoopMalformed(t *testing.T) {
	bash := lookBashAndCurl(t)
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		switch r.URL.Query().Get("page") {
		case "1":
			w.Header().Set("Link", `</items?page=2>; rel="next"`)
		case "2":
			w.Header().Set("Link", `</items?page=1>; rel="prev", </items?page=3; rel="next"`)
		}
		fmt.Fprintf(w, "page %d\n", n)
	}))
	defer srv.Close()
	loop := strings.Replace(readmeLoop(t), "https://api.example.com/items", srv.URL+"/items?page=1", 1)
	for _, flags := range []string{"-c", "-euc"} {
		requests.Store(0)
		out, err := loopCommand(bash, flags, loop, t.TempDir()).CombinedOutput()
		if err != nil {
			t.Errorf("%s: %v\n%s", flags, err, out)
		}
		if !strings.Contains(string(out), "page 2: malformed Link header, no usable next link; stopped\n") {
			t.Errorf("%s: output %q; want the loop to say that page 2 is malformed", flags, out)
		}
		if got := requests.Load(); got != 2 {
			t.Errorf("%s: %d requests, want 2", flags, got)
		}
	}
}
