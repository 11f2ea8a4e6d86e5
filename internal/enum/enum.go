// Package enum names the values of evotune's small enumerations, the
// one way every package does it: a table of names indexed by value (an
// array literal keyed by the constants, "" for a value without a name,
// such as the zero value of a type that starts at 1), and these
// functions for String, for parsing a name as a user wrote it, and for
// listing the names in a message.
//
//	var kindNames = [...]string{Float: "float", Int: "int"}
//
//	func (k Kind) String() string { return enum.Name(kindNames[:], k, "Kind") }
package enum

import "strconv"

// Value is an enumeration's type.
type Value interface{ ~uint8 | ~int8 | ~int }

// Name is v's name in names, or kind(v) for a value without one.
func Name[T Value](names []string, v T, kind string) string {
	if v >= 0 && int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return kind + "(" + strconv.Itoa(int(v)) + ")"
}

// Parse returns the value whose name is s.
func Parse[T Value](names []string, s string) (T, bool) {
	for i, n := range names {
		if n != "" && n == s {
			return T(i), true
		}
	}
	return 0, false
}

// List is the names in the order of their values, for messages.
func List(names []string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}
