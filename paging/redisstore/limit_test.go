package redisstore

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/weblinking/weblink/paging"
)

var testNow = time.Date(2026, 12, 1, 13, 0, 0, 0, time.UTC)

// step is a step of a rule case: at testNow+at, Take (when learn is nil),
// which must answer want, or Learned(*learn).
type step struct {
	at    time.Duration
	learn *paging.Limit
	want  time.Duration
}

func counted(remaining int, reset time.Duration) *paging.Limit {
	return &paging.Limit{Remaining: remaining, Reset: testNow.Add(reset)}
}

func refusedUntil(d time.Duration) *paging.Limit {
	return &paging.Limit{Remaining: -1, Until: testNow.Add(d)}
}

var noCount = &paging.Limit{Remaining: -1}

// TestLimitRules checks the store's rules (rules 12 to 14 of package
// paging) in Redis, step by step on a clock of the test's.
func TestLimitRules(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	for i, tc := range []struct {
		rule  int
		name  string
		steps []step
	}{
		{12, "refused until a time: wait for it", []step{
			{0, noCount, 0}, {0, refusedUntil(5 * time.Second), 0},
			{time.Second, nil, 4 * time.Second}, {5 * time.Second, nil, 0}}},
		{12, "the later Until is kept", []step{
			{0, refusedUntil(9 * time.Second), 0}, {0, refusedUntil(3 * time.Second), 0},
			{4 * time.Second, nil, 5 * time.Second}}},
		{13, "a count is taken one by one, then the reset is waited for", []step{
			{0, counted(2, 10*time.Second), 0},
			{0, nil, 0}, {0, nil, 0}, {time.Second, nil, 9 * time.Second}}},
		{13, "the first request is the probe; the others wait for its response", []step{
			{0, nil, 0}, {0, nil, probeWait}, {10 * time.Millisecond, nil, probeWait},
			{20 * time.Millisecond, counted(5, time.Minute), 0}, {20 * time.Millisecond, nil, 0}}},
		{13, "the probe's lease ends after 30 s", []step{
			{0, nil, 0}, {probeLease - 5*time.Millisecond, nil, 5 * time.Millisecond},
			{probeLease, nil, 0}, {probeLease, nil, probeWait}}},
		{13, "a window that has reset: the count is unknown again, one probe", []step{
			{0, counted(0, time.Second), 0}, {500 * time.Millisecond, nil, 500 * time.Millisecond},
			{time.Second, nil, 0}, {time.Second, nil, probeWait}}},
		{13, "a response without a count: requests go freely", []step{
			{0, nil, 0}, {0, noCount, 0}, {0, nil, 0}, {0, nil, 0}, {0, nil, 0}}},
		{13, "a count without a reset is no count", []step{
			{0, &paging.Limit{Remaining: 0}, 0}, {0, nil, 0}, {0, nil, 0}}},
		{13, "free until a response has a count", []step{
			{0, noCount, 0}, {0, counted(1, time.Minute), 0}, {0, nil, 0}, {0, nil, time.Minute}}},
		{14, "the same window: the lower count (requests in flight stay counted)", []step{
			{0, counted(3, time.Minute), 0}, {0, nil, 0}, {0, nil, 0},
			{0, counted(2, time.Minute), 0},
			{0, nil, 0}, {0, nil, time.Minute}}},
		{14, "the same window: another client spent some", []step{
			{0, counted(50, time.Minute), 0}, {0, counted(1, time.Minute), 0},
			{0, nil, 0}, {0, nil, time.Minute}}},
		{14, "a later reset starts a new window with its count", []step{
			{0, counted(0, time.Minute), 0}, {0, counted(7, 2*time.Minute), 0},
			{0, nil, 0}}},
		{14, "a response of a window that has passed changes no count", []step{
			{0, counted(5, 2*time.Second), 0}, {0, counted(0, time.Second), 0},
			{0, nil, 0}}},
		{14, "resets less than a second apart are one window", []step{
			{0, counted(1, 10*time.Second), 0}, {0, counted(9, 10*time.Second+900*time.Millisecond), 0},
			{0, nil, 0}, {0, nil, 10*time.Second + 900*time.Millisecond}}},
	} {
		t.Run("rule "+strconv.Itoa(tc.rule)+": "+tc.name, func(t *testing.T) {
			var now time.Time
			s := &limitStore{c: c, key: "rules:" + strconv.Itoa(i), now: func() time.Time { return now }, lease: probeLease}
			ctx := context.Background()
			for j, st := range tc.steps {
				now = testNow.Add(st.at)
				if st.learn != nil {
					if err := s.Learned(ctx, *st.learn); err != nil {
						t.Fatal(err)
					}
					continue
				}
				got, err := s.Take(ctx)
				if err != nil || got != st.want {
					t.Fatalf("step %d: Take at +%v = %v, %v; want %v", j, st.at, got, err, st.want)
				}
			}
		})
	}
}

