package discover

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/linksource"
	"github.com/weblinking/weblink/internal/rawpeer"
	"github.com/weblinking/weblink/paging"
)

// respond is a handler that answers with a content type, Link fields and a
// body.
func respond(status int, contentType, body string, links ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		} else {
			w.Header()["Content-Type"] = nil // no sniffing by net/http
		}
		for _, l := range links {
			w.Header().Add("Link", l)
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// get runs Links against a GET of url.
func get(t *testing.T, url string, opts ...Option) (weblink.Links, error) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return Links(context.Background(), nil, req, opts...)
}

const atomDoc = `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><link rel="hub" href="/hub"/><entry><link href="/e"/></entry></feed>`
const rssDoc = `<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><link>/site</link><atom:link rel="hub" href="/hub"/></channel></rss>`

// TestLinksContentTypes checks that the content type chooses the parser
// (rules 9 and 10) and that header links come first (rule 8).
func TestLinksContentTypes(t *testing.T) {
	const htmlDoc = `<!doctype html><link rel="webmention" href="/body-wm"><a rel="me" href="/me">me</a>`
	for _, tc := range []struct {
		name, contentType, body string
		want                    []string // "rel target-path", header link first
	}{
		{"9/text/html", "text/html; charset=utf-8", htmlDoc, []string{"webmention /body-wm"}},
		{"9/xhtml", "application/xhtml+xml", htmlDoc, []string{"webmention /body-wm"}},
		{"9/atom", "application/atom+xml", atomDoc, []string{"hub /hub"}},
		{"9/rss", "application/rss+xml", rssDoc, []string{"alternate /site", "hub /hub"}},
		{"9/text/xml feed", "text/xml", atomDoc, []string{"hub /hub"}},
		{"9/application/xml rss", "application/xml; charset=utf-8", rssDoc, []string{"alternate /site", "hub /hub"}},
		{"9/text/xml other root", "text/xml", `<html xmlns="http://www.w3.org/1999/xhtml"><link rel="a" href="/x"/></html>`, nil},
		{"9/linkset", "application/linkset", "</ls1>; rel=item,\n</ls2>; rel=\"cite-as\"", []string{"item /ls1", "cite-as /ls2"}},
		{"9/linkset+json", "application/linkset+json", `{"linkset":[{"anchor":"/r","item":[{"href":"/j1"}]}]}`, []string{"item /j1"}},
		{"9/other types not read", "application/octet-stream", htmlDoc, nil},
		{"10/text/plain not sniffed", "text/plain; charset=utf-8", htmlDoc, nil},
		{"10/no content type sniffed", "", htmlDoc, []string{"webmention /body-wm"}},
		{"10/no content type, xml sniffed", "", atomDoc, []string{"hub /hub"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(respond(200, tc.contentType, tc.body, `</header-wm>; rel="webmention"`))
			defer srv.Close()
			got, err := get(t, srv.URL+"/page")
			if err != nil {
				t.Errorf("error %v", err)
			}
			want := append([]string{"webmention /header-wm"}, tc.want...)
			if diff := cmp.Diff(want, summary(got, srv.URL)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			if l, _ := got.Rel("webmention"); l.Target != srv.URL+"/header-wm" {
				t.Errorf("Rel(webmention) = %q; want the header's endpoint", l.Target)
			}
		})
	}
}

// summary is each link as "rel target", the target without the prefix.
func summary(ls weblink.Links, prefix string) []string {
	var out []string
	for _, l := range ls {
		out = append(out, strings.Join(l.Rel, " ")+" "+strings.TrimPrefix(l.Target, prefix))
	}
	return out
}

// TestLinksNoSniff checks that X-Content-Type-Options: nosniff stops the
// sniffing of a body without a content type.
func TestLinksNoSniff(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil
		w.Header().Set("X-Content-Type-Options", "nosniff")
		io.WriteString(w, `<link rel="a" href="/1">`)
	}))
	defer srv.Close()
	if got, err := get(t, srv.URL); got != nil || err != nil {
		t.Errorf("got %v, %v; want no links", got, err)
	}
}

