// Package api guards the exported API of every package of the module.
//
// Each public package (not internal, not a command, not tests only, not
// without exported names), of the module or of a module nested in its
// directory tree (paging/redisstore), has a file here, api/<name>.txt, with
// one line per exported name as go/types prints it, sorted, in the spirit of
// Go's own api/go1.*.txt:
//
//	pkg github.com/weblinking/weblink, func Parse(string) (Links, error)
//	pkg github.com/weblinking/weblink, type Link struct
//	pkg github.com/weblinking/weblink, type Link struct, Target string
//	pkg github.com/weblinking/weblink, method (Links) Rel(string) (Link, bool)
//
// TestAPI type-checks the packages from source and fails with the lines
// that differ; a change to the exported API is made on purpose with
//
//	go test ./api -run TestAPI -update
//
// which rewrites the files, so that it shows as a diff in review.
//
// TestDocSummaries checks the doc comments of the same packages: the first
// paragraph of each exported name's doc says what it does in at most 30
// words.
package api

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the files of api/ from the code")

// TestAPI compares the exported API of every public package of the module
// and of the modules nested in it with its file in this directory.
func TestAPI(t *testing.T) {
	diff, err := checkAPI("..", ".", *update)
	if err != nil {
		t.Fatal(err)
	}
	if diff != "" {
		t.Errorf("the exported API differs from api/ (- in the file only, + in the code only);\n"+
			"if the change is meant, run go test ./api -run TestAPI -update and commit the files:\n%s", diff)
	}
}

// checkAPI compares the API of the public packages of the module at root
// with the files of apiDir and returns their differences, or rewrites the
// files when update is set.
func checkAPI(root, apiDir string, update bool) (string, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	pkgs, err := publicPackages(root)
	if err != nil {
		return "", err
	}
	if len(pkgs) == 0 {
		return "", fmt.Errorf("no public package in %s", root)
	}
	got, err := apiFiles(pkgs)
	if err != nil {
		return "", err
	}
	if update {
		return "", writeFiles(apiDir, got)
	}
	want, err := readFiles(apiDir)
	if err != nil {
		return "", err
	}
	return diffFiles(want, got), nil
}

// publicPackage is one package whose API is recorded.
type publicPackage struct {
	path   string // import path
	dir    string // absolute directory
	module string // absolute directory of its module's go.mod, where go list runs
	file   string // its file in api/: the path below the root, "/" as "-", the root as its module path's last element
}

// publicPackages walks the module rooted at root, and the modules nested in
// its tree, and returns their packages other than commands, internal
// packages, test-only directories (such as api/ itself), testdata and
// packages without exported names (a nested module of benchmarks), sorted
// by import path.
func publicPackages(root string) ([]publicPackage, error) {
	modPath, err := modulePath(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	var pkgs []publicPackage
	err = walkModule(root, root, modPath, &pkgs)
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].path < pkgs[j].path })
	return pkgs, err
}

// walkModule appends to pkgs the public packages of the module at modDir,
// whose path is modPath, and those of the modules nested in it; root is
// the directory that api/'s file names are relative to.
func walkModule(root, modDir, modPath string, pkgs *[]publicPackage) error {
	return filepath.WalkDir(modDir, func(dir string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(modDir, dir)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		name := d.Name()
		if rel != "." {
			if name == "testdata" || name == "internal" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				nested, err := modulePath(filepath.Join(dir, "go.mod"))
				if err != nil {
					return err
				}
				if err := walkModule(root, dir, nested, pkgs); err != nil {
					return err
				}
				return filepath.SkipDir // walked as its own module
			}
		}
		bp, err := build.ImportDir(dir, 0)
		var noGo *build.NoGoError
		if errors.As(err, &noGo) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
		if bp.Name == "main" || len(bp.GoFiles)+len(bp.CgoFiles) == 0 {
			return nil // a command, or tests only
		}
		if exports, err := declaresExported(dir, bp.GoFiles); err != nil || !exports {
			return err // nothing to guard
		}
		p := publicPackage{path: modPath, dir: dir, module: modDir}
		if rel != "." {
			p.path += "/" + rel
		}
		p.file = path.Base(modPath)
		if fromRoot, err := filepath.Rel(root, dir); err != nil {
			return err
		} else if fromRoot != "." {
			p.file = strings.ReplaceAll(filepath.ToSlash(fromRoot), "/", "-")
		}
		p.file += ".txt"
		*pkgs = append(*pkgs, p)
		return nil
	})
}

