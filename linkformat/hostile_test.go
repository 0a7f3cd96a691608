package linkformat_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/weblinking/weblink/internal/memtest"
	"github.com/weblinking/weblink/linkformat"
)

// hostileDocs are documents built to make Parse, Resolve, Format or
// ParseTimeMap slow, large or crash (rule 22); build returns about n
// bytes.
var hostileDocs = []struct {
	name  string
	build func(n int) string
}{
	{"open brackets", func(n int) string { return strings.Repeat("<", n) }},
	{"escaped quotes in an unclosed quoted-string", func(n int) string { return `</a>;title="` + strings.Repeat(`\"`, n/2) }},
	{"empty parameters", func(n int) string { return "</a>" + strings.Repeat(";x", n/2) }},
	{"short links", func(n int) string { return strings.Repeat("</a>,", n/5) }},
	{"dot-segments in one target", func(n int) string { return "</" + strings.Repeat("../", n/3) + "x>" }},
	{"dot-segments after segments", func(n int) string {
		return "</" + strings.Repeat("a/", n/5) + strings.Repeat("../", n/5) + ">"
	}},
	{"dot-segments in an anchor", func(n int) string { return `<x>;anchor="/` + strings.Repeat("./", n/2) + `"` }},
	{"long rt and ct lists", func(n int) string {
		return `</a>;rt="` + strings.Repeat("a ", n/4) + `";ct="` + strings.Repeat("x ", n/4) + `"`
	}},
	{"mementos", func(n int) string {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, "<http://archive.example/web/%d/http://a.example/>;rel=\"memento\";datetime=\"Tue, 20 Jun 2000 18:02:59 GMT\",\n", i)
		}
		return b.String()
	}},
	{"mementos with bad datetimes", func(n int) string {
		return strings.Repeat(`<m>;rel=memento;datetime=x,`, n/27)
	}},
	{"random bytes", func(n int) string {
		r := rand.New(rand.NewPCG(1, 2))
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.UintN(256))
		}
		return string(b)
	}},
	{"random link syntax", func(n int) string {
		r := rand.New(rand.NewPCG(3, 4))
		const alphabet = `<>;,="\ a./` + "\n"
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}},
}

// maxBytesPerByte bounds what Parse, Resolve, Format and ParseTimeMap
// together allocate per input byte: weblink.Parse is bounded at 80, a
// resolved copy of the links and their new strings at about as much again,
// and the errors of ParseTimeMap at about 10 per byte of a bad memento.
const maxBytesPerByte = 320

// TestHostileDocuments runs every function of the package on each hostile
// document at 256 KiB and at 1 MiB (rule 22): no panic, and memory
// proportional to the input, at most maxBytesPerByte per input byte and
// growing at most 6 times for 4 times the input.
func TestHostileDocuments(t *testing.T) {
	doc, _ := url.Parse("coap://[2001:db8::1]/.well-known/core")
	const small, large = 256 << 10, 1 << 20
	for _, tc := range hostileDocs {
		t.Run(tc.name, func(t *testing.T) {
			var allocated [2]uint64
			for i, n := range []int{small, large} {
				in := []byte(tc.build(n))
				start := time.Now()
				allocated[i] = memtest.Allocated(func() {
					ls, _ := linkformat.Parse(in)
					r := linkformat.Resolve(ls, doc)
					_ = linkformat.Format(r)
					for _, l := range r {
						_ = linkformat.Values(l, "rt")
						_, _ = linkformat.ContentFormats(l)
					}
					_, _ = linkformat.ParseTimeMap(in, doc)
				})
				perByte := float64(allocated[i]) / float64(len(in))
				t.Logf("%d bytes: %.1f B/B, %v", len(in), perByte, time.Since(start))
				if perByte > maxBytesPerByte {
					t.Errorf("%d bytes of input: allocated %.1f bytes per input byte, want at most %d", len(in), perByte, maxBytesPerByte)
				}
			}
			if ratio := float64(allocated[1]) / float64(max(allocated[0], 1)); ratio > 6 && allocated[1] > 1<<16 {
				t.Errorf("allocated %d bytes for %d bytes and %d for %d: ratio %.1f is not linear", allocated[0], small, allocated[1], large, ratio)
			}
		})
	}
}

