// The text of -h and of the example printed when standard input is a
// terminal.

package main

import (
	"flag"
	"strings"
)

// The help that -h prints is the one source of the command's documentation:
// doc.go, the package documentation, is generated from it (go generate; see
// doc_test.go), and each flag's help is its usage string in the flag set.

// helpIntro is the start of the help, up to the flags.
const helpIntro = `Usage: weblink [flags] [link-value ...]

weblink shows, checks and follows HTTP Link headers (RFC 8288).

Each argument is one Link field value, or a pasted header line "Link: ..."
(any letter case), or several pasted header lines, a status line first or
not, each after curl -v's "< " or not: their Link and Link-Template fields
are read, up to a blank line. Without arguments, weblink reads standard
input (at most 1 MiB) and recognises it by its first non-blank line:

  HTTP/...     one or more response heads, as curl -sI or curl -i print
               them: the last head counts (after redirects and 1xx), with
               the links of the 103 Early Hints before it shown as such
               in the table; the Location of each redirect moves the base
               (-base at first) that the links resolve against; reading
               stops at its blank line, so the body is never read
  Name: value  a header block, up to its first blank line
  * > < {      curl -v output (curl -v URL 2>&1): the response lines, after
               "< ", read as heads are; curl's progress meter, which 2>&1
               mixes in without -s, is skipped here and before HTTP/...
  {            an application/linkset+json document (RFC 9264 §4.2); an
               object without a "linkset" member is a JSON body: an error
  <!doctype    an HTML or XML document (also <?xml, or <html on a line
               without ";"), or a JSON array ("["): an error, since it is
               a body, not a head; -url URL -discover reads the links of
               an HTML document
  otherwise    Link field values, one per line as -format prints them, or
               an application/linkset document (RFC 9264 §4.1): a line
               that starts with "<" starts a new value unless the line
               before ends with a comma

Header names match in any letter case, obsolete line folding is joined,
lines may end in CRLF or LF, and a UTF-8 byte order mark at the start is
skipped. An argument that is a URL (example.com/items too) is a usage error:
fetch it with -url.
`

