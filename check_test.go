package weblink

import (
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/weblinking/weblink/internal/memtest"
)

// want is an expected problem: its offset, whether it is a warning, and a
// piece of its message.
type want struct {
	off  int
	warn bool
	msg  string
}

// e and w build expected errors and warnings.
func e(off int, msg string) want { return want{off, false, msg} }
func w(off int, msg string) want { return want{off, true, msg} }

var checkTests = []struct {
	name string
	in   string
	want []want
}{
	// Clean field values.
	{"empty", "", nil},
	{"whitespace only", " \t ", nil},
	{"plain", `<https://example.com/2>; rel="next"`, nil},
	{"tokens and quoted", `</a>; rel=next; title="A, b"; hreflang=en; hreflang=de, </b>; rel="prev start"; x=1; x=2`, nil},
	{"good hints", `</style.css>; rel=preload; as=style, </f.woff2>; rel=preload; as=font; crossorigin, </api>; rel=preload; as=fetch; crossorigin=use-credentials, <https://cdn.example.com>; rel=preconnect, <https://cdn.example.com/>; rel=preconnect`, nil},
	{"as case-insensitive", `</s.js>; rel=preload; as=SCRIPT, </f.woff2>; rel=preload; as=Font; crossorigin`, nil},
	{"extension relation type", `</a>; rel="https://example.com/rels/Thing"`, nil},
	{"unregistered upper case", `</a>; rel="X-Custom"`, nil},
	{"ows around semicolons and commas", "</a> ; rel=next ;x=1 , </b>;rel=prev", nil},

	// Everything Parse reports, at its offsets.
	{"no <", `junk, </a>; rel=next`, []want{e(0, `must start with "<"`)}},
	{"< never closed", `</a; rel=next`, []want{e(0, `never closed`)}},
	// A "<" in the target: its ">" is missing (issue #37 item 1). Before,
	// the first was one link at 0 whose target had a "<" to
	// percent-encode, and the second a link with a repeated rel.
	{"> missing before a comma", `</a>; rel=alternate, </b; rel=next, </c>; rel=prev`, []want{e(34, `">" is probably missing before this ",": a URI-reference holds no "<"; link-value dropped; close the target with ">" before this comma`)}},
	{"> missing, next link checked", `</b; rel=next, </c>; rel=prev; rel=x`, []want{e(13, `">" is probably missing`), e(31, `repeated "rel"`)}},
	{"< in the target", `</a<b>; rel=next, </c>; rel=prev`, []want{e(3, `"<" inside the target`)}},
	{"quote never closed", `</a>; rel="next`, []want{e(10, `quoted-string is never closed`)}},
	{"junk after target", `</a> x; rel=next`, []want{e(5, `expected ";" or ","`)}},
	{"bad parameter name", `</a>; @=1, </b>; rel=next`, []want{e(6, `parameter name must be a token`)}},
	{"title* does not decode", `</a>; rel=next; title*=UTF-8'en'%ZZ`, []want{e(32, `title* value does not decode (weblink: syntax error at offset 9: invalid percent-escape "%ZZ" in ext-value); parameter dropped; write an RFC 8187 ext-value`)}},
	{"name* does not decode", `</a>; rel=next; x*=nope`, []want{e(23, `x* value does not decode`)}},
	{"problems after a dropped link-value", `x, </a>; rel=next; x*=UTF-8''%, y`, []want{
		e(0, `must start with "<"`), e(29, `x* value does not decode`), e(32, `must start with "<"`),
	}},

	// Repeats of the first-wins parameters, at the repeated name.
	{"rel again", `</a>; rel=next; REL=prev`, []want{e(16, `repeated "rel" is ignored`)}},
	{"anchor again", `</a>; rel=next; anchor="#x"; anchor="#y"`, []want{e(29, `repeated "anchor"`)}},
	{"rev again", `</a>; rel=next; rev=made; rev=made`, []want{e(26, `repeated "rev"`)}},
	{"media again", `</a>; rel=next; media=print; media=screen`, []want{e(29, `repeated "media"`)}},
	{"title again", `</a>; rel=next; title="a"; title="b"`, []want{e(27, `repeated "title"`)}},
	{"title* again", `</a>; rel=next; title*=UTF-8''a; title*=UTF-8''b`, []want{e(33, `repeated "title*"`)}},
	{"type again", `</a>; rel=next; type="text/html"; Type="text/plain"`, []want{e(34, `repeated "type"`)}},
	{"three times", `</a>; rel=a; rel=b; rel=c`, []want{e(13, `repeated "rel"`), e(20, `repeated "rel"`)}},
	{"bare repeat", `</a>; rel=next; rel`, []want{e(16, `repeated "rel"`)}},
	{"hreflang and extensions repeat", `</a>; rel=next; hreflang=en; hreflang=de; as=x; as=y`, nil},

	// Unquoted values that are not tokens, at the first non-tchar byte.
	{"rel=next junk", `</a>; rel=next junk`, []want{e(14, `the unquoted value of "rel" holds " "`)}},
	{"type=text/html", `</a>; rel=next; type=text/html`, []want{e(25, `holds "/", which only a quoted-string may: write type="text/html"`)}},
	{"media with parentheses", `</a>; rel=next; media=(min-width:1px)`, []want{e(22, `the unquoted value of "media" holds "("`)}},
	{"quote inside", `</a>; rel=next; x=a"b`, []want{e(19, `holds "\""`)}},
	{"empty value", `</a>; rel=next; x=; y=1`, []want{e(17, `"x=" has no value`)}},
	{"empty value at the end", `</a>; rel=next; x=`, []want{e(17, `"x=" has no value`)}},
	{"empty quoted value is fine", `</a>; rel=next; x=""`, nil},

	// Whitespace around "=", once per parameter, at the first whitespace.
	{"space before =", `</a>; rel =next`, []want{e(9, `whitespace around "=" in "rel"`)}},
	{"space after =", `</a>; rel= next`, []want{e(10, `whitespace around "="`)}},
	{"both sides, one problem", "</a>; rel \t= \tnext", []want{e(9, `whitespace around "="`)}},
	{"quoted value", `</a>; rel= "next"`, []want{e(10, `whitespace around "="`)}},
	{"each parameter", `</a>; rel = next; x = 1`, []want{e(9, `in "rel"`), e(19, `in "x"`)}},
	{"space then empty value", `</a>; rel=next; x= ;y=1`, []want{e(17, `"x=" has no value`), e(18, `whitespace around "="`)}},

	// Empty list elements, at the comma.
	{"leading comma", `,</a>; rel=next`, []want{e(0, `empty list element`)}},
	{"leading comma after space", ` , </a>; rel=next`, []want{e(1, `empty list element`)}},
	{"trailing comma", `</a>; rel=next,`, []want{e(14, `trailing comma`)}},
	{"trailing comma and space", `</a>; rel=next , `, []want{e(15, `trailing comma`)}},
	{"double comma", `</a>; rel=next,, </b>; rel=prev`, []want{e(15, `empty list element`)}},
	{"comma space comma", `</a>; rel=next, , </b>; rel=prev`, []want{e(16, `empty list element`)}},
	{"two trailing commas", `</a>; rel=next,,`, []want{e(15, `empty list element`)}},
	{"only a comma", `,`, []want{e(0, `empty list element`)}},
	{"only commas", ` ,, `, []want{e(1, `empty list element`), e(2, `empty list element`)}},
	{"after a dropped link-value", `x,,</a>; rel=next`, []want{e(0, `must start with`), e(2, `empty list element`)}},

	// Validate, at the link's "<".
	{"no rel", `</a>`, []want{e(0, `rel is missing`)}},
	{"no rel, second link", `</a>; rel=next, </b>; title=x`, []want{e(16, `rel is missing: a link needs at least one relation type (RFC 8288 §3.3); add a relation type`)}},
	{"bad relation type", `</a>; rel="next!"`, []want{e(0, `rel "next!" is neither`)}},
	{"target with space", `</a b>; rel=next`, []want{e(0, `target "/a b" is not a URI-reference or IRI`)}},
	{"anchor with space", `</a>; rel=next; anchor="#a b"`, []want{e(0, `anchor "#a b"`)}},
	{"bad hreflang", `</a>; rel=next; hreflang=en_US`, []want{e(0, `hreflang "en_US" is not a well-formed language tag`)}},
	{"bad type", `</a>; rel=next; type="text"`, []want{e(0, `type "text" is not a media type`)}},
	{"title with control", "</a>; rel=next; title=\"a\x01b\"", []want{e(0, `title "a\x01b" holds control characters`)}},
	{"every problem", `</a b>; hreflang=x_y`, []want{e(0, `target`), e(0, `rel is missing`), e(0, `hreflang`)}},
	{"Validate and syntax", `</a b>; rel=next; type=text/html`, []want{e(0, `target`), e(27, `type="text/html"`)}},

	// Warnings, at the link's "<".
	{"preload without as", `</a.js>; rel=preload`, []want{w(0, `preload without "as"`)}},
	{"preload with unknown as", `</a.mp4>; rel=preload; as=video`, []want{w(0, `as="video", which is not a preload destination`)}},
	{"preload as=document", `</>; rel=preload; as=document`, []want{w(0, `not a preload destination`)}},
	{"preload as empty", `</a>; rel=preload; as`, []want{w(0, `as="", which is not a preload destination`)}},
	{"font without crossorigin", `</f.woff2>; rel=preload; as=font`, []want{w(0, `preload as=font without crossorigin`)}},
	{"FONT without crossorigin", `</f.woff2>; rel=preload; as=FONT; type="font/woff2"`, []want{w(0, `preload as=font without crossorigin`)}},
	{"fetch without crossorigin", `</api>; rel=preload; as=fetch`, []want{w(0, `preload as=fetch without crossorigin`)}},
	{"preload among other types", `</a>; rel="prefetch preload"`, []want{w(0, `preload without "as"`)}},
	{"second link", `</a>; rel=next, </b>; rel=preload`, []want{w(16, `preload without "as"`)}},
	{"preconnect with path", `<https://cdn.example.com/x>; rel=preconnect`, []want{w(0, `write <https://cdn.example.com>`)}},
	{"preconnect with query", `<https://cdn.example.com?x=1>; rel=preconnect`, []want{w(0, `ignores the path and query`)}},
	{"preconnect with empty query", `<https://cdn.example.com/?>; rel=preconnect`, []want{w(0, `ignores the path and query`)}},
	{"preconnect relative", `</fonts>; rel=preconnect`, []want{w(0, `write the origin alone`)}},
	{"upper-case registered", `</a>; rel="Next"`, []want{w(0, `relation type "Next" in rel is registered as "next": write it in lower case`)}},
	{"upper-case, unquoted", `</a>; rel=NEXT`, []want{w(0, `"NEXT" in rel`)}},
	{"two upper-case", `</a>; rel="Prev  START next"`, []want{w(0, `"Prev"`), w(0, `"START"`)}},
	{"upper-case rev", `</a>; rel=next; rev="Next"`, []want{w(0, `"Next" in rev`)}},
	{"unregistered upper-case rev", `</a>; rel=next; rev="Made"`, nil},
	{"upper-case escaped", `</a>; rel="N\ext"`, []want{w(0, `"Next" in rel`)}},
	{"upper-case in ignored repeat", `</a>; rel=next; rel=Prev`, []want{e(16, `repeated "rel"`)}},
	{"errors first", `</a b>; rel="Next"`, []want{e(0, `target`), w(0, `"Next"`)}},
	{"several warnings", `</f>; rel="Preload preconnect"; as=font`, []want{w(0, `"Preload"`), w(0, `as=font without crossorigin`), w(0, `preconnect to "/f"`)}},
	{"no warnings for a dropped link", `</a>; rel="preload" x`, []want{e(20, `expected ";" or ","`)}},
}

