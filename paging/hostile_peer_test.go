package paging_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/weblinking/weblink/internal/rawpeer"
	"github.com/weblinking/weblink/paging"
)

// Errors name pages without their userinfo: a token is often the user name.
func TestPagesErrorsWithoutUserinfo(t *testing.T) {
	a := newAPI(t, 2, func(base string, p int) []string {
		return []string{`</items?page=` + fmt.Sprint(p+1) + `>; rel="next"`}
	})
	for _, user := range []string{"tok3n", "tok3n:pa55"} {
		req := getItems(t, strings.Replace(a.URL, "http://", "http://"+user+"@", 1))
		r := collect(t, paging.Pages(context.Background(), nil, req))
		var se *paging.StatusError
		if !errors.As(r.err, &se) {
			t.Fatalf("error %v, want a 404", r.err)
		}
		for _, s := range []string{r.err.Error(), se.URL} {
			if strings.Contains(s, "tok3n") || strings.Contains(s, "pa55") {
				t.Errorf("%q shows the userinfo", s)
			}
		}
	}
	// An error of client.Do names the URL as net/http writes it, with the
	// user name.
	base := rawpeer.Serve(t, func(string) string { return "NOT HTTP\r\n\r\n" })
	client, _ := newClient(t)
	r := collect(t, paging.Pages(context.Background(), client, getItems(t, strings.Replace(base, "http://", "http://tok3n@", 1))))
	if r.err == nil || strings.Contains(r.err.Error(), "tok3n") || !strings.Contains(r.err.Error(), base[len("http://"):]) {
		t.Errorf("error %v: want one naming the page without its userinfo", r.err)
	}
}

// A header line net/http rejects comes back in its error raw.
func TestPagesTransportErrorEscapes(t *testing.T) {
	base := rawpeer.Serve(t, func(string) string {
		return "HTTP/1.1 200 OK\r\nX\x1b]0;PWNED\x07: 1\r\n\x1b[2J\r\nContent-Length: 0\r\n\r\n"
	})
	client, _ := newClient(t)
	r := collect(t, paging.Pages(context.Background(), client, getItems(t, base)))
	if r.err == nil {
		t.Fatal("no error")
	}
	if c, bad := unsafeInError(r.err.Error()); bad {
		t.Fatalf("message %q carries %U raw", r.err, c)
	}
	t.Logf("message: %v", r.err)
}

// Credentials under a header name that is not canonical are credentials too.
func TestPagesCredentialsNonCanonicalKeys(t *testing.T) {
	b := newAPI(t, 2, nextOnly(2))
	a := newAPI(t, 1, func(string, int) []string { return []string{`<` + b.URL + `/items?page=1>; rel="next"`} })
	req := getItems(t, a.URL)
	req.Header["authorization"] = []string{"Bearer secret"}
	req.Header["COOKIE"] = []string{"session=secret"}
	req.Header["proxy-authorization"] = []string{"Basic c2VjcmV0"}
	r := collect(t, paging.Pages(context.Background(), nil, req, paging.AllowCrossOrigin()))
	r.check(t, append(pageItems(1), itemsUpTo(1, 2)...), nil)
	for _, s := range b.requests() {
		for k := range s.Header {
			if strings.EqualFold(k, "Authorization") || strings.EqualFold(k, "Cookie") || strings.EqualFold(k, "Proxy-Authorization") {
				t.Errorf("%s %s got %s", s.Host, s.URI, k)
			}
		}
	}
}

// A decode cut short by a deadline of req.Context() matches
// context.DeadlineExceeded, as the other errors of a done context do.
func TestItemsDecodeDeadline(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("[1,"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	for _, which := range []string{"ctx", "req.Context()"} {
		t.Run(which, func(t *testing.T) {
			dctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			ctx, req := context.Background(), getItems(t, srv.URL)
			if which == "ctx" {
				ctx = dctx
			} else {
				req = req.WithContext(dctx)
			}
			_, err := collectItems(t, paging.Items(ctx, nil, req, paging.JSONItems[int]))
			t.Logf("error: %v", err)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("error %v does not match context.DeadlineExceeded", err)
			}
		})
	}
}

// JSONItems holds no copy of the whole page: what it allocates per byte of
// a large page stays near what the items themselves take.
func TestJSONItemsMemory(t *testing.T) {
	type issue struct {
		Number int
		Title  string
	}
	el := `{"Number":12345,"Title":"` + strings.Repeat("x", 80) + `"},`
	var perByte []float64
	for _, size := range []int{4 << 20, 16 << 20} {
		body := "[" + strings.Repeat(el, size/len(el)) + `{"Number":1,"Title":""}]`
		resp := &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(body)), Request: &http.Request{Method: http.MethodGet}}
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		items, err := paging.JSONItems[issue](resp)
		runtime.ReadMemStats(&m1)
		if err != nil || len(items) != size/len(el)+1 {
			t.Fatalf("%d items, error %v", len(items), err)
		}
		perByte = append(perByte, float64(m1.TotalAlloc-m0.TotalAlloc)/float64(len(body)))
	}
	t.Logf("bytes allocated per body byte: %.2f for 4 MiB, %.2f for 16 MiB", perByte[0], perByte[1])
	for _, b := range perByte {
		if b > 3 {
			t.Errorf("%.2f bytes allocated per body byte, want at most 3 (the items take about 1.3)", b)
		}
	}
}

