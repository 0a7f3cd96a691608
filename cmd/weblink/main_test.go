package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// binary is the weblink command built by TestMain, for the tests that need
// a real process.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "weblink-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "weblink")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building weblink:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is what one run of the command gave.
type result struct {
	stdout, stderr string
	code           int
}

// runWith runs the command in-process with stdin and the environment env.
func runWith(t *testing.T, stdin io.Reader, env map[string]string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, stdin, &stdout, &stderr, func(k string) string { return env[k] })
	return result{stdout.String(), stderr.String(), code}
}

// runCmd runs the command in-process with stdin holding in.
func runCmd(t *testing.T, in string, args ...string) result {
	t.Helper()
	return runWith(t, strings.NewReader(in), nil, args...)
}

// want fails the test unless r has the exit status code and the exact
// stdout.
func (r result) want(t *testing.T, code int, stdout string) {
	t.Helper()
	if r.code != code {
		t.Errorf("exit status %d, want %d (stderr %q)", r.code, code, r.stderr)
	}
	if r.stdout != stdout {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, stdout)
	}
}

// wantErr fails the test unless stderr is a "weblink: " error holding msg.
func (r result) wantErr(t *testing.T, msg string) {
	t.Helper()
	if !strings.HasPrefix(r.stderr, "weblink: ") || !strings.Contains(r.stderr, msg) {
		t.Errorf("stderr %q, want a weblink: error with %q", r.stderr, msg)
	}
}

func TestTable(t *testing.T) {
	r := runCmd(t, "",
		`<https://api.example.com/items?page=2>; rel="next"`,
		`</a>; rel="nxt prev"; title=Hi; type=text/html; crossorigin; hreflang=en; hreflang=de; anchor="#s"; media="screen and (x)"`,
		"-base", "https://example.org/dir/")
	r.want(t, exitOK, ""+
		"REL        TARGET                                TITLE  ATTRIBUTES\n"+
		"next       https://api.example.com/items?page=2\n"+
		"nxt? prev  https://example.org/a                 Hi     anchor=https://example.org/dir/#s hreflang=en hreflang=de media=\"screen and (x)\" type=text/html crossorigin\n"+
		"? unregistered relation type\n")
	if r.stderr != "" {
		t.Errorf("stderr %q", r.stderr)
	}
}

