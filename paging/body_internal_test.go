package paging

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
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
