package weblink

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/weblinking/weblink/internal/ascii"
	"github.com/weblinking/weblink/internal/quote"
	"golang.org/x/text/language"
)

// long256 is a well-formed language tag of 256 bytes, the longest accepted.
var long256 = "en" + strings.Repeat("-abcde", 41) + "-abcdefg"

func TestParseExtValue(t *testing.T) {
	tests := []struct {
		in   string
		want ExtValue
	}{
		// Charsets: required ones, case-insensitive names, aliases.
		{"UTF-8''abc", ExtValue{"UTF-8", "", "abc"}},
		{"utf-8''%c2%a3", ExtValue{"utf-8", "", "£"}},
		{"Utf-8''%C2%A3", ExtValue{"Utf-8", "", "£"}},
		{"csUTF8''%E2%82%AC", ExtValue{"csUTF8", "", "€"}},
		{"US-ASCII''a%20b", ExtValue{"US-ASCII", "", "a b"}},
		{"us''%7E", ExtValue{"us", "", "~"}},
		{"ISO-8859-1''%A3%20rates", ExtValue{"ISO-8859-1", "", "£ rates"}},
		{"latin1''%E4", ExtValue{"latin1", "", "ä"}},
		{"ISO_8859-1''%FF", ExtValue{"ISO_8859-1", "", "ÿ"}},
		{"iso-8859-15''%A4", ExtValue{"iso-8859-15", "", "€"}},
		{"Latin-9''%A4", ExtValue{"Latin-9", "", "€"}},
		{"iso-8859-2''%A3", ExtValue{"iso-8859-2", "", "Ł"}},
		{"ISO-8859-8-I''%E0", ExtValue{"ISO-8859-8-I", "", "א"}},
		{"windows-1252''%80", ExtValue{"windows-1252", "", "€"}},
		{"WINDOWS-1251''%C4%E0", ExtValue{"WINDOWS-1251", "", "Да"}},
		{"KOI8-R''%E4%C1", ExtValue{"KOI8-R", "", "Да"}},
		{"koi8-u''%A4", ExtValue{"koi8-u", "", "є"}},
		{"IBM437''%B0", ExtValue{"IBM437", "", "░"}},
		{"cp850''%82", ExtValue{"cp850", "", "é"}},
		{"866''%80", ExtValue{"866", "", "А"}},
		{"macintosh''%8A", ExtValue{"macintosh", "", "ä"}},
		{"PC-Multilingual-850+euro''%D5", ExtValue{"PC-Multilingual-850+euro", "", "€"}},
		// Languages: absent, as written, well-formed with unknown subtags.
		{"UTF-8'en'x", ExtValue{"UTF-8", "en", "x"}},
		{"UTF-8'EN-us'x", ExtValue{"UTF-8", "EN-us", "x"}},
		{"UTF-8'de-CH-1996'x", ExtValue{"UTF-8", "de-CH-1996", "x"}},
		{"UTF-8'zh-Hant-TW'x", ExtValue{"UTF-8", "zh-Hant-TW", "x"}},
		{"UTF-8'cn'x", ExtValue{"UTF-8", "cn", "x"}},
		{"UTF-8'qq-ZZ'x", ExtValue{"UTF-8", "qq-ZZ", "x"}},
		{"UTF-8'x-private'x", ExtValue{"UTF-8", "x-private", "x"}},
		{"UTF-8'i-klingon'x", ExtValue{"UTF-8", "i-klingon", "x"}},
		{"UTF-8'en-u-co-phonebk'x", ExtValue{"UTF-8", "en-u-co-phonebk", "x"}},
		{"UTF-8'" + long256 + "'x", ExtValue{"UTF-8", long256, "x"}},
		// Values: every attr-char literal, "+" is a plus, hex of either
		// case, escaped "%", empty value.
		{"UTF-8''azAZ09!#$&+-.^_`|~", ExtValue{"UTF-8", "", "azAZ09!#$&+-.^_`|~"}},
		{"UTF-8''a+b", ExtValue{"UTF-8", "", "a+b"}},
		{"UTF-8''%2b%2B%2541", ExtValue{"UTF-8", "", "++%41"}},
		{"UTF-8''%c3%A4%C3%a4", ExtValue{"UTF-8", "", "ää"}},
		{"UTF-8''%00%0A%7F", ExtValue{"UTF-8", "", "\x00\n\x7f"}},
		{"UTF-8''%F0%9D%84%9E", ExtValue{"UTF-8", "", "𝄞"}},
		{"UTF-8''", ExtValue{"UTF-8", "", ""}},
		{"UTF-8'en'", ExtValue{"UTF-8", "en", ""}},
		{"ISO-8859-1''", ExtValue{"ISO-8859-1", "", ""}},
		// mime-charsetc allows "%", "{" and "}", but no such charset is
		// known: those are charset errors, tested below.
	}
	for _, tt := range tests {
		got, err := ParseExtValue(tt.in)
		if err != nil {
			t.Errorf("ParseExtValue(%q): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseExtValue(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestParseExtValueErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		msg    string // a part of the message
	}{
		// Structure.
		{"", 0, "missing apostrophe after ext-value charset"},
		{"abc", 3, "missing apostrophe after ext-value charset"},
		{"foo%20bar.html", 14, "missing apostrophe after ext-value charset"},
		{"UTF-8'", 6, "missing apostrophe after ext-value language"},
		{"UTF-8'abc", 9, "missing apostrophe after ext-value language"},
		{"UTF-8'missing third part", 24, "missing apostrophe after ext-value language"},
		{"''abc", 0, "empty charset"},
		{"'abc'", 0, "empty charset"},
		{"'", 0, "empty charset"},
		{`"UTF-8''abc"`, 0, "must not be a quoted-string"},
		{"blank second part'", 5, `invalid character " " in ext-value charset`},
		{"UTF.8''abc", 3, `invalid character "." in ext-value charset`},
		{"UTF-8\x00''abc", 5, "invalid byte 0x00 in ext-value charset"},
		{"UTF\xC3\xA4''abc", 3, "invalid byte 0xC3 in ext-value charset"},
		// Languages that are not well-formed.
		{"UTF-8'en_US'x", 8, `invalid character "_" in ext-value language`},
		{"UTF-8'not a tag!'x", 9, `invalid character " " in ext-value language`},
		{"UTF-8'1a'x", 6, `language "1a" is not a well-formed language tag`},
		{"UTF-8'en-'x", 6, "not a well-formed language tag"},
		{"UTF-8'-en'x", 6, "not a well-formed language tag"},
		{"UTF-8'en--US'x", 6, "not a well-formed language tag"},
		{"UTF-8'abcdefghi'x", 6, "not a well-formed language tag"},
		{"UTF-8'en-a'x", 6, "not a well-formed language tag"},
		{"UTF-8'language'x", 6, "not a well-formed language tag"},
		{"UTF-8'en" + strings.Repeat("-abcde", 43) + "'x", 6, "language is longer than 256 bytes"},
		// Value-chars.
		{"UTF-8''a b", 8, `invalid character " " in ext-value (not an attr-char or %HH escape)`},
		{`UTF-8''a"b`, 8, `invalid character "\""`},
		{"UTF-8''a*", 8, `invalid character "*"`},
		{"UTF-8''a'", 8, `invalid character "'"`},
		{"UTF-8''{}", 7, `invalid character "{"`},
		{"UTF-8''a\tb", 8, "invalid byte 0x09"},
		{"UTF-8''\xC3\xA4", 7, "invalid byte 0xC3"},
		{"UTF-8''%ZZ", 7, `invalid percent-escape "%ZZ"`},
		{"UTF-8''a%4", 8, `invalid percent-escape "%4"`},
		{"UTF-8''a%", 8, `invalid percent-escape "%"`},
		{"UTF-8''%4g", 7, `invalid percent-escape "%4g"`},
		{"UTF-8''%%41", 7, `invalid percent-escape "%%4"`},
		// Octets the charset does not define.
		{"UTF-8''ab%A3%20rates", 9, "invalid UTF-8"},
		{"UTF-8''%C3", 7, "invalid UTF-8"},
		{"UTF-8''%C3%A4%C3x", 13, "invalid UTF-8"},
		{"UTF-8''%ED%A0%80", 7, "invalid UTF-8"}, // a surrogate
		{"UTF-8''%C0%AF", 7, "invalid UTF-8"},    // overlong
		{"US-ASCII''ok%80", 12, `octet 0x80 is not a US-ASCII character`},
		{"windows-1252''%80%81", 17, `octet 0x81 is not a character in charset "windows-1252"`},
		{"iso-8859-1''%85", 12, `octet 0x85 is not a character in charset "iso-8859-1"`},
		{"iso-8859-1''foo-%c3%a4-%e2%82%ac.html", 26, `octet 0x82 is not a character in charset "iso-8859-1"`},
		{"ISO-8859-3''%A5", 12, `octet 0xA5 is not a character in charset "ISO-8859-3"`},
	}
	for _, tt := range tests {
		got, err := ParseExtValue(tt.in)
		if err == nil {
			t.Errorf("ParseExtValue(%q) = %+v, want an error", tt.in, got)
			continue
		}
		if got != (ExtValue{}) {
			t.Errorf("ParseExtValue(%q) = %+v with an error, want the zero ExtValue", tt.in, got)
		}
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("ParseExtValue(%q) error %v (%T) is not a *SyntaxError", tt.in, err, err)
			continue
		}
		if se.Offset != tt.offset || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("ParseExtValue(%q) error at %d %q, want at %d containing %q", tt.in, se.Offset, se.Msg, tt.offset, tt.msg)
		}
		if errors.Is(err, ErrCharset) {
			t.Errorf("ParseExtValue(%q) error %v matches ErrCharset", tt.in, err)
		}
	}
}

