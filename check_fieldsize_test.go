package weblink

import (
	"strings"
	"testing"
)

// TestCheckFieldSize checks rule 29: one warning per field value, at the
// first link-value whose last byte (not counting the comma and whitespace
// after it) is beyond byte 4096, after the errors at that offset.
func TestCheckFieldSize(t *testing.T) {
	// link is a clean link-value of n bytes, n >= 20.
	link := func(n int) string {
		s := `</` + strings.Repeat("a", n-15) + `>; rel="next"`
		if len(s) != n {
			panic("link length")
		}
		return s
	}
	const msg = "longer than 4 KiB"
	tests := []struct {
		name string
		in   string
		want []want
	}{
		{"4096 bytes exactly", link(2047) + ", " + link(2047), nil},
		{"one link of 4096 bytes", link(4096), nil},
		{"one link of 4097 bytes", link(4097), []want{w(0, msg)}},
		{"the second link ends at byte 4097", link(2047) + ", " + link(2048), []want{w(2049, msg)}},
		{"the comma after it does not count", link(4096) + ",", []want{e(4096, "trailing comma")}},
		{"nor the whitespace before the comma", link(4096) + " \t,", []want{e(4098, "trailing comma")}},
		{"nor the whitespace at the end", link(4096) + "   ", nil},
		{"whitespace before the link counts from its <", link(4090) + ",      " + link(30), []want{w(4097, msg)}},
		{"once per field value", link(3000) + ", " + link(3000) + ", " + link(3000), []want{w(3002, msg)}},
		{"after the errors at the link", link(4090) + ", </a b>; rel=next", []want{e(4092, "target"), w(4092, msg)}},
		{"before the problems after its start", link(4090) + `, </a>; rel=next; title*=UTF-8'en'%ZZ`,
			[]want{w(4092, msg), e(4092+32, "title* value does not decode")}},
		{"a malformed link-value counts", link(4090) + ", junk junk junk", []want{e(4092, `must start with "<"`), w(4092, msg)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Check(tt.in)
			if !matchProblems(got, tt.want) {
				t.Errorf("Check of %d bytes:\n%s\nwant:\n%s", len(tt.in), formatProblems(got), formatWants(tt.want))
			}
		})
	}
}
