package engine

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
)

// near fails unless got is within 1e-12 of want (NaN fails).
func near(t testing.TB, what string, got, want float64) {
	t.Helper()
	if !(math.Abs(got-want) <= 1e-12*max(1, math.Abs(want))) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// stats builds one mode's statistics from its results.
func statsOf(xs ...float64) modeStats {
	var m modeStats
	for _, x := range xs {
		m.add(x)
	}
	return m
}

func TestModeStats(t *testing.T) {
	m := statsOf(2, 4, 9)
	near(t, "mean", m.mean(), 5)
	// Sample variance 13, variance of the mean 13/3.
	near(t, "variance of the mean", m.varMean(), 13.0/3)
	near(t, "one result", statsOf(7).varMean(), 0)
	near(t, "equal results", statsOf(3, 3, 3, 3).varMean(), 0)
}

// TestCombine weighs modes by their weights among the modes played, combines
// the variances of their means and counts every game once.
func TestCombine(t *testing.T) {
	genes := []float64{0.5}
	tests := []struct {
		name    string
		st      [nModes]modeStats
		weights [nModes]float64
		fit     float64
		varMean float64
		games   int
	}{
		{"one mode", [nModes]modeStats{statsOf(2, 4, 9)}, [nModes]float64{1, 0, 0}, 5, 13.0 / 3, 3},
		{"two modes weighted 3:1",
			[nModes]modeStats{statsOf(2, 4, 9), statsOf(0, 1)}, [nModes]float64{3, 1, 0},
			0.75*5 + 0.25*0.5, 0.75*0.75*13.0/3 + 0.25*0.25*0.25, 5},
		{"a mode without games does not count",
			[nModes]modeStats{statsOf(2, 4, 9), {}, statsOf(1, 1)}, [nModes]float64{1, 5, 1},
			0.5*5 + 0.5*1, 0.25 * 13.0 / 3, 5},
		{"a mode of weight 0 does not count",
			[nModes]modeStats{statsOf(2, 4, 9), statsOf(100, 200)}, [nModes]float64{2, 0, 0}, 5, 13.0 / 3, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := combine(genes, 4, tc.st, tc.weights)
			near(t, "fitness", m.Fitness, tc.fit)
			half := 1.959963984540054 * math.Sqrt(tc.varMean)
			near(t, "lower bound", m.CI95[0], tc.fit-half)
			near(t, "upper bound", m.CI95[1], tc.fit+half)
			if m.Games != tc.games || m.Generation != 4 || &m.Genes[0] != &genes[0] {
				t.Errorf("games %d, generation %d; want %d, 4 and the same genes", m.Games, m.Generation, tc.games)
			}
		})
	}
}

// TestPool combines two evaluations of one genome by their games.
func TestPool(t *testing.T) {
	a := Member{Genes: []float64{1}, Figure: fitness.Figure{Fitness: 40, Games: 30, CI95: [2]float64{38, 42}}, Generation: 2}
	b := Member{Genes: []float64{1}, Figure: fitness.Figure{Fitness: 50, Games: 10, CI95: [2]float64{46, 54}}, Generation: 5}
	p := mergeEvaluations(a, b)
	near(t, "fitness", p.Fitness, 0.75*40+0.25*50)
	half := math.Sqrt(0.75*0.75*4 + 0.25*0.25*16)
	near(t, "lower bound", p.CI95[0], p.Fitness-half)
	near(t, "upper bound", p.CI95[1], p.Fitness+half)
	if p.Games != 40 || p.Generation != 2 {
		t.Errorf("games %d from generation %d, want 40 from 2", p.Games, p.Generation)
	}
}

func TestGenerationStats(t *testing.T) {
	r := &runner{}
	sorted := []Member{{Figure: fitness.Figure{Fitness: 1}}, {Figure: fitness.Figure{Fitness: 3}}, {Figure: fitness.Figure{Fitness: 8}}}
	s := r.stats(6, sorted, 120)
	if s.Generation != 7 || s.Best != 1 || s.Games != 120 {
		t.Errorf("stats %+v, want generation 7, best 1, 120 games", s)
	}
	near(t, "mean", s.Mean, 4)
	near(t, "sd", s.SD, math.Sqrt(13))
	one := r.stats(0, []Member{{Figure: fitness.Figure{Fitness: 5}}}, 3)
	near(t, "sd of one", one.SD, 0)
	near(t, "mean of one", one.Mean, 5)
}