func TestParseExtValueUnsupportedCharset(t *testing.T) {
	for _, in := range []string{
		"GB2312'cn'%C6%F3",
		"foo''abc",
		"a''foo",
		"UTF-16''%00a",
		"Shift_JIS''abc",
		"EBCDIC-US''abc", // EBCDIC is left out: attr-chars are US-ASCII
		"IBM037''abc",
		"x-user-defined''abc",
		"utf8''abc", // a WHATWG label, not an IANA name or alias
		"%{}''abc",
		"ISO-8859-1-and-a-name-longer-than-any-in-the-table''abc",
	} {
		_, err := ParseExtValue(in)
		if !errors.Is(err, ErrCharset) {
			t.Errorf("ParseExtValue(%q) error %v, want ErrCharset", in, err)
			continue
		}
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset != 0 || !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseExtValue(%q) error %v is not a *SyntaxError at offset 0", in, err)
		}
		charset, _, _ := strings.Cut(in, "'")
		if !strings.Contains(err.Error(), quote.Value(charset)) {
			t.Errorf("ParseExtValue(%q) error %q does not name the charset", in, err)
		}
	}
	// A syntax error before the charset is looked up takes precedence.
	if _, err := ParseExtValue("GB2312'en_US'x"); err == nil || errors.Is(err, ErrCharset) {
		t.Errorf("ParseExtValue with a bad language and charset: %v, want a language error", err)
	}
}

