package redisstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/paging"
)

var testPage = paging.StoredPage{
	URL: "https://api.example/items?page=2",
	Header: http.Header{
		"Etag":          {`"v1"`},
		"Link":          {`<https://api.example/items?page=3>; rel="next"`, `<https://api.example/items?page=9>; rel="last"`},
		"Content-Type":  {"application/json"},
		"X-Empty-Field": {""},
		"X-No-Values":   {},
	},
	Body: []byte(`[{"id": 3}, {"id": 4}]`),
}

// TestPagesRoundTrip checks that Put then Get gives back the page, field
// by field; that a key not stored is no page and no error; and that the
// Redis key is the prefix and a SHA-256, with no URL in it.
func TestPagesRoundTrip(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	ctx := context.Background()
	s := Pages(c, "pages:", time.Hour)
	key := "https://api.example/items?page=2 " + strings.Repeat("a", 64)
	if err := s.Put(ctx, key, testPage); err != nil {
		t.Fatal(err)
	}
	got, ok, err := s.Get(ctx, key)
	if err != nil || !ok {
		t.Fatalf("Get = %v, %v", ok, err)
	}
	if diff := cmp.Diff(testPage, got); diff != "" {
		t.Errorf("Get (-put +got):\n%s", diff)
	}
	for _, p := range []paging.StoredPage{{}, {URL: "u", Body: []byte{}}} {
		if err := s.Put(ctx, "empty", p); err != nil {
			t.Fatal(err)
		}
		if got, ok, err := s.Get(ctx, "empty"); err != nil || !ok || got.URL != p.URL || len(got.Body) != 0 || len(got.Header) != 0 {
			t.Errorf("Get of %+v = %+v, %v, %v", p, got, ok, err)
		}
	}
	if _, ok, err := s.Get(ctx, "not stored"); ok || err != nil {
		t.Errorf("Get of a key not stored = %v, %v; want false, nil", ok, err)
	}
	keys, _ := c.Keys(ctx, "*").Result()
	for _, k := range keys {
		if !strings.HasPrefix(k, "pages:") || len(k) != len("pages:")+64 || strings.Contains(k, "example") {
			t.Errorf("Redis key %q, want pages: and a hex SHA-256", k)
		}
	}
}

// TestPagesExpire checks that a page is gone ttl after it was stored.
func TestPagesExpire(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	ctx := context.Background()
	s := Pages(c, "", time.Second)
	if err := s.Put(ctx, "k", testPage); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Get(ctx, "k"); !ok {
		t.Fatal("the page is not there at once")
	}
	time.Sleep(1500 * time.Millisecond)
	if _, ok, err := s.Get(ctx, "k"); ok || err != nil {
		t.Errorf("Get after the ttl = %v, %v; want no page", ok, err)
	}
	if ttl := c.PTTL(ctx, "day:"+hexKey("k")); ttl.Err() != nil {
		t.Fatal(ttl.Err())
	}
	if err := Pages(c, "day:", 0).Put(ctx, "k", testPage); err != nil {
		t.Fatal(err)
	}
	if ttl, _ := c.PTTL(ctx, "day:"+hexKey("k")).Result(); ttl < 23*time.Hour || ttl > 24*time.Hour {
		t.Errorf("ttl 0 keeps a page %v, want a day", ttl)
	}
}

func hexKey(k string) string {
	sum := sha256.Sum256([]byte(k))
	return hex.EncodeToString(sum[:])
}

// TestPagesBounds checks that a page past the bounds is not stored, and
// that a value in Redis past them is an error read without reading it
// whole.
func TestPagesBounds(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	ctx := context.Background()
	s := Pages(c, "b:", time.Hour)
	for _, tc := range []struct {
		name string
		p    paging.StoredPage
		ok   bool
	}{
		{"a body of 8 MiB", paging.StoredPage{Body: make([]byte, 8<<20)}, true},
		{"a body of 8 MiB and a byte", paging.StoredPage{Body: make([]byte, 8<<20+1)}, false},
		{"a header of 1 MiB", paging.StoredPage{Header: http.Header{"X": {strings.Repeat("v", 1<<20-10)}}}, true},
		{"a header past 1 MiB", paging.StoredPage{Header: http.Header{"X": {strings.Repeat("v", 1<<20)}}}, false},
		{"a header of many small values", paging.StoredPage{Header: http.Header{"X": make([]string, 300000)}}, false},
		{"a URL past 64 KiB", paging.StoredPage{URL: strings.Repeat("u", 64<<10+1)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := s.Put(ctx, tc.name, tc.p)
			if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrTooLarge)) {
				t.Fatalf("Put = %v, want stored %v", err, tc.ok)
			}
			_, ok, err := s.Get(ctx, tc.name)
			if ok != tc.ok || err != nil {
				t.Errorf("Get = %v, %v; want %v", ok, err, tc.ok)
			}
		})
	}
	big := strings.Repeat("x", maxValue+1)
	if err := c.Set(ctx, "b:"+hexKey("huge"), big, time.Hour).Err(); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Get(ctx, "huge"); ok || !errors.Is(err, ErrCorrupt) {
		t.Errorf("Get of a value past the bounds = %v, %v; want ErrCorrupt", ok, err)
	}
}