func TestHistoryCSV(t *testing.T) {
	got := string(historyCSV([]GenStats{
		{Generation: 1, Best: 44.5, Mean: 50.125, SD: 3.25, Games: 1200},
		{Generation: 2, Best: 1.0 / 3, Mean: 0.5, SD: 0, Games: 7},
	}))
	want := "generation,best,mean,sd,games\n1,44.5,50.125,3.25,1200\n2,0.3333333333,0.5,0,7\n"
	if got != want {
		t.Errorf("csv:\n%s\nwant:\n%s", got, want)
	}
}

func TestMemberJSON(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		ok         bool
	}{
		{"one game in generation 0", `{"genes": [0.5], "fitness": 3, "games": 1, "ci95": [1, 5], "generation": 0}`, true},
		{"no games", `{"genes": [0.5], "fitness": 3, "games": 0, "ci95": [1, 5], "generation": 0}`, false},
		{"generation -1", `{"genes": [0.5], "fitness": 3, "games": 1, "ci95": [1, 5], "generation": -1}`, false},
		{"no genes", `{"fitness": 3, "games": 1, "ci95": [1, 5], "generation": 0}`, false},
		{"no fitness", `{"genes": [0.5], "games": 1, "ci95": [1, 5], "generation": 0}`, false},
		{"no games field", `{"genes": [0.5], "fitness": 3, "ci95": [1, 5], "generation": 0}`, false},
		{"no generation", `{"genes": [0.5], "fitness": 3, "games": 1, "ci95": [1, 5]}`, false},
		{"an unknown field", `{"genes": [0.5], "fitness": 3, "games": 1, "ci95": [1, 5], "generation": 0, "x": 1}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m Member
			err := json.Unmarshal([]byte(tc.text), &m)
			if (err == nil) != tc.ok {
				t.Fatalf("err = %v, want ok %v", err, tc.ok)
			}
			if tc.ok && (m.Games != 1 || m.Fitness != 3 || m.CI95 != [2]float64{1, 5} || len(m.Genes) != 1 || m.Generation != 0) {
				t.Fatalf("read %+v", m)
			}
		})
	}
}

// TestPopulationScoresSumToOne: in population games between two
// individuals whose games go either way, each game's score goes to one
// and its complement to the other: the two fitnesses sum to 1, and
// neither is 0 or 1 (a pair where one side wins every game cannot tell
// the complement from the score itself).
func TestPopulationScoresSumToOne(t *testing.T) {
	text := strings.Replace(modeConfig("  objective: score\n  population: {opponents: 1, games: 40}\n", "  elitism: 0\n"),
		"population: 6", "population: 2", 1)
	text = strings.Replace(text, "tournament-size: 2", "tournament-size: 1", 1)
	text = strings.Replace(text, "{hit_weight: 1, jitter: 0.25}", "{jitter: 0.2}", 1)
	cfg := loadText(t, t.TempDir(), text)
	r := startRunner(t, cfg, Options{Dir: t.TempDir(), Workers: 2})
	members, err := r.evaluate(context.Background(), 0, firstGeneration(t, r), [][]Member{nil})
	if err != nil {
		t.Fatal(err)
	}
	a, b := members[0][0], members[0][1]
	if !(a.Fitness > 0 && a.Fitness < 1 && b.Fitness > 0 && b.Fitness < 1) {
		t.Fatalf("fitness %v and %v: want games that go either way", a.Fitness, b.Fitness)
	}
	if math.Abs(a.Fitness+b.Fitness-1) > 1e-12 {
		t.Fatalf("fitness %v and %v: want a sum of 1", a.Fitness, b.Fitness)
	}
}
