package stats

import (
	"math"
	"testing"
)

// The reference figures below were computed by fishtest's own code
// (official-stockfish/fishtest, server/fishtest/stats/LLRcalc.py:
// LLR_logistic, LLR_normalized, stats_ex and the raw-statistics page's
// t_conf; server/fishtest/static/js/sprt.js: Sprt.characteristics), run
// unchanged on these inputs.

func near(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*max(1, math.Abs(want))
}

func TestLLRMatchesFishtest(t *testing.T) {
	cases := []struct {
		name                 string
		counts               Pentanomial
		elo0, elo1           float64
		logistic, normalized float64
	}{
		{"fishtest's own example", Pentanomial{10789, 19328, 33806, 19402, 10543}, -3, 1, 2.1310678117940807, 0.30086978548354076},
		{"H0 accepted territory", Pentanomial{1187, 7410, 13475, 7378, 1164}, 0, 2, -3.703553587139313, -1.7287536221817865},
		{"zero counts regularised", Pentanomial{0, 0, 0, 0, 3}, -1.75, 0.25, 0.017318213085585898, 0.024501111193921225},
		{"symmetric", Pentanomial{10, 5, 2, 5, 10}, -1.75, 0.25, 0.00056553328725561514, 0.00079526725503753504},
		{"wide bounds", Pentanomial{50, 200, 400, 300, 100}, 0, 5, 5.0762550116633109, 3.7527175476179009},
		{"no extreme pairs", Pentanomial{0, 12, 40, 30, 0}, 0, 10, 1.7771708770494576, 0.95698130736638221},
		{"many splits", Pentanomial{3, 40, 250, 80, 7}, -5, 0, 3.4716901276698886, 1.5594210100974371},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lg := SPRT{Alpha: 0.05, Beta: 0.05, Elo0: tc.elo0, Elo1: tc.elo1, Model: Logistic}.LLR(tc.counts)
			if !near(lg, tc.logistic, 1e-7) {
				t.Errorf("logistic LLR %.12g, fishtest %.12g", lg, tc.logistic)
			}
			nm := SPRT{Alpha: 0.05, Beta: 0.05, Elo0: tc.elo0, Elo1: tc.elo1, Model: Normalized}.LLR(tc.counts)
			if !near(nm, tc.normalized, 1e-6) {
				t.Errorf("normalized LLR %.12g, fishtest %.12g", nm, tc.normalized)
			}
		})
	}
}

func TestPentanomialFiguresMatchFishtest(t *testing.T) {
	cases := []struct {
		counts    Pentanomial
		score     [3]float64 // value, low, high
		nelo      [3]float64
		elo, eloL float64
	}{
		{Pentanomial{10789, 19328, 33806, 19402, 10543}, [3]float64{0.49888673456342947, 0.49704816670062096, 0.50072530242623792},
			[3]float64{-0.95162900447264753, -2.5232516812470083, 0.61999367230171309}, 0, 0},
		{Pentanomial{10, 5, 2, 5, 10}, [3]float64{0.5, 0.35473553930361834, 0.64526446069638166},
			[3]float64{0, -85.120154321485586, 85.120154321485586}, 0, 0},
		{Pentanomial{50, 200, 400, 300, 100}, [3]float64{0.54761904761904756, 0.53241211628984675, 0.56282597894824837},
			[3]float64{46.532015322773098, 31.419796956889979, 61.644233688656229}, 0, 0},
		{Pentanomial{0, 12, 40, 30, 0}, [3]float64{0.55487671032413832, 0.51801459721648546, 0.59173882343179118},
			[3]float64{79.159494221006398, 22.68203859543009, 135.63694984658272}, 0, 0},
		{Pentanomial{3, 40, 250, 80, 7}, [3]float64{0.53157894736842093, 0.51558057541698332, 0.54757731931985854},
			[3]float64{48.757053572346301, 23.995990818749515, 73.518116325943083}, 0, 0},
	}
	for _, tc := range cases {
		if k := tc.counts; k[0]*k[1]*k[2]*k[3]*k[4] != 0 && !near(tc.score[0], (tc.score[1]+tc.score[2])/2, 1e-12) {
			t.Fatalf("%v: fishtest's interval is not centred on its score", k)
		}
		t.Run(tc.counts.String(), func(t *testing.T) {
			s, n := tc.counts.Score(), tc.counts.NormalizedElo()
			// fishtest centres the interval on the regularised counts'
			// mean; Score on the counts' own, which differs where a count
			// is 0. The widths agree.
			mean := 0.0
			for i, k := range tc.counts {
				mean += float64(k) * float64(i) / 4 / float64(tc.counts.Pairs())
			}
			half := (tc.score[2] - tc.score[1]) / 2
			for i, pair := range [][2]float64{{s.Value, mean}, {s.CI95[0], mean - half}, {s.CI95[1], mean + half},
				{n.Value, tc.nelo[0]}, {n.CI95[0], tc.nelo[1]}, {n.CI95[1], tc.nelo[2]}} {
				if !near(pair[0], pair[1], 1e-9) {
					t.Errorf("figure %d: %.15g, fishtest %.15g", i, pair[0], pair[1])
				}
			}
			e := tc.counts.Elo()
			if e.Value != EloOf(s.Value) || e.CI95[0] != EloOf(s.CI95[0]) || e.CI95[1] != EloOf(s.CI95[1]) {
				t.Errorf("Elo %v is not the Elo of the score %v", e, s)
			}
		})
	}
}

