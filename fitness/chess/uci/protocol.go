package uci

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// OptionType is the type of a UCI option, as an engine declares it.
type OptionType uint8

// The option types of the UCI specification.
const (
	Spin   OptionType = iota + 1 // an integer in [Min, Max]
	Check                        // true or false
	Combo                        // one of Vars
	String                       // any text; "<empty>" is the empty string
	Button                       // no value: setoption name N presses it
)

var optionTypeNames = [...]string{Spin: "spin", Check: "check", Combo: "combo", String: "string", Button: "button"}

func (t OptionType) String() string {
	if int(t) < len(optionTypeNames) && optionTypeNames[t] != "" {
		return optionTypeNames[t]
	}
	return "OptionType(" + strconv.Itoa(int(t)) + ")"
}

func parseOptionType(s string) (OptionType, bool) {
	for t, name := range optionTypeNames {
		if name != "" && name == s {
			return OptionType(t), true
		}
	}
	return 0, false
}

// Option is one option an engine declares after `uci`:
//
//	option name Hash type spin default 16 min 1 max 33554432
//	option name Style type combo default Normal var Solid var Normal var Risky
type Option struct {
	Name     string
	Type     OptionType
	Default  string   // as declared; a spin's is also in Def
	Def      int64    // a spin's default
	Min, Max int64    // a spin's range
	Vars     []string // a combo's values
}

// CheckValue reports whether v is a value the option takes, and returns
// it as setoption sends it: a check's "true" or "false", a combo's var
// as the engine spells it (UCI values are not case-sensitive), a spin's
// integer.
func (o *Option) CheckValue(v string) (string, error) {
	switch o.Type {
	case Spin:
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return "", fmt.Errorf("option %s: %q is not an integer", o.Name, v)
		}
		if n < o.Min || n > o.Max {
			return "", fmt.Errorf("option %s: %d is outside its range [%d, %d]", o.Name, n, o.Min, o.Max)
		}
		return strconv.FormatInt(n, 10), nil
	case Check:
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true":
			return "true", nil
		case "false":
			return "false", nil
		}
		return "", fmt.Errorf("option %s: %q is not true or false", o.Name, v)
	case Combo:
		for _, x := range o.Vars {
			if strings.EqualFold(x, strings.TrimSpace(v)) {
				return x, nil
			}
		}
		return "", fmt.Errorf("option %s: %q is not one of %s", o.Name, v, strings.Join(o.Vars, ", "))
	case String:
		if strings.ContainsAny(v, "\r\n") {
			return "", fmt.Errorf("option %s: a value holding a line break", o.Name)
		}
		return v, nil
	case Button:
		return "", fmt.Errorf("option %s is a button: it takes no value", o.Name)
	}
	return "", fmt.Errorf("option %s: unknown type", o.Name)
}

// fields splits a line at runs of spaces and tabs, as UCI allows.
func fields(line string) []string {
	return strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' })
}

