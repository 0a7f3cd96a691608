package weblink

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/textproto"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var (
	styleLink   = Link{Target: "/style.css", Rel: []string{"preload"}, Params: []Param{{Name: "as", Value: "style"}}}
	originLink  = Link{Target: "https://cdn.example", Rel: []string{"preconnect"}}
	moduleLink  = Link{Target: "/app.js", Rel: []string{"modulepreload"}}
	schemaLink  = Link{Target: "/schema.json", Rel: []string{"describedby"}, Type: "application/schema+json"}
	serverLinks = []Link{styleLink, originLink, moduleLink, schemaLink}
)

// interim is a 1xx response the client saw.
type interim struct {
	code   int
	header textproto.MIMEHeader
}

// newServer starts h on an httptest server speaking HTTP/1.1, or HTTP/2 over
// TLS when h2 is set.
func newServer(t *testing.T, h http.Handler, h2 bool) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	if h2 {
		srv.EnableHTTP2 = true
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv
}

// hintsOverHTTP1 returns h through EarlyHintsHTTP1 when the test server
// speaks HTTP/1.1 (h2 false), so that the middlewares send their 103 over
// HTTP/1.1 too (rule 25): the tests of what the 103 holds run over both.
func hintsOverHTTP1(h http.Handler, h2 bool) http.Handler {
	if h2 {
		return h
	}
	return EarlyHintsHTTP1(h)
}

// get requests path from srv with a real client, recording the 1xx responses
// it receives, and returns them with the final response and its body.
func get(t *testing.T, srv *httptest.Server, path string) ([]interim, *http.Response, string) {
	t.Helper()
	return getWith(t, srv, path, nil)
}

// getWith is get with header lines added to the request.
func getWith(t *testing.T, srv *httptest.Server, path string, header http.Header) ([]interim, *http.Response, string) {
	t.Helper()
	var got []interim
	trace := &httptrace.ClientTrace{
		Got1xxResponse: func(code int, h textproto.MIMEHeader) error {
			got = append(got, interim{code, h})
			return nil
		},
	}
	req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, values := range header {
		req.Header[name] = values
	}
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), trace))
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	wantProto := 1
	if srv.EnableHTTP2 {
		wantProto = 2
	}
	if resp.ProtoMajor != wantProto {
		t.Fatalf("response over %s, want HTTP/%d", resp.Proto, wantProto)
	}
	return got, resp, string(body)
}

// linkKeys returns the target and relation types of each link in the Link
// lines of h, for comparing with want.
func linkKeys(t *testing.T, h http.Header) []string {
	t.Helper()
	links, err := ParseHeader(h)
	if err != nil {
		t.Fatalf("ParseHeader(%q): %v", h["Link"], err)
	}
	var keys []string
	for _, l := range links {
		keys = append(keys, l.Target+" "+strings.Join(l.Rel, " "))
	}
	return keys
}

func checkLinks(t *testing.T, what string, h http.Header, want ...string) {
	t.Helper()
	if got := linkKeys(t, h); !slices.Equal(got, want) {
		t.Errorf("%s links = %q, want %q", what, got, want)
	}
}

func TestMiddlewareAddsLinks(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		code    int
		body    string
	}{
		{"WriteHeader", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusCreated)
		}, http.StatusCreated, ""},
		{"Write", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "hello")
		}, http.StatusOK, "hello"},
		{"ReadFrom", func(w http.ResponseWriter, r *http.Request) {
			if _, ok := w.(io.ReaderFrom); !ok {
				t.Error("writer is not an io.ReaderFrom")
			}
			io.Copy(w, strings.NewReader("copied"))
		}, http.StatusOK, "copied"},
		{"nothing written", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Handler", "ran")
		}, http.StatusOK, ""},
		{"Flush first", func(w http.ResponseWriter, r *http.Request) {
			w.(http.Flusher).Flush()
			w.Header().Set("Link", "</late>; rel=\"late\"") // too late: head is out
			io.WriteString(w, "flushed")
		}, http.StatusOK, "flushed"},
		{"ResponseController", func(w http.ResponseWriter, r *http.Request) {
			rc := http.NewResponseController(w)
			if err := rc.SetWriteDeadline(time.Now().Add(time.Minute)); err != nil {
				t.Errorf("SetWriteDeadline through the wrapper: %v", err)
			}
			if err := rc.Flush(); err != nil {
				t.Errorf("ResponseController.Flush: %v", err)
			}
			io.WriteString(w, "rc")
		}, http.StatusOK, "rc"},
	}
	for _, h2 := range []bool{false, true} {
		for _, tt := range tests {
			t.Run(tt.name+"/h2="+strconv.FormatBool(h2), func(t *testing.T) {
				srv := newServer(t, Middleware(schemaLink, originLink)(tt.handler), h2)
				got, resp, body := get(t, srv, "/")
				if len(got) != 0 {
					t.Errorf("got %d interim responses, want none", len(got))
				}
				if resp.StatusCode != tt.code || body != tt.body {
					t.Errorf("response %d %q, want %d %q", resp.StatusCode, body, tt.code, tt.body)
				}
				checkLinks(t, "final", resp.Header, "/schema.json describedby", "https://cdn.example preconnect")
			})
		}
	}
}

