package battleship

import (
	"fmt"
	"sort"
	"strings"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// Info registers Battleship with the game catalog.
var Info = fitness.GameInfo{
	Name:    "battleship",
	Summary: "find and sink a hidden fleet; solo (shots to sink) and head-to-head",
	Options: []fitness.Option{
		{Name: "size", Default: "10", Summary: "board width and height"},
		{Name: "width", Default: "10", Summary: "board width (columns), overrides size"},
		{Name: "height", Default: "10", Summary: "board height (rows), overrides size"},
		{Name: "fleet", Default: "5,4,3,3,2", Summary: "ship lengths"},
		{Name: "reveal", Default: "sunk", Summary: "sunk | hits-only | ship: what a hit tells the shooter"},
		{Name: "placer", Default: "random", Summary: "placer SPEC laying both fleets in head-to-head games and solo targets"},
	},
	New: func(opts map[string]string) (fitness.Game, error) { return New(opts) },
}

// Game is Battleship under one rule set; it implements fitness.SoloGame
// (shooter against placer) and fitness.Game (shooter against shooter, both
// fleets laid by the rules' placer).
type Game struct {
	geo    *Geometry
	placer Placer
}

var (
	_ fitness.SoloGame = (*Game)(nil)
	_ fitness.RoleGame = (*Game)(nil)
)

// New builds a game from rule options (see Info.Options).
func New(opts map[string]string) (*Game, error) {
	rules, rest, err := ParseRules(opts)
	if err != nil {
		return nil, err
	}
	placerSpec := "random"
	var unknown []string
	for key, val := range rest {
		switch key {
		case "placer":
			placerSpec = val
		default:
			unknown = append(unknown, key)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("battleship: unknown rule option %s (known: size, width, height, fleet, reveal, placer)",
			strings.Join(unknown, ", "))
	}
	geo, err := NewGeometry(rules)
	if err != nil {
		return nil, err
	}
	g := &Game{geo: geo}
	p, err := fitness.ParseSpec(g, fitness.Placer, placerSpec)
	if err != nil {
		return nil, err
	}
	g.placer = p.(Placer)
	return g, nil
}

// Geometry returns the game's board geometry.
func (g *Game) Geometry() *Geometry { return g.geo }

// Name implements fitness.Game.
func (g *Game) Name() string { return "battleship" }

// Players implements fitness.Game: shooters first, then placers.
func (g *Game) Players() []fitness.PlayerInfo {
	out := make([]fitness.PlayerInfo, len(registry))
	for i, d := range registry {
		out[i] = fitness.PlayerInfo{Name: d.name, Role: d.role, Summary: d.summary}
		if d.schema != nil {
			out[i].Schema = d.schema(g.geo.Rules)
		}
	}
	return out
}

// NewPlayer implements fitness.Game; it builds shooters.
func (g *Game) NewPlayer(name string, params genome.Values) (fitness.Player, error) {
	return g.NewRolePlayer(fitness.Shooter, name, params)
}

// NewRolePlayer implements fitness.RoleGame.
func (g *Game) NewRolePlayer(role fitness.Role, name string, params genome.Values) (fitness.Player, error) {
	var known []string
	for _, d := range registry {
		if d.role != role {
			continue
		}
		known = append(known, d.name)
		if d.name != name {
			continue
		}
		if d.schema == nil {
			return d.build(g.geo, genome.Values{})
		}
		if params.Schema() == nil {
			params = d.schema(g.geo.Rules).Defaults()
		}
		return d.build(g.geo, params)
	}
	return nil, fmt.Errorf("battleship: unknown %v %q (known: %s)", role, name, strings.Join(known, ", "))
}

// Placer returns the placer named by the rules.
func (g *Game) Placer() Placer { return g.placer }

// SoloOpponent implements fitness.SoloGame: the rules' placer.
func (g *Game) SoloOpponent() fitness.Player { return g.placer }

// Play implements fitness.Game: a head-to-head game between two shooters,
// both fleets laid by the rules' placer.
func (g *Game) Play(a, b fitness.Player, seed uint64) fitness.Outcome {
	return g.geo.HeadToHead(a.(Shooter), b.(Shooter), g.placer, seed)
}

// PlaySolo implements fitness.SoloGame: the shots a shooter needs to sink a
// placer's fleet. The arguments may come in either order (shooter, placer)
// or (placer, shooter); the shooter minimises the count, the placer
// maximises it.
func (g *Game) PlaySolo(p, opp fitness.Player, seed uint64) float64 {
	if s, ok := p.(Shooter); ok {
		return float64(g.geo.Solo(s, opp.(Placer), seed))
	}
	return float64(g.geo.Solo(opp.(Shooter), p.(Placer), seed))
}

// playerDef is one row of the player table.
type playerDef struct {
	name    string
	role    fitness.Role
	summary string
	schema  func(Rules) genome.Schema // nil: nothing to tune
	build   func(g *Geometry, v genome.Values) (fitness.Player, error)
}

// Measure implements fitness.Measured: solo games count shots.
func (g *Game) Measure() string { return "shots" }
