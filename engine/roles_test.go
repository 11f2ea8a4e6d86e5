package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/genome"
)

// tag is a two-role game the engine knows nothing about: seekers look for
// a hider; a solo game costs the seeker the steps it takes, which a faster
// seeker lowers and a stealthier hider raises. Co-evolution must breed
// both roles from the game's declarations alone.
type tag struct{}

type tagPlayer struct {
	role fitness.Role
	x    float64 // a seeker's speed, a hider's stealth
}

func (p tagPlayer) Name() string { return p.role.String() }

const (
	seeker fitness.Role = "seeker"
	hider  fitness.Role = "hider"
)

var tagSchemas = map[fitness.Role]genome.Schema{
	seeker: {{Name: "speed", Kind: genome.Float, Min: 0, Max: 1, Default: genome.Value{Num: 0.2}}},
	hider:  {{Name: "stealth", Kind: genome.Float, Min: 0, Max: 1, Default: genome.Value{Num: 0.2}}},
}

func (tag) Name() string          { return "tag" }
func (tag) Roles() []fitness.Role { return []fitness.Role{seeker, hider} }
func (tag) Players() []fitness.PlayerInfo {
	return []fitness.PlayerInfo{
		{Name: "tuned", Role: seeker, Schema: tagSchemas[seeker]},
		{Name: "tuned", Role: hider, Schema: tagSchemas[hider]},
	}
}
func (tag) NewPlayer(role fitness.Role, name string, v genome.Values) (fitness.Player, error) {
	schema, ok := tagSchemas[role]
	if !ok || name != "tuned" {
		return nil, fmt.Errorf("tag: unknown %v %q", role, name)
	}
	if err := fitness.CheckParams(schema, v); err != nil {
		return nil, err
	}
	return tagPlayer{role, v.Get(schema[0].Name).Num}, nil
}
func (tag) Play(_ context.Context, a, b fitness.Player, seed uint64) (fitness.Outcome, error) {
	if fitness.NewRand(seed).Float64()*(a.(tagPlayer).x+b.(tagPlayer).x) < a.(tagPlayer).x {
		return fitness.Win, nil
	}
	return fitness.Loss, nil
}
func (tag) Solo() fitness.Solo {
	return fitness.Solo{Measure: "steps", Opponent: hider, DefaultOpponent: "tuned"}
}
func (tag) PlaySolo(_ context.Context, p, opp fitness.Player, seed uint64) (float64, error) {
	s, h := p.(tagPlayer), opp.(tagPlayer)
	if s.role != seeker || h.role != hider {
		return 0, fmt.Errorf("tag: solo games are a seeker against a hider, got a %v and a %v", s.role, h.role)
	}
	return 10*(1+h.x-s.x) + fitness.NewRand(seed).Float64(), nil
}

func init() {
	catalog.Register(fitness.GameInfo{Name: "tag", Summary: "seekers against hiders",
		New: func(map[string]string) (fitness.Game, error) { return tag{}, nil }})
}

const tagConfig = `game: tag
player: tuned
coevolve:
  player: tuned
fitness:
  baselines:
    games: 10
  population:
    opponents: 3
    games: 10
evolution:
  population: 10
  generations: 12
  tournament-size: 2
`

func TestCoevolutionOfAnyTwoRoleGame(t *testing.T) {
	dir := t.TempDir()
	cfg := loadText(t, dir, tagConfig)
	if cfg.cfg.ObjectiveName() != "steps" {
		t.Fatalf("objective %q, want the game's solo measure, steps", cfg.cfg.ObjectiveName())
	}
	run := dir + "/run"
	if _, err := Start(context.Background(), cfg, Options{Dir: run, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	ck, cfg, err := ReadRun(run)
	if err != nil {
		t.Fatal(err)
	}
	for s, st := range ck.states() {
		sp := cfg.species[s]
		t.Run(sp.role.String(), func(t *testing.T) {
			// Generation 0 is uniform in [0, 1] (mean 1/2); every step up
			// pays, so selection must have moved the whole population up.
			var sum float64
			for _, m := range st.Population {
				v, err := sp.space.Decode(m.Genes)
				if err != nil {
					t.Fatal(err)
				}
				sum += v.Get(tagSchemas[sp.role][0].Name).Num
			}
			mean := sum / float64(len(st.Population))
			t.Logf("mean %s %.3f", tagSchemas[sp.role][0].Name, mean)
			if mean < 0.75 {
				t.Fatalf("mean %v after 12 generations, want above 0.75", mean)
			}
		})
	}
	yaml, _, err := export(run, 1, false, true)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(yaml), "loads with --opponent tuned:FILE") {
		t.Fatalf("the rivals' export should load as the solo opponent:\n%s", yaml)
	}
}

func TestCoevolutionNeedsTwoRoles(t *testing.T) {
	_, err := parse("hadron.yaml", []byte("game: hadron\nplayer: tuned\ncoevolve:\n  player: tuned\nfitness:\n  population:\n    games: 2\n"))
	if err == nil || !strings.Contains(err.Error(), "hadron has 1 role(s) (mover): co-evolution breeds a second role") {
		t.Fatalf("got %v", err)
	}
}
