package paging_test

import (
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
	"github.com/weblinking/weblink/paging"
)

// collectItems ranges over seq and returns the items yielded before the
// error, and the error, checking that nothing follows the error.
func collectItems[T any](t *testing.T, seq func(func(T, error) bool)) ([]T, error) {
	t.Helper()
	var items []T
	var got error
	for item, err := range seq {
		if got != nil {
			t.Fatalf("yielded (%v, %v) after the error %v", item, err, got)
		}
		if err != nil {
			var zero T
			if !equalAny(item, zero) {
				t.Errorf("error %v yielded with item %v, want the zero value", err, item)
			}
			got = err
			continue
		}
		items = append(items, item)
	}
	return items, got
}

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
