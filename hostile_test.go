package weblink

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/weblinking/weblink/internal/memtest"
)

// hostileCases are inputs built to make a parser slow, large or crash; build
// returns an input of about n bytes and check looks at what Parse made of it.
var hostileCases = []struct {
	name  string
	build func(n int) string
	check func(t *testing.T, n int, ls Links, err error)
}{
	{"semicolons", func(n int) string { return "<a>" + strings.Repeat(";", n) },
		func(t *testing.T, n int, ls Links, err error) {
			if err != nil || len(ls) != 1 || ls[0].Target != "a" || ls[0].Params != nil {
				t.Errorf("got %d links, err %v; want one link <a> without params", len(ls), err)
			}
		}},
	{"one quoted-string", func(n int) string { return `<a>; title="` + strings.Repeat("x,", n/2) + `"` },
		func(t *testing.T, n int, ls Links, err error) {
			if err != nil || len(ls) != 1 || len(ls[0].Title) != n/2*2 {
				t.Errorf("got %d links, err %v; want one link with a %d-byte title", len(ls), err, n/2*2)
			}
		}},
	{"unclosed quoted-string", func(n int) string { return `<a>, <b>; title="` + strings.Repeat("x,<", n/3) },
		func(t *testing.T, n int, ls Links, err error) {
			if err == nil || len(ls) != 1 || ls[0].Target != "a" {
				t.Errorf("got %d links, err %v; want <a> only and an error", len(ls), err)
			}
		}},
	// n/10 link-values: more than 100 000 at the large size.
	{"link-values", func(n int) string { return strings.Repeat(`<a>; rel=next,`, n/10) },
		func(t *testing.T, n int, ls Links, err error) {
			if err != nil || len(ls) != n/10 || ls[len(ls)-1].Rel[0] != "next" {
				t.Errorf("got %d links, err %v; want %d", len(ls), err, n/10)
			}
		}},
	{"backslash escapes", func(n int) string { return `<a>; title="` + strings.Repeat(`\\`, n/2) + `"` },
		func(t *testing.T, n int, ls Links, err error) {
			if err != nil || len(ls) != 1 || ls[0].Title != strings.Repeat(`\`, n/2) {
				t.Errorf("got %d links, err %v; want one title of %d backslashes", len(ls), err, n/2)
			}
		}},
	{"malformed link-values", func(n int) string { return strings.Repeat(`x,`, n/2) },
		func(t *testing.T, n int, ls Links, err error) {
			if err == nil || len(ls) != 0 {
				t.Errorf("got %d links, err %v; want none and an error", len(ls), err)
			}
		}},
	{"open brackets", func(n int) string { return strings.Repeat(`<`, n) },
		func(t *testing.T, n int, ls Links, err error) {
			if err == nil || len(ls) != 0 {
				t.Errorf("got %d links, err %v; want none and an error", len(ls), err)
			}
		}},
	{"relation types", func(n int) string { return `<a>; rel="` + strings.Repeat("a ", n/2) + `"` },
		func(t *testing.T, n int, ls Links, err error) {
			if err != nil || len(ls) != 1 || len(ls[0].Rel) != n/2 {
				t.Errorf("got %d links, err %v; want one link with %d relation types", len(ls), err, n/2)
			}
		}},
	{"star parameters", func(n int) string {
		return "<a>" + strings.Repeat("; x=1; x*=UTF-8''y", n/36) + strings.Repeat("; x*=bad", n/16)
	},
		func(t *testing.T, n int, ls Links, err error) {
			if err == nil || len(ls) != 1 || len(ls[0].Params) != n/36 {
				t.Errorf("got %d links, err %v; want one link with %d params", len(ls), err, n/36)
			}
		}},
}

// TestHostileInput parses each hostile input at 256 KB and at 1 MB: Parse
// must not panic, must give the expected result, and must allocate in
// proportion to the input (the bytes allocated for 4x the input may be at
// most 6x, leaving room for slice growth).
func TestHostileInput(t *testing.T) {
	const small, large = 256 << 10, 1 << 20
	for _, tc := range hostileCases {
		t.Run(tc.name, func(t *testing.T) {
			var allocated [2]uint64
			for i, n := range []int{small, large} {
				in := tc.build(n)
				var ls Links
				var err error
				allocated[i] = memtest.Allocated(func() { ls, err = Parse(in) })
				tc.check(t, n, ls, err)
			}
			if ratio := float64(allocated[1]) / float64(max(allocated[0], 1)); ratio > 6 && allocated[1] > 1<<16 {
				t.Errorf("allocated %d bytes for %d bytes of input and %d for %d: ratio %.1f is not linear",
					allocated[0], small, allocated[1], large, ratio)
			}
			if perByte := float64(allocated[1]) / large; perByte > 160 {
				t.Errorf("allocated %.0f bytes per input byte", perByte)
			}
		})
	}
}

// TestErrorSizeBounded checks that a long hostile value does not make the
// error message long.
func TestErrorSizeBounded(t *testing.T) {
	_, err := Parse(strings.Repeat("x", 1<<20))
	if err == nil || len(err.Error()) > 300 {
		t.Errorf("error of %d bytes: %.300v", len(err.Error()), err)
	}
}

// memoryShapes are inputs built to make the parser allocate much for little
// input: short link-values (a Link is 192 bytes), valueless parameters, and
// shapes where a count of "<" or of commas would guess the number of
// link-values wrong. build returns about n bytes.
var memoryShapes = []struct {
	name  string
	build func(n int) string
}{
	{"empty link-values", func(n int) string { return strings.Repeat("<>,", n/3) }},
	{"valueless parameters", func(n int) string { return strings.Repeat("<a>;x,", n/6) }},
	{"short links then parameters", func(n int) string {
		return strings.Repeat("<>,", n/6) + "<a>" + strings.Repeat(";x", n/4)
	}},
	{"rel next", func(n int) string { return strings.Repeat(`<a>;rel=next,`, n/13) }},
	{"quote in unquoted values", func(n int) string { return strings.Repeat(`<a>;x=",`, n/8) }},
	{"commas and brackets in a quoted-string", func(n int) string { return `<a>; title="` + strings.Repeat(",<", n/2) + `"` }},
	{"link-values in a quoted-string", func(n int) string { return `<a>; title="` + strings.Repeat(",<>", n/3) + `"` }},
	{"commas and brackets in a target", func(n int) string { return "<a" + strings.Repeat(",<", n/2) + ">" }},
	{"open brackets", func(n int) string { return strings.Repeat("<", n) }},
	{"malformed link-values", func(n int) string { return strings.Repeat("x,", n/2) }},
	{"relation types", func(n int) string { return `<a>; rel="` + strings.Repeat("a ", n/2) + `"` }},
	{"empty parameters", func(n int) string { return "<a>" + strings.Repeat(";", n) }},
	// One link with many parameters: room made for two a link, then
	// grown by append, would cost five times the Params (issue #27
	// review).
	{"valueless parameters of one link", func(n int) string { return "<a>" + strings.Repeat(";x", n/2) }},
	{"star parameters of one link", func(n int) string { return "<a>" + strings.Repeat(";x*=UTF-8''y", n/12) }},
	// Decoded into the text of the parse, sized once from the "*" that
	// follow.
	{"escaped star parameters", func(n int) string { return strings.Repeat("<a>;x*=UTF-8''%41%42;title*=UTF-8''%43,", n/37) }},
	{"quoted-pairs", func(n int) string { return `<a>; title="` + strings.Repeat(`x\"`, n/3) + `"` }},
	{"bad star parameters", func(n int) string { return strings.Repeat("<a>;x*=b,", n/9) }},
	{"anchored next links", func(n int) string { return strings.Repeat(`<a>;rel=next;anchor="#x",`, n/25) }},
	// Elements after the last link that are dropped: a parse that sized
	// its links again at each would take quadratic time (issue #16
	// review).
	{"malformed link-values after a link", func(n int) string { return "<a>," + strings.Repeat("x,", n/2) }},
	{"empty elements after links", func(n int) string { return "<a>,<b>,<c>,<d>," + strings.Repeat(";,", n/2) }},
	{"bad link-values after a link", func(n int) string { return "<a>," + strings.Repeat("<>x,", n/4) }},
}

// maxParseBytesPerByte bounds what Parse and ParseHeader allocate per input
// byte for any input: a Link is 192 bytes and the shortest link-value, "<>,",
// is 3.
const maxParseBytesPerByte = 80

// TestParseMemoryBound checks that Parse of one field value and ParseHeader
// of 1000 field lines allocate at most maxParseBytesPerByte bytes per input
// byte for every memory shape at 4 MiB (issue #11 item 6).
func TestParseMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("4 MiB inputs")
	}
	const n = 4 << 20
	for _, tc := range memoryShapes {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.build(n)
			perByte := float64(memtest.Allocated(func() { _, _ = Parse(in) })) / float64(len(in))
			t.Logf("Parse: %.1f B/B", perByte)
			if perByte > maxParseBytesPerByte {
				t.Errorf("Parse allocated %.1f bytes per input byte, want at most %d", perByte, maxParseBytesPerByte)
			}
			line := tc.build(n / 1000)
			lines := make([]string, 1000)
			for i := range lines {
				lines[i] = line
			}
			h := http.Header{"Link": lines}
			perByte = float64(memtest.Allocated(func() { _, _ = ParseHeader(h) })) / float64(1000*len(line))
			t.Logf("ParseHeader: %.1f B/B", perByte)
			if perByte > maxParseBytesPerByte {
				t.Errorf("ParseHeader allocated %.1f bytes per input byte, want at most %d", perByte, maxParseBytesPerByte)
			}
		})
	}
}

