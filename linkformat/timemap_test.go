package linkformat_test

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	_ "time/tzdata"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/memtest"
	"github.com/weblinking/weblink/linkformat"
)

// date returns the UTC time of an HTTP-date, or fails the test.
func date(t testing.TB, s string) time.Time {
	t.Helper()
	d, err := time.Parse(time.RFC1123, s)
	if err != nil {
		t.Fatal(err)
	}
	return d.UTC()
}

// TestParseTimeMapRules is a table of rules 17 to 21.
func TestParseTimeMapRules(t *testing.T) {
	for _, tt := range []struct {
		name, doc, docURL string
		check             func(t *testing.T, tm linkformat.TimeMap, err error)
	}{
		{"rule 17: with a docURL, targets resolve, absent anchors and rels stay absent",
			"</web/1/http://a.example/>;rel=memento;datetime=\"Tue, 20 Jun 2000 18:02:59 GMT\",<../x>,</tm>;rel=self;anchor=\"/tm\"",
			"http://archive.example/timemap/link/http://a.example/",
			func(t *testing.T, tm linkformat.TimeMap, err error) {
				if err != nil {
					t.Fatal(err)
				}
				if m := tm.Mementos[0]; m.Target != "http://archive.example/web/1/http://a.example/" || m.Anchor != "" {
					t.Errorf("memento %q anchor %q", m.Target, m.Anchor)
				}
				if l := tm.Links[0]; l.Target != "http://archive.example/x" || l.Rel != nil || l.Anchor != "" {
					t.Errorf("other link %+v", l)
				}
				if tm.Self != "http://archive.example/tm" {
					t.Errorf("Self %q", tm.Self)
				}
			}},
		{"rule 17: without a docURL, everything as written",
			"</web/1/x>;rel=memento;datetime=\"Tue, 20 Jun 2000 18:02:59 GMT\"", "",
			func(t *testing.T, tm linkformat.TimeMap, err error) {
				if err != nil || tm.Mementos[0].Target != "/web/1/x" {
					t.Errorf("%+v %v", tm, err)
				}
			}},
		{"rule 18: the first of each, one link may be several",
			`<http://a/>;rel="original timegate",<http://b/>;rel=original,<http://t/>;rel=self;from="Tue, 20 Jun 2000 18:02:59 GMT",<http://t2/>;rel=self`, "",
			func(t *testing.T, tm linkformat.TimeMap, err error) {
				if err != nil || tm.Original != "http://a/" || tm.TimeGate != "http://a/" || tm.Self != "http://t/" {
					t.Errorf("%+v %v", tm, err)
				}
				if !tm.From.Equal(date(t, "Tue, 20 Jun 2000 18:02:59 GMT")) || !tm.Until.IsZero() {
					t.Errorf("From %v Until %v", tm.From, tm.Until)
				}
				if len(tm.Links) != 2 || tm.Links[0].Target != "http://b/" || tm.Links[1].Target != "http://t2/" {
					t.Errorf("Links %+v", tm.Links)
				}
			}},
		{"rule 18: the from and until of timemap links stay in their Params",
			`<http://t/1>;rel=timemap;from="Tue, 20 Jun 2000 18:02:59 GMT";until="Wed, 21 Jun 2000 01:17:31 GMT",<http://t/>;rel=self;until="Tue, 27 Oct 2009 20:49:54 GMT"`, "",
			func(t *testing.T, tm linkformat.TimeMap, err error) {
				if err != nil || !tm.From.IsZero() || !tm.Until.Equal(date(t, "Tue, 27 Oct 2009 20:49:54 GMT")) {
					t.Errorf("From %v Until %v, err %v; want From zero, Until the self link's", tm.From, tm.Until, err)
				}
				if len(tm.Links) != 1 || len(tm.Links[0].Params) != 2 || tm.Links[0].Params[0].Value != "Tue, 20 Jun 2000 18:02:59 GMT" {
					t.Errorf("Links %+v", tm.Links)
				}
			}},
		{"rule 19: any case, with first/last/prev/next, document order, duplicates kept",
			`<m2>;rel="LAST Memento";datetime="Wed, 21 Jun 2000 01:17:31 GMT",<m1>;rel="first memento";datetime="Tue, 20 Jun 2000 18:02:59 GMT",<m1>;rel=memento;datetime="Tue, 20 Jun 2000 18:02:59 GMT";collection=coll,<p>;rel="prev memento";datetime="Sunday, 06-Nov-94 08:49:37 GMT"`, "",
			func(t *testing.T, tm linkformat.TimeMap, err error) {
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, m := range tm.Mementos {
					got = append(got, m.Target+" "+m.Datetime.Format(time.RFC3339))
				}
				want := []string{"m2 2000-06-21T01:17:31Z", "m1 2000-06-20T18:02:59Z", "m1 2000-06-20T18:02:59Z", "p 1994-11-06T08:49:37Z"}
				if !cmp.Equal(got, want) {
					t.Errorf("mementos %q, want %q", got, want)
				}
				if p, ok := tm.Mementos[2].Param("collection"); !ok || p.Value != "coll" {
					t.Errorf("collection param lost: %+v", tm.Mementos[2].Params)
				}
			}},
		{"rule 21: a memento without a readable datetime is an error naming it, kept in Links",
			"<a>;rel=original,\n<m1>;rel=memento;datetime=\"yesterday\",\n<m2>;rel=memento,\n<m3>;rel=memento;datetime=\"Tue, 20 Jun 2000 18:02:59 GMT\"", "",
			func(t *testing.T, tm linkformat.TimeMap, err error) {
				if len(tm.Mementos) != 1 || tm.Mementos[0].Target != "m3" || len(tm.Links) != 2 {
					t.Errorf("mementos %+v links %+v", tm.Mementos, tm.Links)
				}
				var se *weblink.SyntaxError
				if !errors.As(err, &se) || se.Offset != 18 || !strings.Contains(se.Msg, `"m1"`) || !strings.Contains(se.Msg, `"yesterday"`) {
					t.Errorf("first problem %v, want one at 18 naming m1 and its datetime", err)
				}
				if offs := offsets(err); !cmp.Equal(offs, []int{18, 57}) {
					t.Errorf("problems at %v, want [18 57]", offs)
				}
			}},
		{"rule 21: with a docURL, the error names the target as written",
			"<a>;rel=original,<../m1>;rel=memento;datetime=\"yesterday\"", "http://archive.example/timemap/link/a",
			func(t *testing.T, tm linkformat.TimeMap, err error) {
				var se *weblink.SyntaxError
				if !errors.As(err, &se) || se.Offset != 17 || !strings.Contains(se.Msg, `"../m1"`) || !strings.Contains(se.Msg, `"yesterday"`) {
					t.Errorf("error %v, want one at 17 naming ../m1 and its datetime", err)
				}
				if len(tm.Links) != 1 || tm.Links[0].Target != "http://archive.example/m1" {
					t.Errorf("Links %+v, want the memento, resolved", tm.Links)
				}
			}},
		{"rule 21: errors of Parse and of datetimes in document order",
			`<m1>;rel=memento;datetime=x, bad, <t>;rel=self;from=y;until="Tue, 20 Jun 2000 18:02:59 GMT", <m2>;rel=memento;datetime=z`, "",
			func(t *testing.T, tm linkformat.TimeMap, err error) {
				if offs := offsets(err); !cmp.Equal(offs, []int{0, 29, 34, 93}) {
					t.Errorf("problems at %v, want [0 29 34 93]: %v", offs, err)
				}
				if tm.Self != "t" || !tm.From.IsZero() || !tm.Until.Equal(date(t, "Tue, 20 Jun 2000 18:02:59 GMT")) {
					t.Errorf("self %q from %v until %v", tm.Self, tm.From, tm.Until)
				}
				if !strings.Contains(err.Error(), `from "y"`) {
					t.Errorf("error does not name the bad from: %v", err)
				}
			}},
		{"rule 21: one problem for each unreadable from and until of the self link",
			`<t>;rel=self;from=y;until=z,<t2>;rel=self;from=w`, "",
			func(t *testing.T, tm linkformat.TimeMap, err error) {
				if offs := offsets(err); !cmp.Equal(offs, []int{0, 0}) || !strings.Contains(err.Error(), `from "y"`) || !strings.Contains(err.Error(), `until "z"`) {
					t.Errorf("problems at %v: %v; want two at 0, naming y and z", offs, err)
				}
				if !tm.From.IsZero() || !tm.Until.IsZero() || len(tm.Links) != 1 {
					t.Errorf("%+v", tm)
				}
			}},
		{"rule 21: no problem, no error", "", "",
			func(t *testing.T, tm linkformat.TimeMap, err error) {
				if err != nil || tm.Mementos != nil || tm.Links != nil {
					t.Errorf("%+v %v", tm, err)
				}
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var tm linkformat.TimeMap
			var err error
			if tt.docURL == "" {
				tm, err = linkformat.ParseTimeMap([]byte(tt.doc), nil)
			} else {
				tm, err = linkformat.ParseTimeMap([]byte(tt.doc), mustURL(t, tt.docURL))
			}
			tt.check(t, tm, err)
		})
	}
}

