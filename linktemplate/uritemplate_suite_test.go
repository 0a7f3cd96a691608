package linktemplate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
)

// suiteFiles are the files of the uritemplate-test suite in
// testdata/uritemplate-test (see its README),
// each run whole, with the number of cases each holds (a file cut short
// when it was copied would otherwise pass with fewer).
var suiteFiles = []struct {
	name  string
	cases int
}{
	{"spec-examples.json", 64},
	{"spec-examples-by-section.json", 117},
	{"extended-tests.json", 53},
	{"negative-tests.json", 36},
}

// suiteGroup is one group of tests of the suite: variables and cases.
type suiteGroup struct {
	Level     int                  `json:"level"`
	Variables json.RawMessage      `json:"variables"`
	Testcases [][2]json.RawMessage `json:"testcases"`
}

// TestURITemplateSuite expands every case of the uritemplate-test suite
// (RFC 6570 levels 1 to 4, extended and negative tests; rules 7 to 12): a
// string expected is the one acceptable result, a list holds every
// acceptable result (the orders of an associative array), false means an
// error. The suite's associative arrays are JSON objects, whose order it
// relies on for the single-result cases: they are given as [][2]string in
// document order. Where the case lists its acceptable orders, the array is
// also given as a map[string]string (written in sorted name order).
func TestURITemplateSuite(t *testing.T) {
	for _, sf := range suiteFiles {
		file := sf.name
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "uritemplate-test", file))
			if err != nil {
				t.Fatal(err)
			}
			var groups map[string]suiteGroup
			if err := json.Unmarshal(data, &groups); err != nil {
				t.Fatal(err)
			}
			names := make([]string, 0, len(groups))
			for name := range groups {
				names = append(names, name)
			}
			sort.Strings(names)
			passed, total := 0, 0
			for _, name := range names {
				g := groups[name]
				ordered, sorted, err := suiteVariables(g.Variables)
				if err != nil {
					t.Fatalf("%s: variables: %v", name, err)
				}
				for _, tc := range g.Testcases {
					var tmpl string
					if err := json.Unmarshal(tc[0], &tmpl); err != nil {
						t.Fatalf("%s: template %s: %v", name, tc[0], err)
					}
					want, fail, err := suiteExpected(tc[1])
					if err != nil {
						t.Fatalf("%s: %s: expected %s: %v", name, tmpl, tc[1], err)
					}
					total++
					ok := checkSuiteCase(t, name, tmpl, ordered, want, fail)
					if len(want) > 1 {
						ok = checkSuiteCase(t, name+" (map[string]string)", tmpl, sorted, want, fail) && ok
					}
					if ok {
						passed++
					}
				}
			}
			t.Logf("%s: %d of %d cases passed", file, passed, total)
			if total != sf.cases {
				t.Errorf("%s holds %d cases; want %d", file, total, sf.cases)
			}
		})
	}
}

// checkSuiteCase expands tmpl with vars and reports whether the result is
// one of want, or an error when fail.
func checkSuiteCase(t *testing.T, group, tmpl string, vars map[string]any, want []string, fail bool) bool {
	t.Helper()
	link, err := Template{Template: tmpl}.Expand(vars)
	switch {
	case fail && err == nil:
		t.Errorf("%s: %q expands to %q; want an error", group, tmpl, link.Target)
		return false
	case fail:
		var te *TemplateError
		if !errors.As(err, &te) {
			t.Errorf("%s: %q: error %v is not a *TemplateError", group, tmpl, err)
			return false
		}
		return true
	case err != nil:
		t.Errorf("%s: %q: %v; want %q", group, tmpl, err, want)
		return false
	case !slices.Contains(want, link.Target):
		t.Errorf("%s: %q expands to %q; want one of %q", group, tmpl, link.Target, want)
		return false
	}
	return true
}

// suiteExpected reads the second member of a case: a string, a list of
// strings, or false.
func suiteExpected(raw json.RawMessage) (want []string, fail bool, err error) {
	switch {
	case bytes.Equal(raw, []byte("false")):
		return nil, true, nil
	case len(raw) > 0 && raw[0] == '[':
		err = json.Unmarshal(raw, &want)
		return want, false, err
	}
	var s string
	err = json.Unmarshal(raw, &s)
	return []string{s}, false, err
}

// suiteVariables reads a group's variables twice: with associative arrays
// as [][2]string in document order, and as map[string]string. Strings stay
// strings, numbers are float64 (as encoding/json gives them), arrays are
// []string.
func suiteVariables(raw json.RawMessage) (ordered, sorted map[string]any, err error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // {
		return nil, nil, err
	}
	ordered, sorted = map[string]any{}, map[string]any{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		name := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		switch {
		case v[0] == '{':
			ps, err := orderedObject(v)
			if err != nil {
				return nil, nil, err
			}
			m := make(map[string]string, len(ps))
			for _, kv := range ps {
				m[kv[0]] = kv[1]
			}
			ordered[name], sorted[name] = ps, m
		case v[0] == '[':
			var list []string
			if err := json.Unmarshal(v, &list); err != nil {
				return nil, nil, err
			}
			ordered[name], sorted[name] = list, list
		default:
			var x any // string or float64
			if err := json.Unmarshal(v, &x); err != nil {
				return nil, nil, err
			}
			ordered[name], sorted[name] = x, x
		}
	}
	return ordered, sorted, nil
}

// orderedObject reads a JSON object of strings as its members in order.
func orderedObject(raw json.RawMessage) ([][2]string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	ps := [][2]string{}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		v, err := dec.Token()
		if err != nil {
			return nil, err
		}
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("member %v is %v, not a string", k, v)
		}
		ps = append(ps, [2]string{k.(string), s})
	}
	return ps, nil
}
