package paging

import (
	"net/url"
	"testing"
)

func TestOriginDefaultPorts(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"https://h/x", "https://H:443/y", true},
		{"http://h/", "http://h:80/", true},
		{"https://h/", "http://h:443/", false},
		{"https://h/", "https://h:8443/", false},
		{"http://h/", "http://g/", false},
	} {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if got := originOf(a) == originOf(b); got != tc.same {
			t.Errorf("same origin %s, %s = %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}