func TestCheck(t *testing.T) {
	for _, tt := range checkTests {
		t.Run(tt.name, func(t *testing.T) {
			got := Check(tt.in)
			if tt.want == nil && got != nil {
				t.Errorf("Check(%q) = %v, want nil", tt.in, got)
			}
			if !matchProblems(got, tt.want) {
				t.Errorf("Check(%q):\n%s\nwant:\n%s", tt.in, formatProblems(got), formatWants(tt.want))
			}
		})
	}
}

// matchProblems reports whether got are the problems wants describe, in
// order.
func matchProblems(got []Problem, wants []want) bool {
	if len(got) != len(wants) {
		return false
	}
	for i, p := range got {
		if p.Offset != wants[i].off || p.Warning != wants[i].warn || !strings.Contains(p.Msg, wants[i].msg) {
			return false
		}
	}
	return true
}

func formatProblems(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString("  " + strconv.Itoa(p.Offset) + " warning=" + strconv.FormatBool(p.Warning) + " " + p.Msg + "\n")
	}
	return b.String()
}

func formatWants(ws []want) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString("  " + strconv.Itoa(w.off) + " warning=" + strconv.FormatBool(w.warn) + " ..." + w.msg + "...\n")
	}
	return b.String()
}

// TestCheckMessagesAdvise checks that every message says what to write
// instead: each has a "write", "add", "remove", "put", "use", "quote",
// "percent-encode", "send" or "fix".
func TestCheckMessagesAdvise(t *testing.T) {
	verbs := []string{"write", "add", "remove", "put", "use ", "percent-encode", "send", "fix", "close", "rename", "start", "separate", "quote"}
	for _, tt := range checkTests {
		for _, p := range Check(tt.in) {
			ok := false
			for _, v := range verbs {
				ok = ok || strings.Contains(strings.ToLower(p.Msg), v)
			}
			if !ok {
				t.Errorf("Check(%q): message %q does not say what to write instead", tt.in, p.Msg)
			}
		}
	}
}

