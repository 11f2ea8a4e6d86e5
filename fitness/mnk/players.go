package mnk

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/bits128"
)

// strategy is one of the registered players.
type strategy uint8

// The strategies, in the order `evotune games` lists them.
const (
	randomPlay strategy = iota + 1
	greedyPlay
	perfectPlay
	classicPlay
	tunedPlay
)

// strategies is the player table, indexed by strategy.
var strategies = [...]struct{ name, summary string }{
	randomPlay: {"random", "a uniformly random legal cell (column, under gravity)"},
	greedyPlay: {"greedy", "wins now if it can, else blocks an immediate loss, else plays at random"},
	perfectPlay: {"perfect", "exact minimax with alpha-beta and a transposition table, random among equally valued moves (perfect@ties=first: the first, as seed 003's AI); boards of at most " +
		strconv.Itoa(maxPerfectCells) + " cells"},
	classicPlay: {"classic", "alpha-beta at the game's depth (or its own: classic@depth=N) over hand-set run weights 1, 10, 100, 1000 by length"},
	tunedPlay:   {"tuned", "alpha-beta at the game's depth (or its own) over evolved weights of open and half-open runs, a centre bias and jitter; under gravity also threats playable now and waiting threats by row parity"},
}

func (s strategy) String() string {
	if s > 0 && int(s) < len(strategies) {
		return strategies[s].name
	}
	return "strategy(" + strconv.Itoa(int(s)) + ")"
}

func parseStrategy(name string) (strategy, bool) {
	for s := range strategies {
		if s > 0 && strategies[s].name == name {
			return strategy(s), true
		}
	}
	return 0, false
}

func strategyNames() string {
	var names []string
	for s := range strategies {
		if s > 0 {
			names = append(names, strategies[s].name)
		}
	}
	return strings.Join(names, ", ")
}

// player is a strategy with its parameters fixed; immutable.
type player struct {
	strategy strategy
	rules    Rules   // the rules it was built for
	w        *priced // classic and tuned
	// lim is the search's depth and node budget when the player's
	// settings gave its own (classic and tuned); zero: the game's.
	lim Limits
	// ties is how perfect picks among equally valued moves.
	ties tieRule
}

// tieRule is how perfect picks among moves of equal value.
type tieRule uint8

const (
	tiesRandom tieRule = iota // uniformly, from the player's stream of the seed
	tiesFirst                 // the first in reading order (top row first, left to right)
)

func (p *player) Name() string { return p.strategy.String() }

// mover is one player's state during one game.
type mover interface {
	// next returns the bit of a legal cell to mark in p, which is not
	// over, or ctx's error once ctx is cancelled. Only the searches
	// (classic, tuned, perfect) take long enough to look at ctx; a
	// cancelled search has no cell to give.
	next(ctx context.Context, p *position) (int, error)
	// release hands scratch space back to the game's pools.
	release()
}

// start creates p's state for one game, with its own random stream.
func (gm *Game) start(p *player, seed uint64) mover {
	rng := fitness.NewRand(seed)
	switch p.strategy {
	case greedyPlay:
		return &greedy{g: gm.g, rng: rng}
	case perfectPlay:
		return gm.newSolverTies(rng, p.ties)
	case classicPlay, tunedPlay:
		return gm.newSearcherWith(p.w, gm.limitsOf(p), seed, rng)
	}
	return &randomMover{g: gm.g, rng: rng}
}

// pick returns a uniformly random member of a non-empty set.
func pick(rng *rand.Rand, s bits128.Bits) int { return s.Nth(rng.IntN(s.Count())) }

type randomMover struct {
	g   *geom
	rng *rand.Rand
}

func (m *randomMover) next(_ context.Context, p *position) (int, error) {
	return pick(m.rng, m.g.moves(p)), nil
}
func (m *randomMover) release() {}

// greedy looks one move ahead for both sides.
type greedy struct {
	g   *geom
	rng *rand.Rand
}

func (m *greedy) next(_ context.Context, p *position) (int, error) {
	legal, me := m.g.moves(p), p.toMove()
	if w := m.g.wins(p.marks[me], legal); !w.Empty() {
		return pick(m.rng, w), nil
	}
	if t := m.g.wins(p.marks[me.other()], legal); !t.Empty() {
		return pick(m.rng, t), nil
	}
	return pick(m.rng, legal), nil
}

func (m *greedy) release() {}
