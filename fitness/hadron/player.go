package hadron

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/bits128"
	"github.com/evotune/evotune/internal/enum"
)

// Strategy is how a player picks its moves.
type Strategy uint8

// The strategies.
const (
	StrategyRandom Strategy = iota + 1 // a uniformly random legal cell
	StrategyGreedy                     // one ply: leave the opponent the fewest legal cells
	StrategySearch                     // alpha-beta on Aenigma's heuristic
)

var strategyNames = [...]string{StrategyRandom: "random", StrategyGreedy: "greedy", StrategySearch: "search"}

func (s Strategy) String() string { return enum.Name(strategyNames[:], s, "Strategy") }

// Player is a Hadron strategy with its parameters fixed. It is immutable:
// the per-game state (random stream, search tables) is made fresh for
// every game.
type Player struct {
	name     string
	strategy Strategy
	weights  Weights // StrategySearch only
}

var _ fitness.Player = (*Player)(nil)

// Name is the registered name the player was built from.
func (p *Player) Name() string { return p.name }

// Strategy is how the player moves.
func (p *Player) Strategy() Strategy { return p.strategy }

// Weights are the heuristic weights of a searching player.
func (p *Player) Weights() Weights { return p.weights }

// roster is the one table of registered players, in listing order.
var roster = []struct {
	name, summary string
	tunable       bool
	build         func(name string, v genome.Values) (*Player, error)
}{
	{name: "random", summary: "plays a uniformly random legal cell",
		build: fixed(StrategyRandom, Weights{})},
	{name: "greedy", summary: "one ply: plays the cell that leaves the opponent the fewest legal cells, ties at random",
		build: fixed(StrategyGreedy, Weights{})},
	{name: "aenigma", summary: "the 2022/2023 tournament winner: alpha-beta on special moves and parity with its published weights",
		build: fixed(StrategySearch, Aenigma)},
	{name: "tuned", summary: "alpha-beta on Aenigma's heuristic with tunable phase weights, threshold and jitter",
		tunable: true, build: func(name string, v genome.Values) (*Player, error) {
			w, err := WeightsFrom(v)
			if err != nil {
				return nil, err
			}
			return &Player{name: name, strategy: StrategySearch, weights: w}, nil
		}},
}

func fixed(s Strategy, w Weights) func(string, genome.Values) (*Player, error) {
	return func(name string, _ genome.Values) (*Player, error) {
		return &Player{name: name, strategy: s, weights: w}, nil
	}
}

// Players lists the registered players; the tuned player's schema
// depends on the board size.
func (g *Game) Players() []fitness.PlayerInfo {
	out := make([]fitness.PlayerInfo, len(roster))
	for i, r := range roster {
		out[i] = fitness.PlayerInfo{Name: r.name, Role: fitness.Mover, Summary: r.summary}
		if r.tunable {
			out[i].Schema = Schema(g.opts.Size)
		}
	}
	return out
}

// Roles implements fitness.Game: both sides are movers.
func (g *Game) Roles() []fitness.Role { return []fitness.Role{fitness.Mover} }

// NewPlayer builds a registered player. params is read only by tuned and
// must fit its schema for the game's board size.
func (g *Game) NewPlayer(role fitness.Role, name string, params genome.Values) (fitness.Player, error) {
	if role != fitness.Mover {
		return nil, fmt.Errorf("hadron: no %v role: every player is a mover", role)
	}
	for _, r := range roster {
		if r.name != name {
			continue
		}
		if r.tunable {
			if err := fitness.CheckParams(Schema(g.opts.Size), params); err != nil {
				return nil, fmt.Errorf("hadron: %s: %w", name, err)
			}
		}
		return r.build(name, params)
	}
	names := make([]string, len(roster))
	for i, r := range roster {
		names[i] = r.name
	}
	return nil, fmt.Errorf("hadron: unknown player %q (want one of %v)", name, names)
}

// mover is a player's state for one game.
type mover interface {
	// next returns the cell to play on b, which is not over, or ctx's
	// error once ctx is cancelled. Only a search takes long enough to
	// look at ctx; a cancelled search has no cell to give.
	next(ctx context.Context, b *Board) (int, error)
	release()
}

// newMover builds the per-game state of p in the seat whose stream seed
// is seed.
func (g *Game) newMover(p *Player, seed uint64) mover {
	switch p.strategy {
	case StrategyRandom:
		return randomMover{fitness.NewRand(seed)}
	case StrategyGreedy:
		return greedyMover{fitness.NewRand(seed)}
	}
	t := getTable()
	s := &searcher{w: p.weights, salt: seed, tt: *t, depth: g.opts.Depth, budget: g.opts.Nodes, tab: t}
	for i := range s.killer {
		s.killer[i] = [2]int8{-1, -1}
	}
	return s
}

type randomMover struct{ rng *rand.Rand }

func (m randomMover) next(_ context.Context, b *Board) (int, error) {
	return b.legal.Nth(m.rng.IntN(b.legal.Count())), nil
}
func (randomMover) release() {}

type greedyMover struct{ rng *rand.Rand }

// next picks uniformly among the cells that leave the opponent fewest
// legal cells, by reservoir sampling over ties in cell order.
func (m greedyMover) next(_ context.Context, b *Board) (int, error) {
	var buf [maxCells]int8
	best, pick, ties := maxCells+1, -1, 0
	for _, i := range bits128.AppendCells(buf[:0], b.legal) {
		n := b.afterCount(int(i))
		switch {
		case n < best:
			best, pick, ties = n, int(i), 1
		case n == best:
			ties++
			if m.rng.IntN(ties) == 0 {
				pick = int(i)
			}
		}
	}
	return pick, nil
}

func (greedyMover) release() {}

func (s *searcher) next(ctx context.Context, b *Board) (int, error) {
	s.b = *b
	return s.choose(ctx)
}

func (s *searcher) release() {
	if s.tab != nil {
		putTable(s.tab)
		s.tab, s.tt = nil, nil
	}
}
