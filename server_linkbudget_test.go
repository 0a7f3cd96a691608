package weblink

import (
	"errors"
	"fmt"
	"io"
	"log"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weblinking/weblink/internal/memtest"
)

// head is a response head a headRecorder saw written.
type head struct {
	code  int
	links []string // the Link field lines; nil: no Link field
}

// headRecorder records every head written through it, with its Link lines.
type headRecorder struct {
	h     http.Header
	heads []head
	final bool
}

func newHeadRecorder() *headRecorder { return &headRecorder{h: http.Header{}} }

func (w *headRecorder) Header() http.Header { return w.h }

func (w *headRecorder) WriteHeader(code int) {
	if w.final {
		return
	}
	w.heads = append(w.heads, head{code, slices.Clone(w.h["Link"])})
	w.final = code >= 200 || code == http.StatusSwitchingProtocols
}

func (w *headRecorder) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return len(b), nil
}

func (w *headRecorder) ReadFrom(r io.Reader) (int64, error) {
	w.WriteHeader(http.StatusOK)
	return io.Copy(io.Discard, r)
}

func (w *headRecorder) Flush() { w.WriteHeader(http.StatusOK) }

// serve runs h with w, and writes the final head after it when h wrote
// none, as net/http does.
func (w *headRecorder) serve(h http.Handler, r *http.Request) {
	h.ServeHTTP(w, r)
	w.WriteHeader(http.StatusOK)
}

// droppedCalls records the calls of a dropped function: the targets of
// the links of each, as one string.
type droppedCalls struct {
	mu    sync.Mutex
	calls []string
}

func (d *droppedCalls) record(r *http.Request, dropped Links) {
	var targets []string
	for _, l := range dropped {
		targets = append(targets, l.Target)
	}
	d.mu.Lock()
	d.calls = append(d.calls, strings.Join(targets, " "))
	d.mu.Unlock()
}

