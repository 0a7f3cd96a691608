package weblink

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/weblinking/weblink/internal/memtest"
	"github.com/weblinking/weblink/internal/plainuri"
	"github.com/weblinking/weblink/internal/quote"
	"github.com/weblinking/weblink/internal/weborigin"
)

// oldNextLink is how nextLink found the next link before findNext, kept as
// the oracle of the differential tests: parse every field line into Links
// (ParseHeader), resolve every target and anchor with net/url, then take the
// first link with relation type "next" whose anchor is the page (both as
// rule 32 writes a URI: a raw space of the request URL is %20).
func oldNextLink(resp *http.Response) (*url.URL, error) {
	if resp == nil {
		return nil, nil
	}
	links, perr := ParseHeader(resp.Header)
	where := "the response"
	if resp.Request != nil && resp.Request.URL != nil {
		where = quote.URL(resp.Request.URL)
		var errs []error
		for i := range links {
			l := &links[i]
			var err error
			if l.Target, err = oldResolveRef(resp.Request.URL, l.Target); err != nil {
				errs = append(errs, err)
			}
			if l.Anchor != "" {
				if l.Anchor, err = oldResolveRef(resp.Request.URL, l.Anchor); err != nil {
					errs = append(errs, err)
				}
			}
		}
		perr = errors.Join(perr, errors.Join(errs...))
	}
	var l Link
	ok := false
	for _, c := range links {
		if c.HasRel(RelNext) && (c.Anchor == "" || resp.Request == nil || resp.Request.URL == nil || asURI(oldVisitKeyOf(c.Anchor)) == asURI(weborigin.VisitKey(resp.Request.URL))) {
			l, ok = c, true
			break
		}
	}
	if !ok {
		if perr != nil {
			return nil, fmt.Errorf("%w in %s; it may be the last page, or the next link may be the broken part: %w", errNextLink, where, perr)
		}
		return nil, nil
	}
	u, err := url.Parse(l.Target)
	if err != nil {
		return nil, fmt.Errorf("%w in %s: the next link target is not a URI reference: %w", errNextLink, where, err)
	}
	return u, nil
}

// errNextLink is what the old path wrapped for a malformed header without a
// usable next link (package paging's ErrNextLink).
var errNextLink = errors.New("malformed Link header and no usable next link")

// oldResolveRef is resolveRef without its plainuri.Absolute short cut: always
// net/url, given ref as plainuri.Resolve parses it (rule 32: net/url alone
// writes "!" back as %21 and %2F as "/" in a path that is not plain ASCII).
func oldResolveRef(base *url.URL, ref string) (string, error) {
	s, err := plainuri.Resolve(base, ref)
	if err != nil {
		return ref, &ResolveError{Ref: ref, Err: err}
	}
	return s, nil
}

// oldVisitKeyOf is visitKeyOf as nextOf called it.
func oldVisitKeyOf(ref string) string {
	u, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	return weborigin.VisitKey(u)
}

// nextBases are the request URLs of the differential tests: none, an
// ordinary one, and ones where resolution or the anchor comparison has
// corner cases (dot segments, an empty query, a fragment, upper case, a
// default port, an opaque URL).
var nextBases = []string{
	"",
	"https://api.example/v2/items?page=1",
	"https://API.example:443/v2/./items?page=1#top",
	"http://h/p?",
	"http://h",
	"https://u:pw@h/a/b/c",
	"mailto:a@b",
}

// nextHeaders are field lines for the differential tests beside the
// conformance and parse test inputs: next links with anchors and targets
// that net/url resolves, rejects or changes.
var nextHeaders = [][]string{
	{`<?page=7>; rel="next"; anchor="/other", <?page=2>; rel="next"`},
	{`<?page=2>; rel="next"; anchor="#results"`},
	{`<?page=2>; rel="next"; anchor="https://api.example/v2/items?page=1#x"`},
	{`<?page=2>; rel="next"; anchor="HTTPS://api.example:443/v2/items?page=1"`},
	{`<?page=2>; rel="next"; anchor="?page=1"`},
	{`<?page=2>; rel="next"; anchor="http://[::1"`, `<?page=3>; rel=next`},
	{`<http://[::1>; rel="next"`},
	{`<http://[::1>; rel="last"`},
	{`<a>; rel=last; anchor=":x"`},
	{`<?page=2>; rel="next"; title="cut`},
	{`<a>; rel=last; title*=bad`, `<b>; rel=prev; x*=UTF-8''%zz`},
	{`x, y`, ``, `<z>; rel=next`},
	{`<https://h/a/../b>; rel=next`},
	{`<https://h//x>; rel=next`},
	{`<https://h/x#>; rel=next`},
	{`<https://h:/x>; rel=next`},
	{`<HTTPS://h/x>; REL=NEXT`},
	{strings.Repeat(`x,`, 40) + `<a>; rel=last`, strings.Repeat(`<:>,`, 20)},
}

