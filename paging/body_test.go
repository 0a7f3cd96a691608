package paging_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weblinking/weblink/internal/memtest"
	"github.com/weblinking/weblink/paging"
)

// bodyPages ranges over Pages from path with opts, checking that each
// page's body reads whole from its first byte as served (rule 30), and
// returns the request URIs of the pages yielded and the error.
func bodyPages(t *testing.T, a *api, pages map[string]bodyPage, path string, opts ...paging.Option) ([]string, error) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, a.URL+path, nil)
	var got []string
	for resp, err := range paging.Pages(context.Background(), a.Client(), req, opts...) {
		if err != nil {
			return got, err
		}
		uri := resp.Request.URL.RequestURI()
		got = append(got, uri)
		b, rerr := io.ReadAll(resp.Body)
		if want := strings.ReplaceAll(pages[uri].body, "{base}", a.URL); rerr != nil || string(b) != want {
			t.Errorf("page %s reads %q (error %v), want the body from its first byte, %q", uri, shortText(string(b)), rerr, shortText(want))
		}
	}
	return got, nil
}

func shortText(s string) string {
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}

func TestNextInBody(t *testing.T) {
	long := strings.Repeat("a", 70<<10)
	for _, tc := range []struct {
		name  string
		rule  int
		ptr   string
		pages map[string]bodyPage
		opts  []paging.Option
		want  []string // request URIs of the pages yielded
		err   error    // errors.Is; nil: none
		msg   string   // in the error
	}{
		{name: "header first", rule: 28, ptr: "/next",
			pages: map[string]bodyPage{
				"/1": {link: `</2>; rel="next"`, body: `{"next": "/3"}`},
				"/2": {body: `{"next": null}`},
			},
			want: []string{"/1", "/2"}},
		{name: "malformed header, body link", rule: 28, ptr: "/next",
			pages: map[string]bodyPage{
				"/1": {link: `</x>; rel="prev", <broken`, body: `{"next": "/2"}`},
				"/2": {body: `{}`},
			},
			want: []string{"/1", "/2"}},
		{name: "malformed header, no body link", rule: 28, ptr: "/next",
			pages: map[string]bodyPage{"/1": {link: `<broken`, body: `{}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink},
		{name: "string", rule: 29, ptr: "/links/next",
			pages: map[string]bodyPage{
				"/1": {body: `{"data": [1, {"a": [2, "x"]}], "links": {"self": "/1", "next": "{base}/2"}}`},
				"/2": {body: `{"data": [], "links": {"next": "/3"}, "meta": {}}`},
				"/3": {body: `{"links": {"self": "/3"}}`},
			},
			want: []string{"/1", "/2", "/3"}},
		{name: "link object", rule: 29, ptr: "/links/next",
			pages: map[string]bodyPage{
				"/1": {body: `{"links": {"next": {"meta": {"href": 1}, "href": "/2"}}}`},
				"/2": {body: `{"links": {"next": null}}`},
			},
			want: []string{"/1", "/2"}},
		{name: "empty string", rule: 29, ptr: "/links/next",
			pages: map[string]bodyPage{"/1": {body: `{"links": {"next": ""}}`}}, want: []string{"/1"}},
		{name: "null on the way", rule: 29, ptr: "/links/next",
			pages: map[string]bodyPage{"/1": {body: `{"links": null}`}}, want: []string{"/1"}},
		{name: "number", rule: 29, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": 2}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "number"},
		{name: "array", rule: 29, ptr: "/_links/next",
			pages: map[string]bodyPage{"/1": {body: `{"_links": {"next": [{"href": "/2"}]}}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "array"},
		{name: "boolean", rule: 29, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": true}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "bool"},
		{name: "object without href", rule: 29, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": {"url": "/2"}}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: `without "href"`},
		{name: "href not a string", rule: 29, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": {"href": null}}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: `"href" is null`},
		{name: "scalar on the way", rule: 29, ptr: "/links/next",
			pages: map[string]bodyPage{"/1": {body: `{"links": "/2"}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: `"/links" is string`},
		{name: "not JSON", rule: 29, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `<html>next</html>`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "invalid character"},
		{name: "empty body", rule: 29, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: ``}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "empty"},
		{name: "cut inside the value", rule: 29, ptr: "/links/next",
			pages: map[string]bodyPage{"/1": {body: `{"links": {"self": "/1", "next": {"hr`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "unexpected EOF"},
		{name: "read up to the value only", rule: 30, ptr: "/next",
			pages: map[string]bodyPage{
				"/1": {body: `{"next": "/2", "data": [` + strings.Repeat(`"x",`, 1000) + `"x"]} and then no JSON`},
				"/2": {body: `{}`},
			},
			want: []string{"/1", "/2"}},
		{name: "first member counts", rule: 30, ptr: "/next",
			pages: map[string]bodyPage{
				"/1": {body: `{"next": "/2", "next": "/9"}`},
				"/2": {body: `{"next": null, "next": "/9"}`},
			},
			want: []string{"/1", "/2"}},
		{name: "no content", rule: 30, ptr: "/next",
			pages: map[string]bodyPage{"/1": {status: http.StatusNoContent}}, want: []string{"/1"}},
		{name: "relative to the page", rule: 31, ptr: "/@odata.nextLink",
			pages: map[string]bodyPage{
				"/a/1?x=1": {body: `{"@odata.nextLink": "2?x=2"}`},
				"/a/2?x=2": {body: `{"value": []}`},
			},
			want: []string{"/a/1?x=1", "/a/2?x=2"}},
		{name: "javascript:", rule: 31, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": "javascript:alert(1)"}`}},
			want:  []string{"/1"}, err: paging.ErrScheme},
		{name: "another origin", rule: 31, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": "https://example.com/2"}`}},
			want:  []string{"/1"}, err: paging.ErrCrossOrigin},
		{name: "loop", rule: 31, ptr: "/next",
			pages: map[string]bodyPage{
				"/1": {body: `{"next": "/2"}`},
				"/2": {body: `{"next": "/1#again"}`},
			},
			want: []string{"/1", "/2"}, err: paging.ErrLoop},
		{name: "max pages", rule: 31, ptr: "/next", opts: []paging.Option{paging.MaxPages(1)},
			pages: map[string]bodyPage{"/1": {body: `{"next": "/2"}`}},
			want:  []string{"/1"}, err: paging.ErrMaxPages},
		{name: "too long", rule: 31, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": "/` + long + `"}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "64 KiB"},
		{name: "invalid UTF-8", rule: 31, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: "{\"next\": \"/2\xff\"}"}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "UTF-8"},
		{name: "lone surrogate", rule: 31, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": "/2\ud800"}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "UTF-8"},
		{name: "control character", rule: 31, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": "/2\r\nX-Evil: 1"}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "control"},
		{name: "not a URI reference", rule: 31, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"next": "http://[::1"}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "not a URI reference"},
		{name: "escapes", rule: 32, ptr: "/a~1b/c~0d",
			pages: map[string]bodyPage{
				"/1": {body: `{"a": {"c~d": "/x"}, "a/b": {"c/d": "/x", "c~d": "/2"}}`},
				"/2": {body: `{"a/b": {"c~d": null}}`},
			},
			want: []string{"/1", "/2"}},
		{name: "array index", rule: 32, ptr: "/links/1",
			pages: map[string]bodyPage{
				"/1": {body: `{"links": ["/9", "/2"]}`},
				"/2": {body: `{"links": ["/9"]}`},
			},
			want: []string{"/1", "/2"}},
		{name: "dash", rule: 32, ptr: "/links/-",
			pages: map[string]bodyPage{"/1": {body: `{"links": ["/9", "/2"]}`}}, want: []string{"/1"}},
		{name: "name in an array", rule: 32, ptr: "/links/next",
			pages: map[string]bodyPage{"/1": {body: `{"links": ["/2"]}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "not an index"},
		{name: "leading zero", rule: 32, ptr: "/links/01",
			pages: map[string]bodyPage{"/1": {body: `{"links": ["/2", "/3"]}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "not an index"},
		{name: "without a slash", rule: 32, ptr: "links/next",
			pages: map[string]bodyPage{"/1": {body: `{}`}}, msg: `write "/links/next"`},
		{name: "fragment form", rule: 32, ptr: "#/links/next",
			pages: map[string]bodyPage{"/1": {body: `{}`}}, msg: `without the "#"`},
		{name: "bad escape", rule: 32, ptr: "/a~b",
			pages: map[string]bodyPage{"/1": {body: `{}`}}, msg: `write "/a~0b"`},
		{name: "10 000 levels", rule: 33, ptr: "/next",
			pages: map[string]bodyPage{
				"/1": {body: `{"deep": ` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `, "next": "/2"}`},
				"/2": {body: `{}`},
			},
			want: []string{"/1", "/2"}},
		{name: "deeper", rule: 33, ptr: "/next",
			pages: map[string]bodyPage{"/1": {body: `{"deep": ` + strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000) + `, "next": "/2"}`}},
			want:  []string{"/1"}, err: paging.ErrNextLink, msg: "deeper than 10000"},
		{name: "parallel pages one at a time", rule: 35, ptr: "/next", opts: []paging.Option{paging.Parallel(4)},
			pages: map[string]bodyPage{
				"/p?page=1": {link: `</p?page=2>; rel="next", </p?page=3>; rel="last"`, body: `{}`},
				"/p?page=2": {link: `</p?page=3>; rel="next", </p?page=3>; rel="last"`, body: `{}`},
				"/p?page=3": {link: `</p?page=3>; rel="last"`, body: `{"next": "/p?page=4"}`},
				"/p?page=4": {body: `{}`},
			},
			want: []string{"/p?page=1", "/p?page=2", "/p?page=3", "/p?page=4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newBodyAPI(t, tc.pages)
			start := "/1"
			if tc.want != nil {
				start = tc.want[0]
			}
			opts := append([]paging.Option{paging.NextInBody(tc.ptr)}, tc.opts...)
			got, err := bodyPages(t, a, tc.pages, start, opts...)
			if !slices.Equal(got, tc.want) {
				t.Errorf("rule %d: pages %q, want %q", tc.rule, got, tc.want)
			}
			switch {
			case tc.err == nil && tc.msg == "" && err != nil:
				t.Errorf("rule %d: error %v, want none", tc.rule, err)
			case tc.err != nil && !errors.Is(err, tc.err):
				t.Errorf("rule %d: error %v, want %v", tc.rule, err, tc.err)
			case tc.msg != "" && (err == nil || !strings.Contains(err.Error(), tc.msg)):
				t.Errorf("rule %d: error %v, want one saying %q", tc.rule, err, tc.msg)
			}
			if tc.want == nil && len(a.uris()) > 0 {
				t.Errorf("rule %d: %d requests sent with an invalid pointer", tc.rule, len(a.uris()))
			}
			if tc.rule == 35 {
				if reqs := a.uris(); !slices.Equal(reqs, tc.want) {
					t.Errorf("requests %q, want one per page, in order: %q", reqs, tc.want)
				}
			}
		})
	}
}

// repeatBody is a generated body: head, then fill repeated as many whole
// times as fit in size bytes with tail, then tail; it is never held in
// memory.
type repeatBody struct {
	head, fill, tail string
	size, off        int64
}

func (b *repeatBody) Read(p []byte) (int, error) {
	head, fill, tail := int64(len(b.head)), int64(len(b.fill)), int64(len(b.tail))
	fillEnd := head + (b.size-head-tail)/fill*fill
	n := 0
	for ; n < len(p) && b.off < fillEnd+tail; n++ {
		switch {
		case b.off < head:
			p[n] = b.head[b.off]
		case b.off >= fillEnd:
			p[n] = b.tail[b.off-fillEnd]
		default:
			p[n] = b.fill[(b.off-head)%fill]
		}
		b.off++
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

func (b *repeatBody) Close() error { return nil }

// generatedPages is a RoundTripper that answers every request with a new
// body from body().
type generatedPages func() io.ReadCloser

func (g generatedPages) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Status: "200 OK", Header: http.Header{}, Body: g(), Request: req}, nil
}

// measure runs f and returns the most heap it had in use at once, as
// sampled every millisecond, and how long it took.
func measure(f func()) (uint64, time.Duration) {
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		var m runtime.MemStats
		var most uint64
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&m)
			most = max(most, m.HeapAlloc)
			select {
			case <-done:
				peak <- most - min(most, base.HeapAlloc)
				return
			case <-tick.C:
			}
		}
	}()
	start := time.Now()
	f()
	d := time.Since(start)
	close(done)
	return <-peak, d
}

// TestNextInBodyHostile: what a peer sends ends with a clear error, in
// bounded memory, never a silent stop (rules 29 to 31, 33).
func TestNextInBodyHostile(t *testing.T) {
	giB := int64(1 << 30)
	if testing.Short() {
		giB = 64 << 20 // the read stops at 16 MiB either way
	}
	for _, tc := range []struct {
		name     string
		ptr      string
		body     func() io.ReadCloser
		err      error
		msg      string
		maxAlloc uint64
	}{
		{"1 GiB, the link at the end", "/links/next", func() io.ReadCloser {
			return &repeatBody{head: `{"data": [`, fill: `{"id": "1", "type": "t"},`, tail: `{}], "links": {"next": "/2"}}`, size: giB}
		}, paging.ErrNextLink, "first 16 MiB of the body", 128 << 20},
		{"a 10 MB link", "/next", func() io.ReadCloser {
			return &repeatBody{head: `{"next": "/`, fill: "a", tail: `"}`, size: 10 << 20}
		}, paging.ErrNextLink, "64 KiB", 128 << 20},
		{"a million levels", "/next", func() io.ReadCloser {
			return &repeatBody{head: `{"a": `, fill: "[", tail: "", size: 1 << 20}
		}, paging.ErrNextLink, "deeper than 10000", 32 << 20},
		{"a 1 GiB string", "/next", func() io.ReadCloser {
			return &repeatBody{head: `{"a": "`, fill: "x", tail: `", "next": "/2"}`, size: giB}
		}, paging.ErrNextLink, "first 16 MiB of the body", 128 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client := &http.Client{Transport: generatedPages(tc.body)}
			req, _ := http.NewRequest(http.MethodGet, "https://api.example/1", nil)
			var err error
			pages := 0
			alloc, d := measure(func() {
				for _, e := range paging.Pages(context.Background(), client, req, paging.NextInBody(tc.ptr)) {
					if e != nil {
						err = e
						break
					}
					pages++
				}
			})
			if pages != 1 || !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%d pages, error %v; want 1 page, then %v saying %q", pages, err, tc.err, tc.msg)
			}
			if alloc > tc.maxAlloc {
				t.Errorf("%d MiB of heap in use, want at most %d MiB", alloc>>20, tc.maxAlloc>>20)
			}
			t.Logf("%v, at most %d MiB of heap in use", d, alloc>>20)
		})
	}
}

// arrayAtEnd is a page of size bytes whose array, [1, 2, 3] at "/data",
// comes after an array of objects that is skipped.
func arrayAtEnd(size int64) *repeatBody {
	return &repeatBody{head: `{"meta": [`, fill: `{"id": "1", "n": 2.5, "ok": true},`, tail: `{}], "data": [1, 2, 3]}`, size: size}
}

// TestJSONItemsAtHostile: a long page and deep nesting before the array
// are read in memory that does not grow with them (rules 33, 34), and in
// time and allocations linear in the page: 4 MiB allocate at most 32
// bytes per page byte (18.4 measured) and 4.5 times what 1 MiB allocate
// (with -short, 1 MiB and 256 KiB), and take at most 8 times as long as 1
// MiB (memtest.Linear: processor time, best of 3, measured again up to 3
// times; not with -short).
func TestJSONItemsAtHostile(t *testing.T) {
	size := int64(256 << 20) // at 10 to 40 MB/s: skipped token by token
	if testing.Short() {
		size = 32 << 20
	}
	for _, tc := range []struct {
		name  string
		body  *repeatBody
		items int
		msg   string
	}{
		{"the array at the end", arrayAtEnd(size), 3, ""},
		{"a million levels", &repeatBody{head: `{"a": `, fill: "[", size: 1 << 20}, 0, "deeper than 10000"},
		{"10 000 levels", &repeatBody{head: `{"a": ` + strings.Repeat("[", 9999), fill: " ", tail: strings.Repeat("]", 9999) + `, "data": [7]}`, size: 1 << 20}, 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := &http.Response{StatusCode: 200, Body: tc.body}
			var items []int
			var err error
			alloc, d := measure(func() { items, err = paging.JSONItemsAt[int]("/data")(resp) })
			if tc.msg != "" {
				if err == nil || !strings.Contains(err.Error(), tc.msg) {
					t.Errorf("error %v, want one saying %q", err, tc.msg)
				}
			} else if err != nil || len(items) != tc.items {
				t.Errorf("%v, error %v; want %d items", items, err, tc.items)
			}
			if alloc > 64<<20 {
				t.Errorf("%d MiB of heap in use for a %d MiB body, want at most 64", alloc>>20, tc.body.size>>20)
			}
			t.Logf("%d MiB in %v, at most %d MiB of heap in use", tc.body.size>>20, d, alloc>>20)
		})
	}
	t.Run("linear", func(t *testing.T) {
		small, large := int64(1<<20), int64(4<<20)
		if testing.Short() {
			small, large = 256<<10, 1<<20 // the allocations are the same each run
		}
		read := func(size int64) func() {
			return func() {
				items, err := paging.JSONItemsAt[int]("/data")(&http.Response{StatusCode: 200, Body: arrayAtEnd(size)})
				if err != nil || len(items) != 3 {
					t.Errorf("%d bytes: %v, error %v; want 3 items", size, items, err)
				}
			}
		}
		// The least of 3: the counts are process-wide.
		allocated := func(f func()) uint64 {
			return min(memtest.Allocated(f), memtest.Allocated(f), memtest.Allocated(f))
		}
		as, al := allocated(read(small)), allocated(read(large))
		t.Logf("allocated %d bytes for %d KiB, %d for %d KiB: %.1f per page byte", as, small>>10, al, large>>10, float64(al)/float64(large))
		if perByte := float64(al) / float64(large); perByte > 32 {
			t.Errorf("%d KiB allocated %.1f bytes per page byte, want at most 32", large>>10, perByte)
		}
		if al > as*9/2+64<<10 {
			t.Errorf("%d bytes allocated for %d KiB but %d for %d KiB: not linear", as, small>>10, al, large>>10)
		}
		if testing.Short() {
			return // the time is measured without -short
		}
		ok, ds, dl := memtest.Linear(read(small), read(large), 8)
		t.Logf("1 MiB in %v, 4 MiB in %v of processor time", ds, dl)
		if !ok {
			t.Errorf("1 MiB in %v, 4 MiB in %v: ratio %.1f, want at most 8", ds, dl, float64(dl)/float64(ds))
		}
	})
}

// BenchmarkJSONItemsAt decodes the 100 issues of BenchmarkJSONItems's page
// (about 13 KB) wrapped as GitHub's search wraps them ("/items"), and as a
// JSON:API page whose array comes after its links and before 100 more
// issues that are skipped ("/data"), next to JSONItems on the bare array.
// Besides B/op it reports the bytes allocated per byte of the page.
func BenchmarkJSONItemsAt(b *testing.B) {
	array := issuePage(100)
	search := append(append([]byte(`{"total_count":100,"incomplete_results":false,"items":`), array...), '}')
	jsonapi := append(append(append(append([]byte(`{"links":{"self":"/issues?page=1","next":"/issues?page=2"},"meta":{"count":100},"data":`), array...), `,"included":`...), array...), '}')
	for _, bc := range []struct {
		name   string
		body   []byte
		decode func(*http.Response) ([]benchIssue, error)
	}{
		{"JSONItems", array, paging.JSONItems[benchIssue]},
		{"items", search, paging.JSONItemsAt[benchIssue]("/items")},
		{"data", jsonapi, paging.JSONItemsAt[benchIssue]("/data")},
	} {
		b.Run(bc.name, func(b *testing.B) {
			req := &http.Request{Method: http.MethodGet}
			b.SetBytes(int64(len(bc.body)))
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for range b.N {
				resp := &http.Response{StatusCode: 200, Body: io.NopCloser(bytes.NewReader(bc.body)), Request: req}
				if items, err := bc.decode(resp); err != nil || len(items) != 100 {
					b.Fatal(len(items), err)
				}
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(len(bc.body)), "allocB/pageB")
		})
	}
}

// TestNextInBodyCredentials follows, with AllowCrossOrigin, a body link to
// another origin and one from there back: the credentials of the request
// go to its origin only, never to the other one (rule 31), as for links
// of a Link header.
func TestNextInBodyCredentials(t *testing.T) {
	otherPages := map[string]bodyPage{}
	other := newBodyAPI(t, otherPages)
	home := newBodyAPI(t, map[string]bodyPage{
		"/1": {body: `{"next": "` + other.URL + `/2"}`},
		"/3": {body: `{"next": null}`},
	})
	otherPages["/2"] = bodyPage{body: `{"next": "` + home.URL + `/3"}`}
	req, _ := http.NewRequest(http.MethodGet, home.URL+"/1", nil)
	req.Header.Set("Authorization", "Bearer secret")
	req.Header.Set("Cookie", "session=secret")
	req.Header.Set("X-Api-Key", "secret")
	var got []string
	for resp, err := range paging.Pages(context.Background(), http.DefaultClient, req, paging.NextInBody("/next"), paging.AllowCrossOrigin()) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, resp.Request.URL.String())
	}
	if want := []string{home.URL + "/1", other.URL + "/2", home.URL + "/3"}; !slices.Equal(got, want) {
		t.Errorf("pages %q, want %q", got, want)
	}
	if auth := credentialsSeen(home); !slices.Equal(auth, []string{"Bearer secret|session=secret|secret", "Bearer secret|session=secret|secret"}) {
		t.Errorf("the origin of the request got credentials %q, want them on both of its pages", auth)
	}
	if auth := credentialsSeen(other); !slices.Equal(auth, []string{"||"}) {
		t.Errorf("the other origin got credentials %q, want none", auth)
	}
}

// TestNextInBodyRateLimit pages with WaitRateLimits through a page whose
// first answer is a 429: the page is asked for again after the wait and
// the link in the body of its 200 is followed; the body of the 429, which
// is not a page, is not read for a link (rules 28 and 31).
func TestNextInBodyRateLimit(t *testing.T) {
	var mu sync.Mutex
	refused := false
	var seen []string
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, r.URL.RequestURI())
		switch r.URL.RequestURI() {
		case "/1":
			io.WriteString(w, `{"next": "/2"}`)
		case "/2":
			if !refused {
				refused = true
				w.Header().Set("Retry-After", "0")
				w.WriteHeader(http.StatusTooManyRequests)
				io.WriteString(w, `{"next": "/refused"}`)
				return
			}
			io.WriteString(w, `{"next": "/3"}`)
		case "/3":
			io.WriteString(w, `{"next": null}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer s.Close()
	req, _ := http.NewRequest(http.MethodGet, s.URL+"/1", nil)
	var got []string
	for resp, err := range paging.Pages(context.Background(), s.Client(), req, paging.NextInBody("/next"), paging.WaitRateLimits(5*time.Second)) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, resp.Request.URL.RequestURI())
	}
	if want := []string{"/1", "/2", "/3"}; !slices.Equal(got, want) {
		t.Errorf("pages %q, want %q", got, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"/1", "/2", "/2", "/3"}; !slices.Equal(seen, want) {
		t.Errorf("requests %q, want %q (the refused page asked for again)", seen, want)
	}
}

// TestNextInBodyResume stops a run of Items in BeforeNext after page k,
// keeping next.URL as the checkpoint, and resumes from it: the second run
// yields exactly the items after page k, so that the two give each item
// once, in order (rules 4 and 31). The body links are written in each of
// their forms: absolute, a link object, relative to the page.
func TestNextInBodyResume(t *testing.T) {
	next := map[int]string{
		1: `"{base}/articles?page=2"`,
		2: `{"href": "/articles?page=3"}`,
		3: `"?page=4"`,
		4: `{"href": "{base}/articles?page=5", "meta": {"page": 5}}`,
		5: `null`,
	}
	pages := map[string]bodyPage{}
	var all []int
	for p := 1; p <= 5; p++ {
		ids := []string{}
		for i := 3*p - 2; i <= 3*p; i++ {
			ids = append(ids, `{"type": "articles", "id": `+strconv.Itoa(i)+`}`)
			all = append(all, i)
		}
		pages["/articles?page="+strconv.Itoa(p)] = bodyPage{body: `{"data": [` + strings.Join(ids, ", ") + `], "links": {"self": "?page=` + strconv.Itoa(p) + `", "next": ` + next[p] + `}}`}
	}
	a := newBodyAPI(t, pages)
	type article struct {
		ID int `json:"id"`
	}
	errStop := errors.New("stopped")
	// run yields the items from checkpoint on, and stops after page stop
	// (0: never), returning the checkpoint then.
	run := func(checkpoint string, stop int) (items []int, resume string, err error) {
		req, _ := http.NewRequest(http.MethodGet, checkpoint, nil)
		page := 0
		save := paging.BeforeNext(func(_ *http.Response, next *http.Request) error {
			resume = next.URL.String() // every item before it is done
			if page++; page == stop {
				return errStop
			}
			return nil
		})
		for it, err := range paging.Items(context.Background(), a.Client(), req, paging.JSONItemsAt[article]("/data"), paging.NextInBody("/links/next"), save) {
			if err != nil {
				return items, resume, err
			}
			items = append(items, it.ID)
		}
		return items, "", nil
	}
	for k := 1; k <= 4; k++ {
		first, checkpoint, err := run(a.URL+"/articles?page=1", k)
		if !errors.Is(err, errStop) {
			t.Fatalf("stop after page %d: error %v, want it stopped", k, err)
		}
		if want := a.URL + "/articles?page=" + strconv.Itoa(k+1); checkpoint != want {
			t.Errorf("stop after page %d: checkpoint %q, want %q", k, checkpoint, want)
		}
		rest, _, err := run(checkpoint, 0)
		if err != nil {
			t.Fatalf("resume after page %d: %v", k, err)
		}
		if !slices.Equal(first, all[:3*k]) || !slices.Equal(rest, all[3*k:]) {
			t.Errorf("stop after page %d: items %v, then %v on resuming; want %v, then %v", k, first, rest, all[:3*k], all[3*k:])
		}
	}
}

// credentialsSeen returns the credentials each request to a carried, as
// Authorization|Cookie|X-Api-Key.
func credentialsSeen(a *api) []string {
	var out []string
	for _, r := range a.requests() {
		out = append(out, r.Header.Get("Authorization")+"|"+r.Header.Get("Cookie")+"|"+r.Header.Get("X-Api-Key"))
	}
	return out
}

// TestPointerBigNumber reads bodies with a number beyond float64 (valid
// JSON, RFC 8259 §6) before or after the value at the pointer, with and
// without a run of whitespace in front of it: the number is skipped as any
// other (rule 33), whatever the decoder happens to have buffered.
func TestPointerBigNumber(t *testing.T) {
	spaces := strings.Repeat(" ", 100)
	for _, gap := range []string{"", spaces} {
		before := `{"total":` + gap + `1e400,"links":{"next":"/p2"},"data":[1,2]}`
		after := `{"links":{"next":"/p2"},"data":[1,2],"total":` + gap + `1e400}`
		for _, body := range []string{before, after} {
			resp := &http.Response{StatusCode: 200, Request: &http.Request{Method: http.MethodGet}, Body: io.NopCloser(strings.NewReader(body))}
			items, err := paging.JSONItemsAt[int]("/data")(resp)
			if err != nil || !slices.Equal(items, []int{1, 2}) {
				t.Errorf("JSONItemsAt(%q) = %v, %v; want [1 2]", body, items, err)
			}
			pages := map[string]string{"/p1": body, "/p2": `{}`}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, pages[r.URL.Path])
			}))
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/p1", nil)
			var got []string
			for resp, err := range paging.Pages(context.Background(), srv.Client(), req, paging.NextInBody("/links/next")) {
				if err != nil {
					t.Errorf("Pages over %q: %v", body, err)
					break
				}
				got = append(got, resp.Request.URL.Path)
			}
			srv.Close()
			if !slices.Equal(got, []string{"/p1", "/p2"}) {
				t.Errorf("Pages over %q yielded %v, want [/p1 /p2]", body, got)
			}
		}
	}
}