// TestMaxLinkBytes checks rules 27 and 28 on the heads a handler writes:
// a field within the budget is left byte for byte; one beyond it becomes
// one line holding the longest prefix that fits, and dropped gets the rest
// once a head.
func TestMaxLinkBytes(t *testing.T) {
	a := `</a>; rel="next"` // 16 bytes as Links.String writes it
	b := `</b>; rel="prev"`
	c := `</c>; rel="last"`
	tests := []struct {
		name    string
		n       int
		lines   []string
		want    []string // the Link lines written; nil: none
		dropped []string // the calls of dropped: targets of each; nil: not called
	}{
		{"within, left as written", 100, []string{"</a>;REL=next ,,  ", "</b>;rel=prev"}, []string{"</a>;REL=next ,,  ", "</b>;rel=prev"}, nil},
		{"exactly n", 32, []string{a, b}, []string{a, b}, nil},
		{"within, malformed left as written", 100, []string{"junk, </a>;; rel=next", `<b`, "\t"}, []string{"junk, </a>;; rel=next", `<b`, "\t"}, nil},
		{"no Link field", 1, nil, nil, nil},
		{"n < 1: no budget", 0, []string{a, b, c}, []string{a, b, c}, nil},
		{"negative n: no budget", -1, []string{a, b, c}, []string{a, b, c}, nil},
		// Over the budget: one line, as Links.String writes it.
		{"a prefix", 40, []string{a + ", " + b, c}, []string{a + ", " + b}, []string{"/c"}},
		{"the prefix's bytes exactly", 34, []string{a, b, c}, []string{a + ", " + b}, []string{"/c"}},
		{"one byte short of two", 33, []string{a, b, c}, []string{a}, []string{"/b /c"}},
		{"smaller than the first link", 15, []string{a, b}, nil, []string{"/a /b"}},
		{"in order: a later small link is not taken", 20,
			[]string{a, `</a-much-longer-target>; rel="next"`, `</x>`}, []string{a}, []string{"/a-much-longer-target /x"}},
		{"reformatted to fit: nothing left out", 34, []string{"</a>;      rel=next", "</b>;      rel=prev"}, []string{a + ", " + b}, nil},
		{"malformed link-values are dropped, not reported", 34,
			[]string{"</a>; rel=next, junk, </b>; rel=prev"}, []string{a + ", " + b}, []string{""}},
		{"malformed after the cut", 20,
			[]string{"</a>; rel=next, </b>; rel=prev, junk, </c>; rel=last"}, []string{a}, []string{"/b /c"}},
		{"a lower-cased relation type", 16, []string{"</a>; rel=NEXT", "</b>"}, []string{a}, []string{"/b"}},
	}
	writes := []struct {
		name  string
		write func(w http.ResponseWriter)
	}{
		{"WriteHeader", func(w http.ResponseWriter) { w.WriteHeader(http.StatusNotFound) }},
		{"Write", func(w http.ResponseWriter) { io.WriteString(w, "body") }},
		{"ReadFrom", func(w http.ResponseWriter) { w.(io.ReaderFrom).ReadFrom(strings.NewReader("body")) }},
		{"Flush", func(w http.ResponseWriter) { w.(http.Flusher).Flush() }},
		{"ResponseController.Flush", func(w http.ResponseWriter) { http.NewResponseController(w).Flush() }},
		{"nothing", func(w http.ResponseWriter) {}},
	}
	for _, tt := range tests {
		for _, wr := range writes {
			t.Run(tt.name+"/"+wr.name, func(t *testing.T) {
				var d droppedCalls
				h := MaxLinkBytes(tt.n, d.record)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if tt.lines != nil {
						w.Header()["Link"] = slices.Clone(tt.lines)
					}
					wr.write(w)
					wr.write(w) // a second write is no second head
				}))
				rec := newHeadRecorder()
				rec.serve(h, httptest.NewRequest("GET", "/", nil))
				if len(rec.heads) != 1 {
					t.Fatalf("%d heads written, want 1", len(rec.heads))
				}
				if got := rec.heads[0].links; !slices.Equal(got, tt.want) {
					t.Errorf("Link lines %q, want %q", got, tt.want)
				}
				if !slices.Equal(d.calls, tt.dropped) {
					t.Errorf("dropped called with %q, want %q", d.calls, tt.dropped)
				}
				if tt.want != nil && tt.n >= 1 {
					size := 0
					for _, v := range rec.heads[0].links {
						size += len(v)
					}
					if size > tt.n {
						t.Errorf("%d bytes of Link field, over the budget of %d", size, tt.n)
					}
				}
			})
		}
	}
}

// keyRecorder records, for every head written through it, the field lines
// of each key that is "Link" in any case.
type keyRecorder struct {
	h     http.Header
	heads []map[string][]string
}

func (w *keyRecorder) Header() http.Header { return w.h }

func (w *keyRecorder) WriteHeader(code int) {
	m := map[string][]string{}
	for k, v := range w.h {
		if strings.EqualFold(k, "Link") {
			m[k] = slices.Clone(v)
		}
	}
	w.heads = append(w.heads, m)
}

func (w *keyRecorder) Write(b []byte) (int, error) { return len(b), nil }