// checkSameNext fails t when findNext and oldNextLink disagree on resp:
// the URL, and whether a chosen target is not a URI reference; and when
// neither NextURL nor ParseResponse tells a malformed header that the old
// path reported from the last page (a next link lost silently).
func checkSameNext(t *testing.T, resp *http.Response) {
	t.Helper()
	want, wantErr := oldNextLink(resp)
	got, err := findNext(resp)
	if (got == nil) != (want == nil) || got != nil && got.String() != want.String() {
		t.Fatalf("%q against %v: findNext = %v, old path = %v", resp.Header["Link"], pageURL(resp.Request), got, want)
	}
	notURI := wantErr != nil && strings.Contains(wantErr.Error(), "not a URI reference")
	if (err != nil) != notURI {
		t.Fatalf("%q against %v: findNext error %v, old path %v", resp.Header["Link"], pageURL(resp.Request), err, wantErr)
	}
	if u, ok := NextURL(resp); ok != (want != nil) || ok && u.String() != want.String() {
		t.Fatalf("%q against %v: NextURL = %v, %v; old path %v", resp.Header["Link"], pageURL(resp.Request), u, ok, want)
	}
	if want == nil && wantErr != nil && resp.Request != nil {
		if _, perr := ParseResponse(resp); perr == nil {
			t.Fatalf("%q against %v: no next URL and ParseResponse reports no problem; old path %v", resp.Header["Link"], pageURL(resp.Request), wantErr)
		}
	}
	if resp.Request != nil {
		// NextURL resolves against the request URL itself, userinfo
		// included (the next request authenticates as the first did);
		// ParseResponse leaves the userinfo out (rule 23).
		links, _ := ParseHeader(resp.Header)
		links = links.Resolve(resp.Request.URL)
		l, ok := nextOf(links, resp.Request)
		if ok != (want != nil || notURI) || ok && want != nil && l.Target != want.String() && want.String() != mustParse(l.Target) {
			t.Fatalf("%q against %v: nextOf of ParseHeader and Resolve = %v, %v; old path %v", resp.Header["Link"], pageURL(resp.Request), l.Target, ok, want)
		}
	}
}

// mustParse returns ref as url.Parse writes it back, or ref.
func mustParse(ref string) string {
	u, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	return u.String()
}

// nextResponse returns a response with the Link field lines lines to a
// request for base ("": no request).
func nextResponse(t testing.TB, base string, lines []string) *http.Response {
	resp := &http.Response{Header: http.Header{"Link": lines}}
	if base != "" {
		u, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		resp.Request = &http.Request{URL: u}
	}
	return resp
}

// TestFindNextSameAsParse checks findNext, NextURL and nextOf against the
// old path (parse everything, resolve everything, choose) on the
// conformance Link vectors, the parse tests and nextHeaders, against every
// base of nextBases, with each input alone, after a field line without a
// next link, and before one with a next link.
func TestFindNextSameAsParse(t *testing.T) {
	inputs := nextHeaders
	for _, s := range conformanceStrings(t, "conformance/link-*.json", "header") {
		inputs = append(inputs, []string{s})
	}
	for _, tt := range parseTests {
		inputs = append(inputs, []string{tt.in})
	}
	for _, lines := range inputs {
		for _, base := range nextBases {
			for _, variant := range [][]string{
				lines,
				append([]string{`<?page=9>; rel="last"`}, lines...),
				append(append([]string(nil), lines...), `<https://api.example/v2/items?page=2>; rel="next"`),
			} {
				checkSameNext(t, nextResponse(t, base, variant))
			}
		}
	}
}