// isMimeCharsetc reports whether c is a mime-charsetc, written from RFC 8187
// §3.2.1 rather than from the charClass table that ParseExtValue uses:
//
//	mime-charsetc = ALPHA / DIGIT / "!" / "#" / "$" / "%" / "&" / "+" /
//	                "-" / "^" / "_" / "`" / "{" / "}" / "~"
func isMimeCharsetc(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&+-^_`{}~", c) >= 0
}

// TestCharsetTable checks every name of the charset table: lower-case, a
// mime-charset, found case-insensitively, and decoding every octet as
// golang.org/x/text does, except where ParseExtValue reports an undefined
// octet.
func TestCharsetTable(t *testing.T) {
	if len(charsets) < 100 {
		t.Fatalf("charset table has %d names", len(charsets))
	}
	longest := 0
	for name, cs := range charsets {
		longest = max(longest, len(name))
		if ascii.Lower(name) != name || !allOf(name, isMimeCharsetc) {
			t.Errorf("charset name %q is not a lower-case mime-charset", name)
		}
		for _, written := range []string{name, strings.ToUpper(name)} {
			if got, ok := lookupCharset(written); !ok || got != cs {
				t.Errorf("lookupCharset(%q) = %v, %v", written, got, ok)
			}
		}
		if cs.cmap == nil {
			continue
		}
		for c := 0; c < 256; c++ {
			octet := string(rune(c))
			if c >= utf8.RuneSelf {
				octet = "%" + hexByte(byte(c))[2:]
			} else if charClass[c]&isAttrChar == 0 {
				continue
			}
			want, err := cs.cmap.NewDecoder().String(string([]byte{byte(c)}))
			if err != nil {
				t.Fatal(err)
			}
			if c < utf8.RuneSelf && want != string(rune(c)) {
				t.Errorf("charset %q decodes ASCII %q as %q", name, rune(c), want)
			}
			undefined := want == "\uFFFD" || cs.noC1 && 0x80 <= c && c <= 0x9F
			got, err := ParseExtValue(name + "''" + octet)
			switch {
			case undefined && err == nil:
				t.Errorf("charset %q: octet %#x decoded as %q, want an error", name, c, got.Value)
			case !undefined && err != nil:
				t.Errorf("charset %q: octet %#x: %v", name, c, err)
			case !undefined && got.Value != want:
				t.Errorf("charset %q: octet %#x decoded as %q, want %q", name, c, got.Value, want)
			}
		}
	}
	if longest != maxCharsetName {
		t.Errorf("longest charset name has %d bytes, maxCharsetName is %d", longest, maxCharsetName)
	}
	for _, name := range []string{"utf-8", "us-ascii", "iso-8859-1", "windows-1252", "iso-8859-15", "koi8-r", "macintosh", "ibm437"} {
		if _, ok := charsets[name]; !ok {
			t.Errorf("charset %q is not in the table", name)
		}
	}
}

// TestSimpleLanguage checks that the tags wellFormedLanguage accepts without
// calling language.Parse are accepted by it too.
func TestSimpleLanguage(t *testing.T) {
	letters := "abcdefghijklmnopqrstuvwxyzABCXYZ"
	var tags []string
	for _, a := range letters {
		for _, b := range letters {
			tags = append(tags, string(a)+string(b))
			for _, c := range "aqzAZ" {
				tags = append(tags, string(a)+string(b)+string(c))
			}
		}
	}
	for _, lang := range []string{"en", "qq", "und", "zzz", "cn", "tlh"} {
		for _, script := range []string{"", "-Latn", "-Hant", "-zyyy", "-QAAA", "-Abcd"} {
			for _, region := range []string{"", "-US", "-zz", "-QO", "-XK", "-419", "-000", "-999"} {
				tags = append(tags, lang+script+region)
			}
		}
	}
	for _, tag := range tags {
		if !simpleLanguage(tag) {
			t.Fatalf("simpleLanguage(%q) = false", tag)
		}
		if !xtextWellFormed(tag) {
			t.Errorf("language.Parse(%q) fails, but simpleLanguage accepts it", tag)
		}
	}
	for _, tag := range []string{"", "e", "engl", "en-U", "en-USA", "en-12", "en-1234", "en-Lat", "en-Latin",
		"en-Latn-", "en-Latn-U", "en-Latn-Hant", "en-US-Latn", "en-US-x", "1a", "en_US", "e1", "en-", "-en", "en--US",
		"en-US-", "en-U1", "en-41a", "x-private", "i-klingon"} {
		if simpleLanguage(tag) {
			t.Errorf("simpleLanguage(%q) = true", tag)
		}
	}
}

// xtextWellFormed reports whether golang.org/x/text/language parses tag, or
// fails only because a well-formed subtag is unknown: the definition of a
// well-formed tag that simpleLanguage must agree with.
func xtextWellFormed(tag string) bool {
	_, err := language.Parse(tag)
	var unknown language.ValueError
	return err == nil || errors.As(err, &unknown)
}

// FuzzSimpleLanguage checks the hand-written check of simpleLanguage
// against golang.org/x/text/language on any input: every tag it accepts,
// x/text accepts (the other tags go to x/text anyway), and
// wellFormedLanguage answers as x/text does.
func FuzzSimpleLanguage(f *testing.F) {
	for _, tag := range []string{"en", "de-CH", "zh-Hant-TW", "es-419", "sr-Latn", "und", "en-Latn-", "i-klingon", "x-a", "EN-us", "abc-Defg-123"} {
		f.Add(tag)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		want := len(tag) <= maxLanguage && allOf(tag, isLanguageChar) && xtextWellFormed(tag)
		if simpleLanguage(tag) && !want {
			t.Fatalf("simpleLanguage(%q) = true, but language.Parse rejects it", tag)
		}
		if allOf(tag, isLanguageChar) && len(tag) <= maxLanguage && tag != "" && wellFormedLanguage(tag) != want {
			t.Fatalf("wellFormedLanguage(%q) = %v, x/text says %v", tag, !want, want)
		}
	})
}

func TestExtValueString(t *testing.T) {
	tests := []struct {
		v    ExtValue
		want string
	}{
		{ExtValue{}, "UTF-8''"},
		{ExtValue{Charset: "ISO-8859-1", Lang: "en", Value: "£ rates"}, "UTF-8'en'%C2%A3%20rates"},
		{ExtValue{Value: "azAZ09!#$&+-.^_`|~"}, "UTF-8''azAZ09!#$&+-.^_`|~"},
		{ExtValue{Value: "%*'\"(),/:;<=>?@[\\]{} \t\r\n\x00\x7f"}, "UTF-8''%25%2A%27%22%28%29%2C%2F%3A%3B%3C%3D%3E%3F%40%5B%5C%5D%7B%7D%20%09%0D%0A%00%7F"},
		{ExtValue{Lang: "de", Value: "nächstes Kapitel"}, "UTF-8'de'n%C3%A4chstes%20Kapitel"},
		{ExtValue{Value: "𝄞"}, "UTF-8''%F0%9D%84%9E"},
		// Invalid UTF-8: each bad byte becomes U+FFFD.
		{ExtValue{Value: "a\xffb"}, "UTF-8''a%EF%BF%BDb"},
		{ExtValue{Value: "\xe2\x82"}, "UTF-8''%EF%BF%BD%EF%BF%BD"},
		{ExtValue{Value: "\xed\xa0\x80"}, "UTF-8''%EF%BF%BD%EF%BF%BD%EF%BF%BD"},
	}
	for _, tt := range tests {
		got := tt.v.String()
		if got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.v, got, tt.want)
		}
		dec, err := ParseExtValue(got)
		if err != nil {
			t.Errorf("ParseExtValue(%q): %v", got, err)
			continue
		}
		want := ExtValue{Charset: "UTF-8", Lang: tt.v.Lang, Value: string([]rune(tt.v.Value))}
		if diff := cmp.Diff(want, dec); diff != "" {
			t.Errorf("round trip of %#v (-want +got):\n%s", tt.v, diff)
		}
	}
}

