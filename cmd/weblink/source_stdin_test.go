package main

import (
	"bytes"
	"io"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// curlHead is curl -sI output with repeated Link lines in mixed case, one
// of them folded (obs-fold), CRLF line ends.
const curlHead = "HTTP/1.1 200 OK\r\n" +
	"Content-Type: application/json\r\n" +
	"LINK: <https://api.example.com/items?page=3>; rel=\"next\",\r\n" +
	"\t <https://api.example.com/items?page=1>; rel=\"prev\"\r\n" +
	"X-Other: <https://not.a.link/>; rel=\"next\"\r\n" +
	"link: </items?page=9>; rel=\"last\"\r\n" +
	"Link: <https://api.example.com/items?page=1>; rel=first\r\n" +
	"\r\n"

func TestCurlHead(t *testing.T) {
	runCmd(t, curlHead, "-format").want(t, exitOK, ""+
		"<https://api.example.com/items?page=3>; rel=\"next\"\n"+
		"<https://api.example.com/items?page=1>; rel=\"prev\"\n"+
		"</items?page=9>; rel=\"last\"\n"+
		"<https://api.example.com/items?page=1>; rel=\"first\"\n")
	runCmd(t, curlHead, "-rel", "last", "-base", "https://api.example.com/items?page=2").
		want(t, exitOK, "https://api.example.com/items?page=9\n")
	// LF line ends and HTTP/2 status lines work the same.
	lf := strings.ReplaceAll(strings.Replace(curlHead, "HTTP/1.1 200 OK", "HTTP/2 200", 1), "\r\n", "\n")
	runCmd(t, lf, "-rel", "prev").want(t, exitOK, "https://api.example.com/items?page=1\n")
	// Blank lines before the head are skipped.
	runCmd(t, "\r\n\n"+curlHead, "-rel", "first").want(t, exitOK, "https://api.example.com/items?page=1\n")
}

func TestSeveralHeads(t *testing.T) {
	// curl -i with 103 Early Hints, and curl -sIL through a redirect: the
	// last head counts.
	in := "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n" +
		"HTTP/1.1 301 Moved Permanently\r\nLocation: /new\r\nLink: </old>; rel=canonical\r\n\r\n" +
		"HTTP/2 200\r\nlink: </new>; rel=canonical\r\n\r\n" +
		"HTTP/1.1 this body line looks like a head but is not read\r\nLink: </body>; rel=x\r\n"
	runCmd(t, in, "-format").want(t, exitOK, "</new>; rel=\"canonical\"\n")

	// A proxy's answer to CONNECT is followed by the real head.
	in = "HTTP/1.1 200 Connection established\r\n\r\nHTTP/1.1 200 OK\r\nLink: <a>; rel=next\r\n\r\n"
	runCmd(t, in, "-rel", "next").want(t, exitOK, "a\n")

	// curl --digest or --anyauth: the challenge, then the real answer.
	in = "HTTP/1.1 401 Unauthorized\r\nLink: <wrong>; rel=next\r\n\r\nHTTP/1.1 200 OK\r\nLink: <right>; rel=next\r\n\r\n"
	runCmd(t, in, "-rel", "next").want(t, exitOK, "right\n")
	in = "HTTP/1.1 407 Proxy Authentication Required\r\n\r\nHTTP/1.1 200 OK\r\nLink: <right>; rel=next\r\n\r\n"
	runCmd(t, in, "-rel", "next").want(t, exitOK, "right\n")
	// A 401 with a body is the final head.
	in = "HTTP/1.1 401 Unauthorized\r\nLink: <only>; rel=next\r\n\r\nno head here\r\n"
	runCmd(t, in, "-rel", "next").want(t, exitOK, "only\n")

	// An interim head alone is still read.
	runCmd(t, "HTTP/1.1 103 Early Hints\nLink: </s.css>; rel=preload\n", "-rel", "preload").want(t, exitOK, "/s.css\n")
}

// bodyReader fails the test when it is read: the body after the final
// head must not be.
type bodyReader struct{ t *testing.T }

func (b bodyReader) Read([]byte) (int, error) {
	b.t.Error("the body after the head was read")
	return 0, io.EOF
}

func TestHeadStopsBeforeBody(t *testing.T) {
	head := "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nLink: <b>; rel=next\r\n\r\n"
	in := io.MultiReader(strings.NewReader(head), bodyReader{t})
	runWith(t, in, nil, "-rel", "next").want(t, exitOK, "b\n")

	// A body larger than the limit does not matter either.
	in = io.MultiReader(strings.NewReader(head), strings.NewReader(strings.Repeat("x", 2*maxInput)))
	runWith(t, in, nil, "-rel", "next").want(t, exitOK, "b\n")
}

func TestHeadWithoutLinks(t *testing.T) {
	r := runCmd(t, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><a href=x>")
	r.want(t, exitNone, "")
	if r.stderr != "weblink: no links found\n" {
		t.Errorf("stderr %q", r.stderr)
	}
}

func TestHeaderBlock(t *testing.T) {
	in := "content-type: text/plain\nLiNk: <a>; rel=next,\n    <b>; rel=prev\nnot a header line\nLink: <c>; rel=last\n\nLink: <body>; rel=x\n"
	runCmd(t, in, "-format").want(t, exitOK, "<a>; rel=\"next\"\n<b>; rel=\"prev\"\n<c>; rel=\"last\"\n")
	// Offsets in a folded line are in the joined value.
	r := runCmd(t, "Link: <a>; rel=next,\n  oops\n", "-check")
	r.want(t, exitProblem, "<a>; rel=next, oops\n               ^\nline 1, byte 15: error: link-value must start with \"<\" (expected <URI-Reference>; params...); link-value dropped; start each link-value with its target in angle brackets, as in </page/2>; rel=\"next\"\n1 link: 1 error, 0 warnings\n")
}

func TestLinkValuesOnStdin(t *testing.T) {
	// Link field values and application/linkset: line breaks are whitespace.
	in := "<https://a.example/1>; rel=next,\n<https://a.example/2>;\n  rel=\"prev\"; title=\"two\"\n"
	runCmd(t, in, "-format").want(t, exitOK, "<https://a.example/1>; rel=\"next\"\n<https://a.example/2>; rel=\"prev\"; title=\"two\"\n")
	runCmd(t, "", "-format").want(t, exitNone, "")
	runCmd(t, "\n \n", "-format").want(t, exitNone, "")
}

func TestLinksetJSONInput(t *testing.T) {
	in := `  {"linkset": [
	  {"anchor": "https://example.org/item",
	   "next": [{"href": "https://example.org/item?p=2", "type": "text/html"}]},
	  {"describedby": [{"href": "/meta", "title": "About"}]}]}`
	runCmd(t, in, "-rel", "next").want(t, exitOK, "https://example.org/item?p=2\n")
	runCmd(t, in, "-rel", "describedby", "-base", "https://example.org/x").want(t, exitOK, "https://example.org/meta\n")

	r := runCmd(t, `{"linkset": [{"next": [{"type": "text/html"}]}]}`)
	r.want(t, exitMalformed, "")
	r.wantErr(t, "line 1, byte 43: invalid linkset: linkset[0].next[0].href: missing")
	// -check shows the place with a caret, from the offset of the
	// *weblink.LinksetError, on the line where it is.
	r = runCmd(t, "\n{\"linkset\": [\n 7]}", "-check")
	r.want(t, exitProblem, ""+
		" 7]}\n"+
		" ^\n"+
		"line 3, byte 15: error: invalid linkset: linkset[0]: must be a link context object (RFC 9264 §4.2.2), found a number\n"+
		"0 links: 1 error, 0 warnings\n")
	r = runCmd(t, `{"linkset": [}`, "-check")
	r.want(t, exitProblem, ""+
		"{\"linkset\": [}\n"+
		"             ^\n"+
		"line 1, byte 13: error: invalid linkset: invalid JSON: invalid character '}' looking for beginning of value\n"+
		"0 links: 1 error, 0 warnings\n")
}

func TestInputTooLarge(t *testing.T) {
	for _, in := range []string{
		strings.Repeat("<a>; rel=next, ", maxInput/15+1),
		"HTTP/1.1 200 OK\r\nLink: <" + strings.Repeat("a", maxInput) + ">; rel=next\r\n\r\n",
		"X: y\n" + strings.Repeat("Z: a\n", maxInput/5+1),
	} {
		r := runCmd(t, in)
		r.want(t, exitNone, "")
		r.wantErr(t, "input larger than 1 MiB (1048576 bytes)")
	}
	// Exactly 1 MiB is not too large.
	in := "<a>; rel=next" + strings.Repeat(" ", maxInput-len("<a>; rel=next"))
	runCmd(t, in, "-rel", "next").want(t, exitOK, "a\n")
}

func TestRedirectsMoveTheBase(t *testing.T) {
	// curl -sIL: each Location moves the base, resolved against the one
	// before, from -base on; the final head's links resolve against the
	// URL the redirects led to.
	in := "HTTP/1.1 301 Moved Permanently\r\nLocation: /b/new?x=1\r\nLink: </old>; rel=canonical\r\n\r\n" +
		"HTTP/1.1 302 Found\r\nLocation: ../c/\r\n\r\n" +
		"HTTP/1.1 307 Temporary Redirect\r\nlocation: https://other.example/d/\r\n\r\n" +
		"HTTP/1.1 308 Permanent Redirect\r\nLocation: e\r\n\r\n" +
		"HTTP/2 200\r\nlink: <f>; rel=next\r\n\r\n"
	runBinary(t, in, "-rel", "next", "-base", "https://a.example/a/start").want(t, exitOK, "https://other.example/d/f\n")
	runBinary(t, in, "-next", "-base", "https://a.example/a/start").want(t, exitOK, "https://other.example/d/f\n")
	// -json anchors the links at the final URL.
	r := runBinary(t, in, "-json", "-base", "https://a.example/a/start")
	if r.code != exitOK || !strings.Contains(r.stdout, `"anchor": "https://other.example/d/e"`) {
		t.Errorf("exit %d, stdout %s", r.code, r.stdout)
	}
	// Two redirects on one origin, the second relative to the first.
	in = "HTTP/1.1 301 Moved\r\nLocation: /v2/items\r\n\r\nHTTP/1.1 302 Found\r\nLocation: ?page=1\r\n\r\n" +
		"HTTP/1.1 200 OK\r\nLink: <?page=2>; rel=next\r\n\r\n"
	runBinary(t, in, "-next", "-base", "https://api.example.com/items").want(t, exitOK, "https://api.example.com/v2/items?page=2\n")
	// Without -base, an absolute Location is the base; a relative one
	// leaves the links as written.
	in = "HTTP/1.1 301 Moved\r\nLocation: https://a.example/x/\r\n\r\nHTTP/1.1 200 OK\r\nLink: <y>; rel=next\r\n\r\n"
	runBinary(t, in, "-rel", "next").want(t, exitOK, "https://a.example/x/y\n")
	in = "HTTP/1.1 301 Moved\r\nLocation: /x/\r\n\r\nHTTP/1.1 200 OK\r\nLink: <y>; rel=next\r\n\r\n"
	runBinary(t, in, "-rel", "next").want(t, exitOK, "y\n")
	// The userinfo of a Location is not kept.
	in = "HTTP/1.1 301 Moved\r\nLocation: https://u:secret@a.example/x/\r\n\r\nHTTP/1.1 200 OK\r\nLink: <y>; rel=next\r\n\r\n"
	runBinary(t, in, "-rel", "next").want(t, exitOK, "https://a.example/x/y\n")
}

func TestFinalHeadOnly(t *testing.T) {
	// -rel, -format and -json take the links of the final head; the table
	// shows those of the 103 too, in its FROM column.
	in := "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n" +
		"HTTP/1.1 200 OK\r\nLink: </style.css>; rel=preload; as=style, </next>; rel=next\r\n\r\n"
	runBinary(t, in, "-rel", "preload").want(t, exitOK, "/style.css\n")
	runBinary(t, in, "-format").want(t, exitOK, "</style.css>; rel=\"preload\"; as=style\n</next>; rel=\"next\"\n")
	r := runBinary(t, in, "-json", "-base", "https://a.example/")
	if r.code != exitOK || strings.Count(r.stdout, "style.css") != 1 {
		t.Errorf("-json: exit %d, stdout %s", r.code, r.stdout)
	}
	runBinary(t, in).want(t, exitOK, ""+
		"FROM   REL      TARGET      ATTRIBUTES\n"+
		"103    preload  /style.css  as=style\n"+
		"final  preload  /style.css  as=style\n"+
		"final  next     /next\n")
}

func TestByteOrderMark(t *testing.T) {
	// A UTF-8 byte order mark before the input is skipped, whatever the
	// input is.
	for _, in := range []string{
		"\ufeffHTTP/1.1 200 OK\r\nLink: <a>; rel=next\r\n\r\n",
		"\ufeffLink: <a>; rel=next\r\n",
		"\ufeff<a>; rel=next\n",
		"\ufeff{\"linkset\": [{\"anchor\": \"https://x.example/\", \"next\": [{\"href\": \"a\"}]}]}",
	} {
		r := runBinary(t, in, "-rel", "next")
		if r.code != exitOK || !strings.HasSuffix(r.stdout, "a\n") || strings.Count(r.stdout, "\n") != 1 || r.stderr != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", in, r.code, r.stdout, r.stderr)
		}
	}
	// A link-format document too (before: "line 1, byte 0: link-value
	// must start with "<"").
	runBinary(t, "\ufeff</a>;rel=next", "-linkformat", "-rel", "next").want(t, exitOK, "/a\n")
}

func TestFinalHeadTemplates(t *testing.T) {
	// -json takes the Link-Template fields of the final head only, as it
	// takes its links; the table shows those of a 103 too, marked so.
	in := "HTTP/1.1 103 Early Hints\r\nLink-Template: \"/hint/{x}\"; rel=\"item\"\r\nLink: </a.css>; rel=preload; as=style\r\n\r\n" +
		"HTTP/1.1 200 OK\r\nLink-Template: \"/final/{x}\"; rel=\"item\"\r\nLink: </b>; rel=next\r\n\r\n"
	r := runBinary(t, in, "-json")
	if r.code != exitOK || strings.Contains(r.stdout, "/hint/") || !strings.Contains(r.stdout, `"template": "/final/{x}"`) {
		t.Errorf("-json: exit %d, stdout %s", r.code, r.stdout)
	}
	runBinary(t, in).want(t, exitOK, ""+
		"FROM          REL      TARGET      ATTRIBUTES\n"+
		"103           preload  /a.css      as=style\n"+
		"final         next     /b\n"+
		"103 template  item     /hint/{x}\n"+
		"template      item     /final/{x}\n")
	// A 103 with only templates, then a final head without any: -json
	// has none.
	in = "HTTP/1.1 103 Early Hints\r\nLink-Template: \"/hint/{x}\"; rel=\"item\"\r\n\r\nHTTP/1.1 200 OK\r\nLink: </b>; rel=next\r\n\r\n"
	r = runBinary(t, in, "-json")
	if r.code != exitOK || strings.Contains(r.stdout, "link-template") {
		t.Errorf("-json, a 103's template only: exit %d, stdout %s", r.code, r.stdout)
	}
	// The same through -url.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link-Template", `"/hint/{x}"; rel="item"`)
		w.WriteHeader(http.StatusEarlyHints)
		w.Header().Set("Link-Template", `"/final/{x}"; rel="item"`)
		w.Header().Set("Link", "</b>; rel=next")
	}))
	defer srv.Close()
	r = runBinary(t, "", "-url", srv.URL, "-json")
	if r.code != exitOK || strings.Contains(r.stdout, "/hint/") || !strings.Contains(r.stdout, `"template": "/final/{x}"`) {
		t.Errorf("-url -json: exit %d, stdout %s", r.code, r.stdout)
	}
}

