package weborigin

import (
	"net/http"
	"net/url"
	"slices"
	"testing"
)

func TestOf(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://Example.COM/a", "http://example.com:80"},
		{"HTTPS://example.com", "https://example.com:443"},
		{"https://example.com:8443/", "https://example.com:8443"},
		{"http://[::1]:8080/", "http://[::1]:8080"},
		{"ftp://example.com/", "ftp://example.com:"},
		{"http://user:pw@example.com/", "http://example.com:80"},
		{"http://api.g%C4%B0thub.test/", "http://api.g%C4%B0thub.test:80"},
		{"http://B\u00fccher.example/", "http://B%C3%BCcher.example:80"},
		// An IPv6 zone (RFC 6874) names an interface, whose name is case
		// sensitive: the address is lower-cased, the zone kept as written.
		{"http://[FE80::1%25ETH0]:8080/", "http://[fe80::1%ETH0]:8080"},
		{"http://[fe80::1%25eth0]/", "http://[fe80::1%eth0]:80"},
	} {
		u, err := url.Parse(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := Of(u).String(); got != tc.want {
			t.Errorf("Of(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestStringEscapesHost: a host byte outside printable ASCII, first or
// later, is written %HH, so that an escape sequence in it cannot reach a
// terminal; a plain host is written as it is.
func TestStringEscapesHost(t *testing.T) {
	for _, tc := range []struct{ host, want string }{
		{"\x1b[31mx", "http://%1B[31mx:80"},
		{"a b\x00", "http://a%20b%00:80"},
		{"example.com", "http://example.com:80"},
	} {
		if got := (Origin{Scheme: "http", Host: tc.host, Port: "80"}).String(); got != tc.want {
			t.Errorf("Origin{Host: %q}.String() = %q, want %q", tc.host, got, tc.want)
		}
	}
}

func TestAdmits(t *testing.T) {
	for _, tc := range []struct {
		home, to string
		want     bool
	}{
		{"http://a.example/", "http://A.example:80/x", true},
		{"http://a.example/", "https://a.example/", true},       // the https upgrade
		{"https://a.example/", "http://a.example/", false},      // never a downgrade
		{"http://a.example:8080/", "https://a.example/", false}, // not from another port
		{"http://a.example/", "https://a.example:8443/", false}, // nor to one
		{"http://a.example/", "https://b.example/", false},      // nor another host
		{"http://a.example/", "http://www.a.example/", false},   // subdomains are other hosts
		{"https://a.example/", "https://a.example:443/y", true},
		// Hosts that are not plain ASCII (rule 30): net/http dials
		// api.xn--github-qyd.test for the first, though strings.ToLower
		// makes it api.github.test.
		{"http://api.github.test/", "http://api.g\u0130thub.test/", false},
		{"http://api.github.test/", "http://api.g%C4%B0thub.test/", false},
		{"http://api.g\u0130thub.test/", "http://api.github.test/", false},
		{"http://api.githuss.test/", "http://api.githu\u1e9e.test/", false},
		{"http://api.githu\u00df.test/", "http://api.githu\u1e9e.test/", false},
		{"http://k.example/", "http://\u212a.example/", false}, // the Kelvin sign
		{"http://b\u00fccher.example/", "http://b\u00fccher.example/x", true},
		{"http://b\u00fccher.example/", "https://b\u00fccher.example/", true},
		{"http://B\u00fccher.example/", "http://b\u00fccher.example/", false}, // compared byte for byte
		// An IPv6 zone is an interface name, case sensitive (RFC 6874 §2;
		// on Linux eth0 and ETH0 are two interfaces): rule 30.
		{"http://[fe80::1%25eth0]/", "http://[fe80::1%25ETH0]/", false},
		{"http://[fe80::1%25eth0]/", "http://[FE80::1%25eth0]/x", true},
		{"http://[fe80::1%25eth0]/", "https://[fe80::1%25eth0]/", true},
		{"http://[fe80::1%25eth0]/", "https://[fe80::1%25Eth0]/", false},
	} {
		home, _ := url.Parse(tc.home)
		to, _ := url.Parse(tc.to)
		if got := Of(home).Admits(Of(to)); got != tc.want {
			t.Errorf("Of(%s).Admits(Of(%s)) = %v, want %v", tc.home, tc.to, got, tc.want)
		}
	}
}

func TestWithhold(t *testing.T) {
	h := http.Header{
		"Authorization":   {"Bearer t"},
		"PRIVATE-TOKEN":   {"glpat"},
		"x-api-key":       {"k"},
		"Cookie":          {"s=1"},
		"X-Trace":         {"abc"},
		"Accept":          {"application/json"},
		"accept-language": {"de"},
		"User-Agent":      {"ua"},
		"Cache-Control":   {"no-cache"},
	}
	Withhold(h)
	var got []string
	for name := range h {
		got = append(got, name)
	}
	slices.Sort(got)
	want := []string{"Accept", "Cache-Control", "User-Agent", "accept-language"}
	if !slices.Equal(got, want) {
		t.Errorf("Withhold kept %q, want %q", got, want)
	}
}
