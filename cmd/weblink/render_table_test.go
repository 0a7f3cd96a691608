package main

import (
	"strings"
	"testing"
)

func TestTableDisplayWidth(t *testing.T) {
	// CJK and emoji take two columns: the columns after them stay aligned.
	r := runCmd(t, "", `</a>; rel=next; title="日本語"; x=1`, `</bb>; rel=prev; title="🚀 go"; x=2`, `</c>; rel=last; title=plain; x=3`)
	r.want(t, exitOK, ""+
		"REL   TARGET  TITLE   ATTRIBUTES\n"+
		"next  /a      日本語  x=1\n"+
		"prev  /bb     🚀 go   x=2\n"+
		"last  /c      plain   x=3\n")
	// A long title is cut by width, at most 60 columns with "...".
	long := strings.Repeat("日", 40)
	r = runCmd(t, "", `</a>; rel=next; title="`+long+`"; x=1`)
	r.want(t, exitOK, ""+
		"REL   TARGET  TITLE"+strings.Repeat(" ", 56)+"ATTRIBUTES\n"+
		"next  /a      "+strings.Repeat("日", 28)+"...  x=1\n")
	// A combining mark takes no column.
	r = runCmd(t, "", "</a>; rel=next; title=\"e\u0301t\u00e9\"; x=1", `</b>; rel=prev; title=abcd; x=2`)
	r.want(t, exitOK, ""+
		"REL   TARGET  TITLE  ATTRIBUTES\n"+
		"next  /a      e\u0301té    x=1\n"+
		"prev  /b      abcd   x=2\n")
	// The caret of -check is under the byte, after wide characters.
	r = runCmd(t, "", "-check", `<日本>; rel="next" junk`)
	lines := strings.Split(r.stdout, "\n")
	if len(lines) < 2 || lines[1] != strings.Repeat(" ", 19)+"^" {
		t.Errorf("caret after wide characters:\n%s", r.stdout)
	}
}