// flagDocs lists the flags in the order the help shows them. help is the
// flag's usage string, with the name of its argument in back quotes (as
// flag.UnquoteUsage reads it); example is a command line that uses it.
var flagDocs = []struct{ name, help, example string }{
	{"url", "fetch `URL` (HEAD, or GET when the server answers HEAD with 405 or 501) and read the Link header fields of the response (at most 1 MiB of its head) and of the 103 Early Hints before it; targets resolve against the URL after redirects; a response that is a document of links (application/link-format, application/linkset, application/linkset+json) is read by its body instead (GET, at most 1 MiB, 16 MiB for link-format); a response that is not 2xx shows its links too (not with -next), then fails",
		"weblink -url https://api.example.com/items"},
	{"all", `with -url: follow rel="next" through every page of the same origin, printing each page as it arrives; on a terminal, standard error shows a progress line as wide as the terminal (COLUMNS, else the width the terminal reports), not with NO_COLOR or TERM=dumb`,
		"weblink -url https://api.example.com/items -all -rel item"},
	{"max-pages", "with -all: stop with an error after `N` pages; a usage error without -all, which it bounds but does not imply",
		"weblink -url https://api.example.com/items -all -max-pages 20"},
	{"H", "with -url: add the request header `'Name: value'` (repeat it for several) to the requests to the origin of -url, also on redirects; another origin gets only Accept, Accept-Encoding, Accept-Language, Cache-Control, Pragma and User-Agent",
		`weblink -url https://api.github.com/repos/golang/go/issues -all -H "Authorization: Bearer $TOKEN"`},
	{"timeout", "with -url: stop the whole run (every request, page and linkset) after `DURATION`, such as 10s or 2m; the links read by then are shown, and the exit status is 1",
		"weblink -url https://slow.example/items -timeout 2m"},
	{"wait", `with -url: wait out rate limits, for at most ` + "`DURATION`" + ` in all (0, the default: do not wait): a page answered 429, or 403 or 503 with Retry-After or a spent X-RateLimit-Remaining or RateLimit-Remaining, is requested again when the server says; a 429, or a 403 whose body says "rate limit" (GitHub's secondary limits; a HEAD answer has no body), that says no time is requested again after 60 s, then 120 s, 240 s...; a page is retried at most 10 times`,
		"weblink -url https://api.github.com/repos/golang/go/issues -all -wait 15m"},
	{"revalidate", "with -url: keep the pages in the directory `DIR` (created, mode 0700; at most 256 MiB, the least recently used pages removed first; one file per page, written whole or not at all) and ask for each again with If-None-Match and If-Modified-Since, so that a page that did not change comes back 304 Not Modified and is read from there: a re-sync reads only what changed, and on GitHub a 304 does not count against the rate limit; pages are asked for with GET (a HEAD is not stored), the page that was the last one always afresh (a collection may have grown past it), pages of other -H credentials never from another's files; a truncated or corrupt file is reported and its page fetched again; at the end, standard error says how many pages came back 304",
		"weblink -url https://api.github.com/repos/golang/go/issues -all -revalidate ~/.cache/weblink"},
	{"base", "resolve targets and anchors against `URL` (default: the fetched URL); for piped response heads, the URL of the first request, which the Location of each redirect moves; not with -discover or -api-catalog",
		`curl -sI "$u" | weblink -base "$u"`},
	{"rel", "print only the targets of the links with relation type `NAME`, one per line, ready for a shell",
		`curl -sI "$u" | weblink -rel alternate -base "$u"`},
	{"next", `print the one URL that paging follows: the target of the first rel="next" link that is about the page itself (not one with an anchor elsewhere), resolved as weblink.NextURL resolves it; nothing, with exit status 1, when there is none, or 3 when the head is malformed and has no usable next link (the broken part may be it); not with -all`,
		`next=$(curl -sI "$u" | weblink -next -base "$u")`},
	{"next-in-body", "with -url -all or -next: also take the next link of a page whose Link header has none from its JSON body, at the RFC 6901 JSON Pointer `POINTER` (JSON:API /links/next, HAL /_links/next/href, OData and Microsoft Graph /@odata.nextLink, OData 4.01 /@nextLink, Azure /nextLink; a string, or an object with a string href), checked as a header's next link, and show it as a rel=\"next\" link of the page (also in -json); absent, null or \"\" there is the last page, any other value (or a body that is not JSON) an error that says why, with exit status 3 as for a malformed Link header; pages are requested with GET; -next reads a body piped on standard input, with -base the URL of the page",
		`curl -s "$u" | weblink -next -next-in-body /links/next -base "$u"`},
	{"json", "print the links as a linkset (application/linkset+json, RFC 9264 §4.2); a link without anchor gets its base as anchor: -base, or the page of -url that sent it; without links, an empty linkset",
		`weblink -json '<https://example.com/a>; rel="alternate"'`},
	{"check", "check the links as a sender must write them: each problem is shown under its field value with a caret and marked error (RFC 8288 or RFC 9110 forbids it, or parsers drop it) or warning (allowed, but it will not work as meant, such as a preload without as or an unregistered relation type); Link-Template fields (RFC 9652) too: a field that is not a Structured Field List of Strings, a target or anchor that is not a URI Template (RFC 6570), a var-base that is not a URI-reference, and what is wrong with the link as with a Link field (rel missing, malformed) are errors, an unregistered relation type a warning; exit status 2 when there are errors",
		"curl -sI https://example.com/ | weblink -check"},
	{"format", "print each link as one link-value per line, as weblink would send it",
		"weblink -format '<https://example.com/>; REL=Next'"},
	{"discover", "with -url: GET the resource and list the links of its header and of its body (HTML, Atom/RSS feeds, linksets) together, with where each came from; with -rel, print the first match, which is the endpoint that Webmention and WebSub discovery ask for; not with -all, -check or -format",
		"weblink -url https://example.com/post -discover -rel webmention"},
	{"linkformat", "read standard input (at most 1 MiB), or the body of -url (GET, at most 16 MiB), as an application/link-format document (RFC 6690: CoAP /.well-known/core, resource directories, Memento TimeMaps) and resolve its links as RFC 6690 §2.1 says: a relative target against its anchor, the context (the origin of the target, else of the document) in the anchor, rel hosts when there is none, UTF-8 kept; -url does this by itself when the response is application/link-format; not with -all, -check or -discover",
		"weblink -url https://web.archive.org/web/timemap/link/example.com -linkformat -rel memento"},
	{"api-catalog", "with -url: list the APIs that the origin of the URL publishes: GET its /.well-known/api-catalog (RFC 9727), following redirects to other origins but never from https to http, and the nested catalogs it lists on the same origin, one level deep; the table, -rel and -json show the catalog's links; not with -all, -discover, -check or -format",
		"weblink -url https://example.com -api-catalog -json"},
	{"signposting", "with -url: read the FAIR Signposting of a research record's landing page (the Link header, HTML <link> and the linksets of rel=\"linkset\" on its origin; a 410 tombstone is read) and check it against the profile's Level 1 and Level 2 rules: the signposts by relation, then each problem with the level it breaks; -json gives the signposts, Level2 and the problems as JSON; exit status 2 when a rule is broken or the fetch failed, 0 when clean (warnings only); not with -all, -discover, -api-catalog, -rel, -next, -check or -format",
		"weblink -url https://zenodo.org/records/7839293 -signposting"},
	{"version", "print the version of weblink, and the Go version and commit it was built from", "weblink -version"},
	{"h", "print this help", "weblink -h"},
}

