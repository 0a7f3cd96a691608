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
	"testing"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/paging"
)

// catalogServer is a test server of API catalogs: path → linkset JSON (as
// served by weblink.APICatalog) or redirect target, recording requests.
type catalogServer struct {
	*httptest.Server
	mu        sync.Mutex
	catalogs  map[string]weblink.Links // served with weblink.APICatalog
	redirects map[string]string        // path → Location
	requests  []string                 // path and Authorization of each request
}

func newCatalogServer(t *testing.T, tls bool) *catalogServer {
	s := &catalogServer{catalogs: map[string]weblink.Links{}, redirects: map[string]string{}}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, r.URL.Path+" "+r.Header.Get("Authorization"))
		links, ok := s.catalogs[r.URL.Path]
		loc, redirect := s.redirects[r.URL.Path]
		s.mu.Unlock()
		switch {
		case redirect:
			http.Redirect(w, r, loc, http.StatusFound)
		case ok:
			weblink.APICatalogHandler("https://publisher.example/", links).ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	})
	if tls {
		s.Server = httptest.NewTLSServer(h)
	} else {
		s.Server = httptest.NewServer(h)
	}
	t.Cleanup(s.Close)
	return s
}

func (s *catalogServer) origin(t *testing.T) *url.URL {
	u, err := url.Parse(s.URL + "/some/path?q#f") // only the origin counts
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func (s *catalogServer) requested() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// TestAPICatalog reads a catalog that was redirected to another origin,
// resolved against the final URL, with its nested catalogs on that origin
// fetched once each (rules 19 and 21).
func TestAPICatalog(t *testing.T) {
	canonical := newCatalogServer(t, false)
	canonical.catalogs[wellKnownAPICatalog] = weblink.Links{
		{Target: "/apis/foo", Rel: []string{"item"}},
		{Target: "/catalogs/games", Rel: []string{"api-catalog"}},
		{Target: canonical.URL + "/catalogs/games#again", Rel: []string{"api-catalog"}}, // the same catalog
		{Target: "/.well-known/api-catalog", Rel: []string{"api-catalog"}},              // itself
		{Target: "https://third-party.example/.well-known/api-catalog", Rel: []string{"api-catalog"}},
	}
	canonical.catalogs["/catalogs/games"] = weblink.Links{
		{Target: "/apis/chess", Rel: []string{"item"}},
		{Target: "/catalogs/deeper", Rel: []string{"api-catalog"}}, // one level only
	}
	canonical.catalogs["/catalogs/deeper"] = weblink.Links{{Target: "/apis/never", Rel: []string{"item"}}}
	domain := newCatalogServer(t, false)
	domain.redirects[wellKnownAPICatalog] = canonical.URL + wellKnownAPICatalog

	links, err := APICatalog(context.Background(), nil, domain.origin(t))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range links {
		got = append(got, strings.Join(l.Rel, " ")+" "+strings.TrimPrefix(l.Target, canonical.URL))
	}
	want := []string{
		"item /apis/foo", "api-catalog /catalogs/games", "api-catalog /catalogs/games#again", "api-catalog /.well-known/api-catalog",
		"api-catalog https://third-party.example/.well-known/api-catalog",
		"item /apis/chess", "api-catalog /catalogs/deeper",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rule 19, 21: links\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got, want := canonical.requested(), []string{wellKnownAPICatalog + " ", "/catalogs/games "}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("rule 21: requests %q; want %q", got, want)
	}
}

// TestAPICatalogCredentials checks that the origin's user information goes
// to the origin only: not to the origin a redirect leads to (rule 20).
func TestAPICatalogCredentials(t *testing.T) {
	other := newCatalogServer(t, false)
	other.catalogs[wellKnownAPICatalog] = weblink.Links{{Target: "/nested", Rel: []string{"api-catalog"}}}
	other.catalogs["/nested"] = weblink.Links{}
	home := newCatalogServer(t, false)
	home.catalogs["/own"] = weblink.Links{{Target: other.URL + wellKnownAPICatalog, Rel: []string{"api-catalog"}}}
	home.redirects[wellKnownAPICatalog] = other.URL + wellKnownAPICatalog
	origin := home.origin(t)
	origin.User = url.UserPassword("alice", "secret")
	if _, err := APICatalog(context.Background(), nil, origin); err != nil {
		t.Fatal(err)
	}
	if got := home.requested(); len(got) != 1 || got[0] != wellKnownAPICatalog+" Basic YWxpY2U6c2VjcmV0" {
		t.Errorf("rule 20: requests to the origin %q; want the well-known URL with credentials", got)
	}
	if got := other.requested(); strings.Join(got, ",") != wellKnownAPICatalog+" ,/nested " {
		t.Errorf("rule 20: requests to the other origin %q; want no credentials", got)
	}
}

// TestAPICatalogRedirectPolicy checks the redirects APICatalog refuses
// (rule 20).
func TestAPICatalogRedirectPolicy(t *testing.T) {
	plain := newCatalogServer(t, false)
	plain.catalogs[wellKnownAPICatalog] = weblink.Links{{Target: "/apis/foo", Rel: []string{"item"}}}
	secure := newCatalogServer(t, true)
	secure.redirects[wellKnownAPICatalog] = plain.URL + wellKnownAPICatalog
	links, err := APICatalog(context.Background(), secure.Client(), secure.origin(t))
	if !errors.Is(err, ErrInsecureRedirect) || links != nil || len(plain.requested()) != 0 {
		t.Errorf("https to http: %v, %v, %d requests to http; want ErrInsecureRedirect and none", links, err, len(plain.requested()))
	}

	loop := newCatalogServer(t, false)
	loop.redirects[wellKnownAPICatalog] = "/a"
	loop.redirects["/a"] = "/b"
	loop.redirects["/b"] = "/a"
	_, err = APICatalog(context.Background(), nil, loop.origin(t))
	if err == nil || !strings.Contains(err.Error(), "redirect loop") || len(loop.requested()) != 3 {
		t.Errorf("loop: %v after %d requests; want a redirect loop error after 3", err, len(loop.requested()))
	}

	chain := newCatalogServer(t, false)
	chain.redirects[wellKnownAPICatalog] = "/r0"
	for i := range 20 {
		chain.redirects[fmt.Sprintf("/r%d", i)] = fmt.Sprintf("/r%d", i+1)
	}
	_, err = APICatalog(context.Background(), nil, chain.origin(t))
	if err == nil || !strings.Contains(err.Error(), "after 10 redirects") || len(chain.requested()) != 10 {
		t.Errorf("chain: %v after %d requests; want a stop after 10 redirects", err, len(chain.requested()))
	}
}

// TestAPICatalogErrors checks a status error, an origin that is not one,
// and a body that is not a linkset (rule 19).
func TestAPICatalogErrors(t *testing.T) {
	empty := newCatalogServer(t, false)
	links, err := APICatalog(context.Background(), nil, empty.origin(t))
	var se *paging.StatusError
	if !errors.As(err, &se) || se.StatusCode != 404 || links != nil {
		t.Errorf("404: %v, %v; want a *paging.StatusError", links, err)
	}
	for _, origin := range []*url.URL{nil, {Scheme: "ftp", Host: "x"}, {Scheme: "https"}} {
		if _, err := APICatalog(context.Background(), nil, origin); err == nil {
			t.Errorf("origin %v: no error", origin)
		}
	}
	html := httptest.NewServer(respond(200, "text/html", "<a href=/x>x</a>"))
	defer html.Close()
	u, _ := url.Parse(html.URL)
	links, err = APICatalog(context.Background(), nil, u)
	if err == nil || !strings.Contains(err.Error(), "served as") || len(links) != 0 {
		t.Errorf("HTML catalog: %v, %v; want an error saying it is not a linkset", links, err)
	}
}

// TestAPICatalogHostile checks the bounds on nested catalogs: 10 000 of
// them give 16 fetches (rule 21).
func TestAPICatalogHostile(t *testing.T) {
	s := newCatalogServer(t, false)
	var many weblink.Links
	for i := range 10000 {
		p := fmt.Sprintf("/c%d", i)
		many = append(many, weblink.Link{Target: p, Rel: []string{"api-catalog"}})
		s.catalogs[p] = weblink.Links{{Target: "/api" + p, Rel: []string{"item"}}}
	}
	s.catalogs[wellKnownAPICatalog] = many
	links, err := APICatalog(context.Background(), nil, s.origin(t))
	if n := len(s.requested()); n != 1+maxNestedCatalogs {
		t.Errorf("%d requests; want %d", n, 1+maxNestedCatalogs)
	}
	if len(links) != 10000+maxNestedCatalogs || err == nil || !strings.Contains(err.Error(), "not fetched") {
		t.Errorf("%d links, error %v; want %d and an error saying some were not fetched", len(links), err, 10000+maxNestedCatalogs)
	}
}

// TestAPICatalogContextDone: once ctx is done (a caller's deadline), no
// further nested catalog is requested, and those left out are one
// problem that wraps the context's error, not one each (rule 21).
func TestAPICatalogContextDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var nested weblink.Links
	for i := range 16 {
		nested = append(nested, weblink.Link{Target: fmt.Sprintf("/c%d", i), Rel: []string{"api-catalog"}})
	}
	requests := 0
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++ // one request at a time: APICatalog starts no goroutine
		if r.URL.Path == wellKnownAPICatalog {
			weblink.APICatalogHandler("/", nested).ServeHTTP(w, r)
			return
		}
		cancel() // the deadline passes while the first nested catalog is read
		weblink.APICatalogHandler("/", weblink.Links{{Target: "/api" + r.URL.Path, Rel: []string{"item"}}}).ServeHTTP(w, r)
	}))
	defer s.Close()
	u, _ := url.Parse(s.URL)
	links, err := APICatalog(ctx, nil, u)
	if requests != 2 {
		t.Errorf("%d requests; want 2", requests)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v; want it to wrap context.Canceled", err)
	}
	// /c0 may have failed too, cancelled in flight: at most two problems.
	if n := strings.Count(err.Error(), "\n") + 1; n > 2 || !strings.Contains(err.Error(), `discover: 15 nested API catalogs not fetched, from "`+s.URL+`/c1" on: context canceled`) {
		t.Errorf("error (%d problems):\n%v\nwant one problem for the 15 catalogs not fetched", n, err)
	}
	if len(links) < 16 {
		t.Errorf("%d links; want the catalog's 16 and what was read of /c0", len(links))
	}
}

