package paging

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// stamp is a request as the server of TestRateLimiterShared saw it.
type stamp struct {
	at     time.Time
	uri    string
	status int
}

// TestRateLimiterShared checks rule 2 against a real server, from the
// timestamps it records: iteration a is refused once with Retry-After: 1;
// iteration b, whose first page was in flight, and 50 iterations started
// after the refusal, each in its own goroutine, send no request before the
// second is over, and all of them finish.
func TestRateLimiterShared(t *testing.T) {
	t.Parallel() // it waits a second
	var (
		mu       sync.Mutex
		log      []stamp
		refusedA bool
		refusal  time.Time
	)
	learned := make(chan struct{})  // closed when the limiter knows of the refusal
	bArrived := make(chan struct{}) // closed when b's first request has come
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		now := time.Now()
		status := http.StatusOK
		page := r.URL.Query().Get("page")
		switch {
		case r.URL.Path == "/a" && page == "2" && !refusedA:
			refusedA, refusal, status = true, now, http.StatusTooManyRequests
		case page == "":
			w.Header().Set("Link", `<?page=2>; rel="next"`)
		}
		log = append(log, stamp{now, r.URL.RequestURI(), status})
		mu.Unlock()
		switch {
		case r.URL.Path == "/a" && page == "":
			<-bArrived // b's first request comes before a's refusal
		case r.URL.Path == "/b" && page == "":
			close(bArrived)
			<-learned // and is answered after it
		}
		if status != http.StatusOK {
			w.Header().Set("Retry-After", "1")
		}
		w.WriteHeader(status)
	}))
	defer srv.Close()
	limiter := NewRateLimiter(time.Minute)
	// An earlier response gave no count: requests go freely (rule 13), and
	// b's first request need not wait for the probe, a's.
	limiter.limit.learnedAt(time.Now(), Limit{Remaining: -1})
	pages := func(path string) error {
		req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		if err != nil {
			return err
		}
		n := 0
		for _, err := range Pages(context.Background(), nil, req, limiter.Option()) {
			if err != nil {
				return err
			}
			n++
		}
		if n != 2 {
			return fmt.Errorf("%s: %d pages, want 2", path, n)
		}
		return nil
	}
	var wg sync.WaitGroup
	errs := make(chan error, 52)
	run := func(path string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- pages(path)
		}()
	}
	run("/a")
	run("/b")
	for deadline := time.Now().Add(10 * time.Second); limiter.limit.until().IsZero(); { // a has read the refusal
		if time.Now().After(deadline) {
			close(learned)
			t.Fatal("the limiter did not learn of the refusal")
		}
		time.Sleep(time.Millisecond)
	}
	close(learned)
	for i := range 50 {
		run(fmt.Sprintf("/c%d", i))
	}
	wg.Wait()
	reportErrors(t, errs)
	mu.Lock()
	defer mu.Unlock()
	if len(log) != 2+2+1+50*2 {
		t.Errorf("%d requests, want 105", len(log))
	}
	slices.SortFunc(log, func(a, b stamp) int { return a.at.Compare(b.at) })
	end := refusal.Add(time.Second)
	var early, after []string
	for _, s := range log {
		d := s.at.Sub(refusal)
		switch {
		case s.at.Before(refusal) || s.status != http.StatusOK && d == 0:
		case s.at.Before(end):
			early = append(early, fmt.Sprintf("%s at %v", s.uri, d))
		case d > 6*time.Second: // very wide: the machine may be busy
			t.Errorf("%s came %v after the refusal, long after the wait", s.uri, d)
		default:
			after = append(after, s.uri)
		}
	}
	if len(early) > 0 {
		t.Errorf("requests during the wait of 1 s after the refusal: %v", early)
	}
	if len(after) != 1+1+50*2 { // a's retry, b's page 2, the 50 iterations' pages
		t.Errorf("%d requests after the wait, want 102", len(after))
	}
	first := log[0].at
	t.Logf("server-side, from the first request: refusal (429, Retry-After: 1) at %v; first request after it at %v, i.e. %v after the refusal; last request at %v",
		refusal.Sub(first).Round(time.Millisecond), log[len(log)-len(after)].at.Sub(first).Round(time.Millisecond),
		log[len(log)-len(after)].at.Sub(refusal).Round(time.Millisecond), log[len(log)-1].at.Sub(first).Round(time.Millisecond))
}

