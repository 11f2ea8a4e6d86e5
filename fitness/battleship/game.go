package battleship

import (
	"context"
	"fmt"
	"strings"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// options are Battleship's rule options, as `evotune games` lists them.
var options = []fitness.Option{
	{Name: "size", Default: "10", Summary: "board width and height"},
	{Name: "width", Default: "10", Summary: "board width (columns), overrides size"},
	{Name: "height", Default: "10", Summary: "board height (rows), overrides size"},
	{Name: "fleet", Default: "5,4,3,3,2", Summary: "ship lengths"},
	{Name: "reveal", Default: "sunk", Summary: "sunk | hits-only | ship: what a hit tells the shooter"},
	{Name: "placer", Default: "random", Summary: "placer SPEC laying both fleets in head-to-head games and solo targets", Spec: PlacerRole},
}

// Info registers Battleship with the game catalog.
var Info = fitness.GameInfo{
	Name:    "battleship",
	Summary: "find and sink a hidden fleet; solo (shots to sink) and head-to-head",
	Options: options,
	New:     func(opts map[string]string) (fitness.Game, error) { return New(opts) },
}

// Battleship's roles: shooters fire, placers lay out fleets.
const (
	ShooterRole fitness.Role = "shooter"
	PlacerRole  fitness.Role = "placer"
)

// Game is Battleship under one rule set; it implements fitness.SoloGame
// (shooter against placer) and fitness.Game (shooter against shooter, both
// fleets laid by the rules' placer).
type Game struct {
	geo        *Geometry
	placer     Placer
	placerSpec string
}

var _ fitness.SoloGame = (*Game)(nil)

// New builds a game from rule options (see Info.Options).
func New(opts map[string]string) (*Game, error) {
	rules, placerSpec, err := parseOptions(opts)
	if err != nil {
		return nil, err
	}
	geo, err := NewGeometry(rules)
	if err != nil {
		return nil, err
	}
	g := &Game{geo: geo, placerSpec: placerSpec}
	p, err := fitness.ParseSpec(g, PlacerRole, placerSpec)
	if err != nil {
		return nil, fitness.BadOption("placer", err)
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

// Roles implements fitness.Game: shooters (head to head and tuned by
// default), then placers.
func (g *Game) Roles() []fitness.Role { return []fitness.Role{ShooterRole, PlacerRole} }

// NewPlayer implements fitness.Game.
func (g *Game) NewPlayer(role fitness.Role, name string, params genome.Values) (fitness.Player, error) {
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
		schema := d.schema(g.geo.Rules)
		if params.Schema() == nil {
			params = schema.Defaults()
		} else if err := fitness.CheckParams(schema, params); err != nil {
			return nil, fmt.Errorf("battleship: %v %s: %w", role, name, err)
		}
		return d.build(g.geo, params)
	}
	return nil, fmt.Errorf("battleship: unknown %v %q (known: %s)", role, name, strings.Join(known, ", "))
}

// Placer returns the placer named by the rules.
func (g *Game) Placer() Placer { return g.placer }

// Solo implements fitness.SoloGame: shots a shooter needs to sink the
// fleet of a placer, by default the rules' placer.
func (g *Game) Solo() fitness.Solo {
	least := 0
	for _, n := range g.geo.Fleet {
		least += n
	}
	// Every ship cell must be hit to sink the fleet, and no cell is
	// fired at twice (a shooter that tries panics).
	return fitness.Solo{Measure: "shots", Opponent: PlacerRole,
		DefaultOpponent: g.placerSpec, OpponentRule: "placer", Least: float64(least), Most: float64(g.geo.Cells), Whole: true}
}

// Play implements fitness.Game: a head-to-head game between two shooters,
// both fleets laid by the rules' placer.
func (g *Game) Play(ctx context.Context, a, b fitness.Player, seed uint64) (fitness.Outcome, error) {
	sa, okA := a.(Shooter)
	sb, okB := b.(Shooter)
	if !okA || !okB {
		return 0, fmt.Errorf("battleship: head to head needs two shooters, got %s and %s", a.Name(), b.Name())
	}
	return g.geo.HeadToHeadContext(ctx, sa, sb, g.placer, seed)
}

// PlaySolo implements fitness.SoloGame: the shots shooter p needs to sink
// the fleet placer opp lays. The shooter minimises the count, the placer
// maximises it.
func (g *Game) PlaySolo(ctx context.Context, p, opp fitness.Player, seed uint64) (float64, error) {
	s, okS := p.(Shooter)
	pl, okP := opp.(Placer)
	if !okS || !okP {
		return 0, fmt.Errorf("battleship: a solo game needs a shooter and a placer, got %s and %v", p.Name(), opp)
	}
	shots, err := g.geo.SoloContext(ctx, s, pl, seed)
	return float64(shots), err
}

// playerDef is one row of the player table.
type playerDef struct {
	name    string
	role    fitness.Role
	summary string
	schema  func(Rules) genome.Schema // nil: nothing to tune
	build   func(g *Geometry, v genome.Values) (fitness.Player, error)
}
