module github.com/weblinking/weblink/bench

go 1.24.0

replace github.com/weblinking/weblink => ../

require (
	github.com/google/go-github/v75 v75.0.0
	github.com/peterhellberg/link v1.2.0
	github.com/tomnomnom/linkheader v0.0.0-20250811210735-e5fe3b51442e
	github.com/weblinking/weblink v0.0.0-00010101000000-000000000000
	gitlab.com/gitlab-org/api/client-go v1.46.0
)

require (
	github.com/google/go-querystring v1.2.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	golang.org/x/oauth2 v0.34.0 // indirect
	golang.org/x/text v0.32.0 // indirect
	golang.org/x/time v0.14.0 // indirect
)
