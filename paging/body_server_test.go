package paging_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/weblinking/weblink/paging"
)

// npmTool returns the path that env names, which .ci/run sets, or rel in
// the folder of the json-server cache directory where .ci/run installs
// pkg. Without it the test skips, unless CI is set.
func npmTool(t *testing.T, env, pkg, rel string) string {
	t.Helper()
	path := os.Getenv(env)
	if path == "" {
		if cache, err := os.UserCacheDir(); err == nil {
			path = filepath.Join(cache, "weblink-ci", strings.ReplaceAll(pkg, "@", "-"), rel)
		}
	}
	if _, err := os.Stat(path); path == "" || err != nil {
		install := "npm install --prefix ~/.cache/weblink-ci/" + strings.ReplaceAll(pkg, "@", "-") + " " + pkg
		if os.Getenv("CI") != "" {
			t.Fatalf("%s not found (%q); .ci/run installs it with %s", pkg, path, install)
		}
		t.Skipf("%s not found (%q); install it with %s, or run .ci/run", pkg, path, install)
	}
	return path
}

// startNode starts name with args on a free port of 127.0.0.1, given as
// the first argument after args0 (and env added to the environment),
// stops it when the test ends, and returns its URL once ready answers
// 200.
func startNode(t *testing.T, env []string, ready string, name string, args0 []string, args ...string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, name, append(append(args0, strconv.Itoa(port)), args...)...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr // its banner on standard output is dropped
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	// node starts in about a second; a loaded CI machine took more than 5.
	waitWithin(t, time.Minute, name+" to answer", func() bool {
		resp, err := http.Get(base + ready)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return base
}

// TestNextInBodyJSONAPIServer pages a real JSON:API server, jsonapi-server
// 4.2.0 (testdata/jsonapi-server/server.js), which writes absolute
// pagination links in the body (links.next) and none in the header:
// Items with NextInBody("/links/next") and JSONItemsAt("/data") yields
// each of its 23 articles once, in order, in 5 pages of 5 (rules 29, 31
// and 34), the links checked as header links are (same origin).
func TestNextInBodyJSONAPIServer(t *testing.T) {
	modules := npmTool(t, "WEBLINK_JSONAPI_SERVER", "jsonapi-server@4.2.0", "node_modules")
	script, err := filepath.Abs(filepath.Join("testdata", "jsonapi-server", "server.js"))
	if err != nil {
		t.Fatal(err)
	}
	const n = 23
	base := startNode(t, []string{"NODE_PATH=" + modules}, "/rest/articles", "node", []string{script}, strconv.Itoa(n))

	type article struct {
		Type       string `json:"type"`
		ID         string `json:"id"`
		Attributes struct {
			Title string `json:"title"`
		} `json:"attributes"`
	}
	req, err := http.NewRequest(http.MethodGet, base+"/rest/articles?page%5Blimit%5D=5", nil)
	if err != nil {
		t.Fatal(err)
	}
	pages := 0
	count := paging.BeforeNext(func(prev *http.Response, next *http.Request) error {
		pages++
		if prev.Header.Get("Link") != "" {
			t.Errorf("page %d has a Link header, %q: the link came from there, not the body", pages, prev.Header.Get("Link"))
		}
		return nil
	})
	var got []string
	for a, err := range paging.Items(context.Background(), http.DefaultClient, req, paging.JSONItemsAt[article]("/data"),
		paging.NextInBody("/links/next"), count) {
		if err != nil {
			t.Fatal(err)
		}
		if a.Type != "articles" || a.Attributes.Title != "article "+strings.TrimLeft(strings.TrimPrefix(a.ID, "a"), "0") {
			t.Errorf("item %+v is not an article of the server", a)
		}
		got = append(got, a.ID)
	}
	var want []string
	for i := 1; i <= n; i++ {
		want = append(want, fmt.Sprintf("a%04d", i))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("items %q, want %q", got, want)
	}
	if pages != 4 {
		t.Errorf("%d next links followed, want 4 (5 pages of at most 5 articles)", pages)
	}
}

// TestNextInBodyJSONServerV1 shows why json-server 1.x, whose paging
// (_page, _per_page) writes first, prev, next and last in the body, does
// not fit NextInBody: they are page numbers, not links, and the first
// page's "next": 2 ends the iteration after that page with ErrNextLink,
// which says the value is a number (rule 29), never a silent stop.
func TestNextInBodyJSONServerV1(t *testing.T) {
	bin := npmTool(t, "WEBLINK_JSON_SERVER_V1", "json-server@1.0.0-beta.15", filepath.Join("node_modules", ".bin", "json-server"))
	dir := t.TempDir()
	db := `{"items": [{"id": "1"}, {"id": "2"}, {"id": "3"}, {"id": "4"}, {"id": "5"}]}`
	if err := os.WriteFile(filepath.Join(dir, "db.json"), []byte(db), 0o644); err != nil {
		t.Fatal(err)
	}
	base := startNode(t, nil, "/items", bin, []string{"--host", "127.0.0.1", "--port"}, filepath.Join(dir, "db.json"))

	type item struct {
		ID string `json:"id"`
	}
	req, err := http.NewRequest(http.MethodGet, base+"/items?_page=1&_per_page=2", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var last error
	for it, err := range paging.Items(context.Background(), http.DefaultClient, req, paging.JSONItemsAt[item]("/data"), paging.NextInBody("/next")) {
		if err != nil {
			last = err
			break
		}
		got = append(got, it.ID)
	}
	if strings.Join(got, " ") != "1 2" {
		t.Errorf("items %q, want those of the first page, 1 and 2", got)
	}
	if !errors.Is(last, paging.ErrNextLink) || !strings.Contains(fmt.Sprint(last), "number") {
		t.Errorf("error %v, want ErrNextLink saying the value is a number", last)
	}
}
