package mnk

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// Info registers the game. Its options are m, n, k and gravity (the rules,
// 3,3,3 without gravity by default), depth and nodes (the search limits of
// classic and tuned), and opening (random plies before the players move).
var Info = fitness.GameInfo{
	Name:    "mnk",
	Summary: "m,n,k-games: k in a row on an m x n board (3,3,3 is tic-tac-toe)",
	Options: optionList,
	New: func(opts map[string]string) (fitness.Game, error) {
		c, err := parseOptions(opts)
		if err != nil {
			return nil, err
		}
		gm, err := NewGame(c.rules, c.limits)
		if err != nil {
			return nil, err // not a typed nil inside the interface
		}
		return gm, nil
	},
}

// optionList is the rule options as GameInfo lists them.
var optionList = fitnessOptions()

func fitnessOptions() []fitness.Option {
	out := make([]fitness.Option, len(options))
	for i, o := range options {
		out[i] = fitness.Option{Name: o.name, Default: o.def, Summary: o.summary}
	}
	return out
}

// Game is one m,n,k rule set with the search limits of its heuristic
// players. It is immutable and safe for concurrent use.
type Game struct {
	g      *geom
	limits Limits
	tuned  genome.Schema // depends on K: one weight per run length

	// Per-game scratch space (transposition tables, boards) is recycled
	// through pools rather than kept in players, which must stay immutable.
	solvers   sync.Pool // *solver
	searchers sync.Pool // *searcher

	tablesOnce sync.Once
	tables     *lineTables // built on first use by classic or tuned
}

var (
	_ fitness.Game    = (*Game)(nil)
	_ fitness.Perfter = (*Game)(nil)
)

// NewGame builds a game. A zero Depth means the default depth.
func NewGame(r Rules, l Limits) (*Game, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if l.Depth == 0 {
		l.Depth = defaultDepth
	}
	if l.Depth < 1 || l.Depth > maxDepth {
		return nil, fmt.Errorf("mnk: depth %d is outside [1, %d]", l.Depth, maxDepth)
	}
	if l.Nodes < 0 || l.Nodes > maxNodes {
		return nil, fmt.Errorf("mnk: nodes %d is outside [0, %d]", l.Nodes, maxNodes)
	}
	if l.Opening < 0 || l.Opening > maxOpening {
		return nil, fmt.Errorf("mnk: opening %d is outside [0, %d]", l.Opening, maxOpening)
	}
	return &Game{g: newGeom(r), limits: l, tuned: tunedSchema(r)}, nil
}

// Name is "mnk".
func (gm *Game) Name() string { return Info.Name }

// Rules returns the game's rules.
func (gm *Game) Rules() Rules { return gm.g.Rules }

// Limits returns the search limits of classic and tuned, and the opening.
func (gm *Game) Limits() Limits { return gm.limits }

// Players lists the registered players, in the order of the player table.
func (gm *Game) Players() []fitness.PlayerInfo {
	out := make([]fitness.PlayerInfo, 0, len(strategies))
	for s := range strategies {
		if s == 0 {
			continue
		}
		out = append(out, gm.info(strategy(s)))
	}
	return out
}

func (gm *Game) info(s strategy) fitness.PlayerInfo {
	pi := fitness.PlayerInfo{Name: s.String(), Role: fitness.Mover, Summary: strategies[s].summary}
	if s == tunedPlay {
		pi.Schema = slices.Clone(gm.tuned)
	}
	return pi
}

// Roles implements fitness.Game: both sides are movers.
func (gm *Game) Roles() []fitness.Role { return []fitness.Role{fitness.Mover} }

// NewPlayer builds a registered player. tuned reads its weights from
// params, which must come from its schema; the others ignore params.
func (gm *Game) NewPlayer(role fitness.Role, name string, params genome.Values) (fitness.Player, error) {
	if role != fitness.Mover {
		return nil, fmt.Errorf("mnk: no %v role: every player is a mover", role)
	}
	s, ok := parseStrategy(name)
	if !ok {
		return nil, fmt.Errorf("mnk: unknown player %q (want %s)", name, strategyNames())
	}
	p := &player{strategy: s, rules: gm.g.Rules}
	switch s {
	case perfectPlay:
		if gm.g.cells > maxPerfectCells {
			return nil, fmt.Errorf("mnk: perfect: board %dx%d has %d cells, more than the %d it can solve",
				gm.g.M, gm.g.N, gm.g.cells, maxPerfectCells)
		}
	case classicPlay:
		p.w = gm.price(classicWeights(gm.g.K))
	case tunedPlay:
		w, err := tunedWeights(gm.g.Rules, gm.tuned, params)
		if err != nil {
			return nil, err
		}
		p.w = gm.price(w)
	}
	return p, nil
}

