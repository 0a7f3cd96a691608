package paging

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

// limitStep is a step of a limitCase: at testNow+at, Take (when learn is
// nil), which must answer want, or Learned(*learn).
type limitStep struct {
	at    time.Duration
	learn *Limit
	want  time.Duration
}

// counted is a Limit of remaining requests until testNow+reset.
func counted(remaining int, reset time.Duration) *Limit {
	return &Limit{Remaining: remaining, Reset: testNow.Add(reset)}
}

// refusedUntil is a Limit that says no count, refused until testNow+d.
func refusedUntil(d time.Duration) *Limit {
	return &Limit{Remaining: -1, Until: testNow.Add(d)}
}

var noCount = &Limit{Remaining: -1}

// limitCases are rules 12 to 14 (the store's), step by step.
var limitCases = []struct {
	rule  int
	name  string
	steps []limitStep
}{
	{12, "refused until a time: wait for it", []limitStep{
		{0, noCount, 0}, {0, refusedUntil(5 * time.Second), 0},
		{time.Second, nil, 4 * time.Second}, {5 * time.Second, nil, 0}}},
	{12, "the later Until is kept", []limitStep{
		{0, refusedUntil(9 * time.Second), 0}, {0, refusedUntil(3 * time.Second), 0},
		{4 * time.Second, nil, 5 * time.Second}}},
	{13, "a count is taken one by one, then the reset is waited for", []limitStep{
		{0, counted(2, 10*time.Second), 0},
		{0, nil, 0}, {0, nil, 0}, {time.Second, nil, 9 * time.Second}}},
	{13, "the first request is the probe; the others wait for its response", []limitStep{
		{0, nil, 0}, {0, nil, probeWait}, {10 * time.Millisecond, nil, probeWait},
		{20 * time.Millisecond, counted(5, time.Minute), 0}, {20 * time.Millisecond, nil, 0}}},
	{13, "the probe's lease ends after 30 s", []limitStep{
		{0, nil, 0}, {probeLease - 5*time.Millisecond, nil, 5 * time.Millisecond},
		{probeLease, nil, 0}, {probeLease, nil, probeWait}}},
	{13, "a window that has reset: the count is unknown again, one probe", []limitStep{
		{0, counted(0, time.Second), 0}, {500 * time.Millisecond, nil, 500 * time.Millisecond},
		{time.Second, nil, 0}, {time.Second, nil, probeWait}}},
	{13, "a response without a count: requests go freely", []limitStep{
		{0, nil, 0}, {0, noCount, 0}, {0, nil, 0}, {0, nil, 0}, {0, nil, 0}}},
	{13, "a count without a reset is no count", []limitStep{
		{0, &Limit{Remaining: 0}, 0}, {0, nil, 0}, {0, nil, 0}}},
	{13, "free until a response has a count", []limitStep{
		{0, noCount, 0}, {0, counted(1, time.Minute), 0}, {0, nil, 0}, {0, nil, time.Minute}}},
	{14, "the same window: the lower count (requests in flight stay counted)", []limitStep{
		{0, counted(3, time.Minute), 0}, {0, nil, 0}, {0, nil, 0}, // 1 left, 2 in flight
		{0, counted(2, time.Minute), 0}, // the first answered: 2 said, 1 kept
		{0, nil, 0}, {0, nil, time.Minute}}},
	{14, "the same window: another client spent some", []limitStep{
		{0, counted(50, time.Minute), 0}, {0, counted(1, time.Minute), 0},
		{0, nil, 0}, {0, nil, time.Minute}}},
	{14, "a later reset starts a new window with its count", []limitStep{
		{0, counted(0, time.Minute), 0}, {0, counted(7, 2*time.Minute), 0},
		{0, nil, 0}}},
	{14, "a response of a window that has passed changes no count", []limitStep{
		{0, counted(5, 2*time.Second), 0}, {0, counted(0, time.Second), 0},
		{0, nil, 0}}},
	{14, "resets less than a second apart are one window", []limitStep{
		{0, counted(1, 10*time.Second), 0}, {0, counted(9, 10*time.Second+900*time.Millisecond), 0},
		{0, nil, 0}, {0, nil, 10*time.Second + 900*time.Millisecond}}},
}

