package api

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testModule is a small module with one name of each kind; a nested
// module (which requires the outer one through a replace directive, as
// paging/redisstore does) with a package of its own; and directories that
// have no API file: an internal package, a command, testdata, a directory
// of tests only and a nested module whose package exports nothing (as
// bench).
var testModule = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.23\n",
	"m.go": `package m

import (
	"io"
	"net/http"
)

const Max = 3500
const Name string = "m"

var ErrX error

func F(s string, n ...int) (int, error)    { return 0, nil }
func G[T any](f func(r *http.Request) T) []T { return nil }

type S struct {
	io.Reader
	A    string
	priv int
}

func (S) V() string { return "" }
func (*S) P()        {}

type I interface {
	M(int) bool
	hidden()
}

type A = S
type Opt func(*config)
type config struct{}
type Pair[K comparable, V any] struct{ Key K }

func (p *Pair[K, V]) Get() V { var v V; return v }

type unexported struct{}

func (unexported) Exported() {}
`,
	"sub/sub.go":              "package sub\n\nfunc Hello() string { return \"\" }\n",
	"internal/x/x.go":         "package x\n\nfunc X() {}\n",
	"cmd/c/main.go":           "package main\n\nfunc main() {}\n",
	"testdata/t/t.go":         "package t\n\nfunc T() {}\n",
	"nested/go.mod":           "module example.com/nested\n\ngo 1.23\n\nrequire example.com/m v0.0.0\n\nreplace example.com/m => ../\n",
	"nested/n.go":             "package nested\n\nimport \"example.com/m\"\n\nfunc N() m.S { return m.S{} }\n",
	"nested/deep/d.go":        "package deep\n\ntype D int\n",
	"nested/internal/i/i.go":  "package i\n\nfunc I() {}\n",
	"benchmod/go.mod":         "module example.com/benchmod\n\ngo 1.23\n\nrequire example.com/absent v1.0.0\n",
	"benchmod/doc.go":         "// Package benchmod has benchmarks only.\npackage benchmod\n\nfunc helper() {}\n",
	"onlytests/x_test.go":     "package onlytests\n",
	"sub/deeper/deeper.go":    "package deeper\n\nvar D int\n",
	"sub/deeper/deep_test.go": "package deeper\n\nfunc Test() {}\n",
}

var testModuleAPI = map[string][]string{
	"m.txt": {
		"pkg example.com/m, const Max untyped int = 3500",
		"pkg example.com/m, const Name string = \"m\"",
		"pkg example.com/m, func F(string, ...int) (int, error)",
		"pkg example.com/m, func G[T any](func(*http.Request) T) []T",
		"pkg example.com/m, method (*Pair[K, V]) Get() V",
		"pkg example.com/m, method (*S) P()",
		"pkg example.com/m, method (S) Read([]byte) (int, error)",
		"pkg example.com/m, method (S) V() string",
		"pkg example.com/m, type A = S",
		"pkg example.com/m, type I interface { M, unexported methods }",
		"pkg example.com/m, type I interface, M(int) bool",
		"pkg example.com/m, type Opt func(*config)",
		"pkg example.com/m, type Pair[K comparable, V any] struct",
		"pkg example.com/m, type Pair[K comparable, V any] struct, Key K",
		"pkg example.com/m, type S struct",
		"pkg example.com/m, type S struct, A string",
		"pkg example.com/m, type S struct, embedded io.Reader",
		"pkg example.com/m, var ErrX error",
	},
	"sub.txt":         {"pkg example.com/m/sub, func Hello() string"},
	"sub-deeper.txt":  {"pkg example.com/m/sub/deeper, var D int"},
	"nested.txt":      {"pkg example.com/nested, func N() m.S"},
	"nested-deep.txt": {"pkg example.com/nested/deep, type D int"},
}