func TestTableColumnsAndCleaning(t *testing.T) {
	// Without a base, targets stay as written; empty columns are left out;
	// control characters never reach the terminal.
	r := runCmd(t, "", `</a>; rel=next`, `<>; rel=self; title="bell\`+"\x07"+`"; foo="`+"\x1b"+`[31m"`)
	r.want(t, exitOK, ""+
		"REL   TARGET  TITLE     ATTRIBUTES\n"+
		"next  /a\n"+
		"self          bell\\x07  foo=\\x1b[31m\n")
	r = runCmd(t, "", `<a>; title=no-rel`)
	r.want(t, exitOK, "REL  TARGET  TITLE\n-    a       no-rel\n")
}

// terminals says which standard files a fake run treats as terminals.
type terminals struct{ stdin, stdout, stderr bool }

// runFake runs the command in-process with stdin holding in, the
// environment vars, the terminals term and a clock that moves a second
// each time it is read.
func runFake(t *testing.T, in io.Reader, vars map[string]string, term terminals, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	e := env{
		stdin: in, stdout: &stdout, stderr: &stderr,
		getenv:        func(k string) string { return vars[k] },
		stdinTerminal: term.stdin, stdoutTerminal: term.stdout, stderrTerminal: term.stderr,
		now: func() time.Time { clock = clock.Add(time.Second); return clock },
	}
	code := runEnv(context.Background(), args, e)
	return result{stdout.String(), stderr.String(), code}
}

func TestColour(t *testing.T) {
	plain := "REL          TARGET\nnext frist?  a\n? unregistered relation type\n"
	coloured := bold + "REL" + reset + "          " + bold + "TARGET" + reset + "\n" +
		"next " + yellow + "frist?" + reset + "  a\n? unregistered relation type\n"
	for _, c := range []struct {
		vars map[string]string
		term bool
		want string
	}{
		{nil, true, coloured},
		{map[string]string{"NO_COLOR": "1"}, true, plain},
		{map[string]string{"NO_COLOR": ""}, true, coloured},
		{map[string]string{"TERM": "dumb"}, true, plain},
		{map[string]string{"TERM": "xterm"}, true, coloured},
		{nil, false, plain},
	} {
		r := runFake(t, strings.NewReader(""), c.vars, terminals{stdout: c.term}, `<a>; rel="next frist"`)
		if r.code != exitOK || r.stdout != c.want {
			t.Errorf("%v, terminal %v: exit %d, stdout %q, want %q", c.vars, c.term, r.code, r.stdout, c.want)
		}
	}
}

func TestIsTerminal(t *testing.T) {
	// Neither a pipe, nor a buffer, nor the null device (a character
	// device, like a terminal) is a terminal.
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, f := range []any{devnull, r, w, &bytes.Buffer{}, nil} {
		if isTerminal(f) {
			t.Errorf("isTerminal(%T) = true", f)
		}
	}
}

func TestNoColourOnPipe(t *testing.T) {
	cmd := exec.Command(binary, `<a>; rel="next frist"`)
	cmd.Env = append(os.Environ(), "NO_COLOR=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "REL          TARGET\nnext frist?  a\n? unregistered relation type\n"
	if string(out) != want {
		t.Errorf("output %q, want %q", out, want)
	}
}

func TestExitStatusOfBinary(t *testing.T) {
	for _, c := range []struct {
		args   []string
		stdin  string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"-rel", "next", `<a>; rel=next`}, "", 0, "a\n", ""},
		{[]string{}, "Content-Type: text/plain\n\nbody", 1, "", "weblink: no links found\n"},
		{[]string{"-rel", "prev", `<a>; rel=next`}, "", 1, "", "weblink: no link has relation type \"prev\"\n"},
		{[]string{"-nope"}, "", 2, "", "weblink: flag provided but not defined: -nope\nRun weblink -h for usage.\n"},
		{[]string{"-check", `<a>; rel=next`, `b`}, "", 2, "", ""},
		{[]string{"-check", `<a>; rel=next`}, "", 0, "1 link: 0 errors, 0 warnings\n", ""},
	} {
		r := runBinary(t, c.stdin, c.args...)
		code := r.code
		if code != c.code {
			t.Errorf("weblink %q: exit status %d, want %d", c.args, code, c.code)
		}
		if c.stdout != "" && r.stdout != c.stdout {
			t.Errorf("weblink %q: stdout %q, want %q", c.args, r.stdout, c.stdout)
		}
		if r.stderr != c.stderr {
			t.Errorf("weblink %q: stderr %q, want %q", c.args, r.stderr, c.stderr)
		}
	}
}

func TestTerminalStdin(t *testing.T) {
	// A terminal on stdin with no arguments: a usage error with a worked
	// example, rather than waiting for input.
	r := runFake(t, strings.NewReader(""), nil, terminals{stdin: true})
	r.want(t, exitProblem, "")
	if r.stderr != example || !strings.Contains(example, `weblink '<https://api.example.com/items?page=2>; rel="next"'`) {
		t.Errorf("stderr %q, want the example", r.stderr)
	}
	// A terminal on stdin does not matter with arguments or -url.
	runFake(t, strings.NewReader(""), nil, terminals{stdin: true}, "-rel", "next", "<a>; rel=next").want(t, exitOK, "a\n")
}

func TestEmptyInput(t *testing.T) {
	// </dev/null and an empty pipe are the same empty input: exit status 1.
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	for name, stdin := range map[string]func() io.Reader{
		"/dev/null":  func() io.Reader { return devnull },
		"empty pipe": func() io.Reader { return strings.NewReader("") },
	} {
		cmd := exec.Command(binary)
		cmd.Stdin = stdin()
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != exitNone || stdout.String() != "" || stderr.String() != "weblink: no links found\n" {
			t.Errorf("%s: %v, stdout %q, stderr %q", name, err, stdout.String(), stderr.String())
		}
	}
}

func TestHelp(t *testing.T) {
	var o options
	fs := newFlagSet(&o)
	usage := helpText(fs)
	for _, arg := range []string{"-h", "-help", "--help"} {
		r := runCmd(t, "", arg)
		r.want(t, exitOK, usage)
	}
	// Every flag is in the help with its argument, its whole usage string
	// (flag.Var ones too) and an example; flagDocs lists no other flag.
	lines := strings.Split(usage, "\n")
	fs.VisitAll(func(f *flag.Flag) {
		arg, help := flag.UnquoteUsage(f)
		head := "  -" + f.Name
		if !isBoolFlag(f) {
			head += " " + arg
		}
		for i, l := range lines {
			if l != head {
				continue
			}
			var text []string
			j := i + 1
			for ; j < len(lines) && !strings.HasPrefix(lines[j], "      $ "); j++ {
				text = append(text, strings.TrimSpace(lines[j]))
			}
			if got := strings.Join(text, " "); !strings.HasPrefix(got, help) {
				t.Errorf("flag -%s: help %q, want %q", f.Name, got, help)
			}
			if j == len(lines) || !strings.Contains(lines[j], "weblink") {
				t.Errorf("flag -%s has no example", f.Name)
			}
			return
		}
		t.Errorf("flag -%s is not in the help as %q", f.Name, head)
	})
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n != len(flagDocs) {
		t.Errorf("%d flags, %d in flagDocs", n, len(flagDocs))
	}
}

// TestHelpWidth: every line of the help, and of the example printed for no
// input, fits in 80 columns, the width of a terminal that the help must
// not wrap; an example too long is continued after " \\" (before, three
// examples were 81 to 107 columns wide).
func TestHelpWidth(t *testing.T) {
	var o options
	for _, text := range []string{helpText(newFlagSet(&o)), example} {
		for i, line := range strings.Split(text, "\n") {
			if n := textWidth(line); n > 80 {
				t.Errorf("line %d is %d columns wide: %s", i+1, n, line)
			}
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"-rel"}, "flag needs an argument: -rel"},
		{[]string{"-json", "-check", "<a>; rel=next"}, "cannot be combined"},
		{[]string{"-rel", "next", "-format", "<a>; rel=next"}, "cannot be combined"},
		{[]string{"-rel=", "-json", "<a>; rel=next"}, "cannot be combined"},
		{[]string{"<a>; rel=next", "-all"}, "-all needs -url"},
		// -max-pages bounds -all; without it, the bound would be lost.
		{[]string{"<a>; rel=next", "-max-pages", "5"}, "-max-pages needs -all"},
		{[]string{"-url", "http://127.0.0.1:1/", "-max-pages", "5"}, "add -all: weblink -url http://127.0.0.1:1/ -all -max-pages 5"},
		{[]string{"-url", "http://127.0.0.1:1/", "-max-pages=1", "-next"}, "-max-pages needs -all"},
		{[]string{"-url", "http://example.com/", "<a>; rel=next"}, "cannot be combined"},
		{[]string{"-url", "ftp://example.com/"}, "not an absolute http or https URL"},
		{[]string{"-url", "/relative"}, "not an absolute http or https URL"},
		{[]string{"-base", "relative/path", "<a>; rel=next"}, "-base"},
		{[]string{"-json=maybe"}, "invalid boolean value"},
	} {
		r := runCmd(t, "", c.args...)
		if r.code != exitProblem || r.stdout != "" {
			t.Errorf("%q: exit status %d, stdout %q; want 2 and nothing", c.args, r.code, r.stdout)
		}
		r.wantErr(t, c.msg)
	}
}

