package engine

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/genome"
)

// coin is a game whose truth is known, for the tests of racing, ratings
// and the remeasure. A player's one knob s is its strength: a head-to-head
// game is won by a, in the first seat, with probability 1/2 +
// spread*(s_a - s_b)/2 + seat/2; a solo game costs slope*s plus uniform
// noise in [0, 10) common to all players on a deal (plus, with the rule
// own, uniform noise in [0, own) of the player's own), so with slope 0
// every genome is equally good and any spread of fitnesses is luck.
type coin struct{ slope, spread, own, seat float64 }

type coinPlayer struct{ s float64 }

func (coinPlayer) Name() string { return "coin" }

var coinSchema = genome.Schema{{Name: "s", Kind: genome.Float, Min: 0, Max: 1, Default: genome.Value{Num: 0.5}}}

// handedSchema is coinSchema and a choice that changes nothing, so that a
// space can leave out its default (space: {hand: {choices: [right]}}): a
// run without a starting point.
var handedSchema = append(slices.Clone(coinSchema),
	genome.Param{Name: "hand", Kind: genome.Choice, Choices: []string{"left", "right"}, Default: genome.Value{Str: "left"}})

func (coin) Name() string          { return "coin" }
func (coin) Roles() []fitness.Role { return []fitness.Role{fitness.Mover} }
func (coin) Players() []fitness.PlayerInfo {
	return []fitness.PlayerInfo{
		{Name: "tuned", Role: fitness.Mover, Schema: coinSchema},
		{Name: "even", Role: fitness.Mover},
		{Name: "handed", Role: fitness.Mover, Schema: handedSchema},
	}
}
func (coin) NewPlayer(role fitness.Role, name string, v genome.Values) (fitness.Player, error) {
	switch name {
	case "even":
		return coinPlayer{0.5}, nil
	case "tuned":
		if err := fitness.CheckParams(coinSchema, v); err != nil {
			return nil, err
		}
		return coinPlayer{v.Get("s").Num}, nil
	case "handed":
		if err := fitness.CheckParams(handedSchema, v); err != nil {
			return nil, err
		}
		return coinPlayer{v.Get("s").Num}, nil
	}
	return nil, fmt.Errorf("coin: unknown player %q", name)
}
func (g coin) Play(_ context.Context, a, b fitness.Player, seed uint64) (fitness.Outcome, error) {
	// With the rule seat, the first seat wins seat/2 more often.
	if fitness.NewRand(seed).Float64() < 0.5+g.spread*(a.(coinPlayer).s-b.(coinPlayer).s)/2+g.seat/2 {
		return fitness.Win, nil
	}
	return fitness.Loss, nil
}
func (coin) Solo() fitness.Solo { return fitness.Solo{Measure: "cost"} }
func (g coin) PlaySolo(_ context.Context, p, _ fitness.Player, seed uint64) (float64, error) {
	s := p.(coinPlayer).s
	// The deal's noise is common to all players; with the rule own, each
	// player adds noise of its own too, so paired differences vary.
	own := g.own * fitness.NewRand(seed^math.Float64bits(s)).Float64()
	return g.slope*s + 10*fitness.NewRand(seed).Float64() + own, nil
}

func init() {
	catalog.Register(fitness.GameInfo{Name: "coin", Summary: "a test game of known strengths",
		New: func(rules map[string]string) (fitness.Game, error) {
			g := coin{spread: 1}
			for k, v := range rules {
				x, err := strconv.ParseFloat(v, 64)
				if err != nil {
					return nil, fmt.Errorf("coin: rule %s: %v", k, err)
				}
				switch k {
				case "slope":
					g.slope = x
				case "spread":
					g.spread = x
				case "own":
					g.own = x
				case "seat":
					g.seat = x
				default:
					return nil, fmt.Errorf("coin: unknown rule %q", k)
				}
			}
			return g, nil
		}})
}