func TestMiddlewareKeepsHandlerLinks(t *testing.T) {
	h := Middleware(schemaLink)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		Add(w.Header(), Link{Target: "/a", Rel: []string{"alternate"}})
		// Set replaces every Link line the handler's header holds so far;
		// the middleware's links are not among them yet.
		w.Header().Set("Link", `</b>; rel="help"`)
		w.Header().Add("Link", `</c>; rel="license"`)
		io.WriteString(w, "ok")
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	res := rec.Result()
	if n := len(res.Header["Link"]); n != 3 {
		t.Errorf("%d Link lines %q, want 3", n, res.Header["Link"])
	}
	checkLinks(t, "final", res.Header, "/b help", "/c license", "/schema.json describedby")
}

func TestMiddlewareDeduplicates(t *testing.T) {
	tests := []struct {
		name    string
		handler string // Link line the handler sets
		want    []string
	}{
		{"same", `</schema.json>; rel="describedby"; type="application/schema+json"`,
			[]string{"/schema.json describedby", "/style.css preload"}},
		{"other attributes and rel case", `</schema.json>; rel=DescribedBy; title="x"`,
			[]string{"/schema.json describedby", "/style.css preload"}},
		{"rel set in another order", `</style.css>; rel="preload"`,
			[]string{"/style.css preload", "/schema.json describedby"}},
		{"other target", `</other.json>; rel="describedby"`,
			[]string{"/other.json describedby", "/schema.json describedby", "/style.css preload"}},
		{"other rel", `</schema.json>; rel="alternate"`,
			[]string{"/schema.json alternate", "/schema.json describedby", "/style.css preload"}},
		{"more rels", `</schema.json>; rel="describedby alternate"`,
			[]string{"/schema.json describedby alternate", "/schema.json describedby", "/style.css preload"}},
		{"other anchor", `</schema.json>; rel="describedby"; anchor="/x"`,
			[]string{"/schema.json describedby", "/schema.json describedby", "/style.css preload"}},
		{"among malformed", `junk, </schema.json>; rel="describedby"`,
			[]string{"/schema.json describedby", "/style.css preload"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The middleware's own repeat of schemaLink is not added twice either.
			mw := Middleware(schemaLink, Link{Target: "/style.css", Rel: []string{"preload"}}, schemaLink)
			h := mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Link", tt.handler)
				w.WriteHeader(http.StatusNoContent)
			}))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
			links, _ := ParseHeader(rec.Result().Header)
			var got []string
			for _, l := range links {
				got = append(got, l.Target+" "+strings.Join(l.Rel, " "))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("links %q, want %q (lines %q)", got, tt.want, rec.Result().Header["Link"])
			}
		})
	}
}

func TestMiddlewareCopiesLinks(t *testing.T) {
	links := []Link{schemaLink}
	h := Middleware(links...)(http.NotFoundHandler())
	links[0] = Link{Target: "/changed", Rel: []string{"changed"}}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	checkLinks(t, "final", rec.Result().Header, "/schema.json describedby")
}

func TestMiddlewareHostileValues(t *testing.T) {
	hostile := Link{
		Target: "/x\r\nSet-Cookie: a=b",
		Rel:    []string{"next\r\nX-Injected: 1"},
		Title:  "t\r\nSet-Cookie: evil=1",
		Params: []Param{{Name: "p", Value: "v\"\r\n, <https://evil.example>; rel=\"preload\""}},
	}
	h := Middleware(hostile)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := EarlyHints(w, hostile); err != nil {
			t.Error(err)
		}
		io.WriteString(w, "ok")
	}))
	check := func(t *testing.T, what string, h http.Header) {
		t.Helper()
		for name := range h {
			if name != "Link" && name != "Content-Type" && name != "Date" && name != "Content-Length" {
				t.Errorf("%s: unexpected header %s: %q", what, name, h[name])
			}
		}
		if len(h["Link"]) != 1 {
			t.Fatalf("%s: Link lines %q, want 1", what, h["Link"])
		}
		line := h["Link"][0]
		for _, c := range []byte(line) {
			if c < ' ' || c > '~' {
				t.Fatalf("%s: Link line %q holds byte %#x", what, line, c)
			}
		}
		links, err := Parse(line)
		if err != nil || len(links) != 1 {
			t.Fatalf("%s: Parse(%q) = %d links, %v; want the one link", what, line, len(links), err)
		}
		if links[0].Title != hostile.Title || links[0].Params[0] != hostile.Params[0] {
			t.Errorf("%s: title %q and params %q did not survive as text", what, links[0].Title, links[0].Params)
		}
	}
	for _, h2 := range []bool{false, true} {
		t.Run("h2="+strconv.FormatBool(h2), func(t *testing.T) {
			got, resp, _ := get(t, newServer(t, h, h2), "/")
			check(t, "final", resp.Header)
			if len(got) != 1 {
				t.Fatalf("got %d interim responses, want 1", len(got))
			}
			check(t, "103", http.Header(got[0].header))
		})
	}
}

func TestMiddlewareHandlerInterimIsNotFinal(t *testing.T) {
	for _, h2 := range []bool{false, true} {
		t.Run("h2="+strconv.FormatBool(h2), func(t *testing.T) {
			h := Middleware(schemaLink)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Link", `</hint.css>; rel="preload"`)
				w.WriteHeader(http.StatusEarlyHints)
				w.Header().Del("Link")
				io.WriteString(w, "ok")
			}))
			got, resp, _ := get(t, newServer(t, h, h2), "/")
			if len(got) != 1 || got[0].code != http.StatusEarlyHints {
				t.Fatalf("interim responses %v, want one 103", got)
			}
			checkLinks(t, "103", http.Header(got[0].header), "/hint.css preload")
			checkLinks(t, "final", resp.Header, "/schema.json describedby")
		})
	}
}