// TestAPICatalogBytes checks the byte budget of all catalogs together:
// nested catalogs of 3 MiB each are read until 16 MiB are, the last one
// cut, and the rest not fetched (rule 21).
func TestAPICatalogBytes(t *testing.T) {
	var mu sync.Mutex
	requests := 0
	padding := strings.Repeat(" ", 3<<20)
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests++
		mu.Unlock()
		w.Header().Set("Content-Type", weblink.LinksetJSONType)
		if r.URL.Path == wellKnownAPICatalog {
			var ls weblink.Links
			for i := range 16 {
				ls = append(ls, weblink.Link{Target: fmt.Sprintf("/c%d", i), Rel: []string{"api-catalog"}, Anchor: "/"})
			}
			b, _ := weblink.FormatLinksetJSON(ls)
			w.Write(b)
			return
		}
		fmt.Fprintf(w, `{"linkset":[{"anchor":"/","item":[{"href":"/api%s"}]}%s]}`, r.URL.Path, padding)
	}))
	defer s.Close()
	u, _ := url.Parse(s.URL)
	links, err := APICatalog(context.Background(), nil, u)
	if requests != 7 || !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), "not fetched") {
		t.Errorf("%d requests, error %v; want 7, a cut catalog and some not fetched", requests, err)
	}
	if len(links) != 16+5 {
		t.Errorf("%d links; want 16 and one of each of the 5 catalogs read whole", len(links))
	}
}

