package paging_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/rawpeer"
	"github.com/weblinking/weblink/paging"
)

func equalAny[T any](a, b T) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

func TestItems(t *testing.T) {
	a := newAPI(t, 4, nextOnly(4))
	seq := paging.Items(context.Background(), nil, getItems(t, a.URL), paging.JSONItems[int])
	for range 2 { // each range starts again from req
		items, err := collectItems(t, seq)
		if err != nil || !slices.Equal(items, itemsUpTo(1, 4)) {
			t.Errorf("items %v, error %v; want %v", items, err, itemsUpTo(1, 4))
		}
	}
	if got := len(a.requests()); got != 8 {
		t.Errorf("%d requests, want 8", got)
	}
}

func TestItemsOptionsAndSafety(t *testing.T) {
	for _, tc := range []struct {
		name  string
		links func(string, int) []string
		opts  []paging.Option
		items []int
		err   error
	}{
		{"MaxPages", nextOnly(5), []paging.Option{paging.MaxPages(2)}, itemsUpTo(1, 2), paging.ErrMaxPages},
		{"loop", func(_ string, p int) []string { return []string{`</items?page=1>; rel="next"`} }, nil, pageItems(1), paging.ErrLoop},
		{"scheme", func(string, int) []string { return []string{`<file:///etc/passwd>; rel="next"`} }, nil, pageItems(1), paging.ErrScheme},
		{"origin", func(string, int) []string { return []string{`<http://other.example/items?page=2>; rel="next"`} }, nil, pageItems(1), paging.ErrCrossOrigin},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAPI(t, 5, tc.links)
			items, err := collectItems(t, paging.Items(context.Background(), nil, getItems(t, a.URL), paging.JSONItems[int], tc.opts...))
			if !slices.Equal(items, tc.items) || !errors.Is(err, tc.err) {
				t.Errorf("items %v, error %v; want %v, %v", items, err, tc.items, tc.err)
			}
		})
	}
	t.Run("status error", func(t *testing.T) {
		a := newAPI(t, 2, func(base string, p int) []string {
			return []string{`</items?page=` + fmt.Sprint(p+1) + `>; rel="next"`}
		})
		items, err := collectItems(t, paging.Items(context.Background(), nil, getItems(t, a.URL), paging.JSONItems[int]))
		var se *paging.StatusError
		if !slices.Equal(items, itemsUpTo(1, 2)) || !errors.As(err, &se) || se.StatusCode != 404 {
			t.Fatalf("items %v, error %v; want pages 1-2 and a 404", items, err)
		}
		if !strings.Contains(err.Error(), "/items?page=3") {
			t.Errorf("error %q does not name the page", err)
		}
	})
}

func TestItemsDecodeErrorOnPage2(t *testing.T) {
	a := newAPI(t, 3, nextOnly(3), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("page") == "2" {
				w.Header().Set("Link", `</items?page=3>; rel="next"`)
				fmt.Fprint(w, `{"message": "not an array"}`)
				return
			}
			items.ServeHTTP(w, r)
		})
	})
	items, err := collectItems(t, paging.Items(context.Background(), nil, getItems(t, a.URL), paging.JSONItems[int]))
	if !slices.Equal(items, pageItems(1)) {
		t.Errorf("items %v, want page 1's %v", items, pageItems(1))
	}
	var jerr *json.UnmarshalTypeError
	if !errors.As(err, &jerr) {
		t.Fatalf("error %v does not wrap the decode error", err)
	}
	if want := `"` + a.URL + `/items?page=2"`; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name %s", err, want)
	}
	if got := len(a.requests()); got != 2 {
		t.Errorf("%d requests, want 2: nothing after the page that did not decode", got)
	}
}

func TestItemsDecodeErrorWrapped(t *testing.T) {
	a := newAPI(t, 2, nextOnly(2))
	errBad := errors.New("bad item")
	decode := func(resp *http.Response) ([]int, error) {
		if resp.Request.URL.Query().Get("page") == "2" {
			return []int{99}, errBad // items returned with an error are not yielded
		}
		return paging.JSONItems[int](resp)
	}
	items, err := collectItems(t, paging.Items(context.Background(), nil, getItems(t, a.URL), decode))
	if !slices.Equal(items, pageItems(1)) || !errors.Is(err, errBad) {
		t.Errorf("items %v, error %v; want %v and %v", items, err, pageItems(1), errBad)
	}
}

