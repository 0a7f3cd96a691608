package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/weblinking/weblink/internal/quote"
	"github.com/weblinking/weblink/paging"
)

// -revalidate DIR keeps the pages of -url in DIR, a paging.PageStore on
// disk, so that a run that pages the same collection again sends
// conditional requests and reads the pages that did not change (304 Not
// Modified) from there: rules 20 to 27 of package paging (go doc paging). One file
// per page, named by a hash of its key (and of the command's credentials,
// which the requests get from the client's transport, so that paging's key
// cannot see them); each written whole to a temporary file and renamed, so
// that a run that stops never leaves half a page; the files of the
// directory bounded to maxStoreBytes in all, the least recently used
// removed first. A file that is truncated or corrupt is an error,
// reported, and the page is fetched afresh and written again.

// maxStoreBytes is the most that the page files of a -revalidate directory
// hold in all.
const maxStoreBytes = 256 << 20

// maxPageFile is the largest page file read: an 8 MiB body in base64 and a
// header of 1 MiB, with room to spare.
const maxPageFile = 16 << 20

// pageFileMagic starts every page file, and names its format.
const pageFileMagic = "weblink page 1\n"

// pageFileExt ends the name of every page file.
const pageFileExt = ".page"

// diskStore is the paging.PageStore of -revalidate.
type diskStore struct {
	dir  string
	salt []byte // a hash of the command's credentials, part of every key
	max  int64

	mu   sync.Mutex
	size int64 // of the page files, once scanned; -1 before
}

// pageFile is the JSON of a page file, after the magic and the checksum.
type pageFile struct {
	Key    string      `json:"key"`
	URL    string      `json:"url"`
	Header http.Header `json:"header"`
	Body   []byte      `json:"body"`
}

// newDiskStore returns the store of the directory dir, created if need be
// (mode 0700: pages may be private), for the credentials of opts.
func newDiskStore(dir string, opts options) (*diskStore, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("-revalidate: %w", err)
	}
	h := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(opts.headers)) {
		for _, v := range opts.headers[name] {
			fmt.Fprintf(h, "%d:%s%d:%s", len(name), name, len(v), v)
		}
	}
	if opts.user != nil {
		fmt.Fprintf(h, "userinfo:%s", opts.user.String())
	}
	return &diskStore{dir: dir, salt: h.Sum(nil), max: maxStoreBytes, size: -1}, nil
}

// path returns the file of the page stored under key.
func (s *diskStore) path(key string) (string, string) {
	h := sha256.New()
	h.Write(s.salt)
	h.Write([]byte(key))
	full := hex.EncodeToString(s.salt) + " " + key
	return filepath.Join(s.dir, hex.EncodeToString(h.Sum(nil))+pageFileExt), full
}

