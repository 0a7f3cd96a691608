package weblink

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	goparser "go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// coreLayers is the allowed order of the core files of the package, lowest
// first, in the spirit of go/build's deps_test.go: a file may use the names
// (types, functions, methods, fields, constants, variables) defined in its
// own layer and in the layers before it, never those of a later layer.
//
// errors.go, the error types and sentinels every layer reports with, is the
// bottom. relations.go sits below format.go because Validate looks up the
// registry (a registered name such as "openid2.local_id" is valid though it
// is not a reg-rel-type); relations.go and zrelations.go, generated from the
// registry, use each other and are one layer.
var coreLayers = [][]string{
	{"doc.go", "errors.go"},
	{"chars.go"},
	{"uri.go"},
	{"extvalue.go"},
	{"link.go"},
	{"parse.go"},
	{"relations.go", "zrelations.go"},
	{"format.go"},
}

// capabilities sit above every core layer. The file X.go and the files
// X_*.go belong to capability X; a capability may use the core and itself,
// never another capability.
var capabilities = []string{"next", "server", "pagelinks", "linkset", "check"}

// layerOf returns the rank of file (its index in coreLayers, or
// len(coreLayers) for a capability) and its capability, if any.
func layerOf(file string) (rank int, capability string, ok bool) {
	for i, layer := range coreLayers {
		if slices.Contains(layer, file) {
			return i, "", true
		}
	}
	base := strings.TrimSuffix(file, ".go")
	for _, c := range capabilities {
		if base == c || strings.HasPrefix(base, c+"_") {
			return len(coreLayers), c, true
		}
	}
	return 0, "", false
}

// mayUse reports whether a file of rank r and capability c may use a name
// defined in a file of rank dr and capability dc.
func mayUse(r int, c string, dr int, dc string) bool {
	return dr < r || dr == r && c == dc
}

// TestLayers fails when a file of the package uses a name defined in a file
// of a higher layer, or in another capability, and when a file is not in the
// layer table.
func TestLayers(t *testing.T) {
	for _, v := range layerViolations(t, ".") {
		t.Error(v)
	}
}

// layerViolations type-checks the non-test files of the package in dir and
// returns a message for each file missing from the layer table and each use
// of a name across the layers against their order.
func layerViolations(t *testing.T, dir string) []string {
	t.Helper()
	var problems []string
	for _, layer := range coreLayers {
		for _, name := range layer {
			if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
				problems = append(problems, "layers_test.go lists "+name+", which is not in the package: remove it from the layer table")
			}
		}
	}
	known := func(name string) bool { _, _, ok := layerOf(name); return ok }
	use := func(user, def string) string {
		r, c, _ := layerOf(user)
		dr, dc, _ := layerOf(def)
		if mayUse(r, c, dr, dc) {
			return ""
		}
		return user + " (" + describeLayer(r, c) + ") uses %s, defined in " + def + " (" + describeLayer(dr, dc) + ")"
	}
	problems = append(problems, useViolations(t, dir, "github.com/weblinking/weblink", known, use)...)
	slices.Sort(problems)
	return problems
}

// useViolations type-checks the non-test files of the package in dir (those
// the build context of this machine selects) and returns a message for each
// file that known does not know and each use of a name that use objects
// to: use returns "" for an allowed use of a name defined in def by user,
// or a message with a %s for the name.
func useViolations(t *testing.T, dir, path string, known func(file string) bool, use func(user, def string) string) []string {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	var problems []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		if !known(name) {
			problems = append(problems, "add "+name+" to the layer table in layers_test.go")
		}
		f, err := goparser.ParseFile(fset, filepath.Join(dir, name), nil, goparser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: make(map[*ast.Ident]types.Object)}
	conf := types.Config{Importer: exportImporter(t, fset, dir)}
	pkg, err := conf.Check(path, fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	seen := make(map[string]bool) // one message per file and name
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		user := filepath.Base(fset.Position(id.Pos()).Filename)
		def := filepath.Base(fset.Position(obj.Pos()).Filename)
		if !known(user) || !known(def) {
			continue
		}
		format := use(user, def)
		if format == "" {
			continue
		}
		msg := fmt.Sprintf(format, obj.Name())
		if !seen[msg] {
			seen[msg] = true
			problems = append(problems, fset.Position(id.Pos()).String()+": "+msg)
		}
	}
	slices.Sort(problems)
	return problems
}

// commandStage returns the stage of a file of the weblink command
// (cmd/weblink): a source reads the input (source_*.go, and head.go, which
// parses what the sources read), the report stage takes what parsing finds
// wrong (report.go), a renderer shows the links (render_*.go). The other
// files are shared: the command and its options, the HTTP client, text
// helpers, and the wiring that picks a source, a reporter and a renderer
// (mode.go, main.go).
func commandStage(file string) string {
	switch {
	case strings.HasPrefix(file, "source_"), file == "head.go":
		return "source"
	case file == "report.go":
		return "report"
	case strings.HasPrefix(file, "render_"):
		return "render"
	}
	return "shared"
}

// commandMayUse reports whether a file of stage user may use a name defined
// in a file of stage def: sources → report → renderers, in that order;
// parsing reports problems through the report stage and never calls a
// renderer, and a renderer never reaches back into a source. Every stage
// may use the shared files and the report stage.
func commandMayUse(user, def string) bool {
	switch {
	case user == def, def == "shared", def == "report":
		return true
	case user == "shared":
		return true // the wiring
	}
	return false
}

