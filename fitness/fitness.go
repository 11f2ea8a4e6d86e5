// Package fitness says what "fit" means: the contracts every game and
// player meet (Game, Player, Outcome), deterministic seeding of matches,
// spreading games over workers in a worker-count-independent way, and the
// statistics (means and scores with 95% intervals) every report carries.
//
// Game packages (fitness/battleship, fitness/hadron, fitness/mnk) implement
// the contracts; they import fitness and genome, never the engine.
package fitness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/enum"
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

var outcomeNames = [...]string{Loss: "loss", Draw: "draw", Win: "win"}

func (o Outcome) String() string { return enum.Name(outcomeNames[:], o, "Outcome") }

// Role names what a player does in its game, as the game declares it
// (Game.Roles): Mover for both sides of a symmetric game, Battleship's
// "shooter" and "placer", or any name an outside program announces. A
// role is a lower-case word; games compare roles, never strings.
type Role string

// Mover is the one role of a symmetric two-player game: it plays a whole
// side.
const Mover Role = "mover"

func (r Role) String() string { return string(r) }

// JoinRoles lists roles for a message: "shooter, placer".
func JoinRoles(rs []Role) string {
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = r.String()
	}
	return strings.Join(names, ", ")
}

// PlayerInfo describes one registered player of a game.
type PlayerInfo struct {
	Name    string
	Role    Role
	Summary string
	Schema  genome.Schema // empty when the player has nothing to tune
	// Settings are the player's own settings (a search's depth and node
	// budget), set by a SPEC after @ and by a player file; empty when it
	// has none. See Setting.
	Settings []Setting
}

// Tunable reports whether the player has parameters.
func (p PlayerInfo) Tunable() bool { return len(p.Schema) > 0 }

// A Player is a strategy with its parameters fixed. It holds no per-game
// state and is safe for concurrent use: the game derives fresh per-game
// state from it for every game it plays.
type Player interface {
	Name() string
}

// Game is one rule set and the players registered for it. Built-in games
// and outside programs implement it alike; the engine and the CLI know
// games only through it, never by name.
//
// A Game is safe for concurrent use: Play and PlaySolo are called from
// several goroutines at once.
type Game interface {
	// Name is the game's registered name ("battleship").
	Name() string
	// Roles lists the game's roles, at least one, each once. The first is
	// the role head-to-head games seat on both sides and the role a
	// config's player: tunes; co-evolution breeds a second role against it.
	Roles() []Role
	// Players lists the registered players in a stable order, each in one
	// of Roles. Two players may share a name in different roles.
	Players() []PlayerInfo
	// NewPlayer builds the registered player name in role. params must
	// come from that player's Schema (use Schema().Defaults() for the
	// defaults); it is ignored by players without a schema. Values out of
	// the schema's ranges are an error.
	NewPlayer(role Role, name string, params genome.Values) (Player, error)
	// Play plays one head-to-head game in which a takes the first seat;
	// both are players of Roles()[0]. The outcome, seen from a, is a pure
	// function of (a, b, seed): every random choice of the game and of
	// both players is derived from seed. An error means the game could
	// not be played (an outside program crashed, ctx was cancelled); the
	// run stops with it. Games without head-to-head play (Solo.Only)
	// return ErrNoHeadToHead.
	Play(ctx context.Context, a, b Player, seed uint64) (Outcome, error)
}

// ErrNoHeadToHead is returned by Play of a game that only measures
// players alone (Solo.Only).
var ErrNoHeadToHead = errors.New("fitness: the game has no head-to-head play")

