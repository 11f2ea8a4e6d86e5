package battleship

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/cputime"
)

// BenchmarkTunedDraws plays, per iteration, one solo game (classic rules,
// random placement) with over9000 and with the tuned shooter at its
// defaults and at 16 seeded uniform draws from its schema, timing each
// player apart in CPU time of the benchmark's thread (wall time on a
// loaded machine counts the waits for a core). It reports games per second of over9000, of the tuned
// defaults, the median and the slowest draw, and the same for the time
// per shot: a draw that plays badly needs more shots a game, which costs
// games per second whatever the kernel's speed. The ratios are over9000's
// rate over the slowest draw's, by game and by shot. It also plays the
// values configs/quickstart.yaml evolves (seed 1, 25 generations), the
// workload the issue that asked for this benchmark measured. With -v it
// logs every player's games per second, shots a game and time a shot.
func BenchmarkTunedDraws(b *testing.B) {
	g := mustGeometry(b, Classic())
	schema := tunedSchema(g.Rules)
	space, err := genome.NewSpace(schema, nil)
	if err != nil {
		b.Fatal(err)
	}
	o9k, err := over9000Shooter(g)
	if err != nil {
		b.Fatal(err)
	}
	shooters := []Shooter{o9k}
	vals := append([]genome.Values{schema.Defaults()}, densityDraws(b, space)...)
	quick := schema.Defaults()
	for name, x := range map[string]float64{tunedExponent: 1.68660195998, tunedHitWeight: 19.5664122881,
		tunedJitter: 0.00623041765242, tunedParity: 0.820928648203, tunedAvoid: 0.885851118385,
		tunedCritical: 1.62129160762, tunedPreferred: 1.59628330747} {
		if quick, err = quick.With(name, genome.Value{Num: x}); err != nil {
			b.Fatal(err)
		}
	}
	if quick, err = quick.With(tunedWeights, genome.Value{Cells: genome.Expand(
		[]float64{0.779668171617, 1.09303281888, 1.00963472576, 0.990441280462, 0.847471212813}, 10, 10, genome.Ring)}); err != nil {
		b.Fatal(err)
	}
	vals = append(vals, quick) // last: not one of the draws
	for _, v := range vals {
		s, err := tunedShooter(g, v)
		if err != nil {
			b.Fatal(err)
		}
		shooters = append(shooters, s)
	}
	spent := make([]time.Duration, len(shooters))
	shots := make([]int, len(shooters))
	games := 0
	runtime.LockOSThread() // cputime.Thread times this thread
	defer runtime.UnlockOSThread()
	for b.Loop() {
		// Every player plays games of its own seeds: a game replayed at
		// once by another player making the same moves runs faster (the
		// same over9000 as three players on one seed: 29,400, 34,900 and
		// 37,100 games/s; on seeds of their own: 28,800, 28,900 and
		// 29,400), which flattered the defaults, playing over9000's very
		// games right after it.
		for i, s := range shooters {
			start := cputime.Thread()
			shots[i] += g.Solo(s, randomPlacer{}, uint64(games*len(shooters)+i))
			spent[i] += cputime.Thread() - start
		}
		games++
	}
	perGame := make([]float64, len(spent))
	perShot := make([]float64, len(spent))
	for i, d := range spent {
		perGame[i] = float64(games) / d.Seconds()
		perShot[i] = float64(shots[i]) / d.Seconds()
	}
	for i := range perGame {
		name := fmt.Sprintf("draw %d", i-2)
		switch i {
		case 0:
			name = "over9000"
		case 1:
			name = "defaults"
		case len(perGame) - 1:
			name = "quickstart"
		}
		b.Logf("%s: %.0f games/s, %.1f shots a game, %.0f ns a shot", name, perGame[i],
			float64(shots[i])/float64(games), 1e9/perShot[i])
	}
	last := len(perGame) - 1
	byGame, byShot := slices.Clone(perGame[1:last]), slices.Clone(perShot[1:last])
	slices.Sort(byGame)
	slices.Sort(byShot)
	b.ReportMetric(perGame[0], "games/s-over9000")
	b.ReportMetric(perGame[1], "games/s-defaults")
	b.ReportMetric(byGame[len(byGame)/2], "games/s-median")
	b.ReportMetric(byGame[0], "games/s-slowest")
	b.ReportMetric(perGame[0]/byGame[0], "over9000/slowest-games")
	b.ReportMetric(perGame[last], "games/s-quickstart")
	b.ReportMetric(perGame[0]/perGame[last], "over9000/quickstart-games")
	b.ReportMetric(perShot[0], "shots/s-over9000")
	b.ReportMetric(byShot[len(byShot)/2], "shots/s-median")
	b.ReportMetric(byShot[0], "shots/s-slowest")
	b.ReportMetric(perShot[0]/byShot[0], "over9000/slowest-shots")
}