// TestMaxLinkBytesKeyCase checks that rules 27 and 28 budget every header
// map key that is "Link" in any case: net/http writes a "link" or "LINK"
// key set directly in the map as it is, in the order of the sorted keys,
// so the bytes of all of them reach the proxy. Beyond the budget they
// become one "Link" line; within it every key is left as it was; a 1xx
// head is budgeted on its own and the handler's keys put back after it.
func TestMaxLinkBytesKeyCase(t *testing.T) {
	a := `</a>; rel="next"` // 16 bytes
	b := `</b>; rel="prev"`
	c := `</c>; rel="last"`
	tests := []struct {
		name    string
		n       int
		fields  map[string][]string
		want    map[string][]string
		dropped string // the targets dropped from each head; "-": not called
	}{
		{"lower-case key beyond", 34, map[string][]string{"link": {a, b, c}},
			map[string][]string{"Link": {a + ", " + b}}, "/c"},
		{"each key within, the sum beyond", 20, map[string][]string{"Link": {a}, "link": {b}},
			map[string][]string{"Link": {a}}, "/b"},
		{"keys in net/http's order: LINK, Link, link", 34, map[string][]string{"link": {a}, "LINK": {b}, "Link": {c}},
			map[string][]string{"Link": {b + ", " + c}}, "/a"},
		{"within: every key as it was", 48, map[string][]string{"link": {a}, "LINK": {b}, "Link": {c}},
			map[string][]string{"link": {a}, "LINK": {b}, "Link": {c}}, "-"},
		{"nothing fits: no key left", 10, map[string][]string{"lInK": {a}},
			map[string][]string{}, "/a"},
	}
	for _, tt := range tests {
		for _, interim := range []bool{false, true} {
			t.Run(tt.name+"/interim="+strconv.FormatBool(interim), func(t *testing.T) {
				var d droppedCalls
				w := &keyRecorder{h: http.Header{"Links": {"not a Link field"}, "X-Link": {a + a + a}}}
				h := MaxLinkBytes(tt.n, d.record)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					for k, v := range tt.fields {
						w.Header()[k] = slices.Clone(v)
					}
					if interim {
						w.WriteHeader(http.StatusEarlyHints)
					}
					w.WriteHeader(http.StatusOK)
				}))
				h.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
				heads, calls := 1, []string{tt.dropped}
				if interim {
					heads, calls = 2, []string{tt.dropped, tt.dropped}
				}
				if tt.dropped == "-" {
					calls = nil
				}
				if len(w.heads) != heads {
					t.Fatalf("%d heads, want %d", len(w.heads), heads)
				}
				for i, got := range w.heads {
					if !maps.EqualFunc(got, tt.want, slices.Equal) {
						t.Errorf("head %d: Link fields %q, want %q", i, got, tt.want)
					}
				}
				if w.h.Get("Links") != "not a Link field" || w.h.Get("X-Link") != a+a+a {
					t.Errorf("other fields changed: %q", w.h)
				}
				if !slices.Equal(d.calls, calls) {
					t.Errorf("dropped called with %q, want %q", d.calls, calls)
				}
			})
		}
	}
	// On a real server, over HTTP/1.1 and HTTP/2, the client gets one
	// Link line within the budget.
	for _, h2 := range []bool{false, true} {
		t.Run("server/h2="+strconv.FormatBool(h2), func(t *testing.T) {
			h := MaxLinkBytes(34, nil)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header()["link"] = []string{a, b}
				w.Header()["Link"] = []string{c}
				io.WriteString(w, "page")
			}))
			_, resp, _ := get(t, newServer(t, h, h2), "/")
			if got, want := resp.Header["Link"], []string{c + ", " + a}; !slices.Equal(got, want) {
				t.Errorf("Link lines %q, want %q", got, want)
			}
		})
	}
}

// TestMaxLinkBytesInterim checks that every 1xx head is budgeted on its
// own, with a call of dropped each, and that the final head is budgeted
// from the field lines the handler set, not from the 103's.
func TestMaxLinkBytesInterim(t *testing.T) {
	var d droppedCalls
	h := MaxLinkBytes(20, d.record)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Link"] = []string{`</a>; rel="next"`, `</b>; rel="prev"`}
		w.WriteHeader(http.StatusEarlyHints)
		w.WriteHeader(http.StatusProcessing)
		w.Header().Add("Link", `</c>`)
		io.WriteString(w, "body")
	}))
	rec := newHeadRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	want := []head{
		{103, []string{`</a>; rel="next"`}},
		{102, []string{`</a>; rel="next"`}},
		{200, []string{`</a>; rel="next"`}},
	}
	if len(rec.heads) != len(want) {
		t.Fatalf("heads %v, want %v", rec.heads, want)
	}
	for i := range want {
		if rec.heads[i].code != want[i].code || !slices.Equal(rec.heads[i].links, want[i].links) {
			t.Errorf("head %d: %v, want %v", i, rec.heads[i], want[i])
		}
	}
	if wantCalls := []string{"/b", "/b", "/b /c"}; !slices.Equal(d.calls, wantCalls) {
		t.Errorf("dropped called with %q, want %q", d.calls, wantCalls)
	}
}

