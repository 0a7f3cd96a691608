package paging_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/weblinking/weblink/paging"
)

// hostSim serves example.com and its subdomains over http (as port 80) and
// https (as port 443) from two servers on 127.0.0.1, with a client that
// dials them whatever the host. route answers each request, given its
// scheme, host and page.
type hostSim struct {
	client *http.Client
	mu     sync.Mutex
	seen   []seenRequest // URI is scheme://host/path?query
}

func newHostSim(t *testing.T, route func(w http.ResponseWriter, r *http.Request, url string)) *hostSim {
	s := &hostSim{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		u := scheme + "://" + r.Host + r.URL.RequestURI()
		s.mu.Lock()
		s.seen = append(s.seen, seenRequest{Method: r.Method, Host: r.Host, URI: u, Header: r.Header.Clone()})
		s.mu.Unlock()
		route(w, r, u)
	})
	plain := httptest.NewServer(h)
	t.Cleanup(plain.Close)
	secure := httptest.NewTLSServer(h)
	t.Cleanup(secure.Close)
	tr := secure.Client().Transport.(*http.Transport).Clone()
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		_, port, _ := net.SplitHostPort(addr)
		to := plain.Listener.Addr().String()
		if port == "443" {
			to = secure.Listener.Addr().String()
		}
		var d net.Dialer
		return d.DialContext(ctx, network, to)
	}
	// The test certificate is for example.com, and since Go 1.23.x for
	// *.example.com too: every host is verified as example.com, so that the
	// client verifies the certificate on every Go the module supports.
	tr.TLSClientConfig.ServerName = "example.com"
	t.Cleanup(tr.CloseIdleConnections)
	s.client = &http.Client{Transport: tr}
	return s
}

func (s *hostSim) requests() []seenRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.seen)
}

// sent is a request that a hostSim should have received, and whether it
// carried the credentials.
type sent struct {
	uri   string
	creds bool
}

// check fails t unless s received the requests want, in order.
func (s *hostSim) check(t *testing.T, want []sent) {
	t.Helper()
	got := s.requests()
	if len(got) != len(want) {
		t.Fatalf("%d requests, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].URI != w.uri {
			t.Errorf("request %d: %s, want %s", i+1, got[i].URI, w.uri)
		}
		checkCredentials(t, got[i], w.creds)
	}
}

// page writes page p of the items with a next link to next, if any.
func page(w http.ResponseWriter, p int, next string) {
	if next != "" {
		w.Header().Set("Link", "<"+next+`>; rel="next"`)
	}
	fmt.Fprint(w, "[")
	for i, item := range pageItems(p) {
		if i > 0 {
			fmt.Fprint(w, ",")
		}
		fmt.Fprint(w, item)
	}
	fmt.Fprint(w, "]")
}

func TestPagesCanonicalHostRedirect(t *testing.T) {
	// example.com redirects to its canonical host www.example.com, whose
	// pages link on www (followed: the first page ended up there), then
	// back to example.com (followed: req's origin), then elsewhere (not).
	s := newHostSim(t, func(w http.ResponseWriter, r *http.Request, u string) {
		switch u {
		case "http://example.com/items?page=1":
			http.Redirect(w, r, "http://www.example.com/items?page=1", http.StatusMovedPermanently)
		case "http://www.example.com/items?page=1":
			page(w, 1, "http://www.example.com/items?page=2")
		case "http://www.example.com/items?page=2":
			page(w, 2, "http://example.com/items?page=3")
		case "http://example.com/items?page=3":
			page(w, 3, "http://api.example.com/items?page=4")
		default:
			http.NotFound(w, r)
		}
	})
	req := withCredentials(getItems(t, "http://example.com"))
	collect(t, paging.Pages(context.Background(), s.client, req)).check(t, itemsUpTo(1, 3), paging.ErrCrossOrigin)
	s.check(t, []sent{
		{"http://example.com/items?page=1", true},
		{"http://www.example.com/items?page=1", false}, // another host: no credentials, though net/http would send them to a subdomain
		{"http://www.example.com/items?page=2", false},
		{"http://example.com/items?page=3", true},
	})
}

