package linktemplate

import (
	"strconv"
	"strings"
	"testing"
)

// BenchmarkParse parses the hostile fields of field_test.go at 256 KiB
// and 1 MiB: time and bytes per op grow fourfold when parsing is linear.
func BenchmarkParse(b *testing.B) {
	for _, tc := range hostileFields {
		for _, n := range []int{256 << 10, 1 << 20} {
			in := tc.build(n)
			b.Run(tc.name+"/"+sizeName(n), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(in)))
				for range b.N {
					_, _ = Parse(in)
				}
			})
		}
	}
}

// BenchmarkExpand expands a typical template and the hostile ones.
func BenchmarkExpand(b *testing.B) {
	million := make([]string, 1<<20)
	for i := range million {
		million[i] = "member"
	}
	for _, tc := range []struct {
		name string
		tmpl string
		vars map[string]any
	}{
		{"typical", "/repos/{owner}/{repo}/issues{?state,labels,per_page}", map[string]any{"owner": "golang", "repo": "go", "state": "open", "labels": []string{"bug", "help wanted"}, "per_page": 100}},
		{"{ repeated 1M", strings.Repeat("{", 1<<20), nil},
		{"{var:9999999}", "{var:9999999}", map[string]any{"var": "x"}},
		{"explode of 1M members", "{?list*}", map[string]any{"list": million}},
		{"1M expressions of undefined", strings.Repeat("{u}", 1<<20/3), nil},
		{"64 KiB expansion", "{+v}", map[string]any{"v": strings.Repeat("x", MaxExpansion)}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				_, _ = Template{Template: tc.tmpl}.Expand(tc.vars)
			}
		})
	}
}

func sizeName(n int) string {
	if n >= 1<<20 {
		return strconv.Itoa(n>>20) + "MiB"
	}
	return strconv.Itoa(n>>10) + "KiB"
}
