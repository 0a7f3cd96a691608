// Package rules holds the test that keeps the numbered rules of the
// module's packages consistent; it has no code.
//
// Every package with rules numbers them in its doc.go, as a list whose
// items begin with the number ("//  12. ..."), from 1 with no gap and no
// number twice. Code, tests and testdata cite them as "rule 12", "rules 3
// and 4", "rules 6 to 10"; a citation of another package's rule names it:
// "rule 30 of package weblink". A bare citation resolves against the
// package it is in, and docs/*.md against the package the page is about.
//
// A package without rules of its own cites those of the package it serves:
// its bare citations resolve against the nearest directory above it whose
// doc.go defines rules. Every internal package, the weblink command
// (cmd/weblink) and the benchmarks (bench) serve package weblink, the
// root, so "rule 8" in internal/linkscan is rule 8 of package weblink; a
// module inside paging (paging/redisstore) serves paging. A rule of any
// other package is cited with "of package X" there too.
//
// TestRules fails when a citation names a rule that the doc it resolves
// against does not define, when a doc defines a number twice or leaves a
// gap, or when a citation is written "weblink's rule N" instead of "rule N
// of package weblink".
package rules