// TestPagesCorrupt checks that a value changed in Redis is an error, never
// a wrong page: every byte changed, every length cut off, garbage, another
// key's page, and fields whose lengths do not add up under a matching
// checksum.
func TestPagesCorrupt(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	ctx := context.Background()
	s := Pages(c, "", time.Hour)
	sum := sha256.Sum256([]byte("k"))
	good, err := encodePage(testPage, sum)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, v []byte) {
		t.Helper()
		if err := c.Set(ctx, hexKey("k"), v, time.Hour).Err(); err != nil {
			t.Fatal(err)
		}
		p, ok, err := s.Get(ctx, "k")
		if ok || !errors.Is(err, ErrCorrupt) || p.URL != "" || p.Header != nil || p.Body != nil {
			t.Fatalf("%s: Get = %+v, %v, %v; want ErrCorrupt and no page", name, p, ok, err)
		}
	}
	for i := range good {
		v := bytes.Clone(good)
		v[i] ^= 0x20
		check("byte "+strconv.Itoa(i), v)
	}
	for n := range len(good) {
		check("cut", good[:n])
	}
	check("garbage", []byte("garbage"))
	other, _ := encodePage(testPage, sha256.Sum256([]byte("other")))
	check("another key's page", other)
	// A frame whose lengths run past its end, with a checksum that matches.
	bad := append([]byte(magic), sum[:]...)
	bad = append(bad, 0xff, 0xff, 0xff, 0xff, 0x0f)
	check("lengths past the end", sealed(bad))
	check("a field too many", sealed(append(bytes.Clone(good[:len(good)-4]), 0)))
}

// sealed appends the CRC-32C of b to it.
func sealed(b []byte) []byte { return appendCRC(b) }

// FuzzDecodePage checks that no value decodes to a page without being
// what encodePage wrote, and that none panics.
func FuzzDecodePage(f *testing.F) {
	sum := sha256.Sum256([]byte("k"))
	good, _ := encodePage(testPage, sum)
	f.Add(good)
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := decodePage(b, sum)
		if err != nil {
			return
		}
		again, err := encodePage(p, sum)
		if err != nil || len(again) != len(b) {
			t.Errorf("decoded %+v from %q, which encodes to %d bytes, %v", p, b, len(again), err)
		}
	})
}

// etagAPI is a paged API on loopback that answers conditional requests:
// /items?page=P (P from 1 to pages) holds perPage items as a JSON array,
// links to the next page but from the last, and carries a strong ETag of
// its body; a request whose If-None-Match names that tag is answered 304
// Not Modified without a body. It counts the 200s, the 304s, the requests
// with If-None-Match and the body bytes it served.
type etagAPI struct {
	*httptest.Server
	pages, perPage int

	mu                     sync.Mutex
	ok, notMod, validators int
	bodyBytes              int64
}

func newETagAPI(t *testing.T, pages, perPage int) *etagAPI {
	a := &etagAPI{pages: pages, perPage: perPage}
	a.Server = httptest.NewUnstartedServer(http.HandlerFunc(a.serve))
	a.Start() // after a.Server is set: serve reads a.URL
	t.Cleanup(a.Close)
	return a
}

