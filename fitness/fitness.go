// Package fitness says what "fit" means: the contracts every game and
// player meet (Game, Player, Outcome), deterministic seeding of matches,
// spreading games over workers in a worker-count-independent way, and the
// statistics (means and scores with 95% intervals) every report carries.
//
// Game packages (fitness/battleship, fitness/hadron, fitness/mnk) implement
// the contracts; they import fitness and genome, never the engine.
package fitness

import (
	"strconv"

	"github.com/evotune/evotune/genome"
)

// Outcome is the result of one game seen from the first player passed to
// Game.Play.
type Outcome int8

// The outcomes, ordered so that Score is Outcome/2.
const (
	Loss Outcome = iota
	Draw
	Win
)

// Score is 1 for a win, 1/2 for a draw and 0 for a loss.
func (o Outcome) Score() float64 { return float64(o) / 2 }

// Flip returns the same outcome seen from the other player.
func (o Outcome) Flip() Outcome { return Win - o }

func (o Outcome) String() string {
	switch o {
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	case Win:
		return "win"
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// Role says what a player does in its game. Most games have one role;
// Battleship has shooters and placers.
type Role uint8

// The roles.
const (
	Mover   Role = iota + 1 // plays a whole side of a two-player game
	Shooter                 // Battleship: fires shots
	Placer                  // Battleship: lays out a fleet
)

func (r Role) String() string {
	switch r {
	case Mover:
		return "mover"
	case Shooter:
		return "shooter"
	case Placer:
		return "placer"
	}
	return "Role(" + strconv.Itoa(int(r)) + ")"
}

// PlayerInfo describes one registered player of a game.
type PlayerInfo struct {
	Name    string
	Role    Role
	Summary string
	Schema  genome.Schema // empty when the player has nothing to tune
}

// Tunable reports whether the player has parameters.
func (p PlayerInfo) Tunable() bool { return len(p.Schema) > 0 }

// A Player is a strategy with its parameters fixed. It holds no per-game
// state and is safe for concurrent use: the game derives fresh per-game
// state from it for every game it plays.
type Player interface {
	Name() string
}

// Game is one rule set and the players registered for it.
type Game interface {
	// Name is the game's registered name ("battleship").
	Name() string
	// Players lists the registered players in a stable order.
	Players() []PlayerInfo
	// NewPlayer builds a registered player. params must come from that
	// player's Schema (use Schema().Defaults() for the defaults); it is
	// ignored by players without a schema.
	NewPlayer(name string, params genome.Values) (Player, error)
	// Play plays one game in which a takes the first seat. The outcome, seen
	// from a, is a pure function of (a, b, seed): every random choice of
	// the game and of both players is derived from seed.
	Play(a, b Player, seed uint64) Outcome
}

// SoloGame is a game that also measures one player alone against an
// opponent of another role, such as Battleship's shots to sink a fleet.
type SoloGame interface {
	Game
	// SoloOpponent is the opponent solo games are measured against when
	// none is named (Battleship: the placer of the rules).
	SoloOpponent() Player
	// PlaySolo plays p against opp (a player of the other role) and
	// returns p's cost: lower is better. Pure in (p, opp, seed).
	PlaySolo(p, opp Player, seed uint64) float64
}

// Option is one rule option a game accepts, such as Battleship's reveal
// rule or Hadron's board size.
type Option struct {
	Name    string
	Default string
	Summary string
}

// GameInfo registers a game: how to build it from rule options.
type GameInfo struct {
	Name    string
	Summary string
	Options []Option
	// New builds the game. opts maps option names to values as written by
	// the user; unknown names and bad values are errors that name them.
	New func(opts map[string]string) (Game, error)
}

// Perfter is implemented by games with a move-generator count: the number
// of distinct legal move sequences of exactly d moves from the start, for
// d = 1..depth.
type Perfter interface {
	Perft(depth int) []uint64
}