func TestItemsBreakMidPageLeaksNothing(t *testing.T) {
	const pages = 4
	before := runtime.NumGoroutine()
	for _, breakAt := range []int{1, 2, perPage + 2, pages * perPage} {
		t.Run(fmt.Sprint(breakAt), func(t *testing.T) {
			a := newAPI(t, pages, nextOnly(pages))
			client, tr := newClient(t)
			// A request context of its own, and rate limits waited out: the
			// paths that join two contexts and set timers.
			rctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			req := getItems(t, a.URL).WithContext(rctx)
			n := 0
			for item, err := range paging.Items(context.Background(), client, req, paging.JSONItems[int], paging.WaitRateLimits(time.Minute)) {
				if err != nil {
					t.Fatal(err)
				}
				n++
				if item != n {
					t.Fatalf("item %d is %d", n, item)
				}
				if n == breakAt {
					break
				}
			}
			if want := (breakAt + perPage - 1) / perPage; len(a.requests()) != want {
				t.Errorf("%d requests, want %d", len(a.requests()), want)
			}
			tr.CloseIdleConnections()
			waitFor(t, "connections to close", func() bool { return a.open.Load() == 0 })
		})
	}
	waitFor(t, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
	t.Logf("goroutines: %d before, %d after", before, runtime.NumGoroutine())
}

func TestJSONItems(t *testing.T) {
	get, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1/items", nil)
	head, _ := http.NewRequest(http.MethodHead, "http://127.0.0.1/items", nil)
	for _, tc := range []struct {
		name   string
		req    *http.Request
		status int
		body   string
		want   []int
		err    bool
	}{
		{"array", get, 200, `[1, 2, 3]`, []int{1, 2, 3}, false},
		{"empty array", get, 200, `[]`, []int{}, false},
		{"whitespace around", get, 200, " \n[4]\n ", []int{4}, false},
		{"empty body", get, 200, ``, nil, false},
		{"only whitespace", get, 200, "\r\n", nil, false},
		{"null", get, 200, `null`, nil, false},
		{"204", get, 204, ``, nil, false},
		{"HEAD", head, 200, ``, nil, false},
		{"object", get, 200, `{"items": [1]}`, nil, true},
		{"wrong item type", get, 200, `["a"]`, nil, true},
		{"cut short", get, 200, `[1, 2`, nil, true},
		{"trailing data", get, 200, `[1] [2]`, nil, true},
		{"trailing garbage", get, 200, `[1]x`, nil, true},
		{"trailing comma", get, 200, `[1,]`, nil, true},
		{"only [", get, 200, `[`, nil, true},
		{"string", get, 200, `"[1]"`, nil, true},
		{"number", get, 200, `1`, nil, true},
		{"null then data", get, 200, `null [1]`, nil, true},
		{"nested", get, 200, `[[1]]`, nil, true},
		{"null items", get, 200, `[null, 2]`, []int{0, 2}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			rec.WriteHeader(tc.status)
			rec.WriteString(tc.body)
			resp := rec.Result()
			resp.Request = tc.req
			got, err := paging.JSONItems[int](resp)
			if (err != nil) != tc.err || !slices.Equal(got, tc.want) || (got == nil) != (tc.want == nil) && !tc.err {
				t.Errorf("JSONItems = %#v, %v; want %#v, error %v", got, err, tc.want, tc.err)
			}
		})
	}
}

func TestLinksAllRel(t *testing.T) {
	links, err := weblink.Parse(`</a>; rel="alternate", </b>; rel="describedby"; type="application/ld+json", ` +
		`</c>; rel="ALTERNATE up", </d>; rel="describedby"; type="text/turtle", </e>; rel="alternate"`)
	if err != nil {
		t.Fatal(err)
	}
	targets := func(ls weblink.Links) []string {
		var out []string
		for _, l := range ls {
			out = append(out, l.Target)
		}
		return out
	}
	for _, tc := range []struct {
		rel  string
		want []string
	}{
		{"alternate", []string{"/a", "/c", "/e"}},
		{"Alternate", []string{"/a", "/c", "/e"}},
		{"describedby", []string{"/b", "/d"}},
		{"up", []string{"/c"}},
		{"next", nil},
		{"", nil},
	} {
		got := links.AllRel(tc.rel)
		if !slices.Equal(targets(got), tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("AllRel(%q) = %q, want %q", tc.rel, targets(got), tc.want)
		}
	}
	if got := weblink.Links(nil).AllRel("next"); got != nil {
		t.Errorf("nil Links: %v", got)
	}
	// The result is a copy: changing it leaves links alone.
	all := links.AllRel("alternate")
	all[0].Target = "/changed"
	if links[0].Target != "/a" {
		t.Errorf("AllRel shares its links with ls")
	}
}