// TestNextURLMemoryBound checks that NextURL allocates at most 8 bytes per
// header byte for every memory shape at 4 MiB, in one field line and in
// 1000, with no next link and with one in a field line after the rest:
// finding the next link must not build every Link. (The next link goes in
// a line of its own so that no shape swallows it: after "open brackets" in
// the same line, its ">" would close the first "<", making the whole line
// the target of one next link; TestNextURLHugeTarget covers that.)
func TestNextURLMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("4 MiB inputs")
	}
	const n = 4 << 20
	base, _ := url.Parse("https://api.example/items?page=1")
	for _, tc := range memoryShapes {
		for _, next := range []string{"", `<?page=2>; rel="next"`} {
			t.Run(fmt.Sprintf("%s/next=%t", tc.name, next != ""), func(t *testing.T) {
				for _, lines := range [][]string{repeatLine(tc.build(n), 1, next), repeatLine(tc.build(n/1000), 1000, next)} {
					size := 0
					for _, l := range lines {
						size += len(l)
					}
					resp := &http.Response{Header: http.Header{"Link": lines}, Request: &http.Request{URL: base}}
					var ok bool
					perByte := float64(memtest.Allocated(func() { _, ok = NextURL(resp) })) / float64(size)
					t.Logf("%d lines: %.2f B/B", len(lines), perByte)
					if perByte > 8 {
						t.Errorf("%d lines: NextURL allocated %.2f bytes per header byte, want at most 8", len(lines), perByte)
					}
					if wantOK := next != "" || tc.name == "rel next" || tc.name == "anchored next links"; ok != wantOK {
						t.Errorf("%d lines: NextURL found a next link: %t, want %t", len(lines), ok, wantOK)
					}
				}
			})
		}
	}
}

