module github.com/weblinking/weblink/paging/redisstore

go 1.23.0

replace github.com/weblinking/weblink => ../..

require (
	github.com/google/go-cmp v0.7.0
	github.com/redis/go-redis/v9 v9.17.3
	github.com/weblinking/weblink v0.0.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/dgryski/go-rendezvous v0.0.0-20200823014737-9f7001d12a5f // indirect
	golang.org/x/text v0.28.0 // indirect
)