// TestDotSegmentsLinear resolves a target of 64 KiB and one of 1 MiB of
// dot-segments and compares the time (rule 8: remove_dot_segments keeps a
// stack of offsets instead of searching its output). 16 times the input
// must take less than 100 times as long: linear with very wide slack, where
// quadratic would be 256 times.
func TestDotSegmentsLinear(t *testing.T) {
	doc, _ := url.Parse("coap://host/")
	measure := func(n int) time.Duration {
		target := "/" + strings.Repeat("a/", n/5) + strings.Repeat("../", n/5)
		in := []byte("<" + target + ">")
		ls, _ := linkformat.Parse(in)
		best := time.Duration(1 << 62)
		for range 3 {
			start := time.Now()
			r := linkformat.Resolve(ls, doc)
			if d := time.Since(start); d < best {
				best = d
			}
			if r[0].Target != "coap://host/" {
				t.Fatalf("resolved to %.40q...", r[0].Target)
			}
		}
		return best
	}
	small, large := measure(64<<10), measure(1<<20)
	t.Logf("64 KiB: %v, 1 MiB: %v", small, large)
	if large > 100*max(small, time.Microsecond) {
		t.Errorf("1 MiB took %v, 64 KiB %v: not linear", large, small)
	}
}

// TestManyMementos parses a TimeMap of 100 000 mementos, all kept in
// order, and one where every datetime is bad, every one counted: the
// first 16 listed, the others in "99984 more problems not listed".
func TestManyMementos(t *testing.T) {
	var b strings.Builder
	for i := range 100000 {
		fmt.Fprintf(&b, "<http://archive.example/web/%d/http://a.example/>;rel=\"memento\";datetime=\"Tue, 20 Jun 2000 18:02:59 GMT\",\n", i)
	}
	tm, err := linkformat.ParseTimeMap([]byte(b.String()), nil)
	if err != nil || len(tm.Mementos) != 100000 || tm.Mementos[99999].Target != "http://archive.example/web/99999/http://a.example/" {
		t.Fatalf("%d mementos, err %v", len(tm.Mementos), err)
	}
	bad := strings.Repeat(`<m>;rel=memento;datetime=x,`, 100000)
	tm, err = linkformat.ParseTimeMap([]byte(bad), nil)
	if len(tm.Mementos) != 0 || len(tm.Links) != 100000 || len(offsets(err)) != 16 || offsets(err)[15] != 15*27 ||
		!strings.HasSuffix(err.Error(), "\nweblink: 99984 more problems not listed") {
		t.Errorf("%d mementos, %d links, %d problems listed, %.100q...", len(tm.Mementos), len(tm.Links), len(offsets(err)), err)
	}
}

// TestTimeMapRetainsOnlyItsLinks checks what a TimeMap of 50 000 mementos
// and a few other links keeps in memory: the document's text, which the
// strings are substrings of, the Mementos with their Rel and Params, and
// no more. tm.Links, a window on the array of every link, kept that whole
// array alive for its few links: 192 bytes a memento more.
func TestTimeMapRetainsOnlyItsLinks(t *testing.T) {
	const n = 50000
	var b strings.Builder
	b.WriteString("<http://a.example/>;rel=original,<http://t/>;rel=self,<http://t/2>;rel=timemap,\n")
	for i := range n {
		fmt.Fprintf(&b, "<http://archive.example/web/%d/http://a.example/>;rel=\"memento\";datetime=\"Tue, 20 Jun 2000 18:02:59 GMT\",\n", i)
	}
	doc := []byte(b.String())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tm, err := linkformat.ParseTimeMap(doc, nil)
	runtime.GC()
	runtime.ReadMemStats(&after)
	if err != nil || len(tm.Mementos) != n || len(tm.Links) != 1 {
		t.Fatalf("%d mementos, %d links, err %v", len(tm.Mementos), len(tm.Links), err)
	}
	retained := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	// A Rel window and a datetime Param per memento: 64 bytes.
	limit := int64(len(doc)) + n*int64(unsafe.Sizeof(linkformat.Memento{})+64)
	t.Logf("%d bytes of TimeMap retain %d bytes, at most %d", len(doc), retained, limit)
	if retained > limit {
		t.Errorf("the TimeMap of %d bytes keeps %d bytes, want at most %d", len(doc), retained, limit)
	}
	runtime.KeepAlive(tm)
}

