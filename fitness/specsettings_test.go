package fitness_test

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// knobs is a game whose one tunable player has two settings and keeps
// what it was built with, so that a test can see which settings a spec
// gave it.
type knobs struct{}

type knobsPlayer struct {
	x        float64
	settings fitness.Settings
}

func (knobsPlayer) Name() string { return "tuned" }

var knobsInfo = fitness.PlayerInfo{Name: "tuned", Role: fitness.Mover,
	Schema:   genome.Schema{{Name: "x", Kind: genome.Float, Min: 0, Max: 1, Default: genome.Value{Num: 0.5}}},
	Settings: []fitness.Setting{{Name: "depth", Default: "1"}, {Name: "nodes", Default: "100"}}}

func (knobs) Name() string                  { return "knobs" }
func (knobs) Roles() []fitness.Role         { return []fitness.Role{fitness.Mover} }
func (knobs) Players() []fitness.PlayerInfo { return []fitness.PlayerInfo{knobsInfo} }
func (g knobs) NewPlayer(role fitness.Role, name string, v genome.Values) (fitness.Player, error) {
	return g.NewPlayerSettings(role, name, v, nil)
}
func (knobs) NewPlayerSettings(_ fitness.Role, name string, v genome.Values, s fitness.Settings) (fitness.Player, error) {
	if name != "tuned" {
		return nil, errors.New("knobs: unknown player " + name)
	}
	if err := fitness.CheckParams(knobsInfo.Schema, v); err != nil {
		return nil, err
	}
	all := fitness.Settings{"depth": "1", "nodes": "100"}
	maps.Copy(all, s)
	return knobsPlayer{x: v.Get("x").Num, settings: all}, nil
}
func (knobs) Play(context.Context, fitness.Player, fitness.Player, uint64) (fitness.Outcome, error) {
	return fitness.Draw, nil
}

// TestSpecSettingsOverrideTheFiles: a spec's settings override the
// player file's one by one; the file's others stay (an override that
// replaced the file's settings played an export tuned at 500 nodes at the
// default 100). The file's values are kept either way.
func TestSpecSettingsOverrideTheFiles(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "best.yaml")
	if err := os.WriteFile(file, []byte("game: knobs\nplayer: tuned\nsettings:\n  depth: 2\n  nodes: 500\nparams:\n  x: 0.25\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(dir, "bare.yaml")
	if err := os.WriteFile(bare, []byte("game: knobs\nplayer: tuned\nparams:\n  x: 0.75\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		spec string
		x    float64
		want fitness.Settings
	}{
		{"tuned:" + file, 0.25, fitness.Settings{"depth": "2", "nodes": "500"}},
		{"tuned@depth=3:" + file, 0.25, fitness.Settings{"depth": "3", "nodes": "500"}},
		{"tuned@nodes=7:" + file, 0.25, fitness.Settings{"depth": "2", "nodes": "7"}},
		{"tuned@depth=4,nodes=8:" + file, 0.25, fitness.Settings{"depth": "4", "nodes": "8"}},
		{"tuned@depth=3:" + bare, 0.75, fitness.Settings{"depth": "3", "nodes": "100"}},
		{"tuned@depth=3", 0.5, fitness.Settings{"depth": "3", "nodes": "100"}},
		{"tuned", 0.5, fitness.Settings{"depth": "1", "nodes": "100"}},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			p, err := fitness.ParseSpec(knobs{}, fitness.Mover, tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			got := p.(knobsPlayer)
			if got.x != tc.x || !maps.Equal(got.settings, tc.want) {
				t.Fatalf("x %v, settings %v; want %v, %v", got.x, got.settings, tc.x, tc.want)
			}
		})
	}
	// Parsing a spec leaves the file's settings as they were for the next.
	if _, err := fitness.ParseSpec(knobs{}, fitness.Mover, "tuned@depth=9:"+file); err != nil {
		t.Fatal(err)
	}
	p, err := fitness.ParseSpec(knobs{}, fitness.Mover, "tuned:"+file)
	if err != nil || !maps.Equal(p.(knobsPlayer).settings, fitness.Settings{"depth": "2", "nodes": "500"}) {
		t.Fatalf("after an override, the file's settings read %v, %v", p, err)
	}
}
