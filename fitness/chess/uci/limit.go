package uci

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/evotune/evotune/fitness"
)

// Limit is how long an engine thinks on a move: one of a node count, a
// depth, a fixed time per move, or a clock (TC). A Limit is written as a
// player's settings (nodes, depth, movetime, tc, margin) and in a
// config's limit: section.
type Limit struct {
	Nodes    int64 // go nodes N
	Depth    int   // go depth N
	MoveTime int64 // go movetime N, in ms
	TC       TC    // go wtime ... btime ...; its zero value is none
	// Margin is how far, in ms, a move may overrun its time (the clock,
	// or movetime) before it is a time loss (fitness.FaultTime).
	// DefaultMargin when 0 is given to a clock; negative values are
	// refused.
	Margin int64
}

// DefaultMargin is the time margin of a clock or movetime limit that
// names none, in ms: what a move may overrun its time by before it loses
// on time (cutechess-cli's timemargin, fastchess's).
const DefaultMargin = 100

// TC is a clock: Moves moves in Base ms, then again (0: the whole game
// in Base), plus Inc ms after each move. Written as cutechess-cli and
// fastchess write it, in seconds: "40/60+0.5", "10+0.1", "60".
type TC struct {
	Moves     int
	Base, Inc int64 // ms
}

// IsZero reports whether the clock is not set.
func (t TC) IsZero() bool { return t == TC{} }

func (t TC) String() string {
	if t.IsZero() {
		return "none"
	}
	s := seconds(t.Base)
	if t.Moves > 0 {
		s = strconv.Itoa(t.Moves) + "/" + s
	}
	if t.Inc > 0 {
		s += "+" + seconds(t.Inc)
	}
	return s
}

func seconds(ms int64) string { return strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64) }

// ParseTC reads a clock: [MOVES/]BASE[+INC], BASE and INC in seconds
// ("40/60+0.5"), at most millisecond precision.
func ParseTC(s string) (TC, error) {
	var t TC
	rest := strings.TrimSpace(s)
	if m, r, ok := strings.Cut(rest, "/"); ok {
		n, err := strconv.Atoi(m)
		if err != nil || n < 1 {
			return TC{}, fmt.Errorf("tc %q: moves %q: want a whole number of moves from 1", s, m)
		}
		t.Moves, rest = n, r
	}
	base, inc, hasInc := strings.Cut(rest, "+")
	var err error
	if t.Base, err = millis(base); err != nil || t.Base <= 0 {
		return TC{}, fmt.Errorf("tc %q: base %q: want seconds above 0, such as 60 or 0.5 (TC is [MOVES/]SECONDS[+INCREMENT])", s, base)
	}
	if hasInc {
		if t.Inc, err = millis(inc); err != nil {
			return TC{}, fmt.Errorf("tc %q: increment %q: want seconds, such as 0.1", s, inc)
		}
	}
	return t, nil
}

// millis reads seconds ("0.1") into whole milliseconds.
func millis(s string) (int64, error) {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || x < 0 || math.IsInf(x, 0) || x > 1e9 {
		return 0, errors.New("bad seconds")
	}
	ms := x * 1000
	if ms != math.Round(ms) {
		return 0, errors.New("below a millisecond")
	}
	return int64(ms), nil
}

// The limit's kinds, for messages and settings.
const (
	keyNodes    = "nodes"
	keyDepth    = "depth"
	keyMoveTime = "movetime"
	keyTC       = "tc"
	keyMargin   = "margin"
)

// kinds says which of the four limits are set.
func (l Limit) kinds() []string {
	var k []string
	if l.Nodes != 0 {
		k = append(k, keyNodes)
	}
	if l.Depth != 0 {
		k = append(k, keyDepth)
	}
	if l.MoveTime != 0 {
		k = append(k, keyMoveTime)
	}
	if !l.TC.IsZero() {
		k = append(k, keyTC)
	}
	return k
}

// Check reports what is wrong with the limit: not exactly one kind, a
// negative number, a margin without a clock.
func (l Limit) Check() error {
	switch {
	case l.Nodes < 0:
		return fmt.Errorf("limit: nodes %d: want a count from 1", l.Nodes)
	case l.Depth < 0:
		return fmt.Errorf("limit: depth %d: want a depth from 1", l.Depth)
	case l.MoveTime < 0:
		return fmt.Errorf("limit: movetime %d: want milliseconds from 1", l.MoveTime)
	case l.Margin < 0:
		return fmt.Errorf("limit: margin %d: want milliseconds from 0", l.Margin)
	}
	switch k := l.kinds(); len(k) {
	case 0:
		return errors.New("limit: none given; want one of nodes, depth, movetime or tc")
	case 1:
	default:
		return fmt.Errorf("limit: %s given together; want one of nodes, depth, movetime or tc", strings.Join(k, " and "))
	}
	if l.Margin != 0 && !l.Clocked() {
		return fmt.Errorf("limit: a margin belongs to movetime or tc, and this limit is %s", l)
	}
	return nil
}

