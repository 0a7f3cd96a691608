module github.com/weblinking/weblink/bench

go 1.23.0

replace github.com/weblinking/weblink => ../

require (
	github.com/peterhellberg/link v1.2.0
	github.com/tomnomnom/linkheader v0.0.0-20250811210735-e5fe3b51442e
	github.com/weblinking/weblink v0.0.0-00010101000000-000000000000
)

require golang.org/x/text v0.28.0 // indirect
