package weblink

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// apiCatalogProfile is the profile URI of an API catalog (RFC 9727 §4.2),
// the profile parameter (RFC 9264 §5) of its media type.
const apiCatalogProfile = "https://www.rfc-editor.org/info/rfc9727"

// APICatalogHandler returns an http.Handler that serves apis as an API catalog
// (RFC 9727 §4), the document an organisation publishes at
// /.well-known/api-catalog (RFC 9727 §2) to list its APIs:
//
//	mux.Handle("/.well-known/api-catalog", weblink.APICatalogHandler("https://example.com/.well-known/api-catalog", apis))
//
// It is [LinksetHandler] (rules 34 to 38): the linkset as
// application/linkset+json, or as application/linkset when Accept prefers
// it, both with profile="https://www.rfc-editor.org/info/rfc9727", with
// its content negotiation, ETag and 304 Not Modified. A link of apis
// without Anchor gets publisher as its context (the catalog, or the
// organisation it speaks for); a link with an Anchor keeps it, as RFC 9727
// Appendix A puts an API's service-desc and service-doc under the API.
//
// Every response, also a HEAD's, a 304 and an error, carries
// Link: <request path>; rel="api-catalog" (RFC 9727 §2: a HEAD request is
// answered with that link and no body). The path is the one the client
// sent (Request.RequestURI), also under http.StripPrefix. A path that
// starts with "//" is written "/.//...", so that it cannot be read as a
// reference to another host.
//
// apis is copied: later changes to it do not show.
func APICatalogHandler(publisher string, apis Links) http.Handler {
	ls := slices.Clone(apis)
	for i := range ls {
		if ls[i].Anchor == "" {
			ls[i].Anchor = publisher
		}
	}
	return &apiCatalogHandler{newLinksetHandler(ls, apiCatalogProfile)}
}

// apiCatalogHandler is the http.Handler of APICatalogHandler.
type apiCatalogHandler struct {
	linkset *linksetHandler
}

func (h *apiCatalogHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := requestPath(r)
	switch {
	case path == "" || path[0] != '/': // none, or "OPTIONS *"
		path = "/"
	case strings.HasPrefix(path, "//"):
		// "//host/x" is a network-path reference to another host (RFC
		// 3986 §4.2); "/.//host/x" is the same path on this one (§5.2.4).
		path = "/." + path
	}
	Add(w.Header(), Link{Target: path, Rel: []string{"api-catalog"}})
	h.linkset.ServeHTTP(w, r)
}

// requestPath returns the path of the request as the client sent it: from
// RequestURI, which a server sets and http.StripPrefix and other routers
// leave alone, or from URL for a request that has none (or whose
// RequestURI is "*" or does not parse).
func requestPath(r *http.Request) string {
	if r.RequestURI != "" {
		if u, err := url.ParseRequestURI(r.RequestURI); err == nil && u.Opaque == "" {
			return u.EscapedPath()
		}
	}
	return r.URL.EscapedPath()
}
