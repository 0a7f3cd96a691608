package weblink

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestAPICatalogHandler(t *testing.T) {
	const publisher = "https://www.example.com/.well-known/api-catalog"
	apis := Links{
		{Target: "https://developer.example.com/apis/foo_api", Rel: []string{"item"}},
		{Target: "https://developer.example.com/apis/foo_api/spec", Rel: []string{"service-desc"}, Anchor: "https://developer.example.com/apis/foo_api", Type: "application/vnd.oai.openapi+json"},
		{Target: "https://www.example.net/.well-known/api-catalog", Rel: []string{"api-catalog"}},
	}
	h := APICatalogHandler(publisher, apis)
	apis[0].Target = "/changed later" // rule 38: the handler serves a snapshot
	const profile = `; profile="https://www.rfc-editor.org/info/rfc9727"`
	wantJSON := `{"linkset":[{"anchor":"https://www.example.com/.well-known/api-catalog",` +
		`"item":[{"href":"https://developer.example.com/apis/foo_api"}],` +
		`"api-catalog":[{"href":"https://www.example.net/.well-known/api-catalog"}]},` +
		`{"anchor":"https://developer.example.com/apis/foo_api",` +
		`"service-desc":[{"href":"https://developer.example.com/apis/foo_api/spec","type":"application/vnd.oai.openapi+json"}]}]}` + "\n"

	get := func(method, path string, header http.Header) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, nil)
		for k, v := range header {
			req.Header[k] = v
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	for _, tt := range []struct {
		rule   int
		method string
		path   string
		header http.Header
		status int
		ctype  string
		body   string // "-": not compared
	}{
		{50, "GET", "/.well-known/api-catalog", nil, 200, LinksetJSONType + profile, wantJSON},
		{52, "GET", "/.well-known/api-catalog", http.Header{"Accept": {"application/linkset"}}, 200, LinksetType + profile, "-"},
		{52, "GET", "/.well-known/api-catalog", http.Header{"Accept": {"text/html"}}, 406, "", "-"},
		{52, "POST", "/.well-known/api-catalog", nil, 405, "", "-"},
		{53, "HEAD", "/.well-known/api-catalog", nil, 200, LinksetJSONType + profile, ""},
		{53, "GET", "/my_api_catalog.json", nil, 200, LinksetJSONType + profile, wantJSON},
	} {
		rec := get(tt.method, tt.path, tt.header)
		res := rec.Result()
		if res.StatusCode != tt.status || tt.ctype != "" && res.Header.Get("Content-Type") != tt.ctype {
			t.Errorf("rule %d: %s %s %v: %d %q; want %d %q", tt.rule, tt.method, tt.path, tt.header, res.StatusCode, res.Header.Get("Content-Type"), tt.status, tt.ctype)
		}
		body := rec.Body.String()
		if compact := new(bytes.Buffer); json.Compact(compact, rec.Body.Bytes()) == nil {
			body = compact.String() + "\n"
		}
		if tt.body != "-" && body != tt.body {
			t.Errorf("rule %d: %s %s: body\n%s\nwant\n%s", tt.rule, tt.method, tt.path, rec.Body, tt.body)
		}
		if got, want := res.Header.Values("Link"), []string{`<` + tt.path + `>; rel="api-catalog"`}; strings.Join(got, "|") != want[0] {
			t.Errorf("rule 37: %s %s: Link %q; want %q", tt.method, tt.path, got, want)
		}
	}
	// Rule 36: revalidation with the ETag gets 304, still with the link.
	etag := get("GET", "/.well-known/api-catalog", nil).Result().Header.Get("ETag")
	rec := get("GET", "/.well-known/api-catalog", http.Header{"If-None-Match": {etag}})
	if rec.Code != http.StatusNotModified || etag == "" || rec.Header().Get("Link") != `</.well-known/api-catalog>; rel="api-catalog"` {
		t.Errorf("rule 36: If-None-Match %s: %d, Link %q; want 304 with the api-catalog link", etag, rec.Code, rec.Header().Get("Link"))
	}
	// Rule 37: a path that would break out of <...> is written safely.
	rec = get("GET", "/a%3E;%20rel=%22x", nil)
	if l := rec.Header().Get("Link"); strings.Count(l, ">") != 1 || !strings.HasSuffix(l, `>; rel="api-catalog"`) {
		t.Errorf("rule 37: Link %q for a hostile path", l)
	}
	// Rule 37: a path that starts with "//" (a router that does not clean
	// paths hands it on) is not written as a reference to another host.
	req := httptest.NewRequest("GET", "/", nil)
	req.RequestURI, req.URL.Path = "//evil.example/x", "//evil.example/x" // as net/http's server reads it
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if l := rec.Header().Get("Link"); l != `</.//evil.example/x>; rel="api-catalog"` {
		t.Errorf("rule 37: Link %q for the path //evil.example/x; want </.//evil.example/x>, a path on this host", l)
	}
	// Rule 37: the path is the request's, also under http.StripPrefix,
	// which hands the handler a shorter one.
	rec = httptest.NewRecorder()
	http.StripPrefix("/apis", h).ServeHTTP(rec, httptest.NewRequest("GET", "/apis/.well-known/api-catalog?x=1", nil))
	if l := rec.Header().Get("Link"); l != `</apis/.well-known/api-catalog>; rel="api-catalog"` {
		t.Errorf("rule 37: Link %q under StripPrefix; want the request's path </apis/.well-known/api-catalog>", l)
	}
}