func TestMiddlewareHijack(t *testing.T) {
	h := Middleware(schemaLink)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, rw, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		rw.WriteString("HTTP/1.1 200 OK\r\nX-Hijacked: yes\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi")
		rw.Flush()
		if err := EarlyHints(w, styleLink); !errors.Is(err, http.ErrHijacked) {
			t.Errorf("EarlyHints after Hijack = %v, want http.ErrHijacked", err)
		}
	}))
	_, resp, body := get(t, newServer(t, h, false), "/")
	if resp.Header.Get("X-Hijacked") != "yes" || body != "hi" {
		t.Errorf("hijacked response %v %q", resp.Header, body)
	}
	if len(resp.Header["Link"]) != 0 {
		t.Errorf("links %q added to a hijacked connection", resp.Header["Link"])
	}
}

func TestMiddlewareHijackNotSupported(t *testing.T) {
	h := Middleware(schemaLink)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, _, err := w.(http.Hijacker).Hijack(); !errors.Is(err, http.ErrNotSupported) {
			t.Errorf("Hijack over HTTP/2 = %v, want http.ErrNotSupported", err)
		}
		if _, _, err := http.NewResponseController(w).Hijack(); !errors.Is(err, http.ErrNotSupported) {
			t.Errorf("ResponseController.Hijack over HTTP/2 = %v, want http.ErrNotSupported", err)
		}
	}))
	_, resp, _ := get(t, newServer(t, h, true), "/")
	checkLinks(t, "final", resp.Header, "/schema.json describedby")
}

func TestMiddlewareUnwrap(t *testing.T) {
	rec := httptest.NewRecorder()
	var inner http.ResponseWriter
	Middleware()(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inner = w.(interface{ Unwrap() http.ResponseWriter }).Unwrap()
	})).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if inner != rec {
		t.Errorf("Unwrap() = %T, want the recorder", inner)
	}
}

// outerWriter is another package's wrapper around the middleware's writer.
type outerWriter struct{ http.ResponseWriter }

func (o outerWriter) Unwrap() http.ResponseWriter { return o.ResponseWriter }

func TestEarlyHints(t *testing.T) {
	for _, h2 := range []bool{false, true} {
		t.Run("h2="+strconv.FormatBool(h2), func(t *testing.T) {
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.SetCookie(w, &http.Cookie{Name: "session", Value: "secret"})
				w.Header().Set("Cache-Control", "no-store")
				Add(w.Header(), schemaLink)
				if err := EarlyHints(w, styleLink, originLink); err != nil {
					t.Error(err)
				}
				if got := w.Header().Get("Set-Cookie"); got != "session=secret" {
					t.Errorf("after EarlyHints, Set-Cookie = %q", got)
				}
				io.WriteString(w, "page")
			})
			got, resp, body := get(t, newServer(t, h, h2), "/")
			if len(got) != 1 || got[0].code != http.StatusEarlyHints {
				t.Fatalf("interim responses %v, want one 103", got)
			}
			for name := range got[0].header {
				if name != "Link" {
					t.Errorf("103 carries %s: %q", name, got[0].header[name])
				}
			}
			checkLinks(t, "103", http.Header(got[0].header), "/style.css preload", "https://cdn.example preconnect")
			if body != "page" || resp.Header.Get("Set-Cookie") != "session=secret" || resp.Header.Get("Cache-Control") != "no-store" {
				t.Errorf("final response lost headers: %v %q", resp.Header, body)
			}
			checkLinks(t, "final", resp.Header, "/schema.json describedby")
		})
	}
}

func TestEarlyHintsNoLinks(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := EarlyHints(w); err != nil {
			t.Error(err)
		}
	})
	if got, _, _ := get(t, newServer(t, h, false), "/"); len(got) != 0 {
		t.Errorf("EarlyHints with no links sent %v", got)
	}
}

func TestEarlyHintsAfterFinal(t *testing.T) {
	tests := []struct {
		name  string
		write func(w http.ResponseWriter)
	}{
		{"WriteHeader", func(w http.ResponseWriter) { w.WriteHeader(http.StatusAccepted) }},
		{"Write", func(w http.ResponseWriter) { io.WriteString(w, "body") }},
		{"Flush", func(w http.ResponseWriter) { w.(http.Flusher).Flush() }},
	}
	for _, h2 := range []bool{false, true} {
		for _, tt := range tests {
			t.Run(tt.name+"/h2="+strconv.FormatBool(h2), func(t *testing.T) {
				h := Middleware(schemaLink)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					tt.write(w)
					if err := EarlyHints(w, styleLink); !errors.Is(err, ErrHeadersWritten) {
						t.Errorf("EarlyHints = %v, want ErrHeadersWritten", err)
					}
					// Found through another wrapper's Unwrap too.
					if err := EarlyHints(outerWriter{w}, styleLink); !errors.Is(err, ErrHeadersWritten) {
						t.Errorf("EarlyHints through a wrapper = %v, want ErrHeadersWritten", err)
					}
					io.WriteString(w, "!")
				}))
				got, resp, body := get(t, newServer(t, h, h2), "/")
				if len(got) != 0 {
					t.Errorf("interim responses %v after the final head", got)
				}
				if !strings.HasSuffix(body, "!") {
					t.Errorf("body %q", body)
				}
				checkLinks(t, "final", resp.Header, "/schema.json describedby")
			})
		}
	}
}