func TestExpectedMatchesFishtestCalculator(t *testing.T) {
	cases := []struct {
		alpha, beta, elo0, elo1, draws, bias float64
		normalized                           bool
		elo, pass, games                     float64
	}{
		{0.05, 0.05, 0, 2, 0.49, 191, true, 0, 0.050000000000000010, 159942.42219101981},
		{0.05, 0.05, 0, 2, 0.49, 191, true, 1, 0.94446999909482610, 164150.50386348559},
		{0.05, 0.05, 0, 2, 0.49, 191, true, 2, 0.99981807684178692, 60739.966752947097},
		{0.05, 0.05, 0, 2, 0.49, 191, true, -1, 0.00016284018424785225, 59970.458520062472},
		{0.05, 0.05, 0, 2, 0.49, 191, true, 3, 0.99999943678087089, 36364.248117432770},
		{0.05, 0.05, 0, 5, 0.3, 0, false, 0, 0.050000000000000010, 17916.024665359775},
		{0.05, 0.05, 0, 5, 0.3, 0, false, 2.5, 0.50003811175936097, 29307.023019663782},
		{0.05, 0.05, 0, 5, 0.3, 0, false, 5, 0.95000000000000007, 17916.024665359782},
		{0.05, 0.05, 0, 5, 0.3, 0, false, -2, 0.0049661752440995025, 10949.147708446430},
		{0.05, 0.05, -1.75, 0.25, 0.6, 100, false, -1.75, 0.050000000000000010, 51426.599792089066},
		{0.05, 0.05, -1.75, 0.25, 0.6, 100, false, 0.25, 0.95000000000000007, 51426.599792089088},
		{0.05, 0.05, -1.75, 0.25, 0.6, 100, false, -5, 0.0000036786391841431190, 13445.732597266913},
		{0.05, 0.05, -1.75, 0.25, 0.6, 100, false, 1, 0.99424993007607143, 32276.256496238631},
		{0.01, 0.1, 0, 2, 0.7, 150, true, 0.5, 0.61746489832311124, 316021.28555681481},
		{0.01, 0.1, 0, 2, 0.7, 150, true, 2, 0.99996311502085544, 60992.485793972111},
		{0.05, 0.1, 0, 10, 0, 0, false, 0, 0.050000000000001057, 4817.1368887292247},
		{0.05, 0.1, 0, 10, 0, 0, false, 10, 0.90000000000000158, 5739.8742433835014},
		{0.05, 0.1, 0, 10, 0, 0, false, 5, 0.43798383934593410, 7859.2927481740990},
	}
	for _, tc := range cases {
		model := Logistic
		if tc.normalized {
			model = Normalized
		}
		test := SPRT{Alpha: tc.alpha, Beta: tc.beta, Elo0: tc.elo0, Elo1: tc.elo1, Model: model}
		got := test.Expected(tc.elo, FishtestVariance(tc.draws, tc.bias))
		if !near(got.PassProbability, tc.pass, 1e-9) || !near(got.Games, tc.games, 1e-9) {
			t.Errorf("%+v: pass %.15g after %.15g games, fishtest %.15g after %.15g", tc, got.PassProbability, got.Games, tc.pass, tc.games)
		}
	}
}