// modes are the output modes, for running an input through each.
var modes = [][]string{{}, {"-rel", "next"}, {"-json"}, {"-check"}, {"-format"},
	{"-next", "-base", "https://a.example/b/c?d"}, {"-json", "-base", "https://u:p@a.example/"}}

func TestBinaryStdin(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	bin := make([]byte, 64<<10)
	rng.Read(bin)
	for _, in := range []string{
		string(bin),
		"\x00\x01\x02\xff\xfe",
		"HTTP/1.1 200 OK\r\nLink: \x00<\xff>; rel=\"\x1b]0;x\x07\"\r\n\r\n",
		"{\x00",
		"Link: <\xc3>; rel=next; title=\"\xff\x1b[2J\"\n",
	} {
		for _, args := range modes {
			r := runCmd(t, in, args...)
			if r.code != exitOK && r.code != exitNone && r.code != exitProblem && r.code != exitMalformed {
				t.Errorf("%q: exit %d", args, r.code)
			}
			if len(args) != 2 && strings.ContainsAny(r.stdout, "\x00\x07\x1b") {
				t.Errorf("%q: control characters reach stdout: %q", args, r.stdout)
			}
		}
	}
	r := runCmd(t, string(bin))
	r.want(t, exitMalformed, "")
	if !strings.HasSuffix(r.stderr, "weblink: no links found\n") {
		t.Errorf("stderr ends %q", r.stderr[max(len(r.stderr)-100, 0):])
	}
}