// TestLimitExpires checks that the state's key expires a minute after its
// window and refusal have passed, on the host's clock.
func TestLimitExpires(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	ctx := context.Background()
	s := Limit(c, "expires")
	reset := time.Now().Add(10 * time.Second)
	if err := s.Learned(ctx, paging.Limit{Remaining: 5, Reset: reset, Until: time.Now().Add(20 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	ttl, err := c.PTTL(ctx, "expires").Result()
	if err != nil || ttl < 79*time.Second || ttl > 80*time.Second {
		t.Errorf("PTTL = %v, %v; want 80 s (the refusal's 20 s and a minute)", ttl, err)
	}
}

// TestLimitHostileValues checks rule 17 for a state overwritten by
// something else: Take answers a bounded wait, never an error or a panic
// for values, and paging ends within its maxWait; a key of another type is
// a store error, and paging goes on.
func TestLimitHostileValues(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	ctx := context.Background()
	future := strconv.FormatInt(time.Now().Add(time.Hour).UnixMilli(), 10)
	year9999 := strconv.FormatInt(time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(), 10)
	for _, tc := range []struct {
		name   string
		fields []string
		pages  int // pages paged, of 3, within a maxWait of 1 s
	}{
		{"garbage", []string{"until", "\x00garbage", "reset", "nan", "count", "inf", "free", "x", "probe", "-inf"}, 3},
		{"count -5", []string{"reset", future, "count", "-5"}, 0},
		{"count 10^30", []string{"reset", future, "count", "1e30"}, 3},
		{"until the year 9999", []string{"until", year9999}, 0},
		{"reset 10^30", []string{"reset", "1e30", "count", "0"}, 0},
		{"probe held for ever", []string{"probe", "1e30"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			key := "hostile:" + tc.name
			if err := c.HSet(ctx, key, tc.fields).Err(); err != nil {
				t.Fatal(err)
			}
			d, err := Limit(c, key).Take(ctx)
			if err != nil || d < 0 || d > maxWaitReply {
				t.Errorf("Take = %v, %v; want a wait from 0 to %v", d, err, maxWaitReply)
			}
			// The same state again, for paging: Take may have taken the probe.
			if err := c.Del(ctx, key).Err(); err != nil {
				t.Fatal(err)
			}
			if err := c.HSet(ctx, key, tc.fields).Err(); err != nil {
				t.Fatal(err)
			}
			n, err := pageThree(t, Limit(c, key), nil)
			if n != tc.pages || (n < 3) != errors.Is(err, paging.ErrRateLimited) {
				t.Errorf("%d pages, error %v; want %d", n, err, tc.pages)
			}
		})
	}
	t.Run("a key of another type", func(t *testing.T) {
		if err := c.RPush(ctx, "hostile:list", "x").Err(); err != nil {
			t.Fatal(err)
		}
		var reported atomic.Int32
		n, err := pageThree(t, Limit(c, "hostile:list"), func(error) { reported.Add(1) })
		if n != 3 || err != nil || reported.Load() != 6 {
			t.Errorf("%d pages, error %v, %d store errors; want 3, none, 6", n, err, reported.Load())
		}
	})
}

// pageThree pages 3 pages with store and a maxWait of 1 s, and returns
// how many it yielded and the error that ended them.
func pageThree(t *testing.T, store paging.LimitStore, errs func(error)) (int, error) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Query().Get("page"); p != "3" {
			w.Header().Set("Link", `<?page=`+map[string]string{"": "2", "2": "3"}[p]+`>; rel="next"`)
		}
	}))
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	n := 0
	start := time.Now()
	for _, err := range paging.Pages(context.Background(), nil, req, paging.NewSharedRateLimiter(time.Second, store).Option(), paging.StoreErrors(errs)) {
		if err != nil {
			return n, err
		}
		n++
	}
	if d := time.Since(start); d > 5*time.Second { // wide slack for a loaded machine
		t.Errorf("took %v with a maxWait of 1s", d)
	}
	return n, nil
}

// TestLimitStoresNoCredential checks rule 18: paging with a token and a
// shared store writes nothing of the request into Redis: one key, the
// caller's, whose fields and values are numbers.
func TestLimitStoresNoCredential(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	ctx := context.Background()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Remaining", "4999")
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10))
		if r.URL.Query().Get("page") == "" {
			w.Header().Set("Link", `<?page=2>; rel="next"`)
		}
	}))
	defer api.Close()
	req, _ := http.NewRequest(http.MethodGet, api.URL+"/repos/o/r/issues", nil)
	req.Header.Set("Authorization", "Bearer ghp_secret")
	for _, err := range paging.Pages(ctx, nil, req, paging.NewSharedRateLimiter(time.Minute, Limit(c, "ratelimit:github:acme:core")).Option()) {
		if err != nil {
			t.Fatal(err)
		}
	}
	keys, err := c.Keys(ctx, "*").Result()
	if err != nil || len(keys) != 1 || keys[0] != "ratelimit:github:acme:core" {
		t.Fatalf("keys %q, %v; want the caller's only", keys, err)
	}
	state, err := c.HGetAll(ctx, keys[0]).Result()
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range state {
		if _, err := strconv.ParseInt(v, 10, 64); err != nil || strings.Contains(k+v, "ghp_") || strings.Contains(k+v, "127.0.0.1") {
			t.Errorf("field %q = %q, want a number", k, v)
		}
	}
	// The API said 4999 twice; the second request was taken from it, and
	// the lower count of the window is kept (rule 14).
	if state["count"] != "4998" {
		t.Errorf("state %v, want count 4998", state)
	}
}

// BenchmarkTakeLearned measures a request's round trips to Redis on
// loopback: one Take and one Learned.
func BenchmarkTakeLearned(b *testing.B) {
	srv := startRedis(b)
	c := srv.client(b)
	ctx := context.Background()
	s := Limit(c, "bench")
	l := paging.Limit{Remaining: 1 << 30, Reset: time.Now().Add(time.Hour)}
	if err := s.Learned(ctx, l); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if d, err := s.Take(ctx); d != 0 || err != nil {
			b.Fatal(d, err)
		}
		if err := s.Learned(ctx, l); err != nil {
			b.Fatal(err)
		}
	}
}

var _ redis.UniversalClient = (*redis.Client)(nil)
