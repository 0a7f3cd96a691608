package bench

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-github/v75/github"
	"github.com/weblinking/weblink/paging"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// clientPages is how many pages the ClientPages server has, and
// clientPerPage how many issues each holds.
const (
	clientPages   = 10
	clientPerPage = 30
)

// issuesServer starts, on 127.0.0.1, a GitHub-shaped issues API: any path,
// ?page=1 to ?page=10 (1 without the parameter), a JSON array of 30 issues
// a page, and a Link header with next and last (and prev and first after
// page 1), in GitHub's order and with absolute targets, as api.github.com
// sends them. Bodies and headers are built once, so that the server's work
// is the same small share of every client's figure.
func issuesServer(tb testing.TB) *httptest.Server {
	tb.Helper()
	srv := httptest.NewUnstartedServer(nil)
	target := func(page int) string {
		return "<http://" + srv.Listener.Addr().String() + "/repositories/1300192/issues?page=" + strconv.Itoa(page) + ">"
	}
	bodies := make([][]byte, clientPages+1)
	links := make([]string, clientPages+1)
	for p := 1; p <= clientPages; p++ {
		var b strings.Builder
		b.WriteByte('[')
		for i := range clientPerPage {
			if i > 0 {
				b.WriteByte(',')
			}
			n := (p-1)*clientPerPage + i + 1
			fmt.Fprintf(&b, `{"id":%d,"number":%d,"title":"Issue number %d","state":"open","comments":%d,"user":{"login":"octocat","id":1}}`, 1000+n, n, n, n%7)
		}
		b.WriteByte(']')
		bodies[p] = []byte(b.String())
		var ls []string
		if p > 1 {
			ls = append(ls, target(p-1)+`; rel="prev"`)
		}
		if p < clientPages {
			ls = append(ls, target(p+1)+`; rel="next"`, target(clientPages)+`; rel="last"`)
		}
		if p > 1 {
			ls = append(ls, target(1)+`; rel="first"`)
		}
		links[p] = strings.Join(ls, ", ")
	}
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := 1
		if s := r.URL.Query().Get("page"); s != "" {
			var err error
			if p, err = strconv.Atoi(s); err != nil || p < 1 || p > clientPages {
				http.Error(w, "no such page", http.StatusNotFound)
				return
			}
		}
		h := w.Header()
		h.Set("Content-Type", "application/json; charset=utf-8")
		if links[p] != "" {
			h.Set("Link", links[p])
		}
		w.Write(bodies[p])
	})
	srv.Start()
	tb.Cleanup(srv.Close)
	return srv
}

// pagers are the clients ClientPages compares: each pages through the whole
// issues API of srv and returns how many issues it read.
var pagers = []struct {
	name string
	run  func(ctx context.Context, srv *httptest.Server) (int, error)
}{
	{"weblink", weblinkIssues},
	{"go-github", githubIssues},
	{"gitlab", gitlabIssues},
}

// weblinkIssues pages with paging.Items and JSONItems, decoding into
// go-github's own Issue type so that the decoding is the same work as
// go-github's.
func weblinkIssues(ctx context.Context, srv *httptest.Server) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/repos/o/r/issues", nil)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, err := range paging.Items(ctx, srv.Client(), req, paging.JSONItems[github.Issue]) {
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// githubIssues pages with go-github's Issues.ListByRepo, following
// Response.NextPage (which its populatePageValues reads from the Link
// header), as go-github's documentation shows.
func githubIssues(ctx context.Context, srv *httptest.Server) (int, error) {
	client, err := githubClient(srv)
	if err != nil {
		return 0, err
	}
	opt := &github.IssueListByRepoOptions{ListOptions: github.ListOptions{PerPage: clientPerPage}}
	n := 0
	for {
		issues, resp, err := client.Issues.ListByRepo(ctx, "o", "r", opt)
		if err != nil {
			return n, err
		}
		n += len(issues)
		if resp.NextPage == 0 {
			return n, nil
		}
		opt.ListOptions.Page = resp.NextPage
	}
}

// githubClient is a go-github client of srv.
func githubClient(srv *httptest.Server) (*github.Client, error) {
	client := github.NewClient(srv.Client())
	u, err := client.BaseURL.Parse(srv.URL + "/")
	if err != nil {
		return nil, err
	}
	client.BaseURL = u
	return client, nil
}

// gitlabIssues pages with gitlab client-go's Issues.ListProjectIssues,
// following Response.NextLink (which its populateLinkValues reads from the
// Link header) with WithKeysetPaginationParameters, as client-go's
// documentation shows for keyset pagination.
func gitlabIssues(ctx context.Context, srv *httptest.Server) (int, error) {
	client, err := gitlabClient(srv)
	if err != nil {
		return 0, err
	}
	opt := &gitlab.ListProjectIssuesOptions{ListOptions: gitlab.ListOptions{PerPage: clientPerPage}}
	var reqOpts []gitlab.RequestOptionFunc
	n := 0
	for {
		issues, resp, err := client.Issues.ListProjectIssues(1, opt, append(reqOpts, gitlab.WithContext(ctx))...)
		if err != nil {
			return n, err
		}
		n += len(issues)
		if resp.NextLink == "" {
			return n, nil
		}
		reqOpts = []gitlab.RequestOptionFunc{gitlab.WithKeysetPaginationParameters(resp.NextLink)}
	}
}

// gitlabClient is a gitlab client-go client of srv, without retries.
func gitlabClient(srv *httptest.Server) (*gitlab.Client, error) {
	return gitlab.NewClient("", gitlab.WithBaseURL(srv.URL+"/api/v4"),
		gitlab.WithHTTPClient(srv.Client()), gitlab.WithoutRetries())
}

// TestClientPagesAllIssues checks that every client of ClientPages reads
// the 300 issues of the 10 pages, so that the benchmark compares the same
// work.
func TestClientPagesAllIssues(t *testing.T) {
	srv := issuesServer(t)
	for _, p := range pagers {
		n, err := p.run(context.Background(), srv)
		if err != nil || n != clientPages*clientPerPage {
			t.Errorf("%s: %d issues, error %v; want %d, no error", p.name, n, err, clientPages*clientPerPage)
		}
	}
}

// BenchmarkClientPages pages through the 10 pages of a GitHub-shaped issues
// API served on 127.0.0.1 with each client: paging.Items, go-github and
// gitlab client-go. An operation is the 10 requests, their responses
// decoded; the server's and the loopback's work is in every figure.
func BenchmarkClientPages(b *testing.B) {
	srv := issuesServer(b)
	ctx := context.Background()
	for _, p := range pagers {
		b.Run("impl="+p.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				n, err := p.run(ctx, srv)
				if err != nil || n != clientPages*clientPerPage {
					b.Fatalf("%d issues, error %v", n, err)
				}
				sink += n
			}
		})
	}
}
