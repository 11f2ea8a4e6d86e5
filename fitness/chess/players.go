package chess

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	lib "github.com/corentings/chess/v2"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/chess/internal/legal"
	"github.com/evotune/evotune/fitness/chess/tiny"
	"github.com/evotune/evotune/genome"
)

// The built-in players' settings and their limits.
const (
	SettingDepth = "depth"
	SettingNodes = "nodes"

	DefaultDepth = 1          // tiny's search depth in plies
	MaxDepth     = 4          // tiny's deepest setting (the search itself goes to tiny.MaxDepth)
	MaxNodes     = 10_000_000 // tiny's node cap per move
)

// roster is the one table of built-in players, in listing order.
var roster = []struct {
	name, summary string
	tunable       bool
}{
	{"random", "a uniformly random legal move, drawn from the seed, the side and the ply", false},
	{"tiny", fmt.Sprintf("alpha-beta to depth %d (tiny@depth=N, 1 to %d) with captures-only quiescence over material (the tuned piece values) and small fixed positional bonuses (fitness/chess/tiny, the brain of the fixture UCI engine)", DefaultDepth, MaxDepth), true},
}

// Schema is tiny's: the piece values in centipawns.
func Schema() genome.Schema {
	d := tiny.Defaults()
	return genome.Schema{
		{Name: "pawn", Kind: genome.Int, Min: 50, Max: 200, Default: genome.Value{Num: float64(d.Pawn)}},
		{Name: "knight", Kind: genome.Int, Min: 150, Max: 600, Default: genome.Value{Num: float64(d.Knight)}},
		{Name: "bishop", Kind: genome.Int, Min: 150, Max: 600, Default: genome.Value{Num: float64(d.Bishop)}},
		{Name: "rook", Kind: genome.Int, Min: 250, Max: 900, Default: genome.Value{Num: float64(d.Rook)}},
		{Name: "queen", Kind: genome.Int, Min: 500, Max: 1600, Default: genome.Value{Num: float64(d.Queen)}},
	}
}

// Players lists the built-in players. UCI engines are players too
// (fitness/chess/uci), built by their own package.
func (gm *Game) Players() []fitness.PlayerInfo {
	return append(gm.own(), gm.guests.Infos()...)
}

// own lists the game's own players, its guests left out.
func (gm *Game) own() []fitness.PlayerInfo {
	out := make([]fitness.PlayerInfo, len(roster))
	for i, r := range roster {
		out[i] = fitness.PlayerInfo{Name: r.name, Role: fitness.Mover, Summary: r.summary}
		if r.tunable {
			out[i].Schema = Schema()
			out[i].Settings = []fitness.Setting{
				{Name: SettingDepth, Default: strconv.Itoa(DefaultDepth), Summary: fmt.Sprintf("the search depth in plies before quiescence, 1 to %d", MaxDepth)},
				{Name: SettingNodes, Default: "0", Summary: fmt.Sprintf("a node cap per move, 0 for none, at most %d", MaxNodes)},
			}
		}
	}
	return out
}

// Player is a built-in chess player with its parameters fixed. It is
// immutable; its seats hold each game's state.
type Player struct {
	name   string
	params tiny.Params // tiny's
	depth  int
	nodes  int64
}

var _ SeatPlayer = (*Player)(nil)

// Name is the registered name the player was built from.
func (p *Player) Name() string { return p.name }

// Params are tiny's piece values.
func (p *Player) Params() tiny.Params { return p.params }

// Describe says what tiny plays with, for a game's record: its piece
// values, depth and node cap (Described); random, nothing.
func (p *Player) Describe() []string {
	if p.name != "tiny" {
		return nil
	}
	v := p.params
	return []string{fmt.Sprintf("pawn=%d", v.Pawn), fmt.Sprintf("knight=%d", v.Knight), fmt.Sprintf("bishop=%d", v.Bishop),
		fmt.Sprintf("rook=%d", v.Rook), fmt.Sprintf("queen=%d", v.Queen), fmt.Sprintf("depth=%d", p.depth), fmt.Sprintf("nodes=%d", p.nodes)}
}