// FuzzFindNext checks findNext against the old path on two field lines and
// a base URL.
func FuzzFindNext(f *testing.F) {
	for _, lines := range nextHeaders {
		f.Add(lines[0], strings.Join(lines[1:], ", "), "https://api.example/v2/items?page=1")
	}
	for i, s := range conformanceStrings(f, "conformance/link-*.json", "header") {
		f.Add(s, `<?page=2>; rel="next"`, nextBases[i%len(nextBases)])
	}
	f.Fuzz(func(t *testing.T, line1, line2, base string) {
		u, err := url.Parse(base)
		if err != nil {
			return
		}
		resp := nextResponse(t, base, []string{line1, line2})
		if !u.IsAbs() {
			// A client's request URL is absolute. Against a relative one
			// net/url can resolve to a URL it cannot parse back (""
			// against ".//%20" is "//%20"), which the old path reported
			// and findNext does not look for: only no panic is checked.
			findNext(resp)
			NextURL(resp)
			return
		}
		checkSameNext(t, resp)
	})
}

// TestNextAnchorRawBytes checks that a next link anchored at the page is
// found when the request URL holds bytes no URI holds (a raw space in its
// query, which url.Parse accepts): the anchor, resolved, has them
// percent-encoded (rule 32), or raw from the base, and is compared with the
// page as rule 32 would write it, by NextURL and on ParseResponse's links.
func TestNextAnchorRawBytes(t *testing.T) {
	for _, tc := range []struct{ base, anchor string }{
		{"http://h/p?a b", "#0"},
		{"http://h/p?a b", "?a b"},
		{"http://h/p?a b", "http://h/p?a%20b#x"},
		{"http://h/p?a%20b", "?a b"},
		{"http://h/p?{x}", "#f"},
		{"http://h/p?{x}", "?{x}"},
		{"http://h/p?%zz", "#f"},
		{"A:? ", "#0"},
	} {
		resp := nextResponse(t, tc.base, []string{`<x>; rel="next"; anchor="` + tc.anchor + `"`})
		want, _ := resolveRef(resp.Request.URL, "x")
		if u, ok := NextURL(resp); !ok || u.String() != want {
			t.Errorf("request URL %q, anchor %q: NextURL = %v, %v; want %s", tc.base, tc.anchor, u, ok, want)
		}
		links, _ := ParseResponse(resp)
		if l, ok := nextOf(links, resp.Request); !ok || l.Target != want {
			t.Errorf("request URL %q, anchor %q: nextOf of ParseResponse = %q, %v; want %s", tc.base, tc.anchor, l.Target, ok, want)
		}
	}
	// Still not the page: another query, or another path.
	for _, anchor := range []string{"?a%20c", "/q?a b", "?a+b"} {
		resp := nextResponse(t, "http://h/p?a b", []string{`<x>; rel="next"; anchor="` + anchor + `"`})
		if u, ok := NextURL(resp); ok {
			t.Errorf("request URL http://h/p?a b, anchor %q: NextURL = %v, want none", anchor, u)
		}
	}
}

// TestNextURLAllocs checks the allocations of NextURL on GitHub's header:
// the parser's backing and the URL.
func TestNextURLAllocs(t *testing.T) {
	resp := nextResponse(t, "https://api.github.com/repositories/1300192/issues?page=3", []string{
		`<https://api.github.com/repositories/1300192/issues?page=2>; rel="prev", ` +
			`<https://api.github.com/repositories/1300192/issues?page=4>; rel="next", ` +
			`<https://api.github.com/repositories/1300192/issues?page=515>; rel="last"`,
	})
	if n := testing.AllocsPerRun(100, func() { NextURL(resp) }); n > 3 {
		t.Errorf("NextURL made %v allocations, want at most 3", n)
	}
}

