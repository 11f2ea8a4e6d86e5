package mnk

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/bits128"
)

// Rules are the fixed rules of one m,n,k-game: an M-wide, N-high board on
// which whoever first has K or more marks in a row (across, down or along
// either diagonal) wins. M is the number of columns and N the number of
// rows, as in "7,6,4", the Connect Four sized board.
//
// With Gravity a move names a column and the mark (a chip) drops to the
// lowest empty cell of that column: only the cell on top of each column's
// stack is playable. 3,3,3 with gravity is seed 003's drop-the-chip game;
// 7,6,4 with gravity is Connect Four.
type Rules struct {
	M       int  // columns: the board's width
	N       int  // rows: the board's height
	K       int  // marks in an unbroken line that win
	Gravity bool // chips drop to the lowest empty cell of a column
}

// maxBits is how many cells a bitboard (internal/bits128) holds. The board
// is stored with one spare column (see geom), so it must satisfy
// (M+1)*N <= maxBits: 10x10, 11x10 and 15x7 fit, 11x11 does not.
const maxBits = bits128.Size

// TicTacToe is the 3,3,3 game, the default rules.
var TicTacToe = Rules{M: 3, N: 3, K: 3}

// ConnectFour is 7,6,4 with gravity.
var ConnectFour = Rules{M: 7, N: 6, K: 4, Gravity: true}

// String writes the rules as "m,n,k", followed by " gravity" when chips drop.
func (r Rules) String() string {
	s := strconv.Itoa(r.M) + "," + strconv.Itoa(r.N) + "," + strconv.Itoa(r.K)
	if r.Gravity {
		s += " gravity"
	}
	return s
}

// Cells is the number of cells on the board.
func (r Rules) Cells() int { return r.M * r.N }

// Validate reports every reason the rules cannot be played.
func (r Rules) Validate() error {
	var errs []error
	if r.M < 1 {
		errs = append(errs, fmt.Errorf("mnk: m %d: the board needs at least one column", r.M))
	}
	if r.N < 1 {
		errs = append(errs, fmt.Errorf("mnk: n %d: the board needs at least one row", r.N))
	}
	// Compare before multiplying, so huge values cannot overflow.
	if r.M >= 1 && r.N >= 1 && (r.M >= maxBits || r.N > maxBits || (r.M+1)*r.N > maxBits) {
		errs = append(errs, fmt.Errorf("mnk: board %dx%d is too large: (m+1)*n must be at most %d (10x10 fits)",
			r.M, r.N, maxBits))
	}
	switch {
	case r.K < 1:
		errs = append(errs, fmt.Errorf("mnk: k %d: at least one mark must make a line", r.K))
	case r.M >= 1 && r.N >= 1 && r.K > max(r.M, r.N):
		errs = append(errs, fmt.Errorf("mnk: k %d exceeds the board %dx%d", r.K, r.M, r.N))
	}
	return errors.Join(errs...)
}

// Limits bound the classic and tuned searches. They are rule options, the
// same for every player of a game, so that evolved weights are compared at
// equal effort. Searches are bounded by work, never by the clock, so a game
// is a pure function of its seed.
type Limits struct {
	// Depth is the full-width search depth in plies; forced replies to an
	// immediate threat do not use it up. Zero means the default, 3.
	Depth int
	// Nodes, if positive, caps the nodes searched per move: the search
	// deepens one ply at a time up to Depth and plays the best move of the
	// last iteration it completed. Depth 1 always completes. Zero means no
	// cap, so a large Depth on a large board can take very long.
	Nodes int64
	// Opening is how many plies each game starts with, played uniformly at
	// random (among moves that do not end the game) from a stream of the
	// match seed, before the players take over. Both games of a
	// colour-swapped pair share the seed and so the opening. Against a
	// player without randomness, such as classic, games without an opening
	// repeat a handful of lines; an opening of a few plies makes every pair
	// a different game. Zero means none.
	Opening int
}

// The defaults of the rule options.
const (
	defaultDepth = 3
	maxDepth     = 64
	maxOpening   = 64
	// maxNodes bounds the node budget, far beyond what finishes in
	// reasonable time.
	maxNodes = 1_000_000_000
)

// options lists the rule options in the order `evotune games` shows them.
var options = []option{
	{"m", "3", "board width (columns)", intOption(func(c *config, v int64) error { c.rules.M = int(v); return nil })},
	{"n", "3", "board height (rows)", intOption(func(c *config, v int64) error { c.rules.N = int(v); return nil })},
	{"k", "3", "marks in a row that win", intOption(func(c *config, v int64) error { c.rules.K = int(v); return nil })},
	{"gravity", "false", "true: a move names a column and the chip drops to its lowest empty cell (3,3,3: seed 003's game; 7,6,4: Connect Four)",
		func(c *config, name, v string) error {
			b, err := fitness.OptionBool("mnk", name, v)
			c.rules.Gravity = b
			return err
		}},
	{"depth", strconv.Itoa(defaultDepth), "search depth in plies of the classic and tuned players",
		intOption(func(c *config, v int64) error {
			if v < 1 || v > maxDepth {
				return fmt.Errorf("mnk: depth %d is outside [1, %d]", v, maxDepth)
			}
			c.limits.Depth = int(v)
			return nil
		})},
	{"opening", "0", "plies played at random (the same for both games of a colour-swapped pair) before the players move, so that deterministic players meet in varied games",
		intOption(func(c *config, v int64) error {
			if v < 0 || v > maxOpening {
				return fmt.Errorf("mnk: opening %d is outside [0, %d]", v, maxOpening)
			}
			c.limits.Opening = int(v)
			return nil
		})},
	{"nodes", "0", "node budget per move of the classic and tuned players (0: no budget); with one they deepen iteratively up to depth",
		intOption(func(c *config, v int64) error {
			if v < 0 || v > maxNodes {
				return fmt.Errorf("mnk: nodes %d is outside [0, %d]", v, maxNodes)
			}
			c.limits.Nodes = v
			return nil
		})},
}

// option is one rule option: its name, default, summary, and how its value,
// as the user wrote it, changes the config.
type option struct {
	name, def, summary string
	set                func(c *config, name, value string) error
}

// intOption reads an option's value as a whole number before set sees it.
func intOption(set func(*config, int64) error) func(*config, string, string) error {
	return func(c *config, name, value string) error {
		v, err := fitness.OptionInt("mnk", name, value)
		if err != nil {
			return err
		}
		return set(c, v)
	}
}

// config is what the rule options decide.
type config struct {
	rules  Rules
	limits Limits
}

// parseOptions reads rule options as written by the user; every unknown
// name and bad value is reported, in name order.
func parseOptions(opts map[string]string) (config, error) {
	c := config{rules: TicTacToe, limits: Limits{Depth: defaultDepth}}
	if err := fitness.ReadOptions("mnk", optionList, opts, func(name, value string) error {
		i := slices.IndexFunc(options, func(o option) bool { return o.name == name })
		return options[i].set(&c, name, value)
	}); err != nil {
		return c, err
	}
	if err := c.rules.Validate(); err != nil {
		return c, err
	}
	// An opening the board cannot hold would leave the players at most the
	// last move, and the option would silently mean something else.
	if c.limits.Opening >= c.rules.Cells() {
		return c, fmt.Errorf("mnk: opening %d leaves no move to the players on the %dx%d board: at most %d",
			c.limits.Opening, c.rules.M, c.rules.N, c.rules.Cells()-1)
	}
	return c, nil
}