func TestFlagsAfterValues(t *testing.T) {
	links := []string{`<https://a.example/1>; rel=next`, `</2>; rel="prev next"`}
	want := "https://a.example/1\nhttps://b.example/2\n"
	for _, args := range [][]string{
		{"-rel", "next", "-base", "https://b.example/x", links[0], links[1]},
		{links[0], links[1], "-rel", "next", "-base", "https://b.example/x"},
		{links[0], "-rel=next", links[1], "--base=https://b.example/x"},
		{"-rel", "next", links[0], "-base", "https://b.example/x", "--", links[1]},
	} {
		runCmd(t, "", args...).want(t, exitOK, want)
	}
	// After "--", something that looks like a flag is a link value.
	r := runCmd(t, "", "-rel", "next", "--", "-format")
	r.want(t, exitMalformed, "")
	r.wantErr(t, `argument 1, byte 0: link-value must start with "<"`)
	// A flag value may start with "-".
	runCmd(t, "", "-rel", "-x", `<a>; rel=-x`).want(t, exitOK, "a\n")
}

func TestRel(t *testing.T) {
	in := `<https://x.example/p2>; rel="next", </p1>; rel="PREV first", <p3>; rel=Next; title="n"`
	runCmd(t, "", "-rel", "next", in).want(t, exitOK, "https://x.example/p2\np3\n")
	runCmd(t, "", "-rel", "FIRST", "-base", "https://x.example/q", in).want(t, exitOK, "https://x.example/p1\n")

	r := runCmd(t, "", "-rel", "last", in)
	r.want(t, exitNone, "")
	r.wantErr(t, `no link has relation type "last"`)

	// Warnings go to stderr; stdout holds targets only. A target holding a
	// space or a line break cannot split the shell's line or word.
	r = runCmd(t, "", "-rel", "next", `<a b>; rel=next, broken; rel=next`, "<x\x01y>; rel=next")
	r.want(t, exitMalformed, "a%20b\nx%01y\n")
	r.wantErr(t, "argument 1, byte 17: link-value must start with")

	// Non-ASCII becomes a URI (RFC 3987 §3.1), so a C1 control such as
	// U+009B (CSI) cannot drive the terminal.
	runCmd(t, "", "-rel", "next", "<https://a/\u009b31m\u00e9>; rel=next").want(t, exitOK, "https://a/%C2%9B31m%C3%A9\n")

	// -json=false chooses no output mode.
	runCmd(t, "", "-rel", "next", "-json=false", in).want(t, exitOK, "https://x.example/p2\np3\n")
}