// ParseOption reads an `option` line. Names and values may hold spaces:
// a name runs from `name` to `type`, a value to the next keyword.
func ParseOption(line string) (Option, error) {
	f := fields(line)
	if len(f) == 0 || f[0] != "option" {
		return Option{}, errors.New("not an option line")
	}
	// Collect each keyword's words. A keyword inside a name or a value
	// cannot be told from one that starts the next part; the
	// specification asks engines to avoid them, as every engine does.
	var name, typ, def, min, max []string
	var vars [][]string
	var cur *[]string
	seen := map[string]bool{}
	for _, w := range f[1:] {
		switch w {
		case "name", "type", "default", "min", "max":
			if seen[w] {
				return Option{}, fmt.Errorf("option line has %q twice", w)
			}
			seen[w] = true
			switch w {
			case "name":
				cur = &name
			case "type":
				cur = &typ
			case "default":
				cur = &def
			case "min":
				cur = &min
			case "max":
				cur = &max
			}
			continue
		case "var":
			vars = append(vars, nil)
			cur = &vars[len(vars)-1]
			continue
		}
		if cur == nil {
			return Option{}, fmt.Errorf("option line: %q before name", w)
		}
		*cur = append(*cur, w)
	}
	o := Option{Name: strings.Join(name, " "), Default: strings.Join(def, " ")}
	if o.Name == "" {
		return Option{}, errors.New("option line without a name")
	}
	t, ok := parseOptionType(strings.Join(typ, " "))
	if !ok {
		return Option{}, fmt.Errorf("option %s: unknown type %q", o.Name, strings.Join(typ, " "))
	}
	o.Type = t
	if t != Spin && (seen["min"] || seen["max"]) {
		return Option{}, fmt.Errorf("option %s: min or max on a %s", o.Name, t)
	}
	if t != Combo && len(vars) > 0 {
		return Option{}, fmt.Errorf("option %s: var on a %s", o.Name, t)
	}
	switch t {
	case Spin:
		var err error
		if o.Def, err = spinNumber(o.Name, "default", def); err != nil {
			return Option{}, err
		}
		if o.Min, err = spinNumber(o.Name, "min", min); err != nil {
			return Option{}, err
		}
		if o.Max, err = spinNumber(o.Name, "max", max); err != nil {
			return Option{}, err
		}
		if o.Min > o.Max || o.Def < o.Min || o.Def > o.Max {
			return Option{}, fmt.Errorf("option %s: default %d outside [%d, %d]", o.Name, o.Def, o.Min, o.Max)
		}
		o.Default = strconv.FormatInt(o.Def, 10)
	case Check:
		d := strings.ToLower(o.Default)
		if d != "true" && d != "false" {
			return Option{}, fmt.Errorf("option %s: check default %q is not true or false", o.Name, o.Default)
		}
		o.Default = d
	case Combo:
		for _, v := range vars {
			if len(v) == 0 {
				return Option{}, fmt.Errorf("option %s: an empty var", o.Name)
			}
			o.Vars = append(o.Vars, strings.Join(v, " "))
		}
		if len(o.Vars) == 0 {
			return Option{}, fmt.Errorf("option %s: a combo without vars", o.Name)
		}
		d, err := o.CheckValue(o.Default)
		if err != nil {
			return Option{}, fmt.Errorf("option %s: default %q is not one of its vars", o.Name, o.Default)
		}
		o.Default = d
	case String:
		if o.Default == "<empty>" {
			o.Default = ""
		}
	case Button:
		if seen["default"] {
			return Option{}, fmt.Errorf("option %s: a button with a default", o.Name)
		}
	}
	return o, nil
}

func spinNumber(name, key string, words []string) (int64, error) {
	if len(words) != 1 {
		return 0, fmt.Errorf("option %s: spin %s %q is not one integer", name, key, strings.Join(words, " "))
	}
	n, err := strconv.ParseInt(words[0], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("option %s: spin %s %q is not an integer", name, key, words[0])
	}
	return n, nil
}

// Bound says whether a score is exact or a bound.
type Bound uint8

// The kinds of score.
const (
	Exact Bound = iota
	Lower       // the score is at least this
	Upper       // the score is at most this
)

// Info is what one `info` line said; fields it did not hold are zero
// and their Has flag false. A field whose value is not a number is
// taken as not said.
type Info struct {
	Depth    int
	HasDepth bool
	Nodes    int64
	HasNodes bool
	// Score is in centipawns from the mover's side, or Mate the moves
	// to mate (negative: the mover is mated); HasScore says one was
	// said.
	Score    int
	Mate     int
	HasScore bool
	Bound    Bound
	MultiPV  int  // 0 when not said
	String   bool // an `info string` line: the rest is text, not read
}

