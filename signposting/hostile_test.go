package signposting

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/weblinking/weblink"
)

// TestHostile reads what a hostile landing page sends: 10,000 signposts,
// a linkset that lists itself, a linkset of 100 MB, a header and HTML
// that disagree on everything. Each finishes quickly, with each problem
// once and at most 16 per rule and level.
func TestHostile(t *testing.T) {
	var many []string
	for i := range 10000 {
		many = append(many, fmt.Sprintf(`<{base}/f%d>; rel="item"; type="csv"`, i))
	}
	self := `{"linkset":[{"anchor":"{base}/linkset","linkset":[{"href":"{base}/linkset","type":"application/linkset+json"}]}]}`
	huge := `{"linkset":[{"anchor":"{base}/record","item":[` + strings.Repeat(`{"href":"{base}/x","type":"text/csv"},`, 100<<20/40) + `{"href":"{base}/y"}]}]}`
	tests := []struct {
		name string
		site site
	}{
		{"10000 signposts", site{header: many}},
		{"a linkset that lists itself", linksetSite(level1, self)},
		{"a linkset of 100 MB", linksetSite(level1, huge)},
		{"header and HTML disagree on everything", site{header: level1, html: `<link rel="cite-as" href="https://doi.org/other"><link rel="type" href="https://schema.org/A"><link rel="type" href="https://schema.org/B"><link rel="license" href="https://spdx.org/licenses/MIT"><link rel="describedby" href="{base}/x">`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			s := fetchSite(t, tt.site)
			ps := s.Check()
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %v", d)
			}
			seen := map[string]bool{}
			perRule := map[string]int{}
			for _, p := range ps {
				k := fmt.Sprint(p.Level, p.Msg, p.Link)
				if seen[k] {
					t.Errorf("reported twice: %s", k)
				}
				seen[k] = true
				perRule[fmt.Sprint(p.Level, ruleRE.FindString(p.Msg))]++
			}
			for k, n := range perRule {
				if n > maxPerRule+1 {
					t.Errorf("%d problems for %s", n, k)
				}
			}
			if len(ps) == 0 {
				t.Error("no problem found")
			}
		})
	}
}

// FuzzCheck feeds FromLinks and Check any Link field: no panic, and every
// problem names its rule.
func FuzzCheck(f *testing.F) {
	f.Add(`<https://doi.org/1>; rel="cite-as", <m>; rel="describedby"; type="text/csv"`)
	f.Add("<\x01>; rel=\"cite-as item\"; type=\"a/\"")
	f.Fuzz(func(t *testing.T, field string) {
		links, _ := weblink.Parse(field)
		s := FromLinks("https://repo.example/r", links)
		for _, p := range s.Check() {
			if !ruleRE.MatchString(p.Msg) || p.Level < 1 || p.Level > 2 {
				t.Fatalf("problem %+v", p)
			}
		}
		_ = s.Level()
	})
}