func TestFormat(t *testing.T) {
	r := runCmd(t, "", "-format", `<a>;REL=Next;title=x;type=text/html;foo=bar, <b> ; rel="alternate"  ;hreflang=en`)
	r.want(t, exitOK, "<a>; rel=\"next\"; title=\"x\"; type=\"text/html\"; foo=bar\n<b>; rel=\"alternate\"; hreflang=en\n")
	runCmd(t, "", "-format", "-base", "https://h.example/d/", `<a b>; rel=next`).want(t, exitOK, "<https://h.example/d/a%20b>; rel=\"next\"\n")
}

func TestCheckCaret(t *testing.T) {
	r := runCmd(t, "", "-check", `<a>; rel=next, b; rel=x, <c>; rel="foo"`, `<ok>; rel=next; type=bogus`)
	r.want(t, exitProblem, ""+
		"<a>; rel=next, b; rel=x, <c>; rel=\"foo\"\n"+
		"               ^\n"+
		"argument 1, byte 15: error: link-value must start with \"<\" (expected <URI-Reference>; params...); link-value dropped; start each link-value with its target in angle brackets, as in </page/2>; rel=\"next\"\n"+
		"<ok>; rel=next; type=bogus\n"+
		"^\n"+
		"argument 2, byte 0: error: type \"bogus\" is not a media type type/subtype (RFC 6838); write a media type such as \"text/html\" (RFC 6838)\n"+
		"link 2 <c>: warning: relation type \"foo\" is not registered and not a URI\n"+
		"3 links: 2 errors, 1 warning\n")

	// Non-ASCII before the offset: the caret counts characters, not bytes.
	r = runCmd(t, "", "-check", `<é>; rel=next; x="ü" y, <b>; rel=next`)
	lines := strings.Split(r.stdout, "\n")
	if r.code != exitProblem || len(lines) < 3 || lines[1] != strings.Repeat(" ", 21)+"^" ||
		!strings.HasPrefix(lines[2], "argument 1, byte 23: ") {
		t.Errorf("check of non-ASCII field: exit %d\n%s", r.code, r.stdout)
	}
}

func TestCheckWarningsOnly(t *testing.T) {
	// Unregistered relation types are warnings: exit status 0.
	r := runCmd(t, "", "-check", `<https://x.example/>; rel="nxt https://rel.example/ok"`)
	r.want(t, exitOK, "link 1 <https://x.example/>: warning: relation type \"nxt\" is not registered and not a URI\n1 link: 0 errors, 1 warning\n")
}

func TestCheckLinksetDocument(t *testing.T) {
	// An application/linkset document: line breaks are whitespace, and a
	// problem is shown on its own line with its line number.
	in := "\n<https://a.example/1>; rel=next,\r\n  <https://a.example/2>; rel=\"prev\" junk,\n  <https://a.example/3>; rel=last\n"
	r := runCmd(t, in, "-check")
	r.want(t, exitProblem, ""+
		"  <https://a.example/2>; rel=\"prev\" junk,\n"+
		"                                    ^\n"+
		"line 3, byte 70: error: expected \";\" or \",\" after a quoted-string, found \"j\"; link-value dropped; separate parameters with \";\" and link-values with \",\"; quote a value that holds other characters\n"+
		"2 links: 1 error, 0 warnings\n")
	// -rel prints what could be read, with exit status 3 for the
	// link-value dropped.
	runCmd(t, in, "-rel", "last").want(t, exitMalformed, "https://a.example/3\n")
}