func (a *etagAPI) serve(w http.ResponseWriter, r *http.Request) {
	page, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || page < 1 || page > a.pages {
		http.NotFound(w, r)
		return
	}
	var items []item
	for i := (page-1)*a.perPage + 1; i <= page*a.perPage; i++ {
		items = append(items, item{i})
	}
	body, _ := json.Marshal(items)
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Content-Type", "application/json")
	if page < a.pages {
		weblink.Add(h, weblink.Link{Target: fmt.Sprintf("%s/items?page=%d", a.URL, page+1), Rel: []string{"next"}})
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	inm := r.Header.Get("If-None-Match")
	if inm != "" {
		a.validators++
	}
	if inm == etag {
		a.notMod++
		w.WriteHeader(http.StatusNotModified)
		return
	}
	a.ok++
	a.bodyBytes += int64(len(body))
	_, _ = w.Write(body)
}

// take returns the 200s, 304s, requests with If-None-Match and body bytes
// served since the last call, and starts counting afresh.
func (a *etagAPI) take() (ok, notMod, validators int, bodyBytes int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	ok, notMod, validators, bodyBytes = a.ok, a.notMod, a.validators, a.bodyBytes
	a.ok, a.notMod, a.validators, a.bodyBytes = 0, 0, 0, 0
	return ok, notMod, validators, bodyBytes
}

// TestPagesManyProcesses is the proof that one Pages store is shared by
// many processes: a worker process pages an API of 10 pages whole with
// Revalidate(Pages(c, prefix, ttl)), and a second, separate worker process
// pages it again with a store of the same prefix. The second yields every
// item once and in order, and every page but the last comes back 304 and is
// read from Redis (the last page is always requested without validators:
// rule 24 of package paging); its only body bytes are the last page's.
// The control, a third process with a prefix of its own, gets no 304: it
// is the shared store, not the API or the process, that saves the bodies.
func TestPagesManyProcesses(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	const pages, perPage = 10, 5
	a := newETagAPI(t, pages, perPage)
	var want []int
	for i := 1; i <= pages*perPage; i++ {
		want = append(want, i)
	}
	lastPage, _ := json.Marshal([]item{{46}, {47}, {48}, {49}, {50}})
	run := func(name, prefix string) (ok, notMod, validators int, bodyBytes int64) {
		t.Helper()
		res := runWorker(t, name, workerEnv+"=revalidate", apiEnv+"="+a.URL+"/items?page=1",
			redisEnv+"="+srv.addr, prefixEnv+"="+prefix)
		ok, notMod, validators, bodyBytes = a.take()
		t.Logf("%s: %d items in %d pages, %d read from the store; the API served %d 200s, %d 304s (%d requests with If-None-Match), %d body bytes",
			name, len(res.Items), res.Pages, res.Revalidated, ok, notMod, validators, bodyBytes)
		if res.Err != "" || res.StoreErrors != 0 || !slices.Equal(res.Items, want) {
			t.Errorf("%s: items %v, error %q, %d store errors; want items 1 to %d once, in order, and no error",
				name, res.Items, res.Err, res.StoreErrors, len(want))
		}
		if res.Revalidated != notMod {
			t.Errorf("%s: %d pages read from the store, but the API sent %d 304s", name, res.Revalidated, notMod)
		}
		return ok, notMod, validators, bodyBytes
	}

	ok, notMod, validators, first := run("first process", "pages:shared:")
	if ok != pages || notMod != 0 || validators != 0 {
		t.Errorf("first process: %d 200s, %d 304s, %d requests with If-None-Match; want %d, 0, 0", ok, notMod, validators, pages)
	}
	keys, err := c.Keys(context.Background(), "pages:shared:*").Result()
	if err != nil || len(keys) != pages {
		t.Fatalf("after the first process, %d pages in Redis (%v); want %d", len(keys), err, pages)
	}
	for _, k := range keys {
		if ttl, err := c.PTTL(context.Background(), k).Result(); err != nil || ttl <= 0 || ttl > time.Hour {
			t.Errorf("key %s expires in %v (%v); want within the ttl of an hour", k, ttl, err)
		}
	}

	ok, notMod, validators, second := run("second process", "pages:shared:")
	if ok != 1 || notMod != pages-1 || validators != pages-1 || second != int64(len(lastPage)) {
		t.Errorf("second process: %d 200s, %d 304s, %d requests with If-None-Match, %d body bytes; want 1, %d, %d, %d (the last page's)",
			ok, notMod, validators, second, pages-1, pages-1, len(lastPage))
	}
	t.Logf("body bytes served: %d to the first process, %d to the second", first, second)

	ok, notMod, validators, _ = run("control: a fresh prefix", "pages:fresh:")
	if ok != pages || notMod != 0 || validators != 0 {
		t.Errorf("control: %d 200s, %d 304s, %d requests with If-None-Match; want %d, 0, 0: without the shared pages, nothing to revalidate",
			ok, notMod, validators, pages)
	}
}