func TestPagesHTTPSUpgrade(t *testing.T) {
	// http://example.com redirects to https://example.com, where paging goes
	// on with the credentials (its https upgrade); page 2 redirects to
	// www.example.com, which does not move the origin: its next link is
	// not followed, and it gets no credentials.
	s := newHostSim(t, func(w http.ResponseWriter, r *http.Request, u string) {
		switch u {
		case "http://example.com/items?page=1":
			http.Redirect(w, r, "https://example.com/items?page=1", http.StatusMovedPermanently)
		case "https://example.com/items?page=1":
			page(w, 1, "/items?page=2")
		case "https://example.com/items?page=2":
			http.Redirect(w, r, "https://www.example.com/items?page=2", http.StatusFound)
		case "https://www.example.com/items?page=2":
			page(w, 2, "/items?page=3")
		default:
			http.NotFound(w, r)
		}
	})
	req := withCredentials(getItems(t, "http://example.com"))
	collect(t, paging.Pages(context.Background(), s.client, req)).check(t, itemsUpTo(1, 2), paging.ErrCrossOrigin)
	s.check(t, []sent{
		{"http://example.com/items?page=1", true},
		{"https://example.com/items?page=1", true},
		{"https://example.com/items?page=2", true},
		{"https://www.example.com/items?page=2", false},
	})
}

func TestPagesCredentialsNotDowngraded(t *testing.T) {
	// From https, the http origin of the same host is not an upgrade: a
	// next link there is another origin, and gets no credentials even with
	// AllowCrossOrigin.
	s := newHostSim(t, func(w http.ResponseWriter, r *http.Request, u string) {
		switch u {
		case "https://example.com/items?page=1":
			page(w, 1, "http://example.com/items?page=2")
		case "http://example.com/items?page=2":
			page(w, 2, "")
		default:
			http.NotFound(w, r)
		}
	})
	checkOtherOrigin(t, s, withCredentials(getItems(t, "https://example.com")))
}

func TestPagesRequestContext(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	for _, tc := range []struct {
		name     string
		ctx, req context.Context
		want     error
	}{
		{"req.Context() cancelled", context.Background(), cancelled, context.Canceled},
		{"req.Context() past its deadline", context.Background(), expired, context.DeadlineExceeded},
		{"ctx cancelled", cancelled, context.Background(), context.Canceled},
		{"both", expired, cancelled, context.DeadlineExceeded}, // ctx is looked at first
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAPI(t, 2, nextOnly(2))
			rec := &recorder{next: http.DefaultTransport}
			req := getItems(t, a.URL).WithContext(tc.req)
			n := 0
			var got error
			for resp, err := range paging.Pages(tc.ctx, &http.Client{Transport: rec}, req) {
				n++
				if resp != nil {
					t.Errorf("a response was yielded")
				}
				got = err
			}
			if n != 1 || !errors.Is(got, tc.want) {
				t.Errorf("%d yields, error %v; want one, %v", n, got, tc.want)
			}
			if len(rec.urls) != 0 {
				t.Errorf("requests sent: %q", rec.urls)
			}
		})
	}
}

func TestPagesRequestContextCancelled(t *testing.T) {
	before := runtime.NumGoroutine()
	t.Run("between pages", func(t *testing.T) {
		a := newAPI(t, 3, nextOnly(3))
		rctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		r := result{}
		for resp, err := range paging.Pages(context.Background(), nil, getItems(t, a.URL).WithContext(rctx)) {
			if resp != nil {
				r.pages++
			}
			r.err = err
			cancel()
		}
		if r.pages != 1 || !errors.Is(r.err, context.Canceled) || len(a.requests()) != 1 {
			t.Errorf("%d pages, %d requests, error %v; want 1, 1, context.Canceled", r.pages, len(a.requests()), r.err)
		}
	})
	t.Run("in flight", func(t *testing.T) {
		arrived := make(chan struct{})
		a := newAPI(t, 3, nextOnly(3), func(items http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Query().Get("page") == "2" {
					close(arrived)
					select {
					case <-r.Context().Done():
					case <-time.After(10 * time.Second):
					}
				}
				items.ServeHTTP(w, r)
			})
		})
		rctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		go func() {
			<-arrived
			cancel()
		}()
		start := time.Now()
		r := collect(t, paging.Pages(context.Background(), nil, getItems(t, a.URL).WithContext(rctx)))
		r.check(t, pageItems(1), context.Canceled)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("took %v after req.Context() was cancelled", d)
		}
	})
	waitFor(t, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
}
