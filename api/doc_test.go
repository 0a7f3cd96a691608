package api

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// maxSummaryWords is the most words the first paragraph of an exported
// name's doc comment may have: it says what the name does in one sentence,
// as net/http's do (about 20 words), and the details follow.
const maxSummaryWords = 30

// TestDocSummaries fails for every exported name of a public package (those
// with a file in api/) whose doc comment's first paragraph, up to the first
// blank line, is over maxSummaryWords words.
func TestDocSummaries(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := publicPackages(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		long, err := longSummaries(p.dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range long {
			t.Errorf("%s: %s", p.path, l)
		}
	}
}

// longSummaries returns the exported names of the package in dir whose
// doc comment's first paragraph is over maxSummaryWords words, with their
// position and word count.
func longSummaries(dir string) ([]string, error) {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	d, err := doc.NewFromFiles(fset, files, "p")
	if err != nil {
		return nil, err
	}
	var long []string
	check := func(name string, decl ast.Node, text string) {
		first, _, _ := strings.Cut(strings.TrimSpace(text), "\n\n")
		if n := len(strings.Fields(first)); n > maxSummaryWords {
			pos := fset.Position(decl.Pos())
			long = append(long, fmt.Sprintf("%s:%d: %s: the first paragraph of its doc has %d words; say what it does in one sentence of at most %d, then the details", filepath.Base(pos.Filename), pos.Line, name, n, maxSummaryWords))
		}
	}
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			check(strings.Join(v.Names, ", "), v.Decl, v.Doc)
		}
	}
	values(d.Consts)
	values(d.Vars)
	for _, f := range d.Funcs {
		check(f.Name, f.Decl, f.Doc)
	}
	for _, typ := range d.Types {
		check(typ.Name, typ.Decl, typ.Doc)
		values(typ.Consts)
		values(typ.Vars)
		for _, f := range typ.Funcs {
			check(f.Name, f.Decl, f.Doc)
		}
		for _, m := range typ.Methods {
			check(typ.Name+"."+m.Name, m.Decl, m.Doc)
		}
	}
	return long, nil
}
