package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/weblinking/weblink/paging"
)

// quotaServer is a GitHub-like API on a loopback port: /items?page=P has
// pages links of its own (rel="item", naming the caller's token), a next
// link but on the last page, an ETag of its body, and a 304 for
// If-None-Match with that ETag. It charges its quota only for 200s.
type quotaServer struct {
	*httptest.Server
	mu     sync.Mutex
	pages  int
	quota  int   // 200s
	n304   int   // 304s
	bodies int64 // bytes of the bodies of 200s
}

func newQuotaServer(t *testing.T, pages int) *quotaServer {
	s := &quotaServer{pages: pages}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		if page < 1 || page > s.pages {
			http.NotFound(w, r)
			return
		}
		token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		body := quotaBody(token, page)
		sum := sha256.Sum256([]byte(body))
		etag := `"` + hex.EncodeToString(sum[:8]) + `"`
		h := w.Header()
		h.Set("ETag", etag)
		h.Add("Link", fmt.Sprintf(`<https://example.com/%s/item/%d>; rel="item"`, token, page))
		if page < s.pages {
			h.Add("Link", fmt.Sprintf(`</items?page=%d>; rel="next"`, page+1))
		}
		if r.Header.Get("If-None-Match") == etag {
			s.n304++
			h.Set("X-RateLimit-Remaining", strconv.Itoa(5000-s.quota))
			w.WriteHeader(http.StatusNotModified)
			return
		}
		s.quota++
		s.bodies += int64(len(body))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(5000-s.quota))
		fmt.Fprint(w, body)
	}))
	t.Cleanup(s.Close)
	return s
}

// quotaBody is the body of page of a quotaServer for token.
func quotaBody(token string, page int) string {
	return fmt.Sprintf(`[{"owner":%q,"page":%d,"padding":%q}]`, token, page, strings.Repeat("x", 500))
}

// take returns and resets the quota used, the 304s and the body bytes.
func (s *quotaServer) take() (quota, n304 int, bodies int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	quota, n304, bodies = s.quota, s.n304, s.bodies
	s.quota, s.n304, s.bodies = 0, 0, 0
	return quota, n304, bodies
}

// TestRevalidateDir runs weblink -all -revalidate DIR twice on a GitHub-like
// API: the second run shows the same links, 9 of 10 pages come back 304,
// quota and bodies are spent on the last page alone, and standard error
// says so.
func TestRevalidateDir(t *testing.T) {
	const pages = 10
	s := newQuotaServer(t, pages)
	dir := filepath.Join(t.TempDir(), "cache")
	args := []string{"-url", s.URL + "/items?page=1", "-all", "-rel", "item", "-revalidate", dir, "-H", "Authorization: Bearer tokA"}
	first := runCmd(t, "", args...)
	if first.code != exitOK || strings.Count(first.stdout, "tokA/item/") != pages {
		t.Fatalf("first run: %d, %q, %q", first.code, first.stdout, first.stderr)
	}
	if !strings.Contains(first.stderr, "0 of 10 pages came back 304") {
		t.Errorf("first run stderr %q", first.stderr)
	}
	_, _, full := s.take()
	second := runCmd(t, "", args...)
	quota, n304, bodies := s.take()
	if second.code != exitOK || second.stdout != first.stdout {
		t.Errorf("second run: %d, %q; want the first's %q", second.code, second.stdout, first.stdout)
	}
	if !strings.Contains(second.stderr, "9 of 10 pages came back 304 Not Modified and were read from") {
		t.Errorf("second run stderr %q", second.stderr)
	}
	if last := int64(len(quotaBody("tokA", pages))); quota != 1 || n304 != 9 || bodies != last {
		t.Errorf("second run: quota %d, 304s %d, body bytes %d; want 1, 9 and the last page's %d", quota, n304, bodies, last)
	}
	t.Logf("weblink -url URL -all -revalidate DIR, second run: %d pages, %d answered 304, quota %d, body bytes %d (first run %d)", pages, n304, quota, bodies, full)
	files, _ := filepath.Glob(filepath.Join(dir, "*.page"))
	if len(files) != pages {
		t.Errorf("%d page files, want %d", len(files), pages)
	}
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v, %v; want 0700", fi.Mode(), err)
	}
}

