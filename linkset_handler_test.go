package weblink

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestLinksetHandler(t *testing.T) {
	ls := figure8Links()
	js, _ := FormatLinksetJSON(ls)
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

// TestLinksetHandlerQValues checks that qvalues are read by their grammar
// (RFC 9110 §12.4.2), not as Go floats, and that an element whose q is not a
// qvalue is ignored.
func TestLinksetHandlerQValues(t *testing.T) {
	h := LinksetHandler(figure8Links())
	tests := []struct {
		accept string
		status int
		ctype  string
	}{
		// Valid qvalues: "0" [ "." 0*3DIGIT ] / "1" [ "." 0*3("0") ].
		{"application/linkset;q=1., application/linkset+json;q=0.999", 200, LinksetType},
		{"application/linkset;q=1.000, application/linkset+json;q=0.9", 200, LinksetType},
		{"application/linkset+json;q=1.000, application/linkset;q=1", 200, LinksetJSONType},
		{"application/linkset+json;q=0., application/linkset;q=0.001", 200, LinksetType},
		{"application/linkset+json;Q=0.000, application/linkset", 200, LinksetType},
		{"application/linkset;q=0.5 , application/linkset+json;q=0.4", 200, LinksetType},
		{"application/linkset+json;q=0.000", 406, ""},
		// Not qvalues: the element is ignored, as if absent.
		{"application/linkset+json;q=NaN", 200, LinksetJSONType},
		{"application/linkset;q=NaN", 200, LinksetJSONType},
		{"application/linkset+json;q=NaN, application/linkset;q=0.1", 200, LinksetType},
		{"application/linkset;q=0x1p-1, application/linkset+json;q=0.1", 200, LinksetJSONType},
		{"application/linkset;q=1e-1, application/linkset+json;q=0.05", 200, LinksetJSONType},
		{"application/linkset;q=.5, application/linkset+json;q=0.1", 200, LinksetJSONType},
		{"application/linkset;q=+0.5, application/linkset+json;q=0.1", 200, LinksetJSONType},
		{"application/linkset;q=0.5000, application/linkset+json;q=0.1", 200, LinksetJSONType},
		{"application/linkset;q=00.5, application/linkset+json;q=0.1", 200, LinksetJSONType},
		{"application/linkset;q=1.001, application/linkset+json;q=0.1", 200, LinksetJSONType},
		{"application/linkset;q=1.5, application/linkset+json;q=0.1", 200, LinksetJSONType},
		{"application/linkset;q=Inf, application/linkset+json;q=0.1", 200, LinksetJSONType},
		{"application/linkset;q=0.5e0, application/linkset+json;q=0.1", 200, LinksetJSONType},
		{"application/linkset;q= 0.5, application/linkset+json;q=0.1", 200, LinksetJSONType},
		{"application/linkset;q =0.5, application/linkset+json;q=0.1", 200, LinksetJSONType},
		{"application/linkset;q, application/linkset+json;q=0.1", 200, LinksetJSONType},
		{"application/linkset;q=, application/linkset+json;q=0.1", 200, LinksetJSONType},
		{"application/linkset;q=-0, application/linkset+json;q=0.1", 200, LinksetJSONType},
		{"*/*;q=NaN, application/linkset+json;q=0", 406, ""},
	}
	for _, tt := range tests {
		res := serve(h, "GET", http.Header{"Accept": {tt.accept}})
		if res.Code != tt.status || tt.ctype != "" && res.Header().Get("Content-Type") != tt.ctype {
			t.Errorf("Accept %q: %d %s, want %d %s", tt.accept, res.Code, res.Header().Get("Content-Type"), tt.status, tt.ctype)
		}
	}
}

func TestParseQValue(t *testing.T) {
	tests := []struct {
		in   string
		want int
		ok   bool
	}{
		{"0", 0, true}, {"0.", 0, true}, {"0.5", 500, true}, {"0.05", 50, true}, {"0.123", 123, true},
		{"0.999", 999, true}, {"1", 1000, true}, {"1.", 1000, true}, {"1.0", 1000, true}, {"1.000", 1000, true},
		{"", 0, false}, {"0.1234", 0, false}, {"1.001", 0, false}, {"1.1", 0, false}, {"2", 0, false},
		{"00", 0, false}, {"01", 0, false}, {".5", 0, false}, {"+0.5", 0, false}, {"-0", 0, false},
		{"NaN", 0, false}, {"Inf", 0, false}, {"0x1p-1", 0, false}, {"1e-1", 0, false}, {"0.5e0", 0, false},
		{"0.a", 0, false}, {"0 ", 0, false}, {" 0", 0, false}, {"0..", 0, false}, {"1.0000", 0, false},
	}
	for _, tt := range tests {
		if got, ok := parseQValue(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("parseQValue(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