// FuzzJSONItems checks JSONItems, which decodes element by element, against
// json.Unmarshal of the whole body: the same items, or an error from both
// (a body of only whitespace is no items, where Unmarshal fails).
func FuzzJSONItems(f *testing.F) {
	for _, s := range []string{`[1, 2, 3]`, `[]`, `null`, ``, ` `, `[1,]`, `[`, `{"a": [1]}`, `[[1], {"a": null}]`,
		`["a", 1.5e3, true, null]`, `[1] [2]`, `[1]x`, `[1, 2`, `"x"`, `[{"number": 1, "title": "\u00e9"}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		decode := func(body string) ([]any, error) {
			resp := &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(body)), Request: &http.Request{Method: http.MethodGet}}
			return paging.JSONItems[any](resp)
		}
		got, err := decode(body)
		var want []any
		werr := json.Unmarshal([]byte(body), &want)
		if strings.TrimLeft(body, " \t\r\n") == "" {
			if got != nil || err != nil {
				t.Fatalf("JSONItems(%q) = %v, %v; want no items", body, got, err)
			}
			return
		}
		if (err == nil) != (werr == nil) {
			t.Fatalf("JSONItems(%q): error %v; json.Unmarshal: %v", body, err, werr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("JSONItems(%q) = %#v; json.Unmarshal: %#v", body, got, want)
		}
		if ints, ierr := paging.JSONItems[int](&http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(body))}); ierr != nil && ints != nil {
			t.Fatalf("JSONItems[int](%q) = %v with error %v", body, ints, ierr)
		}
	})
}

// A decode cut short by a deadline of req.Context() matches
// context.DeadlineExceeded, as the other errors of a done context do.
func TestItemsDecodeDeadline(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("[1,"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	for _, which := range []string{"ctx", "req.Context()"} {
		t.Run(which, func(t *testing.T) {
			dctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			ctx, req := context.Background(), getItems(t, srv.URL)
			if which == "ctx" {
				ctx = dctx
			} else {
				req = req.WithContext(dctx)
			}
			_, err := collectItems(t, paging.Items(ctx, nil, req, paging.JSONItems[int]))
			t.Logf("error: %v", err)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("error %v does not match context.DeadlineExceeded", err)
			}
		})
	}
}

// JSONItems holds no copy of the whole page: what it allocates per byte of
// a large page stays near what the items themselves take.
func TestJSONItemsMemory(t *testing.T) {
	type issue struct {
		Number int
		Title  string
	}
	el := `{"Number":12345,"Title":"` + strings.Repeat("x", 80) + `"},`
	var perByte []float64
	for _, size := range []int{4 << 20, 16 << 20} {
		body := "[" + strings.Repeat(el, size/len(el)) + `{"Number":1,"Title":""}]`
		resp := &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(body)), Request: &http.Request{Method: http.MethodGet}}
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		items, err := paging.JSONItems[issue](resp)
		runtime.ReadMemStats(&m1)
		if err != nil || len(items) != size/len(el)+1 {
			t.Fatalf("%d items, error %v", len(items), err)
		}
		perByte = append(perByte, float64(m1.TotalAlloc-m0.TotalAlloc)/float64(len(body)))
	}
	t.Logf("bytes allocated per body byte: %.2f for 4 MiB, %.2f for 16 MiB", perByte[0], perByte[1])
	for _, b := range perByte {
		if b > 3 {
			t.Errorf("%.2f bytes allocated per body byte, want at most 3 (the items take about 1.3)", b)
		}
	}
}

// Items with a nil decode says so, before any request, rather than panic
// on the first page.
func TestItemsNilDecode(t *testing.T) {
	a := newAPI(t, 2, nextOnly(2))
	var got error
	func() {
		defer func() {
			if r := recover(); r != nil {
				got = fmt.Errorf("panic: %v", r)
			}
		}()
		_, got = collectItems(t, paging.Items[int](context.Background(), nil, getItems(t, a.URL), nil))
	}()
	if got == nil || strings.HasPrefix(got.Error(), "panic") || len(a.requests()) != 0 {
		t.Errorf("error %v after %d requests; want an error and none", got, len(a.requests()))
	}
}

// The way docs/pagination.md caps a page's size: a decode function of
// one's own around JSONItems.
func TestItemsCappedDecode(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("[" + strings.Repeat("1,", 1<<20) + "1]"))
	}))
	defer srv.Close()
	capped := func(resp *http.Response) ([]int, error) {
		resp.Body = http.MaxBytesReader(nil, resp.Body, 64<<10)
		return paging.JSONItems[int](resp)
	}
	items, err := collectItems(t, paging.Items(context.Background(), nil, getItems(t, srv.URL), capped))
	var tooLarge *http.MaxBytesError
	if len(items) != 0 || !errors.As(err, &tooLarge) || !strings.Contains(err.Error(), srv.URL+"/items?page=1") {
		t.Errorf("%d items, error %v; want none and a *http.MaxBytesError naming the page", len(items), err)
	}
}

// A chunked body whose trailer net/http rejects: the decode error of Items
// carries that line, escaped (rule 36).
func TestItemsTrailerErrorEscapes(t *testing.T) {
	base := rawpeer.Serve(t, func(string) string {
		return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n[1,\r\n0\r\nX\x1b]0;PWNED\x07: 1\r\n\r\n"
	})
	client, _ := newClient(t)
	var err error
	for _, e := range paging.Items(context.Background(), client, getItems(t, base), paging.JSONItems[int]) {
		if e != nil {
			err = e
		}
	}
	if err == nil {
		t.Fatal("no error")
	}
	if c, bad := unsafeInError(err.Error()); bad {
		t.Fatalf("message %q carries %U raw", err, c)
	}
}

// store is what a long run keeps, as a database would: the items of the
// finished pages and the checkpoint, committed together in BeforeNext (rule
// 4), and the items of the page under way, lost in a crash.
type store struct {
	checkpoint string // the URL of the next page not started; "" to start from the first
	done       bool
	committed  []int
	pending    []int
}

// stop is how a run ends early at an item.
type stop int

const (
	goOn stop = iota
	returns
	panics
)

var errStopped = errors.New("stopped")

// run pages the api from the checkpoint, calling at for each item, and
// reports how the run ended. A panic is recovered here, as a supervisor
// restarting a job would.
func (s *store) run(base string, at func(item int) stop) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
		s.pending = nil // not committed: the crash loses it
	}()
	from := s.checkpoint
	if from == "" {
		from = base + "/items?page=1"
	}
	req, err := http.NewRequest(http.MethodGet, from, nil)
	if err != nil {
		return err
	}
	commit := paging.BeforeNext(func(_ *http.Response, next *http.Request) error {
		s.committed = append(s.committed, s.pending...)
		s.pending = nil
		s.checkpoint = next.URL.String()
		return nil
	})
	for item, err := range paging.Items(context.Background(), nil, req, paging.JSONItems[int], commit) {
		if err != nil {
			return err
		}
		switch at(item) {
		case returns:
			return errStopped
		case panics:
			panic("crash at item " + fmt.Sprint(item))
		}
		s.pending = append(s.pending, item)
	}
	s.committed = append(s.committed, s.pending...)
	s.checkpoint, s.done = "", true
	return nil
}

// TestItemsResume stops a run of 10 pages mid-way, by a loop body that
// returns, a panic or a server error, and resumes it from its checkpoint:
// every item is committed exactly once across both runs, and the second
// run requests no page that the first finished.
func TestItemsResume(t *testing.T) {
	const pages = 10
	for _, tc := range []struct {
		name      string
		item      int  // where the first run stops
		how       stop // goOn: a 500 on that page instead
		firstPage int  // of the second run
	}{
		{"return at the first item", 1, returns, 1},
		{"return at a page's last item", 12, returns, 4},
		{"return mid-page", 14, returns, 5},
		{"return at the last item", 30, returns, 10},
		{"panic at the first item of a page", 19, panics, 7},
		{"panic mid-page", 23, panics, 8},
		{"server error on page 6", 6, goOn, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			failed := false
			a := newAPI(t, pages, nextOnly(pages), func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if tc.how == goOn && r.URL.Query().Get("page") == fmt.Sprint(tc.item) && !failed {
						failed = true
						http.Error(w, "try later", http.StatusInternalServerError)
						return
					}
					h.ServeHTTP(w, r)
				})
			})
			var s store
			err := s.run(a.URL, func(item int) stop {
				if item == tc.item {
					return tc.how
				}
				return goOn
			})
			if err == nil || s.done {
				t.Fatalf("first run ended with %v, done %v; want it stopped", err, s.done)
			}
			t.Logf("first run: %v; checkpoint %q", err, strings.TrimPrefix(s.checkpoint, a.URL))
			before := len(a.requests())
			if err := s.run(a.URL, func(int) stop { return goOn }); err != nil || !s.done {
				t.Fatalf("second run: %v, done %v", err, s.done)
			}
			if want := itemsUpTo(1, pages); !slices.Equal(s.committed, want) {
				t.Errorf("committed %v, want %v, each once", s.committed, want)
			}
			second := a.uris()[before:]
			var want []string
			for p := tc.firstPage; p <= pages; p++ {
				want = append(want, fmt.Sprintf("/items?page=%d", p))
			}
			if !slices.Equal(second, want) {
				t.Errorf("second run requested %v, want %v", second, want)
			}
		})
	}
}

// BenchmarkJSONItems decodes a page of 100 issues (about 13 KB).
func BenchmarkJSONItems(b *testing.B) {
	body := issuePage(100)
	req := &http.Request{Method: http.MethodGet}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for range b.N {
		resp := &http.Response{StatusCode: 200, Body: io.NopCloser(bytes.NewReader(body)), Request: req}
		if _, err := paging.JSONItems[benchIssue](resp); err != nil {
			b.Fatal(err)
		}
	}
}
