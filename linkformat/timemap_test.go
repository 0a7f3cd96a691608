package linkformat_test

import (
	"errors"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // Europe/London for TestParseTimeMapUTC

	"github.com/google/go-cmp/cmp"
	"github.com/weblinking/weblink"
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
