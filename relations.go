package weblink

import (
	"slices"

	"github.com/weblinking/weblink/internal/ascii"
)

// The constants Rel... and the registry table are generated from the data
// file internal/relgen/link-relations.json; see package internal/relgen.
//
//go:generate go run ./internal/relgen/cmd/relgen

// Relation is an entry of the IANA "Link Relations" registry (RFC 8288
// §4.2), which lists the registered relation types (RFC 8288 §2.1.1).
type Relation struct {
	Name        string // the relation type, lower-case, such as "next"
	Description string // what the relation means, as registered
	Reference   string // the specification that defines it, as registered
}

// LookupRelation returns the registered relation type name and whether it is
// registered (RFC 8288 §2.1.1, §4.2).
//
// Registered relation types compare case-insensitively, so "Next" finds
// "next"; the comparison folds only ASCII letters, as every registered name
// is ASCII. LookupRelation does not allocate.
//
// Extension relation types (absolute URIs, RFC 8288 §2.1.2) are never
// registered; see [Link.Unregistered].
func LookupRelation(name string) (Relation, bool) {
	lo, hi := 0, len(relations)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch c := compareFold(relations[m].Name, name); {
		case c < 0:
			lo = m + 1
		case c > 0:
			hi = m
		default:
			return relations[m], true
		}
	}
	return Relation{}, false
}

// compareFold compares the lower-case reg with name lower-cased (ASCII only),
// in the byte order the table is sorted in.
func compareFold(reg, name string) int {
	n := min(len(reg), len(name))
	for i := 0; i < n; i++ {
		a, b := reg[i], ascii.ToLower(name[i])
		if a != b {
			if a < b {
				return -1
			}
			return +1
		}
	}
	return len(reg) - len(name)
}

// Relations returns every entry of the IANA "Link Relations" registry
// (RFC 8288 §4.2), sorted by name. The slice is a new copy on each call:
// the caller may modify it.
func Relations() []Relation {
	return slices.Clone(relations[:])
}

// Unregistered returns the relation types of l.Rel that are neither
// registered nor extension relation types: usually a misspelling, such as
// "nxt".
//
// Registered relation types (RFC 8288 §2.1.1) are compared
// case-insensitively; extension relation types are absolute URIs (RFC 8288
// §2.1.2). It returns nil when there is none. An empty relation type is
// reported too.
//
// Validate accepts a relation type that is merely unregistered, as RFC 8288
// allows; Unregistered is the stricter check for the links a server sends.
func (l Link) Unregistered() []string {
	var out []string
	for _, r := range l.Rel {
		if _, ok := LookupRelation(r); ok || isAbsoluteURI(r) {
			continue
		}
		out = append(out, r)
	}
	return out
}
