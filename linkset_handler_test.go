package weblink

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestLinksetHandler(t *testing.T) {
	ls := figure8Links()
	js, _ := ls.MarshalJSON()
	jsonBody := string(js) + "\n"
	textBody := string(FormatLinkset(ls))
	h := LinksetHandler(ls)
	ls[0].Target = "/changed later" // the handler serves a snapshot

	tests := []struct {
		accept []string // nil: no Accept field
		status int
		ctype  string
	}{
		{nil, 200, LinksetJSONType},
		{[]string{""}, 200, LinksetJSONType},
		{[]string{"*/*"}, 200, LinksetJSONType},
		{[]string{"application/*"}, 200, LinksetJSONType},
		{[]string{"application/json"}, 200, LinksetJSONType},
		{[]string{"application/linkset+json"}, 200, LinksetJSONType},
		{[]string{"Application/LinkSet"}, 200, LinksetType},
		{[]string{"application/linkset, application/linkset+json"}, 200, LinksetJSONType},
		{[]string{"application/linkset+json;q=0.5, application/linkset"}, 200, LinksetType},
		{[]string{"application/linkset+json; profile=\"https://example.com/p\"; q=0.9", "application/linkset;q=0.8"}, 200, LinksetJSONType},
		{[]string{"application/linkset+json;q=0, */*"}, 200, LinksetType},
		{[]string{"text/html, */*;q=0.1"}, 200, LinksetJSONType},
		{[]string{"application/linkset;q=bad, application/json;q=0.2"}, 200, LinksetJSONType},
		{[]string{"text/html"}, 406, ""},
		{[]string{"application/linkset+json;q=0, application/linkset;q=0"}, 406, ""},
		{[]string{"*/*;q=0"}, 406, ""},
	}
	for _, tt := range tests {
		req := httptest.NewRequest("GET", "/links", nil)
		if tt.accept != nil {
			req.Header["Accept"] = tt.accept
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		res := rec.Result()
		if res.StatusCode != tt.status || tt.ctype != "" && res.Header.Get("Content-Type") != tt.ctype {
			t.Errorf("Accept %q: %d %s, want %d %s", tt.accept, res.StatusCode, res.Header.Get("Content-Type"), tt.status, tt.ctype)
			continue
		}
		if res.Header.Get("Vary") != "Accept" {
			t.Errorf("Accept %q: Vary = %q, want Accept", tt.accept, res.Header.Get("Vary"))
		}
		want := map[string]string{LinksetJSONType: jsonBody, LinksetType: textBody}[tt.ctype]
		if tt.status == 200 && rec.Body.String() != want {
			t.Errorf("Accept %q: body\n%s\nwant\n%s", tt.accept, rec.Body, want)
		}
	}
}

// serve sends one request to h and returns the response.
func serve(h http.Handler, method string, header http.Header) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, "/links", nil)
	for k, v := range header {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestLinksetHandlerConditional(t *testing.T) {
	h := LinksetHandler(figure8Links())
	jsonRes := serve(h, "GET", nil)
	textRes := serve(h, "GET", http.Header{"Accept": {LinksetType}})
	etag := jsonRes.Header().Get("ETag")
	if len(etag) != 34 || etag[0] != '"' || etag == textRes.Header().Get("ETag") {
		t.Fatalf("ETags %q (JSON) and %q (linkset): want two different strong ETags", etag, textRes.Header().Get("ETag"))
	}
	if again := serve(LinksetHandler(figure8Links()), "GET", nil).Header().Get("ETag"); again != etag {
		t.Errorf("ETag of the same links = %q, then %q", etag, again)
	}
	if other := serve(LinksetHandler(figure8Links()[1:]), "GET", nil).Header().Get("ETag"); other == etag {
		t.Errorf("ETag of different links is the same: %q", other)
	}

	res := serve(h, "GET", http.Header{"If-None-Match": {etag}})
	if res.Code != http.StatusNotModified || res.Body.Len() != 0 {
		t.Errorf("If-None-Match with the ETag: %d with %d bytes, want 304 and no body", res.Code, res.Body.Len())
	}
	res = serve(h, "GET", http.Header{"If-None-Match": {etag}, "Accept": {LinksetType}})
	if res.Code != http.StatusOK {
		t.Errorf("If-None-Match with the JSON ETag, Accept %s: %d, want 200", LinksetType, res.Code)
	}
	res = serve(h, "GET", http.Header{"If-None-Match": {`"other"`}})
	if res.Code != http.StatusOK || res.Body.String() != jsonRes.Body.String() {
		t.Errorf("If-None-Match with another ETag: %d, want 200 with the body", res.Code)
	}

	res = serve(h, "HEAD", nil)
	if res.Code != http.StatusOK || res.Body.Len() != 0 || res.Header().Get("ETag") != etag || res.Header().Get("Content-Type") != LinksetJSONType {
		t.Errorf("HEAD: %d, %d bytes, headers %v; want 200, no body, ETag and Content-Type", res.Code, res.Body.Len(), res.Header())
	}

	res = serve(h, "POST", nil)
	if res.Code != http.StatusMethodNotAllowed || res.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: %d, Allow %q; want 405, Allow: GET, HEAD", res.Code, res.Header().Get("Allow"))
	}
}

func TestLinksetHandlerInvalidLinks(t *testing.T) {
	res := serve(LinksetHandler(Links{{Target: "/no-rel"}}), "GET", nil)
	const want = "weblink: invalid linkset: link 0 (target \"/no-rel\"): has no relation type; give it at least one in Rel (RFC 9264 §4.2.2 lists links under their relation types)\n"
	if res.Code != http.StatusInternalServerError || res.Body.String() != want {
		t.Errorf("invalid links: %d %q, want 500 %q", res.Code, res.Body, want)
	}
}