// NewPlayer builds a built-in player; tiny reads its piece values from
// params, which must fit Schema().
func (gm *Game) NewPlayer(role fitness.Role, name string, params genome.Values) (fitness.Player, error) {
	if role != fitness.Mover {
		return nil, fmt.Errorf("chess: no %v role: every player is a mover", role)
	}
	if p, ok, err := gm.guests.Build(role, name, params, nil); ok {
		return seated(p, err)
	}
	switch name {
	case "random":
		return &Player{name: name}, nil
	case "tiny":
		if err := fitness.CheckParams(Schema(), params); err != nil {
			return nil, fmt.Errorf("chess: tiny: %w", err)
		}
		p := tiny.Params{Pawn: params.Int("pawn"), Knight: params.Int("knight"), Bishop: params.Int("bishop"), Rook: params.Int("rook"), Queen: params.Int("queen")}
		return &Player{name: name, params: p, depth: DefaultDepth}, nil
	}
	names := make([]string, len(roster))
	for i, r := range roster {
		names[i] = r.name
	}
	return nil, fmt.Errorf("%w %q (want one of %v; engines are uci:NAME)", errNoPlayer, name, names)
}

// NewPlayerSettings is NewPlayer with tiny's depth and node cap.
func (gm *Game) NewPlayerSettings(role fitness.Role, name string, params genome.Values, s fitness.Settings) (fitness.Player, error) {
	if p, ok, err := gm.guests.Build(role, name, params, s); ok {
		return seated(p, err)
	}
	pl, err := gm.NewPlayer(role, name, params)
	if err != nil {
		return nil, err
	}
	p := *pl.(*Player)
	var errs []error
	for _, k := range slices.Sorted(maps.Keys(s)) {
		if p.name != "tiny" || (k != SettingDepth && k != SettingNodes) {
			errs = append(errs, fmt.Errorf("chess: %s has no setting %q", name, k))
			continue
		}
		x, err := fitness.OptionInt("chess", k, s[k])
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("%w (%s@%s=%s)", err, name, k, s[k]))
		case k == SettingDepth && (x < 1 || x > MaxDepth):
			errs = append(errs, fmt.Errorf("chess: %s@depth=%d: want 1 to %d", name, x, MaxDepth))
		case k == SettingNodes && (x < 0 || x > MaxNodes):
			errs = append(errs, fmt.Errorf("chess: %s@nodes=%d: want 0 (no cap) to %d", name, x, MaxNodes))
		case k == SettingDepth:
			p.depth = int(x)
		default:
			p.nodes = x
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &p, nil
}

// NewSeat opens the player's seat for one game; it never fails.
func (p *Player) NewSeat(_ context.Context, seed uint64, _ Color) (Seat, error) {
	if p.name == "random" {
		return randomSeat{seed: seed}, nil
	}
	return tinySeat{p: p}, nil
}

// board is the position a built-in seat moves in: the referee's own
// when it gave it, else replayed from the moves.
func (pos Position) position() (*lib.Position, error) {
	if pos.board != nil {
		return pos.board, nil
	}
	return Replay(pos.StartFEN, pos.Moves)
}

// randomSeat plays a uniformly random legal move from a stream of its
// seed and the ply, in UCI order.
type randomSeat struct{ seed uint64 }

func (s randomSeat) Move(_ context.Context, pos Position) (Reply, error) {
	b, err := pos.position()
	if err != nil {
		return Reply{}, err
	}
	all := legal.Moves(b)
	if len(all) == 0 {
		return Reply{}, errors.New("chess: random: asked to move where there is no legal move")
	}
	moves := make([]string, len(all))
	for i := range all {
		moves[i] = uci(&all[i])
	}
	slices.Sort(moves)
	rng := fitness.NewRand(fitness.Derive(s.seed, uint64(len(pos.Moves))))
	return Reply{Move: moves[rng.IntN(len(moves))]}, nil
}

func (randomSeat) End() {}

// tinySeat searches with tiny; it is deterministic, so it needs no seed.
type tinySeat struct{ p *Player }

func (s tinySeat) Move(_ context.Context, pos Position) (Reply, error) {
	b, err := pos.position()
	if err != nil {
		return Reply{}, err
	}
	r, ok := tiny.Search(b, s.p.params, s.p.depth, s.p.nodes)
	if !ok {
		return Reply{}, errors.New("chess: tiny: asked to move where there is no legal move")
	}
	return Reply{Move: uci(&r.Move), Score: r.Score, Mate: r.Mate(), HasScore: true, Depth: s.p.depth, Nodes: r.Nodes}, nil
}

func (tinySeat) End() {}

// seated is a guest's player, refused unless it plays through seats.
func seated(p fitness.Player, err error) (fitness.Player, error) {
	if err != nil {
		return nil, err
	}
	if _, ok := p.(SeatPlayer); !ok {
		return nil, fmt.Errorf("chess: %s does not play through seats", p.Name())
	}
	return p, nil
}
