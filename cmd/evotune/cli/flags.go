package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// kvFlag collects a repeatable KEY=VALUE flag: --rule, the one syntax of
// rule options in every command, and --env.
type kvFlag map[string]string

func (o kvFlag) String() string { return "" }
func (o kvFlag) Type() string   { return "KEY=VALUE" }
func (o kvFlag) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return fmt.Errorf("want KEY=VALUE, got %q", v)
	}
	// As a config refuses a duplicate key: which one was meant is a guess.
	if old, dup := o[k]; dup {
		return fmt.Errorf("%s given twice (%s=%s, then %s=%s): give it once", k, k, old, k, val)
	}
	o[k] = val
	return nil
}

// nonEmpty is a string flag that refuses an empty or blank value, which
// would otherwise read as the flag not given at all.
type nonEmpty struct {
	s    *string
	want string // what a value is, for the error
}

func (v nonEmpty) String() string {
	if v.s == nil {
		return ""
	}
	return *v.s
}
func (v nonEmpty) Type() string { return "string" }
func (v nonEmpty) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("empty; want %s", v.want)
	}
	*v.s = s
	return nil
}

// addRuleFlag adds --rule to fs, collecting into rules.
func addRuleFlag(fs *pflag.FlagSet, rules kvFlag) {
	fs.Var(rules, "rule", "rule option `KEY=VALUE` of the game (repeatable; see 'evotune games GAME')")
}

// legacyRuleFlags is the annotation of a command that used to take its
// rule options as --OPTION VALUE (perft): such flags are still read, as
// --rule OPTION=VALUE, with a deprecation note.
const legacyRuleFlags = "evotune/legacy-rule-flags"

// rewriteArgs turns the spellings the command line accepted before it
// moved to cobra into the current ones, for cmd's flags: Go's -name and
// --o (now --name and -o) silently, and, for a command annotated with
// legacyRuleFlags, --OPTION VALUE into --rule OPTION=VALUE, returning a
// note for each of those.
func rewriteArgs(cmd *cobra.Command, args []string) (out, notes []string) {
	cmd.InitDefaultHelpFlag()
	fs := cmd.Flags()
	_, legacy := cmd.Annotations[legacyRuleFlags]
	out = make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...), notes
		}
		if len(a) < 2 || a[0] != '-' {
			out = append(out, a)
			continue
		}
		dashes := 1
		if a[1] == '-' {
			dashes = 2
		}
		name, val, hasVal := strings.Cut(a[dashes:], "=")
		var f *pflag.Flag
		switch {
		case dashes == 2 && len(name) == 1 && fs.Lookup(name) == nil: // Go's --o
			if f = fs.ShorthandLookup(name); f != nil {
				a = a[1:]
			}
		case dashes == 2:
			f = fs.Lookup(name)
		case len(name) == 1:
			f = fs.ShorthandLookup(name)
		default: // Go's -name
			if f = fs.Lookup(name); f != nil {
				a = "-" + a
			}
		}
		if f == nil && legacy && name != "" {
			if !hasVal {
				if i+1 >= len(args) {
					out = append(out, a)
					continue
				}
				i++
				val = args[i]
			}
			out = append(out, "--rule", name+"="+val)
			notes = append(notes, fmt.Sprintf("--%s %s is now --rule %s=%s", name, val, name, val))
			continue
		}
		out = append(out, a)
		if f != nil && !hasVal && f.NoOptDefVal == "" && i+1 < len(args) {
			i++ // the flag's value, whatever it looks like
			out = append(out, args[i])
		}
	}
	return out, notes
}

// flagError is a flag that could not be parsed, reworded as one line.
func flagError(cmd *cobra.Command, err error) error {
	if !cmd.HasParent() {
		// evotune frobnicate --flag: the command is what is wrong.
		if pos := cmd.Flags().Args(); len(pos) > 0 {
			return unknownCommand(cmd, pos[0])
		}
	}
	var inv *pflag.InvalidValueError
	var num *strconv.NumError
	switch {
	case errors.As(err, &inv):
		why := inv.Unwrap().Error()
		if errors.As(err, &num) {
			// strconv's errors name the function that failed, not the
			// value that was wanted.
			switch t := inv.GetFlag().Value.Type(); {
			case errors.Is(num.Err, strconv.ErrRange):
				why = "out of range"
			case t == "bool":
				why = "want true or false"
			case strings.HasPrefix(t, "uint"):
				why = "want a whole number of at least 0"
			case strings.HasPrefix(t, "int"):
				why = "want a whole number"
			}
		}
		err = fmt.Errorf("invalid value %q for --%s: %s", inv.GetValue(), inv.GetFlag().Name, why)
	}
	return usagef("%v; run '%s --help' for usage", err, cmd.CommandPath())
}