// Play plays one game: a is X and moves first. The outcome is seen from a.
// Each player draws its random choices from its own stream derived from
// seed, so one player's choices never shift the other's. Players built by
// another game are an error. A game cancelled through ctx stops within a
// few thousand search nodes and returns ctx.Err(), never an outcome.
func (gm *Game) Play(ctx context.Context, a, b fitness.Player, seed uint64) (fitness.Outcome, error) {
	for _, p := range []fitness.Player{a, b} {
		if err := gm.check(p); err != nil {
			return 0, err
		}
	}
	out, _, err := gm.playContext(ctx, a, b, seed, false)
	return out, err
}

// check reports whether p is a player built by a game with these rules.
func (gm *Game) check(p fitness.Player) error {
	pl, ok := p.(*player)
	if !ok {
		return fmt.Errorf("mnk: player %T is not an mnk player", p)
	}
	if pl.rules != gm.g.Rules {
		return fmt.Errorf("mnk: %s player was built for %v, not %v", pl.Name(), pl.rules, gm.g.Rules)
	}
	return nil
}

// playContext is Play that can also return the moves, as bits. A
// cancelled game returns ctx's error and nothing else.
func (gm *Game) playContext(ctx context.Context, a, b fitness.Player, seed uint64, record bool) (fitness.Outcome, []int, error) {
	movers := [2]mover{
		gm.start(gm.own(a), fitness.Derive(seed, uint64(X))),
		gm.start(gm.own(b), fitness.Derive(seed, uint64(O))),
	}
	defer movers[X].release()
	defer movers[O].release()
	var moves []int
	var p position
	if gm.limits.Opening > 0 {
		moves = gm.open(&p, seed, record)
	}
	for {
		me := p.toMove()
		view := p // movers get a copy: they cannot corrupt the game
		c, err := movers[me].next(ctx, &view)
		if err != nil {
			return 0, nil, err
		}
		if c < 0 || c >= len(gm.g.centre) || !gm.g.moves(&p).Has(c) {
			panic(fmt.Sprintf("mnk: %s played bit %d, not a legal cell", [2]fitness.Player{a, b}[me].Name(), c))
		}
		if record {
			moves = append(moves, c)
		}
		switch {
		case gm.g.play(&p, c):
			if me == X {
				return fitness.Win, moves, nil
			}
			return fitness.Loss, moves, nil
		case p.ply == gm.g.cells:
			return fitness.Draw, moves, nil
		}
	}
}

// openingStream names the stream of the random opening.
const openingStream = 0x6f70656e696e67 // "opening"

// open plays the random opening on p and returns its moves when record is
// set. A move that would end the game is never drawn, and the opening
// stops early rather than fill the board, so the players always get an
// unfinished position.
func (gm *Game) open(p *position, seed uint64, record bool) []int {
	g := gm.g
	rng := fitness.NewRand(fitness.Derive(seed, openingStream))
	var moves []int
	for p.ply < gm.limits.Opening && p.ply+1 < g.cells {
		legal := g.moves(p)
		quiet := legal.AndNot(g.wins(p.marks[p.toMove()], legal))
		if quiet.Empty() {
			break
		}
		c := pick(rng, quiet)
		g.play(p, c)
		if record {
			moves = append(moves, c)
		}
	}
	return moves
}

// own checks that p is a player built by a game with these rules. Anything
// else is a programmer error: players come from NewPlayer.
func (gm *Game) own(p fitness.Player) *player {
	pl, ok := p.(*player)
	if !ok {
		panic(fmt.Sprintf("mnk: player %T is not an mnk player", p))
	}
	if pl.rules != gm.g.Rules {
		panic(fmt.Sprintf("mnk: %s player was built for %v, not %v", pl.Name(), pl.rules, gm.g.Rules))
	}
	return pl
}

// Perft counts the move sequences of 1..depth moves from the empty board;
// a game that ends (a line or a full board) is not extended. Depth is
// capped at 128, past the longest game.
func (gm *Game) Perft(depth int) []uint64 { return gm.g.perft(depth) }
