package weborigin

import (
	"net/http"

	"github.com/weblinking/weblink/internal/ascii"
)

// Shared is the request header fields that a request keeps when it goes to
// an origin its caller did not address: content negotiation, caching and
// the client's name. Every other field the caller set may carry a
// credential, and no list of names can know them all (Authorization,
// Cookie and Proxy-Authorization, which net/http withholds from another
// host on redirect, but also GitLab's PRIVATE-TOKEN, X-Api-Key, Api-Key,
// X-Auth-Token and any API's own), so [Withhold] removes every field but
// these.
var Shared = [...]string{"Accept", "Accept-Encoding", "Accept-Language", "Cache-Control", "Pragma", "User-Agent"}

// Withhold removes from h every field but those of [Shared], under any
// spelling of their names: a key set directly in the map, such as
// h["private-token"], is sent as it is.
func Withhold(h http.Header) {
	for name := range h {
		if !isShared(name) {
			delete(h, name)
		}
	}
}

// isShared reports whether the field name is one of Shared, compared
// case-insensitively.
func isShared(name string) bool {
	for _, s := range Shared {
		if ascii.EqualFold(name, s) {
			return true
		}
	}
	return false
}