// declaresExported reports whether one of the files of dir declares an
// exported name at package level.
func declaresExported(dir string, files []string) (bool, error) {
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return false, err
		}
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv == nil && decl.Name.IsExported() {
					return true, nil
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						if spec.Name.IsExported() {
							return true, nil
						}
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							if n.IsExported() {
								return true, nil
							}
						}
					}
				}
			}
		}
	}
	return false, nil
}

// modulePath returns the module path named by the go.mod file at name.
func modulePath(name string) (string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`), nil
		}
	}
	return "", fmt.Errorf("%s: no module line", name)
}

// apiFiles type-checks pkgs and returns the lines of each package's file,
// keyed by the file's name. The packages of each module are type-checked
// in that module, with its go.mod's requirements.
func apiFiles(pkgs []publicPackage) (map[string][]string, error) {
	var modules []string
	paths := make(map[string][]string) // by module
	for _, p := range pkgs {
		if _, ok := paths[p.module]; !ok {
			modules = append(modules, p.module)
		}
		paths[p.module] = append(paths[p.module], p.path)
	}
	importers := make(map[string]*sourceImporter)
	for _, m := range modules {
		imp, err := newSourceImporter(m, paths[m])
		if err != nil {
			return nil, err
		}
		importers[m] = imp
	}
	files := make(map[string][]string)
	for _, p := range pkgs {
		if _, dup := files[p.file]; dup {
			return nil, fmt.Errorf("two packages would be written to api/%s", p.file)
		}
		tp, err := importers[p.module].Import(p.path)
		if err != nil {
			return nil, fmt.Errorf("type-checking %s: %w", p.path, err)
		}
		files[p.file] = apiLines(tp)
	}
	return files, nil
}

// sourceImporter type-checks the packages of the module and of its
// dependencies from source, without function bodies, and reads the
// standard library's from the export data the go command builds, which is
// several times faster than type-checking net/http and all it imports.
type sourceImporter struct {
	fset   *token.FileSet
	list   map[string]listed
	std    types.Importer
	pkgs   map[string]*types.Package
	checks map[string]bool // being checked: an import cycle
}

// listed is what go list says of a package.
type listed struct {
	dir      string
	goFiles  []string
	standard bool
	export   string // export data of a standard package
}

// newSourceImporter lists paths and their dependencies with two runs of
// the go command in the module at root: one for the files of every
// package, one for the export data of the standard packages.
func newSourceImporter(root string, paths []string) (*sourceImporter, error) {
	out, err := goList(root, append([]string{"-deps", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{.Standard}}\t{{join .GoFiles \" \"}}"}, paths...))
	if err != nil {
		return nil, err
	}
	s := &sourceImporter{
		fset:   token.NewFileSet(),
		list:   make(map[string]listed),
		pkgs:   make(map[string]*types.Package),
		checks: make(map[string]bool),
	}
	var std []string
	for _, line := range out {
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("go list: unexpected line %q", line)
		}
		s.list[f[0]] = listed{dir: f[1], standard: f[2] == "true", goFiles: strings.Fields(f[3])}
		if f[2] == "true" {
			std = append(std, f[0])
		}
	}
	out, err = goList(root, append([]string{"-export", "-f", "{{.ImportPath}}\t{{.Export}}"}, std...))
	if err != nil {
		return nil, err
	}
	for _, line := range out {
		path, export, _ := strings.Cut(line, "\t")
		l := s.list[path]
		l.export = export
		s.list[path] = l
	}
	s.std = importer.ForCompiler(s.fset, "gc", func(path string) (io.ReadCloser, error) {
		l, ok := s.list[path]
		if !ok || l.export == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(l.export)
	})
	return s, nil
}

// goList runs go list with args in dir and returns its lines.
func goList(dir string, args []string) ([]string, error) {
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v\n%s", err, stderr.Bytes())
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n"), nil
}

func (s *sourceImporter) Import(path string) (*types.Package, error) {
	if p, ok := s.pkgs[path]; ok {
		return p, nil
	}
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	l, ok := s.list[path]
	if !ok {
		return nil, fmt.Errorf("package %s not listed by go list -deps", path)
	}
	if l.standard {
		p, err := s.std.Import(path)
		if err != nil {
			return nil, err
		}
		s.pkgs[path] = p
		return p, nil
	}
	if s.checks[path] {
		return nil, fmt.Errorf("import cycle through %s", path)
	}
	s.checks[path] = true
	defer delete(s.checks, path)
	var files []*ast.File
	for _, name := range l.goFiles {
		f, err := parser.ParseFile(s.fset, filepath.Join(l.dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: s, IgnoreFuncBodies: true}
	p, err := conf.Check(path, s.fset, files, nil)
	if err != nil {
		return nil, err
	}
	s.pkgs[path] = p
	return p, nil
}

// apiLines returns the exported API of pkg, one sorted line per name.
func apiLines(pkg *types.Package) []string {
	w := &apiWriter{pkg: pkg}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		if !token.IsExported(name) {
			continue
		}
		switch obj := scope.Lookup(name).(type) {
		case *types.Const:
			w.emit("const %s %s = %s", name, w.typ(obj.Type()), obj.Val().ExactString())
		case *types.Var:
			w.emit("var %s %s", name, w.typ(obj.Type()))
		case *types.Func:
			sig := obj.Type().(*types.Signature)
			w.emit("func %s%s%s", name, w.typeParams(sig.TypeParams()), w.signature(sig))
		case *types.TypeName:
			w.typeName(obj)
		}
	}
	slices.Sort(w.lines)
	return slices.Compact(w.lines)
}

// apiWriter collects the lines of one package.
type apiWriter struct {
	pkg   *types.Package
	lines []string
}

func (w *apiWriter) emit(format string, args ...any) {
	w.lines = append(w.lines, "pkg "+w.pkg.Path()+", "+fmt.Sprintf(format, args...))
}

// qualifier names a type of the package itself bare and any other by its
// package's name, as Go's api files do.
func (w *apiWriter) qualifier(p *types.Package) string {
	if p == w.pkg {
		return ""
	}
	return p.Name()
}

// typ writes t as go/types does, without the names of the parameters of
// the function types in it (renaming them changes no caller).
func (w *apiWriter) typ(t types.Type) string { return types.TypeString(unnamed(t), w.qualifier) }

// unnamed returns t with the parameters and results of the function types
// in it unnamed.
func unnamed(t types.Type) types.Type {
	switch t := t.(type) {
	case *types.Signature:
		if t.TypeParams().Len() > 0 || t.Recv() != nil {
			return t
		}
		return types.NewSignatureType(nil, nil, nil, unnamedTuple(t.Params()), unnamedTuple(t.Results()), t.Variadic())
	case *types.Pointer:
		return types.NewPointer(unnamed(t.Elem()))
	case *types.Slice:
		return types.NewSlice(unnamed(t.Elem()))
	case *types.Array:
		return types.NewArray(unnamed(t.Elem()), t.Len())
	case *types.Map:
		return types.NewMap(unnamed(t.Key()), unnamed(t.Elem()))
	case *types.Chan:
		return types.NewChan(t.Dir(), unnamed(t.Elem()))
	}
	return t
}

func unnamedTuple(tuple *types.Tuple) *types.Tuple {
	vars := make([]*types.Var, tuple.Len())
	for i := range vars {
		v := tuple.At(i)
		vars[i] = types.NewParam(v.Pos(), v.Pkg(), "", unnamed(v.Type()))
	}
	return types.NewTuple(vars...)
}

// signature writes sig's parameters and results without their names.
func (w *apiWriter) signature(sig *types.Signature) string {
	var b strings.Builder
	b.WriteString("(")
	for i := 0; i < sig.Params().Len(); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		t := sig.Params().At(i).Type()
		if sig.Variadic() && i == sig.Params().Len()-1 {
			b.WriteString("...")
			t = t.(*types.Slice).Elem()
		}
		b.WriteString(w.typ(t))
	}
	b.WriteString(")")
	switch res := sig.Results(); res.Len() {
	case 0:
	case 1:
		b.WriteString(" " + w.typ(res.At(0).Type()))
	default:
		b.WriteString(" (")
		for i := 0; i < res.Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(w.typ(res.At(i).Type()))
		}
		b.WriteString(")")
	}
	return b.String()
}

func (w *apiWriter) typeParams(tps *types.TypeParamList) string {
	if tps.Len() == 0 {
		return ""
	}
	var parts []string
	for i := 0; i < tps.Len(); i++ {
		tp := tps.At(i)
		parts = append(parts, tp.Obj().Name()+" "+w.typ(tp.Constraint()))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// typeName writes an exported type: its kind or underlying type, the
// exported fields of a struct, the methods of an interface, and the
// exported methods of its method set and its pointer's (promoted ones
// included, as they are callable).
func (w *apiWriter) typeName(obj *types.TypeName) {
	name := obj.Name()
	if obj.IsAlias() {
		t := obj.Type()
		if a, ok := t.(*types.Alias); ok {
			t = a.Rhs() // not the alias itself
		}
		w.emit("type %s = %s", name, w.typ(t))
		return
	}
	named, ok := obj.Type().(*types.Named)
	if !ok {
		w.emit("type %s %s", name, w.typ(obj.Type()))
		return
	}
	decl := name + w.typeParams(named.TypeParams())
	switch u := named.Underlying().(type) {
	case *types.Struct:
		w.emit("type %s struct", decl)
		for i := 0; i < u.NumFields(); i++ {
			f := u.Field(i)
			switch {
			case f.Embedded():
				w.emit("type %s struct, embedded %s", decl, w.typ(f.Type()))
			case f.Exported():
				w.emit("type %s struct, %s %s", decl, f.Name(), w.typ(f.Type()))
			}
		}
	case *types.Interface:
		if !u.IsMethodSet() {
			w.emit("type %s %s", decl, w.typ(u))
			return
		}
		var names []string
		unexported := false
		for i := 0; i < u.NumMethods(); i++ {
			m := u.Method(i)
			if !m.Exported() {
				unexported = true
				continue
			}
			names = append(names, m.Name())
			w.emit("type %s interface, %s%s", decl, m.Name(), w.signature(m.Type().(*types.Signature)))
		}
		if unexported {
			names = append(names, "unexported methods")
		}
		w.emit("type %s interface { %s }", decl, strings.Join(names, ", "))
		return
	default:
		w.emit("type %s %s", decl, w.typ(u))
	}
	w.methods(named)
}

// methods writes the exported methods of T and *T, T as named.
func (w *apiWriter) methods(named *types.Named) {
	recv := named.Obj().Name()
	if tps := named.TypeParams(); tps.Len() > 0 {
		var names []string
		for i := 0; i < tps.Len(); i++ {
			names = append(names, tps.At(i).Obj().Name())
		}
		recv += "[" + strings.Join(names, ", ") + "]"
	}
	value := types.NewMethodSet(named)
	ptr := types.NewMethodSet(types.NewPointer(named))
	for i := 0; i < ptr.Len(); i++ {
		m := ptr.At(i).Obj()
		if !m.Exported() {
			continue
		}
		r := "*" + recv
		if value.Lookup(m.Pkg(), m.Name()) != nil {
			r = recv
		}
		w.emit("method (%s) %s%s", r, m.Name(), w.signature(m.Type().(*types.Signature)))
	}
}

// readFiles reads every .txt file of dir, keyed by name.
func readFiles(dir string) (map[string][]string, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return nil, err
	}
	files := make(map[string][]string)
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var lines []string
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if line := sc.Text(); line != "" {
				lines = append(lines, line)
			}
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		files[filepath.Base(name)] = lines
	}
	return files, nil
}

// writeFiles writes files into dir and removes the .txt files of dir that
// no package has any more.
func writeFiles(dir string, files map[string][]string) error {
	old, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return err
	}
	for _, name := range old {
		if _, ok := files[filepath.Base(name)]; !ok {
			if err := os.Remove(name); err != nil {
				return err
			}
		}
	}
	for name, lines := range files {
		data := strings.Join(lines, "\n") + "\n"
		if len(lines) == 0 {
			data = ""
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o666); err != nil {
			return err
		}
	}
	return nil
}

// diffFiles returns the lines that differ between the files want (on disk)
// and got (from the code), file by file: "-" for a line only in want, "+"
// for one only in got; "" when they are the same.
func diffFiles(want, got map[string][]string) string {
	var names []string
	for name := range want {
		names = append(names, name)
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		w, inWant := want[name]
		g, inGot := got[name]
		switch {
		case !inWant:
			fmt.Fprintf(&b, "api/%s: missing; its package has %d exported lines\n", name, len(g))
		case !inGot:
			fmt.Fprintf(&b, "api/%s: no package of the module has this file's name\n", name)
		}
		d := diffLines(sortedSet(w), g)
		switch {
		case d != "":
			fmt.Fprintf(&b, "api/%s:\n%s", name, d)
		case inWant && inGot && !slices.Equal(w, g):
			fmt.Fprintf(&b, "api/%s: the same lines, but not sorted once each as -update writes them\n", name)
		}
	}
	return b.String()
}

// sortedSet returns the lines sorted, once each.
func sortedSet(lines []string) []string {
	return slices.Compact(slices.Sorted(slices.Values(lines)))
}

// diffLines returns the lines only in want ("-") and only in got ("+"),
// both sorted, in order.
func diffLines(want, got []string) string {
	var b strings.Builder
	i, j := 0, 0
	for i < len(want) || j < len(got) {
		switch {
		case j == len(got) || i < len(want) && want[i] < got[j]:
			fmt.Fprintf(&b, "\t- %s\n", want[i])
			i++
		case i == len(want) || got[j] < want[i]:
			fmt.Fprintf(&b, "\t+ %s\n", got[j])
			j++
		default:
			i++
			j++
		}
	}
	return b.String()
}
