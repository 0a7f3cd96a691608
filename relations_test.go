package weblink

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/weblinking/weblink/internal/relgen"
)

// registryEntries decodes the registry data file independently of the
// generator.
func registryEntries(t *testing.T) []Relation {
	t.Helper()
	data, err := os.ReadFile(relgen.DataFile)
	if err != nil {
		t.Fatal(err)
	}
	var entries []Relation // encoding/json matches the field names case-insensitively
	if err := json.Unmarshal(data, &entries); err != nil {
		t.Fatal(err)
	}
	return entries
}

// mixedCase upper-cases every other letter of s.
func mixedCase(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); i += 2 {
		if 'a' <= b[i] && b[i] <= 'z' {
			b[i] -= 'a' - 'A'
		}
	}
	return string(b)
}

func TestLookupRelationEveryEntry(t *testing.T) {
	entries := registryEntries(t)
	if len(entries) != 127 {
		t.Errorf("the data file has %d entries, want 127", len(entries))
	}
	for _, want := range entries {
		for _, name := range []string{want.Name, strings.ToUpper(want.Name), mixedCase(want.Name)} {
			got, ok := LookupRelation(name)
			if !ok || got != want {
				t.Errorf("LookupRelation(%q) = %+v, %v; want %+v, true", name, got, ok, want)
			}
		}
	}
}

func TestLookupRelationNotFound(t *testing.T) {
	for _, name := range []string{
		"", "no-such", "nxt", "nex", "nextt", "next ", " next", "n",
		"zzzz", "0", "\x00", "ne\u0301xt", "\u212aey", // Kelvin sign: only ASCII folds
		"http://example.com/rel",
	} {
		if got, ok := LookupRelation(name); ok || got != (Relation{}) {
			t.Errorf("LookupRelation(%q) = %+v, %v; want zero, false", name, got, ok)
		}
	}
}

func TestRelations(t *testing.T) {
	entries := registryEntries(t)
	rs := Relations()
	if len(rs) != len(entries) {
		t.Fatalf("Relations() has %d entries; the data file has %d", len(rs), len(entries))
	}
	if !slices.IsSortedFunc(rs, func(a, b Relation) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("Relations() is not sorted by name")
	}
	for i := 1; i < len(rs); i++ {
		if rs[i-1].Name == rs[i].Name {
			t.Errorf("Relations() holds %q twice", rs[i].Name)
		}
	}
	sorted := slices.Clone(entries)
	slices.SortFunc(sorted, func(a, b Relation) int { return strings.Compare(a.Name, b.Name) })
	if !slices.Equal(rs, sorted) {
		t.Error("Relations() differs from the data file")
	}
}

func TestRelationsIsolated(t *testing.T) {
	rs := Relations()
	first := rs[0]
	rs[0] = Relation{Name: "changed"}
	rs = rs[:1]
	_ = append(rs, Relation{Name: "appended"})

	again := Relations()
	if again[0] != first || again[1].Name == "appended" {
		t.Errorf("Relations() shows a caller's change: %+v, %+v", again[0], again[1])
	}
	if _, ok := LookupRelation("changed"); ok {
		t.Error(`LookupRelation("changed") found the caller's entry`)
	}
	if r, ok := LookupRelation(first.Name); !ok || r != first {
		t.Errorf("LookupRelation(%q) = %+v, %v after a caller's change", first.Name, r, ok)
	}
}

// TestRelationConstants compares the constants with the registry data file,
// decoded here rather than by the generator: one constant for each
// registered name, holding that name, named after it.
func TestRelationConstants(t *testing.T) {
	want := make(map[string]bool) // the names of the data file
	for _, e := range registryEntries(t) {
		want[e.Name] = true
	}
	got := make(map[string]bool)
	for _, c := range relationConstants {
		if !want[c.value] {
			t.Errorf("%s = %q is not a name of %s", c.ident, c.value, relgen.DataFile)
		}
		if got[c.value] {
			t.Errorf("%s = %q: another constant holds the same name", c.ident, c.value)
		}
		got[c.value] = true
		if id := "Rel" + relgen.GoName(c.value); c.ident != id {
			t.Errorf("%s = %q, want the constant for %q to be %s", c.ident, c.value, c.value, id)
		}
	}
	for name := range want {
		if !got[name] {
			t.Errorf("registered name %q has no constant", name)
		}
	}
	// The names the issue asks for.
	for _, c := range [][2]string{
		{RelNext, "next"}, {RelPrev, "prev"}, {RelDNSPrefetch, "dns-prefetch"},
		{RelEditMedia, "edit-media"}, {RelLatestVersion, "latest-version"},
		{RelPrivacyPolicy, "privacy-policy"}, {RelAPICatalog, "api-catalog"},
	} {
		if c[0] != c[1] {
			t.Errorf("constant = %q, want %q", c[0], c[1])
		}
	}
}

// TestGeneratedUpToDate fails when zrelations.go or zrelations_test.go does
// not match the data file and the generator.
func TestGeneratedUpToDate(t *testing.T) {
	data, err := os.ReadFile(relgen.DataFile)
	if err != nil {
		t.Fatal(err)
	}
	code, test, err := relgen.Generate(data)
	if err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string][]byte{"zrelations.go": code, "zrelations_test.go": test} {
		got, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate", file)
		}
	}
}

func TestLookupRelationAllocs(t *testing.T) {
	for _, name := range []string{"next", "Next", "WORKING-COPY-OF", "no-such"} {
		if n := testing.AllocsPerRun(100, func() { LookupRelation(name) }); n != 0 {
			t.Errorf("LookupRelation(%q) allocates %v times", name, n)
		}
	}
}

func BenchmarkLookupRelation(b *testing.B) {
	for _, name := range []string{"next", "Next", "Working-Copy-Of"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, ok := LookupRelation(name); !ok {
					b.Fatal("not found")
				}
			}
		})
	}
}
