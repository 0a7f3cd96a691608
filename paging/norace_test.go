//go:build !race

package paging_test

// raceEnabled is true when the tests run under the race detector, which
// changes what escapes to the heap: allocation bounds are wider then.
const raceEnabled = false