// TestRateLimiterWakesEveryWaiter has 50 iterations wait on one limiter,
// whose time moves later while they wait: every one of them wakes, after
// the later time, and sends its request.
func TestRateLimiterWakesEveryWaiter(t *testing.T) {
	const n = 50
	limiter := NewRateLimiter(10 * time.Second)
	var mu sync.Mutex
	var sent []time.Time
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		sent = append(sent, time.Now())
		mu.Unlock()
		return &http.Response{StatusCode: 200, Status: "200 OK", Header: http.Header{}, Body: http.NoBody, Request: r}, nil
	})}
	start := time.Now()
	first, later := start.Add(100*time.Millisecond), start.Add(250*time.Millisecond)
	limiter.limit.learned(first)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodGet, "http://api.test/items", nil)
			for _, err := range Pages(context.Background(), client, req, limiter.Option()) {
				errs <- err
			}
		}()
	}
	time.Sleep(50 * time.Millisecond)
	limiter.limit.learned(later)
	limiter.limit.learned(first) // earlier: changes nothing
	wg.Wait()
	reportErrors(t, errs)
	mu.Lock()
	defer mu.Unlock()
	if len(sent) != n {
		t.Fatalf("%d requests, want %d", len(sent), n)
	}
	for _, at := range sent {
		if at.Before(later) {
			t.Errorf("a request at %v, before the limit ended at %v", at.Sub(start), later.Sub(start))
		}
	}
	t.Logf("limit until %v; requests from %v to %v", later.Sub(start), slices.MinFunc(sent, time.Time.Compare).Sub(start), slices.MaxFunc(sent, time.Time.Compare).Sub(start))
}

// TestRateLimiterLaterIterations checks that an iteration started after
// another learned of a limit waits for it before its first request, and
// that a shared limit beyond maxWait ends an iteration at once, sending
// nothing and sleeping nothing.
func TestRateLimiterLaterIterations(t *testing.T) {
	clock := newFakeClock()
	spentOnLast := func(api *scriptedAPI) *http.Client {
		return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			resp, err := api.RoundTrip(r)
			if r.URL.Query().Get("page") == "3" {
				resp.Header.Set("X-RateLimit-Remaining", "0")
				resp.Header.Set("X-RateLimit-Reset", "30")
			}
			return resp, err
		})}
	}
	limiter := NewRateLimiter(time.Minute)
	req, _ := http.NewRequest(http.MethodGet, "http://api.test/items", nil)
	count := func(seq func(func(*http.Response, error) bool)) (pages int, err error) {
		for resp, e := range seq {
			if resp != nil {
				pages++
			}
			err = e
		}
		return pages, err
	}

	// The last page says the limit is spent for 30 s: the iteration ends
	// without waiting; the next one waits 30 s before its first request.
	api := &scriptedAPI{}
	if n, err := count(Pages(context.Background(), spentOnLast(api), req, limiter.Option(), clock.option())); n != 3 || err != nil {
		t.Fatalf("first iteration: %d pages, %v", n, err)
	}
	if s := clock.sleeps(); len(s) != 0 {
		t.Fatalf("first iteration slept %v", s)
	}
	var firstAt time.Time
	api2 := &scriptedAPI{}
	client2 := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if firstAt.IsZero() {
			firstAt = clock.now()
		}
		return api2.RoundTrip(r)
	})}
	if n, err := count(Pages(context.Background(), client2, req, limiter.Option(), clock.option())); n != 3 || err != nil {
		t.Fatalf("second iteration: %d pages, %v", n, err)
	}
	if s := clock.sleeps(); !slices.Equal(s, []time.Duration{30 * time.Second}) || !firstAt.Equal(testNow.Add(30*time.Second)) {
		t.Errorf("second iteration slept %v, first request at %v; want 30s, at %v", s, firstAt, testNow.Add(30*time.Second))
	}

	// A refusal asks for an hour, more than the minute of the limiter: that
	// iteration ends, and so does the next, at once.
	api3 := &scriptedAPI{refusals: []answer{{429, http.Header{"Retry-After": {"3600"}}, ""}}}
	if _, err := count(Pages(context.Background(), api3.client(), req, limiter.Option(), clock.option())); !errors.Is(err, ErrRateLimited) {
		t.Fatalf("third iteration: %v, want ErrRateLimited", err)
	}
	api4 := &scriptedAPI{}
	slept := len(clock.sleeps())
	n, err := count(Pages(context.Background(), api4.client(), req, limiter.Option(), clock.option()))
	if requests, _ := api4.log(); n != 0 || !errors.Is(err, ErrRateLimited) || len(requests) != 0 || len(clock.sleeps()) != slept {
		t.Errorf("fourth iteration: %d pages, %d requests, slept %v, error %v; want nothing sent or slept, ErrRateLimited",
			n, len(requests), clock.sleeps()[slept:], err)
	}
	if err != nil && !strings.Contains(err.Error(), "page 1 of") {
		t.Errorf("error %q does not name page 1", err)
	}

	// WaitRateLimits given after the option: an iteration of its own.
	api5 := &scriptedAPI{}
	if n, err := count(Pages(context.Background(), api5.client(), req, limiter.Option(), WaitRateLimits(time.Minute), clock.option())); n != 3 || err != nil {
		t.Errorf("iteration with WaitRateLimits last: %d pages, %v; want 3, no error", n, err)
	}
	// A nil limiter's option does nothing.
	if n, err := count(Pages(context.Background(), api5.client(), req, (*RateLimiter)(nil).Option())); n != 3 || err != nil {
		t.Errorf("nil limiter: %d pages, %v", n, err)
	}
}