// TestNextURLMemoryBound checks that NextURL allocates at most 32 bytes per
// header byte for every memory shape at 4 MiB, in one field line and in
// 1000, with no next link and with one in a field line after the rest:
// finding the next link must not build every Link, only the one link-value
// it reads at a time, whose own parameters may be most of the input (a
// Param is 48 bytes; ";x" is 2: the worst shape costs 24 bytes a byte). (The next link goes in
// a line of its own so that no shape swallows it: after "open brackets" in
// the same line, its ">" would close the first "<", making the whole line
// the target of one next link; TestNextURLHugeTarget covers that.)
func TestNextURLMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("4 MiB inputs")
	}
	const n = 4 << 20
	base, _ := url.Parse("https://api.example/items?page=1")
	for _, tc := range memtest.Shapes {
		for _, next := range []string{"", `<?page=2>; rel="next"`} {
			t.Run(fmt.Sprintf("%s/next=%t", tc.Name, next != ""), func(t *testing.T) {
				for _, lines := range [][]string{repeatLine(tc.Build(n), 1, next), repeatLine(tc.Build(n/1000), 1000, next)} {
					size := 0
					for _, l := range lines {
						size += len(l)
					}
					resp := &http.Response{Header: http.Header{"Link": lines}, Request: &http.Request{URL: base}}
					var ok bool
					perByte := float64(memtest.Allocated(func() { _, ok = NextURL(resp) })) / float64(size)
					t.Logf("%d lines: %.2f B/B", len(lines), perByte)
					// The race detector moves more to the heap: 48 B/B measured.
					if bound := map[bool]float64{false: 32, true: 64}[raceEnabled]; perByte > bound {
						t.Errorf("%d lines: NextURL allocated %.2f bytes per header byte, want at most %v", len(lines), perByte, bound)
					}
					if wantOK := next != "" || tc.Name == "rel next" || tc.Name == "anchored next links"; ok != wantOK {
						t.Errorf("%d lines: NextURL found a next link: %t, want %t", len(lines), ok, wantOK)
					}
				}
			})
		}
	}
}

// TestNextURLHugeTarget checks what NextURL costs when the next link's
// target is itself 4 MiB. Finding it costs nothing; net/url's parse of the
// target (which escapes the path to compare it with the raw one) and its
// resolution (which copies the path and escapes it again) take the rest, a
// few times the target's size.
func TestNextURLHugeTarget(t *testing.T) {
	const n = 4 << 20
	value := "<" + strings.Repeat("a/", n/2) + `>; rel="next"`
	base, _ := url.Parse("https://api.example/items?page=1")
	resp := &http.Response{Header: http.Header{"Link": {value}}, Request: &http.Request{URL: base}}
	var u *url.URL
	perByte := float64(memtest.Allocated(func() { u, _ = NextURL(resp) })) / float64(len(value))
	t.Logf("NextURL: %.2f B/B", perByte)
	if u == nil || len(u.Path) < n {
		t.Fatalf("NextURL = %.40v, want the 4 MiB target", u)
	}
	if perByte > 32 {
		t.Errorf("NextURL allocated %.2f bytes per header byte, want at most 32", perByte)
	}
}

// linearFuncs are the functions TestParseTimeLinear times.
var linearFuncs = []struct {
	name string
	run  func(string)
}{
	{"Parse", func(s string) { _, _ = Parse(s) }},
	{"Parser", func(s string) { var p Parser; _, _ = p.Parse(s) }},
	{"NextURL", func(s string) {
		_, _ = NextURL(&http.Response{Header: http.Header{"Link": {s}}, Request: &http.Request{URL: linearBase}})
	}},
}

// linearBase is the request URL of the NextURL timings.
var linearBase = &url.URL{Scheme: "https", Host: "api.example", Path: "/items", RawQuery: "page=1"}

// TestNextURLOpenBrackets checks that 4 MiB of "<" before the next link
// are one link-value whose ">" is missing before the comma (rule 8): it is
// dropped, and NextURL finds the next link after it at no cost. Before,
// the ">" of the next link closed the first "<", and the whole field value
// was the 4 MiB target of one next link.
func TestNextURLOpenBrackets(t *testing.T) {
	const n = 4 << 20
	value := strings.Repeat("<", n) + `, <?page=2>; rel="next"`
	base, _ := url.Parse("https://api.example/items?page=1")
	resp := &http.Response{Header: http.Header{"Link": {value}}, Request: &http.Request{URL: base}}
	var u *url.URL
	perByte := float64(memtest.Allocated(func() { u, _ = NextURL(resp) })) / float64(len(value))
	t.Logf("NextURL: %.2f B/B", perByte)
	if u == nil || u.String() != "https://api.example/items?page=2" {
		t.Fatalf("NextURL = %.40v, want https://api.example/items?page=2", u)
	}
	if perByte > 1 {
		t.Errorf("NextURL allocated %.2f bytes per header byte, want at most 1", perByte)
	}
}
