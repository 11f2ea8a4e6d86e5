package battleship

import (
	"math"
	"slices"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

func mustLearner(t testing.TB, g *Geometry, strength float64) *learnerShooter {
	t.Helper()
	return learnerWith(t, g, learnerStrength, strength)
}

// learnerWith is the learner with one of its knobs set.
func learnerWith(t testing.TB, g *Geometry, knob string, x float64) *learnerShooter {
	t.Helper()
	v, err := learnerSchema(g.Rules).Defaults().With(knob, genome.Value{Num: x})
	if err != nil {
		t.Fatal(err)
	}
	p, err := newLearner(g, v)
	if err != nil {
		t.Fatal(err)
	}
	return p.(*learnerShooter)
}

// meanShots plays series of a shooter against a placer and returns the
// mean shots of games [from, to) of the series, over all series.
func meanShots(g *Geometry, s Shooter, p Placer, series, length, from, to int) float64 {
	sum, n := 0, 0
	for i := range series {
		shots := g.Series(s, p, length, fitness.Derive(99, uint64(i)))
		for _, x := range shots[from:to] {
			sum += x
			n++
		}
	}
	return float64(sum) / float64(n)
}

// TestLearnerLearns: against blockhalf, whose fleets crowd the top rows,
// the learner's games 31-40 of a series take fewer shots than its first
// games, by more than noise (80 series, fixed seeds); with learning off
// (strength 0) there is no such gain, so the gain is the memory's.
func TestLearnerLearns(t *testing.T) {
	g := mustGeometry(t, Classic())
	learner, still := mustLearner(t, g, learnerStrengthDefault), mustLearner(t, g, 0)
	const series, length = 80, 40
	first := meanShots(g, learner, blockHalfPlacer{}, series, length, 0, 5)
	late := meanShots(g, learner, blockHalfPlacer{}, series, length, 30, 40)
	// sd of one game is about 9 shots: the standard error of the late mean
	// (800 games) is about 0.32, of the first (400 games) about 0.45.
	if late > first-4 {
		t.Errorf("learner: games 1-5 %.2f shots, games 31-40 %.2f: want at least 4 fewer", first, late)
	}
	stillFirst := meanShots(g, still, blockHalfPlacer{}, series, length, 0, 5)
	stillLate := meanShots(g, still, blockHalfPlacer{}, series, length, 30, 40)
	if stillLate < stillFirst-2 {
		t.Errorf("strength 0: games 1-5 %.2f, games 31-40 %.2f: no memory should mean no gain", stillFirst, stillLate)
	}
	// Against random placement there are no habits to learn: the learned
	// grid must not cost more than noise (same fleets for both shooters).
	o, err := over9000Shooter(g)
	if err != nil {
		t.Fatal(err)
	}
	lr := meanShots(g, learner, randomPlacer{}, series, length, 10, 40)
	or := meanShots(g, o, randomPlacer{}, series, length, 10, 40)
	if lr > or+1 {
		t.Errorf("random placement, games 11-40: learner %.2f, over9000 %.2f: the memory costs shots", lr, or)
	}
	t.Logf("blockhalf: learner %.2f -> %.2f, strength 0 %.2f -> %.2f; random: learner %.2f, over9000 %.2f",
		first, late, stillFirst, stillLate, lr, or)
}

// TestLearnerMemoryIsPerSeries: the Player holds no memory. A series is
// reproducible, a solo game is the same before and after series were
// played, and the first game of a series is the learner's solo game.
func TestLearnerMemoryIsPerSeries(t *testing.T) {
	g := mustGeometry(t, Classic())
	l := mustLearner(t, g, learnerStrengthDefault)
	solo := g.Solo(l, blockHalfPlacer{}, 5)
	a := g.Series(l, blockHalfPlacer{}, 30, 7)
	b := g.Series(l, blockHalfPlacer{}, 30, 7)
	if !slices.Equal(a, b) {
		t.Fatalf("the same series twice: %v then %v", a, b)
	}
	if again := g.Solo(l, blockHalfPlacer{}, 5); again != solo {
		t.Fatalf("solo game: %d shots before series, %d after: memory leaked into the player", solo, again)
	}
	// A series of shooters that do not learn is a sequence of solo games.
	o, err := over9000Shooter(g)
	if err != nil {
		t.Fatal(err)
	}
	series := g.Series(o, blockHalfPlacer{}, 10, 3)
	learned := g.Series(l, blockHalfPlacer{}, 10, 3)
	for i, n := range series {
		if want := g.Solo(o, blockHalfPlacer{}, fitness.Derive(3, uint64(i))); n != want {
			t.Fatalf("game %d of an over9000 series: %d shots, its solo game %d", i, n, want)
		}
	}
	if learned[0] != g.Solo(l, blockHalfPlacer{}, fitness.Derive(3, 0)) {
		t.Fatalf("the learner's first game %d differs from its solo game", learned[0])
	}
}

// TestLearnerConcurrentSeries plays the same series on several goroutines
// at once (run with -race): one shared Player, one Memory per series.
func TestLearnerConcurrentSeries(t *testing.T) {
	g := mustGeometry(t, Classic())
	l := mustLearner(t, g, learnerStrengthDefault)
	want := g.Series(l, blockHalfPlacer{}, 20, 1)
	got, err := fitness.Parallel(t.Context(), 8, 4, func(int) ([]int, error) { return g.Series(l, blockHalfPlacer{}, 20, 1), nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range got {
		if !slices.Equal(s, want) {
			t.Fatalf("series %d on a goroutine: %v, want %v", i, s, want)
		}
	}
}

// TestLearnerPriorSetsHowFastItLearns: memory_prior is pseudo-games at
// the model's rates, so the larger it is, the less the learned ratios
// move off 1 in the same games against blockhalf (and, with the
// shrinkage, a large prior keeps them at 1 until the games outweigh it);
// more games move them further; before the first game they do not move.
func TestLearnerPriorSetsHowFastItLearns(t *testing.T) {
	g := mustGeometry(t, Classic())
	moved := func(prior float64, games int) float64 {
		t.Helper()
		m := learnerWith(t, g, learnerPrior, prior).NewMemory(g).(*learnerMemory)
		for i := range games {
			l := blockHalfPlacer{}.Place(g, fitness.NewRand(fitness.Derive(5, uint64(i))))
			var found Bits
			for _, ship := range l.Ships {
				found = found.Or(ship)
			}
			m.Learn(found)
		}
		sum := 0.0
		for _, r := range m.shrunkRatios(g.Cells) {
			sum += math.Abs(r - 1)
		}
		return sum / float64(g.Cells)
	}
	if d := moved(1, 0); d != 0 {
		t.Fatalf("before any game the ratios moved %v off 1", d)
	}
	// Measured: after 20 games, prior 1 moves them 0.80, 4 0.68, 16 0.38,
	// 32 0.20; prior 16 moves them 0.56 after 40.
	last := math.Inf(1)
	for _, prior := range []float64{1, 4, 16, 32} {
		d := moved(prior, 20)
		if d > last-0.05 || d <= 0 {
			t.Errorf("prior %v moved the ratios %.3f off 1 in 20 games, a smaller prior %.3f: want a larger prior to learn more slowly, and to learn", prior, d, last)
		}
		last = d
	}
	if d20, d40 := moved(16, 20), moved(16, 40); d40 < d20+0.1 {
		t.Errorf("prior 16: the ratios moved %.3f off 1 in 20 games, %.3f in 40: want more with more games", d20, d40)
	}
}
