package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
)

// bigField returns a Link field value of n modulepreload links, each 46
// bytes and ", " between them.
func bigField(n int) string {
	links := make([]string, n)
	for i := range links {
		links[i] = fmt.Sprintf(`</assets/chunk-%04d.js>; rel="modulepreload"`, i)
	}
	return strings.Join(links, ", ")
}

// TestCheckFieldOver4KiB runs the built command with -check on a Link
// field longer than 4 KiB, given as an argument, on standard input as a
// response head, and fetched with -url: it shows weblink.Check's warning
// once, with a caret under the first link-value that ends beyond byte
// 4096, and exits 0 (a warning); a field of 4096 bytes or less gets none.
func TestCheckFieldOver4KiB(t *testing.T) {
	field := bigField(110) // 5058 bytes; link 89 (0-based) starts at byte 4094
	const where = "byte 4094: warning: the field value is longer than 4 KiB"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", field)
		io.WriteString(w, "page")
	}))
	defer srv.Close()
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  string // the position the warning names
	}{
		{"argument", []string{"-check", field}, "", "argument 1, " + where},
		{"response head", []string{"-check"}, "HTTP/1.1 200 OK\r\nLink: " + field + "\r\n\r\n", where},
		{"-url", []string{"-check", "-url", srv.URL}, "", where},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(binary, tt.args...)
			cmd.Stdin = strings.NewReader(tt.stdin)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("weblink -check (%s): %v\n%s", tt.name, err, out)
			}
			stdout := string(out)
			if n := strings.Count(stdout, "longer than 4 KiB"); n != 1 {
				t.Errorf("%d warnings about the size, want 1:\n%s", n, stdout)
			}
			if !strings.Contains(stdout, tt.want) || !strings.Contains(stdout, "nginx's default proxy buffer") {
				t.Errorf("no %q in\n%s", tt.want, stdout)
			}
			lines := strings.Split(stdout, "\n")
			for i, line := range lines {
				if strings.Contains(line, where) {
					// The caret line above the message points at "<".
					if i < 2 || !strings.HasSuffix(lines[i-1], "^") {
						t.Errorf("no caret above the warning:\n%s", stdout)
					} else if excerpt, caret := lines[i-2], len(lines[i-1])-1; caret >= len(excerpt) || excerpt[caret] != '<' {
						t.Errorf("the caret is not under the link-value's \"<\":\n%s\n%s", excerpt, lines[i-1])
					}
				}
			}
			if !strings.HasSuffix(stdout, "110 links: 0 errors, 1 warning\n") {
				t.Errorf("summary:\n%s", stdout)
			}
		})
	}

	// 4096 bytes exactly: no warning.
	field = bigField(88) + ", </" + strings.Repeat("a", 4096-len(bigField(88))-2-15) + `>; rel="next"`
	if len(field) != 4096 {
		t.Fatalf("field of %d bytes", len(field))
	}
	out, err := exec.Command(binary, "-check", field).Output()
	if err != nil || strings.Contains(string(out), "4 KiB") {
		t.Errorf("weblink -check of 4096 bytes: %v\n%s", err, out)
	}
}
