package weborigin

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/weblinking/weblink/internal/ascii"
)

// errNoDial ends the dial that dialed records.
var errNoDial = errors.New("not dialed")

// dialed returns the address net/http's transport dials for a GET of u,
// and false when it dials nothing (u is refused before). It is net/http's
// own answer, with the IDNA mapping of the Go release: no connection is
// made.
func dialed(u *url.URL) (string, bool) {
	addr := make(chan string, 1)
	tr := &http.Transport{
		DialContext: func(_ context.Context, _, a string) (net.Conn, error) {
			addr <- a
			return nil, errNoDial
		},
		DisableKeepAlives: true,
	}
	req := (&http.Request{Method: http.MethodGet, URL: u, Header: http.Header{}}).WithContext(context.Background())
	resp, err := tr.RoundTrip(req)
	if err == nil {
		resp.Body.Close()
	}
	select {
	case a := <-addr:
		return a, true
	default:
		return "", false
	}
}

// sameHost reports whether the dialed addresses a and b name one host:
// a DNS name or an IP address compared ASCII case-insensitively (RFC 4343),
// the zone of an IPv6 literal ("[fe80::1%eth0]:80") byte for byte, as an
// interface name is (RFC 6874 §2).
func sameHost(a, b string) bool {
	ha, _, _ := net.SplitHostPort(a)
	hb, _, _ := net.SplitHostPort(b)
	za, zb := "", ""
	if strings.HasPrefix(a, "[") {
		ha, za, _ = strings.Cut(ha, "%")
	}
	if strings.HasPrefix(b, "[") {
		hb, zb, _ = strings.Cut(hb, "%")
	}
	return ascii.EqualFold(ha, hb) && za == zb
}

// FuzzOrigin checks the promise of the package: when two URLs are one
// origin, or the first admits the second, net/http dials the same host
// for both (DNS names compared ASCII case-insensitively, RFC 4343, and an
// IPv6 zone byte for byte), on the
// same port when they are one origin.
func FuzzOrigin(f *testing.F) {
	for _, pair := range [][2]string{
		{"http://api.github.test/", "http://api.g\u0130thub.test/"},
		{"http://api.github.test/", "http://api.g%C4%B0thub.test/"},
		{"http://api.githu\u00df.test/", "http://api.githu\u1e9e.test/"},
		{"http://k.example/", "http://\u212a.example/"},
		{"http://B\u00fccher.example/", "http://b\u00fccher.example/"},
		{"http://b\u00fccher.example/", "https://b\u00fccher.example/"},
		{"http://xn--bcher-kva.example/", "http://b\u00fccher.example/"},
		{"http://Example.COM/a", "https://example.com:443/b"},
		{"http://[::1]:8080/", "http://[::1]:8080/x"},
		{"http://[fe80::1%25eth0]/", "http://[fe80::1%25ETH0]/"},
		{"http://a.example./", "http://a.example/"},
		{"http://a.example:080/", "http://a.example/"},
	} {
		f.Add(pair[0], pair[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ua, err := url.Parse(a)
		if err != nil {
			return
		}
		ub, err := url.Parse(b)
		if err != nil {
			return
		}
		same, admits := Of(ua) == Of(ub), Of(ua).Admits(Of(ub))
		if !same && !admits {
			return
		}
		da, ok := dialed(ua)
		if !ok {
			return
		}
		db, ok := dialed(ub)
		if !ok {
			return
		}
		if !sameHost(da, db) {
			t.Errorf("%q and %q are one origin (%v) or admitted (%v), but net/http dials %q and %q", a, b, same, admits, da, db)
		}
		_, pa, _ := net.SplitHostPort(da)
		_, pb, _ := net.SplitHostPort(db)
		if same && pa != pb {
			t.Errorf("%q and %q are one origin, but net/http dials %q and %q", a, b, da, db)
		}
	})
}
