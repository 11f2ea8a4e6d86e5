package fitness

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/evotune/evotune/internal/english"
)

// OptionError is a game's refusal of one rule option, so that a config
// can point at the line that set it. Games return it from GameInfo.New,
// alone or joined with others (errors.Join); a problem that concerns
// several options together (a fleet too large for the board) is a plain
// error.
type OptionError struct {
	Option string // the option's name, as in GameInfo.Options
	Err    error  // what is wrong, worded for a user: "battleship: width \"x\": not a whole number"
}

func (e *OptionError) Error() string { return e.Err.Error() }
func (e *OptionError) Unwrap() error { return e.Err }

// BadOption wraps err as the refusal of option.
func BadOption(option string, err error) error { return &OptionError{Option: option, Err: err} }

// ReadOptions reads a game's rule options as a user wrote them (a
// config's rules:, --rule KEY=VALUE), the one way every game reads
// them: in name order, each option of known handed to set with its
// value; an unknown name and set's refusal are each an OptionError
// naming the option, and every problem is returned, joined. game starts
// every message ("hadron: unknown option ...").
func ReadOptions(game string, known []Option, opts map[string]string, set func(name, value string) error) error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(opts)) {
		if !slices.ContainsFunc(known, func(o Option) bool { return o.Name == name }) {
			names := make([]string, len(known))
			for i, o := range known {
				names[i] = o.Name
			}
			errs = append(errs, BadOption(name, fmt.Errorf("%s: unknown option %q (want %s)", game, name, english.Or(names))))
			continue
		}
		if err := set(name, opts[name]); err != nil {
			if _, ok := errors.AsType[*OptionError](err); !ok {
				err = BadOption(name, err)
			}
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// OptionInt reads a rule option's whole number; spaces around it do not
// count.
func OptionInt(game, name, value string) (int64, error) {
	x, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %s %q: not a whole number", game, name, value)
	}
	return x, nil
}

// OptionBool reads a rule option's true or false.
func OptionBool(game, name, value string) (bool, error) {
	b, err := strconv.ParseBool(strings.TrimSpace(value))
	if err != nil {
		return false, fmt.Errorf("%s: option %s: %q is not true or false", game, name, value)
	}
	return b, nil
}