// TestParseExtValueLinear checks that ParseExtValue takes time linear in
// its input on shapes of which one took seconds at 1 MB before the
// language tag was limited: 4 times the input may take at most 6 times as
// long, in processor time, with the slack of checkLinear (a bound in
// seconds failed under -race on a loaded machine: 2.4 s for 1 MiB of "a").
func TestParseExtValueLinear(t *testing.T) {
	shapes := []func(n int) string{
		func(n int) string { return "UTF-8'en" + strings.Repeat("-abcde", n/6) + "'x" },
		func(n int) string { return "UTF-8''" + strings.Repeat("%C3%A4", n/6) },
		func(n int) string { return "windows-1252''" + strings.Repeat("%C3", n/3) + "%81" },
		func(n int) string { return strings.Repeat("a", n) },
	}
	for i, build := range shapes {
		checkLinear(t, fmt.Sprintf("ParseExtValue shape %d", i), build(1<<18), build(1<<20),
			func(s string) { _, _ = ParseExtValue(s) })
	}
}

func TestExtValueAllocs(t *testing.T) {
	tests := []struct {
		in     string
		allocs float64
	}{
		{"UTF-8''plain-text", 0},
		{"utf-8'en'plain-text", 0},
		{"iso-8859-1'de-CH'plain-text", 0},
		{"UTF-8''n%C3%A4chstes%20Kapitel", 1},
		{"ISO-8859-1''%A3%20rates", 1},
		{"windows-1251''%C4%E0", 1},
	}
	for _, tt := range tests {
		got := testing.AllocsPerRun(100, func() {
			if _, err := ParseExtValue(tt.in); err != nil {
				t.Fatal(err)
			}
		})
		if got > tt.allocs {
			t.Errorf("ParseExtValue(%q) allocates %v times, want %v", tt.in, got, tt.allocs)
		}
	}
	for _, v := range []ExtValue{{Lang: "en", Value: "£ rates"}, {Value: "a\xffb"}, {Value: "plain"}} {
		var sink string
		if got := testing.AllocsPerRun(100, func() { sink = v.String() }); got > 1 {
			t.Errorf("%#v.String() allocates %v times, want at most 1", v, got)
		}
		_ = sink
	}
	v, _ := ParseExtValue("UTF-8''plain-text")
	if in := "UTF-8''plain-text"; v.Value != in[7:] {
		t.Errorf("Value = %q", v.Value)
	}
}

