package linkformat_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/linkformat"
)

// TestValues is a table of rule 4.
func TestValues(t *testing.T) {
	l := weblink.Link{Target: "/s", Rel: []string{"item"}, Params: []weblink.Param{
		{Name: "rt", Value: "temperature-c  sensor"},
		{Name: "if", Value: "core.s"},
		{Name: "RT", Value: "\tCore.Rd \n"},
		{Name: "rt", Value: "x\u00a0y"},
		{Name: "obs"},
		{Name: "sz", Value: "262144"},
	}}
	for _, tt := range []struct {
		name string
		want []string
	}{
		{"rt", []string{"temperature-c", "sensor", "Core.Rd", "x\u00a0y"}},
		{"Rt", []string{"temperature-c", "sensor", "Core.Rd", "x\u00a0y"}},
		{"if", []string{"core.s"}},
		{"obs", nil},
		{"sz", []string{"262144"}},
		{"ct", nil},
		{"rel", nil},
	} {
		if got := linkformat.Values(l, tt.name); !cmp.Equal(got, tt.want) {
			t.Errorf("Values(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestContentFormats is a table of rule 5.
func TestContentFormats(t *testing.T) {
	for _, tt := range []struct {
		name   string
		params []weblink.Param
		want   []uint16
		bad    []string // tokens the error names
	}{
		{"no ct", nil, nil, nil},
		{"one", []weblink.Param{{Name: "ct", Value: "40"}}, []uint16{40}, nil},
		{"a quoted list (RFC 7252 §7.2.1)", []weblink.Param{{Name: "ct", Value: "0 41"}}, []uint16{0, 41}, nil},
		{"an unquoted list (leshan#1020)", []weblink.Param{{Name: "ct", Value: "60 110 112"}}, []uint16{60, 110, 112}, nil},
		{"repeated ct, duplicates kept", []weblink.Param{{Name: "ct", Value: "21"}, {Name: "CT", Value: "22 21"}}, []uint16{21, 22, 21}, nil},
		{"limits", []weblink.Param{{Name: "ct", Value: "00000 65535"}}, []uint16{0, 65535}, nil},
		{"bad tokens skipped and named", []weblink.Param{{Name: "ct", Value: "40 65536 -1 x 000001 4.0"}}, []uint16{40}, []string{"65536", "-1", "x", "000001", "4.0"}},
		{"an empty ct", []weblink.Param{{Name: "ct"}}, nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := linkformat.ContentFormats(weblink.Link{Params: tt.params})
			if !cmp.Equal(got, tt.want) {
				t.Errorf("ContentFormats = %v, want %v", got, tt.want)
			}
			if (err != nil) != (len(tt.bad) > 0) {
				t.Fatalf("error %v, want one naming %q", err, tt.bad)
			}
			for _, b := range tt.bad {
				if !strings.Contains(err.Error(), `"`+b+`"`) {
					t.Errorf("error %q does not name %q", err, b)
				}
			}
		})
	}
}

// TestContentFormatsErrorBounded checks that a hostile ct list makes a
// short error.
func TestContentFormatsErrorBounded(t *testing.T) {
	_, err := linkformat.ContentFormats(weblink.Link{Params: []weblink.Param{{Name: "ct", Value: strings.Repeat("x ", 100000) + strings.Repeat("y", 1000)}}})
	if err == nil || len(err.Error()) > 400 {
		t.Errorf("error of %d bytes", len(errString(err)))
	}
}
