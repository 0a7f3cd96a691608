package linktemplate

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/weblinking/weblink/internal/memtest"
)

// hostileFields are Link-Template field values a hostile server could send,
// each about n bytes.
var hostileFields = []struct {
	name  string
	build func(n int) string
}{
	{"one long template", func(n int) string { return `"` + strings.Repeat("/{a}", n/4) + `"; rel="x"` }},
	{"many members", func(n int) string { return strings.TrimSuffix(strings.Repeat(`"/{a}";rel="x", `, n/16), ", ") }},
	{"many parameters", func(n int) string { return `"/x"` + strings.Repeat(`;p="1"`, n/6) }},
	// Not Strings (rule 2): found, and the last one pointed at.
	{"Integer parameters, refused at the end", func(n int) string { return `"/x"` + strings.Repeat(";p=1", n/4) }},
	{"many distinct parameters", func(n int) string {
		var b strings.Builder
		b.WriteString(`"/x"`)
		for i := 0; b.Len() < n; i++ {
			b.WriteString(";p" + strconv.Itoa(i) + `="v"`)
		}
		return b.String()
	}},
	{"escapes", func(n int) string { return `"` + strings.Repeat(`\"\\`, n/4) + `"` }},
	{"display string", func(n int) string { return `"/x"; title=%"` + strings.Repeat("%c3%bc", n/6) + `"` }},
	{"broken at the end", func(n int) string { return strings.Repeat(`"/{a}", `, n/8) + `"` }},
	{"bad member at the end", func(n int) string { return strings.Repeat(`"/{a}", `, n/8) + `x` }},
}

// maxFieldBytesPerByte bounds what Parse allocates per byte of a hostile
// field value: measured at most 47 (many distinct parameters: httpsfv's
// map and names, then a 48-byte weblink.Param each).
const maxFieldBytesPerByte = 64

// TestHostileField parses each hostile field at 1 MiB (10 000 members and
// more for the member shapes) and checks that it is parsed or refused, and
// that it allocates at most maxFieldBytesPerByte bytes per input byte.
func TestHostileField(t *testing.T) {
	const n = 1 << 20
	for _, tc := range hostileFields {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.build(n)
			var ts []Template
			var err error
			perByte := float64(memtest.Allocated(func() { ts, err = Parse(in) })) / float64(len(in))
			t.Logf("%d bytes: %d templates, error %v; %.1f B/B", len(in), len(ts), err != nil, perByte)
			if (err == nil) == strings.Contains(tc.name, "at the end") {
				t.Errorf("Parse error %v", err)
			}
			if perByte > maxFieldBytesPerByte {
				t.Errorf("Parse allocated %.1f bytes per input byte; want at most %d", perByte, maxFieldBytesPerByte)
			}
		})
	}
}

// TestHostileExpand expands hostile templates and values: each is refused
// or gives a bounded result, and allocates little beyond its input.
func TestHostileExpand(t *testing.T) {
	million := make([]string, 1<<20)
	for i := range million {
		million[i] = "member"
	}
	long := strings.Repeat("ü", 1<<19) // 1 MiB
	for _, tt := range []struct {
		name    string
		tmpl    string
		vars    map[string]any
		tooLong bool  // the error wraps ErrTooLong; else it is a syntax error
		maxB    int64 // bytes allocated at most
	}{
		{"{ repeated", strings.Repeat("{", 1<<20), nil, false, 16 << 10},
		{"huge prefix modifier", "{var:9999999}", map[string]any{"var": "x"}, false, 16 << 10},
		{"explode of a 1M-member list", "{?list*}", map[string]any{"list": million}, true, 16 << 10},
		{"1M-member list", "{list}", map[string]any{"list": million}, true, 16 << 10},
		{"1 MiB value", "{+v}", map[string]any{"v": long}, true, 16 << 10},
		{"1 MiB value cut by a prefix", "{v:9999}", map[string]any{"v": long}, false, 80 << 10},
		{"100 000 expressions", strings.Repeat("{v}", 100000), map[string]any{"v": "abc"}, true, 16 << 10},
		{"1 MiB literal", strings.Repeat("é", 1<<19), nil, true, 16 << 10},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var link any
			var err error
			allocated := memtest.Allocated(func() { link, err = Template{Template: tt.tmpl}.Expand(tt.vars) })
			t.Logf("error %v; %d bytes allocated", err != nil, allocated)
			switch {
			case tt.name == "1 MiB value cut by a prefix":
				if err != nil {
					t.Errorf("error %v; want the first 9999 characters", err)
				}
			case err == nil:
				t.Errorf("expands to %.40v...; want an error", link)
			case errors.Is(err, ErrTooLong) != tt.tooLong:
				t.Errorf("error %v; ErrTooLong %v, want %v", err, errors.Is(err, ErrTooLong), tt.tooLong)
			}
			if int64(allocated) > tt.maxB {
				t.Errorf("allocated %d bytes; want at most %d", allocated, tt.maxB)
			}
		})
	}
}
