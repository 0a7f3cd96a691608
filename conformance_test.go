package weblink

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"testing"
)

// The conformance drivers run the test vectors that other projects published
// for Link header parsing and RFC 3986 reference resolution. Each file in
// testdata/conformance keeps the source's cases (with their provenance) and
// adds a "want" object: the result weblink must give under DESIGN.md. Where
// the source expects something else, a "reason" says which rule decides.

// loadCases reads the JSON array of cases in testdata/conformance/file.
func loadCases[T any](t *testing.T, file string) []T {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "conformance", file))
	if err != nil {
		t.Fatal(err)
	}
	var cases []T
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", file)
	}
	return cases
}

// runCases runs each case as a subtest named by name and logs how many of
// them passed, so that the pass counts of every file are in the test log.
func runCases[T any](t *testing.T, file string, name func(T) string, run func(*testing.T, T)) {
	t.Run(file, func(t *testing.T) {
		cases := loadCases[T](t, file)
		passed := 0
		for _, c := range cases {
			if t.Run(name(c), func(t *testing.T) { run(t, c) }) {
				passed++
			}
		}
		t.Logf("%s: %d of %d cases pass", file, passed, len(cases))
	})
}

// resolveCase is a reference resolution vector: ref resolved against base.
type resolveCase struct {
	Name string `json:"name"`
	Base string `json:"base"`
	Ref  string `json:"ref"`
	Want *struct {
		Target string `json:"target"`
		Anchor string `json:"anchor"`
	} `json:"want"`
}

func TestConformanceResolve(t *testing.T) {
	files := []string{
		"resolve-rfc3986-section5.4.json",
		"resolve-rfc3986-remove_dot_segments.json",
		"resolve-go-net-url.json",
	}
	for _, file := range files {
		runCases(t, file, func(c resolveCase) string { return c.Name }, func(t *testing.T, c resolveCase) {
			if c.Want == nil {
				t.Fatal("case has no project expectation (want)")
			}
			base, err := url.Parse(c.Base)
			if err != nil {
				t.Fatalf("base %q: %v", c.Base, err)
			}
			in := Links{{Target: c.Ref, Anchor: c.Ref}}
			got := in.Resolve(base)
			if len(got) != 1 {
				t.Fatalf("Resolve returned %d links, want 1", len(got))
			}
			if got[0].Target != c.Want.Target {
				t.Errorf("Target of %q against %q = %q, want %q", c.Ref, c.Base, got[0].Target, c.Want.Target)
			}
			if got[0].Anchor != c.Want.Anchor {
				t.Errorf("Anchor of %q against %q = %q, want %q", c.Ref, c.Base, got[0].Anchor, c.Want.Anchor)
			}
			if in[0].Target != c.Ref || in[0].Anchor != c.Ref {
				t.Errorf("Resolve modified its receiver: %+v", in[0])
			}
		})
	}
}