// TestSequentialMatchesFishtest: the estimate that allows for the test's
// stopping is fishtest's sprt.analytics (server/fishtest/stats/sprt.py
// and brownian.py, run unchanged; for normalised Elo, its lelo_to_elo of
// the figures): the Elo, its 95% interval, the LOS and whether the LLR
// was clamped to a bound, on passes, fails, tests still running, a pass
// far past its bound and hypotheses other than [0, 5].
func TestSequentialMatchesFishtest(t *testing.T) {
	for _, tc := range []struct {
		p                  Pentanomial
		elo0, elo1, al, be float64
		model              EloModel
		elo, lo, hi, los   float64
		clamped            bool
	}{
		{Pentanomial{10, 60, 180, 60, 20}, 0, 5, 0.05, 0.05, Logistic, 10.531575, -5.415621, 26.523290, 0.902213, false},
		{Pentanomial{10, 60, 180, 60, 20}, 0, 5, 0.05, 0.05, Normalized, 17.503552, -9.002828, 44.009932, 0.902213, false},
		{Pentanomial{5, 40, 160, 80, 30}, 0, 5, 0.05, 0.05, Logistic, 49.111863, 31.248865, 67.217056, 1.000000, true},
		{Pentanomial{5, 40, 160, 80, 30}, 0, 5, 0.05, 0.05, Normalized, 81.390484, 54.260339, 108.520629, 1.000000, false},
		{Pentanomial{30, 80, 160, 40, 10}, 0, 5, 0.05, 0.05, Logistic, -42.798389, -60.568144, -25.229236, 0.000001, false},
		{Pentanomial{30, 80, 160, 40, 10}, 0, 5, 0.05, 0.05, Normalized, -68.137724, -95.055080, -41.220368, 0.000000, false},
		{Pentanomial{100, 600, 1800, 650, 230}, 0, 5, 0.05, 0.05, Logistic, 15.101455, 5.551566, 24.610522, 0.998994, true},
		{Pentanomial{100, 600, 1800, 650, 230}, 0, 5, 0.05, 0.05, Normalized, 25.141000, 12.632035, 37.610867, 0.999957, true},
		{Pentanomial{0, 3, 10, 6, 1}, -3, 1, 0.1, 0.05, Logistic, 43.637935, -14.964430, 104.845794, 0.927546, false},
		{Pentanomial{0, 3, 10, 6, 1}, -3, 1, 0.1, 0.05, Normalized, 80.078740, -27.587993, 187.745473, 0.927546, false},
		{Pentanomial{20, 100, 300, 90, 15}, 0, 2, 0.05, 0.05, Logistic, -6.618621, -18.402617, 5.150163, 0.135179, false},
		{Pentanomial{20, 100, 300, 90, 15}, 0, 2, 0.05, 0.05, Normalized, -11.818289, -32.833209, 9.196631, 0.135179, false},
		{Pentanomial{1, 0, 0, 0, 40}, 0, 5, 0.05, 0.05, Logistic, 631.876634, 397.193195, 1000.000000, 1.000000, true},
		{Pentanomial{1, 0, 0, 0, 40}, 0, 5, 0.05, 0.05, Normalized, 757.127895, 681.931058, 790.994648, 1.000000, false},
	} {
		sp := SPRT{Alpha: tc.al, Beta: tc.be, Elo0: tc.elo0, Elo1: tc.elo1, Model: tc.model}
		s, ok := sp.Sequential(tc.p)
		if !ok || !near(s.Elo.Value, tc.elo, 1e-5) || !near(s.Elo.CI95[0], tc.lo, 1e-5) || !near(s.Elo.CI95[1], tc.hi, 1e-5) ||
			math.Abs(s.LOS-tc.los) > 1e-6 || s.Clamped != tc.clamped {
			t.Errorf("%v %s [%g, %g]: Elo %.6f [%.6f, %.6f], LOS %.6f, clamped %v; fishtest: %.6f [%.6f, %.6f], %.6f, %v",
				tc.p, tc.model, tc.elo0, tc.elo1, s.Elo.Value, s.Elo.CI95[0], s.Elo.CI95[1], s.LOS, s.Clamped, tc.elo, tc.lo, tc.hi, tc.los, tc.clamped)
		}
	}
	// fishtest has H1 above H0; with them the other way round (and alpha
	// = beta, so the bounds mirror each other) the figures are the same.
	for _, p := range []Pentanomial{{10, 60, 180, 60, 20}, {5, 40, 160, 80, 30}, {30, 80, 160, 40, 10}} {
		for _, m := range []EloModel{Logistic, Normalized} {
			up, _ := SPRT{Alpha: 0.05, Beta: 0.05, Elo0: 0, Elo1: 5, Model: m}.Sequential(p)
			down, _ := SPRT{Alpha: 0.05, Beta: 0.05, Elo0: 5, Elo1: 0, Model: m}.Sequential(p)
			if !near(up.Elo.Value, down.Elo.Value, 1e-6) || !near(up.Elo.CI95[0], down.Elo.CI95[0], 1e-6) ||
				!near(up.Elo.CI95[1], down.Elo.CI95[1], 1e-6) || math.Abs(up.LOS-down.LOS) > 1e-6 {
				t.Errorf("%v %s: [0, 5] says %+v, [5, 0] says %+v", p, m, up, down)
			}
		}
	}
	if _, ok := (SPRT{Alpha: 0.05, Beta: 0.05, Elo1: 5}).Sequential(Pentanomial{}); ok {
		t.Error("an estimate without pairs")
	}
}
