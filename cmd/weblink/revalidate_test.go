package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

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

// TestDiskStoreBound checks the bound of a -revalidate directory: 256 MiB
// unless a test lowers it; past it, a Put removes the least recently used
// page files (last written, or last read by Get) down to nine tenths of
// it. With the bound lowered to 10 page files, 30 pages are put one after
// the other, page 0 read before each: after every Put the files hold at
// most the bound, every file removed was used before every file kept, and
// page 0 is never removed; the first Put past the bound removes the two
// oldest pages but page 0 (1 and 2). A second store on the same
// directory, with a bound of 3 files, counts the files that the first
// left: its first Put leaves the 2 newest (nine tenths of 3 files), its
// own page and page 29, read last.
func TestDiskStoreBound(t *testing.T) {
	dir := t.TempDir()
	s, err := newDiskStore(dir, options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.max != 256<<20 {
		t.Errorf("a -revalidate directory holds at most %d bytes, want 256 MiB as -help says", s.max)
	}
	ctx := context.Background()
	key := func(i int) string { return fmt.Sprintf("http://127.0.0.1/items?page=%02d", i) }
	page := func(i int) paging.StoredPage {
		return paging.StoredPage{URL: key(i), Header: http.Header{"Etag": {`"v1"`}}, Body: bytes.Repeat([]byte("x"), 4000)}
	}
	// The times of use are set an hour back, a second apart: the order is
	// the test's, not the file system clock's (a tick may stamp several
	// writes alike).
	base := time.Now().Add(-time.Hour)
	used := map[string]time.Time{} // of the pages put, by file
	put := func(st *diskStore, i int) {
		t.Helper()
		if err := st.Put(ctx, key(i), page(i)); err != nil {
			t.Fatal(err)
		}
		path, _ := st.path(key(i))
		used[path] = base.Add(time.Duration(i) * time.Second)
		if err := os.Chtimes(path, used[path], used[path]); err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err) // a file removed at once is for the checks below
		}
	}
	put(s, 0)
	path0, _ := s.path(key(0))
	size := fileSize(path0)
	s.max = 10 * size // every page file is as large: the keys are as long
	for i := 1; i < 30; i++ {
		if _, ok, err := s.Get(ctx, key(0)); !ok || err != nil {
			t.Fatalf("before page %d: page 0 read back as %v, %v", i, ok, err)
		}
		used[path0] = time.Now()
		put(s, i)
		kept := pageFiles(t, dir)
		var total int64
		oldestKept := time.Now()
		for path, fsize := range kept {
			total += fsize
			if used[path].Before(oldestKept) {
				oldestKept = used[path]
			}
		}
		if total > s.max {
			t.Fatalf("after page %d: %d bytes in %d files, past the bound of %d", i, total, len(kept), s.max)
		}
		for path, u := range used {
			if _, ok := kept[path]; !ok && u.After(oldestKept) {
				t.Errorf("after page %d: %s removed, used at %v, though a file used at %v is kept", i, filepath.Base(path), u, oldestKept)
			}
		}
		if _, ok := kept[path0]; !ok {
			t.Fatalf("after page %d: page 0, read before each Put, was removed", i)
		}
		if i == 10 {
			var gone []int
			for k := 0; k <= 10; k++ {
				if p, _ := s.path(key(k)); kept[p] == 0 {
					gone = append(gone, k)
				}
			}
			if !slices.Equal(gone, []int{1, 2}) || total > s.max/10*9 {
				t.Errorf("the first Put past the bound removed pages %v, leaving %d bytes; want pages 1 and 2 removed, at most %d bytes", gone, total, s.max/10*9)
			}
		}
	}
	for _, i := range []int{0, 29} {
		if _, ok, err := s.Get(ctx, key(i)); !ok || err != nil {
			t.Errorf("page %d read back as %v, %v", i, ok, err)
		}
	}

	s2, err := newDiskStore(dir, options{})
	if err != nil {
		t.Fatal(err)
	}
	s2.max = 3 * size
	if err := s2.Put(ctx, key(30), page(30)); err != nil {
		t.Fatal(err)
	}
	p29, _ := s.path(key(29))
	p30, _ := s2.path(key(30))
	if kept := pageFiles(t, dir); len(kept) != 2 || kept[p29] == 0 || kept[p30] == 0 {
		t.Errorf("a second store with a bound of 3 files kept %d files (page 29 %v, page 30 %v); want those 2 alone, the newest",
			len(kept), kept[p29] != 0, kept[p30] != 0)
	}
}

// pageFiles returns the page files of dir and their sizes.
func pageFiles(t *testing.T, dir string) map[string]int64 {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]int64{}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), pageFileExt) {
			fi, err := e.Info()
			if err != nil {
				t.Fatal(err)
			}
			files[filepath.Join(dir, e.Name())] = fi.Size()
		}
	}
	return files
}