// TestCommandLayers fails when a file of the weblink command uses a name
// defined in a file of a stage it may not use (commandMayUse).
func TestCommandLayers(t *testing.T) {
	use := func(user, def string) string {
		if commandMayUse(commandStage(user), commandStage(def)) {
			return ""
		}
		return user + " (" + commandStage(user) + ") uses %s, defined in " + def + " (" + commandStage(def) + ")"
	}
	problems := useViolations(t, "cmd/weblink", "main", func(string) bool { return true }, use)
	slices.Sort(problems)
	for _, p := range problems {
		t.Error(p)
	}
	if _, err := os.Stat("cmd/weblink/report.go"); err != nil {
		t.Error("cmd/weblink has no report.go: the report stage is missing")
	}
}

// exportImporter returns an importer that reads the export data the go
// command wrote for the dependencies of the package in dir (go list
// -export), which takes a fraction of the time of type-checking them from
// source.
func exportImporter(t *testing.T, fset *token.FileSet, dir string) types.Importer {
	t.Helper()
	cmd := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", ".")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	exports := make(map[string]string)
	for _, line := range strings.Split(string(out), "\n") {
		if path, file, ok := strings.Cut(line, "="); ok && file != "" {
			exports[path] = file
		}
	}
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
}

// describeLayer names a layer for a message.
func describeLayer(rank int, capability string) string {
	if capability != "" {
		return "capability " + capability
	}
	return "layer " + strings.Join(coreLayers[rank], "+")
}

// TestLayerRules checks the rule of mayUse on the table itself, so that a
// change to it cannot silently allow everything.
func TestLayerRules(t *testing.T) {
	for _, tt := range []struct {
		user, def string
		want      bool
	}{
		{"parse.go", "link.go", true},
		{"link.go", "parse.go", false},
		{"uri.go", "link.go", false},
		{"chars.go", "errors.go", true},
		{"relations.go", "zrelations.go", true},
		{"zrelations.go", "relations.go", true},
		{"format.go", "relations.go", true},
		{"parse.go", "relations.go", false},
		{"next.go", "format.go", true},
		{"linkset_handler.go", "linkset.go", true},
		{"linkset_json.go", "linkset.go", true},
		{"server.go", "linkset_handler.go", false},
		{"pagelinks.go", "next.go", false},
		{"format.go", "pagelinks.go", false},
		{"check.go", "server.go", false},
	} {
		r, c, ok1 := layerOf(tt.user)
		dr, dc, ok2 := layerOf(tt.def)
		if !ok1 || !ok2 {
			t.Errorf("%s or %s is not in the layer table", tt.user, tt.def)
			continue
		}
		if got := mayUse(r, c, dr, dc); got != tt.want {
			t.Errorf("%s may use %s: %v, want %v", tt.user, tt.def, got, tt.want)
		}
	}
	if _, _, ok := layerOf("misc.go"); ok {
		t.Error("misc.go has a layer; want it reported as missing from the table")
	}
}

// subpackageImports lists, for each subpackage that must stay small, the
// packages outside the standard library it may import: package weblink
// and the internal helpers of the module, nothing else.
var subpackageImports = map[string][]string{
	"linkformat": {"github.com/weblinking/weblink", "github.com/weblinking/weblink/internal/ascii", "github.com/weblinking/weblink/internal/linkscan", "github.com/weblinking/weblink/internal/linksize", "github.com/weblinking/weblink/internal/quote"},
}

// TestSubpackageImports fails when a subpackage of subpackageImports
// imports (in its non-test files) a package that is neither in the
// standard library nor listed for it.
func TestSubpackageImports(t *testing.T) {
	for dir, allowed := range subpackageImports {
		cmd := exec.Command("go", "list", "-f", `{{range .Imports}}{{.}}{{"\n"}}{{end}}`, "./"+dir)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list ./%s: %v", dir, err)
		}
		imports := strings.Fields(string(out))
		if len(imports) == 0 {
			t.Errorf("go list finds no import in ./%s: the check proves nothing", dir)
		}
		for _, imp := range imports {
			std := !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".")
			if !std && !slices.Contains(allowed, imp) {
				t.Errorf("package %s imports %s; it may import only the standard library and %v", dir, imp, allowed)
			}
		}
	}
}

// TestStructuredFieldsImports checks that github.com/dunglas/httpsfv, the
// Structured Fields parser, is imported by package linktemplate alone and
// is not among the dependencies of package weblink: programs that only
// read Link fields do not carry it.
func TestStructuredFieldsImports(t *testing.T) {
	const sfv = "github.com/dunglas/httpsfv"
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var importers []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if slices.Contains(fields[1:], sfv) {
			importers = append(importers, fields[0])
		}
	}
	if want := []string{"github.com/weblinking/weblink/linktemplate"}; !slices.Equal(importers, want) {
		t.Errorf("packages importing %s: %q; want %q", sfv, importers, want)
	}
	deps, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	if slices.Contains(strings.Fields(string(deps)), sfv) {
		t.Errorf("package weblink depends on %s; only linktemplate may", sfv)
	}
}