// TestCheckLimit checks that Check lists at most 256 problems, the last
// saying how many more it found.
func TestCheckLimit(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		count int  // problems found
		warn  bool // whether the last listed is a warning
	}{
		{"256 exactly", strings.Repeat(",", 256), 256, false},
		{"commas", strings.Repeat(",", 300), 300, false},
		// Each with one more warning: over 4 KiB (rule 29).
		{"warnings", strings.Repeat("</a>; rel=preload, ", 299) + "</a>; rel=preload", 299 + 1 + 1, true},
		{"errors after warnings", strings.Repeat("</a>; rel=preload, ", 256) + "x", 256 + 1 + 1, false},
		// And Validate: no relation type; and rule 29: over 4 KiB.
		{"one huge link-value", "</a>" + strings.Repeat("; rel", 1001), 1000 + 1 + 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Check(tt.in)
			if len(got) != min(tt.count, maxProblems) {
				t.Fatalf("%d problems, want %d", len(got), min(tt.count, maxProblems))
			}
			last := got[len(got)-1]
			if tt.count <= maxProblems {
				if strings.Contains(last.Msg, "more problems") {
					t.Errorf("last problem %q counts problems not listed, but all are", last.Msg)
				}
				return
			}
			more := strconv.Itoa(tt.count-maxProblems+1) + " more problems not listed"
			if !strings.HasPrefix(last.Msg, more) || last.Warning != tt.warn {
				t.Errorf("last problem = %+v, want %q..., warning %v", last, more, tt.warn)
			}
			if last.Offset < got[len(got)-2].Offset {
				t.Errorf("last problem at %d, before the one before it at %d", last.Offset, got[len(got)-2].Offset)
			}
		})
	}
}

