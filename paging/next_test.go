package paging_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/paging"
)

func TestPagesMalformedLinkHeader(t *testing.T) {
	for _, tc := range []struct {
		name   string
		header string // Link of page 1; page 2 has none
		pages  int
		err    []error
	}{
		{"cut short", `</items?page=2>; rel="next"; title="Page 2 of`, 1, []error{paging.ErrNextLink, weblink.ErrSyntax}},
		{"next link broken", `</items?page=2> rel="next"`, 1, []error{paging.ErrNextLink, weblink.ErrSyntax}},
		{"next target not a URI", `<http://[::1/items?page=2>; rel="next"`, 1, []error{paging.ErrNextLink}},
		{"usable next despite a broken link-value", `junk; rel="last", </items?page=2>; rel="next"`, 2, nil},
		// A missing ">" (rule 8 of package weblink): the next link and the
		// prev link after it were one link-value, read as the last page
		// without error before (issue #37).
		{"missing >", `</items?page=1>; rel="alternate", </items?page=2; rel="next", </c>; rel=prev`, 1, []error{paging.ErrNextLink, weblink.ErrSyntax}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAPI(t, 2, func(_ string, p int) []string {
				if p == 1 {
					return []string{tc.header}
				}
				return nil
			})
			r := collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL)))
			for _, want := range tc.err {
				r.check(t, itemsUpTo(1, tc.pages), want)
			}
			if tc.err == nil {
				r.check(t, itemsUpTo(1, tc.pages), nil)
			}
			if got := len(a.requests()); got != tc.pages {
				t.Errorf("%d requests, want %d", got, tc.pages)
			}
		})
	}
}

func TestNextURL(t *testing.T) {
	base, err := url.Parse("https://api.example/v2/items?page=1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		lines []string
		req   bool // whether resp.Request is set
		want  string
	}{
		{"none", nil, true, ""},
		{"no next", []string{`<?page=9>; rel="last"`}, true, ""},
		{"relative", []string{`<?page=2>; rel="next"`}, true, "https://api.example/v2/items?page=2"},
		{"dot segments", []string{`<../v3/items?page=2>; rel="next"`}, true, "https://api.example/v3/items?page=2"},
		{"absolute", []string{`<http://other.example/p2>; rel="next"`}, true, "http://other.example/p2"},
		{"second line, upper case", []string{`<?page=9>; rel="last"`, `<?page=2>; REL="NEXT"`}, true, "https://api.example/v2/items?page=2"},
		{"first of two", []string{`<?page=2>; rel="prev next", <?page=3>; rel="next"`}, true, "https://api.example/v2/items?page=2"},
		{"not a URI", []string{`<http://[::1>; rel="next"`}, true, ""},
		{"malformed", []string{`<?page=2>; rel="next"; title="cut`}, true, ""},
		{"no request", []string{`<?page=2>; rel="next"`}, false, "?page=2"},
		{"anchored elsewhere", []string{`<?page=7>; rel="next"; anchor="/other", <?page=2>; rel="next"`}, true, "https://api.example/v2/items?page=2"},
		{"anchored at the page", []string{`<?page=2>; rel="next"; anchor="#results"`}, true, "https://api.example/v2/items?page=2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := &http.Response{Header: http.Header{"Link": tc.lines}}
			if tc.req {
				resp.Request = &http.Request{URL: base}
			}
			u, ok := weblink.NextURL(resp)
			if ok != (tc.want != "") || ok && u.String() != tc.want {
				t.Errorf("NextURL = %v, %v; want %q", u, ok, tc.want)
			}
		})
	}
}

func TestNextURLNil(t *testing.T) {
	if u, ok := weblink.NextURL(nil); ok || u != nil {
		t.Errorf("NextURL(nil) = %v, %v", u, ok)
	}
}
