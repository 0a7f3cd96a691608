package discover

import (
	"errors"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/weblinking/weblink"
)

// FuzzHTML checks that HTML never panics and that what it returns keeps
// the rules: a non-empty Rel of lower-case tokens without whitespace, no
// Anchor, valid UTF-8, absolute targets when they resolved; the <link>
// elements of a Hyperlinks scan are what a scan without it finds; and
// MaxBytes at the document's length changes nothing.
func FuzzHTML(f *testing.F) {
	for _, tc := range htmlCases {
		f.Add(tc.in)
	}
	base, _ := url.Parse(docURL)
	f.Fuzz(func(t *testing.T, doc string) {
		var sources []string
		s := htmlScanner{hyperlinks: true, sources: &sources}
		all, err := s.scan(strings.NewReader(doc), base)
		if len(sources) != len(all) {
			t.Fatalf("%d sources for %d links", len(sources), len(all))
		}
		for _, l := range all {
			checkLink(t, l)
			if err == nil {
				if u, perr := url.Parse(l.Target); perr != nil || !u.IsAbs() {
					t.Errorf("target %q is not absolute (%v)", l.Target, perr)
				}
			}
		}
		var onlyLink weblink.Links
		for i, l := range all {
			if sources[i] == "link" {
				onlyLink = append(onlyLink, l)
			}
		}
		links, _ := HTML(strings.NewReader(doc), base)
		if diff := cmp.Diff(onlyLink, links); diff != "" {
			t.Errorf("<link> elements differ with Hyperlinks (-with +without):\n%s", diff)
		}
		capped, cerr := HTML(strings.NewReader(doc), base, MaxBytes(int64(max(len(doc), 1))))
		if diff := cmp.Diff(links, capped); diff != "" || errors.Is(cerr, ErrTruncated) {
			t.Errorf("MaxBytes(len) changed the result: %v\n%s", cerr, diff)
		}
	})
}

// checkLink checks the invariants every discovered link keeps.
func checkLink(t *testing.T, l weblink.Link) {
	t.Helper()
	if len(l.Rel) == 0 || l.Anchor != "" {
		t.Errorf("link %#v: want a Rel and no Anchor", l)
	}
	for _, r := range slices.Concat(l.Rel, l.Rev) {
		if r == "" || strings.ContainsAny(r, " \t\n\f\rABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			t.Errorf("relation type %q is empty, has whitespace or upper case", r)
		}
	}
	strs := slices.Concat(l.Rel, l.Rev, l.Hreflang, []string{l.Target, l.Media, l.Title, l.Type})
	for _, p := range l.Params {
		strs = append(strs, p.Name, p.Value)
	}
	for _, s := range strs {
		if !utf8.ValidString(s) {
			t.Errorf("invalid UTF-8 %q in %#v", s, l)
		}
	}
}

// FuzzFeed checks that Feed never panics, that every link has one
// lower-case relation type and no Anchor, and that its links are a prefix
// of those found when the document is cut in half: what was read is kept.
func FuzzFeed(f *testing.F) {
	for _, tc := range feedCases {
		f.Add(tc.in)
	}
	base, _ := url.Parse(docURL)
	f.Fuzz(func(t *testing.T, doc string) {
		links, _ := Feed(strings.NewReader(doc), base)
		for _, l := range links {
			if len(l.Rel) != 1 || l.Rel[0] == "" || l.Rel[0] != strings.ToLower(l.Rel[0]) || l.Anchor != "" {
				t.Errorf("link %#v: want one lower-case relation type and no Anchor", l)
			}
		}
		half, _ := Feed(strings.NewReader(doc[:len(doc)/2]), base)
		// The half document's last link may be an RSS <link> whose text
		// was cut; the others are the whole document's first links.
		if len(half) > 0 {
			half = half[:len(half)-1]
		}
		if len(half) > len(links) || !cmp.Equal(half, links[:len(half)], cmpopts.EquateEmpty()) {
			t.Errorf("links of the first half %v are not a prefix of %v", half, links)
		}
	})
}

// FuzzResolver checks that the short cut of resolver gives what resolve
// (net/url) gives, for every reference and a few bases.
func FuzzResolver(f *testing.F) {
	for _, s := range []string{
		"/a/b", "/a/./b", "/a/../b", "/.well-known/x", "/a/.", "/a/..", "/a//b", "/a?b=/c/../d#e", "/%41%2f%zz",
		"/a b", "/é", "/a#b#c", "/[x]", "/?", "/#", "/a?", "https://h.example", "https://h.example:8080/p?q#f",
		"http://H.Example/A", "https://h:/p", "https://user@h/p", "https://h.example?q=1", "https://[::1]/", "//h/p", "/",
	} {
		f.Add(s, 0)
	}
	bases := []string{"https://example.com/dir/page?q=1#frag", "http://user:pw@Example.COM:8080/", "https://[::1]:443/a/b", "file:///tmp/x", "mailto:a@b",
		"http://u%21:p!%2a@h/d/", "http://a%40b:p%3Aq@h"} // user information kept as written
	f.Fuzz(func(t *testing.T, ref string, b int) {
		var p0, p1, p2 problems
		base := resolveURL(baseURL{}, bases[uint(b)%uint(len(bases))], &p0) // as a <base href>
		if err := p0.err(); err != nil {
			t.Fatal(err)
		}
		r := newResolver(baseURL{URL: withoutFragmentURL(base.URL), user: base.user})
		if got, want := r.resolve(ref, &p1), resolve(base, ref, &p2); got != want {
			t.Errorf("resolver(%q).resolve(%q) = %q; resolve gives %q", base, ref, got, want)
		}
	})
}
