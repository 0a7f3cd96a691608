package paging

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

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
