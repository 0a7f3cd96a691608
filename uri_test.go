package weblink

import "testing"

func TestHasURIScheme(t *testing.T) {
	for s, want := range map[string]bool{
		"http://example.com": true, "HTTP:x": true, "a:": true,
		"coap+tcp://h": true, "x-y.z:w": true, "a1:b": true,
		"": false, ":": false, "a": false, "1a:b": false, "+a:b": false,
		"a b:c": false, "a/b:c": false, "é:x": false, "next": false,
	} {
		if got := hasURIScheme(s); got != want {
			t.Errorf("hasURIScheme(%q) = %v, want %v", s, got, want)
		}
	}
}