// Items with a nil decode says so, before any request, rather than panic
// on the first page.
func TestItemsNilDecode(t *testing.T) {
	a := newAPI(t, 2, nextOnly(2))
	var got error
	func() {
		defer func() {
			if r := recover(); r != nil {
				got = fmt.Errorf("panic: %v", r)
			}
		}()
		_, got = collectItems(t, paging.Items[int](context.Background(), nil, getItems(t, a.URL), nil))
	}()
	if got == nil || strings.HasPrefix(got.Error(), "panic") || len(a.requests()) != 0 {
		t.Errorf("error %v after %d requests; want an error and none", got, len(a.requests()))
	}
}

// The way docs/pagination.md caps a page's size: a decode function of
// one's own around JSONItems.
func TestItemsCappedDecode(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("[" + strings.Repeat("1,", 1<<20) + "1]"))
	}))
	defer srv.Close()
	capped := func(resp *http.Response) ([]int, error) {
		resp.Body = http.MaxBytesReader(nil, resp.Body, 64<<10)
		return paging.JSONItems[int](resp)
	}
	items, err := collectItems(t, paging.Items(context.Background(), nil, getItems(t, srv.URL), capped))
	var tooLarge *http.MaxBytesError
	if len(items) != 0 || !errors.As(err, &tooLarge) || !strings.Contains(err.Error(), srv.URL+"/items?page=1") {
		t.Errorf("%d items, error %v; want none and a *http.MaxBytesError naming the page", len(items), err)
	}
}

// hostileRoundTripper answers in memory as a hostile server would, for
// hosts that only a proxy could reach.
type hostileRoundTripper func(*http.Request) *http.Response

func (f hostileRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	resp := f(req)
	resp.Request = req
	if resp.Body == nil {
		resp.Body = http.NoBody
	}
	return resp, nil
}

// The origin named by ErrCrossOrigin comes from a redirect of the server:
// it is quoted like the URLs.
func TestPagesCrossOriginMessageEscapes(t *testing.T) {
	const evil = "http://\u202eevil\u009b31m.example/"
	client := &http.Client{Transport: hostileRoundTripper(func(req *http.Request) *http.Response {
		h := http.Header{}
		if req.URL.Host == "127.0.0.1" {
			h.Set("Location", evil)
			return &http.Response{StatusCode: http.StatusFound, Header: h}
		}
		h.Set("Link", `<http://127.0.0.2/next>; rel="next"`)
		return &http.Response{StatusCode: http.StatusOK, Header: h, Body: io.NopCloser(strings.NewReader("[]"))}
	})}
	req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1/items", nil)
	r := collect(t, paging.Pages(context.Background(), client, req))
	if !errors.Is(r.err, paging.ErrCrossOrigin) {
		t.Fatalf("error %v, want ErrCrossOrigin", r.err)
	}
	if c, bad := unsafeInError(r.err.Error()); bad {
		t.Errorf("message %q carries %U raw", r.err, c)
	}
}

// An API URL is often longer than 64 bytes, and what tells its pages apart
// is at its end: the messages keep it.
func TestPagesErrorsNameLongURLs(t *testing.T) {
	const query = "/items?state=open&sort=updated&direction=desc&labels=bug,help%20wanted&per_page=100&page="
	a := newAPI(t, 36, func(base string, p int) []string {
		return []string{`<` + query + fmt.Sprint(p+1) + `>; rel="next"`}
	})
	r := collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL), paging.MaxPages(36)))
	if !errors.Is(r.err, paging.ErrMaxPages) || !strings.Contains(r.err.Error(), "page=36") || !strings.Contains(r.err.Error(), "page=37") {
		t.Errorf("error %v does not name page=36 and page=37", r.err)
	}
	r = collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL)))
	if !errors.Is(r.err, paging.ErrStatus) || !strings.Contains(r.err.Error(), "page=37") {
		t.Errorf("error %v does not name page=37", r.err)
	}
	long := "/items?" + strings.Repeat("x", 5000) + "&page=2"
	b := newAPI(t, 1, func(string, int) []string { return []string{`<` + long + `>; rel="next"`} })
	r = collect(t, paging.Pages(context.Background(), nil, getItems(t, b.URL)))
	if msg := r.err.Error(); !strings.Contains(msg, "page=2") || len(msg) > 600 {
		t.Errorf("%d-byte error %.300q...: want page=2 named in a short message", len(msg), msg)
	}
}

// A chunked body whose trailer net/http rejects: the decode error of Items
// carries that line, escaped (rule 36).
func TestItemsTrailerErrorEscapes(t *testing.T) {
	base := rawpeer.Serve(t, func(string) string {
		return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n[1,\r\n0\r\nX\x1b]0;PWNED\x07: 1\r\n\r\n"
	})
	client, _ := newClient(t)
	var err error
	for _, e := range paging.Items(context.Background(), client, getItems(t, base), paging.JSONItems[int]) {
		if e != nil {
			err = e
		}
	}
	if err == nil {
		t.Fatal("no error")
	}
	if c, bad := unsafeInError(err.Error()); bad {
		t.Fatalf("message %q carries %U raw", err, c)
	}
}