// TestCheckHasParseProblems checks, over the parser's test inputs, that
// Check reports every problem Parse reports, with its offset and message,
// in order, and that Check finds no error where Parse finds none and every
// link validates.
func TestCheckHasParseProblems(t *testing.T) {
	for _, tt := range parseTests {
		checkHasParseProblems(t, tt.in)
	}
}

// checkHasParseProblems fails t unless Check(in) holds, in order, every
// *SyntaxError that Parse(in) lists, when Check did not stop listing.
func checkHasParseProblems(t *testing.T, in string) {
	t.Helper()
	links, err := Parse(in)
	var syn []*SyntaxError
	walkSyntaxErrors(err, func(se *SyntaxError) { syn = append(syn, se) }, func() {})
	got := Check(in)
	if len(got) == maxProblems {
		return
	}
	k := 0
	for _, p := range got {
		if k < len(syn) && !p.Warning && p.Offset == syn[k].Offset && strings.HasPrefix(p.Msg, syn[k].Msg+"; ") {
			k++
		}
	}
	if k < len(syn) {
		t.Fatalf("Check(%q) lacks Parse's problem at %d %q:\n%s", in, syn[k].Offset, syn[k].Msg, formatProblems(got))
	}
	if err == nil {
		for _, l := range links {
			if l.Validate() != nil {
				return
			}
		}
		for _, p := range got {
			if !p.Warning && !strings.Contains(p.Msg, "empty list element") && !strings.Contains(p.Msg, "trailing comma") &&
				!strings.Contains(p.Msg, "repeated") && !strings.Contains(p.Msg, "unquoted value") &&
				!strings.Contains(p.Msg, "has no value") && !strings.Contains(p.Msg, "whitespace around") {
				t.Fatalf("Check(%q) reports %+v, but Parse and Validate find nothing wrong", in, p)
			}
		}
	}
}

