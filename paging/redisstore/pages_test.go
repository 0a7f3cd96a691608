package redisstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
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
