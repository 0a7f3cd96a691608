package paging_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/weblinking/weblink/internal/memtest"
	"github.com/weblinking/weblink/internal/rawpeer"
	"github.com/weblinking/weblink/paging"
)

// TestStatusErrorHeaderBody checks rule 3: the *StatusError of a refused
// page carries the response's header and the first 2 KiB of its body, and
// the body that Pages yields still reads from its first byte.
func TestStatusErrorHeaderBody(t *testing.T) {
	for _, tc := range []struct {
		name   string
		method string
		body   string
	}{
		{"GitHub's message", http.MethodGet, `{"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}`},
		{"empty", http.MethodGet, ""},
		{"HEAD", http.MethodHead, "no body for HEAD"},
		{"2 KiB", http.MethodGet, strings.Repeat("a", 2048)},
		{"2 KiB and one byte", http.MethodGet, strings.Repeat("b", 2048) + "c"},
		{"5000 bytes", http.MethodGet, strings.Repeat("0123456789", 500)},
		{"terminal escapes", http.MethodGet, "\x1b[2J\x1b[31mboom\u202e"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-Github-Request-Id", "C0DE:1234")
				w.WriteHeader(http.StatusNotFound)
				io.WriteString(w, tc.body)
			}))
			defer srv.Close()
			req, err := http.NewRequest(tc.method, srv.URL+"/items", nil)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.body
			if tc.method == http.MethodHead {
				want = ""
			}
			var se *paging.StatusError
			n := 0
			for resp, err := range paging.Pages(context.Background(), nil, req) {
				n++
				if !errors.As(err, &se) {
					t.Fatalf("error %v, want a *StatusError", err)
				}
				b, rerr := io.ReadAll(resp.Body)
				if rerr != nil || string(b) != want {
					t.Errorf("the body read in the loop is %d bytes (%v), want the %d sent", len(b), rerr, len(want))
				}
			}
			if n != 1 {
				t.Fatalf("%d responses, want 1", n)
			}
			prefix := want[:min(len(want), 2048)]
			if string(se.Body) != prefix || len(prefix) == 0 && se.Body != nil || cap(se.Body) > 2048 {
				t.Errorf("Body %q (cap %d), want %q", se.Body, cap(se.Body), prefix)
			}
			if got := se.Header.Get("X-GitHub-Request-Id"); got != "C0DE:1234" {
				t.Errorf("Header has X-GitHub-Request-Id %q", got)
			}
			// Error shows neither: the same message as without them.
			bare := paging.StatusError{StatusCode: se.StatusCode, Status: se.Status, URL: se.URL}
			if se.Error() != bare.Error() {
				t.Errorf("Error() = %q, want %q", se.Error(), bare.Error())
			}
		})
	}
}

// TestItemsStatusErrorBody: Items closes a refused page's body, so its
// error is where the body is; 1 MiB of it costs 2 KiB.
func TestItemsStatusErrorBody(t *testing.T) {
	big := `{"message": "Server Error"}` + strings.Repeat(" ", 1<<20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("page") == "" {
			w.Header().Set("Link", `<?page=2>; rel="next"`)
			io.WriteString(w, "[1, 2]")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, big)
	}))
	defer srv.Close()
	var got []int
	var err error
	run := func() {
		got, err = nil, nil
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/items", nil)
		for item, e := range paging.Items(context.Background(), nil, req, paging.JSONItems[int]) {
			if e != nil {
				err = e
				break
			}
			got = append(got, item)
		}
	}
	run() // warm up the connections
	allocated := memtest.Allocated(run)
	var se *paging.StatusError
	if len(got) != 2 || !errors.As(err, &se) || se.StatusCode != 500 {
		t.Fatalf("items %v, error %v; want 1, 2 and a *StatusError 500", got, err)
	}
	if string(se.Body) != big[:2048] || cap(se.Body) > 2048 || se.Header.Get("Content-Type") != "application/json" {
		t.Errorf("Body of %d bytes (cap %d), header %v; want the first 2048 bytes and the header", len(se.Body), cap(se.Body), se.Header)
	}
	t.Logf("allocated %d bytes for two pages, the second a 1 MiB error", allocated)
	if allocated > 256<<10 {
		t.Errorf("allocated %d bytes for two pages, the second a 1 MiB error; want far less than the body", allocated)
	}
}