// TestRevalidateDirCredentials pages one API with two tokens sharing one
// directory: each run shows its own token's links alone, also when the
// other's pages are stored.
func TestRevalidateDirCredentials(t *testing.T) {
	s := newQuotaServer(t, 3)
	dir := t.TempDir()
	for i, token := range []string{"tokA", "tokB", "tokA", "tokB"} {
		r := runCmd(t, "", "-url", s.URL+"/items?page=1", "-all", "-rel", "item", "-revalidate", dir, "-H", "Authorization: Bearer "+token)
		other := map[string]string{"tokA": "tokB", "tokB": "tokA"}[token]
		if r.code != exitOK || strings.Count(r.stdout, token+"/item/") != 3 || strings.Contains(r.stdout, other) {
			t.Errorf("run %d with %s: %d, %q", i+1, token, r.code, r.stdout)
		}
		if want := fmt.Sprintf("%d of 3 pages came back 304", 2*(i/2)); !strings.Contains(r.stderr, want) {
			t.Errorf("run %d with %s: stderr %q, want %q", i+1, token, r.stderr, want)
		}
	}
}

// TestRevalidateDirCorrupt truncates a page file and writes garbage in
// another: the next run reports both, shows the same links from fresh
// pages, and writes them again, so that the run after it is all 304s.
func TestRevalidateDirCorrupt(t *testing.T) {
	s := newQuotaServer(t, 4)
	dir := t.TempDir()
	args := []string{"-url", s.URL + "/items?page=1", "-all", "-rel", "item", "-revalidate", dir}
	first := runCmd(t, "", args...)
	files, _ := filepath.Glob(filepath.Join(dir, "*.page"))
	if first.code != exitOK || len(files) != 4 {
		t.Fatalf("first run: %d, %d files, %q", first.code, len(files), first.stderr)
	}
	for i, f := range files[:2] {
		data, _ := os.ReadFile(f)
		if i == 0 {
			data = data[:len(data)-40]
		} else {
			data = []byte("\x1b[2J not a page")
		}
		if err := os.WriteFile(f, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	second := runCmd(t, "", args...)
	if second.code != exitOK || second.stdout != first.stdout {
		t.Errorf("after corruption: %d, %q; want %q", second.code, second.stdout, first.stdout)
	}
	// The last page is fetched afresh, so it may have been one of the two.
	if n := strings.Count(second.stderr, "truncated or corrupt") + strings.Count(second.stderr, "not a page file"); n < 1 || strings.Contains(second.stderr, "\x1b") {
		t.Errorf("after corruption, stderr %q: want the bad files reported, escaped", second.stderr)
	}
	third := runCmd(t, "", args...)
	if !strings.Contains(third.stderr, "3 of 4 pages came back 304") || strings.Contains(third.stderr, "corrupt") {
		t.Errorf("third run stderr %q", third.stderr)
	}
}

// TestRevalidateUsage: -revalidate needs -url.
func TestRevalidateUsage(t *testing.T) {
	r := runCmd(t, "", "-revalidate", t.TempDir(), "<a>; rel=next")
	if r.code != exitProblem || !strings.Contains(r.stderr, "-revalidate needs -url") {
		t.Errorf("got %d, %q", r.code, r.stderr)
	}
}

// TestDiskStoreKeepsBytes stores, in a -revalidate directory, a page whose
// header holds bytes that are not UTF-8 (obs-text, RFC 9110 §5.5: an
// entity tag or a title in Latin-1): the page read back is the one stored,
// byte for byte, or none, never one with other validators or links.
func TestDiskStoreKeepsBytes(t *testing.T) {
	s, err := newDiskStore(t.TempDir(), options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	want := paging.StoredPage{
		URL: "http://127.0.0.1/items?page=1",
		Header: http.Header{
			"Etag": {"\"caf\xe9\""},
			"Link": {"</items?page=2>; rel=\"next\"; title=\"caf\xe9\""},
		},
		Body: []byte("[1,2,3]"),
	}
	if err := s.Put(ctx, "k", want); err != nil {
		t.Fatal(err)
	}
	got, ok, err := s.Get(ctx, "k")
	if ok && err == nil {
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("the page read back is not the one stored (-stored +read):\n%s", diff)
		}
	}
	// A page in UTF-8 is still kept.
	want.Header = http.Header{"Etag": {`"café"`}}
	if err := s.Put(ctx, "k2", want); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := s.Get(ctx, "k2"); !ok || err != nil || !cmp.Equal(want, got) {
		t.Errorf("a UTF-8 page read back as %v, %v, %v", got, ok, err)
	}
}
