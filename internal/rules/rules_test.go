package rules

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// root is the module's root directory, from this package's directory.
const root = "../.."

// docPages maps the pages of docs/ to the package whose rules they cite.
var docPages = map[string]string{
	"serving.md":     ".",
	"linksets.md":    ".",
	"pagination.md":  "paging",
	"discovery.md":   "discover",
	"linkformat.md":  "linkformat",
	"templates.md":   "linktemplate",
	"signposting.md": "signposting",
}

// stale lists citations known to be wrong, each "file: rule N", while a
// change that fixes them is under way; an entry that no longer matches a
// citation fails the test, so the list only shrinks.
var stale = map[string]bool{}

// served returns the directory (relative to root, "." for the root
// package) whose rules a bare citation in dir resolves against: dir's own,
// or those of the nearest directory above it that has rules.
func served(dir string, owners map[string]bool) string {
	for !owners[dir] && dir != "." {
		dir = path.Dir(dir)
	}
	return dir
}

// packageDir maps the name in "of package X" to its directory.
func packageDir(name string) string {
	if name == "weblink" {
		return "."
	}
	return name
}

var (
	// ruleItem is a rule's definition in a doc.go: a list item "//  12. ".
	ruleItem = regexp.MustCompile(`(?m)^//\s{1,3}(\d+)\.\s`)
	// citation is "rule 3", "rules 3 and 4", "rules 6 to 10", "rule1/...",
	// with an optional "of package X"; comment markers between lines are
	// removed before matching.
	citation = regexp.MustCompile(`(?i)\b(\w+'s\s+)?rules?\s*(\d+(?:\s*(?:,|,?\s+and|,?\s+or|\s+to|–)\s*\d+)*)(\s+of\s+package\s+(\w+))?`)
	number   = regexp.MustCompile(`\d+|to|–`)
	// wrap is a line break inside a comment or a string, with the comment
	// marker that follows it.
	wrap = regexp.MustCompile(`\s*\n\s*(//\s*)?`)
)

// defined returns the rules that dir's doc.go defines, failing the test on
// a number defined twice or a gap.
func defined(t *testing.T, dir string) map[int]bool {
	b, err := os.ReadFile(filepath.Join(root, dir, "doc.go"))
	if err != nil {
		return nil
	}
	doc := b[:bytes.Index(b, []byte("\npackage "))+1]
	rules := map[int]bool{}
	var nums []int
	for _, m := range ruleItem.FindAllSubmatch(doc, -1) {
		n, _ := strconv.Atoi(string(m[1]))
		if rules[n] {
			t.Errorf("%s/doc.go defines rule %d twice", dir, n)
		}
		rules[n] = true
		nums = append(nums, n)
	}
	sort.Ints(nums)
	for i, n := range nums {
		if n != i+1 {
			t.Errorf("%s/doc.go: rules %v are not numbered 1 to %d without a gap", dir, nums, len(nums))
			break
		}
	}
	if len(rules) == 0 {
		return nil
	}
	return rules
}

// cited returns the numbers of the list in a citation: "3, 4 and 6 to 8".
func cited(list string) []int {
	var nums []int
	toks := number.FindAllString(list, -1)
	for i := 0; i < len(toks); i++ {
		n, err := strconv.Atoi(toks[i])
		if err != nil {
			continue
		}
		if i+2 < len(toks) && (toks[i+1] == "to" || toks[i+1] == "–") {
			m, _ := strconv.Atoi(toks[i+2])
			for k := n; k <= m && k-n < 100; k++ {
				nums = append(nums, k)
			}
			i += 2
			continue
		}
		nums = append(nums, n)
	}
	return nums
}

// TestRules checks every rule citation of the module against the doc of
// the package it resolves to.
func TestRules(t *testing.T) {
	docs := map[string]map[int]bool{}
	owners := map[string]bool{}
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if rel == "docs" || rel == "internal/rules" { // this test's own examples are no citations
			return nil
		}
		if rules := defined(t, rel); rules != nil {
			docs[rel] = rules
			owners[rel] = true
		}
		dirs = append(dirs, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{".", "paging", "discover", "linkformat", "linktemplate", "signposting"} {
		if docs[pkg] == nil {
			t.Errorf("package %s: its doc.go defines no rules", pkg)
		}
	}

	seenStale := map[string]bool{}
	citations := map[string]int{}
	check := func(file, text, home string) {
		text = wrap.ReplaceAllString(text, " ")
		for _, m := range citation.FindAllStringSubmatch(text, -1) {
			if m[1] != "" {
				t.Errorf("%s: %q: write %q", file, strings.TrimSpace(m[0]), "rule N of package X")
				continue
			}
			target := home
			if m[4] != "" {
				target = packageDir(m[4])
			}
			rules, ok := docs[target]
			if !ok {
				t.Errorf("%s: %q: package %s has no rules", file, m[0], target)
				continue
			}
			for _, n := range cited(m[2]) {
				citations[target]++
				if key := fmt.Sprintf("%s: rule %d", file, n); stale[key] {
					seenStale[key] = true
					continue
				}
				if !rules[n] {
					t.Errorf("%s: %q cites rule %d, which %s/doc.go does not define", file, m[0], n, target)
				}
			}
		}
	}

	for _, dir := range dirs {
		home := served(dir, owners)
		entries, _ := os.ReadDir(filepath.Join(root, dir))
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
				p := filepath.Join(root, dir, e.Name())
				b, _ := os.ReadFile(p)
				check(filepath.Join(dir, e.Name()), string(b), home)
			}
		}
		td := filepath.Join(root, dir, "testdata")
		filepath.WalkDir(td, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil || bytes.IndexByte(b, 0) >= 0 {
				return nil
			}
			rel, _ := filepath.Rel(root, path)
			check(rel, string(b), home)
			return nil
		})
	}
	for page, pkg := range docPages {
		b, err := os.ReadFile(filepath.Join(root, "docs", page))
		if err != nil {
			t.Errorf("docs/%s: %v", page, err)
			continue
		}
		check("docs/"+page, string(b), pkg)
	}
	for key := range stale {
		if !seenStale[key] {
			t.Errorf("stale citation %q is gone: remove it from the list", key)
		}
	}
	if t.Failed() {
		return
	}
	for _, pkg := range []string{".", "paging", "discover", "linkformat", "linktemplate", "signposting"} {
		t.Logf("package %s: %d rules defined, %d citations", pkg, len(docs[pkg]), citations[pkg])
	}
}

// TestCited checks the parsing of a citation's list of numbers.
func TestCited(t *testing.T) {
	for _, tt := range []struct {
		list string
		want string
	}{
		{"3", "[3]"},
		{"3 and 4", "[3 4]"},
		{"6 to 10", "[6 7 8 9 10]"},
		{"1, 2, 3 and 5 to 6", "[1 2 3 5 6]"},
		{"33–35", "[33 34 35]"},
	} {
		if got := fmt.Sprint(cited(tt.list)); got != tt.want {
			t.Errorf("cited(%q) = %s; want %s", tt.list, got, tt.want)
		}
	}
}