// BenchmarkResolveDotSegments resolves one target of n bytes of
// dot-segments, for the figures of rule 22.
func BenchmarkResolveDotSegments(b *testing.B) {
	doc, _ := url.Parse("coap://host/")
	for _, n := range []int{64 << 10, 1 << 20} {
		ls, _ := linkformat.Parse([]byte("</" + strings.Repeat("a/", n/5) + strings.Repeat("../", n/5) + ">"))
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for range b.N {
				_ = linkformat.Resolve(ls, doc)
			}
		})
	}
}

// BenchmarkParseTimeMap parses a TimeMap of 10 000 mementos.
func BenchmarkParseTimeMap(b *testing.B) {
	var sb strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&sb, "<http://archive.example/web/%d/http://a.example/>;rel=\"memento\";datetime=\"Tue, 20 Jun 2000 18:02:59 GMT\",\n", i)
	}
	doc := []byte(sb.String())
	u, _ := url.Parse("http://archive.example/timemap/link/http://a.example/")
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for range b.N {
		_, _ = linkformat.ParseTimeMap(doc, u)
	}
}

// TestTimeMapErrorsCapped checks that ParseTimeMap reports at most 16
// problems in detail, as weblink.Parse does, and counts the rest in one
// "N more problems not listed" (rules 21 and 22): a huge TimeMap of broken
// entries makes a small error. Beyond what Parse keeps for the same
// document, the TimeMap and its error keep at most a quarter of a byte per
// input byte; and ParseTimeMap allocates at most 16 bytes per input byte
// more than Parse: http.ParseTime costs about 9 for a bad datetime (its
// failed layouts, let go at once; 12.5 under the race detector), where
// keeping every problem cost 17 to 24.
func TestTimeMapErrorsCapped(t *testing.T) {
	tests := []struct {
		name string
		unit string
		bad  int // problems per unit
	}{
		{"bad datetimes", `<m>;rel=memento;datetime=x,`, 1},
		{"no datetimes", "<m>;rel=memento,\n", 1},
		{"bad self from and until", `<s>;rel=self;from=x;until=y,`, 2},
		{"bad datetimes between malformed link-values", `<m>;rel=memento;datetime=x,junk,`, 2},
	}
	for _, tt := range tests {
		for _, n := range []int{256 << 10, 1 << 20} {
			t.Run(fmt.Sprintf("%s/%d", tt.name, n), func(t *testing.T) {
				units := n / len(tt.unit)
				doc := []byte(strings.Repeat(tt.unit, units))
				want := units * tt.bad
				if tt.name == "bad self from and until" {
					want = 2 // only the first self link is read
				}
				var err error
				timeMap := memtest.Allocated(func() { _, err = linkformat.ParseTimeMap(doc, nil) })
				parse := memtest.Allocated(func() { _, _ = linkformat.Parse(doc) })
				extra := (float64(timeMap) - float64(parse)) / float64(len(doc))
				// The live heap moves by about the size of doc between
				// runs (the first run of a test keeps less): the least
				// difference of three runs.
				kept := math.Inf(1)
				for range 3 {
					keptTimeMap := memtest.Retained(func() any {
						tm, err := linkformat.ParseTimeMap(doc, nil)
						return []any{tm, err}
					})
					keptParse := memtest.Retained(func() any {
						ls, err := linkformat.Parse(doc)
						return []any{ls, err}
					})
					kept = min(kept, float64(keptTimeMap-keptParse)/float64(len(doc)))
				}
				t.Logf("%d bytes: ParseTimeMap allocates %.2f bytes per input byte more than Parse, keeps %.3f more; error of %d bytes",
					len(doc), extra, kept, len(err.Error()))
				if extra > 16 {
					t.Errorf("ParseTimeMap allocates %.2f bytes per input byte more than Parse, want at most 16", extra)
				}
				if kept > 0.25 {
					t.Errorf("the TimeMap and its error keep %.3f bytes per input byte more than Parse's links, want at most 0.25", kept)
				}
				errs := err.(interface{ Unwrap() []error }).Unwrap()
				listed := min(want, 16)
				if want > 16 {
					listed++
				}
				if len(errs) != listed {
					t.Fatalf("%d errors, want %d: %.300v", len(errs), listed, err)
				}
				if want > 16 {
					if got, more := errs[16].Error(), fmt.Sprintf("weblink: %d more problems not listed", want-16); got != more {
						t.Errorf("last error %q, want %q", got, more)
					}
				}
				offs := offsets(err)
				if len(offs) != min(want, 16) || !slices.IsSorted(offs) {
					t.Errorf("offsets %v, want %d in document order", offs, min(want, 16))
				}
			})
		}
	}
}