// ParseInfo reads an `info` line. Unknown tokens are skipped, as UCI
// asks; `string` ends the line; so does `pv` (the moves are not read).
func ParseInfo(line string) (Info, error) {
	f := fields(line)
	if len(f) == 0 || f[0] != "info" {
		return Info{}, errors.New("not an info line")
	}
	var in Info
	num := func(i int) (int64, bool) {
		if i >= len(f) {
			return 0, false
		}
		n, err := strconv.ParseInt(f[i], 10, 64)
		return n, err == nil
	}
	for i := 1; i < len(f); i++ {
		switch f[i] {
		case "string":
			in.String = true
			return in, nil
		case "pv", "refutation", "currline":
			return in, nil
		case "depth":
			if n, ok := num(i + 1); ok && n >= 0 && n <= 1<<20 {
				in.Depth, in.HasDepth = int(n), true
				i++
			}
		case "nodes":
			if n, ok := num(i + 1); ok && n >= 0 {
				in.Nodes, in.HasNodes = n, true
				i++
			}
		case "multipv":
			if n, ok := num(i + 1); ok && n >= 1 && n <= 1<<20 {
				in.MultiPV = int(n)
				i++
			}
		case "score":
			if i+2 >= len(f) {
				continue
			}
			n, ok := num(i + 2)
			if !ok || n < -1<<30 || n > 1<<30 {
				continue
			}
			switch f[i+1] {
			case "cp":
				in.Score, in.Mate, in.HasScore = int(n), 0, true
			case "mate":
				if n == 0 {
					continue // mated now: the game is over, no move
				}
				in.Score, in.Mate, in.HasScore = 0, int(n), true
			default:
				continue
			}
			i += 2
			in.Bound = Exact
			for i+1 < len(f) && (f[i+1] == "lowerbound" || f[i+1] == "upperbound") {
				if f[i+1] == "lowerbound" {
					in.Bound = Lower
				} else {
					in.Bound = Upper
				}
				i++
			}
		}
	}
	return in, nil
}

// isMove reports whether s is a move in UCI's long algebraic form:
// e2e4, e7e8q.
func isMove(s string) bool {
	if len(s) != 4 && len(s) != 5 {
		return false
	}
	sq := func(f, r byte) bool { return f >= 'a' && f <= 'h' && r >= '1' && r <= '8' }
	if !sq(s[0], s[1]) || !sq(s[2], s[3]) {
		return false
	}
	return len(s) == 4 || strings.IndexByte("qrbn", s[4]) >= 0
}

// errNotMove is a bestmove line whose move is not a move.
var errNotMove = errors.New("not a move")

// ParseBestMove reads a `bestmove` line: the move, or "" for `bestmove
// 0000` and `bestmove (none)` (no move: the referee decides). A move not
// in UCI's form, or a line with no move, is an error.
func ParseBestMove(line string) (string, error) {
	f := fields(line)
	if len(f) == 0 || f[0] != "bestmove" {
		return "", errors.New("not a bestmove line")
	}
	if len(f) < 2 {
		return "", fmt.Errorf("bestmove without a move: %w", errNotMove)
	}
	switch m := f[1]; {
	case m == "0000" || m == "(none)":
		return "", nil
	case isMove(m):
		return m, nil
	}
	return "", fmt.Errorf("bestmove %q: %w", f[1], errNotMove)
}

// The kinds of line an engine writes, by their first word.
type lineKind uint8

const (
	lineOther lineKind = iota // not UCI: tolerated (banners, noise)
	lineID
	lineOption
	lineUCIOK
	lineReadyOK
	lineBestMove
	lineInfo
)

// kindOf tells a line's kind by its first word.
func kindOf(line string) lineKind {
	f := line
	f = strings.TrimLeft(f, " \t")
	word := f
	if i := strings.IndexAny(f, " \t"); i >= 0 {
		word = f[:i]
	}
	switch word {
	case "id":
		return lineID
	case "option":
		return lineOption
	case "uciok":
		return lineUCIOK
	case "readyok":
		return lineReadyOK
	case "bestmove":
		return lineBestMove
	case "info":
		return lineInfo
	}
	return lineOther
}