// TestLinksRedirect checks that links are resolved against the final URL
// of a redirected request (rule 8), header and body alike, and that a
// <base href> still applies to body links.
func TestLinksRedirect(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/old", http.RedirectHandler("/new/dir/page", http.StatusMovedPermanently))
	mux.Handle("/new/dir/page", respond(200, "text/html", `<link rel="a" href="body"><a rel="b" href="../up">x</a>`, `<hdr>; rel="c"`))
	mux.Handle("/based", respond(200, "text/html", `<base href="/b/"><link rel="a" href="x">`, `<hdr>; rel="c"`))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	got, err := get(t, srv.URL+"/old", Hyperlinks())
	if diff := cmp.Diff([]string{"c /new/dir/hdr", "a /new/dir/body", "b /new/up"}, summary(got, srv.URL)); diff != "" || err != nil {
		t.Errorf("err %v, mismatch (-want +got):\n%s", err, diff)
	}
	got, err = get(t, srv.URL+"/based")
	if diff := cmp.Diff([]string{"c /hdr", "a /b/x"}, summary(got, srv.URL)); diff != "" || err != nil {
		t.Errorf("err %v, mismatch (-want +got):\n%s", err, diff)
	}
}

// TestLinksCharset checks rule 11: the charset of the Content-Type, of a
// <meta>, or windows-1252 for bytes that are not UTF-8.
func TestLinksCharset(t *testing.T) {
	for _, tc := range []struct{ name, contentType, body string }{
		{"content-type", "text/html; charset=iso-8859-1", "<link rel=a href=/1 title=\"caf\xe9\">"},
		{"meta", "text/html", "<meta charset=windows-1252><link rel=a href=/1 title=\"caf\xe9\">"},
		{"fallback", "text/html", "<link rel=a href=/1 title=\"caf\xe9\">"},
		{"utf-8", "text/html", "<link rel=a href=/1 title=\"café\">"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(respond(200, tc.contentType, tc.body))
			defer srv.Close()
			got, err := get(t, srv.URL)
			if err != nil || len(got) != 1 || got[0].Title != "café" {
				t.Errorf("got %v, %v; want one link titled café", got, err)
			}
		})
	}
}

// TestLinksStatus checks rule 12: a non-2xx response gives its header
// links and a *paging.StatusError, and its body is not read for links.
func TestLinksStatus(t *testing.T) {
	srv := httptest.NewServer(respond(404, "text/html", `<link rel="body" href="/b">`, `</h>; rel="help"`))
	defer srv.Close()
	got, err := get(t, srv.URL+"/missing#frag")
	if diff := cmp.Diff([]string{"help /h"}, summary(got, srv.URL)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	var se *paging.StatusError
	if !errors.As(err, &se) || !errors.Is(err, paging.ErrStatus) {
		t.Fatalf("error %v; want a *paging.StatusError", err)
	}
	want := paging.StatusError{StatusCode: 404, Status: "404 Not Found", URL: srv.URL + "/missing",
		Body: []byte(`<link rel="body" href="/b">`)}
	if diff := cmp.Diff(want, *se, cmpopts.IgnoreFields(paging.StatusError{}, "Header")); diff != "" {
		t.Errorf("StatusError mismatch (-want +got):\n%s", diff)
	}
	if se.Header.Get("Link") != `</h>; rel="help"` {
		t.Errorf("StatusError.Header %v; want the response's", se.Header)
	}
}

// TestLinksStatusBody: a StatusError carries the first 2 KiB of a large
// error body, of the page and of a linkset it points to.
func TestLinksStatusBody(t *testing.T) {
	big := `{"message": "rate limit"}` + strings.Repeat("x", 1<<20)
	mux := http.NewServeMux()
	mux.Handle("/missing", respond(500, "application/json", big))
	mux.Handle("/", respond(200, "text/plain", "", `</set>; rel="linkset"`))
	mux.Handle("/set", respond(503, "application/json", big))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	for _, path := range []string{"/missing", "/"} {
		_, err := get(t, srv.URL+path, FollowLinksets())
		var se *paging.StatusError
		if !errors.As(err, &se) {
			t.Fatalf("%s: error %v; want a *paging.StatusError", path, err)
		}
		if string(se.Body) != big[:2048] || cap(se.Body) > 2048 || se.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s: StatusError %d with a body of %d bytes (cap %d), header %v; want the first 2048 bytes and the header",
				path, se.StatusCode, len(se.Body), cap(se.Body), se.Header)
		}
		if strings.Contains(err.Error(), "rate limit") {
			t.Errorf("%s: error %q shows the body", path, err)
		}
	}
}

// TestLinksStatusWithoutUserinfo: the URL of a StatusError and of every
// message has no user information, neither password nor user name (often a
// token).
func TestLinksStatusWithoutUserinfo(t *testing.T) {
	srv := httptest.NewServer(respond(404, "text/html", "", ""))
	defer srv.Close()
	u := strings.Replace(srv.URL, "http://", "http://tok3n:s3cret@", 1) + "/missing"
	_, err := get(t, u)
	var se *paging.StatusError
	if !errors.As(err, &se) {
		t.Fatalf("error %v; want a *paging.StatusError", err)
	}
	if se.URL != srv.URL+"/missing" || strings.Contains(err.Error(), "tok3n") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("StatusError.URL %q, error %q: want no userinfo", se.URL, err)
	}
}

