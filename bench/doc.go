// Package bench compares weblink with other Go Link header parsers on the
// same inputs. It is a separate module so that weblink itself never depends
// on them; its benchmarks and tests are described in README.md.
package bench
