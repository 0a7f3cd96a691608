package paging

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// TestStoreSaysWaitZeroAfterRefusal checks rules 12 and 17 against a
// broken store that always answers "wait 0": a refusal with Retry-After
// that the iteration itself received is still waited before the page is
// requested again, instead of the API being asked 11 times at once.
func TestStoreSaysWaitZeroAfterRefusal(t *testing.T) {
	var mu sync.Mutex
	requests := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests++
		n := requests
		mu.Unlock()
		if n == 1 {
			w.Header().Set("Retry-After", "30")
			w.WriteHeader(http.StatusTooManyRequests)
		}
	}))
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	store := &recordingStore{} // Take: always 0
	clock := newFakeClock()
	pages := 0
	for _, err := range Pages(context.Background(), nil, req, NewSharedRateLimiter(time.Hour, store).Option(), clock.option()) {
		if err != nil {
			t.Fatal(err)
		}
		pages++
	}
	var slept time.Duration
	for _, s := range clock.sleeps() {
		slept += s
	}
	if pages != 1 || requests != 2 || slept < 30*time.Second {
		t.Errorf("%d pages, %d requests, slept %v; want 1 page, 2 requests, 30s slept for the Retry-After", pages, requests, slept)
	}
}
