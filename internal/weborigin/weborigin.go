// Package weborigin is the origin of a URL (RFC 6454 §4) as package weblink,
// its discover subpackage and the weblink command compare them: which pages
// Pages follows, where credentials may go, which linksets discover fetches.
package weborigin

import (
	"net"
	"net/url"
	"strings"
)

// Origin is the scheme, host and port of a URL (RFC 6454 §4), with the
// scheme and host lower-cased and an absent port replaced by the scheme's
// default for http and https. Two URLs have the same origin when their
// Origins are equal (==).
type Origin struct {
	Scheme, Host, Port string
}

// Of returns the origin of u.
func Of(u *url.URL) Origin {
	o := Origin{Scheme: strings.ToLower(u.Scheme), Host: strings.ToLower(u.Hostname()), Port: u.Port()}
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

// String returns the origin as scheme://host:port, the form RFC 6454 §6.2
// serialises it in but with the port always written.
func (o Origin) String() string {
	return o.Scheme + "://" + net.JoinHostPort(o.Host, o.Port)
}

// Admits reports whether what a user gave for the origin o (credentials,
// request headers) may go to other: other is o, or o's https upgrade (the
// same host, from http on port 80 to https on port 443).
func (o Origin) Admits(other Origin) bool {
	return other == o || o.Scheme == "http" && o.Port == "80" && other == Origin{Scheme: "https", Host: o.Host, Port: "443"}
}