// TestEarlyHintsAfterFinalRawWriter documents what happens without the
// middleware: the late 103 cannot be detected, but it is not sent and the
// response is intact.
func TestEarlyHintsAfterFinalRawWriter(t *testing.T) {
	for _, h2 := range []bool{false, true} {
		t.Run("h2="+strconv.FormatBool(h2), func(t *testing.T) {
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-Before", "1")
				io.WriteString(w, "body")
				if err := EarlyHints(w, styleLink); err != nil {
					t.Errorf("EarlyHints = %v, want nil (undetectable)", err)
				}
				io.WriteString(w, "!")
			})
			srv := newServer(t, h, h2)
			srv.Config.ErrorLog = log.New(io.Discard, "", 0) // net/http logs the superfluous WriteHeader
			got, resp, body := get(t, srv, "/")
			if len(got) != 0 || body != "body!" || resp.Header.Get("X-Before") != "1" || len(resp.Header["Link"]) != 0 {
				t.Errorf("interim %v, final %v %q", got, resp.Header, body)
			}
		})
	}
}

func TestEarlyHintsMiddleware(t *testing.T) {
	for _, h2 := range []bool{false, true} {
		t.Run("h2="+strconv.FormatBool(h2), func(t *testing.T) {
			var handlerSaw []string
			// An outer middleware sets a cookie before the early hints go out.
			session := func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					http.SetCookie(w, &http.Cookie{Name: "session", Value: "secret"})
					next.ServeHTTP(w, r)
				})
			}
			h := session(EarlyHintsMiddleware(serverLinks...)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				handlerSaw = w.Header()["Set-Cookie"]
				w.Header().Set("Content-Type", "text/html")
				io.WriteString(w, "<!doctype html>")
			})))
			got, resp, _ := get(t, newServer(t, hintsOverHTTP1(h, h2), h2), "/")
			if len(got) != 1 || got[0].code != http.StatusEarlyHints {
				t.Fatalf("interim responses %v, want exactly one 103", got)
			}
			if len(got[0].header) != 1 || len(got[0].header["Link"]) != 1 {
				t.Errorf("103 header %v, want one Link line only", got[0].header)
			}
			checkLinks(t, "103", http.Header(got[0].header),
				"/style.css preload", "https://cdn.example preconnect", "/app.js modulepreload")
			checkLinks(t, "final", resp.Header,
				"/style.css preload", "https://cdn.example preconnect", "/app.js modulepreload", "/schema.json describedby")
			if resp.Header.Get("Set-Cookie") != "session=secret" || !slices.Equal(handlerSaw, []string{"session=secret"}) {
				t.Errorf("Set-Cookie lost: final %q, handler saw %q", resp.Header["Set-Cookie"], handlerSaw)
			}
		})
	}
}

func TestEarlyHintsMiddlewareWithoutHints(t *testing.T) {
	h := EarlyHintsMiddleware(schemaLink)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	got, resp, _ := get(t, newServer(t, h, false), "/")
	if len(got) != 0 {
		t.Errorf("interim responses %v, want none", got)
	}
	checkLinks(t, "final", resp.Header, "/schema.json describedby")
}

func TestEarlyHintsSecFetchMode(t *testing.T) {
	tests := []struct {
		name string
		mode []string // Sec-Fetch-Mode lines; nil: no field
		want bool     // a 103 is sent
	}{
		{"no field", nil, true},
		{"navigate", []string{"navigate"}, true},
		{"navigate with spaces", []string{" navigate\t"}, true},
		{"no-cors", []string{"no-cors"}, false},
		{"cors", []string{"cors"}, false},
		{"same-origin", []string{"same-origin"}, false},
		{"websocket", []string{"websocket"}, false},
		{"tokens are case-sensitive", []string{"Navigate"}, false},
		{"two lines", []string{"navigate", "navigate"}, false},
		{"a list", []string{"navigate, cors"}, false},
		{"empty", []string{""}, false},
	}
	middlewares := []struct {
		name string
		mw   func(http.Handler) http.Handler
	}{
		{"EarlyHintsMiddleware", EarlyHintsMiddleware(styleLink, schemaLink)},
		{"EarlyHintsFunc", EarlyHintsFunc(func(*http.Request) Links { return Links{styleLink, schemaLink} })},
	}
	for _, h2 := range []bool{false, true} {
		for _, m := range middlewares {
			var sawMode []string
			srv := newServer(t, hintsOverHTTP1(m.mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				sawMode = r.Header["Sec-Fetch-Mode"]
				io.WriteString(w, "ok")
			})), h2), h2)
			for _, tt := range tests {
				t.Run(m.name+"/"+tt.name+"/h2="+strconv.FormatBool(h2), func(t *testing.T) {
					var header http.Header
					if tt.mode != nil {
						header = http.Header{"Sec-Fetch-Mode": tt.mode}
					}
					got, resp, _ := getWith(t, srv, "/", header)
					if len(sawMode) != len(tt.mode) {
						t.Fatalf("the handler saw Sec-Fetch-Mode %q, want %q", sawMode, tt.mode)
					}
					if tt.want {
						if len(got) != 1 || got[0].code != http.StatusEarlyHints {
							t.Fatalf("interim responses %v, want one 103", got)
						}
						checkLinks(t, "103", http.Header(got[0].header), "/style.css preload")
					} else if len(got) != 0 {
						t.Errorf("interim responses %v, want none for Sec-Fetch-Mode %q", got, tt.mode)
					}
					checkLinks(t, "final", resp.Header, "/style.css preload", "/schema.json describedby")
				})
			}
		}
	}
}

