package signposting

import (
	"testing"

	"github.com/weblinking/weblink"
)

// TestCheckOncePerLink checks that a problem is reported once: a link
// with two relation types of the profile and a bad type (rule 10) or
// target (rule 11), and a link written three times (rule 9: one warning).
func TestCheckOncePerLink(t *testing.T) {
	const rest = `, <https://doi.org/10.1/x>; rel="cite-as", <https://schema.org/Dataset>; rel="type"`
	tests := []struct {
		name, field, rule string
		want              int
	}{
		{"rule 10: two relation types, one link", `<https://r.example/m>; rel="describedby item"; type="csv"` + rest, "10", 1},
		{"rule 11: two relation types, one link", "<https://r.example/m\x01>; rel=\"describedby item\"; type=\"text/csv\"" + rest, "11", 1},
		{"rule 9: a link three times", `<https://r.example/m>; rel="describedby"; type="text/csv", <https://r.example/m>; rel="describedby"; type="text/csv", <https://r.example/m>; rel="describedby"; type="text/csv"` + rest, "9", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			links, err := weblink.Parse(tt.field)
			if err != nil {
				t.Fatal(err)
			}
			got := 0
			for _, p := range FromLinks("https://r.example/r", links).Check() {
				if m := ruleRE.FindStringSubmatch(p.Msg); m[1] == tt.rule {
					got++
					t.Logf("%s %v", p.Msg, p.Link)
				}
			}
			if got != tt.want {
				t.Errorf("%d problems of rule %s, want %d", got, tt.rule, tt.want)
			}
		})
	}
}