func TestHugeLine(t *testing.T) {
	// A 1 MB line starting with "<" that never closes it.
	in := "<" + strings.Repeat("a", 1_000_000)
	r := runCmd(t, in, "-check")
	// Also: the field value is longer than 4 KiB (rule 29).
	r.want(t, exitProblem, "<"+strings.Repeat("a", 39)+"...\n^\n"+
		"line 1, byte 0: error: \"<\" is never closed by \">\"; link-value dropped; close the target with \">\"\n"+
		"<"+strings.Repeat("a", 39)+"...\n^\n"+
		"line 1, byte 0: warning: the field value is longer than 4 KiB from this link-value on: it will not fit nginx's default proxy buffer (proxy_buffer_size, one 4 KiB page for the whole response head), which answers 502 Bad Gateway; send fewer links, or put the rest in the page or a linkset (RFC 9264)\n"+
		"0 links: 1 error, 1 warning\n")

	// The same target closed: one link, shown whole by -rel, cut in -check.
	in += ">; rel=Next; x"
	runCmd(t, in, "-rel", "next").want(t, exitOK, in[1:1_000_001]+"\n")
	r = runCmd(t, in, "-check")
	if r.code != exitOK || len(r.stdout) > 700 || !strings.HasSuffix(r.stdout, "1 link: 0 errors, 2 warnings\n") {
		t.Errorf("-check of a 1 MB target: exit %d, %d bytes: %.700q", r.code, len(r.stdout), r.stdout)
	}

	// A problem in the middle of a 1 MB line: the caret is under it in a
	// window of the line.
	in = strings.Repeat("<a>; rel=next, ", 30000) + "oops, " + strings.Repeat("<b>; rel=prev, ", 30000)
	r = runCmd(t, in, "-check")
	after := "oops, " + strings.Repeat("<b>; rel=prev, ", 3)
	want := "..." + strings.Repeat("<a>; rel=next, ", 4) + after[:40] + "...\n" +
		strings.Repeat(" ", 63) + "^\n" +
		"line 1, byte 450000: error: link-value must start with \"<\" (expected <URI-Reference>; params...); link-value dropped; start each link-value with its target in angle brackets, as in </page/2>; rel=\"next\"\n"
	// After the warning that the field is longer than 4 KiB (rule 29).
	if r.code != exitProblem || !strings.Contains(r.stdout, want) || !strings.HasSuffix(r.stdout, "60000 links: 2 errors, 1 warning\n") || !strings.Contains(r.stdout, "line 1, byte 900004: error: a trailing comma") {
		t.Errorf("exit %d:\n%.1000s", r.code, r.stdout)
	}
}