func TestEarlyHintsFunc(t *testing.T) {
	byPath := map[string]Links{
		"/page":      {styleLink, schemaLink, originLink},
		"/app":       {moduleLink},
		"/no-hints":  {schemaLink},
		"/no-links":  nil,
		"/dedup":     {schemaLink, styleLink, schemaLink},
		"/empty-rel": {{Target: "/x"}},
	}
	saved := map[string]string{}
	for path, links := range byPath {
		saved[path] = links.String()
	}
	var calls atomic.Int64
	mw := EarlyHintsFunc(func(r *http.Request) Links {
		calls.Add(1)
		return byPath[r.URL.Path]
	})
	h := mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/dedup" {
			w.Header().Set("Link", `</style.css>; rel="preload"; as="style"`)
		}
		io.WriteString(w, "page")
	}))
	tests := []struct {
		path  string
		hints []string // the 103's links; nil: no 103
		final []string
	}{
		{"/page", []string{"/style.css preload", "https://cdn.example preconnect"},
			[]string{"/style.css preload", "/schema.json describedby", "https://cdn.example preconnect"}},
		{"/app", []string{"/app.js modulepreload"}, []string{"/app.js modulepreload"}},
		{"/no-hints", nil, []string{"/schema.json describedby"}},
		{"/no-links", nil, nil},
		{"/unknown", nil, nil},
		// Handler's links and repeats are not added twice, as with Middleware.
		{"/dedup", []string{"/style.css preload"}, []string{"/style.css preload", "/schema.json describedby"}},
		{"/empty-rel", nil, []string{"/x "}},
	}
	for _, h2 := range []bool{false, true} {
		srv := newServer(t, hintsOverHTTP1(h, h2), h2)
		for _, tt := range tests {
			t.Run(strings.TrimPrefix(tt.path, "/")+"/h2="+strconv.FormatBool(h2), func(t *testing.T) {
				before := calls.Load()
				got, resp, body := get(t, srv, tt.path)
				if n := calls.Load() - before; n != 1 {
					t.Errorf("hints called %d times for one request, want 1", n)
				}
				if body != "page" {
					t.Errorf("body %q", body)
				}
				switch {
				case tt.hints == nil && len(got) != 0:
					t.Errorf("interim responses %v, want none", got)
				case tt.hints != nil && (len(got) != 1 || got[0].code != http.StatusEarlyHints):
					t.Fatalf("interim responses %v, want one 103", got)
				case tt.hints != nil:
					checkLinks(t, "103", http.Header(got[0].header), tt.hints...)
				}
				checkLinks(t, "final", resp.Header, tt.final...)
			})
		}
	}
	t.Run("HTTP/1.0", func(t *testing.T) {
		raw := rawGet(t, newServer(t, EarlyHintsHTTP1(h), false), "GET /page HTTP/1.0\r\nHost: example.com\r\n\r\n")
		if strings.Contains(raw, " 103 ") {
			t.Errorf("HTTP/1.0 response holds an interim response:\n%s", raw)
		}
		resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(raw)), nil)
		if err != nil {
			t.Fatalf("reading %q: %v", raw, err)
		}
		checkLinks(t, "final", resp.Header, "/style.css preload", "/schema.json describedby", "https://cdn.example preconnect")
	})
	for path, links := range byPath {
		if links.String() != saved[path] {
			t.Errorf("hints' links for %s changed to %s, were %s", path, links, saved[path])
		}
	}
}

func TestEarlyHintsFuncNil(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "nil hints") {
			t.Errorf("EarlyHintsFunc(nil) recovered %v, want a panic naming nil hints", r)
		}
	}()
	EarlyHintsFunc(nil)
}

// rawGet sends request on a plain connection to srv and returns everything
// the server answers until it closes the connection.
func rawGet(t *testing.T, srv *httptest.Server, request string) string {
	t.Helper()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(conn)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestEarlyHintsHTTP10(t *testing.T) {
	// Even through EarlyHintsHTTP1 (rule 25).
	h := EarlyHintsHTTP1(EarlyHintsMiddleware(serverLinks...)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Under the middleware, EarlyHints knows the request too.
		if err := EarlyHints(w, styleLink); err != nil {
			t.Error(err)
		}
		io.WriteString(w, "old client")
	})))
	srv := newServer(t, h, false)

	raw := rawGet(t, srv, "GET / HTTP/1.0\r\nHost: example.com\r\n\r\n")
	if strings.Contains(raw, " 103 ") || strings.Count(raw, "HTTP/1.") != 1 {
		t.Errorf("HTTP/1.0 response holds an interim response:\n%s", raw)
	}
	resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(raw)), nil)
	if err != nil {
		t.Fatalf("reading %q: %v", raw, err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Errorf("status %d, want 200", resp.StatusCode)
	}
	checkLinks(t, "final", resp.Header,
		"/style.css preload", "https://cdn.example preconnect", "/app.js modulepreload", "/schema.json describedby")

	// The same request as HTTP/1.1 gets two 103s: the middleware's and the
	// handler's, so the check above is not vacuous.
	raw = rawGet(t, srv, "GET / HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n")
	if n := strings.Count(raw, "HTTP/1.1 103 Early Hints\r\n"); n != 2 {
		t.Errorf("HTTP/1.1 response holds %d 103s, want 2:\n%s", n, raw)
	}
}