// parsePieces splits in into link-values where Check does, and returns
// the links of Parse of each: the links of Parse(in) when Check splits
// where Parse does.
func parsePieces(in string) Links {
	var out Links
	c := checker{s: in}
	for i := 0; ; {
		for i < len(in) && (in[i] == ',' || charClass[in[i]]&isSpace != 0) {
			i++
		}
		if i == len(in) {
			return out
		}
		end, _ := c.linkValue(i)
		links, _ := Parse(in[i:end])
		out = append(out, links...)
		i = end
	}
}

// checkWarnable reports whether Check may warn about l: the conditions of
// the warnings, written out independently of check.go.
func checkWarnable(l Link) bool {
	for _, r := range append(append([]string(nil), l.Rel...), l.Rev...) {
		if _, ok := LookupRelation(r); ok && r != strings.ToLower(r) {
			return true
		}
	}
	if l.HasRel("preload") {
		as, ok := l.Param("as")
		if !ok {
			return true
		}
		switch strings.ToLower(as.Value) {
		case "font", "fetch":
			if _, ok := l.Param("crossorigin"); !ok {
				return true
			}
		case "image", "script", "style", "track":
		default:
			return true
		}
	}
	if l.HasRel("preconnect") {
		u, err := url.Parse(l.Target)
		if err == nil && (u.Opaque != "" || u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.ForceQuery) {
			return true
		}
	}
	return false
}