// Solo declares a game's solo measure: a cost of one player, lower is
// better, such as Battleship's shots to sink a fleet.
type Solo struct {
	// Measure names the cost ("shots"); it is the objective's name in
	// configs and the key of eval's reports.
	Measure string
	// Opponent is the role of the player measured against, or "" when a
	// solo game has no opponent. The player measured is of the game's
	// first role.
	Opponent Role
	// DefaultOpponent is the SPEC of the opponent used when none is named
	// ("random"); "" when Opponent is "".
	DefaultOpponent string
	// OpponentRule is the rule option that names the default opponent
	// (Battleship's "placer"), or "": naming another opponent on the
	// command line sets it, so the whole game uses that opponent.
	OpponentRule string
	// Only says the game has no head-to-head play: Play returns
	// ErrNoHeadToHead and the score objective is refused.
	Only bool
	// Least and Most bound one game's cost under the game's rules, and
	// Whole says every cost is a whole number (Battleship: from the
	// fleet's cells, each of which must be hit, to the board's, each fired
	// at once, in whole shots). Most 0 means MaxCost. A result outside
	// them is no game's (Admits): the engine refuses it where results come
	// from outside the process, a worker's or the match journal's.
	Least, Most float64
	Whole       bool
}

// Admits reports whether cost is one a game can give: from 0 to
// MaxCost, within the game's own bounds, and whole if its costs are.
func (s Solo) Admits(cost float64) bool {
	most := float64(MaxCost)
	if s.Most > 0 {
		most = min(most, s.Most)
	}
	return cost >= max(0, s.Least) && cost <= most && (!s.Whole || cost == math.Trunc(cost))
}

// Bounds says which costs Admits takes: "a cost from 0 to 2^53", "a
// whole number of shots from 17 to 100".
func (s Solo) Bounds() string {
	most := "2^53"
	if s.Most > 0 && s.Most < MaxCost {
		most = fmt.Sprint(s.Most)
	}
	if s.Whole && s.Measure != "" {
		return fmt.Sprintf("a whole number of %s from %v to %s", s.Measure, max(0, s.Least), most)
	}
	return fmt.Sprintf("a cost from %v to %s", max(0, s.Least), most)
}

// MaxCost bounds a solo game's cost: a cost is a number from 0 to
// MaxCost (2^53, the largest float64 below which every whole number is
// exact). A larger cost is no game's: bounding it keeps every sum of
// costs and of their squares finite, so a program or worker that reports
// 1e300 shots is refused by name instead of turning a fitness into
// infinity.
const MaxCost = 1 << 53

// SoloGame is a game that also measures one player alone, against an
// opponent of another role or none.
type SoloGame interface {
	Game
	// Solo declares the measure, the opponent's role and the default
	// opponent.
	Solo() Solo
	// PlaySolo plays p (of Roles()[0]) against opp (of Solo().Opponent;
	// nil when there is none) and returns p's cost, from 0 to MaxCost.
	// Pure in (p, opp, seed); errors as for Play.
	PlaySolo(ctx context.Context, p, opp Player, seed uint64) (float64, error)
}

// HasHeadToHead reports whether g plays head-to-head games.
func HasHeadToHead(g Game) bool {
	sg, ok := g.(SoloGame)
	return !ok || !sg.Solo().Only
}

// SoloOf returns g's solo declaration, if it has one.
func SoloOf(g Game) (Solo, bool) {
	if sg, ok := g.(SoloGame); ok {
		return sg.Solo(), true
	}
	return Solo{}, false
}

// HasRole reports whether g declares role.
func HasRole(g Game, role Role) bool {
	return slices.Contains(g.Roles(), role)
}

// OtherRole returns the role of a two-role game that is not role.
func OtherRole(g Game, role Role) (Role, bool) {
	rs := g.Roles()
	if len(rs) != 2 || !slices.Contains(rs, role) {
		return "", false
	}
	if rs[0] == role {
		return rs[1], true
	}
	return rs[0], true
}

// Option is one rule option a game accepts, such as Battleship's reveal
// rule or Hadron's board size.
type Option struct {
	Name    string
	Default string
	Summary string
	// Spec, when set, says the option's value is a player SPEC of this
	// role: a name, or NAME:FILE. A config's such FILE is found beside
	// the config and is part of it, as a baseline's is (its contents
	// enter what resume compares).
	Spec Role
	// File, when set, says the option's value is a file (a chess opening
	// book). A config's is found beside the config and is part of it:
	// its contents enter what resume compares, and a worker must have
	// the same file.
	File bool
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

// Close releases what g holds (an outside game's processes) when it
// implements io.Closer; whoever builds a game with GameInfo.New closes it
// when done with it.
func Close(g Game) error {
	if c, ok := g.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