// conformanceFile is a file of testdata/extvalue: ext-value cases from other
// projects (conformance/ in the shared workspace), each with the project's
// expectation and, where that differs from the source, the reason.
type conformanceFile struct {
	SourceFile  string            `json:"source_file"`
	Description string            `json:"description"`
	Cases       []conformanceCase `json:"cases"`
}

type conformanceCase struct {
	Name   string `json:"name"`
	Source string `json:"source"` // where the case comes from
	Kind   string `json:"kind"`   // decode, encode or not_applicable
	Input  string `json:"input"`
	Want   *ExtValue
	Error  string `json:"want_error"` // syntax or charset
	Encode *struct {
		Lang  string `json:"lang"`
		Value string `json:"value"`
	} `json:"encode"`
	WantEncoded   string         `json:"want_encoded"`   // exactly what String writes
	SourceEncoded string         `json:"source_encoded"` // the source's encoding: decodes alike
	Conversion    string         `json:"conversion"`     // how a header-level case became an ext-value case
	Reason        string         `json:"reason"`         // why the expectation differs from the source
	Derived       bool           `json:"derived"`        // added here, no source case of its own
	SourceCase    map[string]any `json:"source_case"`    // the source's case as published
}

func readConformance(tb testing.TB) map[string]conformanceFile {
	tb.Helper()
	found := readTestdata(tb, "extvalue/*.json")
	if len(found) != 6 {
		tb.Fatalf("testdata/extvalue: %d files, want 6", len(found))
	}
	files := make(map[string]conformanceFile)
	for _, file := range found {
		var f conformanceFile
		dec := json.NewDecoder(bytes.NewReader(file.data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			tb.Fatalf("%s: %v", file.name, err)
		}
		files[path.Base(file.name)] = f
	}
	return files
}

func TestExtValueConformance(t *testing.T) {
	type counts struct{ decode, encode, notApplicable, converted, differ int }
	files := readConformance(t)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		var n counts
		for _, c := range files[name].Cases {
			ok := true
			switch c.Kind {
			case "decode":
				ok = checkDecodeCase(t, c)
				if ok {
					n.decode++
				}
			case "encode":
				ok = checkEncodeCase(t, c)
				if ok {
					n.encode++
				}
			case "not_applicable":
				if c.Reason == "" {
					t.Errorf("%s: case %q is not applicable but gives no reason", name, c.Name)
				}
				n.notApplicable++
			default:
				t.Errorf("%s: case %q has kind %q", name, c.Name, c.Kind)
			}
			if !ok {
				t.Errorf("%s: case %q from %s failed", name, c.Name, c.Source)
			}
			if c.Conversion != "" {
				n.converted++
			}
			if c.Kind != "not_applicable" && c.Reason != "" {
				n.differ++
			}
			checkProvenance(t, name, c)
		}
		t.Logf("%s: %d cases: %d decode and %d encode passed, %d not applicable (listed with reasons); %d converted from header level, %d expect differently from the source (with reasons)",
			name, len(files[name].Cases), n.decode, n.encode, n.notApplicable, n.converted, n.differ)
	}
}

