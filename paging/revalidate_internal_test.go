package paging

import (
	"bytes"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// fuzzHeader reads "Name: value" lines into a header with the keys net/http
// gives a response's header: canonical, unless the name holds a byte that
// no token does, which net/http keeps as written. (Keys spelled two ways,
// "Set-CookIe" beside "Set-Cookie", net/http never gives: a rebuilt page
// holds each field under its canonical key, and its values in the order
// the header map was walked.)
func fuzzHeader(text string) http.Header {
	h := make(http.Header)
	for _, line := range strings.Split(text, "\n") {
		if name, value, ok := strings.Cut(line, ":"); ok {
			name = http.CanonicalHeaderKey(name)
			h[name] = append(h[name], strings.TrimSpace(value))
		}
	}
	return h
}

// FuzzNotModified feeds a stored page and a 304 of any header to the checks
// and the rebuild of rules 22 and 26: never a panic; a page rebuilt only
// for the stored page's URL, with its body, a 200, the rate-limit fields
// and Set-Cookie of the 304 alone, and no control byte in the header.
func FuzzNotModified(f *testing.F) {
	f.Add("ETag: \"a\"\nLink: <https://api.example/items?page=2>; rel=\"next\"\nX-RateLimit-Remaining: 0\nContent-Length: 2",
		[]byte("[]"), "ETag: \"a\"\nX-RateLimit-Remaining: 10", true)
	f.Add("ETag: W/\"a\"\nLast-Modified: Mon, 02 Jan 2006 15:04:05 GMT\nLink: <?page=2>; rel=next",
		[]byte("[1]"), "ETag: \"b\"\nContent-Length: 9", true)
	f.Add("Last-Modified: Mon, 02 Jan 2006 15:04:05 GMT\nLink: <2>; rel=next\nSet-Cookie: s=1",
		[]byte("x"), "Vary: *\nSet-Cookie: t=2", false)
	f.Fuzz(func(t *testing.T, storedText string, body []byte, text304 string, sameURL bool) {
		const pageURL = "https://api.example/items?page=1"
		sp := StoredPage{URL: pageURL, Header: fuzzHeader(storedText), Body: body}
		_ = storable(&http.Request{Method: http.MethodGet}, &http.Response{StatusCode: 200, Header: sp.Header})
		if checkStored(sp) != nil || wasLast(sp) {
			return
		}
		h304 := fuzzHeader(text304)
		for name, values := range h304 {
			for _, v := range values {
				if !fieldValue(v) || !fieldValue(name) {
					return // net/http gives no such field
				}
			}
		}
		u := pageURL
		if !sameURL {
			u = "https://api.example/items?page=2"
		}
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		resp := &http.Response{StatusCode: 304, Status: "304 Not Modified", Header: h304, Body: http.NoBody, Request: req}
		out, err := notModified(sp, resp)
		if err != nil {
			return
		}
		if !sameURL {
			t.Fatalf("the page of %s yielded for %s", sp.URL, u)
		}
		got, _ := io.ReadAll(out.Body)
		if out.StatusCode != 200 || !bytes.Equal(got, body) || !Revalidated(out) {
			t.Fatalf("rebuilt %d, body %q of %q, Revalidated %v", out.StatusCode, got, body, Revalidated(out))
		}
		for name, values := range out.Header {
			if responseOnly(name) && !slices.Equal(values, h304.Values(name)) && !slices.Equal(values, h304[name]) {
				t.Fatalf("%s: %q, the 304 has %q", name, values, h304.Values(name))
			}
			for _, v := range values {
				if !fieldValue(v) {
					t.Fatalf("%s: %q has a control byte", name, v)
				}
			}
		}
	})
}
