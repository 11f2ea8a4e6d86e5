package runs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/genome"
)

// coin is a game whose truth is known (engine's tests have its like): a
// player's one knob s is its strength; a head-to-head game is won by a,
// in the first seat, with probability 1/2 + (s_a - s_b)/2, both games of
// a seat-swapped pair on one draw, so twins split every pair; a solo
// game costs s plus noise in [0, 10) common to every player on a deal.
// Registered as solitaire, it is a solo game of one seat and nothing
// else, as an outside program may declare.
type coin struct{ only bool }

type coinPlayer struct{ s float64 }

func (coinPlayer) Name() string { return "coin" }

var coinSchema = genome.Schema{{Name: "s", Kind: genome.Float, Min: 0, Max: 1, Default: genome.Value{Num: 0.5}}}

func (g coin) Name() string {
	if g.only {
		return "solitaire"
	}
	return "coin"
}
func (coin) Roles() []fitness.Role { return []fitness.Role{fitness.Mover} }
func (coin) Players() []fitness.PlayerInfo {
	return []fitness.PlayerInfo{{Name: "tuned", Role: fitness.Mover, Schema: coinSchema}, {Name: "even", Role: fitness.Mover}}
}
func (coin) NewPlayer(_ fitness.Role, name string, v genome.Values) (fitness.Player, error) {
	switch name {
	case "even":
		return coinPlayer{0.5}, nil
	case "tuned":
		if err := fitness.CheckParams(coinSchema, v); err != nil {
			return nil, err
		}
		return coinPlayer{v.Get("s").Num}, nil
	}
	return nil, fmt.Errorf("coin: unknown player %q", name)
}
func (g coin) Play(_ context.Context, a, b fitness.Player, seed uint64) (fitness.Outcome, error) {
	if g.only {
		return 0, fitness.ErrNoHeadToHead
	}
	if fitness.NewRand(seed).Float64() < 0.5+(a.(coinPlayer).s-b.(coinPlayer).s)/2 {
		return fitness.Win, nil
	}
	return fitness.Loss, nil
}
func (g coin) Solo() fitness.Solo { return fitness.Solo{Measure: "cost", Only: g.only} }
func (coin) PlaySolo(_ context.Context, p, _ fitness.Player, seed uint64) (float64, error) {
	return p.(coinPlayer).s + 10*fitness.NewRand(seed).Float64(), nil
}

func init() {
	for _, g := range []coin{{}, {only: true}} {
		catalog.Register(fitness.GameInfo{Name: g.Name(), Summary: "a test game of known strengths",
			New: func(map[string]string) (fitness.Game, error) { return g, nil }})
	}
}

// crashConfig is a Battleship run of a few seconds: a solo measure whose
// config writes a breeding key, so it runs generational.
const crashConfig = `name: crash
seed: 11
game: battleship
player: tuned
seeds:
  - {}
fitness:
  baselines:
    games: 6
evolution:
  population: 4
  generations: 3
  tournament-size: 2
  elitism: 1
  hall-of-fame: 3
`

// hofConfig is an m,n,k run of every fitness mode, head to head.
const hofConfig = `name: modes
seed: 5
game: mnk
player: tuned
fitness:
  baselines:
    opponents: [random, greedy]
    games: 6
  population:
    opponents: 3
    games: 4
  hall-of-fame:
    members: 2
    games: 4
evolution:
  population: 7
  generations: 3
  tournament-size: 2
`

// finishedRun runs crashConfig to its end in a fresh directory.
func finishedRun(t *testing.T) string { return runTo(t, crashConfig) }

// runTo runs config text to its end in a fresh directory.
func runTo(t *testing.T, text string) string {
	t.Helper()
	return runIn(t, t.TempDir(), text)
}

// runIn runs config text, written as config.yaml in cfgDir, to its end
// in a fresh directory.
func runIn(t *testing.T, cfgDir, text string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := engine.Start(context.Background(), loadIn(t, cfgDir, text), engine.Options{Dir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// loadIn prepares config text, written as config.yaml in cfgDir, for a
// run; the Setup is closed at the test's end.
func loadIn(t *testing.T, cfgDir, text string) *engine.Setup {
	t.Helper()
	file := filepath.Join(cfgDir, "config.yaml")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := engine.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// readDir reads every file of a directory.
func readDir(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = data
	}
	return out
}
