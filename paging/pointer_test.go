package paging

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestJSONItemsAt(t *testing.T) {
	var typeErr *json.UnmarshalTypeError
	for _, tc := range []struct {
		name, ptr, body string
		status          int
		method          string
		want            []int
		err             string // in the error; "type": a *json.UnmarshalTypeError
	}{
		{name: "data", ptr: "/data", body: `{"links": {"next": "/2"}, "meta": {"a": [1, {"b": null}]}, "data": [1, 2], "included": [{"x": 1}]}`, want: []int{1, 2}},
		{name: "nested", ptr: "/_embedded/orders", body: `{"_links": {}, "_embedded": {"customers": [3], "orders": [4]}}`, want: []int{4}},
		{name: "index", ptr: "/pages/1/items", body: `{"pages": [{"items": [1]}, {"items": [2]}]}`, want: []int{2}},
		{name: "escaped", ptr: "/a~1b~0c", body: `{"a/b~c": [5]}`, want: []int{5}},
		{name: "absent", ptr: "/_embedded/orders", body: `{"_links": {}, "page": {"totalElements": 0}}`, want: nil},
		{name: "null", ptr: "/value", body: `{"value": null}`, want: nil},
		{name: "null on the way", ptr: "/_embedded/orders", body: `{"_embedded": null}`, want: nil},
		{name: "empty array", ptr: "/value", body: `{"value": []}`, want: []int{}},
		{name: "empty body", ptr: "/value", body: ` `, want: nil},
		{name: "no content", ptr: "/value", status: http.StatusNoContent, want: nil},
		{name: "head", ptr: "/value", method: http.MethodHead, body: `{"value": "x"}`, want: nil},
		{name: "whole body", ptr: "", body: `[7, 8]`, want: []int{7, 8}},
		{name: "an object", ptr: "/value", body: `{"value": {"a": 1}}`, err: "type"},
		{name: "a string", ptr: "/value", body: `{"value": "1"}`, err: "type"},
		{name: "a scalar on the way", ptr: "/a/b", body: `{"a": 1}`, err: `"/a" is number`},
		{name: "a name in an array", ptr: "/a/b", body: `{"a": [1]}`, err: "not an index"},
		{name: "after the document", ptr: "/value", body: `{"value": [1]} {}`, err: "followed by more data"},
		{name: "cut after the array", ptr: "/value", body: `{"value": [1], "more": {"a": [`, err: "unexpected EOF"},
		{name: "cut in the array", ptr: "/value", body: `{"value": [1, `, err: "unexpected EOF"},
		{name: "not JSON", ptr: "/value", body: `<html>`, err: "invalid character"},
		{name: "invalid pointer", ptr: "value", body: `{"value": [1]}`, err: `write "/value"`},
		{name: "an element of the wrong type", ptr: "/value", body: `{"value": ["x"]}`, err: "type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status := cmpOr(tc.status, http.StatusOK)
			req := &http.Request{Method: cmpOr(tc.method, http.MethodGet)}
			resp := &http.Response{StatusCode: status, Body: io.NopCloser(strings.NewReader(tc.body)), Request: req}
			got, err := JSONItemsAt[int](tc.ptr)(resp)
			switch {
			case tc.err == "type" && !errors.As(err, &typeErr):
				t.Errorf("rule 34: error %v, want a *json.UnmarshalTypeError", err)
			case tc.err != "" && tc.err != "type" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("rule 34: error %v, want one saying %q", err, tc.err)
			case tc.err == "" && (err != nil || !reflect.DeepEqual(got, tc.want)):
				t.Errorf("rule 34: %#v, error %v; want %#v", got, err, tc.want)
			}
		})
	}
}

func cmpOr[T comparable](a, b T) T {
	var zero T
	if a == zero {
		return b
	}
	return a
}