// TestMaxLinkBytesServer puts MaxLinkBytes outermost, around
// EarlyHintsMiddleware and a handler that adds links of its own, on a real
// server over HTTP/1.1 (through EarlyHintsHTTP1) and HTTP/2: the client
// gets the 103 and the final response within the budget.
func TestMaxLinkBytesServer(t *testing.T) {
	fonts := Link{Target: "/fonts.css", Rel: []string{"preload"}, Params: []Param{{Name: "as", Value: "style"}}}
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Link", `</next-page-with-a-long-name>; rel="next"`)
		io.WriteString(w, "page")
	})
	// The 103 has room for the stylesheet only; the final response for
	// the handler's link only.
	budget := len(styleLink.String()) + 2 + len(fonts.String()) - 1
	for _, h2 := range []bool{false, true} {
		t.Run("h2="+strconv.FormatBool(h2), func(t *testing.T) {
			var d droppedCalls
			h := MaxLinkBytes(budget, d.record)(EarlyHintsMiddleware(styleLink, fonts, schemaLink)(page))
			got, resp, body := get(t, newServer(t, hintsOverHTTP1(h, h2), h2), "/")
			if body != "page" {
				t.Errorf("body %q", body)
			}
			if len(got) != 1 || got[0].code != http.StatusEarlyHints {
				t.Fatalf("interim responses %v, want one 103", got)
			}
			checkLinks(t, "103", http.Header(got[0].header), "/style.css preload")
			checkLinks(t, "final", resp.Header, "/next-page-with-a-long-name next")
			if len(resp.Header["Link"]) != 1 {
				t.Errorf("final Link lines %q, want one", resp.Header["Link"])
			}
			want := []string{"/fonts.css", "/style.css /fonts.css /schema.json"}
			if !slices.Equal(d.calls, want) {
				t.Errorf("dropped called with %q, want %q", d.calls, want)
			}
		})
	}
}

// TestMaxLinkBytesWriter checks that the writer MaxLinkBytes gives the
// handler keeps http.ResponseController working through Unwrap, and
// hijacking over HTTP/1.1.
func TestMaxLinkBytesWriter(t *testing.T) {
	h := MaxLinkBytes(10, nil)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := w.(interface{ Unwrap() http.ResponseWriter }); !ok {
			t.Error("the writer has no Unwrap")
		}
		rc := http.NewResponseController(w)
		if err := rc.EnableFullDuplex(); err != nil {
			t.Errorf("EnableFullDuplex: %v", err)
		}
		w.Header().Set("Link", `</long-enough>; rel="next"`)
		if err := rc.Flush(); err != nil {
			t.Errorf("Flush: %v", err)
		}
		if r.URL.Path == "/hijack" {
			conn, rw, err := rc.Hijack()
			if err != nil {
				t.Errorf("Hijack: %v", err)
				return
			}
			defer conn.Close()
			rw.Flush()
		}
	}))
	srv := newServer(t, h, false)
	_, resp, _ := get(t, srv, "/")
	if links := resp.Header["Link"]; links != nil {
		t.Errorf("Link lines %q, want none (the link is longer than the budget)", links)
	}
}

// TestMaxLinkBytesFlushNotSupported checks that a Flush that cannot flush
// (http.TimeoutHandler's writer has no Flush) writes no head, so it does
// not count as one (rule 27): the Link lines the handler adds after it are
// budgeted when the head is written.
func TestMaxLinkBytesFlushNotSupported(t *testing.T) {
	var d droppedCalls
	h := http.TimeoutHandler(MaxLinkBytes(20, d.record)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := http.NewResponseController(w).Flush(); !errors.Is(err, http.ErrNotSupported) {
			t.Errorf("Flush under TimeoutHandler = %v, want http.ErrNotSupported", err)
		}
		w.(http.Flusher).Flush()
		w.Header().Add("Link", `</a>; rel="next", </b>; rel="prev"`)
		io.WriteString(w, "body")
	})), time.Minute, "timeout")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if got, want := rec.Header()["Link"], []string{`</a>; rel="next"`}; !slices.Equal(got, want) {
		t.Errorf("Link lines %q, want %q", got, want)
	}
	if want := []string{"/b"}; !slices.Equal(d.calls, want) {
		t.Errorf("dropped called with %q, want %q", d.calls, want)
	}
}

