package weblink

import (
	"runtime"
	"strings"
	"testing"
)

// hostileCases are inputs built to make a parser slow, large or crash; build
// returns an input of about n bytes and check looks at what Parse made of it.
var hostileCases = []struct {
	name  string
	build func(n int) string
	check func(t *testing.T, n int, ls Links, err error)
}{
	{"semicolons", func(n int) string { return "<a>" + strings.Repeat(";", n) },
		func(t *testing.T, n int, ls Links, err error) {
			if err != nil || len(ls) != 1 || ls[0].Target != "a" || ls[0].Params != nil {
				t.Errorf("got %d links, err %v; want one link <a> without params", len(ls), err)
			}
		}},
	{"one quoted-string", func(n int) string { return `<a>; title="` + strings.Repeat("x,", n/2) + `"` },
		func(t *testing.T, n int, ls Links, err error) {
			if err != nil || len(ls) != 1 || len(ls[0].Title) != n/2*2 {
				t.Errorf("got %d links, err %v; want one link with a %d-byte title", len(ls), err, n/2*2)
			}
		}},
	{"unclosed quoted-string", func(n int) string { return `<a>, <b>; title="` + strings.Repeat("x,<", n/3) },
		func(t *testing.T, n int, ls Links, err error) {
			if err == nil || len(ls) != 1 || ls[0].Target != "a" {
				t.Errorf("got %d links, err %v; want <a> only and an error", len(ls), err)
			}
		}},
	// n/10 link-values: more than 100 000 at the large size.
	{"link-values", func(n int) string { return strings.Repeat(`<a>; rel=next,`, n/10) },
		func(t *testing.T, n int, ls Links, err error) {
			if err != nil || len(ls) != n/10 || ls[len(ls)-1].Rel[0] != "next" {
				t.Errorf("got %d links, err %v; want %d", len(ls), err, n/10)
			}
		}},
	{"backslash escapes", func(n int) string { return `<a>; title="` + strings.Repeat(`\\`, n/2) + `"` },
		func(t *testing.T, n int, ls Links, err error) {
			if err != nil || len(ls) != 1 || ls[0].Title != strings.Repeat(`\`, n/2) {
				t.Errorf("got %d links, err %v; want one title of %d backslashes", len(ls), err, n/2)
			}
		}},
	{"malformed link-values", func(n int) string { return strings.Repeat(`x,`, n/2) },
		func(t *testing.T, n int, ls Links, err error) {
			if err == nil || len(ls) != 0 {
				t.Errorf("got %d links, err %v; want none and an error", len(ls), err)
			}
		}},
	{"open brackets", func(n int) string { return strings.Repeat(`<`, n) },
		func(t *testing.T, n int, ls Links, err error) {
			if err == nil || len(ls) != 0 {
				t.Errorf("got %d links, err %v; want none and an error", len(ls), err)
			}
		}},
	{"relation types", func(n int) string { return `<a>; rel="` + strings.Repeat("a ", n/2) + `"` },
		func(t *testing.T, n int, ls Links, err error) {
			if err != nil || len(ls) != 1 || len(ls[0].Rel) != n/2 {
				t.Errorf("got %d links, err %v; want one link with %d relation types", len(ls), err, n/2)
			}
		}},
	{"star parameters", func(n int) string {
		return "<a>" + strings.Repeat("; x=1; x*=UTF-8''y", n/36) + strings.Repeat("; x*=bad", n/16)
	},
		func(t *testing.T, n int, ls Links, err error) {
			if err == nil || len(ls) != 1 || len(ls[0].Params) != n/36 {
				t.Errorf("got %d links, err %v; want one link with %d params", len(ls), err, n/36)
			}
		}},
}

// TestHostileInput parses each hostile input at 256 KB and at 1 MB: Parse
// must not panic, must give the expected result, and must allocate in
// proportion to the input (the bytes allocated for 4x the input may be at
// most 6x, leaving room for slice growth).
func TestHostileInput(t *testing.T) {
	const small, large = 256 << 10, 1 << 20
	for _, tc := range hostileCases {
		t.Run(tc.name, func(t *testing.T) {
			var allocated [2]uint64
			for i, n := range []int{small, large} {
				in := tc.build(n)
				var ls Links
				var err error
				allocated[i] = bytesAllocated(func() { ls, err = Parse(in) })
				tc.check(t, n, ls, err)
			}
			if ratio := float64(allocated[1]) / float64(max(allocated[0], 1)); ratio > 6 && allocated[1] > 1<<16 {
				t.Errorf("allocated %d bytes for %d bytes of input and %d for %d: ratio %.1f is not linear",
					allocated[0], small, allocated[1], large, ratio)
			}
			if perByte := float64(allocated[1]) / large; perByte > 160 {
				t.Errorf("allocated %.0f bytes per input byte", perByte)
			}
		})
	}
}

// bytesAllocated returns the bytes allocated on the heap while f runs.
func bytesAllocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestErrorSizeBounded checks that a long hostile value does not make the
// error message long.
func TestErrorSizeBounded(t *testing.T) {
	_, err := Parse(strings.Repeat("x", 1<<20))
	if err == nil || len(err.Error()) > 300 {
		t.Errorf("error of %d bytes: %.300v", len(err.Error()), err)
	}
}
