package enum_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/evotune/evotune/internal/enum"
)

type colour uint8

const (
	red colour = iota + 1
	green
	blue
)

var colourNames = [...]string{red: "red", green: "green", blue: "blue"}

func (c colour) String() string { return enum.Name(colourNames[:], c, "colour") }

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		c    colour
		want string
	}{{red, "red"}, {blue, "blue"}, {0, "colour(0)"}, {4, "colour(4)"}} {
		if got := tc.c.String(); got != tc.want {
			t.Errorf("%d: %q, want %q", uint8(tc.c), got, tc.want)
		}
	}
	for _, tc := range []struct {
		s    string
		want colour
		ok   bool
	}{{"green", green, true}, {"red", red, true}, {"", 0, false}, {"Green", 0, false}, {"purple", 0, false}} {
		if got, ok := enum.Parse[colour](colourNames[:], tc.s); got != tc.want || ok != tc.ok {
			t.Errorf("Parse(%q) = %v, %v; want %v, %v", tc.s, got, ok, tc.want, tc.ok)
		}
	}
	if got := enum.List(colourNames[:]); !slices.Equal(got, []string{"red", "green", "blue"}) {
		t.Errorf("List = %q", got)
	}
}

type sign int8

const (
	minus sign = iota - 1
	zero
	plus
)

// A signed type's negative values have no name in a table indexed from 0.
func TestSigned(t *testing.T) {
	names := []string{zero + 0: "zero", plus: "plus"}
	if got := enum.Name(names, minus, "sign"); got != "sign(-1)" {
		t.Errorf("minus: %q", got)
	}
	if got := enum.Name(names, plus, "sign"); got != "plus" {
		t.Errorf("plus: %q", got)
	}
}

func ExampleName() {
	fmt.Println(green, colour(9))
	// Output: green colour(9)
}