func TestTitleLanguage(t *testing.T) {
	r := runCmd(t, "", `</fr>; rel=alternate; title*=UTF-8'fr'Caf%C3%A9; hreflang=fr; note*=UTF-8'de'gr%C3%BC%C3%9F`)
	r.want(t, exitOK, ""+
		"REL        TARGET  TITLE      ATTRIBUTES\n"+
		"alternate  /fr     Café (fr)  hreflang=fr note=grüß (de)\n")
}

func TestCheckLongTarget(t *testing.T) {
	// Messages about a long value stay short; a problem on a CRLF line is
	// shown without the CR.
	long := "https://x.example/" + strings.Repeat("p", 200)
	r := runCmd(t, "<"+long+">; rel=\"Bad\"\r\n, x\r\n", "-check")
	r.want(t, exitProblem, ""+
		", x\n"+
		"  ^\n"+
		"line 2, byte 235: error: link-value must start with \"<\" (expected <URI-Reference>; params...); link-value dropped; start each link-value with its target in angle brackets, as in </page/2>; rel=\"next\"\n"+
		"link 1 <"+long[:80]+"...>: warning: relation type \"bad\" is not registered and not a URI\n"+
		"1 link: 1 error, 1 warning\n")
	r = runCmd(t, "", "-check", "<"+long+"^>; rel=next")
	r.want(t, exitProblem, ""+
		"<"+long[:39]+"...\n"+
		"^\n"+
		"argument 1, byte 0: error: target \""+long[:64]+"\"... is not a URI-reference or IRI: byte 218 must be percent-encoded; percent-encode it (RFC 3986 §2.1), as Link.String does\n"+
		"1 link: 1 error, 0 warnings\n")
}

// sameJSON fails the test unless got and want are the same JSON value.
func sameJSON(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("%v in %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("JSON:\n%s\nwant:\n%s", got, want)
	}
}

func TestJSON(t *testing.T) {
	r := runCmd(t, "", "-json", `<https://x.example/a>; rel="next prev"; title="A"; type=text/html; as=style; hreflang=en`,
		`</b>; rel=describedby; anchor="https://x.example/"; title*=UTF-8'de'gr%C3%BC%C3%9F`)
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	target := `{"href": "https://x.example/a", "type": "text/html", "hreflang": ["en"], "title": "A", "as": ["style"]}`
	sameJSON(t, r.stdout, `{"linkset": [
		{"next": [`+target+`], "prev": [`+target+`]},
		{"anchor": "https://x.example/", "describedby": [{"href": "/b", "title*": [{"value": "grüß", "language": "de"}]}]}]}`)

	// A link JSON cannot hold is left out, with a warning.
	r = runCmd(t, "", "-json", `<a>; rel=next`, `<b>`, `<c; rel=x`)
	sameJSON(t, r.stdout, `{"linkset": [{"next": [{"href": "a"}]}]}`)
	if r.code != exitOK || !strings.Contains(r.stderr, "weblink: argument 3, byte 0: ") ||
		!strings.Contains(r.stderr, "weblink: -json leaves out <b>: it has no relation type, and a linkset lists each link under its relation types (RFC 9264 §4.2.2); the table and -format show it\n") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	runCmd(t, "", "-json", `b`).want(t, exitNone, "{\n  \"linkset\": []\n}\n")
}

