// The command line: the options, their parsing and checking, and usage
// errors.

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/weblinking/weblink/internal/ascii"
)

// options are the command-line flags.
type options struct {
	url        string
	all        bool
	maxPages   int
	base       string
	rel        string
	next       bool
	nextInBody string
	json       bool
	check      bool
	format     bool
	help       bool
	version    bool
	discover   bool
	// linkformat reads the input as an application/link-format document
	// (RFC 6690).
	linkformat bool
	catalog    bool          // -api-catalog
	signpost   bool          // -signposting
	headers    http.Header   // -H, each repeated
	timeout    time.Duration // for each request
	wait       time.Duration // -wait: WaitRateLimits; 0: off
	revalidate string        // -revalidate: the directory of the page store; "": none

	baseURL   *url.URL      // base, parsed, without userinfo; nil when not given
	user      *url.Userinfo // the userinfo of -url, which url no longer holds
	headerErr error         // what is wrong with a -H, said without its value
}

// newFlagSet returns the flag set that fills o.
func newFlagSet(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("weblink", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.url, "url", "", flagHelp("url"))
	fs.BoolVar(&o.all, "all", false, flagHelp("all"))
	fs.IntVar(&o.maxPages, "max-pages", 1000, flagHelp("max-pages"))
	fs.Func("H", flagHelp("H"), func(s string) error {
		o.headerErr = o.addHeader(s)
		return o.headerErr
	})
	fs.DurationVar(&o.timeout, "timeout", 30*time.Second, flagHelp("timeout"))
	fs.DurationVar(&o.wait, "wait", 0, flagHelp("wait"))
	fs.StringVar(&o.revalidate, "revalidate", "", flagHelp("revalidate"))
	fs.StringVar(&o.base, "base", "", flagHelp("base"))
	fs.StringVar(&o.rel, "rel", "", flagHelp("rel"))
	fs.BoolVar(&o.next, "next", false, flagHelp("next"))
	fs.StringVar(&o.nextInBody, "next-in-body", "", flagHelp("next-in-body"))
	fs.BoolVar(&o.json, "json", false, flagHelp("json"))
	fs.BoolVar(&o.check, "check", false, flagHelp("check"))
	fs.BoolVar(&o.format, "format", false, flagHelp("format"))
	fs.BoolVar(&o.discover, "discover", false, flagHelp("discover"))
	fs.BoolVar(&o.linkformat, "linkformat", false, flagHelp("linkformat"))
	fs.BoolVar(&o.catalog, "api-catalog", false, flagHelp("api-catalog"))
	fs.BoolVar(&o.signpost, "signposting", false, flagHelp("signposting"))
	fs.BoolVar(&o.version, "version", false, flagHelp("version"))
	fs.BoolVar(&o.help, "h", false, flagHelp("h")) // -help and --help give flag.ErrHelp
	return fs
}

// addHeader adds a request header given to -H as "Name: value", curl's
// spelling. The name must be a token and the value must not hold a control
// character: nothing given on the command line can split a header.
func (o *options) addHeader(s string) error {
	name, value, ok := strings.Cut(s, ":")
	if !ok || !ascii.IsToken(name) {
		return fmt.Errorf("want \"Name: value\", such as \"Authorization: Bearer $TOKEN\"")
	}
	value = strings.Trim(value, " \t")
	for i := 0; i < len(value); i++ {
		if c := value[i]; c < ' ' && c != '\t' || c == 0x7f {
			return fmt.Errorf("the value of %s holds a control character", name)
		}
	}
	if o.headers == nil {
		o.headers = http.Header{}
	}
	o.headers.Add(name, value)
	return nil
}

