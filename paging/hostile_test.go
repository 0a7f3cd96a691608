package paging_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/weblinking/weblink/internal/memtest"
	"github.com/weblinking/weblink/internal/rawpeer"
	"github.com/weblinking/weblink/paging"
)

// unsafeInError reports the first byte or rune of s that must not reach a
// terminal: a C0 or C1 control, DEL, or a bidi formatting character.
func unsafeInError(s string) (rune, bool) {
	for _, r := range s {
		switch {
		case r < 0x20, r >= 0x7f && r <= 0x9f,
			r == 0x061c, r == 0x200e, r == 0x200f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069,
			r == 0xfffd: // an invalid byte, written raw
			return r, true
		}
	}
	return 0, false
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

// trickle writes n bytes to w, one every d, until the client gives up.
func trickle(w http.ResponseWriter, r *http.Request, n int, d time.Duration) {
	for range n {
		if _, err := w.Write([]byte{'x'}); err != nil {
			return
		}
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
			return
		case <-time.After(d):
		}
	}
}

func TestPagesDrainBoundedInTime(t *testing.T) {
	t.Parallel()
	// Page 1 promises a long body and trickles it, one byte every 50 ms,
	// while the loop body reads none of it; the next page must follow
	// within a couple of seconds, not when the body is done (20 s).
	const bodyLen = 400
	trickling := make(chan struct{})
	a := newAPI(t, 2, nextOnly(2), func(items http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("page") != "1" {
				items.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Link", `</items?page=2>; rel="next"`)
			w.Header().Set("Content-Length", fmt.Sprint(bodyLen))
			w.WriteHeader(http.StatusOK)
			close(trickling)
			trickle(w, r, bodyLen, 50*time.Millisecond)
		})
	})
	client, _ := newClient(t)
	var left time.Time
	var delay time.Duration
	n := 0
	for _, err := range paging.Pages(context.Background(), client, getItems(t, a.URL)) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if n == 1 {
			<-trickling
			left = time.Now()
		} else {
			delay = time.Since(left)
		}
	}
	if n != 2 {
		t.Fatalf("%d pages, want 2", n)
	}
	t.Logf("page 2 followed page 1's loop body after %v", delay.Round(time.Millisecond))
	if delay > 3*time.Second {
		t.Errorf("page 2 waited %v for page 1's unread body", delay)
	}
}

// TestPagesMemoryBound runs Pages against a local server whose first page
// sends a 4 MiB Link header (each memory shape, then the next link) and
// checks that the whole iteration, net/http's reading of the header
// included, allocates at most 40 bytes per header byte: weblink.NextURL's
// bound (32, which the one link-value being looked at may take when it
// holds a million parameters) and what net/http's reading of the header
// costs.
func TestPagesMemoryBound(t *testing.T) {
	const n = 4 << 20
	for _, tc := range memtest.Shapes {
		t.Run(tc.Name, func(t *testing.T) {
			value := tc.Build(n)
			lines := []string{value, `<?page=2>; rel="next"`} // as in the root's TestNextURLMemoryBound
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.RawQuery == "page=1" {
					w.Header()["Link"] = lines
				}
			}))
			srv.Config.MaxHeaderBytes = 16 << 20
			srv.Start()
			defer srv.Close()
			client := srv.Client()
			req, err := http.NewRequest(http.MethodGet, srv.URL+"/items?page=1", nil)
			if err != nil {
				t.Fatal(err)
			}
			pages := 0
			perByte := float64(memtest.Allocated(func() {
				for _, err := range paging.Pages(context.Background(), client, req) {
					if err != nil {
						t.Errorf("page %d: %v", pages+1, err)
						return
					}
					pages++
				}
			})) / float64(len(value))
			t.Logf("Pages: %.2f B/B", perByte)
			if pages != 2 && !strings.HasPrefix(tc.Name, "rel next") {
				t.Errorf("%d pages, want 2", pages)
			}
			if perByte > 40 {
				t.Errorf("Pages allocated %.2f bytes per header byte, want at most 40", perByte)
			}
		})
	}
}
