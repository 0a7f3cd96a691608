//go:build !race

package weblink

// raceEnabled is true when the tests run under the race detector, whose
// overhead makes wall-clock comparisons meaningless.
const raceEnabled = false