// TestLinksHeaderErrors checks that a malformed header keeps its good
// links and reports the bad one, and that the body is still read.
func TestLinksHeaderErrors(t *testing.T) {
	srv := httptest.NewServer(respond(200, "text/html", `<link rel="b" href="/b">`, `</a>; rel="a", junk, <http://[::1>; rel="x"`))
	defer srv.Close()
	got, err := get(t, srv.URL)
	if diff := cmp.Diff([]string{"a /a", "x http://[::1", "b /b"}, summary(got, srv.URL)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	var re *weblink.ResolveError
	if !errors.Is(err, weblink.ErrSyntax) || !errors.As(err, &re) {
		t.Errorf("error %v; want the syntax error and the resolve error", err)
	}
}

// writeSpaces writes spaces until written reaches n, or the client hangs up.
func writeSpaces(w http.ResponseWriter, n int64, written *atomic.Int64) {
	chunk := []byte(strings.Repeat(" ", 32<<10))
	for written.Load() < n {
		m, err := w.Write(chunk[:min(int64(len(chunk)), n-written.Load())])
		written.Add(int64(m))
		if err != nil {
			return
		}
	}
}

// TestLinksMaxBytes checks rule 13 with a 50 MiB body and MaxBytes(1 MiB):
// Links returns the links of the first MiB and ErrTruncated, and the rest
// is not downloaded.
func TestLinksMaxBytes(t *testing.T) {
	const total = 50 << 20
	var written atomic.Int64
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(done)
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Link", `</h>; rel="h"`)
		n, _ := io.WriteString(w, `<link rel="early" href="/early">`)
		written.Add(int64(n))
		writeSpaces(w, 1<<20-200, &written)
		io.WriteString(w, `<link rel="edge" href="/edge">`) // ends before 1 MiB
		writeSpaces(w, total, &written)
		io.WriteString(w, `<link rel="late" href="/late">`)
	}))
	defer srv.Close()
	start := time.Now()
	got, err := get(t, srv.URL, MaxBytes(1<<20))
	elapsed := time.Since(start)
	if diff := cmp.Diff([]string{"h /h", "early /early", "edge /edge"}, summary(got, srv.URL)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if !errors.Is(err, ErrTruncated) || errors.Is(err, paging.ErrStatus) || !strings.Contains(err.Error(), "1048576 bytes") {
		t.Errorf("error %v; want ErrTruncated naming the limit", err)
	}
	<-done // the handler stops when the client has hung up
	if w := written.Load(); w > total/2 {
		t.Errorf("the server wrote %d of %d bytes: the body was read beyond MaxBytes", w, total)
	}
	if elapsed > 20*time.Second { // wide slack: about 10 ms on an idle machine
		t.Errorf("Links took %v", elapsed)
	}
}

// TestLinksDefaultMaxBytes checks the 4 MiB default, that a body of
// exactly MaxBytes is not cut, and that a cut linkset gives no links (rule
// 13), though the cut falls in the spaces after its one link.
func TestLinksDefaultMaxBytes(t *testing.T) {
	for _, tc := range []struct {
		size int
		opts []Option
		cut  bool
	}{
		{4 << 20, nil, false},
		{100, []Option{MaxBytes(100)}, false},
		{101, []Option{MaxBytes(100)}, true},
		{4<<20 + 1, []Option{MaxBytes(0)}, true}, // 0 leaves the default
	} {
		// A linkset: read whole, so that the race detector does not make
		// the test slow as it makes the HTML tokenizer.
		body := `</a>; rel=a` + strings.Repeat(" ", tc.size-11)
		srv := httptest.NewServer(respond(200, weblink.LinksetType, body))
		got, err := get(t, srv.URL, tc.opts...)
		srv.Close()
		if want := map[bool]int{false: 1, true: 0}[tc.cut]; errors.Is(err, ErrTruncated) != tc.cut || len(got) != want {
			t.Errorf("size %d: got %d links, error %v; want cut=%v", tc.size, len(got), err, tc.cut)
		}
	}
}

