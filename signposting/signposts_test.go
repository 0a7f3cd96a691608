package signposting

import (
	"slices"
	"strings"
	"testing"

	"github.com/weblinking/weblink"
)

// TestFromLinksCommaInTarget gives FromLinks a cite-as and an item whose
// targets hold a comma and a semicolon, the item relative: both are
// read whole, the item resolved against the resource, and Check reports
// nothing at Level 1.
func TestFromLinksCommaInTarget(t *testing.T) {
	const resource = "https://repo.example/record"
	var fields []string
	for _, l := range level1 {
		fields = append(fields, strings.ReplaceAll(odd(l), "{base}/data,1;v=2.csv", "data,1;v=2.csv"))
	}
	links, err := weblink.Parse(strings.ReplaceAll(strings.Join(fields, ", "), "{base}", "https://repo.example"))
	if err != nil {
		t.Fatal(err)
	}
	s := FromLinks(resource, links)
	if got := targets(s.CiteAs); !slices.Equal(got, []string{oddCiteAs}) {
		t.Errorf("CiteAs %q, want %q", got, oddCiteAs)
	}
	if got, want := targets(s.Items), []string{"https://repo.example/data,1;v=2.csv"}; !slices.Equal(got, want) {
		t.Errorf("Items %q, want %q", got, want)
	}
	for _, p := range s.Check() {
		if p.Level == 1 {
			t.Errorf("Level 1 problem: %s %v", p.Msg, p.Link)
		}
	}
}