// flagHelp returns the help of the flag name, from flagDocs.
func flagHelp(name string) string {
	for _, d := range flagDocs {
		if d.name == name {
			return d.help
		}
	}
	panic("weblink: flag -" + name + " has no entry in flagDocs")
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
	if err := fs.Parse(flags); err != nil || o.help {
		switch {
		case o.help || errors.Is(err, flag.ErrHelp):
			io.WriteString(stdout, helpText(fs))
			return o, nil, exitOK, false
		case o.headerErr != nil:
			// The flag package would quote the value, often a token.
			return o, nil, usageError(stderr, "-H: "+o.headerErr.Error()), false
		}
		return o, nil, usageError(stderr, err.Error()), false
	}
	if o.version {
		io.WriteString(stdout, versionText())
		return o, nil, exitOK, false
	}
	modes, maxPages := 0, false
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "rel", "next", "json", "check", "format":
			if f.Value.String() != "false" { // -json=false chooses no mode
				modes++
			}
		case "max-pages":
			maxPages = true
		}
	})
	switch {
	case modes > 1:
		return o, nil, usageError(stderr, "-rel, -next, -json, -check and -format cannot be combined"), false
	case o.nextInBody != "" && (o.url != "" && !o.all && !o.next || o.url == "" && (!o.next || o.base == "") || o.discover || o.linkformat || o.catalog || o.signpost || len(values) > 0):
		return o, nil, usageError(stderr, "-next-in-body needs -url with -all or -next, or -next and -base for a body on standard input (curl -s \"$u\" | weblink -next -next-in-body /links/next -base \"$u\")"), false
	case o.next && o.all:
		return o, nil, usageError(stderr, "-next cannot be combined with -all, which follows the next links itself"), false
	case o.all && o.url == "":
		return o, nil, usageError(stderr, "-all needs -url"), false
	case o.discover && (o.url == "" || o.all || o.check || o.format):
		return o, nil, usageError(stderr, "-discover needs -url, and cannot be combined with -all, -check or -format"), false
	case o.linkformat && (o.all || o.check || o.discover || len(values) > 0):
		return o, nil, usageError(stderr, "-linkformat reads standard input or the body of -url, and cannot be combined with -all, -check, -discover or link values"), false
	case o.catalog && (o.url == "" || o.all || o.discover || o.check || o.format):
		return o, nil, usageError(stderr, "-api-catalog needs -url, and cannot be combined with -all, -discover, -check or -format"), false
	case o.signpost && (o.url == "" || o.all || o.discover || o.catalog || o.rel != "" || o.next || o.check || o.format || o.base != ""):
		return o, nil, usageError(stderr, "-signposting needs -url, and cannot be combined with -all, -discover, -api-catalog, -rel, -next, -check, -format or -base"), false
	case o.base != "" && (o.discover || o.catalog):
		return o, nil, usageError(stderr, "-base cannot be combined with -discover or -api-catalog, which resolve the links against the URLs they fetch"), false
	case maxPages && !o.all:
		return o, nil, usageError(stderr, o.maxPagesWithoutAll()), false
	case o.maxPages < 1:
		return o, nil, usageError(stderr, "-max-pages must be at least 1"), false
	case o.timeout <= 0:
		return o, nil, usageError(stderr, "-timeout must be more than 0, such as 10s or 2m"), false
	case len(o.headers) > 0 && o.url == "":
		return o, nil, usageError(stderr, "-H needs -url"), false
	case o.wait < 0:
		return o, nil, usageError(stderr, "-wait must be 0 (the default: no waiting) or more, such as 15m"), false
	case o.wait > 0 && (o.url == "" || o.discover):
		return o, nil, usageError(stderr, "-wait needs -url, and does not apply to -discover"), false
	case o.revalidate != "" && (o.url == "" || o.discover || o.catalog || o.signpost || o.linkformat):
		return o, nil, usageError(stderr, "-revalidate needs -url, and does not apply to -discover, -api-catalog, -signposting or -linkformat"), false
	case o.url != "" && len(values) > 0:
		return o, nil, usageError(stderr, "-url and link values cannot be combined"), false
	}
	if msg := urlValue(values); msg != "" {
		return o, nil, usageError(stderr, msg), false
	}
	// Userinfo is taken out of -url and -base as soon as they are read, so
	// that no message or output can show it.
	if o.url != "" {
		u, err := url.Parse(o.url)
		if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Hostname() == "" {
			s := withoutUserinfo(o.url)
			msg := fmt.Sprintf("-url: %q is not an absolute http or https URL", s)
			if !strings.Contains(s, "://") && !strings.HasPrefix(s, "/") {
				msg += fmt.Sprintf("; did you mean -url %q?", schemeFor(s)+s)
			}
			return o, nil, usageError(stderr, msg), false
		}
		o.user, u.User = u.User, nil
		o.url = u.String()
	}
	if o.base != "" {
		u, err := url.Parse(o.base)
		if err != nil || !u.IsAbs() {
			return o, nil, usageError(stderr, fmt.Sprintf("-base: %q is not an absolute URL", withoutUserinfo(o.base))), false
		}
		u.User = nil
		o.baseURL = u
	}
	return o, values, exitOK, true
}

