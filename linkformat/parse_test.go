package linkformat_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/weblinking/weblink"
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