// reportErrors closes errs and reports each error in it.
func reportErrors(t *testing.T, errs chan error) {
	t.Helper()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// TestRateLimiterLaterLimitYieldsRefusal: when a page is refused while the
// shared limiter already knows of a later time (another iteration was told
// to wait longer) that does not fit in what is left of maxWait, the refused
// response is yielded with ErrRateLimited and its *StatusError (rule 2),
// as for a refusal of its own, rather than released unread for an error
// without it.
func TestRateLimiterLaterLimitYieldsRefusal(t *testing.T) {
	limiter := NewRateLimiter(10 * time.Minute)
	clock := newFakeClock()
	api := &scriptedAPI{refusals: []answer{{429, http.Header{"Retry-After": {"5"}}, `{"message": "slow down"}`}}}
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if r.URL.Query().Get("page") == "2" { // meanwhile, another iteration is told to wait an hour
			limiter.limit.learned(clock.now().Add(time.Hour))
		}
		return api.RoundTrip(r)
	})}
	req, _ := http.NewRequest(http.MethodGet, "http://api.test/items", nil)
	var statuses []int
	var bodies []string
	var err error
	for resp, e := range Pages(context.Background(), client, req, limiter.Option(), clock.option()) {
		if resp != nil {
			b, _ := io.ReadAll(resp.Body)
			statuses, bodies = append(statuses, resp.StatusCode), append(bodies, string(b))
		}
		err = e
	}
	var se *StatusError
	if !errors.Is(err, ErrRateLimited) || !errors.As(err, &se) || se.StatusCode != 429 {
		t.Errorf("error %v; want ErrRateLimited with the 429's *StatusError", err)
	}
	if want := []int{200, 429}; !slices.Equal(statuses, want) || bodies[len(bodies)-1] != `{"message": "slow down"}` {
		t.Errorf("yielded %v %q; want %v, the refusal with its body", statuses, bodies, want)
	}
	if s := clock.sleeps(); len(s) != 0 {
		t.Errorf("slept %v; a wait beyond maxWait is not slept", s)
	}
	if requests, open := api.log(); len(requests) != 2 || open != 0 {
		t.Errorf("requests %v, %d bodies open; want pages 1 and 2 once, all closed", requests, open)
	}
}