// TestLinksCutLinkset checks that a linkset cut at MaxBytes gives no links
// (rule 13): cut after "rel=ite" it parsed into a rel="ite" link that was
// never sent, and a JSON linkset was parsed whole only to fail on its end.
func TestLinksCutLinkset(t *testing.T) {
	body := `</a>; rel="item", </b>; rel=item`
	srv := httptest.NewServer(respond(200, weblink.LinksetType, body))
	defer srv.Close()
	got, err := get(t, srv.URL, MaxBytes(int64(len(body)-1)))
	if len(got) != 0 || !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), "a cut linkset gives no links") {
		t.Errorf("links %v, error %v; want none, and ErrTruncated saying so", summary(got, srv.URL), err)
	}
}

// linksetServer serves a resource whose header and body point to
// linksets, and records the requests it gets.
type linksetServer struct {
	mu       sync.Mutex
	requests []string // "path accept"
}

func (s *linksetServer) record(r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r.URL.Path+" "+r.Header.Get("Accept"))
}

// TestFollowLinksets checks rule 14: same-origin linksets in the header and
// the body, fetched once each with the Accept field, one level deep,
// anchors resolved against the linkset's URL; another origin not fetched.
func TestFollowLinksets(t *testing.T) {
	other := httptest.NewServer(respond(200, weblink.LinksetJSONType, `{"linkset":[{"anchor":"/r","evil":[{"href":"/x"}]}]}`))
	defer other.Close()
	var s linksetServer
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	mux.HandleFunc("/article", func(w http.ResponseWriter, r *http.Request) {
		s.record(r)
		w.Header().Add("Link", `</ls/a.json>; rel="linkset"; type="application/linkset+json"`)
		w.Header().Add("Link", `<`+other.URL+`/ls>; rel="linkset"`)
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<link rel="linkset" href="/ls/b.txt"><link rel="linkset" href="/ls/a.json#again"><link rel="linkset" href="/article">`)
	})
	mux.HandleFunc("/ls/a.json", func(w http.ResponseWriter, r *http.Request) {
		s.record(r)
		w.Header().Set("Content-Type", weblink.LinksetJSONType)
		io.WriteString(w, `{"linkset":[{"anchor":"../article","cite-as":[{"href":"https://doi.example/1"}],"linkset":[{"href":"/ls/deeper"}]}]}`)
	})
	mux.HandleFunc("/ls/b.txt", func(w http.ResponseWriter, r *http.Request) {
		s.record(r)
		w.Header().Set("Content-Type", weblink.LinksetType)
		io.WriteString(w, "<meta.xml>; rel=\"describedby\"; anchor=\"../article\"; type=\"application/xml\"")
	})
	mux.HandleFunc("/ls/deeper", func(w http.ResponseWriter, r *http.Request) { s.record(r) })

	req, _ := http.NewRequest("GET", srv.URL+"/article", nil)
	req.Header.Set("User-Agent", "test-agent")
	req.Header.Set("Authorization", "Bearer secret")
	sources := []string{"stale"}
	ctx := linksource.With(context.Background(), &sources)
	got, err := Links(ctx, nil, req, FollowLinksets())
	if err != nil {
		t.Errorf("error %v", err)
	}
	want := weblink.Links{
		{Target: srv.URL + "/ls/a.json", Rel: []string{"linkset"}, Type: weblink.LinksetJSONType},
		rel(other.URL+"/ls", "linkset"),
		rel(srv.URL+"/ls/b.txt", "linkset"),
		rel(srv.URL+"/ls/a.json#again", "linkset"),
		rel(srv.URL+"/article", "linkset"),
		{Target: "https://doi.example/1", Rel: []string{"cite-as"}, Anchor: srv.URL + "/article"},
		{Target: srv.URL + "/ls/deeper", Rel: []string{"linkset"}, Anchor: srv.URL + "/article"},
		{Target: srv.URL + "/ls/meta.xml", Rel: []string{"describedby"}, Anchor: srv.URL + "/article", Type: "application/xml"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	wantReq := []string{"/article ", "/ls/a.json " + linksetAccept, "/ls/b.txt " + linksetAccept}
	if diff := cmp.Diff(wantReq, s.requests); diff != "" {
		t.Errorf("requests mismatch (-want +got):\n%s", diff)
	}
	wantSources := []string{"header", "header", "link", "link", "link", "linkset", "linkset", "linkset"}
	if diff := cmp.Diff(wantSources, sources); diff != "" {
		t.Errorf("sources mismatch (-want +got):\n%s", diff)
	}
}

// TestFollowLinksetsHeaders checks that a linkset request carries the
// User-Agent and no credentials of the first request.
func TestFollowLinksetsHeaders(t *testing.T) {
	var got http.Header
	mux := http.NewServeMux()
	mux.Handle("/", respond(200, "text/html", "", `</ls>; rel="linkset"`))
	mux.HandleFunc("/ls", func(w http.ResponseWriter, r *http.Request) { got = r.Header.Clone() })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/", nil)
	req.Header.Set("User-Agent", "test-agent")
	req.Header.Set("Authorization", "Bearer secret")
	req.Header.Set("Cookie", "a=b")
	Links(context.Background(), nil, req, FollowLinksets())
	if got.Get("User-Agent") != "test-agent" || got.Get("Authorization") != "" || got.Get("Cookie") != "" || got.Get("Accept") != linksetAccept {
		t.Errorf("linkset request header %v", got)
	}
}

// TestFollowLinksetsErrors checks that a linkset that fails is reported and
// the others are still read, and that MaxBytes applies to the linksets
// together (rule 17): /big is cut at what /bad and /ok left of it, and
// gives no links, though its first link came whole (rule 13).
func TestFollowLinksetsErrors(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/", respond(200, "text/html", `<link rel="linkset" href="/html"><link rel=linkset href=/ok><link rel=linkset href=/big>`,
		`</gone>; rel="linkset"`, `</bad>; rel="linkset"`))
	mux.Handle("/gone", respond(410, weblink.LinksetJSONType, `{}`))
	mux.Handle("/bad", respond(200, weblink.LinksetJSONType, `{"linkset": 1}`))
	mux.Handle("/html", respond(200, "text/html", `<link rel=a href=/x>`))
	mux.Handle("/big", respond(200, weblink.LinksetType, "</b1>; rel=a,"+strings.Repeat(" ", 300)+"</b2>; rel=a"))
	mux.Handle("/ok", respond(200, "application/json", `{"linkset":[{"anchor":"/","ok":[{"href":"/fine"}]}]}`))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	got, err := get(t, srv.URL+"/", FollowLinksets(), MaxBytes(200))
	if s := summary(got, srv.URL); len(s) == 0 || s[len(s)-1] != "ok /fine" {
		t.Errorf("links %v; want them to end with ok /fine, none from the cut /big", s)
	}
	var se *paging.StatusError
	if !errors.As(err, &se) || se.StatusCode != 410 || !errors.Is(err, ErrTruncated) || !errors.Is(err, weblink.ErrInvalidLinkset) ||
		!strings.Contains(err.Error(), `served as "text/html"`) || !strings.Contains(err.Error(), "a cut linkset gives no links") {
		t.Errorf("error %v; want the 410, the cut linkset, the invalid one and the HTML one", err)
	}
}

// TestLinksRequests checks what Links refuses and what it sends.
func TestLinksRequests(t *testing.T) {
	var method string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		method = r.Method
		w.Header().Set("Link", `</h>; rel="h"`)
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<link rel="b" href="/b">`)
	}))
	defer srv.Close()
	post, _ := http.NewRequest("POST", srv.URL, nil)
	if _, err := Links(context.Background(), nil, post); err == nil || !strings.Contains(err.Error(), "GET or HEAD") || method != "" {
		t.Errorf("POST: error %v, method sent %q", err, method)
	}
	if _, err := Links(context.Background(), nil, nil); err == nil {
		t.Error("nil request: no error")
	}
	get, _ := http.NewRequest("GET", srv.URL, nil)
	//lint:ignore SA1012 testing the nil check
	if _, err := Links(nil, nil, get); err == nil {
		t.Error("nil context: no error")
	}
	head, _ := http.NewRequest("HEAD", srv.URL, nil)
	if got, err := Links(context.Background(), srv.Client(), head); err != nil || len(got) != 1 || method != "HEAD" {
		t.Errorf("HEAD: %v, %v, method %q; want the header link", got, err, method)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Links(ctx, nil, get); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled ctx: error %v", err)
	}
	reqCtx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Links(context.Background(), nil, get.WithContext(reqCtx)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled req.Context(): error %v", err)
	}
}

