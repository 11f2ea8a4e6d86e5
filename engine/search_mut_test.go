package engine

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

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
			wantError(t, err, tc.want)
		})
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
	first := firstGeneration(t, startRunner(t, gen, Options{Dir: t.TempDir()}))[0][0]
	r := startRunner(t, cma, Options{Dir: t.TempDir()})
	sp := cma.species[0]
	for _, x := range firstGeneration(t, r)[0] {
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

// TestCheckRemeasuredEdges: a checkpoint's remeasured figures are
// accepted up to every edge (the last rank, one game, a score of 0 or 1,
// an interval that closes on its figure) and refused one past it.
func TestCheckRemeasuredEdges(t *testing.T) {
	hof := []Member{{Genes: []float64{0.1}}, {Genes: []float64{0.2}}}
	ok := Remeasured{Rank: 2, Genes: []float64{0.2}, Fitness: 1, Games: 1, CI95: [2]float64{1, 1}}
	for _, tc := range []struct {
		name  string
		edit  func(*Remeasured)
		score bool
		want  string
	}{
		{"the last rank, one game, a score of 1", func(*Remeasured) {}, true, ""},
		{"a score of 0", func(m *Remeasured) { m.Fitness, m.CI95 = 0, [2]float64{0, 0} }, true, ""},
		{"a cost above 1", func(m *Remeasured) { m.Fitness, m.CI95 = 7, [2]float64{7, 7} }, false, ""},
		{"a rank past the hall of fame", func(m *Remeasured) { m.Rank = 3 }, true, "remeasured[0].rank: 3, the hall of fame has 2 members"},
		{"rank 0", func(m *Remeasured) { m.Rank = 0 }, true, "remeasured[0].rank: 0"},
		{"no games", func(m *Remeasured) { m.Games = 0 }, true, "remeasured[0].games: 0"},
		{"a score above 1", func(m *Remeasured) { m.Fitness, m.CI95 = 1.5, [2]float64{1.5, 1.5} }, true, "remeasured[0].fitness: 1.5 is out of range"},
		{"a negative figure", func(m *Remeasured) { m.Fitness, m.CI95 = -0.5, [2]float64{-0.5, -0.5} }, false, "remeasured[0].fitness: -0.5 is out of range"},
		{"an interval above", func(m *Remeasured) { m.Fitness, m.CI95 = 0.5, [2]float64{0.6, 0.9} }, true, "remeasured[0].ci95: [0.6, 0.9] does not hold its fitness 0.5"},
		{"an interval below", func(m *Remeasured) { m.Fitness, m.CI95 = 0.5, [2]float64{0.1, 0.4} }, true, "remeasured[0].ci95: [0.1, 0.4] does not hold its fitness 0.5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := ok
			tc.edit(&m)
			err := checkRemeasured("", SpeciesState{HallOfFame: hof, Remeasured: []Remeasured{m}}, tc.score)
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// TestRemeasureSkipsSpeciesWithoutBaselines: in a co-evolving run whose
// rivals have no baseline opponents, the remeasure plays the main
// species' best only.
func TestRemeasureSkipsSpeciesWithoutBaselines(t *testing.T) {
	text := "game: battleship\nrules: {size: 6, fleet: '3,2'}\nplayer: tuned\ncoevolve:\n  player: tuned\n  opponents: []\n" +
		"fitness:\n  baselines: {games: 2}\n  population: {opponents: 1, games: 2}\n" +
		"evolution:\n  population: 4\n  tournament-size: 2\n  generations: 1\nremeasure: {top: 1, games: 4}\n"
	dir := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, t.TempDir(), text), Options{Dir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	ck, _, err := ReadCheckpoint(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ck.Remeasured) != 1 || ck.Remeasured[0].Games != 4 || ck.Rivals == nil || len(ck.Rivals.Remeasured) != 0 {
		t.Fatalf("remeasured %+v, rivals %+v", ck.Remeasured, ck.Rivals)
	}
}