// maxPagesWithoutAll returns the usage error for -max-pages given without
// -all, which it bounds: it is not taken to mean -all, because a bound
// that started a walk through every page would do more than was asked.
// The error suggests the command line with -all when that one would run.
func (o *options) maxPagesWithoutAll() string {
	msg := "-max-pages needs -all: it bounds the pages that -all follows"
	if o.url != "" && !o.next && !o.discover && !o.linkformat && !o.catalog {
		msg += fmt.Sprintf("; add -all: weblink -url %s -all -max-pages %d", clean(withoutUserinfo(o.url)), o.maxPages)
	}
	return msg
}

// urlValue returns the usage error for a link value that is an http or
// https URL rather than a Link field value (which starts with "<"), as
// when weblink is given the URL to fetch, or the word help, or "" when
// there is none.
func urlValue(values []string) string {
	for i, v := range values {
		if ascii.EqualFold(strings.TrimSpace(v), "help") {
			return fmt.Sprintf("argument %d is %q, not a Link field value; for help, run weblink -h", i+1, v)
		}
		s := strings.TrimLeft(v, " \t")
		if name, value, ok := splitHeader(s); ok && isLink(name) {
			s = value
		}
		if hasPrefixFold(s, "http://") || hasPrefixFold(s, "https://") {
			return fmt.Sprintf("argument %d is a URL, not a Link field value (which starts with \"<\"); to fetch it and show its links, use -url: weblink -url %s",
				i+1, clean(withoutUserinfo(s)))
		}
		if isHostAndPath(s) {
			return fmt.Sprintf("argument %d is not a Link field value (which starts with \"<\"); to fetch %s and show its links, use -url: weblink -url %s",
				i+1, clean(withoutUserinfo(s)), schemeFor(s)+clean(withoutUserinfo(s)))
		}
	}
	return ""
}

// isHostAndPath reports whether s reads as a URL without its scheme, such
// as example.com/items or localhost:8080/: a host name with a dot, or
// localhost, and an optional port and path, with none of the characters
// that a Link field value has (no link-value is without "<").
func isHostAndPath(s string) bool {
	if s == "" || !isAlnum(s[0]) || strings.ContainsAny(s, "<>;,\"' \t") {
		return false
	}
	host := s
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	if i := strings.LastIndexByte(host, ':'); i >= 0 {
		host = host[:i]
	}
	return host == "localhost" || strings.Contains(strings.Trim(host, "."), ".")
}

// schemeFor returns the scheme to suggest, with its "://", for s, a URL
// written without one: http for a loopback host (localhost, a name under
// .localhost, an address of 127.0.0.0/8 or ::1) and for any IP address
// literal, which a development server or a device answers without TLS as a
// rule (and a certificate seldom names); https for a host name.
func schemeFor(s string) string {
	u, err := url.Parse("//" + s)
	if err != nil {
		return "https://"
	}
	host := u.Hostname()
	if i := strings.IndexByte(host, '%'); i >= 0 {
		host = host[:i] // an IPv6 zone
	}
	if ascii.EqualFold(host, "localhost") || hasSuffixFold(host, ".localhost") || net.ParseIP(host) != nil {
		return "http://"
	}
	return "https://"
}

// hasSuffixFold reports whether s ends with suffix, ASCII letters in any
// case.
func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && ascii.EqualFold(s[len(s)-len(suffix):], suffix)
}

// isAlnum reports whether c is an ASCII letter or digit.
func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// hasPrefixFold reports whether s starts with prefix, ASCII letters in any
// case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && ascii.EqualFold(s[:len(prefix)], prefix)
}

// usageError reports a wrong command line and returns its exit status.
func usageError(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "weblink: %s\nRun weblink -h for usage.\n", msg)
	return exitProblem
}
