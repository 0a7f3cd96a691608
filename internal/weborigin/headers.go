package weborigin

import (
	"errors"
	"net/http"

	"github.com/weblinking/weblink/internal/ascii"
)

// IsShared reports whether the request header field name (compared
// case-insensitively) is one of those that a request keeps when it goes to
// an origin its caller did not address: content negotiation, caching and
// the client's name. Every other field the caller set may carry a
// credential, and no list of names can know them all (Authorization,
// Cookie and Proxy-Authorization, which net/http withholds from another
// host on redirect, but also GitLab's PRIVATE-TOKEN, X-Api-Key, Api-Key,
// X-Auth-Token and any API's own), so [Withhold] removes every field but
// these.
func IsShared(name string) bool {
	switch {
	case ascii.EqualFold(name, "Accept"), ascii.EqualFold(name, "Accept-Encoding"), ascii.EqualFold(name, "Accept-Language"),
		ascii.EqualFold(name, "Cache-Control"), ascii.EqualFold(name, "Pragma"), ascii.EqualFold(name, "User-Agent"):
		return true
	}
	return false
}

// Withhold removes from h every field but those [IsShared] reports, under any
// spelling of their names: a key set directly in the map, such as
// h["private-token"], is sent as it is.
func Withhold(h http.Header) {
	for name := range h {
		if !IsShared(name) {
			delete(h, name)
		}
	}
}

// GuardRedirects returns a copy of client whose redirects keep the fields
// of the request only where admits says they may go, and [Withhold] them
// elsewhere: net/http keeps Authorization and Cookie for any port and
// scheme of the same host name, and for its subdomains, and every other
// field everywhere. The client's own CheckRedirect, or net/http's limit of
// 10 redirects, still applies, after the fields are withheld.
func GuardRedirects(client *http.Client, admits func(Origin) bool) *http.Client {
	c := *client
	check := client.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if !admits(Of(req.URL)) {
			Withhold(req.Header)
		}
		if check != nil {
			return check(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &c
}