// TestAPICatalogNestedRedirectOnce checks that a nested catalog that
// redirects to a catalog already read is not read again: two nested
// catalogs redirecting to one, and one redirecting back to the catalog
// itself, give one read of each (rule 21).
func TestAPICatalogNestedRedirectOnce(t *testing.T) {
	s := newCatalogServer(t, false)
	s.catalogs[wellKnownAPICatalog] = weblink.Links{
		{Target: "/n1", Rel: []string{"api-catalog"}},
		{Target: "/n2", Rel: []string{"api-catalog"}},
		{Target: "/n3", Rel: []string{"api-catalog"}},
		{Target: "/shared", Rel: []string{"api-catalog"}},
	}
	s.redirects["/n1"] = "/shared"
	s.redirects["/n2"] = "/shared#x"
	s.redirects["/n3"] = wellKnownAPICatalog
	s.catalogs["/shared"] = weblink.Links{{Target: "/api", Rel: []string{"item"}}}
	links, err := APICatalog(context.Background(), nil, s.origin(t))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(s.requested(), ","), wellKnownAPICatalog+" ,/n1 ,/shared ,/n2 ,/n3 "; got != want {
		t.Errorf("rule 21: requests %q; want %q", got, want)
	}
	if len(links) != 5 {
		t.Errorf("rule 21: %d links; want the catalog's 4 and /shared's 1:\n%v", len(links), links)
	}
}

// TestAPICatalogBodyCut checks that a catalog whose body breaks off (the
// connection closes before Content-Length bytes) gives one error and no
// links: what was read is not parsed, since a cut linkset can parse into
// links that were never sent (here rel="ite" for rel="item").
func TestAPICatalogBodyCut(t *testing.T) {
	body := `<https://a.example/x>; rel="item", <https://a.example/y>; rel=ite`
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", weblink.LinksetType)
		w.Header().Set("Content-Length", fmt.Sprint(len(body)+50))
		io.WriteString(w, body)
	}))
	defer s.Close()
	u, _ := url.Parse(s.URL)
	links, err := APICatalog(context.Background(), nil, u)
	if len(links) != 0 || err == nil || !errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "\n") {
		t.Errorf("cut body: %v, %q; want no links and one error, the read's", links, err)
	}
}

// TestAPICatalogStatusBody: the *paging.StatusError of a catalog that is
// refused carries the response's header and the first 2 KiB of its body,
// as that of Links does.
func TestAPICatalogStatusBody(t *testing.T) {
	body := `{"message": "API rate limit exceeded"}` + strings.Repeat(" ", 4<<10)
	srv := httptest.NewServer(respond(http.StatusForbidden, "application/json", body, `</docs>; rel="help"`))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	_, err := APICatalog(context.Background(), nil, u)
	var se *paging.StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusForbidden {
		t.Fatalf("error %v; want a *paging.StatusError", err)
	}
	if string(se.Body) != body[:2<<10] || se.Header.Get("Link") != `</docs>; rel="help"` {
		t.Errorf("StatusError with a body of %d bytes (%.40q) and header %v; want the first 2048 bytes and the header", len(se.Body), se.Body, se.Header)
	}
}