// TestMaxLinkBytesInterimAfterFinal checks that a 1xx head the handler
// asks for after the final one, or after hijacking, which net/http does
// not write, is not budgeted: dropped is called only for heads written.
func TestMaxLinkBytesInterimAfterFinal(t *testing.T) {
	var d droppedCalls
	h := MaxLinkBytes(20, d.record)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Link"] = []string{`</a>; rel="next"`, `</b>; rel="prev"`}
		if r.URL.Path == "/hijack" {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err != nil {
				t.Errorf("Hijack: %v", err)
				return
			}
			defer conn.Close()
		} else {
			io.WriteString(w, "body")
		}
		// Over the budget again: the final head left one line.
		w.Header()["Link"] = []string{`</a>; rel="next"`, `</b>; rel="prev"`}
		w.WriteHeader(http.StatusEarlyHints)
	}))
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.Start()
	defer srv.Close()
	rawGet(t, srv, "GET / HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n")
	rawGet(t, srv, "GET /hijack HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n")
	if want := []string{"/b"}; !slices.Equal(d.calls, want) {
		t.Errorf("dropped called with %q, want %q (the final head of /, and nothing for heads not written)", d.calls, want)
	}
}

// panicWriter records whether anything was written through it.
type panicWriter struct {
	h       http.Header
	written bool
}

func (w *panicWriter) Header() http.Header { return w.h }
func (w *panicWriter) WriteHeader(int)     { w.written = true }
func (w *panicWriter) Write(b []byte) (int, error) {
	w.written = true
	return len(b), nil
}
func (w *panicWriter) Flush() { w.written = true }

// TestMaxLinkBytesDroppedPanics checks rule 28's promise when dropped
// panics: the panic propagates from the call that was writing the head,
// nothing of that head is written, and the header map is unchanged.
func TestMaxLinkBytesDroppedPanics(t *testing.T) {
	lines := []string{`</a>; rel="next"`, `</b>; rel="prev"`}
	writes := []struct {
		name  string
		write func(w http.ResponseWriter)
	}{
		{"WriteHeader", func(w http.ResponseWriter) { w.WriteHeader(http.StatusOK) }},
		{"1xx", func(w http.ResponseWriter) { w.WriteHeader(http.StatusEarlyHints) }},
		{"Write", func(w http.ResponseWriter) { io.WriteString(w, "body") }},
		{"ReadFrom", func(w http.ResponseWriter) { w.(io.ReaderFrom).ReadFrom(strings.NewReader("body")) }},
		{"Flush", func(w http.ResponseWriter) { w.(http.Flusher).Flush() }},
		{"nothing", func(w http.ResponseWriter) {}},
	}
	for _, wr := range writes {
		t.Run(wr.name, func(t *testing.T) {
			pw := &panicWriter{h: http.Header{}}
			h := MaxLinkBytes(20, func(*http.Request, Links) { panic("dropped panics") })(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header()["Link"] = slices.Clone(lines)
				wr.write(w)
			}))
			func() {
				defer func() {
					if r := recover(); r != "dropped panics" {
						t.Errorf("recovered %v, want dropped's panic", r)
					}
				}()
				h.ServeHTTP(pw, httptest.NewRequest("GET", "/", nil))
			}()
			if pw.written {
				t.Error("something was written before the panic")
			}
			if got := pw.h["Link"]; !slices.Equal(got, lines) {
				t.Errorf("Link lines %q after the panic, want them unchanged: %q", got, lines)
			}
		})
	}
	// On a real server, net/http recovers the panic and the client gets
	// no response at all, never a head without its body.
	h := MaxLinkBytes(20, func(*http.Request, Links) { panic("dropped panics") })(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Link"] = slices.Clone(lines)
		io.WriteString(w, "body")
	}))
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.Start()
	defer srv.Close()
	raw := rawGet(t, srv, "GET / HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n")
	if raw != "" {
		t.Errorf("the client got %q, want nothing", raw)
	}
}

