package main

import (
	"strings"
	"testing"
)

// TestCheckTemplates: -check checks Link-Template fields (RFC 9652) with
// the linktemplate package: a field that does not parse is an error at its
// byte, as for Link; each templated link's URI Templates (target and
// anchor, RFC 6570), its var-base (a URI-reference, RFC 9652 §2.1) and the
// link itself as Link.Validate checks a link (rel is required, RFC 8288
// §3.3, as RFC 9652 §2 says) are errors; an unregistered relation type is a
// warning. Before, a response with Link-Template fields got no check of
// them ("0 links: 0 errors, 0 warnings", exit 1).
func TestCheckTemplates(t *testing.T) {
	for _, c := range []struct {
		name   string
		field  string // a Link-Template field value
		code   int
		stdout string // before the summary
		sum    string // the summary after "0 links"
	}{
		{"well-formed", `"/widgets/{widget_id}"; rel="item"; var-base="https://example.org/vars/", "/b/{id}/a"; rel="author"; anchor="#{id}"; title=%"Bj%c3%b6rn"`, exitOK, "", ", 2 templated links: 0 errors, 0 warnings"},
		{"expression not closed", `"/w/{id"; rel="item"`, exitProblem,
			`template 1 "/w/{id": error: the template is not a URI Template (RFC 6570): byte 3: expression not closed by "}"` + "\n", ", 1 templated link: 1 error, 0 warnings"},
		{"prefix too long", `"/x/{a:10000}"; rel="item"`, exitProblem,
			`template 1 "/x/{a:10000}": error: the template is not a URI Template (RFC 6570): byte 6: a prefix modifier's length is a number from 1 to 9999 without leading zero (RFC 6570 §2.4.1)`, ", 1 templated link: 1 error, 0 warnings"},
		{"reserved operator", `"/{=x}"; rel="item"`, exitProblem,
			`template 1 "/{=x}": error: the template is not a URI Template (RFC 6570): byte 2: `, ", 1 templated link: 1 error, 0 warnings"},
		{"anchor", `"/a"; rel="author"; anchor="#{b"`, exitProblem,
			`template 1 "/a": error: the anchor is not a URI Template (RFC 6570): byte 1: expression not closed by "}"` + "\n", ", 1 templated link: 1 error, 0 warnings"},
		{"both", `"{"; rel="author"; anchor="}"`, exitProblem,
			`template 1 "{": error: the template is not a URI Template (RFC 6570): byte 1: want a variable name (letters, digits, "_", %XX and inner "."), found the end of the template` + "\n" +
				`template 1 "{": error: the anchor is not a URI Template (RFC 6570): byte 0: "}" outside an expression`, ", 1 templated link: 2 errors, 0 warnings"},
		{"no rel", `"/{x}"`, exitProblem,
			`template 1 "/{x}": error: rel is missing: a link needs at least one relation type (RFC 8288 §3.3)` + "\n", ", 1 templated link: 1 error, 0 warnings"},
		{"empty rel", `"/{x}"; rel=""`, exitProblem, `template 1 "/{x}": error: rel is missing`, ", 1 templated link: 1 error, 0 warnings"},
		{"malformed rel", `"/{x}"; rel="next!"`, exitProblem, `template 1 "/{x}": error: rel "next!" is neither`, ", 1 templated link: 1 error, 0 warnings"},
		{"unregistered rel", `"/{x}"; rel="frist"`, exitOK,
			`template 1 "/{x}": warning: relation type "frist" is not registered and not a URI` + "\n", ", 1 templated link: 0 errors, 1 warning"},
		{"var-base", `"/{x}"; rel="item"; var-base="a b"`, exitProblem,
			`template 1 "/{x}": error: var-base "a b" is not a URI-reference (RFC 9652 §2.1)` + "\n", ", 1 templated link: 1 error, 0 warnings"},
		{"ext-value name", `"/{x}"; rel="item"; title*="UTF-8''a"`, exitProblem, `template 1 "/{x}": error: param "title*" is not a token`, ", 1 templated link: 1 error, 0 warnings"},
		{"control in a Display String", `"/{x}"; rel="item"; title=%"%c3%a9%07b"`, exitProblem, `template 1 "/{x}": error: title "é\ab" holds control characters`, ", 1 templated link: 1 error, 0 warnings"},
		{"longer than Expand builds", `"/` + strings.Repeat("a", 70000) + `"; rel="item"`, exitOK, `template 1 "/aaaa`, ", 1 templated link: 0 errors, 1 warning"},
		{"second of two", `"/{x}"; rel="item", "/{y"; rel="item"`, exitProblem, `template 2 "/{y": error: the template is not a URI Template`, ", 2 templated links: 1 error, 0 warnings"},
		{"not a Structured Field", `"/{x}"; rel=item`, exitProblem,
			`"/{x}"; rel=item` + "\n        ^\nargument 1, byte 8: error: Link-Template: the rel parameter is a Token, not a String (RFC 9652 §2); the field is ignored\n", ": 1 error, 0 warnings"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runCmd(t, "", "-check", "Link-Template: "+c.field)
			if r.code != c.code {
				t.Errorf("exit status %d, want %d (stderr %q)", r.code, c.code, r.stderr)
			}
			if !strings.HasPrefix(r.stdout, c.stdout) {
				t.Errorf("stdout:\n%s\nwant it to start:\n%s", r.stdout, c.stdout)
			}
			summary := "0 links" + c.sum + "\n"
			if !strings.HasSuffix(r.stdout, summary) {
				t.Errorf("stdout:\n%s\nwant it to end with %q", r.stdout, summary)
			}
			if r.stderr != "" {
				t.Errorf("stderr %q", r.stderr)
			}
		})
	}
}

// TestCheckTemplatesInHeads: the templated links of piped response heads,
// a 103 Early Hints head's marked as such, and of a -url response are
// checked and counted with the links.
func TestCheckTemplatesInHeads(t *testing.T) {
	heads := "HTTP/1.1 103 Early Hints\r\nLink-Template: \"/{a\"; rel=\"preload\"\r\n\r\n" +
		"HTTP/1.1 200 OK\r\nLink: </a>; rel=\"next\"\r\nLink-Template: \"/w/{id}\"; rel=\"item\"\r\n\r\n"
	runCmd(t, heads, "-check").want(t, exitProblem, ""+
		`template 1 "/{a" (103 Early Hints): error: the template is not a URI Template (RFC 6570): byte 1: expression not closed by "}"`+"\n"+
		"1 link, 2 templated links: 1 error, 0 warnings\n")
	canonical, _ := catalogSite(t)
	runCmd(t, "", "-url", canonical.URL+"/templated", "-check").want(t, exitOK, "1 link, 1 templated link: 0 errors, 0 warnings\n")
}
