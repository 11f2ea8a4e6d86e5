package fitness

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