func TestManyLinkValues(t *testing.T) {
	// 200 000 link-values fit in 1 MiB when most are short: every tenth
	// has a relation type and a numbered target.
	const n = 200_000
	var b bytes.Buffer
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		if i%10 == 9 {
			b.WriteString("<" + strconv.Itoa(i) + ">;rel=x")
		} else {
			b.WriteString("<a>")
		}
	}
	if b.Len() > maxInput {
		t.Fatalf("input is %d bytes", b.Len())
	}
	in := b.String()
	r := runCmd(t, in, "-rel", "x")
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if r.code != exitOK || len(lines) != n/10 || lines[0] != "9" || lines[len(lines)-1] != strconv.Itoa(n-1) {
		t.Errorf("-rel x: exit %d, %d lines, first %q, last %q", r.code, len(lines), lines[0], lines[len(lines)-1])
	}
	r = runCmd(t, in, "-format")
	if r.code != exitOK || strings.Count(r.stdout, "\n") != n || !strings.HasSuffix(r.stdout, "\n<a>\n<199999>; rel=\"x\"\n") {
		t.Errorf("-format: exit %d, %d lines", r.code, strings.Count(r.stdout, "\n"))
	}
	r = runCmd(t, in, "-check")
	if r.code != exitProblem || !strings.HasSuffix(r.stdout, "200000 links: 256 errors listed (more were found: see above), 20000 warnings\n") ||
		// Counted with them: the warning that the field is longer than
		// 4 KiB (rule 29).
		!strings.Contains(r.stdout, ": error: 179746 more problems not listed") {
		t.Errorf("-check: exit %d, ends %q", r.code, r.stdout[max(len(r.stdout)-200, 0):])
	}
	r = runCmd(t, in)
	if r.code != exitOK || strings.Count(r.stdout, "\n") != n+2 {
		t.Errorf("table: exit %d, %d lines", r.code, strings.Count(r.stdout, "\n"))
	}
}

