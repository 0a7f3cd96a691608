package linkformat_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/memtest"
	"github.com/weblinking/weblink/linkformat"
)

// parseCases are documents for rules 1 to 3, each compared with what
// weblink.Parse makes of the same text.
var parseCases = []struct {
	name, doc string
	links     int   // how many links Parse returns
	errAt     []int // offsets of the problems reported, in order
}{
	{"rule 1: empty document", "", 0, nil},
	{"rule 1: first rel counts, extension attributes repeat", `</a>;rel="x Y";rel=z;rt=a;rt=b`, 1, nil},
	{"rule 1: a malformed link-value is dropped, the others kept", `</a>,x,</b>`, 2, []int{5}},
	{"rule 1: an unclosed quoted-string", `</a>,</b>;title="x`, 1, []int{16}},
	{"rule 2: line breaks around delimiters", "</a>\n ;rt=\"x\"\r\n ,\n</b>\t;\tct = 40\n", 2, nil},
	{"rule 2: a trailing comma, as archives write", "<a>;rel=original,\n<b>;rel=memento,\n", 2, nil},
	{"rule 2: a line break inside a quoted-string is content", "</a>;title=\"x\ny\"", 1, nil},
	{"rule 3: UTF-8 and escapes kept", "</fóó/%2F>;rt=\"Température\"", 1, nil},
	{"rule 3: an unquoted ct list (leshan#1020)", "</3303/0>;ct=60 110 112", 1, nil},
	{"rule 3: repeated ct (erratum 5078)", "</image>;ct=21;ct=22", 1, nil},
	{"rule 3: spaces Leshan refused (leshan#1229)", "</> ;p=1,</>,", 2, nil},
}

// TestParseAsWeblink checks rule 1 on the table: Parse gives the links,
// errors and offsets of weblink.Parse.
func TestParseAsWeblink(t *testing.T) {
	for _, tt := range parseCases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := linkformat.Parse([]byte(tt.doc))
			want, wantErr := weblink.Parse(tt.doc)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("links differ from weblink.Parse (-want +got):\n%s", diff)
			}
			if errString(err) != errString(wantErr) {
				t.Errorf("error %v, weblink.Parse's %v", err, wantErr)
			}
			if len(got) != tt.links {
				t.Errorf("%d links, want %d", len(got), tt.links)
			}
			if offs := offsets(err); !cmp.Equal(offs, tt.errAt) {
				t.Errorf("problems at %v, want %v (%v)", offs, tt.errAt, err)
			}
		})
	}
}

// TestParseValuesAsWritten checks rule 3 on the values themselves.
func TestParseValuesAsWritten(t *testing.T) {
	ls, err := linkformat.Parse([]byte("</fóó/%2F>;rt=\"Température Sensor\";ct=60 110 112;ct=22;obs"))
	if err != nil {
		t.Fatal(err)
	}
	want := weblink.Links{{Target: "/fóó/%2F", Params: []weblink.Param{
		{Name: "rt", Value: "Température Sensor"}, {Name: "ct", Value: "60 110 112"}, {Name: "ct", Value: "22"}, {Name: "obs"},
	}}}
	if diff := cmp.Diff(want, ls); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestParseDoesNotAlias checks rule 3: the links do not refer to doc's
// memory, so that the caller may reuse the buffer.
func TestParseDoesNotAlias(t *testing.T) {
	doc := []byte(`</sensors/temp>;rt="temperature-c";if=sensor`)
	ls, err := linkformat.Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	for i := range doc {
		doc[i] = 'X'
	}
	if ls[0].Target != "/sensors/temp" || ls[0].Params[0].Value != "temperature-c" || ls[0].Params[1].Value != "sensor" {
		t.Errorf("links changed with the buffer: %+v", ls[0])
	}
}

// errString returns err's message, or "" for nil.
func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// offsets returns the Offset of every *weblink.SyntaxError in err, in order.
func offsets(err error) []int {
	var out []int
	var walk func(error)
	walk = func(err error) {
		var se *weblink.SyntaxError
		switch e := err.(type) {
		case nil:
		case interface{ Unwrap() []error }:
			for _, x := range e.Unwrap() {
				walk(x)
			}
		default:
			if errors.As(err, &se) {
				out = append(out, se.Offset)
			}
		}
	}
	walk(err)
	return out
}

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
