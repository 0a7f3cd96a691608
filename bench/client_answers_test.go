package bench

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/weblinking/weblink"
)

// clientCases are Link headers on which the API clients' pagination reads
// differently from RFC 8288. In lines, {base} stands for the test server's
// URL. next is the correct answer, the one weblink.NextURL gives (after
// {base} is replaced; "" for no next link). github is the Response.NextPage
// go-github returns today (0: no next page, the paging stops), gitlab the
// Response.NextLink gitlab client-go returns today, or gitlabPanics when
// its client call panics: peer behaviour, not a specification.
var clientCases = []struct {
	name         string
	lines        []string
	next         string
	github       int
	gitlab       string
	gitlabPanics bool
}{
	{
		name:   "GitHub pagination",
		lines:  []string{`<{base}/issues?page=2>; rel="next", <{base}/issues?page=10>; rel="last"`},
		next:   `{base}/issues?page=2`,
		github: 2,
		gitlab: `{base}/issues?page=2`,
	},
	{
		// gitlab splits on ",", then on ";", and takes what follows the
		// "=" of the second piece: " draft\"" has none, and the index
		// [1] panics, inside ListProjectIssues.
		name:         "quoted comma and semicolon in a title",
		lines:        []string{`<{base}/issues?page=2>; rel="next"; title="Page 2, part 1; draft"`},
		next:         `{base}/issues?page=2`,
		github:       2,
		gitlabPanics: true,
	},
	{
		// A quoted comma alone leaves gitlab a piece with no ";", which
		// it skips: right, by luck.
		name:   "quoted comma in a title",
		lines:  []string{`<{base}/issues?page=2>; rel="next"; title="Issues, newest first"`},
		next:   `{base}/issues?page=2`,
		github: 2,
		gitlab: `{base}/issues?page=2`,
	},
	{
		// Any parameter without a value in second place panics gitlab
		// too (RFC 8288 §3 allows it: "link-param = token BWS [ "=" ...").
		name:         "valueless parameter",
		lines:        []string{`<{base}/issues?page=2>; crossorigin; rel="next"`},
		next:         `{base}/issues?page=2`,
		github:       2,
		gitlabPanics: true,
	},
	{
		// gitlab takes the second piece for rel, whatever its name.
		name:   "rel after another parameter",
		lines:  []string{`<{base}/issues?page=2>; title="Page 2"; rel="next"`},
		next:   `{base}/issues?page=2`,
		github: 2,
		gitlab: "",
	},
	{
		// A comma is allowed in a URI (RFC 3986 sub-delims). go-github's
		// first piece no longer ends with ">", so the next link is lost and
		// paging stops after page 1; gitlab's next link is "ui", what it
		// trims from the second piece.
		name:   "comma in the target",
		lines:  []string{`<{base}/issues?page=2&labels=bug,ui>; rel="next"`},
		next:   `{base}/issues?page=2&labels=bug,ui`,
		github: 0,
		gitlab: "ui",
	},
	{
		// RFC 8288 §3: relation-types may be a token, unquoted; go-github
		// compares the whole parameter with `rel="next"`.
		name:   "unquoted rel",
		lines:  []string{`<{base}/issues?page=2>; rel=next`},
		next:   `{base}/issues?page=2`,
		github: 0,
		gitlab: `{base}/issues?page=2`,
	},
	{
		// RFC 8288 §2.1.1: relation types compare case-insensitively.
		name:   "upper-case rel",
		lines:  []string{`<{base}/issues?page=2>; REL="NEXT"`},
		next:   `{base}/issues?page=2`,
		github: 0,
		gitlab: "",
	},
	{
		// RFC 8288 §3.3: next of another resource (the anchor), not of
		// this page; both clients follow it.
		name:   "next link anchored elsewhere",
		lines:  []string{`<{base}/issues?page=2>; rel="next"; anchor="{base}/other"`},
		next:   "",
		github: 2,
		gitlab: `{base}/issues?page=2`,
	},
	{
		// RFC 9110 §5.3: field lines of one name are one list; both
		// clients read the first line only.
		name:   "next link on a second field line",
		lines:  []string{`<{base}/issues?page=1>; rel="first"`, `<{base}/issues?page=2>; rel="next"`},
		next:   `{base}/issues?page=2`,
		github: 0,
		gitlab: "",
	},
	{
		// RFC 8288 §3.3: rel holds a space-separated list of types.
		name:   "several relation types",
		lines:  []string{`<{base}/issues?page=2>; rel="next last"`},
		next:   `{base}/issues?page=2`,
		github: 0,
		gitlab: "",
	},
}

// TestClientAnswers asserts, through the public APIs of go-github and
// gitlab client-go, calls to a server on 127.0.0.1 that answers with the
// Link field lines of each clientCases entry, what each client takes for
// the next page, against the answer of weblink.NextURL.
func TestClientAnswers(t *testing.T) {
	for _, c := range clientCases {
		t.Run(c.name, func(t *testing.T) {
			var lines []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header()["Link"] = lines
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte("[]"))
			}))
			defer srv.Close()
			expand := func(s string) string { return strings.ReplaceAll(s, "{base}", srv.URL) }
			for _, l := range c.lines {
				lines = append(lines, expand(l))
			}

			if got, want := weblinkNext(t, srv), expand(c.next); got != want {
				t.Errorf("weblink.NextURL = %q, want %q", got, want)
			}
			if got := githubNextPage(t, srv); got != c.github {
				t.Errorf("go-github NextPage = %d, want (peer behaviour) %d; the correct next link is %q", got, c.github, expand(c.next))
			}
			got, panicked := gitlabNextLink(t, srv)
			switch {
			case panicked != "" && !c.gitlabPanics:
				t.Errorf("gitlab client-go panicked (%s), want (peer behaviour) NextLink %q; the correct next link is %q", panicked, expand(c.gitlab), expand(c.next))
			case panicked == "" && c.gitlabPanics:
				t.Errorf("gitlab client-go NextLink = %q, want (peer behaviour) a panic; the correct next link is %q", got, expand(c.next))
			case panicked == "" && got != expand(c.gitlab):
				t.Errorf("gitlab client-go NextLink = %q, want (peer behaviour) %q; the correct next link is %q", got, expand(c.gitlab), expand(c.next))
			}
		})
	}
}

// weblinkNext is weblink.NextURL of a GET of srv, "" for none.
func weblinkNext(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	resp, err := srv.Client().Get(srv.URL + "/issues?page=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	u, ok := weblink.NextURL(resp)
	if !ok {
		return ""
	}
	return u.String()
}

// githubNextPage is go-github's Response.NextPage of Issues.ListByRepo on srv.
func githubNextPage(t *testing.T, srv *httptest.Server) int {
	t.Helper()
	client, err := githubClient(srv)
	if err != nil {
		t.Fatal(err)
	}
	_, resp, err := client.Issues.ListByRepo(context.Background(), "o", "r", nil)
	if err != nil {
		t.Fatal(err)
	}
	return resp.NextPage
}

// gitlabNextLink is gitlab client-go's Response.NextLink of
// Issues.ListProjectIssues on srv, or, when the call panics, the panic's
// value as text.
func gitlabNextLink(t *testing.T, srv *httptest.Server) (next, panicked string) {
	t.Helper()
	client, err := gitlabClient(srv)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if v := recover(); v != nil {
			panicked = fmt.Sprint(v)
		}
	}()
	_, resp, err := client.Issues.ListProjectIssues(1, nil)
	if err != nil {
		t.Fatal(err)
	}
	return resp.NextLink, ""
}