// TestLinksUserInfo checks that a password in the request URL is not
// copied into the targets it resolves, nor into the error.
func TestLinksUserInfo(t *testing.T) {
	srv := httptest.NewServer(respond(200, "text/html", `<link rel="a" href="/abs"><link rel="b" href="rel">`, `</h>; rel="h"; anchor="#x"`))
	defer srv.Close()
	u := strings.Replace(srv.URL, "http://", "http://user:secret@", 1)
	got, err := get(t, u+"/dir/page")
	if diff := cmp.Diff([]string{"h /h", "a /abs", "b /dir/rel"}, summary(got, srv.URL)); diff != "" || err != nil {
		t.Errorf("err %v, mismatch (-want +got):\n%s", err, diff)
	}
	if got[0].Anchor != srv.URL+"/dir/page#x" {
		t.Errorf("anchor %q", got[0].Anchor)
	}
	gone := httptest.NewServer(respond(404, "text/html", ""))
	defer gone.Close()
	_, err = get(t, strings.Replace(gone.URL, "http://", "http://user:secret@", 1))
	if err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("error %v; want one without the password", err)
	}
}

// TestWebmentionDiscovery follows W3C Webmention §3.1.2: the endpoint is
// the first Link header with rel="webmention", else the first <link> or
// <a> element with it, in document order; relative URLs resolve against
// the page's URL after redirects; an empty href is the page itself; query
// strings are kept; a rel that only contains "webmention" as part of a
// word does not count.
func TestWebmentionDiscovery(t *testing.T) {
	for _, tc := range []struct {
		name   string
		header []string
		body   string
		want   string // path of the endpoint; "" for none
	}{
		{"header, relative", []string{`</endpoint>; rel=webmention`}, ``, "/endpoint"},
		{"header, absolute", []string{`<https://wm.example/e>; rel="webmention"`}, ``, "https://wm.example/e"},
		{"header, upper-case rel", []string{`</endpoint>; rel="WebMention"`}, ``, "/endpoint"},
		{"header, several rels", []string{`</endpoint>; rel="webmention somethingelse"`}, ``, "/endpoint"},
		{"header among other links", []string{`</a>; rel="other", </endpoint>; rel="webmention"`}, ``, "/endpoint"},
		{"second header line", []string{`</a>; rel="other"`, `</endpoint>; rel="webmention"`}, ``, "/endpoint"},
		{"header before body", []string{`</header>; rel="webmention"`}, `<link rel="webmention" href="/body">`, "/header"},
		{"<link>, relative to the page", nil, `<link rel="webmention" href="endpoint">`, "/test/endpoint"},
		{"<a>", nil, `<p><a rel="webmention" href="/a-endpoint">x</a>`, "/a-endpoint"},
		{"<a> before <link>", nil, `<a rel="webmention" href="/first">x</a><link rel="webmention" href="/second">`, "/first"},
		{"<link> before <a>", nil, `<link rel="webmention" href="/first"><a rel="webmention" href="/second">x</a>`, "/first"},
		{"in a comment, skipped", nil, `<!-- <link rel="webmention" href="/no"> --><link rel="webmention" href="/yes">`, "/yes"},
		{"escaped text, skipped", nil, `<code>&lt;a rel="webmention" href="/no"&gt;</code><a rel="webmention" href="/yes">x</a>`, "/yes"},
		{"empty href is the page", nil, `<link rel="webmention" href="">`, "/test/page?x=1"},
		{"query string kept", nil, `<link rel="webmention" href="/e?version=1">`, "/e?version=1"},
		{"not-webmention is not webmention", nil, `<link rel="not-webmention" href="/no"><a rel="webmention" href="/yes">x</a>`, "/yes"},
		{"no href, skipped", nil, `<link rel="webmention"><link rel="webmention" href="/yes">`, "/yes"},
		{"none", nil, `<link rel="stylesheet" href="/s.css">`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mux := http.NewServeMux()
			mux.Handle("/start", http.RedirectHandler("/test/page?x=1", http.StatusFound))
			mux.Handle("/test/page", respond(200, "text/html; charset=utf-8", tc.body, tc.header...))
			srv := httptest.NewServer(mux)
			defer srv.Close()
			links, err := get(t, srv.URL+"/start", Hyperlinks())
			if err != nil {
				t.Errorf("error %v", err)
			}
			got := ""
			if l, ok := links.Rel("webmention"); ok {
				got = strings.TrimPrefix(l.Target, srv.URL)
			}
			if got != tc.want {
				t.Errorf("endpoint %q; want %q", got, tc.want)
			}
		})
	}
}