func TestLimitRules(t *testing.T) {
	for _, tc := range limitCases {
		t.Run("rule "+strconv.Itoa(tc.rule)+": "+tc.name, func(t *testing.T) {
			var m memLimits
			for i, s := range tc.steps {
				now := testNow.Add(s.at)
				if s.learn != nil {
					m.learnedAt(now, *s.learn)
					continue
				}
				if got := m.takeAt(now); got != s.want {
					t.Fatalf("step %d: Take at +%v = %v, want %v", i, s.at, got, s.want)
				}
			}
		})
	}
}

// TestMemoryLimitStore checks the methods of the in-memory LimitStore on
// the host's clock: a count of one is taken, then the reset is waited for.
func TestMemoryLimitStore(t *testing.T) {
	var m memLimits
	ctx := context.Background()
	if err := m.Learned(ctx, Limit{Remaining: 1, Reset: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if d, err := m.Take(ctx); d != 0 || err != nil {
		t.Fatalf("Take = %v, %v; want 0", d, err)
	}
	if d, _ := m.Take(ctx); d < 59*time.Minute || d > time.Hour {
		t.Errorf("Take = %v, want about an hour", d)
	}
}

// recordingStore is a LimitStore that records what it learns and answers
// Take with take (nil: 0).
type recordingStore struct {
	mu      sync.Mutex
	learned []Limit
	takes   int
	take    func(ctx context.Context, n int) (time.Duration, error)
	learn   func(ctx context.Context) error
}

func (s *recordingStore) Take(ctx context.Context) (time.Duration, error) {
	s.mu.Lock()
	s.takes++
	n := s.takes
	s.mu.Unlock()
	if s.take == nil {
		return 0, nil
	}
	return s.take(ctx, n)
}

func (s *recordingStore) Learned(ctx context.Context, l Limit) error {
	s.mu.Lock()
	s.learned = append(s.learned, l)
	s.mu.Unlock()
	if s.learn == nil {
		return nil
	}
	return s.learn(ctx)
}

// TestLearnedFromResponses checks rule 15: what each response says feeds
// Learned, on the pager's clock.
func TestLearnedFromResponses(t *testing.T) {
	reset := strconv.FormatInt(testNow.Add(time.Hour).Unix(), 10)
	for _, tc := range []struct {
		name   string
		status int
		h      http.Header
		body   string
		want   Limit
	}{
		{"GitHub 2xx", 200, http.Header{"X-Ratelimit-Remaining": {"4999"}, "X-Ratelimit-Reset": {reset}},
			"", Limit{Remaining: 4999, Reset: testNow.Add(time.Hour)}},
		{"GitLab 2xx, seconds", 200, http.Header{"Ratelimit-Remaining": {"7"}, "Ratelimit-Reset": {"30"}},
			"", Limit{Remaining: 7, Reset: testNow.Add(30 * time.Second)}},
		{"both families: the lower count", 200, http.Header{"X-Ratelimit-Remaining": {"9"}, "X-Ratelimit-Reset": {"9"}, "Ratelimit-Remaining": {"3"}, "Ratelimit-Reset": {"3"}},
			"", Limit{Remaining: 3, Reset: testNow.Add(3 * time.Second)}},
		{"a spent 2xx", 200, http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {reset}},
			"", Limit{Remaining: 0, Reset: testNow.Add(time.Hour)}},
		{"no fields", 200, http.Header{}, "", Limit{Remaining: -1}},
		{"a count of 10^30", 200, http.Header{"X-Ratelimit-Remaining": {"1000000000000000000000000000000"}, "X-Ratelimit-Reset": {"1"}},
			"", Limit{Remaining: 1e9, Reset: testNow.Add(time.Second)}},
		{"a count of -5", 200, http.Header{"X-Ratelimit-Remaining": {"-5"}, "X-Ratelimit-Reset": {"1"}}, "", Limit{Remaining: -1}},
		{"a 404 with a count", 404, http.Header{"X-Ratelimit-Remaining": {"12"}, "X-Ratelimit-Reset": {"60"}},
			"", Limit{Remaining: 12, Reset: testNow.Add(time.Minute)}},
		{"403 spent: refused until the reset", 403, http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {reset}},
			"", Limit{Remaining: 0, Reset: testNow.Add(time.Hour), Until: testNow.Add(time.Hour)}},
		{"429 Retry-After wins over a count of 0", 429, http.Header{"Retry-After": {"5"}, "X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {reset}},
			"", Limit{Remaining: -1, Until: testNow.Add(5 * time.Second)}},
		{"403 secondary limit: the backoff of rule 1", 403, http.Header{"X-Ratelimit-Remaining": {"4000"}, "X-Ratelimit-Reset": {reset}},
			"You have exceeded a secondary rate limit", Limit{Remaining: 4000, Reset: testNow.Add(time.Hour), Until: testNow.Add(time.Minute)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tc.h {
					w.Header()[k] = v
				}
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
			store := &recordingStore{}
			clock := newFakeClock()
			for range Pages(context.Background(), nil, req, NewSharedRateLimiter(time.Minute, store).Option(), MaxPages(1), clock.option()) {
				break // a refused page is requested again before one is yielded
			}
			if len(store.learned) == 0 || store.learned[0] != tc.want {
				t.Errorf("learned %+v, want %+v", store.learned, tc.want)
			}
		})
	}
}

// pagedServer serves pages 1 to last, each with a next link but the last,
// and header h.
func pagedServer(t *testing.T, last int, h http.Header) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range h {
			w.Header()[k] = v
		}
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		if page < last && page >= 0 {
			w.Header().Set("Link", `<?page=`+strconv.Itoa(max(page, 1)+1)+`>; rel="next"`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestHostileStore checks rule 17: what a store answers is bounded. A
// wait past maxWait is not slept; a wait of 1 ns is 10 ms; a negative one
// none; "wait 0" always lets each request go, one per response.
func TestHostileStore(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answer  time.Duration
		pages   int
		slept   time.Duration // in all, on the fake clock
		limited bool
	}{
		{"wait 0 always", 0, 5, 0, false},
		{"negative", -5 * time.Second, 5, 0, false},
		{"1 ns, again and again", time.Nanosecond, 0, 0, true},
		{"past time.Duration's hours", time.Duration(1<<63 - 1), 0, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := pagedServer(t, 5, nil)
			req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
			store := &recordingStore{take: func(context.Context, int) (time.Duration, error) { return tc.answer, nil }}
			clock := newFakeClock()
			n := 0
			var err error
			for _, err = range Pages(context.Background(), nil, req, NewSharedRateLimiter(time.Second, store).Option(), clock.option()) {
				if err != nil {
					break
				}
				n++
			}
			var slept time.Duration
			for _, s := range clock.sleeps() {
				slept += s
				if tc.answer > 0 && s < minStoreWait {
					t.Errorf("slept %v, less than %v", s, minStoreWait)
				}
			}
			if n != tc.pages || errors.Is(err, ErrRateLimited) != tc.limited || slept > time.Second {
				t.Errorf("%d pages, error %v, slept %v; want %d pages, rate limited %v, at most 1s", n, err, slept, tc.pages, tc.limited)
			}
			if tc.limited && store.takes > 101 {
				t.Errorf("the store was asked %d times in 1s of waits", store.takes)
			}
		})
	}
}

// BenchmarkMemoryTakeLearned measures a request's work in the in-memory
// store of NewRateLimiter: one Take and one Learned.
func BenchmarkMemoryTakeLearned(b *testing.B) {
	var m memLimits
	ctx := context.Background()
	l := Limit{Remaining: 1 << 30, Reset: time.Now().Add(time.Hour)}
	_ = m.Learned(ctx, l)
	b.ReportAllocs()
	for range b.N {
		if d, _ := m.Take(ctx); d != 0 {
			b.Fatal(d)
		}
		_ = m.Learned(ctx, l)
	}
}

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
