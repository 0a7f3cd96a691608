package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

func TestOneValuePerLine(t *testing.T) {
	// Link field values on standard input, one per line without commas,
	// are separate field values.
	runCmd(t, "<a>; rel=next\n<b>; rel=last\n", "-format").want(t, exitOK, "<a>; rel=\"next\"\n<b>; rel=\"last\"\n")
	runCmd(t, "<a>; rel=next\r\n\r\n  <b>; rel=last", "-rel", "last").want(t, exitOK, "b\n")
	// A value continued after a comma, or on lines that do not start with
	// "<", stays one value (application/linkset, RFC 9264 §4.1).
	runCmd(t, "<a>; rel=next,\n<b>\n ; rel=last\n", "-format").want(t, exitOK, "<a>; rel=\"next\"\n<b>; rel=\"last\"\n")
	// Each value is parsed on its own: a broken one does not swallow the
	// next line, and messages name the line.
	r := runCmd(t, "<a>; rel=\"next\" junk\n<b>; rel=last\n", "-check")
	r.want(t, exitProblem, ""+
		"<a>; rel=\"next\" junk\n"+
		"                ^\n"+
		"line 1, byte 16: error: expected \";\" or \",\" after a quoted-string, found \"j\"; link-value dropped; separate parameters with \";\" and link-values with \",\"; quote a value that holds other characters\n"+
		"1 link: 1 error, 0 warnings\n")
	r = runCmd(t, "<a>; rel=next\n<b; rel=last\n", "-check")
	if !strings.Contains(r.stdout, "line 2, byte 0: ") {
		t.Errorf("-check of a broken second line:\n%s", r.stdout)
	}
}

func TestFormatRoundTrip(t *testing.T) {
	// -format output read back gives the same links, in-process and
	// through a pipe between two processes.
	in := `<https://a.example/1>; rel="next prev"; title="A, b"; type=text/html, </é>; rel=alternate; hreflang=fr; title*=UTF-8'fr'caf%C3%A9; x="1;2"; crossorigin`
	first := runCmd(t, "", "-format", in)
	if first.code != exitOK || strings.Count(first.stdout, "\n") != 2 {
		t.Fatalf("-format: exit %d\n%s", first.code, first.stdout)
	}
	runCmd(t, first.stdout, "-format").want(t, exitOK, first.stdout)

	format := exec.Command(binary, "-format", in)
	read := exec.Command(binary, "-format")
	pipe, err := format.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	read.Stdin = pipe
	var out bytes.Buffer
	read.Stdout = &out
	if err := format.Start(); err != nil {
		t.Fatal(err)
	}
	if err := read.Run(); err != nil {
		t.Fatal(err)
	}
	if err := format.Wait(); err != nil {
		t.Fatal(err)
	}
	if out.String() != first.stdout {
		t.Errorf("weblink -format | weblink -format:\n%s\nwant:\n%s", out.String(), first.stdout)
	}
}

func TestPastedHeaderLine(t *testing.T) {
	// An argument may be a whole "Link:" header line, in any letter case.
	for _, arg := range []string{`Link: <https://a.example/2>; rel="next"`, `LINK:<https://a.example/2>;rel=next`, "link:\t<https://a.example/2>; rel=next"} {
		runCmd(t, "", "-rel", "next", arg).want(t, exitOK, "https://a.example/2\n")
	}
	// Offsets are in the value.
	r := runCmd(t, "", "-check", `Link: <a>; rel=next, b`)
	r.want(t, exitProblem, ""+
		"<a>; rel=next, b\n"+
		"               ^\n"+
		"argument 1, byte 15: error: link-value must start with \"<\" (expected <URI-Reference>; params...); link-value dropped; start each link-value with its target in angle brackets, as in </page/2>; rel=\"next\"\n"+
		"1 link: 1 error, 0 warnings\n")
	// Another header is not a Link field value.
	r = runCmd(t, "", "-rel", "next", `Location: <a>; rel=next`)
	r.want(t, exitMalformed, "")
}