// Get reads the page stored under key. A file that is not a whole page
// file of that key is an error, which paging reports, and the page is
// fetched afresh. So is a file that is not a regular one (a symlink, or a
// named pipe, whose open would wait for a writer for ever), which Put
// then replaces.
func (s *diskStore) Get(_ context.Context, key string) (paging.StoredPage, bool, error) {
	path, full := s.path(key)
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return paging.StoredPage{}, false, nil
	}
	if err != nil {
		return paging.StoredPage{}, false, err
	}
	if !fi.Mode().IsRegular() {
		return paging.StoredPage{}, false, fmt.Errorf("page file %s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return paging.StoredPage{}, false, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPageFile+1))
	if err != nil {
		return paging.StoredPage{}, false, err
	}
	p, err := decodePageFile(data, full)
	if err != nil {
		return paging.StoredPage{}, false, fmt.Errorf("page file %s: %w", path, err)
	}
	now := time.Now()
	_ = os.Chtimes(path, now, now) // recently used: removed last
	return paging.StoredPage{URL: p.URL, Header: p.Header, Body: p.Body}, true, nil
}

// decodePageFile reads a page file: the magic, the SHA-256 of the rest in
// hex on a line, and the JSON of a pageFile whose key is key.
func decodePageFile(data []byte, key string) (pageFile, error) {
	var p pageFile
	if len(data) > maxPageFile {
		return p, errors.New("larger than a page file may be")
	}
	rest, ok := bytes.CutPrefix(data, []byte(pageFileMagic))
	if !ok {
		return p, errors.New("not a page file of weblink")
	}
	sum, rest, ok := bytes.Cut(rest, []byte("\n"))
	want := sha256.Sum256(rest)
	if !ok || string(sum) != hex.EncodeToString(want[:]) {
		return p, errors.New("truncated or corrupt: its checksum does not match; it will be written again")
	}
	if err := json.Unmarshal(rest, &p); err != nil {
		return p, fmt.Errorf("corrupt: %w", err)
	}
	if p.Key != key {
		return p, errors.New("holds another page")
	}
	return p, nil
}

// Put writes the page to a temporary file and renames it to its own, then
// removes the least recently used files while the directory holds more
// than its bound. A page whose key, URL or header is not UTF-8 (obs-text:
// Latin-1 in a title or an entity tag) is not stored: JSON would write
// U+FFFD for its bytes, and read back another page.
func (s *diskStore) Put(_ context.Context, key string, p paging.StoredPage) error {
	if !pageUTF8(key, p) {
		return nil
	}
	path, full := s.path(key)
	body, err := json.Marshal(pageFile{Key: full, URL: p.URL, Header: p.Header, Body: p.Body})
	if err != nil {
		return err
	}
	sum := sha256.Sum256(body)
	data := slices.Concat([]byte(pageFileMagic), []byte(hex.EncodeToString(sum[:])+"\n"), body)
	if len(data) > maxPageFile {
		return nil // not stored, as a page too large for paging is not
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old := fileSize(path)
	if err := writeAtomic(s.dir, path, data); err != nil {
		return err
	}
	if s.size < 0 {
		return s.evict() // scans the directory, this file included
	}
	s.size += int64(len(data)) - old
	if s.size > s.max {
		return s.evict()
	}
	return nil
}

// pageUTF8 reports whether key and the URL and header of p are UTF-8,
// which a page file keeps as they are.
func pageUTF8(key string, p paging.StoredPage) bool {
	if !utf8.ValidString(key) || !utf8.ValidString(p.URL) {
		return false
	}
	for name, values := range p.Header {
		if !utf8.ValidString(name) {
			return false
		}
		for _, v := range values {
			if !utf8.ValidString(v) {
				return false
			}
		}
	}
	return true
}

// fileSize returns the size of the file at path, 0 when there is none.
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// writeAtomic writes data to path through a temporary file in dir, renamed
// once written and synced: a reader sees the old file or the new one, whole.
func writeAtomic(dir, path string, data []byte) error {
	f, err := os.CreateTemp(dir, ".page-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// evict scans the page files of the directory, sums their sizes, and
// removes the least recently used while they hold more than the bound,
// down to nine tenths of it, so that the next pages do not scan again.
func (s *diskStore) evict() error {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return err
	}
	type file struct {
		path string
		size int64
		used time.Time
	}
	var files []file
	s.size = 0
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), pageFileExt) {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, file{filepath.Join(s.dir, e.Name()), fi.Size(), fi.ModTime()})
		s.size += fi.Size()
	}
	if s.size <= s.max {
		return nil
	}
	sort.Slice(files, func(i, j int) bool { return files[i].used.Before(files[j].used) })
	for _, f := range files {
		if s.size <= s.max/10*9 {
			break
		}
		if err := os.Remove(f.path); err == nil {
			s.size -= f.size
		}
	}
	return nil
}

// revalidation is what -revalidate counts and reports over a run.
type revalidation struct {
	store     *diskStore
	pages     int
	notMod    int
	storeErrs []error
	mu        sync.Mutex // storeErrs: paging may report from a worker
}

// revalidateOptions returns the paging options of -revalidate, none
// without it; an error when the directory cannot be made.
func (c *command) revalidateOptions() ([]paging.Option, error) {
	if c.opts.revalidate == "" {
		return nil, nil
	}
	store, err := newDiskStore(c.opts.revalidate, c.opts)
	if err != nil {
		return nil, err
	}
	c.reval = &revalidation{store: store}
	return []paging.Option{paging.Revalidate(store), paging.StoreErrors(func(err error) {
		c.reval.mu.Lock()
		c.reval.storeErrs = append(c.reval.storeErrs, err)
		c.reval.mu.Unlock()
	})}, nil
}

// countRevalidated counts resp, a page shown, and whether it came from the
// store after a 304.
func (c *command) countRevalidated(resp *http.Response) {
	if c.reval == nil {
		return
	}
	c.reval.pages++
	if paging.Revalidated(resp) {
		c.reval.notMod++
	}
}

// maxStoreErrors is the most store errors -revalidate prints one by one;
// the rest are counted.
const maxStoreErrors = 3

// revalidateSummary says on standard error, at the end of a run with
// -revalidate, the store's errors and how many pages came back 304.
func (c *command) revalidateSummary() {
	r := c.reval
	if r == nil {
		return
	}
	r.mu.Lock()
	errs := r.storeErrs
	r.mu.Unlock()
	for i, err := range errs {
		if i == maxStoreErrors {
			c.errorf("-revalidate: %d more errors of the store", len(errs)-i)
			break
		}
		c.errorf("-revalidate: %s", clean(err.Error()))
	}
	were := "were"
	if r.notMod == 1 {
		were = "was"
	}
	c.errorf("-revalidate: %d of %d %s came back 304 Not Modified and %s read from %s",
		r.notMod, r.pages, quote.Plural(r.pages, "page"), were, clean(r.store.dir))
}