// checkDecodeCase runs ParseExtValue on a decode case.
func checkDecodeCase(t *testing.T, c conformanceCase) bool {
	t.Helper()
	got, err := ParseExtValue(c.Input)
	switch {
	case c.Want == nil && c.Error == "":
		t.Errorf("case %q expects nothing", c.Name)
		return false
	case c.Want == nil:
		var se *SyntaxError
		isCharset := errors.Is(err, ErrCharset)
		if err == nil || !errors.As(err, &se) || isCharset != (c.Error == "charset") {
			t.Errorf("ParseExtValue(%q) = %+v, %v; want a %s error", c.Input, got, err, c.Error)
			return false
		}
		return true
	case err != nil:
		t.Errorf("ParseExtValue(%q): %v", c.Input, err)
		return false
	}
	if diff := cmp.Diff(*c.Want, got); diff != "" {
		t.Errorf("ParseExtValue(%q) mismatch (-want +got):\n%s", c.Input, diff)
		return false
	}
	return checkEncoding(t, c.Name, got.Lang, got.Value, c.WantEncoded, c.SourceEncoded)
}

// checkEncodeCase runs ExtValue.String on an encode case.
func checkEncodeCase(t *testing.T, c conformanceCase) bool {
	t.Helper()
	if c.Encode == nil || c.WantEncoded == "" || c.SourceEncoded == "" {
		t.Errorf("encode case %q is incomplete", c.Name)
		return false
	}
	return checkEncoding(t, c.Name, c.Encode.Lang, c.Encode.Value, c.WantEncoded, c.SourceEncoded)
}