// TestEarlyHintsHTTP1 checks rule 25: the middlewares send their 103 over
// HTTP/2, over HTTP/1.1 only through EarlyHintsHTTP1 wrapped around them,
// never over HTTP/1.0, and put the links on the final response every time.
func TestEarlyHintsHTTP1(t *testing.T) {
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "page") })
	fixed := EarlyHintsMiddleware(styleLink, schemaLink)
	perRequest := EarlyHintsFunc(func(*http.Request) Links { return Links{styleLink, schemaLink} })
	tests := []struct {
		name  string
		h     http.Handler
		proto string // HTTP/1.0, HTTP/1.1 or HTTP/2
		want  bool   // a 103 is sent
	}{
		{"EarlyHintsMiddleware", fixed(page), "HTTP/1.0", false},
		{"EarlyHintsMiddleware", fixed(page), "HTTP/1.1", false},
		{"EarlyHintsMiddleware", fixed(page), "HTTP/2", true},
		{"EarlyHintsFunc", perRequest(page), "HTTP/1.1", false},
		{"EarlyHintsFunc", perRequest(page), "HTTP/2", true},
		{"EarlyHintsHTTP1(EarlyHintsMiddleware)", EarlyHintsHTTP1(fixed(page)), "HTTP/1.0", false},
		{"EarlyHintsHTTP1(EarlyHintsMiddleware)", EarlyHintsHTTP1(fixed(page)), "HTTP/1.1", true},
		{"EarlyHintsHTTP1(EarlyHintsMiddleware)", EarlyHintsHTTP1(fixed(page)), "HTTP/2", true},
		{"EarlyHintsHTTP1(EarlyHintsFunc)", EarlyHintsHTTP1(perRequest(page)), "HTTP/1.0", false},
		{"EarlyHintsHTTP1(EarlyHintsFunc)", EarlyHintsHTTP1(perRequest(page)), "HTTP/1.1", true},
		// Twice is once.
		{"EarlyHintsHTTP1(EarlyHintsHTTP1(EarlyHintsMiddleware))", EarlyHintsHTTP1(EarlyHintsHTTP1(fixed(page))), "HTTP/1.1", true},
		// Inside the middleware it comes too late: the 103 is sent before
		// the handler runs.
		{"EarlyHintsMiddleware(EarlyHintsHTTP1)", fixed(EarlyHintsHTTP1(page)), "HTTP/1.1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+tt.proto, func(t *testing.T) {
			var hints int
			var final http.Header
			switch tt.proto {
			case "HTTP/2":
				got, resp, _ := get(t, newServer(t, tt.h, true), "/")
				hints, final = len(got), resp.Header
			default:
				raw := rawGet(t, newServer(t, tt.h, false), "GET / "+tt.proto+"\r\nHost: example.com\r\nConnection: close\r\n\r\n")
				hints = strings.Count(raw, " 103 Early Hints\r\n")
				br := bufio.NewReader(strings.NewReader(raw))
				for {
					// http.ReadResponse returns a 103 as a response of
					// its own; the final one follows.
					resp, err := http.ReadResponse(br, nil)
					if err != nil {
						t.Fatalf("reading %q: %v", raw, err)
					}
					if resp.StatusCode != http.StatusEarlyHints {
						final = resp.Header
						break
					}
				}
			}
			if want := map[bool]int{false: 0, true: 1}[tt.want]; hints != want {
				t.Errorf("%d 103 responses over %s, want %d", hints, tt.proto, want)
			}
			checkLinks(t, "final", final, "/style.css preload", "/schema.json describedby")
		})
	}
}

func TestPageLinks(t *testing.T) {
	tests := []struct {
		name        string
		u           string
		param       string
		page, last  int
		first, prev string
		next, last_ string
	}{
		{"absolute middle", "https://api.example/items?page=2", "page", 2, 5,
			"https://api.example/items?page=1", "https://api.example/items?page=1",
			"https://api.example/items?page=3", "https://api.example/items?page=5"},
		{"relative", "/items?page=3", "page", 3, 5,
			"/items?page=1", "/items?page=2", "/items?page=4", "/items?page=5"},
		{"query only", "?p=3", "p", 3, 5,
			"?p=1", "?p=2", "?p=4", "?p=5"},
		{"first page", "/items", "page", 1, 3,
			"/items?page=1", "", "/items?page=2", "/items?page=3"},
		{"last page", "/items?page=3", "page", 3, 3,
			"/items?page=1", "/items?page=2", "", "/items?page=3"},
		{"single page", "/items", "page", 1, 1,
			"/items?page=1", "", "", "/items?page=1"},
		{"other params kept in order, repeats too", "/s?q=a+b&tag=x&page=2&tag=y&z=%2F", "page", 2, 3,
			"/s?q=a+b&tag=x&page=1&tag=y&z=%2F", "/s?q=a+b&tag=x&page=1&tag=y&z=%2F",
			"/s?q=a+b&tag=x&page=3&tag=y&z=%2F", "/s?q=a+b&tag=x&page=3&tag=y&z=%2F"},
		{"param appended", "/s?z=1&a=2", "page", 1, 2,
			"/s?z=1&a=2&page=1", "", "/s?z=1&a=2&page=2", "/s?z=1&a=2&page=2"},
		{"repeated page param collapsed", "/s?page=1&a=1&page=9&b", "page", 1, 2,
			"/s?page=1&a=1&b", "", "/s?page=2&a=1&b", "/s?page=2&a=1&b"},
		{"encoded param name", "/s?pa%67e=2&x=1&&", "page", 2, 2,
			"/s?page=1&x=1", "/s?page=1&x=1", "", "/s?page=2&x=1"},
		{"param needing escape", "/s", "page no", 1, 2,
			"/s?page+no=1", "", "/s?page+no=2", "/s?page+no=2"},
		{"fragment dropped", "https://h.example/p?page=1#frag", "page", 1, 2,
			"https://h.example/p?page=1", "", "https://h.example/p?page=2", "https://h.example/p?page=2"},
		{"empty query marker", "/p?", "page", 1, 1,
			"/p?page=1", "", "", "/p?page=1"},
		{"userinfo and port kept", "http://u@h.example:8080/a%2Fb?page=1", "page", 1, 2,
			"http://u@h.example:8080/a%2Fb?page=1", "", "http://u@h.example:8080/a%2Fb?page=2", "http://u@h.example:8080/a%2Fb?page=2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := url.Parse(tt.u)
			if err != nil {
				t.Fatal(err)
			}
			before := *u
			var want Links
			for _, w := range []struct{ target, rel string }{{tt.first, "first"}, {tt.prev, "prev"}, {tt.next, "next"}, {tt.last_, "last"}} {
				if w.target != "" {
					want = append(want, Link{Target: w.target, Rel: []string{w.rel}})
				}
			}
			got := PageLinks(u, tt.param, tt.page, tt.last)
			if got.String() != want.String() {
				t.Errorf("PageLinks(%q, %q, %d, %d)\n got %s\nwant %s", tt.u, tt.param, tt.page, tt.last, got, want)
			}
			if *u != before {
				t.Errorf("PageLinks modified u: %v", u)
			}
		})
	}
}

