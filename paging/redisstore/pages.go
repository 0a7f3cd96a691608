package redisstore

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/weblinking/weblink/paging"
)

// The bounds of a stored page: its body as package paging stores it
// (8 MiB), its header as net/http reads one (1 MiB, names and values), its
// URL as browsers and servers take one (64 KiB). Put refuses a page past
// them and Get a value past their sum.
const (
	maxBody   = 8 << 20
	maxHeader = 1 << 20
	maxURL    = 64 << 10
	maxValue  = maxBody + 2*maxHeader + maxURL + 64<<10 // the fields, their lengths and the framing
)

// ErrTooLarge is wrapped by the error of a Put whose page is past the
// bounds of [Pages]; nothing is stored.
var ErrTooLarge = errors.New("redisstore: page too large to store")

// ErrCorrupt is wrapped by the error of a Get whose value is not a page
// that Put stored under that key.
//
// Such a value is truncated, changed, too large, or written by something
// else. No page is returned with it.
var ErrCorrupt = errors.New("redisstore: stored page is corrupt")

// magic starts every stored page: the format's name and version.
const magic = "weblink-page/1\n"

// getScript returns the value of KEYS[1], nil when there is none, or its
// length when it is over ARGV[1] bytes, so that a value stored by
// something else cannot make Get read gigabytes.
var getScript = redis.NewScript(`
local n = redis.call('STRLEN', KEYS[1])
if n > tonumber(ARGV[1]) then return n end
return redis.call('GET', KEYS[1])
`)

// pageStore is the paging.PageStore of Pages.
type pageStore struct {
	c      redis.UniversalClient
	prefix string
	ttl    time.Duration
}

// Pages returns a [paging.PageStore] that keeps pages in Redis, expiring
// ttl after each was stored.
//
// Each page is under prefix followed by the hex SHA-256 of the caller's key
// (so that no URL is written in a key); a ttl of 0 or less is a day. A
// value holds the page's URL, header and body, the
// SHA-256 of its key and a CRC-32C of it all: a value that is changed,
// truncated, or stored under another key is an error wrapping
// [ErrCorrupt] when read back, never a wrong page. A page whose body is
// over 8 MiB (the largest page package paging stores), whose header is
// over 1 MiB (names and values, as net/http reads one) or whose URL is
// over 64 KiB is not stored: an error wrapping [ErrTooLarge].
func Pages(c redis.UniversalClient, prefix string, ttl time.Duration) paging.PageStore {
	if ttl <= 0 {
		ttl = 24 * time.Hour
	}
	return &pageStore{c: c, prefix: prefix, ttl: ttl}
}

// Get returns the page stored under key, and whether there is one.
func (s *pageStore) Get(ctx context.Context, key string) (paging.StoredPage, bool, error) {
	sum := sha256.Sum256([]byte(key))
	v, err := getScript.Run(ctx, s.c, []string{s.redisKey(sum)}, maxValue).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return paging.StoredPage{}, false, nil
	case err != nil:
		return paging.StoredPage{}, false, err
	}
	b, ok := v.(string)
	if !ok {
		return paging.StoredPage{}, false, fmt.Errorf("%w: %v bytes, more than %d", ErrCorrupt, v, maxValue)
	}
	p, err := decodePage([]byte(b), sum)
	if err != nil {
		return paging.StoredPage{}, false, err
	}
	return p, true, nil
}

// Put stores p under key, for the store's ttl.
func (s *pageStore) Put(ctx context.Context, key string, p paging.StoredPage) error {
	sum := sha256.Sum256([]byte(key))
	b, err := encodePage(p, sum)
	if err != nil {
		return err
	}
	return s.c.Set(ctx, s.redisKey(sum), b, s.ttl).Err()
}

