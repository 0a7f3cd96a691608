package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/weblinking/weblink"
)

// catalogSite serves an API catalog at the canonical origin, a nested
// catalog, and a second origin that redirects its well-known URL there.
func catalogSite(t *testing.T) (canonical, other *httptest.Server) {
	mux := http.NewServeMux()
	mux.Handle("/.well-known/api-catalog", weblink.APICatalog("https://example.com/", weblink.Links{
		{Target: "/apis/orders", Rel: []string{"item"}, Title: "Orders"},
		{Target: "/catalogs/more", Rel: []string{"api-catalog"}},
	}))

	mux.Handle("/catalogs/more", weblink.APICatalog("https://example.com/", weblink.Links{
		{Target: "/apis/stock", Rel: []string{"item"}},
	}))
	mux.HandleFunc("/templated", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Link", `</a>; rel="next"`)
		w.Header().Add("Link-Template", `"/widgets/{widget_id}"; rel="item"; var-base="/vars/"`)
	})
	canonical = httptest.NewServer(mux)
	t.Cleanup(canonical.Close)
	other = httptest.NewServer(http.RedirectHandler(canonical.URL+"/.well-known/api-catalog", http.StatusMovedPermanently))
	t.Cleanup(other.Close)
	return canonical, other
}

func TestAPICatalogFlag(t *testing.T) {
	canonical, other := catalogSite(t)
	u := canonical.URL
	r := runCmd(t, "", "-url", other.URL+"/ignored/path", "-api-catalog")
	w := len(u + "/catalogs/more  ")
	r.want(t, exitOK, ""+
		fmt.Sprintf("%-13s%-*s%-8s%s\n", "REL", w, "TARGET", "TITLE", "ATTRIBUTES")+
		fmt.Sprintf("%-13s%-*s%-8s%s\n", "item", w, u+"/apis/orders", "Orders", "anchor=https://example.com/")+
		fmt.Sprintf("%-13s%-*s%-8s%s\n", "api-catalog", w, u+"/catalogs/more", "", "anchor=https://example.com/")+
		fmt.Sprintf("%-13s%-*s%-8s%s\n", "item", w, u+"/apis/stock", "", "anchor=https://example.com/"))
	if r.stderr != "" {
		t.Errorf("stderr %q", r.stderr)
	}
	runCmd(t, "", "-url", other.URL, "-api-catalog", "-rel", "item").want(t, exitOK, u+"/apis/orders\n"+u+"/apis/stock\n")
	r = runCmd(t, "", "-url", canonical.URL, "-api-catalog", "-json")
	if r.code != exitOK || !strings.Contains(r.stdout, `"item": [`) || !strings.Contains(r.stdout, u+"/apis/stock") {
		t.Errorf("-json: exit %d, stdout:\n%s", r.code, r.stdout)
	}
	// A nested catalog that is not there is said on standard error; the
	// links found are shown.
	bmux := http.NewServeMux()
	bmux.Handle("/.well-known/api-catalog", weblink.APICatalog("https://example.com/", weblink.Links{
		{Target: "/catalogs/gone", Rel: []string{"api-catalog"}},
		{Target: "/apis/orders", Rel: []string{"item"}},
	}))
	broken := httptest.NewServer(bmux)
	defer broken.Close()
	r = runCmd(t, "", "-url", broken.URL, "-api-catalog", "-rel", "item")
	r.want(t, exitOK, broken.URL+"/apis/orders\n")
	if !strings.Contains(r.stderr, "404") {
		t.Errorf("nested catalog missing: stderr %q; want it said", r.stderr)
	}
	none := httptest.NewServer(http.NotFoundHandler())
	defer none.Close()
	r = runCmd(t, "", "-url", none.URL, "-api-catalog")
	if r.code != exitNone {
		t.Errorf("no catalog: exit %d", r.code)
	}
	r.wantErr(t, "answered 404")
}

func TestAPICatalogFlagUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-api-catalog"},
		{"-api-catalog", "-url", "https://example.com", "-all"},
		{"-api-catalog", "-url", "https://example.com", "-discover"},
		{"-api-catalog", "-url", "https://example.com", "-check"},
		{"-api-catalog", "-url", "https://example.com", "-format"},
	} {
		r := runCmd(t, "", args...)
		if r.code != exitProblem || r.stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want 2 and nothing", args, r.code, r.stdout)
		}
		r.wantErr(t, "-api-catalog needs -url")
	}
}

// TestLinkTemplateShown checks that Link-Template fields are shown, never
// expanded: in a piped head (folded over two lines), a header block, an
// argument and a -url response, in the table and in -json.
func TestLinkTemplateShown(t *testing.T) {
	head := "HTTP/1.1 200 OK\r\nLink: </a>; rel=\"next\"\r\n" +
		"link-template: \"/widgets/{widget_id}\"; rel=\"item\"; var-base=\"https://example.org/vars/\",\r\n" +
		"  \"/author\"; rel=\"author\"; title=%\"Bj%c3%b6rn\"\r\n\r\nbody"
	wantTable := "" +
		"FROM      REL     TARGET                TITLE  ATTRIBUTES\n" +
		"          next    /a\n" +
		"template  item    /widgets/{widget_id}         var-base=https://example.org/vars/\n" +
		"template  author  /author               Björn\n"
	runCmd(t, head).want(t, exitOK, wantTable)
	runCmd(t, strings.TrimPrefix(head, "HTTP/1.1 200 OK\r\n")).want(t, exitOK, wantTable)
	runCmd(t, "", `Link-Template: "/{x}"; rel="item"`).want(t, exitOK, ""+
		"FROM      REL   TARGET\n"+
		"template  item  /{x}\n")
	runCmd(t, head, "-json").want(t, exitOK, `{
  "linkset": [
    {
      "next": [
        { "href": "/a" }
      ]
    }
  ],
  "link-template": [
    { "template": "/widgets/{widget_id}", "rel": ["item"], "var-base": "https://example.org/vars/" },
    { "template": "/author", "rel": ["author"], "params": { "title": "Björn" } }
  ]
}
`)
	runCmd(t, `Link-Template: "/{x}"; rel=item`).wantErr(t, "line 1, byte 8: Link-Template: the rel parameter is a Token, not a String")

	canonical, _ := catalogSite(t)
	r := runCmd(t, "", "-url", canonical.URL+"/templated")
	w := max(len(canonical.URL+"/a"), len("/widgets/{widget_id}")) + 2
	r.want(t, exitOK, ""+
		fmt.Sprintf("FROM      REL   %-*s%s\n", w, "TARGET", "ATTRIBUTES")+
		"          next  "+canonical.URL+"/a\n"+
		fmt.Sprintf("template  item  %-*s%s\n", w, "/widgets/{widget_id}", "var-base=/vars/"))
}

func TestOnlyTemplates(t *testing.T) {
	// -rel and -format have no links to show when there are only
	// templated links, and say why; before: "no links found", while the
	// table shows them. -next says nothing, as on a last page. -check
	// checks them (TestCheckTemplates).
	const tmpl = `Link-Template: "/{x}"; rel="item"`
	const why = "weblink: no links found, only 1 templated link (Link-Template), which the table and -json show\n"
	for _, c := range []struct {
		args   []string
		stdout string
		stderr string
	}{
		{[]string{"-rel", "item", tmpl}, "", why},
		{[]string{"-format", tmpl}, "", why},
		{[]string{"-next", tmpl}, "", ""},
	} {
		r := runBinary(t, "", c.args...)
		if r.code != exitNone || r.stdout != c.stdout || r.stderr != c.stderr {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 1, %q and %q", c.args, r.code, r.stdout, r.stderr, c.stdout, c.stderr)
		}
	}
}