func TestCheckErrorsAndWarnings(t *testing.T) {
	// -check reports what weblink.Check finds: errors make the exit status
	// 2, warnings do not, and each is marked as what it is.
	r := runCmd(t, "", "-check", `</f.woff2>; rel=preload; as=font`)
	r.want(t, exitOK, ""+
		"</f.woff2>; rel=preload; as=font\n"+
		"^\n"+
		"argument 1, byte 0: warning: preload as=font without crossorigin: the font request is made in CORS mode, so it does not use the preload and downloads the resource twice; add \"; crossorigin\"\n"+
		"1 link: 0 errors, 1 warning\n")
	r = runCmd(t, "", "-check", `<a>; rel=next; rel=prev, ,<b>; rel = "last"`)
	r.want(t, exitProblem, ""+
		"<a>; rel=next; rel=prev, ,<b>; rel = \"last\"\n"+
		"               ^\n"+
		"argument 1, byte 15: error: repeated \"rel\" is ignored, only the first counts: put every relation type in the first rel, separated by spaces: rel=\"a b\" (RFC 8288 §3.3)\n"+
		"<a>; rel=next; rel=prev, ,<b>; rel = \"last\"\n"+
		"                         ^\n"+
		"argument 1, byte 25: error: empty list element: remove this comma (RFC 9110 §5.6.1.1: a sender must not generate empty list elements)\n"+
		"<a>; rel=next; rel=prev, ,<b>; rel = \"last\"\n"+
		"                                  ^\n"+
		"argument 1, byte 34: error: whitespace around \"=\" in \"rel\": write rel=value with nothing between (RFC 9110 §5.6.3: a sender must not generate BWS)\n"+
		"2 links: 3 errors, 0 warnings\n")
	// On a terminal, the marks are coloured.
	r = runFake(t, strings.NewReader(""), nil, terminals{stdout: true}, "-check", `<s.css>; rel=preload`, `<a>; rel=next; type=x`)
	if r.code != exitProblem || !strings.Contains(r.stdout, "byte 0: "+yellow+"warning"+reset+": preload without") ||
		!strings.Contains(r.stdout, "byte 0: "+red+"error"+reset+": type") {
		t.Errorf("exit %d:\n%q", r.code, r.stdout)
	}
	// The Link lines of a fetched page are checked the same way.
	u := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Link", `</s.css>; rel=preload`)
		w.Header().Add("Link", `</n>; rel=next; title=a; title=b`)
	}).srv.URL
	r = runCmd(t, "", "-check", "-url", u+"/")
	r.want(t, exitProblem, ""+
		"</s.css>; rel=preload\n"+
		"^\n"+
		"Link line 1, byte 0: warning: preload without \"as\": browsers do not fetch it; add as= with one of fetch, font, image, script, style, track (HTML Living Standard, \"Link type preload\")\n"+
		"</n>; rel=next; title=a; title=b\n"+
		"                         ^\n"+
		"Link line 2, byte 25: error: repeated \"title\" is ignored, only the first counts: remove it (RFC 8288 §3.4.1: it must not appear more than once in a link-value)\n"+
		"2 links: 1 error, 1 warning\n")
}

func TestURLArgument(t *testing.T) {
	// A URL where a link-value goes: a usage error that says to use -url,
	// without the userinfo of the URL.
	for _, args := range [][]string{
		{"https://api.example.com/items"},
		{"HTTP://api.example.com/items"},
		{"-rel", "next", "https://user:secret@api.example.com/items"},
		{"Link: https://api.example.com/items"},
		{"<a>; rel=next", " http://api.example.com/items"},
	} {
		r := runBinary(t, "", args...)
		if r.code != exitProblem || r.stdout != "" || !strings.Contains(r.stderr, "use -url") ||
			!strings.Contains(r.stderr, "weblink -url ") || strings.Contains(r.stderr, "secret") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
	r := runBinary(t, "", "https://api.example.com/items")
	if want := "weblink -url https://api.example.com/items\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q, want the command %q", r.stderr, want)
	}
	// A URL without its scheme too; before: "link-value must start with
	// "<"" and "no links found", exit status 1.
	for _, arg := range []string{"example.com", "api.example.com/items?page=2", "localhost:8080/", "127.0.0.1:8080/x", "Link: www.example.com"} {
		r := runBinary(t, "", arg)
		host := strings.TrimPrefix(arg, "Link: ")
		scheme := "https://"
		if strings.HasPrefix(host, "localhost") || strings.HasPrefix(host, "127.") {
			scheme = "http://" // before, https:// for these too
		}
		if want := "use -url: weblink -url " + scheme + host + "\n"; r.code != exitProblem || r.stdout != "" || !strings.Contains(r.stderr, want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q", arg, r.code, r.stdout, r.stderr, want)
		}
	}
	// What is not one stays a malformed link-value.
	for _, arg := range []string{"foo", "a=b", "x.y; rel=next", "/items"} {
		r := runBinary(t, "", arg)
		if r.code != exitMalformed || !strings.Contains(r.stderr, `link-value must start with "<"`) {
			t.Errorf("%q: exit %d, stderr %q; want 3 and a malformed link-value", arg, r.code, r.stderr)
		}
	}
}

