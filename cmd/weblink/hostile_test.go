package main

import (
	"bytes"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

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
