package engine

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/evotune/evotune/genome"
)

// TestTournamentSizeBindsSelectingModels: evolution.tournament-size is
// checked against the population only for the models that select
// parents by tournament (generational, down-to-size); the others never
// draw a tournament and accept any size.
func TestTournamentSizeBindsSelectingModels(t *testing.T) {
	for _, tc := range []struct {
		model, extra string
		refused      bool
	}{
		{"generational", "", true},
		{"down-to-size", "  offspring: 4\n", true},
		{"natural-selection", "  keep: 1\n", false},
		{"random-search", "", false},
		{"cmaes", "", false},
	} {
		t.Run(tc.model, func(t *testing.T) {
			text := fmt.Sprintf("game: coin\nplayer: tuned\nfitness:\n  baselines:\n    games: 2\nevolution:\n  model: %s\n  population: 4\n  tournament-size: 4\n%s", tc.model, tc.extra)
			_, err := Parse("c.yaml", []byte(text))
			const msg = "evolution.tournament-size: 4: want from 1 to population-1 (3)"
			switch {
			case tc.refused && (err == nil || !strings.Contains(err.Error(), msg)):
				t.Fatalf("err = %v, want %q", err, msg)
			case !tc.refused && err != nil:
				t.Fatalf("err = %v, want none", err)
			}
		})
	}
}

// TestRemeasureLimits: remeasure.top runs from 1 to the hall of fame's
// size and remeasure.games from 1 (2 for head-to-head games, in pairs)
// to MaxGames, both ends included.
func TestRemeasureLimits(t *testing.T) {
	solo := "game: coin\nplayer: tuned\nfitness:\n  baselines:\n    games: 2\nevolution:\n  population: 4\n  tournament-size: 2\n  hall-of-fame: 5\n"
	score := "game: coin\nplayer: tuned\nfitness:\n  objective: score\n  baselines:\n    opponents: [even]\n    games: 2\nevolution:\n  population: 4\n  tournament-size: 2\n  hall-of-fame: 5\n"
	for _, tc := range []struct {
		name, text, want string
	}{
		{"top 1", solo + "remeasure: {top: 1}\n", ""},
		{"top the hall of fame", solo + "remeasure: {top: 5}\n", ""},
		{"top above it", solo + "remeasure: {top: 6}\n", "remeasure.top: 6: want from 1 to evolution.hall-of-fame (5)"},
		{"one solo game", solo + "remeasure: {games: 1}\n", ""},
		{"no games", solo + "remeasure: {games: 0}\n", "remeasure.games: 0: want at least 1"},
		{"the most games", solo + fmt.Sprintf("remeasure: {games: %d}\n", MaxGames), ""},
		{"more", solo + fmt.Sprintf("remeasure: {games: %d}\n", MaxGames+1), fmt.Sprintf("remeasure.games: %d: more than the limit of %d", MaxGames+1, MaxGames)},
		{"two head-to-head games", score + "remeasure: {games: 2}\n", ""},
		{"one head-to-head game", score + "remeasure: {games: 1}\n", "remeasure.games: 1: want an even number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(tc.text))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("err = %v, want none", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestCMAESRestartIsLogged: run.log says when CMA-ES's distribution
// collapses and restarts, once per restart, naming the generation (from
// 1) after which it happened; generations without one say nothing.
func TestCMAESRestartIsLogged(t *testing.T) {
	cfg := loadText(t, t.TempDir(), "game: coin\nplayer: tuned\nfitness:\n  baselines:\n    games: 2\nevolution:\n  model: cmaes\n  population: 6\n  step-size: 0.3\n")
	defer cfg.Close()
	var log bytes.Buffer
	r := newRunner(cfg, Options{Dir: t.TempDir()})
	r.log, r.now = &log, func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	defer r.closeSearch()
	sp := cfg.species[0]
	var told [][]float64
	restartAt := -1
	for g := 0; g < 3000 && restartAt < 0; g++ {
		pool := r.cmaesOf(sp).ask()
		members := make([]Member, len(pool))
		for i, x := range pool {
			members[i] = Member{Genes: x, Fitness: (x[0] - 0.37) * (x[0] - 0.37)} // a cost: lower is better
		}
		var err error
		if told, err = r.tellCMAES(sp, members, told); err != nil {
			t.Fatal(err)
		}
		if r.cmaesOf(sp).Restarts > 0 {
			restartAt = g
		}
		if restartAt < 0 && log.Len() > 0 {
			t.Fatalf("generation %d logged without a restart: %q", g+1, log.String())
		}
	}
	if restartAt < 0 {
		t.Fatal("no restart in 3000 generations")
	}
	want := fmt.Sprintf("2026-01-02T03:04:05Z cmaes: the distribution collapsed after generation %d; restarting around its best with step size 0.3\n", restartAt+1)
	if log.String() != want {
		t.Fatalf("run.log %q, want %q", log.String(), want)
	}
}

// TestCMAESStartsAtTheFirstRandomGenome: without seeds, CMA-ES samples
// its first generation around the first random genome generation 0 of
// another model has, drawn from the same stream.
func TestCMAESStartsAtTheFirstRandomGenome(t *testing.T) {
	const text = "seed: 11\ngame: battleship\nplayer: tuned\nfitness:\n  baselines:\n    games: 2\nevolution:\n  population: 8\n"
	gen := loadText(t, t.TempDir(), text+"  tournament-size: 2\n")
	cma := loadText(t, t.TempDir(), text+"  model: cmaes\n  step-size: 0.001\n")
	defer gen.Close()
	defer cma.Close()
	first := newRunner(gen, Options{Dir: t.TempDir()}).initial()[0][0]
	r := newRunner(cma, Options{Dir: t.TempDir()})
	defer r.closeSearch()
	sp := cma.species[0]
	for _, x := range r.initial()[0] {
		for i, g := range sp.space.Genes() {
			if g.Kind != genome.Float && g.Kind != genome.Grid {
				continue // snapped to a bucket's centre either way
			}
			if d := math.Abs(x[i] - first[i]); d > 0.01 {
				t.Fatalf("gene %v of a first sample: %v, the first random genome's %v", g, x[i], first[i])
			}
		}
	}
}