// TestParseTimeMapUTC checks rule 20: datetimes are in UTC whatever
// time.Local is. In Europe/London "GMT" is a zone of time.Local, which
// time.Parse would use.
func TestParseTimeMapUTC(t *testing.T) {
	london, err := time.LoadLocation("Europe/London")
	if err != nil {
		t.Fatal(err)
	}
	saved := time.Local
	time.Local = london
	t.Cleanup(func() { time.Local = saved })
	tm, err := linkformat.ParseTimeMap([]byte(`<m>;rel=memento;datetime="Sun, 06 Nov 1994 08:49:37 GMT",<t>;rel=self;from="Sun, 06 Nov 1994 08:49:37 GMT";until="Sunday, 06-Nov-94 08:49:37 GMT"`), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []time.Time{tm.Mementos[0].Datetime, tm.From, tm.Until} {
		if d.Location() != time.UTC || d.Format(time.RFC3339) != "1994-11-06T08:49:37Z" {
			t.Errorf("datetime %v in %v, want 1994-11-06T08:49:37Z in UTC", d, d.Location())
		}
	}
}

// TestParseTimeMapOffsetsAgree checks that the offsets of the "<" of each
// link found for errors agree with the links weblink.Parse keeps, on
// documents where element boundaries are hard to find: a quote in an
// unquoted value, commas and "<" in quoted-strings, malformed elements.
func TestParseTimeMapOffsetsAgree(t *testing.T) {
	for _, doc := range []string{
		`<a>;x=a"b,<m>;rel=memento`,
		`<a>;title=", <m>;rel=memento", <m>;rel=memento`,
		`x, <a> junk, <m>;rel=memento`,
		`<a>;title="x\", <m>;rel=memento" , <m>;rel=memento`,
		"<a>;;;\t,\r\n<m>;rel=memento",
		`<a> ; x = "y" , <m> ; rel = memento`,
		`<a;b,c>;rel=original,<m>;rel=memento`,
		`<a>;rel=original;=x, <m>;rel=memento`,
	} {
		tm, err := linkformat.ParseTimeMap([]byte(doc), nil)
		want := strings.LastIndex(doc, "<m>")
		if offs := offsets(err); len(offs) == 0 || offs[len(offs)-1] != want || len(tm.Mementos) != 0 {
			t.Errorf("%q: problems at %v, want the last at %d (%v)", doc, offs, want, err)
		}
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

// FuzzLinkStarts checks linkStarts differentially against weblink.Parse,
// whose grammar it follows to find the "<" of each link for the errors of
// ParseTimeMap (rule 21): as many starts as links, and at each start the
// link's target; asked for fewer, the first of them.
func FuzzLinkStarts(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.wlnk")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	for _, s := range []string{
		`<a>;x=a"b,<m>;rel=memento`,
		`<a>;title=", <m>;rel=memento", <m>`,
		`x, <a> junk, <m>`,
		`<a>;title="x\", <m>" , <m>`,
		"<a>;;;\t,\r\n<m>",
		`<a> ; x = "y" , <m> ; rel = memento`,
		`<a;b,c>;rel=original,<m>`,
		`<a>;rel=original;=x, <m>`,
		`<a>; rel="next", <b>; rel="next"; x`,
		`<a>;x="unclosed, <b>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		links, _ := weblink.Parse(s)
		starts := linkformat.LinkStarts(s, len(links)+1)
		if len(starts) != len(links) {
			t.Fatalf("%d starts, %d links", len(starts), len(links))
		}
		if len(links) > 0 {
			if first := linkformat.LinkStarts(s, len(links)/2); !slices.Equal(first, starts[:len(links)/2]) {
				t.Fatalf("the first %d starts %v, not those of all: %v", len(links)/2, first, starts)
			}
		}
		for i, at := range starts {
			if s[at] != '<' {
				t.Fatalf("start %d at %d is %q", i, at, s[at])
			}
			end := strings.IndexByte(s[at:], '>')
			if got := strings.Trim(s[at+1:at+end], " \t\r\n"); got != links[i].Target {
				t.Fatalf("link %d: target %q at %d, Parse's %q", i, got, at, links[i].Target)
			}
		}
	})
}
