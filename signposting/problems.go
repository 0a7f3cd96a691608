package signposting

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/weblinking/weblink"
)

// maxPerRule is how many problems one rule reports at one level; the next
// one says how many more there are.
const maxPerRule = 16

// ruleLevel identifies a rule at a level, for maxPerRule.
type ruleLevel struct{ rule, level int }

// problems collects the problems of a reading or a check.
type problems struct {
	list  []Problem
	count map[ruleLevel]int
	first map[ruleLevel]bool // whether the rule's first problem was a warning
}

// add records a problem of rule at level, with a copy of the link at fault
// (nil for one that is missing); msg gets the rule's number.
func (p *problems) add(rule, level int, warning bool, l *weblink.Link, msg string) {
	if p.count == nil {
		p.count, p.first = map[ruleLevel]int{}, map[ruleLevel]bool{}
	}
	k := ruleLevel{rule, level}
	if p.count[k]++; p.count[k] > maxPerRule {
		return
	}
	p.first[k] = warning
	var c *weblink.Link
	if l != nil {
		copied := *l
		c = &copied
	}
	p.list = append(p.list, Problem{Level: level, Warning: warning, Link: c, Msg: msg + " (rule " + strconv.Itoa(rule) + ")"})
}

// clone returns a copy of p that can be added to without changing p.
func (p *problems) clone() problems {
	c := problems{list: slices.Clone(p.list), count: map[ruleLevel]int{}, first: map[ruleLevel]bool{}}
	for k, v := range p.count {
		c.count[k] = v
	}
	for k, v := range p.first {
		c.first[k] = v
	}
	return c
}

// result returns the problems, Level 1 first, each rule's left-out
// problems counted in one more.
func (p *problems) result() []Problem {
	out := slices.Clone(p.list)
	keys := make([]ruleLevel, 0, len(p.count))
	for k := range p.count {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b ruleLevel) int {
		if a.level != b.level {
			return a.level - b.level
		}
		return a.rule - b.rule
	})
	for _, k := range keys {
		if n := p.count[k] - maxPerRule; n > 0 {
			out = append(out, Problem{Level: k.level, Warning: p.first[k],
				Msg: fmt.Sprintf("and %d more problems like the ones above (rule %d)", n, k.rule)})
		}
	}
	slices.SortStableFunc(out, func(a, b Problem) int { return a.Level - b.Level })
	return out
}
