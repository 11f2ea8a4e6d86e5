package engine

import (
	"testing"

	"github.com/evotune/evotune/engine/config"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
)

// solitaire is coin with no head-to-head play: its solo measure is all
// it has (as an outside program may declare).
type solitaire struct{ coin }

func (g solitaire) Solo() fitness.Solo {
	s := g.coin.Solo()
	s.Only = true
	return s
}

func init() {
	catalog.Register(fitness.GameInfo{Name: "solitaire", Summary: "coin without head-to-head play",
		New: func(map[string]string) (fitness.Game, error) { return solitaire{coin{spread: 1}}, nil }})
}

// TestSoloOnlyGameObjectives: a game without head-to-head play takes its
// solo measure, by default or named, and refuses score at its key.
func TestSoloOnlyGameObjectives(t *testing.T) {
	for _, tc := range []struct {
		name, fitness, err string
	}{
		{"default", "", ""},
		{"its measure", "fitness: {objective: cost}\n", ""},
		{"score", "fitness: {objective: score, baselines: {opponents: [fair]}}\n", "fitness.objective: solitaire has no head-to-head play: use cost"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := parse("solitaire.yaml", []byte("game: solitaire\nplayer: tuned\n"+tc.fitness))
			if !wantError(t, err, tc.err) {
				return
			}
			if cfg.cfg.Fitness.Objective != config.Solo {
				t.Fatalf("objective %v, want solo", cfg.cfg.Fitness.Objective)
			}
		})
	}
}