func FuzzStdin(f *testing.F) {
	f.Add(curlHead, 0)
	f.Add("<a>; rel=next, b, <c", 3)
	f.Add("Link: <a>;\n rel=\"x y\"; title*=UTF-8'en'%C3%A9\n\nbody", 1)
	f.Add(`{"linkset":[{"next":[{"href":"a"}]}]}`, 2)
	f.Add("HTTP/1.1 103 x\n\nHTTP/1.1 200\nLink: <\xff>\n", 4)
	f.Add("\ufeffHTTP/1.1 301 x\nLocation: //h\xff/%zz\n\nHTTP/1.1 308\nLocation: ../x?y#z\n\nHTTP/1.1 200\nLink: <a>; rel=next; anchor=\"#f\"\n", 5)
	f.Add("HTTP/1.1 302 x\nLocation: http://[::1\n\nHTTP/1.1 200\nLink: <a>; rel=next\n", 6)
	f.Add("< HTTP/2 200\r\n< link: <a>; rel=next\r\n<\n < x\n\n<!doctype html>", 0)
	f.Add(" link-template: \"/{x\"; rel=\"item\"; var-base=\"a b\"\n\tlink: <a>,\n\"{\"; anchor=\"}\"", 3)
	f.Fuzz(func(t *testing.T, in string, mode int) {
		args := modes[uint(mode)%uint(len(modes))]
		r := runCmd(t, in, args...)
		if r.code < exitOK || r.code > exitMalformed {
			t.Errorf("exit %d", r.code)
		}
		// The same text as an argument.
		r = runCmd(t, "", append([]string{in}, args...)...)
		if r.code < exitOK || r.code > exitMalformed {
			t.Errorf("exit %d", r.code)
		}
	})
}
