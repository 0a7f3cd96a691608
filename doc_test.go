package weblink

import (
	"go/ast"
	"go/doc"
	goparser "go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExamplesAttached fails when an Example function of any package of
// the module is one godoc shows nowhere: go/doc attaches an example to the
// package, a function, a type or a method whose name it spells, never to a
// variable or a constant, and drops the others silently (go vet finds only
// names that exist in no form). ExampleErrTruncated was such an example.
func TestExamplesAttached(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			return nil
		}
		for _, name := range unattachedExamples(t, path) {
			t.Errorf("%s: Example%s is attached to nothing in godoc: name it after the function, type or method it shows (ExampleF_suffix)", path, name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// unattachedExamples returns the names of the Example functions of the
// package in dir (its _test packages included) that go/doc does not attach.
func unattachedExamples(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	var files, tests []*ast.File
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		f, err := goparser.ParseFile(fset, name, nil, goparser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, "_test.go") {
			tests = append(tests, f)
		} else if f.Name.Name != "main" {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return nil
	}
	var all []string
	for _, ex := range doc.Examples(tests...) {
		all = append(all, ex.Name)
	}
	if len(all) == 0 {
		return nil
	}
	p, err := doc.NewFromFiles(fset, append(files, tests...), "example.com/"+dir)
	if err != nil {
		t.Fatal(err)
	}
	attached := map[string]bool{}
	add := func(exs []*doc.Example, id string) {
		for _, ex := range exs {
			name := id
			if ex.Suffix != "" {
				name += "_" + ex.Suffix
			}
			attached[name] = true
		}
	}
	add(p.Examples, "")
	for _, f := range p.Funcs {
		add(f.Examples, f.Name)
	}
	for _, typ := range p.Types {
		add(typ.Examples, typ.Name)
		for _, f := range typ.Funcs {
			add(f.Examples, f.Name)
		}
		for _, m := range typ.Methods {
			add(m.Examples, typ.Name+"_"+m.Name)
		}
	}
	return slices.DeleteFunc(all, func(name string) bool { return attached[name] })
}
