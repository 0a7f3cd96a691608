package quote

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

func TestValue(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"abc", `"abc"`},
		{"a\x1b[31mb\r\n", `"a\x1b[31mb\r\n"`},
		{"\xff", `"\xff"`},
		{strings.Repeat("a", 64), `"` + strings.Repeat("a", 64) + `"`},
		{strings.Repeat("a", 65), `"` + strings.Repeat("a", 64) + `"...`},
	} {
		if got := Value(tt.in); got != tt.want {
			t.Errorf("Value(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestURL(t *testing.T) {
	u, _ := url.Parse("https://user:secret@example.com/a?page=2#frag")
	if got, want := URL(u), `"https://example.com/a?page=2"`; got != want {
		t.Errorf("URL = %s, want %s", got, want)
	}
	long := "https://example.com/" + strings.Repeat("x", 300) + "?page=77"
	got := URLString(long)
	if !strings.HasPrefix(got, `"https://example.com/xxx`) || !strings.HasSuffix(got, `?page=77"`) || len(got) > 210 {
		t.Errorf("URLString of %d bytes = %s (%d bytes), want its start and end", len(long), got, len(got))
	}
}

func TestWithoutUserinfo(t *testing.T) {
	err := WithoutUserinfo(&url.Error{Op: "Get", URL: "https://tok@example.com/x", Err: errors.New("refused")})
	if strings.Contains(err.Error(), "tok") {
		t.Errorf("error %q shows the user name", err)
	}
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "pages", 1: "page", 2: "pages"} {
		if got := Plural(n, "page"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestStatus checks that a status line is shown as it is only when it is
// printable ASCII of at most 64 bytes.
func TestStatus(t *testing.T) {
	long := "500 " + strings.Repeat("x", 61)
	for in, want := range map[string]string{
		"404 Not Found":   "404 Not Found",
		"500 \x1b[2J":     `"500 \x1b[2J"`,
		"200 caf\xc3\xa9": `"200 café"`,
		long[:64]:         long[:64],
		long:              strconv.Quote(long[:64]) + "...",
	} {
		if got := Status(in); got != want {
			t.Errorf("Status(%q) = %s, want %s", in, got, want)
		}
	}
}