// FuzzCheck checks that Check never panics, that its problems are in input
// order (errors first at one offset) with offsets within the input, at most
// 256 of them; that it reports what Parse reports; and that for every link
// Parse returns that is in parsed form, valid and not warned about,
// Check(l.String()) is nil.
func FuzzCheck(f *testing.F) {
	for _, tt := range checkTests {
		f.Add(tt.in)
	}
	for _, tt := range parseTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got := Check(in)
		if len(got) > maxProblems {
			t.Fatalf("%d problems, more than %d", len(got), maxProblems)
		}
		for i, p := range got {
			// Parse reports what is missing at the end of the input
			// at len(in).
			if p.Offset < 0 || p.Offset > len(in) || p.Offset == len(in) && len(in) > 0 && !strings.Contains(p.Msg, "parameter dropped") {
				t.Fatalf("problem %+v: offset outside the input of %d bytes", p, len(in))
			}
			if p.Msg == "" {
				t.Fatalf("problem %+v has no message", p)
			}
			if i > 0 {
				q := got[i-1]
				if p.Offset < q.Offset || p.Offset == q.Offset && q.Warning && !p.Warning {
					t.Fatalf("problems out of order: %+v then %+v", q, p)
				}
			}
		}
		checkHasParseProblems(t, in)
		links, _ := Parse(in)
		if pieces := parsePieces(in); !cmp.Equal(links, pieces, cmpopts.EquateEmpty()) {
			t.Fatalf("Parse(%q) and Parse of its link-values one by one differ:\n%s", in, cmp.Diff(links, pieces, cmpopts.EquateEmpty()))
		}
		for _, l := range links {
			if !inParsedForm(l) || l.Validate() != nil || checkWarnable(l) {
				continue
			}
			if s := l.String(); Check(s) != nil {
				t.Fatalf("Check(%q) of the String of a valid link:\n%s", s, formatProblems(Check(s)))
			}
		}
	})
}

// TestCheckHostile checks that Check stays linear in time and bounded in
// memory on large hostile field values: at most 256 problems kept, a bound
// on the bytes allocated per input byte (most of it Parse's and Validate's
// garbage), 4 times the input allocating at most 4.5 times as much, and,
// outside the race detector, taking at most 6 times as much CPU time (with
// slack for a shared machine: the best of three runs).
func TestCheckHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	const size = 1 << 18
	for _, unit := range []string{"<>,", ",", "</a>; rel=next, ", "; rel", "</a>; rel=preload, ", "</a b>; hreflang=x_y; rel=Next, ", `; x*=bad`, `"`, "<", "; rel = a b"} {
		in := func(n int) string {
			s := strings.Repeat(unit, n/len(unit))
			if unit[0] == ';' {
				s = "</a>" + s
			}
			return s
		}
		small, large := in(size/4), in(size)
		allocs := func(s string) uint64 {
			return memtest.Allocated(func() {
				if ps := Check(s); len(ps) > maxProblems {
					t.Errorf("%q: %d problems", unit, len(ps))
				}
			})
		}
		as, al := allocs(small), allocs(large)
		if perByte := float64(al) / float64(len(large)); perByte > 400 {
			t.Errorf("%q: %.0f bytes allocated per input byte, want at most 400", unit, perByte)
		}
		if al > as*9/2+4096 {
			t.Errorf("%q: %d bytes allocated for %d bytes of input but %d for %d: not linear", unit, as, len(small), al, len(large))
		}
		if raceEnabled {
			continue
		}
		best := func(s string) time.Duration {
			d := time.Duration(1 << 62)
			for range 3 {
				runtime.GC()
				start := memtest.CPUTime()
				Check(s)
				d = min(d, memtest.CPUTime()-start)
			}
			return d
		}
		if ts, tl := best(small), best(large); tl > 6*ts+100*time.Millisecond {
			t.Errorf("%q: %v for %d bytes but %v for %d: not linear", unit, ts, len(small), tl, len(large))
		}
	}
}

// TestCheckManyParseProblems checks link-values with more problems than
// Parse lists in one call: Check lists them all, with Parse's offsets and
// messages, and repeats of title* stay ignored.
func TestCheckManyParseProblems(t *testing.T) {
	var b strings.Builder
	b.WriteString("</a>; rel=next; title*=UTF-8''ok")
	var want []want
	for i := range 40 {
		if i%7 == 3 {
			b.WriteString("; TITLE*=bad") // a repeat: ignored, never decoded
			want = append(want, e(b.Len()-10, `repeated "title*"`))
			continue
		}
		b.WriteString("; x*=bad")
		want = append(want, e(b.Len(), `x* value does not decode`))
	}
	b.WriteString(`; z="q" junk, </b>; rel=next; y*=bad`)
	in := b.String()
	want = append(want, e(strings.Index(in, "junk"), `expected ";" or ","`), e(len(in), `y* value does not decode`))
	got := Check(in)
	if !matchProblems(got, want) {
		t.Errorf("Check(%q):\n%s\nwant:\n%s", in, formatProblems(got), formatWants(want))
	}
}

