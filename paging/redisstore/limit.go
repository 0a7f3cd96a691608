// Package redisstore keeps the stores of package paging in Redis, so that
// every process paging one API with one credential, on one host or many,
// shares them: [Limit], the rate limit (each process takes its requests
// from the count the API last reported, and none is refused), and
// [Pages], the pages kept for conditional requests.
//
// It is a module of its own, so that only its users depend on
// github.com/redis/go-redis/v9. Each method of [Limit]'s store is one Lua
// script, atomic in Redis; its times are the clock of the calling host in
// milliseconds, as an API's reset times are absolute: the hosts' clocks
// must be synchronised (NTP).
//
// Nothing of a request is written to Redis but what the caller gives: the
// key of [Limit] is the caller's, and must not contain the credential
// (name the API, the account and the rate-limit resource instead, as
// "ratelimit:api.github.com:acme-sync:core"); [Pages] names its keys by a
// SHA-256 of the caller's key.
package redisstore

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/weblinking/weblink/paging"
)

// The rules of package paging's store (its rules 12 to 15), in Redis.
const (
	probeLease   = 30 * time.Second           // the probe's lease
	probeWait    = 20 * time.Millisecond      // how long a request waits for the probe's response before asking again
	sameWindow   = time.Second                // resets less than this apart are one window
	keyMargin    = time.Minute                // a key lives this long after its window, refusal and probe have passed
	maxWaitReply = 100 * 365 * 24 * time.Hour // the longest wait Take answers: any stored time beyond reads as this
)

// luaNum is the Lua function num of the scripts: a stored field as a
// number, 0 when it is not one, clamped to ±10^15.
const luaNum = `
local function num(v)
  local n = tonumber(v)
  if n == nil or n ~= n then return 0 end
  return math.min(math.max(n, -1e15), 1e15)
end`

// takeScript reserves one request. KEYS[1] is the state, a hash: until
// (the API refuses requests until then), reset and count (the window
// whose count is known, and what is left of it), free (a response gave no
// count: requests go freely) and probe (the probe's lease ends then); all
// times are Unix milliseconds. ARGV: now, the probe's lease, the wait for
// the probe, the key's margin, the longest wait. It returns the wait in
// milliseconds; 0: send now. A field that is not a number reads as absent
// (0), one beyond ±10^15 (milliseconds: the year 33658) as ±10^15.
var takeScript = redis.NewScript(luaNum + `
local k = KEYS[1]
local now, lease, pwait, margin, maxw = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local h = redis.call('HMGET', k, 'until', 'reset', 'count', 'free', 'probe')
local untilT, reset, count, free, probe = num(h[1]), num(h[2]), num(h[3]), num(h[4]), num(h[5])
local function wait(d) return math.floor(math.min(math.max(d, 1), maxw)) end
if now < untilT then return wait(untilT - now) end
if reset > 0 then
  if now < reset then
    if count >= 1 then
      redis.call('HSET', k, 'count', string.format('%d', math.floor(count) - 1))
      return 0
    end
    return wait(reset - now)
  end
  redis.call('HDEL', k, 'reset', 'count')
end
if free == 1 then return 0 end
if now < probe then return wait(math.min(pwait, probe - now)) end
redis.call('HSET', k, 'probe', string.format('%d', now + lease))
redis.call('PEXPIRE', k, string.format('%d', math.max(untilT, now + lease) - now + margin))
return 0
`)

// learnedScript records what a response said. KEYS[1] is the state (see
// takeScript). ARGV: now, until (0: not refused), remaining (-1: not
// said), reset (0: not said), the span of one window, the key's margin.
var learnedScript = redis.NewScript(luaNum + `
local k = KEYS[1]
local now, u, rem, rs, same, margin = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local h = redis.call('HMGET', k, 'until', 'reset', 'count')
local untilT, reset, count = num(h[1]), num(h[2]), num(h[3])
if u > untilT then
  untilT = u
  redis.call('HSET', k, 'until', string.format('%d', u))
end
if rem < 0 or rs == 0 then
  redis.call('HSET', k, 'free', '1')
  redis.call('HDEL', k, 'reset', 'count', 'probe')
  reset = 0
else
  redis.call('HDEL', k, 'free', 'probe')
  if reset == 0 or now >= reset or rs - reset >= same then
    reset = rs
    redis.call('HSET', k, 'reset', string.format('%d', rs), 'count', string.format('%d', rem))
  elseif reset - rs >= same then
    -- a response of a window that has passed
  else
    redis.call('HSET', k, 'count', string.format('%d', math.min(count, rem)))
    if rs > reset then
      reset = rs
      redis.call('HSET', k, 'reset', string.format('%d', rs))
    end
  end
end
redis.call('PEXPIRE', k, string.format('%d', math.max(untilT, reset, now) - now + margin))
return 0
`)

// limitStore is the paging.LimitStore of Limit.
type limitStore struct {
	c     redis.UniversalClient
	key   string
	now   func() time.Time // the clock; tests set their own
	lease time.Duration    // the probe's lease; tests shorten it
}

// Limit returns a [paging.LimitStore] that keeps the rate-limit state of
// one API, credential and rate-limit resource in Redis under key.
//
// The key holds a hash that expires a minute after the window, the refusal
// and the probe it holds have passed. Give it to [paging.NewSharedRateLimiter] in every
// process that pages the API with the credential; use one key per
// resource whose limit the API counts apart (GitHub's
// X-RateLimit-Resource: core, search, graphql). The key must not contain
// the credential.
//
// Take and Learned are each one Lua script, run atomically by Redis (a
// Redis Cluster keeps the hash on one node); they use the clock of the
// calling host. A state overwritten by something else (a field that is
// not a number, a count of -5 or 10^30, a time in the year 9999) is read
// as bounded values: no wait longer than about 100 years, which no
// maxWait allows; a key of another type is an error, which package paging
// reports to [paging.StoreErrors] and goes on without.
func Limit(c redis.UniversalClient, key string) paging.LimitStore {
	return &limitStore{c: c, key: key, now: time.Now, lease: probeLease}
}

// Take reserves one request by the rules of [paging.LimitStore]: 0 means
// send it now; otherwise wait that long and call Take again.
func (s *limitStore) Take(ctx context.Context) (time.Duration, error) {
	ms, err := takeScript.Run(ctx, s.c, []string{s.key},
		s.now().UnixMilli(), s.lease.Milliseconds(), probeWait.Milliseconds(),
		keyMargin.Milliseconds(), maxWaitReply.Milliseconds()).Int64()
	if err != nil {
		return 0, err
	}
	return time.Duration(min(max(ms, 0), maxWaitReply.Milliseconds())) * time.Millisecond, nil
}

// Learned records what a response said.
func (s *limitStore) Learned(ctx context.Context, l paging.Limit) error {
	return learnedScript.Run(ctx, s.c, []string{s.key},
		s.now().UnixMilli(), unixMilli(l.Until), min(max(l.Remaining, -1), maxMilli), unixMilli(l.Reset),
		sameWindow.Milliseconds(), keyMargin.Milliseconds()).Err()
}

// maxMilli bounds the numbers the scripts are given, as they bound what
// they read: Lua's numbers are float64, exact to 2^53.
const maxMilli = 1e15

// unixMilli is t in Unix milliseconds, 0 for the zero time, bounded by
// maxMilli.
func unixMilli(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return min(max(t.UnixMilli(), 0), maxMilli)
}