func TestPageLinksNonsense(t *testing.T) {
	u, _ := url.Parse("/items?page=2")
	tests := []struct {
		u           *url.URL
		param       string
		page, last_ int
	}{
		{u, "page", 0, 5},
		{u, "page", -1, 5},
		{u, "page", 1, 0},
		{u, "page", 0, 0},
		{u, "page", 6, 5},
		{u, "", 1, 5},
		{nil, "page", 1, 5},
	}
	for _, tt := range tests {
		if got := PageLinks(tt.u, tt.param, tt.page, tt.last_); got != nil {
			t.Errorf("PageLinks(%v, %q, %d, %d) = %s, want nil", tt.u, tt.param, tt.page, tt.last_, got)
		}
	}
}

// plainWriter is a ResponseWriter with no optional interfaces.
type plainWriter struct{ h http.Header }

func (p *plainWriter) Header() http.Header         { return p.h }
func (p *plainWriter) Write(b []byte) (int, error) { return len(b), nil }
func (p *plainWriter) WriteHeader(int)             {}

func TestMiddlewareFlushNotSupported(t *testing.T) {
	pw := &plainWriter{h: http.Header{}}
	Middleware(schemaLink)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := http.NewResponseController(w).Flush(); !errors.Is(err, http.ErrNotSupported) {
			t.Errorf("Flush on a writer that cannot flush = %v, want http.ErrNotSupported", err)
		}
		if _, err := w.(io.ReaderFrom).ReadFrom(strings.NewReader("x")); err != nil {
			t.Errorf("ReadFrom without a wrapped ReadFrom: %v", err)
		}
	})).ServeHTTP(pw, httptest.NewRequest("GET", "/", nil))
	checkLinks(t, "final", pw.h, "/schema.json describedby")
}

// TestMiddlewareFlushNotSupportedThenSet checks that a Flush that cannot
// flush (http.TimeoutHandler's writer has no Flush) writes no head: the
// links are added when the head is written, so the handler's later
// Header().Set("Link", ...) does not erase them.
func TestMiddlewareFlushNotSupportedThenSet(t *testing.T) {
	h := http.TimeoutHandler(Middleware(schemaLink)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush()
		w.Header().Set("Link", `</next>; rel="next"`)
		io.WriteString(w, "body")
	})), time.Minute, "timeout")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	checkLinks(t, "final", rec.Header(), "/next next", "/schema.json describedby")
}

// h2CancelStress is how many requests TestEarlyHintsHTTP2Cancel makes per
// case; WEBLINK_H2_STRESS raises it for a longer run, for example
// WEBLINK_H2_STRESS=200000 go test -race -run TestEarlyHintsHTTP2Cancel.
func h2CancelStress(t *testing.T) int {
	t.Helper()
	s := os.Getenv("WEBLINK_H2_STRESS")
	if s == "" {
		return 2000
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("WEBLINK_H2_STRESS=%q: want a positive number of requests", s)
	}
	return n
}