func TestVersion(t *testing.T) {
	// -version prints the build information: the module version and the
	// Go version the binary was built with.
	r := runBinary(t, "", "-version")
	if r.code != exitOK || r.stderr != "" || !strings.HasPrefix(r.stdout, "weblink ") ||
		!strings.HasSuffix(r.stdout, " "+runtime.Version()+"\n") || strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

func TestJSONWithoutLinks(t *testing.T) {
	// -json with no links still writes a linkset, so that | jq works;
	// the exit status and the message say there were none.
	for _, in := range []string{"", "HTTP/1.1 200 OK\r\n\r\n",
		"HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\n\r\n"} {
		r := runBinary(t, in, "-json")
		var doc struct{ Linkset []any }
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || doc.Linkset == nil || len(doc.Linkset) != 0 ||
			!strings.Contains(r.stdout, `"linkset"`) {
			t.Errorf("%q: stdout %q: %v, want an empty linkset", in, r.stdout, err)
		}
		if r.code != exitNone || r.stderr != "weblink: no links found\n" {
			t.Errorf("%q: exit %d, stderr %q", in, r.code, r.stderr)
		}
	}
}

func TestVersionOf(t *testing.T) {
	build := func(version string, settings ...string) *debug.BuildInfo {
		info := &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Version: version}}
		for i := 0; i < len(settings); i += 2 {
			info.Settings = append(info.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
		}
		return info
	}
	for _, c := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{build("v1.2.3"), "weblink v1.2.3 go1.99\n"},
		{build(""), "weblink (devel) go1.99\n"},
		{build("(devel)", "vcs.revision", "0123456789abcdef0123", "vcs.time", "2026-12-01T10:00:00Z", "vcs.modified", "true"),
			"weblink (devel) commit 0123456789ab+modified 2026-12-01T10:00:00Z go1.99\n"},
		// A pseudo-version names the commit already.
		{build("v0.0.0-20261201100000-0123456789ab", "vcs.revision", "0123456789abcdef0123"),
			"weblink v0.0.0-20261201100000-0123456789ab go1.99\n"},
	} {
		if got := versionOf(c.info); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// TestMalformedExitStatus: the table, -rel and -format exit with status 3
// when a link-value (or a parameter, a Link-Template field, a linkset) was
// dropped as malformed, after printing what could be read; -next exits 3
// only when the final head is malformed and has no usable next link. Before,
// every one of these exited 0, or 1 for -next, as on a last page.
func TestMalformedExitStatus(t *testing.T) {
	const broken = `<http://x/a>; rel="alternate", "bad"`
	const dropped = `weblink: argument 1, byte 31: link-value must start with "<" (expected <URI-Reference>; params...); link-value dropped` + "\n"
	for _, c := range []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout string
		stderr string
	}{
		{"table", []string{broken}, "", exitMalformed, "REL        TARGET\nalternate  http://x/a\n", dropped},
		{"-rel", []string{"-rel", "alternate", broken}, "", exitMalformed, "http://x/a\n", dropped},
		{"-rel matching nothing", []string{"-rel", "next", broken}, "", exitMalformed, "",
			dropped + "weblink: no link has relation type \"next\"\n"},
		{"-format", []string{"-format", broken}, "", exitMalformed, "<http://x/a>; rel=\"alternate\"\n", dropped},
		{"table, nothing readable", []string{`<http://x/a`}, "", exitMalformed, "",
			"weblink: argument 1, byte 0: \"<\" is never closed by \">\"; link-value dropped\nweblink: no links found\n"},
		{"a parameter dropped", []string{"-format", `<http://x/a>; rel=next; title*=nope`}, "", exitMalformed, "<http://x/a>; rel=\"next\"\n", ""},
		{"a 103's dropped link-value", []string{"-rel", "next"},
			"HTTP/1.1 103 Early Hints\r\nLink: bad\r\n\r\nHTTP/1.1 200 OK\r\nLink: </2>; rel=next\r\n\r\n", exitMalformed, "/2\n", ""},
		{"an invalid linkset document", []string{}, `{"linkset": 1}`, exitMalformed, "", ""},
		{"an ignored Link-Template field", []string{}, "Link-Template: \"/{x}\"; rel=1\r\n\r\n", exitMalformed, "", ""},

		{"-next: malformed, no next link", []string{"-next", "-base", "http://x/", broken}, "", exitMalformed, "",
			dropped + "weblink: no usable next link: the Link header is malformed (the broken part may be the next link)\n"},
		{"-next: a next link beside a dropped one", []string{"-next", "-base", "http://x/", `<http://x/2>; rel=next, "bad"`}, "", exitOK, "http://x/2\n", ""},
		{"-next: a 103 malformed, no next link", []string{"-next", "-base", "http://x/"},
			"HTTP/1.1 103 Early Hints\r\nLink: bad\r\n\r\nHTTP/1.1 200 OK\r\nLink: </1>; rel=prev\r\n\r\n", exitNone, "", ""},
		{"-next: no next link, nothing malformed", []string{"-next", `</1>; rel=prev`}, "", exitNone, "", ""},

		// Well-formed input keeps its statuses.
		{"table, well-formed", []string{`<http://x/a>; rel=next`}, "", exitOK, "REL   TARGET\nnext  http://x/a\n", ""},
		{"-rel matching nothing, well-formed", []string{"-rel", "prev", `<http://x/a>; rel=next`}, "", exitNone, "", "weblink: no link has relation type \"prev\"\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runBinary(t, c.stdin, c.args...)
			if r.code != c.code || r.stdout != c.stdout {
				t.Errorf("exit %d, stdout %q; want %d, %q (stderr %q)", r.code, r.stdout, c.code, c.stdout, r.stderr)
			}
			if c.stderr != "" && r.stderr != c.stderr {
				t.Errorf("stderr\n%s\nwant\n%s", r.stderr, c.stderr)
			}
			if c.code == exitMalformed && r.stderr == "" {
				t.Error("exit 3 without a message")
			}
		})
	}
}