// TestMaxLinkBytesConcurrent runs many requests at once through one
// MaxLinkBytes, each with its own links (go test -race finds shared
// state).
func TestMaxLinkBytesConcurrent(t *testing.T) {
	var mu sync.Mutex
	dropped := map[string]string{}
	h := MaxLinkBytes(30, func(r *http.Request, ls Links) {
		mu.Lock()
		dropped[r.URL.Path] = ls.String()
		mu.Unlock()
	})(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := strings.TrimPrefix(r.URL.Path, "/")
		w.Header().Add("Link", fmt.Sprintf(`</%s/1>; rel="a", </%s/2>; rel="b"`, id, id))
		io.WriteString(w, id)
	}))
	srv := newServer(t, h, false)
	const n = 50
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("p%02d", i)
			resp, err := srv.Client().Get(srv.URL + "/" + id)
			if err != nil {
				errs <- err
				return
			}
			resp.Body.Close()
			if got, want := resp.Header.Get("Link"), fmt.Sprintf(`</%s/1>; rel="a"`, id); got != want {
				errs <- fmt.Errorf("%s: Link %q, want %q", id, got, want)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := range n {
		id := fmt.Sprintf("p%02d", i)
		if got, want := dropped["/"+id], fmt.Sprintf(`</%s/2>; rel="b"`, id); got != want {
			t.Errorf("dropped for %s: %q, want %q", id, got, want)
		}
	}
}

// TestMaxLinkBytesHostile sets a 1 MiB Link field behind MaxLinkBytes and
// bounds the bytes allocated per byte of the field: without a dropped
// function the budget costs the kept bytes and the largest link-value;
// with one, the dropped links cost what ParseHeader makes of them.
func TestMaxLinkBytesHostile(t *testing.T) {
	const size = 1 << 20
	fill := func(unit string) string {
		return strings.Repeat(unit, size/len(unit))
	}
	tests := []struct {
		name     string
		field    string
		report   bool
		maxPerIn float64
	}{
		{"preloads", fill(`</assets/chunk-0123456789abcdef.js>; rel="modulepreload", `), false, 0.1},
		{"preloads, reported", fill(`</assets/chunk-0123456789abcdef.js>; rel="modulepreload", `), true, 6},
		{"preloads with as, reported", fill(`</assets/chunk-0123456789abcdef.js>; rel=preload; as=script, `), true, 8},
		{"tiny links", fill(`<a>,`), false, 0.1},
		// Each Link is 192 bytes, for 4 bytes of input: what ParseHeader
		// costs (rule 10).
		{"tiny links, reported", fill(`<a>,`), true, maxParseBytesPerByte},
		{"one huge link", "<" + strings.Repeat("a", size) + ">", false, 3},
		{"one huge link, reported", "<" + strings.Repeat("a", size) + ">", true, 3},
		// Lines, not one field value: split at every ", " below.
		{"10 000 lines", fill("<" + strings.Repeat("x", 97) + ">, ")[:10_000*101], false, 0.1},
		{"10 000 lines, reported", fill(`</assets/chunk-0123456789abcdef.js>; rel=preload; as=script, `)[:10_000*61], true, 8},
		{"junk", fill(`junk, `), false, 0.1},
		{"upper-case relation types", fill(`<a>; rel=NEXT, `), false, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got Links
			var dropped func(*http.Request, Links)
			if tt.report {
				dropped = func(_ *http.Request, ls Links) { got = ls }
			}
			h := MaxLinkBytes(4000, dropped)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
			w := &panicWriter{h: http.Header{}}
			r := httptest.NewRequest("GET", "/", nil)
			lines := []string{tt.field}
			if strings.HasPrefix(tt.name, "10 000 lines") {
				lines = strings.Split(strings.TrimSuffix(tt.field, ", "), ", ")
				if len(lines) != 10_000 {
					t.Fatalf("%d lines", len(lines))
				}
			}
			perByte := float64(memtest.Allocated(func() {
				w.h["Link"] = lines
				h.ServeHTTP(w, r)
			})) / float64(len(tt.field))
			t.Logf("%s: %.3f bytes allocated per input byte", tt.name, perByte)
			if perByte > tt.maxPerIn {
				t.Errorf("%.3f bytes allocated per input byte, want at most %v", perByte, tt.maxPerIn)
			}
			if size := len(w.h.Get("Link")); size > 4000 {
				t.Errorf("%d bytes of Link field kept", size)
			}
			if tt.report && len(got) == 0 {
				t.Error("dropped got no links")
			}
		})
	}
}

