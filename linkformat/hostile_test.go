package linkformat_test

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
	"time"

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
// order, and one where every datetime is bad, every one reported.
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
	if len(tm.Mementos) != 0 || len(tm.Links) != 100000 || len(offsets(err)) != 100000 || offsets(err)[99999] != 99999*27 {
		t.Errorf("%d mementos, %d links, %d problems", len(tm.Mementos), len(tm.Links), len(offsets(err)))
	}
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