// TestMalformedExitStatusURL: the statuses of -url are those of the same
// head piped in, and -all exits 3 when some page dropped a link-value.
func TestMalformedExitStatusURL(t *testing.T) {
	u := serveFunc(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/broken":
			w.Header().Set("Link", `</2>; rel=next, "bad"`)
		case "/2":
			w.Header().Set("Link", `</1>; rel=prev, "bad"`)
		case "/last":
			w.Header().Set("Link", `</1>; rel=prev`)
		}
	})
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"-url", u + "/broken"}, exitMalformed},
		{[]string{"-url", u + "/broken", "-next"}, exitOK},
		{[]string{"-url", u + "/2", "-next"}, exitMalformed},
		{[]string{"-url", u + "/last", "-next"}, exitNone},
		{[]string{"-url", u + "/broken", "-all", "-rel", "prev"}, exitMalformed},
		{[]string{"-url", u + "/last", "-all"}, exitOK},
	} {
		r := runBinary(t, "", c.args...)
		if r.code != c.code {
			t.Errorf("%q: exit %d, want %d (stdout %q, stderr %q)", c.args, r.code, c.code, r.stdout, r.stderr)
		}
	}
}

// TestCheckWithoutLinks: -check on a head without Link fields has nothing
// to fix and exits 0, so that a lint loop over pages goes on; it exited 1
// ("no links found"). An empty input still exits 1: nothing was checked.
func TestCheckWithoutLinks(t *testing.T) {
	for _, in := range []string{
		"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n",
		"HTTP/1.1 204 No Content\r\n\r\n",
		"Content-Type: text/html\n",
	} {
		r := runBinary(t, in, "-check")
		r.want(t, exitOK, "0 links: 0 errors, 0 warnings\n")
		if r.stderr != "" {
			t.Errorf("%q: stderr %q", in, r.stderr)
		}
	}
	u := serveFunc(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
	})
	runBinary(t, "", "-url", u, "-check").want(t, exitOK, "0 links: 0 errors, 0 warnings\n")
	r := runBinary(t, "", "-check")
	if r.code != exitNone || !strings.Contains(r.stderr, "no links found") {
		t.Errorf("empty input: exit %d, stderr %q; want 1, no links found", r.code, r.stderr)
	}
}

// serveFunc serves h on 127.0.0.1 until the test ends and returns its URL.
func serveFunc(t *testing.T, h http.HandlerFunc) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// runBinary runs the built weblink with stdin holding in.
func runBinary(t *testing.T, in string, args ...string) result {
	t.Helper()
	return runBinaryFrom(t, strings.NewReader(in), args...)
}

// runBinaryFrom runs the built weblink with stdin reading from in.
func runBinaryFrom(t *testing.T, in io.Reader, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Stdin = in
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{stdout.String(), stderr.String(), code}
}