// TestCheckMemoryBound checks that Check allocates no more per input byte
// than Parse may (maxParseBytesPerByte), for every memory shape at 1 MiB
// and for the units of TestCheckHostile (rule 33).
func TestCheckMemoryBound(t *testing.T) {
	const n = 1 << 20
	shapes := slices.Clone(memtest.Shapes)
	for _, unit := range []string{",", "</a>; rel=next, ", "; rel", "</a>; rel=preload, ", "</a b>; hreflang=x_y; rel=Next, ", `; x*=bad`, `"`, "; rel = a b"} {
		shapes = append(shapes, struct {
			Name  string
			Build func(n int) string
		}{"unit " + unit, func(n int) string { return "</a>" + strings.Repeat(unit, n/len(unit)) }})
	}
	for _, tc := range shapes {
		t.Run(tc.Name, func(t *testing.T) {
			in := tc.Build(n)
			var ps []Problem
			perByte := float64(memtest.Allocated(func() { ps = Check(in) })) / float64(len(in))
			t.Logf("Check: %.1f B/B, %d problems", perByte, len(ps))
			if perByte > maxParseBytesPerByte {
				t.Errorf("Check allocated %.1f bytes per input byte, want at most %d", perByte, maxParseBytesPerByte)
			}
		})
	}
}

// TestCheckFieldSize checks rule 29: one warning per field value, at the
// first link-value whose last byte (not counting the comma and whitespace
// after it) is beyond byte 4096, after the errors at that offset.
func TestCheckFieldSize(t *testing.T) {
	// link is a clean link-value of n bytes, n >= 20.
	link := func(n int) string {
		s := `</` + strings.Repeat("a", n-15) + `>; rel="next"`
		if len(s) != n {
			panic("link length")
		}
		return s
	}
	const msg = "longer than 4 KiB"
	tests := []struct {
		name string
		in   string
		want []want
	}{
		{"4096 bytes exactly", link(2047) + ", " + link(2047), nil},
		{"one link of 4096 bytes", link(4096), nil},
		{"one link of 4097 bytes", link(4097), []want{w(0, msg)}},
		{"the second link ends at byte 4097", link(2047) + ", " + link(2048), []want{w(2049, msg)}},
		{"the comma after it does not count", link(4096) + ",", []want{e(4096, "trailing comma")}},
		{"nor the whitespace before the comma", link(4096) + " \t,", []want{e(4098, "trailing comma")}},
		{"nor the whitespace at the end", link(4096) + "   ", nil},
		{"whitespace before the link counts from its <", link(4090) + ",      " + link(30), []want{w(4097, msg)}},
		{"once per field value", link(3000) + ", " + link(3000) + ", " + link(3000), []want{w(3002, msg)}},
		{"after the errors at the link", link(4090) + ", </a b>; rel=next", []want{e(4092, "target"), w(4092, msg)}},
		{"before the problems after its start", link(4090) + `, </a>; rel=next; title*=UTF-8'en'%ZZ`,
			[]want{w(4092, msg), e(4092+32, "title* value does not decode")}},
		{"a malformed link-value counts", link(4090) + ", junk junk junk", []want{e(4092, `must start with "<"`), w(4092, msg)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Check(tt.in)
			if !matchProblems(got, tt.want) {
				t.Errorf("Check of %d bytes:\n%s\nwant:\n%s", len(tt.in), formatProblems(got), formatWants(tt.want))
			}
		})
	}
}