// BenchmarkTunedSamePositions separates what a draw costs per shot from
// how it plays: each of BenchmarkTunedDraws' 16 draws plays 20 solo games,
// then it and over9000 replay the positions those games reach (each fires
// at every position, and both observe the recorded shots), timed in CPU
// time of the benchmark's thread. It reports the largest and the median
// ratio, over the draws, of the draw's time per position to over9000's.
func BenchmarkTunedSamePositions(b *testing.B) {
	g := mustGeometry(b, Classic())
	schema := tunedSchema(g.Rules)
	space, err := genome.NewSpace(schema, nil)
	if err != nil {
		b.Fatal(err)
	}
	o9k, err := over9000Shooter(g)
	if err != nil {
		b.Fatal(err)
	}
	type draw struct {
		s     Shooter
		games [][]Shot
	}
	var draws []draw
	for _, v := range densityDraws(b, space) { // BenchmarkTunedDraws' draws
		s, err := tunedShooter(g, v)
		if err != nil {
			b.Fatal(err)
		}
		d := draw{s: s}
		for seed := range uint64(20) {
			target := g.place(randomPlacer{}, seed, 0)
			gun := s.Start(g, fitness.NewRand(fitness.Derive(seed, streamShooter, 0)))
			var shots []Shot
			for target.afloat > 0 {
				shot := target.shoot(s.Name(), gun.Fire())
				gun.Observe(shot)
				shots = append(shots, shot)
			}
			d.games = append(d.games, shots)
		}
		draws = append(draws, d)
	}
	replay := func(s Shooter, games [][]Shot) time.Duration {
		start := cputime.Thread()
		for seed, shots := range games {
			gun := s.Start(g, fitness.NewRand(fitness.Derive(uint64(seed), streamShooter, 0)))
			for _, shot := range shots {
				gun.Fire()
				gun.Observe(shot)
			}
		}
		return cputime.Thread() - start
	}
	tuned := make([]time.Duration, len(draws))
	base := make([]time.Duration, len(draws))
	runtime.LockOSThread() // cputime.Thread times this thread
	defer runtime.UnlockOSThread()
	for b.Loop() {
		for i, d := range draws {
			tuned[i] += replay(d.s, d.games)
			base[i] += replay(o9k, d.games)
		}
	}
	ratios := make([]float64, len(draws))
	for i := range draws {
		ratios[i] = tuned[i].Seconds() / base[i].Seconds()
		b.Logf("draw %d: tuned %.0f ns, over9000 %.0f ns a position: %.2fx", i,
			float64(tuned[i].Nanoseconds())/float64(positions(draws[i].games)*b.N),
			float64(base[i].Nanoseconds())/float64(positions(draws[i].games)*b.N), ratios[i])
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)-1], "tuned/over9000-max")
	b.ReportMetric(ratios[len(ratios)/2], "tuned/over9000-median")
}

// densityDraws are the 16 parameter vectors BenchmarkTunedDraws plays:
// seeded uniform draws from the tuned shooter's schema with the model set
// to density, the model every density config fixes (configs/quickstart.yaml);
// the posterior model, some 20 times dearer a shot by design, is measured
// by BenchmarkPosterior.
func densityDraws(b *testing.B, space *genome.Space) []genome.Values {
	rng := fitness.NewRand(fitness.Derive(14, 1))
	var out []genome.Values
	for range 16 {
		v, err := space.Decode(space.Random(rng))
		if err == nil {
			v, err = v.With(tunedModel, genome.Value{Str: modelDensity.String()})
		}
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// positions counts the shots of games.
func positions(games [][]Shot) int {
	n := 0
	for _, g := range games {
		n += len(g)
	}
	return n
}
