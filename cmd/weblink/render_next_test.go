package main

import (
	"strings"
	"testing"
)

func TestNext(t *testing.T) {
	// -next prints the one URL that weblink.NextURL follows, or nothing
	// with exit status 1.
	const page = "https://api.example.com/mine"
	for _, c := range []struct {
		name  string
		args  []string
		stdin string
		code  int
		want  string
	}{
		{"the issue's header: the anchored next is another resource's",
			[]string{"-next", "-base", page, `</other?page=2>; rel=next; anchor="/other", </mine?page=2>; rel=next`}, "",
			exitOK, page + "?page=2\n"},
		{"the first of two next links", []string{"-next", "-base", page, `<?page=2>; rel=next, <?page=3>; rel=next`}, "",
			exitOK, page + "?page=2\n"},
		{"an anchor that is the page", []string{"-next", "-base", page, `<?page=2>; rel=next; anchor="https://api.example.com/mine"`}, "",
			exitOK, page + "?page=2\n"},
		{"an anchor that is a fragment of the page", []string{"-next", "-base", page, `<?page=2>; rel="prev next"; anchor="#x"`}, "",
			exitOK, page + "?page=2\n"},
		{"REL=NEXT", []string{"-next", "-base", page, `<?page=2>; REL=NEXT`}, "", exitOK, page + "?page=2\n"},
		{"without a base, as written", []string{"-next", `</mine?page=2>; rel=next`}, "", exitOK, "/mine?page=2\n"},
		{"without a base, absolute", []string{"-next", `<https://api.example.com/mine?page=2>; rel=next`}, "", exitOK, page + "?page=2\n"},
		{"without a base, an anchor elsewhere", []string{"-next", `</other?page=2>; rel=next; anchor="/other"`}, "", exitNone, ""},
		{"only another resource's next", []string{"-next", "-base", page, `</other?page=2>; rel=next; anchor="/other"`}, "", exitNone, ""},
		{"no next link", []string{"-next", "-base", page, `<?page=1>; rel=prev`}, "", exitNone, ""},
		{"no links", []string{"-next"}, "HTTP/1.1 200 OK\r\n\r\n", exitNone, ""},
		{"a head from curl", []string{"-next", "-base", page}, "HTTP/2 200\r\nlink: <?page=2>; rel=next\r\n\r\n", exitOK, page + "?page=2\n"},
		{"a 103's next link is not the page's", []string{"-next", "-base", page},
			"HTTP/1.1 103 Early Hints\r\nLink: <?page=9>; rel=next\r\n\r\nHTTP/1.1 200 OK\r\n\r\n", exitNone, ""},
	} {
		r := runBinary(t, c.stdin, c.args...)
		stderr := "" // a relative URL printed says that -base resolves it; before, nothing
		if c.want != "" && !strings.Contains(c.want, "://") {
			stderr = "weblink: the next link is relative; -base with the URL of the page resolves it: curl -sI \"$u\" | weblink -next -base \"$u\"\n"
		}
		if r.code != c.code || r.stdout != c.want || r.stderr != stderr {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %d, %q and %q", c.name, r.code, r.stdout, r.stderr, c.code, c.want, stderr)
		}
	}
	// With -url, the next link of the response.
	u := serve(t, &api{pages: 3, anchored: true})
	runBinary(t, "", "-url", u+"/items?page=1", "-next").want(t, exitOK, u+"/items?page=2\n")
	runBinary(t, "", "-url", u+"/items?page=3", "-next").want(t, exitNone, "")
}

func TestNextUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-next", "-rel", "next", "<a>; rel=next"},
		{"-next", "-json", "<a>; rel=next"},
		{"-next", "-all", "-url", "https://example.com/"},
	} {
		r := runBinary(t, "", args...)
		if r.code != exitProblem || r.stdout != "" || !strings.Contains(r.stderr, "cannot be combined") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
}