// repeatLine returns k copies of line, then last unless it is empty.
func repeatLine(line string, k int, last string) []string {
	lines := make([]string, k, k+1)
	for i := range lines {
		lines[i] = line
	}
	if last != "" {
		lines = append(lines, last)
	}
	return lines
}

// TestNextURLHugeTarget checks what NextURL costs when the next link's
// target is itself 4 MiB. Finding it costs nothing; net/url's parse of the
// target (which escapes the path to compare it with the raw one) and its
// resolution (which copies the path and escapes it again) take the rest, a
// few times the target's size.
func TestNextURLHugeTarget(t *testing.T) {
	const n = 4 << 20
	value := "<" + strings.Repeat("a/", n/2) + `>; rel="next"`
	base, _ := url.Parse("https://api.example/items?page=1")
	resp := &http.Response{Header: http.Header{"Link": {value}}, Request: &http.Request{URL: base}}
	var u *url.URL
	perByte := float64(memtest.Allocated(func() { u, _ = NextURL(resp) })) / float64(len(value))
	t.Logf("NextURL: %.2f B/B", perByte)
	if u == nil || len(u.Path) < n {
		t.Fatalf("NextURL = %.40v, want the 4 MiB target", u)
	}
	if perByte > 32 {
		t.Errorf("NextURL allocated %.2f bytes per header byte, want at most 32", perByte)
	}
}

// TestNextURLOpenBrackets checks that 4 MiB of "<" before the next link
// are one link-value whose ">" is missing before the comma (rule 8): it is
// dropped, and NextURL finds the next link after it at no cost. Before,
// the ">" of the next link closed the first "<", and the whole field value
// was the 4 MiB target of one next link.
func TestNextURLOpenBrackets(t *testing.T) {
	const n = 4 << 20
	value := strings.Repeat("<", n) + `, <?page=2>; rel="next"`
	base, _ := url.Parse("https://api.example/items?page=1")
	resp := &http.Response{Header: http.Header{"Link": {value}}, Request: &http.Request{URL: base}}
	var u *url.URL
	perByte := float64(memtest.Allocated(func() { u, _ = NextURL(resp) })) / float64(len(value))
	t.Logf("NextURL: %.2f B/B", perByte)
	if u == nil || u.String() != "https://api.example/items?page=2" {
		t.Fatalf("NextURL = %.40v, want https://api.example/items?page=2", u)
	}
	if perByte > 1 {
		t.Errorf("NextURL allocated %.2f bytes per header byte, want at most 1", perByte)
	}
}