// checkEncoding checks that String encodes lang and value as wantEncoded
// (when given) and that both that and the source's encoding decode to them.
func checkEncoding(t *testing.T, name, lang, value, wantEncoded, sourceEncoded string) bool {
	t.Helper()
	ok := true
	enc := ExtValue{Lang: lang, Value: value}.String()
	if wantEncoded != "" && enc != wantEncoded {
		t.Errorf("case %q: String() = %q, want %q", name, enc, wantEncoded)
		ok = false
	}
	for _, s := range []string{enc, sourceEncoded} {
		if s == "" {
			continue
		}
		got, err := ParseExtValue(s)
		if err != nil || got.Lang != lang || got.Value != value {
			t.Errorf("case %q: ParseExtValue(%q) = %+v, %v; want Lang %q, Value %q", name, s, got, err, lang, value)
			ok = false
		}
	}
	return ok
}

// checkProvenance checks that a case keeps its source's case, and that a
// case whose input or outcome differs from the source says why.
func checkProvenance(t *testing.T, file string, c conformanceCase) {
	t.Helper()
	explained := c.Reason != "" || c.Conversion != ""
	if c.Derived || c.SourceCase == nil {
		if !c.Derived || c.SourceCase != nil || !explained {
			t.Errorf("%s: case %q: a derived case has no source case and says why it was added", file, c.Name)
		}
		return
	}
	if c.Kind != "decode" {
		return
	}
	src := c.SourceCase
	if in, _ := src["input"].(string); in != c.Input && c.Conversion == "" {
		t.Errorf("%s: case %q: input differs from the source's %q without a conversion note", file, c.Name, in)
	}
	if !explained && !agreesWithSource(c) {
		t.Errorf("%s: case %q disagrees with its source case without a reason", file, c.Name)
	}
}

// agreesWithSource reports whether a decode case expects what its source
// case does, as far as the source says.
func agreesWithSource(c conformanceCase) bool {
	src := c.SourceCase
	srcErr := src["error"] == true || src["expect_error"] == true
	if srcErr || c.Want == nil {
		return srcErr == (c.Want == nil)
	}
	value, ok := src["value"].(string)
	if !ok {
		value, ok = src["expect_filename"].(string)
	}
	if !ok || value != c.Want.Value {
		return false
	}
	if lang, ok := src["language"].(string); ok && lang != c.Want.Lang {
		return false
	}
	if cs, ok := src["charset"].(string); ok && cs != c.Want.Charset {
		return false
	}
	return true
}

// fuzzLangs are the languages FuzzExtValue encodes values with.
var fuzzLangs = []string{"", "en", "de-CH", "zh-Hant-TW", "cn", "x-private", "i-klingon", "en-u-co-phonebk"}

// checkUTF8Prefix fails t when ParseExtValue, which takes the short path
// of utf8Prefix when it can, answers s otherwise than the general path.
func checkUTF8Prefix(t *testing.T, s string) {
	t.Helper()
	got, err := ParseExtValue(s)
	want, werr := parseExtValue(s, nil)
	if got != want || fmt.Sprint(err) != fmt.Sprint(werr) || errors.Is(err, ErrCharset) != errors.Is(werr, ErrCharset) {
		t.Fatalf("ParseExtValue(%q) = %+v, %v; the general path gives %+v, %v", s, got, err, want, werr)
	}
}

// TestUTF8Prefix checks the short path of ParseExtValue against the
// general one around the forms utf8Prefix takes.
func TestUTF8Prefix(t *testing.T) {
	taken := 0
	for _, charset := range []string{"UTF-8", "utf-8", "UTF-8 ", "UTF-", "UTF-88", ""} {
		for _, lang := range []string{"", "en", "EN", "e1", "1e", "e", "eng", "en-US", "e-", "-e", "en'", "'"} {
			for _, value := range []string{"", "a", "%20", "%e2%82%ac", "%ff", "%2", "a b", "'", "\"", "%"} {
				s := charset + "'" + lang + "'" + value
				for _, in := range []string{s, s[:len(s)-min(len(s), 1)], charset + "'" + lang} {
					checkUTF8Prefix(t, in)
					if _, _, ok := utf8Prefix(in); ok {
						taken++
					}
				}
			}
		}
	}
	if taken == 0 {
		t.Fatal("utf8Prefix took none of the inputs")
	}
}

