// Package weborigin is the origin of a URL (RFC 6454 §4) as package weblink,
// its discover subpackage and the weblink command compare them: which pages
// Pages follows, where credentials may go, which linksets discover fetches.
//
// Two URLs are one origin only when net/http sends their requests to the
// same host. A host of plain ASCII is compared ASCII case-insensitively, as
// DNS compares names (RFC 4343), and net/http dials it as written; but the
// zone of an IPv6 literal ("[fe80::1%25eth0]", RFC 6874 §2) is compared
// byte for byte, as it is an interface name and eth0 and ETH0 are two
// interfaces. A host
// with any byte outside ASCII is compared byte for byte, as net/url decodes
// it, and is never the origin of an ASCII host: net/http dials such a host
// by its IDNA mapping (UTS #46, golang.org/x/net/idna's Lookup profile, in
// the copy the Go release vendors), which strings.ToLower does not follow
// (it makes api.gİthub.test api.github.test, where net/http dials
// api.xn--github-qyd.test) and which this package does not repeat: its
// tables change with Unicode and with the Go release, so api.bücher.example
// and api.xn--bcher-kva.example are two origins here though they are one
// host. Erring that way withholds credentials from a host that could have
// had them, never the reverse.
package weborigin

import (
	"net"
	"net/url"
	"strings"

	"github.com/weblinking/weblink/internal/ascii"
)

// Origin is the scheme, host and port of a URL (RFC 6454 §4), with the
// scheme lower-cased, the host lower-cased when it is plain ASCII (and left
// as it is otherwise: see the package documentation; the zone of an IPv6
// literal is always left as it is) and an absent port
// replaced by the scheme's default for http and https. Two URLs have the
// same origin when their Origins are equal (==).
type Origin struct {
	Scheme, Host, Port string
}

// Of returns the origin of u.
func Of(u *url.URL) Origin {
	o := Origin{Scheme: strings.ToLower(u.Scheme), Host: lowerHost(u), Port: u.Port()}
	if o.Port == "" {
		switch o.Scheme {
		case "http":
			o.Port = "80"
		case "https":
			o.Port = "443"
		}
	}
	return o
}

// lowerHost returns the host of u lower-cased when it is plain ASCII, and
// as it is otherwise. The zone of an IPv6 literal (RFC 6874 §2:
// "[fe80::1%25eth0]") is kept as written: it names an interface, and
// interface names are case sensitive (eth0 and ETH0 are two on Linux).
func lowerHost(u *url.URL) string {
	host := u.Hostname()
	if !isASCII(host) {
		return host
	}
	if strings.HasPrefix(u.Host, "[") {
		if i := strings.IndexByte(host, '%'); i >= 0 {
			return ascii.Lower(host[:i]) + host[i:]
		}
	}
	return ascii.Lower(host)
}

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// String returns the origin as scheme://host:port, the form RFC 6454 §6.2
// serialises it in but with the port always written. The bytes of the host
// outside printable ASCII are written %HH, as net/url writes a host, so
// that a look-alike host shows as one: http://api.g%C4%B0thub.test:80.
func (o Origin) String() string {
	return o.Scheme + "://" + net.JoinHostPort(escapeHost(o.Host), o.Port)
}

// escapeHost returns host with every byte outside printable ASCII written
// as %HH, or host itself, the usual case, when it has none.
func escapeHost(host string) string {
	i := 0
	for i < len(host) && isVisible(host[i]) {
		i++
	}
	if i == len(host) {
		return host
	}
	b := append(make([]byte, 0, len(host)+16), host[:i]...)
	for ; i < len(host); i++ {
		if c := host[i]; isVisible(c) {
			b = append(b, c)
		} else {
			b = ascii.AppendPercent(b, c, ascii.UpperHex)
		}
	}
	return string(b)
}

// isVisible reports whether c is printable ASCII other than the space.
func isVisible(c byte) bool { return c > 0x20 && c < 0x7f }

// Admits reports whether what a user gave for the origin o (credentials,
// request headers) may go to other: other is o, or o's https upgrade (the
// same host, from http on port 80 to https on port 443).
func (o Origin) Admits(other Origin) bool {
	return other == o || o.Scheme == "http" && o.Port == "80" && other == Origin{Scheme: "https", Host: o.Host, Port: "443"}
}

// VisitKey is the form in which a pager remembers the URLs it has fetched,
// and in which a next link's anchor is compared with the page: u without
// fragment and user information, with its origin normalised as [Of]
// normalises it.
func VisitKey(u *url.URL) string {
	o := Of(u)
	v := *u
	v.Scheme = o.Scheme
	v.Host = net.JoinHostPort(o.Host, o.Port)
	v.User = nil
	v.Fragment, v.RawFragment = "", ""
	return v.String()
}

// VisitKeyOf is [VisitKey] of a resolved reference, or the reference itself
// when url.Parse rejects it.
func VisitKeyOf(ref string) string {
	u, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	return VisitKey(u)
}