// TestPagesMemoryBound runs Pages against a local server whose first page
// sends a 4 MiB Link header (each memory shape, then the next link) and
// checks that the whole iteration, net/http's reading of the header
// included, allocates at most 16 bytes per header byte.
func TestPagesMemoryBound(t *testing.T) {
	const n = 4 << 20
	for _, tc := range memoryShapes {
		t.Run(tc.name, func(t *testing.T) {
			value := tc.build(n)
			lines := []string{value, `<?page=2>; rel="next"`} // as in TestNextURLMemoryBound
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.RawQuery == "page=1" {
					w.Header()["Link"] = lines
				}
			}))
			srv.Config.MaxHeaderBytes = 16 << 20
			srv.Start()
			defer srv.Close()
			client := srv.Client()
			req, err := http.NewRequest(http.MethodGet, srv.URL+"/items?page=1", nil)
			if err != nil {
				t.Fatal(err)
			}
			pages := 0
			perByte := float64(memtest.Allocated(func() {
				for _, err := range Pages(context.Background(), client, req) {
					if err != nil {
						t.Errorf("page %d: %v", pages+1, err)
						return
					}
					pages++
				}
			})) / float64(len(value))
			t.Logf("Pages: %.2f B/B", perByte)
			if pages != 2 && !strings.HasPrefix(tc.name, "rel next") {
				t.Errorf("%d pages, want 2", pages)
			}
			if perByte > 16 {
				t.Errorf("Pages allocated %.2f bytes per header byte, want at most 16", perByte)
			}
		})
	}
}

// TestParseTimeLinear checks, with wide slack, that parsing 4 times the
// input takes at most 6 times as long for every memory shape: the best of
// three runs at 1 MiB and at 4 MiB, taken in turn after a garbage
// collection and with the collector off, in processor time (cpuTime), and
// measured again up to three times before the test fails,
// as the machine may be busy with other work.
func TestParseTimeLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	for _, tc := range memoryShapes {
		t.Run(tc.name, func(t *testing.T) {
			for _, f := range linearFuncs {
				checkLinear(t, f.name, tc.build(1<<20), tc.build(4<<20), f.run)
			}
		})
	}
}

// linearFuncs are the functions TestParseTimeLinear times.
var linearFuncs = []struct {
	name string
	run  func(string)
}{
	{"Parse", func(s string) { _, _ = Parse(s) }},
	{"Parser", func(s string) { var p Parser; _, _ = p.Parse(s) }},
	{"nextLink", func(s string) {
		_, _ = nextLink(&http.Response{Header: http.Header{"Link": {s}}, Request: &http.Request{URL: linearBase}})
	}},
}

// linearBase is the request URL of the nextLink timings.
var linearBase = &url.URL{Scheme: "https", Host: "api.example", Path: "/items", RawQuery: "page=1"}

// checkLinear fails t when run(large), on 4 times the input of run(small),
// takes more than 6 times as long in three measurements in a row.
func checkLinear(t *testing.T, name, small, large string, run func(string)) {
	t.Helper()
	// Without collections during a run: a collection starts when the heap
	// reaches a size, which the large input reaches and the small one may
	// not, and its cost is the live heap's, not the parse's.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var ratio float64
	var ds, dl time.Duration
	for range 3 {
		ds, dl = time.Duration(1<<62), time.Duration(1<<62)
		for range 3 {
			ds = min(ds, timed(small, run))
			dl = min(dl, timed(large, run))
		}
		ratio = float64(dl) / float64(max(ds, time.Microsecond))
		// Below 100 ms for 4 MiB the ratio is noise (process CPU time
		// includes parallel tests and page faults of fresh memory); a
		// quadratic parse would take minutes there, not milliseconds.
		if ratio <= 6 || dl < 100*time.Millisecond {
			return
		}
	}
	t.Errorf("%s: %v for %d bytes, %v for %d: ratio %.1f", name, ds, len(small), dl, len(large), ratio)
}

// timed returns the processor time run(in) takes, after a garbage
// collection.
func timed(in string, run func(string)) time.Duration {
	runtime.GC()
	start := cpuTime()
	run(in)
	return cpuTime() - start
}