// TestWebSubDiscovery follows W3C WebSub §4: hub and self come from the
// Link header first, then from the HTML <link> elements or the feed's
// atom:link elements, whatever the feed's content type.
func TestWebSubDiscovery(t *testing.T) {
	const hubs = `<link rel="hub" href="https://hub.example/doc"><link rel="self" href="/doc-self">`
	for _, tc := range []struct {
		name, contentType, body string
		header                  []string
		hub, self               string
	}{
		{"header only", "text/plain", "", []string{`<https://hub.example/h>; rel="hub"`, `</topic>; rel="self"`}, "https://hub.example/h", "/topic"},
		{"header wins over HTML", "text/html", hubs, []string{`<https://hub.example/h>; rel="hub"`, `</topic>; rel="self"`}, "https://hub.example/h", "/topic"},
		{"HTML", "text/html", hubs, nil, "https://hub.example/doc", "/doc-self"},
		{"Atom", "application/atom+xml", `<feed xmlns="http://www.w3.org/2005/Atom"><link rel="hub" href="https://hub.example/a"/><link rel="self" href="/atom"/></feed>`, nil, "https://hub.example/a", "/atom"},
		{"Atom as text/xml", "text/xml; charset=utf-8", `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><link rel="hub" href="https://hub.example/a"/><link rel="self" href="/atom"/></feed>`, nil, "https://hub.example/a", "/atom"},
		{"RSS as application/xml", "application/xml", `<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><atom:link rel="hub" href="https://hub.example/r"/><atom:link rel="self" href="/rss"/></channel></rss>`, nil, "https://hub.example/r", "/rss"},
		{"header hub, feed self", "application/rss+xml", `<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><atom:link rel="self" href="/rss"/></channel></rss>`, []string{`<https://hub.example/h>; rel="hub"`}, "https://hub.example/h", "/rss"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(respond(200, tc.contentType, tc.body, tc.header...))
			defer srv.Close()
			links, err := get(t, srv.URL+"/doc")
			hub, _ := links.Rel("hub")
			self, _ := links.Rel("self")
			if err != nil || hub.Target != tc.hub || strings.TrimPrefix(self.Target, srv.URL) != tc.self {
				t.Errorf("hub %q, self %q, error %v; want %q and %q", hub.Target, self.Target, err, tc.hub, tc.self)
			}
		})
	}
}