// redisKey is the Redis key of the page whose key has SHA-256 sum.
func (s *pageStore) redisKey(sum [sha256.Size]byte) string {
	return s.prefix + hex.EncodeToString(sum[:])
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// encodePage writes p, stored under the key whose SHA-256 is sum:
// magic, sum, the URL, the number of header fields, each name with its
// number of values and the values, the body, each string preceded by its
// length as a uvarint; then the CRC-32C of all that, 4 bytes big-endian.
func encodePage(p paging.StoredPage, sum [sha256.Size]byte) ([]byte, error) {
	if len(p.Body) > maxBody {
		return nil, fmt.Errorf("%w: a body of %d bytes, more than %d", ErrTooLarge, len(p.Body), maxBody)
	}
	if len(p.URL) > maxURL {
		return nil, fmt.Errorf("%w: a URL of %d bytes, more than %d", ErrTooLarge, len(p.URL), maxURL)
	}
	size := 0 // as net/http counts a header: "Name: value\r\n" for each value
	for name, values := range p.Header {
		for _, v := range values {
			size += len(name) + len(v) + 4
		}
		size += len(name) + 4 // a field without values still takes its name
	}
	if size > maxHeader {
		return nil, fmt.Errorf("%w: a header of %d bytes, more than %d", ErrTooLarge, size, maxHeader)
	}
	b := make([]byte, 0, len(magic)+len(sum)+len(p.URL)+size+len(p.Body)+64)
	b = append(b, magic...)
	b = append(b, sum[:]...)
	b = appendString(b, p.URL)
	b = binary.AppendUvarint(b, uint64(len(p.Header)))
	for name, values := range p.Header {
		b = appendString(b, name)
		b = binary.AppendUvarint(b, uint64(len(values)))
		for _, v := range values {
			b = appendString(b, v)
		}
	}
	b = appendString(b, string(p.Body))
	return appendCRC(b), nil
}

// appendCRC appends the CRC-32C of b to it, 4 bytes big-endian.
func appendCRC(b []byte) []byte {
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// decodePage reads a page that encodePage wrote under the key whose
// SHA-256 is sum, or returns an error wrapping ErrCorrupt.
func decodePage(b []byte, sum [sha256.Size]byte) (paging.StoredPage, error) {
	var p paging.StoredPage
	if len(b) < len(magic)+len(sum)+4 || string(b[:len(magic)]) != magic {
		return p, fmt.Errorf("%w: not a stored page", ErrCorrupt)
	}
	body, check := b[:len(b)-4], binary.BigEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(body, castagnoli) != check {
		return p, fmt.Errorf("%w: its checksum does not match", ErrCorrupt)
	}
	r := reader{b: body[len(magic):]}
	if string(r.bytes(len(sum))) != string(sum[:]) {
		return p, fmt.Errorf("%w: stored under another key", ErrCorrupt)
	}
	p.URL = r.string(maxURL)
	n := r.uvarint(maxHeader / 2) // a field is at least a name's length and a count
	if n > 0 {
		p.Header = make(http.Header, min(n, 64))
	}
	for i := 0; i < n && !r.bad; i++ {
		name := r.string(maxHeader)
		count := r.uvarint(maxHeader)
		values := make([]string, 0, min(count, 16))
		for j := 0; j < count && !r.bad; j++ {
			values = append(values, r.string(maxHeader))
		}
		p.Header[name] = values
	}
	p.Body = []byte(r.string(maxBody))
	if r.bad || len(r.b) != 0 {
		return paging.StoredPage{}, fmt.Errorf("%w: its fields do not add up", ErrCorrupt)
	}
	return p, nil
}

// reader reads the fields of a stored page; a field past the bytes left,
// or past its bound, sets bad and reads as empty.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) bytes(n int) []byte {
	if r.bad || n > len(r.b) {
		r.bad = true
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

// uvarint reads a number of at most limit.
func (r *reader) uvarint(limit int) int {
	v, n := binary.Uvarint(r.b)
	if r.bad || n <= 0 || v > uint64(limit) {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

// string reads a string of at most limit bytes.
func (r *reader) string(limit int) string {
	return string(r.bytes(r.uvarint(limit)))
}