// helpOutro is the end of the help, after the flags.
const helpOutro = `The default output is a table, one row per link: relation types (one that
is neither registered nor a URI is marked "?"), target, title (with its
language) and other attributes. The Link-Template fields (RFC 9652) of a
response head, a header block or a "Link-Template: ..." argument are shown
as rows marked "template" ("103 template" for a 103 Early Hints head) in
the first column, their URI Templates as written, never expanded; -json
lists those of the final head in a "link-template" member next to
"linkset". Colour is used only when standard output is a terminal,
NO_COLOR is unset or empty and TERM is not "dumb". Text that a
terminal would act on is escaped in every mode; -rel percent-encodes it. The
userinfo of -url and -base (user:password@) is never printed; the table and
the messages show no URL with its userinfo, while -rel, -format and -json
print the links as they were sent.

The table shows the links of 103 Early Hints heads, marked 103 in a FROM
column; -rel, -next, -format and -json take those of the final head only.

With -all, the table, -rel and -format print each page as it arrives; -json
writes its document and -check its summary at the end. -json stops with an
error after the page that brings its links to more than 100000.

Exit status: 0 success (-check: no errors, also in a head without Link
fields; -next: a next link, even beside a malformed link-value); 1 no links
found, -rel matched nothing, -next found no next link, -json could hold none
of the links, input or a response head larger than 1 MiB, a fetch failed (a
status other than 2xx included), or -timeout ended the run (with -all,
-discover or -api-catalog, the links read by then are shown); 2 a usage
error, problems found by -check, or with -signposting a broken rule or a
failed fetch; 3 malformed input: the table, -rel and
-format dropped a link-value (or a parameter, a Link-Template field, a
linkset) that they could not read, and printed the rest; -next found no
usable next link in a malformed head (3 wins over 1); 130 interrupted
(Ctrl-C). Errors go to standard error, prefixed "weblink: ".
`

// helpText returns what -h prints: the introduction, every flag of fs with
// its help and example, and the output and exit status.
func helpText(fs *flag.FlagSet) string {
	var b strings.Builder
	b.WriteString(helpIntro)
	b.WriteString("\nFlags, before or after the values (\"--\" ends them):\n\n")
	for _, d := range flagDocs {
		f := fs.Lookup(d.name)
		arg, help := flag.UnquoteUsage(f)
		if isBoolFlag(f) {
			arg = ""
		}
		b.WriteString("  -" + f.Name)
		if arg != "" {
			b.WriteString(" " + arg)
		}
		b.WriteString("\n")
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			help += " (default " + f.DefValue + ")"
		}
		wrap(&b, help, "      ", 78)
		writeExample(&b, d.example, 80)
	}
	b.WriteString("\n")
	b.WriteString(helpOutro)
	return b.String()
}

// wrap writes text as lines of at most width bytes, each starting with
// indent, breaking at spaces.
func wrap(b *strings.Builder, text, indent string, width int) {
	line := indent
	for _, word := range strings.Fields(text) {
		if len(line) > len(indent) && len(line)+1+len(word) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += word
	}
	b.WriteString(line + "\n")
}

// writeExample writes the command line cmd after "      $ ", continued
// after " \\" on lines indented further, as a shell reads it, before a flag
// that would take a line past width columns.
func writeExample(b *strings.Builder, cmd string, width int) {
	line := "      $ "
	for {
		cut := len(cmd)
		if len(line)+cut > width {
			cut = flagBefore(cmd, width-len(line)-len(" \\"))
		}
		b.WriteString(line + cmd[:cut])
		if cut == len(cmd) {
			b.WriteString("\n")
			return
		}
		b.WriteString(" \\\n")
		cmd, line = cmd[cut+1:], "          "
	}
}

// flagBefore returns the index in s of the last space before a flag (" -")
// that is at most limit, or of the first such space when none is; len(s)
// when there is none.
func flagBefore(s string, limit int) int {
	cut := -1
	for i := 0; i+1 < len(s); i++ {
		if s[i] != ' ' || s[i+1] != '-' {
			continue
		}
		if i > limit && cut >= 0 {
			break
		}
		cut = i
		if i > limit {
			break
		}
	}
	if cut < 0 {
		return len(s)
	}
	return cut
}

// example is printed with the usage error for no input at all.
const example = `Usage: weblink [flags] [link-value ...]

weblink needs Link field values as arguments, on standard input, or -url.
For example:

  weblink '<https://api.example.com/items?page=2>; rel="next"'
  curl -sI https://api.github.com/repos/golang/go/issues | weblink
  weblink -url https://api.github.com/repos/golang/go/issues

Run weblink -h for every flag.
`