// Clocked reports whether the limit is a time (movetime or a clock):
// games under it cannot replay.
func (l Limit) Clocked() bool { return l.MoveTime != 0 || !l.TC.IsZero() }

// margin is the margin in force.
func (l Limit) margin() int64 {
	if l.Margin == 0 {
		return DefaultMargin
	}
	return l.Margin
}

// String writes the limit as settings do: "nodes=1000", "tc=40/60+0.5,margin=50".
func (l Limit) String() string {
	var s string
	switch {
	case l.Nodes != 0:
		s = "nodes=" + strconv.FormatInt(l.Nodes, 10)
	case l.Depth != 0:
		s = "depth=" + strconv.Itoa(l.Depth)
	case l.MoveTime != 0:
		s = "movetime=" + strconv.FormatInt(l.MoveTime, 10)
	case !l.TC.IsZero():
		s = "tc=" + l.TC.String()
	default:
		s = "none"
	}
	if l.Margin != 0 {
		s += ",margin=" + strconv.FormatInt(l.Margin, 10)
	}
	return s
}

// limitSettings are the settings of every engine player: its limit's
// keys, each defaulting to the engine's own limit.
func limitSettings(l Limit) []fitness.Setting {
	num := func(n int64) string { return strconv.FormatInt(n, 10) }
	tc := "none"
	if !l.TC.IsZero() {
		tc = l.TC.String()
	}
	return []fitness.Setting{
		{Name: keyNodes, Default: num(l.Nodes), Summary: "go nodes N: the nodes searched per move (0: another limit)"},
		{Name: keyDepth, Default: num(int64(l.Depth)), Summary: "go depth N: the plies searched per move (0: another limit)"},
		{Name: keyMoveTime, Default: num(l.MoveTime), Summary: "go movetime N: milliseconds per move (0: another limit; cannot replay)"},
		{Name: keyTC, Default: tc, Summary: "a clock [MOVES/]SECONDS[+INCREMENT], such as 40/60+0.5 (none: another limit; cannot replay)"},
		{Name: keyMargin, Default: num(l.Margin), Summary: fmt.Sprintf("ms a move may overrun movetime or the clock before it loses on time (0: %d)", DefaultMargin)},
	}
}

// With returns the limit with settings s applied. A setting that turns a
// kind on (nodes=4000) replaces the limit's kind; one written at 0 or
// none leaves it, so a player's settings written at their defaults play
// as none.
func (l Limit) With(s fitness.Settings) (Limit, error) {
	out := l
	var on []string
	for _, k := range []string{keyNodes, keyDepth, keyMoveTime, keyTC, keyMargin} {
		v, ok := s[k]
		if !ok {
			continue
		}
		switch k {
		case keyTC:
			if v == "none" {
				continue
			}
			tc, err := ParseTC(v)
			if err != nil {
				return Limit{}, fmt.Errorf("setting tc: %w", err)
			}
			on = append(on, k)
			out.TC = tc
		default:
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 || n > math.MaxInt32 && k != keyNodes {
				return Limit{}, fmt.Errorf("setting %s=%s: want a whole number from 0", k, v)
			}
			switch k {
			case keyMargin:
				out.Margin = n
				continue
			case keyNodes:
				out.Nodes = n
			case keyDepth:
				out.Depth = int(n)
			case keyMoveTime:
				out.MoveTime = n
			}
			if n != 0 {
				on = append(on, k)
			}
		}
	}
	if len(on) > 0 {
		// The kinds not named are off.
		keep := out
		out = Limit{Margin: keep.Margin}
		for _, k := range on {
			switch k {
			case keyNodes:
				out.Nodes = keep.Nodes
			case keyDepth:
				out.Depth = keep.Depth
			case keyMoveTime:
				out.MoveTime = keep.MoveTime
			case keyTC:
				out.TC = keep.TC
			}
		}
	}
	if _, ok := s[keyMargin]; !ok && !out.Clocked() {
		out.Margin = 0 // the clock it belonged to is replaced
	}
	if err := out.Check(); err != nil {
		return Limit{}, err
	}
	return out, nil
}