func TestEarlyHintsHeads(t *testing.T) {
	// curl -sI of a server that sends 103 Early Hints: their links are
	// shown, marked, before those of the final response.
	in := "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n" +
		"HTTP/1.1 103 Early Hints\r\nLink: </app.js>; rel=preload; as=script\r\n\r\n" +
		"HTTP/1.1 200 OK\r\nLink: </style.css>; rel=preload; as=style, <https://x.example/2>; rel=next\r\n\r\n"
	runCmd(t, in).want(t, exitOK, ""+
		"FROM   REL      TARGET               ATTRIBUTES\n"+
		"103    preload  /style.css           as=style\n"+
		"103    preload  /app.js              as=script\n"+
		"final  preload  /style.css           as=style\n"+
		"final  next     https://x.example/2\n")
	// -rel takes the final head's links only.
	runCmd(t, in, "-rel", "preload").want(t, exitOK, "/style.css\n")
	// A response whose only links are in the 103 has links.
	only := "HTTP/2 103\r\nlink: </a.css>; rel=preload; as=style\r\n\r\nHTTP/2 200\r\ncontent-type: text/html\r\n\r\n"
	runCmd(t, only).want(t, exitOK, "FROM  REL      TARGET  ATTRIBUTES\n103   preload  /a.css  as=style\n")
	// Problems say where they are.
	r := runCmd(t, "HTTP/1.1 103 Early Hints\nLink: <a.css>; rel=preload, oops\n\nHTTP/1.1 200 OK\nLink: <b>; rel=Next; type=x\n\n", "-check")
	r.want(t, exitProblem, ""+
		"<a.css>; rel=preload, oops\n"+
		"^\n"+
		"line 2 (103 Early Hints), byte 0: warning: preload without \"as\": browsers do not fetch it; add as= with one of fetch, font, image, script, style, track (HTML Living Standard, \"Link type preload\")\n"+
		"<a.css>; rel=preload, oops\n"+
		"                      ^\n"+
		"line 2 (103 Early Hints), byte 22: error: link-value must start with \"<\" (expected <URI-Reference>; params...); link-value dropped; start each link-value with its target in angle brackets, as in </page/2>; rel=\"next\"\n"+
		"<b>; rel=Next; type=x\n"+
		"^\n"+
		"line 5, byte 0: error: type \"x\" is not a media type type/subtype (RFC 6838); write a media type such as \"text/html\" (RFC 6838)\n"+
		"<b>; rel=Next; type=x\n"+
		"^\n"+
		"line 5, byte 0: warning: relation type \"Next\" in rel is registered as \"next\": write it in lower case; relation types compare case-insensitively (RFC 8288 §2.1.1), but clients that compare strings miss it\n"+
		"2 links: 2 errors, 2 warnings\n")
	// The hints of a request that was redirected are not the final
	// response's.
	runCmd(t, "HTTP/1.1 103\nLink: <a>; rel=preload\n\nHTTP/1.1 302 Found\n\nHTTP/1.1 200 OK\nLink: <b>; rel=next\n\n", "-format").
		want(t, exitOK, "<b>; rel=\"next\"\n")
}

func TestJSONBaseIsAnchor(t *testing.T) {
	// -json -base writes the base as the anchor, as -json -url writes the
	// page; an explicit anchor stays.
	r := runCmd(t, "", "-json", "-base", "https://b.example/dir/", "<a>; rel=next", `<c>; rel=prev; anchor="#x"`)
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	sameJSON(t, r.stdout, `{"linkset": [
		{"anchor": "https://b.example/dir/", "next": [{"href": "https://b.example/dir/a"}]},
		{"anchor": "https://b.example/dir/#x", "prev": [{"href": "https://b.example/dir/c"}]}]}`)
}
