package linktemplate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Variable values (RFC 6570 §2.3 and §2.4.2): a string, a list of strings,
// or an associative array of (name, value) pairs, read from the map
// Expand is given (rule 10).

// Kinds of value.
const (
	undefined = iota // absent, nil, or a list or associative array with no member
	scalar           // a string
	list             // a list of strings
	pairs            // an associative array, in order
)

// value is one variable's value, in the form expansion reads.
type value struct {
	kind  int
	s     string      // when scalar
	list  []string    // when list
	pairs [][2]string // when pairs
}

// valueOf converts what the caller gave for a variable into a value:
// string, a number (int, int8 to int64, uint, uint8 to uint64, float32,
// float64, written by strconv as the shortest decimal that reads back the
// same, without exponent), []string, [][2]string (an associative array in
// the caller's order) or map[string]string (an associative array in
// sorted order of its names). nil, an empty list and an empty array are
// undefined (RFC 6570 §2.3). Any other type is an error.
func valueOf(name string, v any) (value, error) {
	switch v := v.(type) {
	case nil:
		return value{}, nil
	case string:
		return value{kind: scalar, s: v}, nil
	case []string:
		if len(v) == 0 {
			return value{}, nil
		}
		return value{kind: list, list: v}, nil
	case [][2]string:
		if len(v) == 0 {
			return value{}, nil
		}
		return value{kind: pairs, pairs: v}, nil
	case map[string]string:
		if len(v) == 0 {
			return value{}, nil
		}
		ps := make([][2]string, 0, len(v))
		for k, x := range v {
			ps = append(ps, [2]string{k, x})
		}
		slices.SortFunc(ps, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
		return value{kind: pairs, pairs: ps}, nil
	}
	if s, ok := number(v); ok {
		return value{kind: scalar, s: s}, nil
	}
	return value{}, fmt.Errorf("linktemplate: variable %q is a %T; want a string, a number, []string, [][2]string or map[string]string", name, v)
}

// number writes v in decimal when it is one of Go's integer or
// floating-point types.
func number(v any) (string, bool) {
	switch v := v.(type) {
	case int:
		return strconv.Itoa(v), true
	case int8:
		return strconv.FormatInt(int64(v), 10), true
	case int16:
		return strconv.FormatInt(int64(v), 10), true
	case int32:
		return strconv.FormatInt(int64(v), 10), true
	case int64:
		return strconv.FormatInt(v, 10), true
	case uint:
		return strconv.FormatUint(uint64(v), 10), true
	case uint8:
		return strconv.FormatUint(uint64(v), 10), true
	case uint16:
		return strconv.FormatUint(uint64(v), 10), true
	case uint32:
		return strconv.FormatUint(uint64(v), 10), true
	case uint64:
		return strconv.FormatUint(v, 10), true
	case float32:
		return strconv.FormatFloat(float64(v), 'f', -1, 32), true
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	}
	return "", false
}
