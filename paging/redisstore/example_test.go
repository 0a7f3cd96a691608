package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/weblinking/weblink/paging"
	"github.com/weblinking/weblink/paging/redisstore"
)

type issue struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
}

// Example is a worker of a pool that syncs a GitHub organisation with one
// token: run it in as many processes, on as many hosts, as you like; they
// take their requests from one count in Redis, and GitHub refuses none of
// them. (It needs a Redis server and GitHub, so it is not run as a test.)
func Example() {
	ctx := context.Background()
	opt, err := redis.ParseURL(os.Getenv("REDIS_URL")) // redis://localhost:6379/0
	if err != nil {
		log.Fatal(err)
	}
	opt.DialerRetries = 1 // a Redis that went away costs one dial a request
	c := redis.NewClient(opt)
	defer c.Close()

	// One key per API, credential and rate-limit resource; never the token.
	limiter := paging.NewSharedRateLimiter(15*time.Minute,
		redisstore.Limit(c, "ratelimit:api.github.com:acme-sync:core"))

	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "https://api.github.com/repos/acme/"+os.Args[1]+"/issues?per_page=100", nil)
	req.Header.Set("Authorization", "Bearer "+os.Getenv("GITHUB_TOKEN"))
	for it, err := range paging.Items(ctx, nil, req, paging.JSONItems[issue], limiter.Option(),
		paging.StoreErrors(func(err error) { log.Print(err) })) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(it.Number, it.Title)
	}
}

// ExampleLimit shares GitHub's core and search limits, which GitHub counts
// apart (X-RateLimit-Resource), between processes: one key each.
func ExampleLimit() {
	c := redis.NewClient(&redis.Options{Addr: "localhost:6379", DialerRetries: 1})
	defer c.Close()
	core := paging.NewSharedRateLimiter(15*time.Minute, redisstore.Limit(c, "ratelimit:api.github.com:acme-sync:core"))
	search := paging.NewSharedRateLimiter(15*time.Minute, redisstore.Limit(c, "ratelimit:api.github.com:acme-sync:search"))
	_, _ = core, search // core.Option() for /repos/..., search.Option() for /search/...
}

// ExamplePages keeps pages in Redis for a day, and tells a page too large
// to keep, or a value changed in Redis, from other errors.
func ExamplePages() {
	ctx := context.Background()
	c := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
	defer c.Close()
	store := redisstore.Pages(c, "pages:acme-sync:", 24*time.Hour)
	err := store.Put(ctx, "https://api.example/items?page=2", paging.StoredPage{
		URL:    "https://api.example/items?page=2",
		Header: http.Header{"Etag": {`"v7"`}},
		Body:   []byte(`[3, 4]`),
	})
	if errors.Is(err, redisstore.ErrTooLarge) {
		log.Print("not kept: ", err)
	}
	p, ok, err := store.Get(ctx, "https://api.example/items?page=2")
	switch {
	case errors.Is(err, redisstore.ErrCorrupt):
		log.Print("ignored: ", err) // request the page afresh
	case err != nil:
		log.Print(err)
	case ok:
		fmt.Println(p.Header.Get("ETag"))
	}
}

// ExampleErrTooLarge: a page whose body is over 8 MiB is not kept (and
// Redis is not asked).
func ExamplePages_errTooLarge() {
	c := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
	defer c.Close()
	err := redisstore.Pages(c, "pages:", time.Hour).Put(context.Background(), "k", paging.StoredPage{Body: make([]byte, 9<<20)})
	fmt.Println(errors.Is(err, redisstore.ErrTooLarge))
	// Output: true
}

// ExampleErrCorrupt: a value changed in Redis is an error, never a page.
func ExamplePages_errCorrupt() {
	ctx := context.Background()
	c := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
	defer c.Close()
	_, ok, err := redisstore.Pages(c, "pages:", time.Hour).Get(ctx, "k")
	if errors.Is(err, redisstore.ErrCorrupt) {
		fmt.Println(ok) // false: no page comes with it
	}
}
