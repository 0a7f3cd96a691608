package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strings"
)

// options are the command-line flags.
type options struct {
	url      string
	all      bool
	maxPages int
	base     string
	rel      string
	json     bool
	check    bool
	format   bool
	discover bool

	baseURL *url.URL // base, parsed; nil when not given
}

// usage is what -h prints: every flag with an example.
const usage = `Usage: weblink [flags] [link-value ...]

weblink shows, checks and follows HTTP Link headers (RFC 8288). Each argument
is one Link field value. Without arguments it reads standard input (at most
1 MiB): curl -sI or curl -i output, a header block, Link field values, or a
linkset document (application/linkset or application/linkset+json).

Flags, before or after the values ("--" ends them):
  -url URL    fetch URL (HEAD, or GET on 405/501) and read its Link headers
                weblink -url https://api.example.com/items
  -all        with -url: follow rel="next" through every page
                weblink -url https://api.example.com/items -all -rel next
  -max-pages N  with -all: stop with an error after N pages (default 1000)
                weblink -url https://api.example.com/items -all -max-pages 20
  -discover   with -url: GET; list header and body links (HTML, feeds, linksets)
                weblink -url https://example.com/post -discover -rel webmention
              with their source; -rel prints the first match (the endpoint)
  -base URL   resolve targets against URL (default: the fetched URL)
                curl -sI "$u" | weblink -base "$u"
  -rel NAME   print only the targets of the links with relation type NAME
                next=$(curl -sI "$u" | weblink -rel next -base "$u")
  -json       print the links as a linkset (application/linkset+json, RFC 9264)
                weblink -json '<https://example.com/a>; rel="alternate"'
  -check      strict validation; exit status 2 when there are problems
                curl -sI https://example.com/ | weblink -check
  -format     re-serialise canonically, one link-value per line
                weblink -format '<https://example.com/>; REL=Next'
  -h          print this help

The default output is a table: relation types (unregistered ones marked "?"),
target, title and other attributes.

Exit status: 0 success; 1 no links found, -rel matched nothing, input too
large or fetch failed; 2 usage error or -check problems.
`

// example is printed with the usage error for no input at all.
const example = `Usage: weblink [flags] [link-value ...]

weblink needs Link field values as arguments, on standard input, or -url.
For example:

  weblink '<https://api.example.com/items?page=2>; rel="next"'
  curl -sI https://api.github.com/repos/golang/go/issues | weblink

Run weblink -h for every flag.
`

// newFlagSet returns the flag set that fills o.
func newFlagSet(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("weblink", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.url, "url", "", "fetch URL and read its Link headers")
	fs.BoolVar(&o.all, "all", false, `with -url: follow rel="next" through every page`)
	fs.IntVar(&o.maxPages, "max-pages", 1000, "with -all: stop after N pages")
	fs.StringVar(&o.base, "base", "", "resolve targets against URL")
	fs.StringVar(&o.rel, "rel", "", "print the targets of the links with relation type NAME")
	fs.BoolVar(&o.json, "json", false, "print the links as JSON")
	fs.BoolVar(&o.check, "check", false, "strict validation")
	fs.BoolVar(&o.format, "format", false, "re-serialise canonically")
	fs.BoolVar(&o.discover, "discover", false, "with -url: links of the header and the body")
	return fs
}

// splitArgs separates flags (with their values) from link values, so that
// flags may come after the values. A link value starts with "<" or at
// least not with "-"; "--" makes every later argument a value.
func splitArgs(fs *flag.FlagSet, args []string) (flags, values []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return flags, append(values, args[i+1:]...)
		}
		if len(a) < 2 || a[0] != '-' {
			values = append(values, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil && !isBoolFlag(f) && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return flags, values
}

// isBoolFlag reports whether f takes no value.
func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// parseArgs parses the command line. When ok is false the command is over,
// with exit status code: -h was given, or the command line is wrong.
func parseArgs(args []string, stdout, stderr io.Writer) (o options, values []string, code int, ok bool) {
	fs := newFlagSet(&o)
	flags, values := splitArgs(fs, args)
	if err := fs.Parse(flags); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			io.WriteString(stdout, usage)
			return o, nil, exitOK, false
		}
		return o, nil, usageError(stderr, err.Error()), false
	}
	modes := 0
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "rel", "json", "check", "format":
			if f.Value.String() != "false" { // -json=false chooses no mode
				modes++
			}
		}
	})
	switch {
	case modes > 1:
		return o, nil, usageError(stderr, "-rel, -json, -check and -format cannot be combined"), false
	case o.all && o.url == "":
		return o, nil, usageError(stderr, "-all needs -url"), false
	case o.discover && (o.url == "" || o.all || o.check || o.format):
		return o, nil, usageError(stderr, "-discover needs -url, and cannot be combined with -all, -check or -format"), false
	case o.maxPages < 1:
		return o, nil, usageError(stderr, "-max-pages must be at least 1"), false
	case o.url != "" && len(values) > 0:
		return o, nil, usageError(stderr, "-url and link values cannot be combined"), false
	}
	if o.url != "" {
		if u, err := url.Parse(o.url); err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
			return o, nil, usageError(stderr, fmt.Sprintf("-url: %q is not an absolute http or https URL", o.url)), false
		}
	}
	if o.base != "" {
		u, err := url.Parse(o.base)
		if err != nil || !u.IsAbs() {
			return o, nil, usageError(stderr, fmt.Sprintf("-base: %q is not an absolute URL", o.base)), false
		}
		o.baseURL = u
	}
	return o, values, exitOK, true
}

// usageError reports a wrong command line and returns its exit status.
func usageError(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "weblink: %s\nRun weblink -h for usage.\n", msg)
	return exitProblem
}