// TestStatusErrorSlowBody: a server that sends the start of an error body
// and then nothing holds Pages up for a second at most; the body yielded
// reads what came, then an error.
func TestStatusErrorSlowBody(t *testing.T) {
	t.Parallel() // it waits a second
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		io.WriteString(w, `{"message":`)
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/items", nil)
	start := time.Now()
	for resp, err := range paging.Pages(context.Background(), nil, req) {
		d := time.Since(start)
		var se *paging.StatusError
		if !errors.As(err, &se) || string(se.Body) != `{"message":` {
			t.Fatalf("error %v, want a *StatusError with the start of the body", err)
		}
		if d > 5*time.Second { // a second, with very wide slack
			t.Errorf("yielded after %v", d)
		}
		b, rerr := io.ReadAll(resp.Body)
		if string(b) != `{"message":` || rerr == nil {
			t.Errorf("the body read %q, %v; want the start and an error", b, rerr)
		}
		t.Logf("yielded after %v", d.Round(time.Millisecond))
	}
}

func TestPagesStatusLineEscapes(t *testing.T) {
	const reason = "\x1b]0;PWNED\x07\x1b[2J\x1b[31mboom"
	base := rawpeer.Serve(t, func(string) string { return "HTTP/1.1 500 " + reason + "\r\nContent-Length: 4\r\n\r\nfire" })
	req, err := http.NewRequest(http.MethodGet, base+"/items?page=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	client, _ := newClient(t)
	var got error
	for resp, err := range paging.Pages(context.Background(), client, req) {
		if resp == nil {
			t.Fatalf("no response, error %v", err)
		}
		got = err
	}
	var se *paging.StatusError
	if !errors.As(got, &se) {
		t.Fatalf("error %v is not a *StatusError", got)
	}
	if se.StatusCode != 500 || se.Status != "500 "+reason {
		t.Errorf("StatusError = %+q; the fields keep what the server sent", *se)
	}
	msg := got.Error()
	if r, bad := unsafeInError(msg); bad {
		t.Fatalf("message %q carries %U raw", msg, r)
	}
	t.Logf("message: %s", msg) // safe to print now
	if !strings.Contains(msg, "PWNED") || !strings.Contains(msg, base) {
		t.Errorf("message %q does not show the status and URL", msg)
	}
}

func TestStatusErrorMessage(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  paging.StatusError
		want string // substring of the message
	}{
		{"plain", paging.StatusError{StatusCode: 500, Status: "500 Internal Server Error", URL: "https://api.example/items"},
			`answered 500 Internal Server Error`},
		{"escape sequences", paging.StatusError{StatusCode: 500, Status: "500 \x1b[2J\x1b[31mboom", URL: "https://api.example/"},
			`"500 \x1b[2J\x1b[31mboom"`},
		{"C1 control", paging.StatusError{StatusCode: 502, Status: "502 \u009b31m", URL: "https://api.example/"},
			`"502 \u009b31m"`},
		{"bidi override in the reason", paging.StatusError{StatusCode: 403, Status: "403 \u202egnp.exe", URL: "https://api.example/"},
			`"403 \u202egnp.exe"`},
		{"invalid UTF-8", paging.StatusError{StatusCode: 404, Status: "404 \xff\xfe", URL: "https://api.example/"},
			`"404 \xff\xfe"`},
		{"bidi override in the host", paging.StatusError{StatusCode: 500, Status: "500 Oops", URL: "https://\u202eelpmaxe/x"},
			`"https://\u202eelpmaxe/x"`},
		{"long reason", paging.StatusError{StatusCode: 500, Status: "500 " + strings.Repeat("A", 5000), URL: "https://api.example/"},
			`"...`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := tc.err.Error()
			if r, bad := unsafeInError(msg); bad {
				t.Errorf("message %q carries %U raw", msg, r)
			}
			if !strings.Contains(msg, tc.want) {
				t.Errorf("message %q does not contain %s", msg, tc.want)
			}
			if len(msg) > 300 {
				t.Errorf("message of %d bytes", len(msg))
			}
		})
	}
}