func FuzzExtValue(f *testing.F) {
	for _, file := range readConformance(f) {
		for _, c := range file.Cases {
			for _, s := range []string{c.Input, c.WantEncoded, c.SourceEncoded} {
				if s != "" {
					f.Add(s)
				}
			}
			if c.Encode != nil {
				f.Add(c.Encode.Value)
			}
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkUTF8Prefix(t, s)
		// s as an ext-value: never panics; what decodes re-encodes.
		v, err := ParseExtValue(s)
		// Decoded into the shared text of a parse, after other text, it
		// is the same.
		var text strings.Builder
		text.WriteString("before")
		if shared, serr := decodeExtValue(s, &text); shared != v || fmt.Sprint(serr) != fmt.Sprint(err) || !strings.HasPrefix(text.String(), "before") {
			t.Fatalf("decodeExtValue(%q) into shared text = %+v, %v; ParseExtValue gives %+v, %v", s, shared, serr, v, err)
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(s) {
				t.Fatalf("ParseExtValue(%q) error %v has no offset within the input", s, err)
			}
		} else {
			if !utf8.ValidString(v.Value) || !strings.HasPrefix(s, v.Charset+"'"+v.Lang+"'") {
				t.Fatalf("ParseExtValue(%q) = %+v", s, v)
			}
			enc := v.String()
			got, err := ParseExtValue(enc)
			if want := (ExtValue{"UTF-8", v.Lang, v.Value}); err != nil || got != want {
				t.Fatalf("ParseExtValue(%q) = %+v, %v; want %+v (re-encoding %q)", enc, got, err, want, s)
			}
		}
		// s as a value: decoding its encoding gives it back, with each
		// invalid UTF-8 byte as U+FFFD.
		for _, lang := range fuzzLangs {
			enc := ExtValue{Lang: lang, Value: s}.String()
			got, err := ParseExtValue(enc)
			if want := (ExtValue{"UTF-8", lang, string([]rune(s))}); err != nil || got != want {
				t.Fatalf("ParseExtValue(%q) = %+v, %v; want %+v", enc, got, err, want)
			}
		}
	})
}

func BenchmarkParseExtValue(b *testing.B) {
	for _, bm := range []struct{ name, in string }{
		{"utf8-plain", "UTF-8''plain-text"},
		{"utf8-escaped", "UTF-8'de'n%c3%a4chstes%20Kapitel"},
		{"utf8-40", "UTF-8'en'Chapter%201%2C%20in%20which%20things%20go"}, // 40 bytes of value-chars
		{"utf8-40-unescaped", "UTF-8'en'Chapter-1-in-which-things-go-on-and-o"},
		{"iso-8859-1", "iso-8859-1'en'%A3%20rates"},
		{"utf8-script-tag", "UTF-8'zh-Hant-TW'%E6%95%B0%E6%8D%AE"},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := ParseExtValue(bm.in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("String", func(b *testing.B) {
		b.ReportAllocs()
		v := ExtValue{Lang: "de", Value: "nächstes Kapitel"}
		for i := 0; i < b.N; i++ {
			_ = v.String()
		}
	})
}

// TestParseExtValueChunks decodes values whose text is about the size of
// decodeUTF8's stack buffer, and bigger, in one allocation.
func TestParseExtValueChunks(t *testing.T) {
	for _, n := range []int{1, 63, 64, 65, 127, 128, 129, 1000} {
		var in, want strings.Builder
		for i := range n {
			if i%3 == 0 {
				in.WriteString("%C3%A4")
				want.WriteString("ä")
			} else {
				in.WriteByte('a' + byte(i%26))
				want.WriteByte('a' + byte(i%26))
			}
		}
		s := "UTF-8''" + in.String()
		v, err := ParseExtValue(s)
		if err != nil || v.Value != want.String() {
			t.Errorf("ParseExtValue(%q) = %q, %v; want %q", s, v.Value, err, want.String())
		}
		if allocs := testing.AllocsPerRun(10, func() { _, _ = ParseExtValue(s) }); allocs > 1 {
			t.Errorf("ParseExtValue of %d characters allocates %v times, want 1", n, allocs)
		}
	}
}