func writeModule(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		name = filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAPILines checks the lines written for each kind of name, and which
// directories get a file.
func TestAPILines(t *testing.T) {
	root := t.TempDir()
	writeModule(t, root, testModule)
	apiDir := t.TempDir()
	if _, err := checkAPI(root, apiDir, true); err != nil {
		t.Fatal(err)
	}
	got, err := readFiles(apiDir)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range testModuleAPI {
		if !slices.Equal(got[name], want) {
			t.Errorf("%s:\n%s\nwant:\n%s", name, strings.Join(got[name], "\n"), strings.Join(want, "\n"))
		}
	}
	for name := range got {
		if _, ok := testModuleAPI[name]; !ok {
			t.Errorf("unexpected file %s: %q", name, got[name])
		}
	}
}

// TestAPIChanged checks that a name added, removed or changed in the code,
// a package added or removed, and a file edited by hand are each reported,
// and that -update makes the files agree with the code again.
func TestAPIChanged(t *testing.T) {
	root := t.TempDir()
	writeModule(t, root, testModule)
	apiDir := t.TempDir()
	if _, err := checkAPI(root, apiDir, true); err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, want ...string) {
		t.Helper()
		diff, err := checkAPI(root, apiDir, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 && diff != "" {
			t.Fatalf("diff:\n%s\nwant none", diff)
		}
		for _, w := range want {
			if !strings.Contains(diff, w) {
				t.Errorf("diff:\n%s\nwant it to contain %q", diff, w)
			}
		}
	}
	check(t)

	m := testModule["m.go"]
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"added", map[string]string{"m.go": m + "\nfunc Added() int { return 0 }\n"},
			[]string{"api/m.txt:\n\t+ pkg example.com/m, func Added() int\n"}},
		{"removed", map[string]string{"m.go": strings.Replace(m, "var ErrX error", "", 1)},
			[]string{"api/m.txt:\n\t- pkg example.com/m, var ErrX error\n"}},
		{"changed", map[string]string{"m.go": strings.Replace(m, "func (*S) P()", "func (*S) P(int)", 1)},
			[]string{"\t- pkg example.com/m, method (*S) P()\n", "\t+ pkg example.com/m, method (*S) P(int)\n"}},
		{"field", map[string]string{"m.go": strings.Replace(m, "priv int", "Priv int", 1)},
			[]string{"\t+ pkg example.com/m, type S struct, Priv int\n"}},
		{"package added", map[string]string{"other/o.go": "package other\n\nconst C = 1\n"},
			[]string{"api/other.txt: missing; its package has 1 exported lines\n", "\t+ pkg example.com/m/other, const C untyped int = 1\n"}},
		{"nested module changed", map[string]string{"nested/n.go": "package nested\n\nfunc N(int) {}\n"},
			[]string{"api/nested.txt:\n\t- pkg example.com/nested, func N() m.S\n\t+ pkg example.com/nested, func N(int)\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			writeModule(t, root, tt.files)
			check(t, tt.want...)
			// Back to the module the files were written for.
			if err := os.RemoveAll(filepath.Join(root, "other")); err != nil {
				t.Fatal(err)
			}
			writeModule(t, root, testModule)
		})
	}

	t.Run("package removed", func(t *testing.T) {
		if err := os.RemoveAll(filepath.Join(root, "sub", "deeper")); err != nil {
			t.Fatal(err)
		}
		check(t, "api/sub-deeper.txt: no package of the module has this file's name\n", "\t- pkg example.com/m/sub/deeper, var D int\n")
		if _, err := checkAPI(root, apiDir, true); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(apiDir, "sub-deeper.txt")); !os.IsNotExist(err) {
			t.Errorf("-update left the file of a removed package: %v", err)
		}
		check(t)
	})

	t.Run("edited by hand", func(t *testing.T) {
		name := filepath.Join(apiDir, "m.txt")
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		slices.Reverse(lines)
		if err := os.WriteFile(name, []byte(strings.Join(lines, "\n")+"\n"), 0o666); err != nil {
			t.Fatal(err)
		}
		check(t, "api/m.txt: the same lines, but not sorted once each as -update writes them\n")
	})
}

// TestDiffLines checks the line diff of two sorted files.
func TestDiffLines(t *testing.T) {
	tests := []struct {
		want, got []string
		diff      string
	}{
		{nil, nil, ""},
		{[]string{"a", "b"}, []string{"a", "b"}, ""},
		{[]string{"a", "c"}, []string{"a", "b", "c", "d"}, "\t+ b\n\t+ d\n"},
		{[]string{"a", "b", "c"}, []string{"b"}, "\t- a\n\t- c\n"},
		{[]string{"b"}, []string{"a", "c"}, "\t+ a\n\t- b\n\t+ c\n"},
	}
	for _, tt := range tests {
		if got := diffLines(tt.want, tt.got); got != tt.diff {
			t.Errorf("diffLines(%q, %q) = %q, want %q", tt.want, tt.got, got, tt.diff)
		}
	}
}