// TestEarlyHintsHTTP2Cancel is a regression test for a server crash: an
// HTTP/2 client that resets the stream as soon as it gets the first 103
// left net/http's frame writer encoding the next 103 from the header map
// while the handler goroutine, let go early (golang/go#67940), went on
// changing that map. Under -race that was reported as a DATA RACE; without
// it, a long run ended in "fatal error: concurrent map iteration and map
// write". Each case sends two 103s: the client cancels on the first, the
// second is the one being written when the stream closes.
func TestEarlyHintsHTTP2Cancel(t *testing.T) {
	n := h2CancelStress(t)
	page := func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<!doctype html>")
	}
	tests := []struct {
		name    string
		handler http.Handler
	}{
		// The middleware sends a 103, the handler a second one; each puts
		// the header back, and the middleware adds its links to the final
		// response.
		{"EarlyHintsMiddleware", EarlyHintsMiddleware(serverLinks...)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.SetCookie(w, &http.Cookie{Name: "session", Value: "secret"})
			if err := EarlyHints(w, moduleLink); err != nil {
				t.Error(err)
			}
			page(w)
		}))},
		// EarlyHints without the middleware.
		{"EarlyHints", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.SetCookie(w, &http.Cookie{Name: "session", Value: "secret"})
			Add(w.Header(), schemaLink)
			for _, l := range []Link{styleLink, originLink} {
				if err := EarlyHints(w, l); err != nil {
					t.Error(err)
				}
			}
			page(w)
		})},
		// The handler writes its 103s itself; Middleware adds its links to
		// the same header map afterwards.
		{"handler's own 103", Middleware(schemaLink)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for _, hint := range []string{`</a.css>; rel="preload"`, `</b.css>; rel="preload"`} {
				w.Header().Set("Link", hint)
				w.WriteHeader(http.StatusEarlyHints)
			}
			w.Header().Del("Link")
			page(w)
		}))},
		// MaxLinkBytes cuts the Link field of each of the handler's 103s
		// and puts the handler's lines back after it, on the same header
		// map.
		{"MaxLinkBytes", MaxLinkBytes(30, func(*http.Request, Links) {})(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for _, hint := range []string{`</a.css>; rel="preload"`, `</b.css>; rel="preload"`} {
				w.Header()["Link"] = []string{hint, `</c.css>; rel="preload"`}
				w.WriteHeader(http.StatusEarlyHints)
			}
			w.Header().Set("Link", `</next>; rel="next"`)
			page(w)
		}))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, tt.handler, true)
			srv.Config.ErrorLog = log.New(io.Discard, "", 0)
			client := srv.Client()
			var cancelled atomic.Int64
			var wg sync.WaitGroup
			jobs := make(chan struct{})
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range jobs {
						ctx, cancel := context.WithCancel(context.Background())
						var got1xx atomic.Bool
						trace := &httptrace.ClientTrace{Got1xxResponse: func(int, textproto.MIMEHeader) error {
							got1xx.Store(true)
							cancel() // resets the stream right after the first 103
							return nil
						}}
						req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), http.MethodGet, srv.URL, nil)
						if err != nil {
							panic(err)
						}
						if resp, err := client.Do(req); err == nil {
							io.Copy(io.Discard, resp.Body)
							resp.Body.Close()
						}
						cancel()
						if got1xx.Load() {
							cancelled.Add(1)
						}
					}
				}()
			}
			for range n {
				jobs <- struct{}{}
			}
			close(jobs)
			wg.Wait()
			if got := cancelled.Load(); got != int64(n) {
				t.Errorf("%d of %d requests got a 103 and were cancelled", got, n)
			}
			// The server still answers in full.
			hints, resp, body := get(t, srv, "/")
			if len(hints) != 2 || body != "<!doctype html>" {
				t.Errorf("after the cancelled requests: %d interim responses, body %q; want 2 and the page", len(hints), body)
			}
			if len(resp.Header["Link"]) == 0 {
				t.Errorf("after the cancelled requests: final response without links")
			}
		})
	}
}

// TestLinkAdderAllocs: the middlewares compare links in parsed form with one
// reused Parser, not a Parse a link (20 allocations for these four links
// before, 14 with the Parser); EarlyHintsFunc pays this on every request.
func TestLinkAdderAllocs(t *testing.T) {
	links := Links{
		{Target: "/style.css", Rel: []string{"preload"}, Params: []Param{{Name: "as", Value: "style"}}},
		{Target: "/app.js", Rel: []string{"preload"}, Params: []Param{{Name: "as", Value: "script"}}},
		{Target: "https://cdn.example", Rel: []string{"preconnect"}},
		{Target: "/font.woff2", Rel: []string{"preload"}, Params: []Param{{Name: "as", Value: "font"}, {Name: "crossorigin"}}},
	}
	if n := testing.AllocsPerRun(100, func() { newLinkAdder(links) }); n > 16 {
		t.Errorf("newLinkAdder of 4 links: %.0f allocations, want at most 16", n)
	}
	// The key of a link with lower-case relation types allocates nothing,
	// on any Go the module supports (before Go 1.25 a make of a variable
	// length is on the heap: one allocation a link, 18 for newLinkAdder).
	if n := testing.AllocsPerRun(100, func() {
		for _, l := range links {
			keyOf(l)
		}
	}); n != 0 {
		t.Errorf("keyOf of 4 links: %.0f allocations, want 0", n)
	}
}

// Middleware: a link the handler wrote under another spelling of the Link key
// (which net/http sends all the same) is not added again.
func TestMiddlewareDeduplicatesAnyKeyCase(t *testing.T) {
	for _, key := range []string{"link", "LINK", "Link"} {
		t.Run(key, func(t *testing.T) {
			mw := Middleware(schemaLink, Link{Target: "/style.css", Rel: []string{"preload"}})
			srv := httptest.NewServer(mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header()[key] = []string{`</schema.json>; rel="describedby"`}
				w.WriteHeader(http.StatusNoContent)
			})))
			defer srv.Close()
			resp, err := http.Get(srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			links, _ := ParseHeader(resp.Header)
			var got []string
			for _, l := range links {
				got = append(got, l.Target+" "+strings.Join(l.Rel, " "))
			}
			slices.Sort(got) // net/http writes the keys in byte order
			if want := []string{"/schema.json describedby", "/style.css preload"}; !slices.Equal(got, want) {
				t.Errorf("links %q, want %q (lines %q)", got, want, resp.Header["Link"])
			}
		})
	}
}
