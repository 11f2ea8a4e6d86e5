package runs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness"
)

// noiseConfig evolves coin players on solo costs.
const noiseConfig = `seed: 7
game: coin
player: tuned
fitness:
  baselines:
    games: 10
evolution:
  population: 6
  generations: 4
  tournament-size: 2
remeasure: {top: 2, games: 50}
`

// TestSummaryOfAResume: a resumed run's summary (Of) counts the whole
// run's games, and beside them what this process played: the
// generations after the checkpoint and the end's remeasure when it
// played it; a run played straight through has no such part.
func TestSummaryOfAResume(t *testing.T) {
	dir := t.TempDir()
	res, err := engine.Start(context.Background(), loadIn(t, t.TempDir(), noiseConfig), engine.Options{Dir: dir, Workers: 2, Generations: 2})
	if err != nil {
		t.Fatal(err)
	}
	first, err := Of(res)
	if err != nil {
		t.Fatal(err)
	}
	if first.Resumed != nil {
		t.Errorf("a straight run: resumed %+v", first.Resumed)
	}
	res, err = engine.Resume(context.Background(), engine.Options{Dir: dir, Workers: 2, Generations: 4})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Of(res)
	if err != nil {
		t.Fatal(err)
	}
	h := s.Resumed
	if h == nil || h.From != 2 {
		t.Fatalf("resumed %+v, want from generation 2", h)
	}
	ck, rs, err := engine.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	rs.Close()
	want := ck.History[2].Games + ck.History[3].Games + s.RemeasureGames
	if h.Games != want || h.Games >= s.Games+s.RemeasureGames || s.RemeasureGames == 0 {
		t.Errorf("this process played %d games, want %d (generations 3 and 4: %d and %d, and the remeasure's %d, of the run's %d)",
			h.Games, want, ck.History[2].Games, ck.History[3].Games, s.RemeasureGames, s.Games)
	}
	// Resumed again, finished: the whole run's figures, nothing played.
	res, err = engine.Resume(context.Background(), engine.Options{Dir: dir, Workers: 2, Generations: 4})
	if err != nil {
		t.Fatal(err)
	}
	again, err := Of(res)
	if err != nil {
		t.Fatal(err)
	}
	if h := again.Resumed; h == nil || h.From != 4 || h.Games != 0 || again.Games != s.Games {
		t.Errorf("a finished run resumed: %+v, %d games, want none played of %d", h, again.Games, s.Games)
	}
}

// TestSummarySaysTheStartIsEven: a start that splits every seat-swapped
// pair with its baseline (coin's defaults against even: twins) is said
// to be even on every pair; a start of its own strength is not.
func TestSummarySaysTheStartIsEven(t *testing.T) {
	const text = "game: coin\nplayer: tuned\nseeds:\n  - {s: %s}\nfitness:\n  objective: score\n  baselines: {opponents: [even], games: 20}\nevolution: {population: 4, generations: 2, tournament-size: 2}\n"
	for _, tc := range []struct {
		s    string
		even bool
	}{{"0.5", true}, {"0.9", false}} {
		t.Run(tc.s, func(t *testing.T) {
			res, err := engine.Start(context.Background(), loadIn(t, t.TempDir(), strings.Replace(text, "%s", tc.s, 1)), engine.Options{Dir: t.TempDir(), Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			sum, err := Of(res)
			if err != nil {
				t.Fatal(err)
			}
			st := sum.Start
			if st == nil || st.Fresh == nil || st.Even != tc.even {
				t.Fatalf("start %+v, want even %v", st, tc.even)
			}
			if tc.even && (st.Fresh.Fitness != 0.5 || st.Fresh.CI95 != [2]float64{0.5, 0.5}) {
				t.Errorf("an even start scores %+v", *st.Fresh)
			}
		})
	}
}

// TestDisplayPathIsRelativeHere: a path under the working directory is
// written relative to it (a resumed run's config directory is absolute
// in its checkpoint, and its next command named it so); others stay.
func TestDisplayPathIsRelativeHere(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, want string }{
		{filepath.Join(wd, "configs"), "configs"},
		{wd, "."},
		{"configs/../configs", "configs"},
		{filepath.Dir(wd), filepath.Dir(wd)},
		{filepath.Join(filepath.Dir(wd), "other"), filepath.Join(filepath.Dir(wd), "other")},
	} {
		if got := displayPath(tc.in); got != tc.want {
			t.Errorf("displayPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestEvenEveryPair: only a score of 1/2 whose interval has no width is
// even on every pair; its near misses are not.
func TestEvenEveryPair(t *testing.T) {
	for _, tc := range []struct {
		name  string
		f     fitness.Figure
		lower bool
		want  bool
	}{
		{"every pair split", fitness.Figure{Fitness: 0.5, Games: 40, CI95: [2]float64{0.5, 0.5}}, false, true},
		{"1/2 with some spread", fitness.Figure{Fitness: 0.5, Games: 40, CI95: [2]float64{0.49, 0.51}}, false, false},
		{"no spread, not 1/2", fitness.Figure{Fitness: 0.75, Games: 40, CI95: [2]float64{0.75, 0.75}}, false, false},
		{"a cost", fitness.Figure{Fitness: 0.5, Games: 40, CI95: [2]float64{0.5, 0.5}}, true, false},
		{"no games", fitness.Figure{Fitness: 0.5, CI95: [2]float64{0.5, 0.5}}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := EvenEveryPair(tc.f, tc.lower); got != tc.want {
				t.Errorf("EvenEveryPair(%+v, %v) = %v", tc.f, tc.lower, got)
			}
		})
	}
}
