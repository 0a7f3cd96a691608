package paging

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// failingBody is a response body that gives its text, then err; it
// records its Close.
type failingBody struct {
	r      io.Reader
	err    error
	closed atomic.Bool
}

func (b *failingBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.EOF {
		err = b.err
	}
	return n, err
}

func (b *failingBody) Close() error { b.closed.Store(true); return nil }

// TestStatusErrorBodyFailsMidRead: a refused page's body that fails after
// 100 bytes gives the StatusError those bytes, and the body yielded reads
// them from the first byte, then the same error; closing it closes the
// original body.
func TestStatusErrorBodyFailsMidRead(t *testing.T) {
	errCut := errors.New("connection reset mid-body")
	text := strings.Repeat("r", 100)
	body := &failingBody{r: strings.NewReader(text), err: errCut}
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 403, Status: "403 Forbidden", Header: http.Header{"X": {"y"}}, Body: body, Request: r}, nil
	})}
	req, _ := http.NewRequest(http.MethodGet, "http://api.test/", nil)
	yielded := 0
	for resp, err := range Pages(context.Background(), client, req, WaitRateLimits(time.Hour)) {
		yielded++
		var se *StatusError
		if !errors.As(err, &se) || string(se.Body) != text || se.Header.Get("X") != "y" {
			t.Fatalf("error %v; want a *StatusError with the 100 bytes and the header", err)
		}
		b, rerr := io.ReadAll(resp.Body)
		if string(b) != text || !errors.Is(rerr, errCut) {
			t.Errorf("read %d bytes, error %v; want the 100 bytes, then %v", len(b), rerr, errCut)
		}
		if resp.Body.Close(); !body.closed.Load() {
			t.Error("closing resp.Body did not close the original body")
		}
	}
	if yielded != 1 {
		t.Errorf("%d yields, want 1", yielded)
	}
}

// TestStatusErrorTrickle: a 403 whose body comes one byte a second holds
// the iteration up for about a second (the read ahead is cut there, so a
// "rate limit" that would come later is not seen), and a context cancelled
// during that read ends it at once.
func TestStatusErrorTrickle(t *testing.T) {
	t.Parallel() // it waits a second
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		for _, c := range []byte("the rate limit was exceeded") {
			w.Write([]byte{c})
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(time.Second):
			}
		}
	}))
	defer srv.Close()
	run := func(ctx context.Context) (body string, d time.Duration, err error) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
		start := time.Now()
		for resp, e := range Pages(ctx, nil, req, WaitRateLimits(time.Hour)) {
			err = e
			if resp != nil {
				b, _ := io.ReadAll(resp.Body)
				body = string(b)
			}
		}
		return body, time.Since(start), err
	}
	body, d, err := run(context.Background())
	var se *StatusError
	if !errors.As(err, &se) || errors.Is(err, ErrRateLimited) || !strings.HasPrefix("the rate limit", body) || body == "" {
		t.Errorf("error %v, body %q; want the *StatusError of the 403, its first bytes", err, body)
	}
	if d > 5*time.Second { // a second, with very wide slack
		t.Errorf("the trickling body held Pages for %v", d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, d, err = run(ctx)
	if !errors.As(err, &se) || !errors.Is(err, context.DeadlineExceeded) { // the 403 came before the context was done
		t.Errorf("error %v; want the 403's *StatusError and the context's error", err)
	}
	if d > 900*time.Millisecond { // the cancel, not the second of the read ahead
		t.Errorf("ended %v after the start; the context was done at 200ms", d)
	}
}

// TestStatusErrorReadCutByContext: when the context is done while Pages
// reads the start of a refused page's body, the error yielded with it
// matches the context's error too, not only the *StatusError.
func TestStatusErrorReadCutByContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		body := &failingBody{r: strings.NewReader("the rate"), err: context.Canceled}
		cancel() // while the body is under way
		return &http.Response{StatusCode: 403, Status: "403 Forbidden", Header: http.Header{}, Body: body, Request: r}, nil
	})}
	req, _ := http.NewRequest(http.MethodGet, "http://api.test/", nil)
	for _, err := range Pages(ctx, client, req, WaitRateLimits(time.Hour)) {
		var se *StatusError
		if !errors.As(err, &se) || !errors.Is(err, context.Canceled) {
			t.Errorf("error %v; want the *StatusError and context.Canceled", err)
		}
	}
}