// FuzzMaxLinkBytes checks rule 27 on any two field lines and budget, the
// second set under the key "link", which net/http sends after "Link": the
// head keeps at most n bytes of Link field in one "Link" line (or the
// lines as they were, when within n), the kept links followed by the
// dropped ones are the links ParseHeader reads from the lines, and
// dropped is called at most once.
func FuzzMaxLinkBytes(f *testing.F) {
	f.Add(`</a>; rel="next", </b>; rel="prev"`, `</c>`, 20)
	f.Add(`</a>; rel=next, junk, </b>; title*=UTF-8''%C3%A4`, `<x>; rel="a, b"`, 10)
	f.Add(`<a>,<b>,<c>`, ``, 1)
	f.Fuzz(func(t *testing.T, line1, line2 string, n int) {
		n %= 1 << 12
		lines := []string{line1, line2}
		lower := "link" // a key net/http sends as it is (not a constant: staticcheck's SA1008)
		var calls int
		var dropped Links
		h := MaxLinkBytes(n, func(_ *http.Request, ls Links) { calls++; dropped = ls })(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Link"] = []string{line1}
			w.Header()[lower] = []string{line2}
		}))
		w := &panicWriter{h: http.Header{}}
		h.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
		got := append(slices.Clone(w.h["Link"]), w.h[lower]...)
		if n < 1 || len(line1)+len(line2) <= n {
			if !slices.Equal(got, lines) || len(w.h[lower]) != 1 || calls != 0 {
				t.Fatalf("within the budget %d: lines %q became %q, %d calls of dropped", n, lines, w.h, calls)
			}
			return
		}
		if len(w.h) > 1 || len(got) > 1 || len(got) == 1 && (len(got[0]) > n || got[0] == "") || calls > 1 {
			t.Fatalf("budget %d: lines %q became %q, %d calls of dropped", n, lines, got, calls)
		}
		all, _ := ParseHeader(http.Header{"Link": lines})
		kept, _ := ParseHeader(w.h)
		// Compared as a receiver sees them, parsed from what Links.String
		// writes: the kept links went through that once already, and it
		// is not the identity for links outside rule 21's form (a
		// relation type's "\x7f" is written "%7F", read back as "%7f").
		normal := func(ls Links) string {
			again, _ := Parse(ls.String())
			return again.String()
		}
		// The line is Links.String of a prefix of the links.
		if len(got) == 1 && (len(kept) > len(all) || got[0] != all[:len(kept)].String()) {
			t.Fatalf("budget %d: lines %q became %q, not Links.String of a prefix of %q", n, lines, got, all)
		}
		if want, have := normal(all), normal(append(slices.Clone(kept), dropped...)); want != have {
			t.Fatalf("budget %d: lines %q: kept %q and dropped %q are not the links %q", n, lines, kept, dropped, all)
		}
	})
}

// BenchmarkMaxLinkBytes measures a head through MaxLinkBytes(4000): a
// field within the budget (left alone) and one of 8 KiB (cut, the rest
// reported).
func BenchmarkMaxLinkBytes(b *testing.B) {
	var links Links
	for i := 0; len(links.String()) < 8000; i++ {
		links = append(links, Link{Target: fmt.Sprintf("/assets/chunk-%04d.js", i), Rel: []string{RelModulePreload}})
	}
	over := links.String()
	within := links[:10].String()
	for _, bc := range []struct{ name, field string }{{"within", within}, {"over", over}} {
		b.Run(bc.name, func(b *testing.B) {
			var n int
			h := MaxLinkBytes(4000, func(_ *http.Request, ls Links) { n += len(ls) })(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
			w := &panicWriter{h: http.Header{}}
			r := httptest.NewRequest("GET", "/", nil)
			b.SetBytes(int64(len(bc.field)))
			b.ReportAllocs()
			for range b.N {
				w.h["Link"] = []string{bc.field}
				h.ServeHTTP(w, r)
			}
		})
	}
}