func TestParsePointer(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  string
	}{
		{"", nil, ""},
		{"/", []string{""}, ""},
		{"/a~1b/c~0d/~01", []string{"a/b", "c~d", "~1"}, ""},
		{"/@odata.nextLink", []string{"@odata.nextLink"}, ""},
		{"a", nil, `write "/a"`},
		{"#/a", nil, `without the "#" of its URI fragment form: "/a"`},
		{"/a~", nil, `write "/a~0"`},
		{"/a~2", nil, `write "/a~02"`},
	} {
		p, err := parsePointer(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("rule 32: parsePointer(%q) error %v, want one saying %s", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(p.tokens, tc.want) {
			t.Errorf("rule 32: parsePointer(%q) = %q, %v; want %q", tc.in, p.tokens, err, tc.want)
		}
	}
}

// FuzzJSONPointer compares the streaming reader with encoding/json's
// whole-document decoding: for a body that is one JSON value, the array
// JSONItemsAt finds at a pointer, and the link NextInBody finds there, are
// those the decoded document has (rules 29, 32 to 34).
func FuzzJSONPointer(f *testing.F) {
	f.Add("/links/next", `{"data": [1], "links": {"next": "/2"}}`)
	f.Add("/_links/next/href", `{"_links": {"next": {"href": "/2"}}, "_embedded": {"o": [{}]}}`)
	f.Add("/a/1", `{"a": [[1], [2, "x"]], "b": null}`)
	f.Add("/a~1b", `{"a/b": "x", "a~1b": "y"}`)
	f.Add("/x", `[[[[]]]]`)
	f.Fuzz(func(t *testing.T, ptr, body string) {
		p, err := parsePointer(ptr)
		if err != nil {
			return
		}
		var doc any
		derr := json.Unmarshal([]byte(body), &doc)
		dupes := hasDuplicateNames(body) // encoding/json takes the last, the reader the first
		items, err := JSONItemsAt[any](ptr)(&http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(body))})
		if derr != nil || dupes {
			return
		}
		want, ok := lookup(doc, p.tokens)
		switch w := want.(type) {
		case []any:
			if err != nil || !reflect.DeepEqual(items, w) {
				t.Errorf("JSONItemsAt(%q) of %q = %v, %v; want %v", ptr, body, items, err, w)
			}
		case nil:
			if (err != nil || items != nil) && !arrayNameOnTheWay(doc, p.tokens) {
				t.Errorf("JSONItemsAt(%q) of %q = %v, %v; want no items (absent: %v)", ptr, body, items, err, !ok)
			}
		}
		r := &jsonReader{dec: json.NewDecoder(strings.NewReader(body))}
		link, err := linkAt(r, p)
		if s, isString := want.(string); isString && checkLink(s) == nil && (err != nil || link != s) {
			t.Errorf("linkAt(%q) of %q = %q, %v; want %q", ptr, body, link, err, s)
		}
		if !ok && (err != nil || link != "") && !arrayNameOnTheWay(doc, p.tokens) {
			t.Errorf("linkAt(%q) of %q = %q, %v; want none", ptr, body, link, err)
		}
	})
}

// lookup returns the value at tokens in doc, and whether there is one,
// as RFC 6901 §4 evaluates a pointer (null on the way: none).
func lookup(doc any, tokens []string) (any, bool) {
	for _, tok := range tokens {
		switch v := doc.(type) {
		case map[string]any:
			var ok bool
			if doc, ok = v[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v) || strconv.Itoa(i) != tok {
				return nil, false
			}
			doc = v[i]
		default:
			return nil, false
		}
	}
	return doc, true
}

// arrayNameOnTheWay reports whether tokens go through an array with a
// token that is not an index, or through a scalar: an error for the reader.
func arrayNameOnTheWay(doc any, tokens []string) bool {
	for _, tok := range tokens {
		switch v := doc.(type) {
		case map[string]any:
			var ok bool
			if doc, ok = v[tok]; !ok {
				return false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || strconv.Itoa(i) != tok {
				return tok != "-"
			}
			if i < 0 || i >= len(v) {
				return false
			}
			doc = v[i]
		case nil:
			return false
		default:
			return true
		}
	}
	return false
}

// hasDuplicateNames reports whether an object of body has a name twice.
func hasDuplicateNames(body string) bool {
	dec := json.NewDecoder(bytes.NewReader([]byte(body)))
	var seen []map[string]bool
	var inObject []bool
	expectKey := func() bool { return len(inObject) > 0 && inObject[len(inObject)-1] }
	key := true
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			inObject, seen, key = append(inObject, true), append(seen, map[string]bool{}), true
			continue
		case json.Delim('['):
			inObject, seen = append(inObject, false), append(seen, nil)
		case json.Delim('}'), json.Delim(']'):
			inObject, seen = inObject[:len(inObject)-1], seen[:len(seen)-1]
		default:
			if s, ok := tok.(string); ok && expectKey() && key {
				if seen[len(seen)-1][s] {
					return true
				}
				seen[len(seen)-1][s] = true
				key = false
				continue
			}
		}
		key = expectKey()
	}
}