// TestNilOption: a nil Option is ignored; it was a nil dereference.
func TestNilOption(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `</a>; rel="next"`)
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<link rel="me" href="/me">`)
	}))
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL, nil)
	links, err := Links(context.Background(), srv.Client(), req, nil, MaxBytes(1<<20), nil)
	if err != nil || len(links) != 2 {
		t.Errorf("Links with nil options = %v, %v; want 2 links", links, err)
	}
	if links, err := HTML(strings.NewReader(`<link rel="me" href="/me">`), nil, nil); err != nil || len(links) != 1 {
		t.Errorf("HTML with a nil option = %v, %v; want 1 link", links, err)
	}
}

// TestPeerBytesEscapedInErrors: a header line net/http rejects comes back in
// its error, before Go 1.26 with the peer's bytes raw (here an escape
// sequence and a bell); the errors of Links and APICatalog carry them
// escaped on every Go, whether the line is in a response's head, in the
// trailer of its body, or in a linkset or nested catalog fetched on the
// way, and still unwrap to net/http's error.
func TestPeerBytesEscapedInErrors(t *testing.T) {
	const badLine = "X\x1b]0;PWNED\x07: 1\r\n"
	chunked := func(contentType, body string) string {
		return fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: %s\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n%s\r\n", contentType, len(body), body, badLine)
	}
	base := rawpeer.Serve(t, func(path string) string {
		switch path {
		case "/head", "/.well-known/api-catalog":
			return "HTTP/1.1 200 OK\r\n" + badLine + "Content-Length: 0\r\n\r\n"
		case "/html":
			return chunked("text/html", `<link rel="a" href="/x">`)
		case "/feed":
			return chunked("application/atom+xml", `<feed xmlns="http://www.w3.org/2005/Atom"><link href="/x"/>`)
		case "/linkset":
			return chunked("application/linkset", `</x>; rel="a"`)
		case "/follow":
			return "HTTP/1.1 200 OK\r\nLink: </head>; rel=\"linkset\"; type=\"application/linkset\"\r\nContent-Length: 0\r\n\r\n"
		}
		return "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
	})
	links := func(path string, opts ...Option) func() error {
		return func() error {
			_, err := get(t, base+path, opts...)
			return err
		}
	}
	for _, c := range []struct {
		name  string
		run   func() error
		inURL bool // net/http's *url.Error is in the chain: the line was in a head
	}{
		{"head", links("/head"), true},
		{"HTML body's trailer", links("/html"), false},
		{"feed body's trailer", links("/feed"), false},
		{"linkset body's trailer", links("/linkset"), false},
		{"linkset followed", links("/follow", FollowLinksets()), true},
		{"API catalog", func() error {
			_, err := APICatalog(context.Background(), nil, mustURL(t, base))
			return err
		}, true},
	} {
		err := c.run()
		switch {
		case err == nil:
			t.Errorf("%s: no error", c.name)
		case strings.ContainsAny(err.Error(), "\x1b\x07"):
			t.Errorf("%s: the message carries the peer's bytes raw: %q", c.name, err)
		case !strings.Contains(err.Error(), "malformed MIME header line: ") || !strings.Contains(err.Error(), "PWNED"):
			t.Errorf("%s: message %q; want net/http's, with the line escaped", c.name, err)
		}
		var ue *url.Error
		if c.inURL && !errors.As(err, &ue) {
			t.Errorf("%s: %v does not unwrap to a *url.Error", c.name, err)
		}
	}
}

// TestLinksRedirectCredentials: a redirect from 127.0.0.1:A to 127.0.0.1:B
// is another origin, so the request there keeps only the fields of
// rule 31 of package weblink, though net/http compares host names only and would
// send Authorization and Cookie; a redirect back to A gets them again. The
// caller's CheckRedirect still decides.
func TestLinksRedirectCredentials(t *testing.T) {
	seen := map[string]http.Header{}
	var a, b *httptest.Server
	b = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen["b"+r.URL.Path] = r.Header.Clone()
		http.Redirect(w, r, a.URL+"/back", http.StatusFound)
	}))
	defer b.Close()
	a = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen["a"+r.URL.Path] = r.Header.Clone()
		if r.URL.Path == "/start" {
			http.Redirect(w, r, b.URL+"/there", http.StatusFound)
			return
		}
		respond(200, "text/html", `<link rel="me" href="/me">`)(w, r)
	}))
	defer a.Close()
	var hops int
	client := &http.Client{CheckRedirect: func(req *http.Request, via []*http.Request) error {
		hops++
		return nil
	}}
	req, err := http.NewRequest("GET", a.URL+"/start", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"Authorization", "Cookie", "Proxy-Authorization", "PRIVATE-TOKEN", "X-Api-Key", "X-Trace"} {
		req.Header.Set(h, "secret")
	}
	req.Header.Set("User-Agent", "discover-test")
	links, err := Links(context.Background(), client, req)
	if err != nil || len(links) != 1 {
		t.Fatalf("Links = %v, %v; want one link", links, err)
	}
	if hops != 2 {
		t.Errorf("the client's CheckRedirect ran %d times, want 2", hops)
	}
	for _, tc := range []struct {
		at    string
		creds bool
	}{{"a/start", true}, {"b/there", false}, {"a/back", true}} {
		h, ok := seen[tc.at]
		if !ok {
			t.Errorf("%s not requested", tc.at)
			continue
		}
		for _, name := range []string{"Authorization", "Cookie", "Proxy-Authorization", "PRIVATE-TOKEN", "X-Api-Key", "X-Trace"} {
			if got := h.Get(name) != ""; got != tc.creds {
				t.Errorf("%s: %s present = %v, want %v", tc.at, name, got, tc.creds)
			}
		}
		if h.Get("User-Agent") != "discover-test" {
			t.Errorf("%s: User-Agent %q, want discover-test", tc.at, h.Get("User-Agent"))
		}
	}
}

// TestLinksJSONResource: application/json is read as a linkset only when
// the document is one, an object whose sole member is "linkset" (rule 16);
// an ordinary JSON resource of an API gives its header links and no error.
func TestLinksJSONResource(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string
		wantErr    bool
	}{
		{"31/linkset", `{"linkset":[{"anchor":"/","ok":[{"href":"/fine"}]}]}`, []string{"next /p2", "ok /fine"}, false},
		{"31/linkset with spaces", " \n{ \"linkset\" : [] }\n", []string{"next /p2"}, false},
		{"31/broken linkset", `{"linkset": 1}`, []string{"next /p2"}, true},
		{"31/resource", `{"id": 1, "name": "weblink"}`, []string{"next /p2"}, false},
		{"31/resource with a linkset member", `{"linkset": [], "id": 1}`, []string{"next /p2"}, false},
		{"31/member after a linkset", `{"id": 1, "linkset": []}`, []string{"next /p2"}, false},
		{"31/array", `[{"linkset": []}]`, []string{"next /p2"}, false},
		{"31/string", `"linkset"`, []string{"next /p2"}, false},
		{"31/not JSON", `{"linkset": [`, []string{"next /p2"}, false},
		{"31/two documents", `{"linkset": []} {"linkset": []}`, []string{"next /p2"}, false},
		{"31/empty", ``, []string{"next /p2"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(respond(200, "application/json; charset=utf-8", tc.body, `</p2>; rel="next"`))
			defer srv.Close()
			links, err := get(t, srv.URL+"/")
			if got := summary(links, srv.URL); !cmp.Equal(got, tc.want) {
				t.Errorf("links %v, want %v", got, tc.want)
			}
			if (err != nil) != tc.wantErr {
				t.Errorf("error %v, want one: %v", err, tc.wantErr)
			}
		})
	}
}
