module github.com/weblinking/weblink

go 1.23.0

require (
	github.com/dunglas/httpsfv v1.1.2
	github.com/google/go-cmp v0.7.0
	golang.org/x/net v0.43.0
	golang.org/x/text v0.28.0
)
