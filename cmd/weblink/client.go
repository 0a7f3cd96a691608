// The HTTP client of -url: credentials (-H, userinfo) only to the origin
// the user gave, the User-Agent, and what is kept out of messages (userinfo).

package main

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/weblinking/weblink/internal/weborigin"
)

// origin is the scheme, host and port of a URL (RFC 6454 §4).
type origin = weborigin.Origin

// sameOrigin reports whether a request to o may carry what the user gave
// for the origin home: o is home, or home's https upgrade (the same host,
// http on port 80 to https on port 443), as a server that redirects to
// https expects.
func sameOrigin(o, home origin) bool {
	return home.Admits(o)
}

// credentials is an http.RoundTripper that adds the request headers of -H
// and the userinfo of -url (as Basic credentials, RFC 7617) to the requests
// to the origin of -url, and to no other: not to a page of another origin,
// nor to a redirect that leaves the origin.
type credentials struct {
	base    http.RoundTripper
	home    origin
	user    *url.Userinfo // from -url; nil when it had none
	headers http.Header   // from -H
}

// RoundTrip sends req, with the user's headers when it goes to their
// origin, and with only those of rule 31 of package weblink (Accept, User-Agent,
// ...) when it goes elsewhere; with the command's User-Agent unless it has
// one. A request to another origin goes without Referer, which net/http
// sets on redirects to the URL redirected from: its path and query (an
// access_token=...) are the user's, not the other origin's. It does not
// modify req.
func (c *credentials) RoundTrip(req *http.Request) (*http.Response, error) {
	home := sameOrigin(weborigin.Of(req.URL), c.home)
	agent := req.Header.Get("User-Agent") == ""
	referer := !home && req.Header.Get("Referer") != ""
	user := home && (c.user != nil || len(c.headers) > 0) || !home && c.shared()
	if !agent && !referer && !user {
		return c.base.RoundTrip(req)
	}
	r := req.Clone(req.Context())
	if agent {
		r.Header.Set("User-Agent", userAgent)
	}
	if referer {
		r.Header.Del("Referer")
	}
	for name, values := range c.headers {
		switch {
		case !home && !weborigin.IsShared(name):
			continue
		case strings.EqualFold(name, "Host"):
			r.Host = values[len(values)-1]
			continue
		}
		r.Header[name] = values
	}
	if home && c.user != nil && r.Header.Get("Authorization") == "" {
		pass, _ := c.user.Password()
		r.SetBasicAuth(c.user.Username(), pass)
	}
	return c.base.RoundTrip(r)
}

// shared reports whether -H set a field that goes to every origin
// (rule 31 of package weblink: Accept, User-Agent, ...).
func (c *credentials) shared() bool {
	for name := range c.headers {
		if weborigin.IsShared(name) {
			return true
		}
	}
	return false
}

// userAgent is the User-Agent of every request of the command, to the
// origin of -url and to the others (linksets, API catalogs, next pages).
const userAgent = "weblink (github.com/weblinking/weblink)"

// withoutUserinfo returns the URL s, which may not parse, without the
// userinfo of its authority ("user:password@"), for a message. Without
// "//", the text before the first "/", "?" or "#" is taken for the
// authority, as a user who left out the scheme meant it.
func withoutUserinfo(s string) string {
	if strings.Contains(s, "//") {
		return redactUserinfo(s)
	}
	if at := userinfoEnd(s); at > 0 {
		return s[at:]
	}
	return s
}

// redactUserinfo returns msg, a message, with the userinfo taken out of
// every URL in it that has an authority ("//host"): net/http's errors
// quote a Location as the server sent it ("failed to parse Location
// header ...") and the URL of a redirect with its user name or password.
func redactUserinfo(msg string) string {
	var b strings.Builder
	done := 0 // msg[:done] is in b
	for i := 0; ; {
		j := strings.Index(msg[i:], "//")
		if j < 0 {
			break
		}
		start := i + j + 2
		if at := userinfoEnd(msg[start:]); at > 0 {
			b.WriteString(msg[done:start])
			done = start + at
		}
		i = start
	}
	if done == 0 {
		return msg
	}
	b.WriteString(msg[done:])
	return b.String()
}

// userinfoEnd returns the length of the userinfo at the start of s, an
// authority, with its "@"; 0 when it has none. The authority ends at "/",
// "?" or "#" (RFC 3986 §3.2), and in a message also at what cannot be in
// a URL: whitespace, quotes, angle brackets and controls.
func userinfoEnd(s string) int {
	at := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '@':
			at = i + 1
		case c == '/' || c == '?' || c == '#' || c <= ' ' || c == 0x7f ||
			c == '"' || c == '\'' || c == '<' || c == '>':
			return at
		}
	}
	return at
}

// newClient returns the HTTP client for -url: it gives the headers of -H
// and the userinfo of -url only to that URL's origin (all but those of
// rule 31 of package weblink), and reads at most maxInput bytes of a response head,
// as of standard input (net/http alone reads 10 MiB). It has no timeout of
// its own: -timeout is the deadline of the whole run (runEnv). base, when
// not nil, sends the requests instead of a clone of http.DefaultTransport.
func newClient(opts options, base http.RoundTripper) *http.Client {
	if base == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxResponseHeaderBytes = maxInput
		base = t
	}
	tr := base
	if opts.url != "" {
		u, _ := url.Parse(opts.url) // parseArgs checked it
		tr = &credentials{base: tr, home: weborigin.Of(u), user: opts.user, headers: opts.headers}
	}
	return &http.Client{Transport: tr} // -timeout is the run's deadline (runEnv)
}

// withoutUser returns u without its userinfo.
func withoutUser(u *url.URL) string {
	v := *u
	v.User = nil
	return v.String()
}
