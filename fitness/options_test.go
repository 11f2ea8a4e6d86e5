package fitness_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
)

// TestReadOptions: options are read in name order, each known one by
// set; an unknown name and a refused value are each an OptionError that
// names its option, and every problem is returned at once.
func TestReadOptions(t *testing.T) {
	known := []fitness.Option{{Name: "size"}, {Name: "depth"}, {Name: "fast"}}
	var order []string
	set := func(name, value string) error {
		order = append(order, name)
		switch name {
		case "fast":
			_, err := fitness.OptionBool("g", name, value)
			return err
		case "depth":
			if value == "deep" {
				// An OptionError already names its option.
				return fitness.BadOption("size", errors.New("g: depth deep needs a larger size"))
			}
		}
		_, err := fitness.OptionInt("g", name, value)
		return err
	}
	for _, tc := range []struct {
		name  string
		opts  map[string]string
		order string
		errs  []string // option: message
	}{
		{name: "none", opts: nil},
		{name: "good", opts: map[string]string{"size": " 9 ", "depth": "-2", "fast": "true"}, order: "depth fast size"},
		{name: "unknown", opts: map[string]string{"colour": "red", "size": "9"}, order: "size",
			errs: []string{`colour: g: unknown option "colour" (want size, depth or fast)`}},
		{name: "bad values", opts: map[string]string{"size": "nine", "fast": "yes", "depth": "1.5"}, order: "depth fast size",
			errs: []string{`depth: g: depth "1.5": not a whole number`, `fast: g: option fast: "yes" is not true or false`, `size: g: size "nine": not a whole number`}},
		{name: "set names another option", opts: map[string]string{"depth": "deep"}, order: "depth",
			errs: []string{"size: g: depth deep needs a larger size"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			order = nil
			err := fitness.ReadOptions("g", known, tc.opts, set)
			if got := strings.Join(order, " "); got != tc.order {
				t.Errorf("set called for %q, want %q", got, tc.order)
			}
			var got []string
			if j, ok := err.(interface{ Unwrap() []error }); ok {
				for _, e := range j.Unwrap() {
					oe, ok := errors.AsType[*fitness.OptionError](e)
					if !ok {
						t.Fatalf("%v is not an OptionError", e)
					}
					got = append(got, oe.Option+": "+oe.Err.Error())
				}
			} else if err != nil {
				t.Fatalf("error %v is not a joined list", err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.errs) {
				t.Errorf("errors\n%q\nwant\n%q", got, tc.errs)
			}
		})
	}
}
