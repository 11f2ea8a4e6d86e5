package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// flatConfig evolves coin players whose cost is pure noise (slope 0):
// no generation can improve on another, so the trend rule must stop the
// run long before its budget of 40.
const flatConfig = `seed: 2
game: coin
rules: {own: 6}
player: tuned
fitness:
  baselines:
    games: 30
evolution:
  population: 10
  generations: 40
  tournament-size: 2
remeasure:
  top: 2
  games: 200
stop:
  window: 4
`

func TestStopRuleEndsAFlatRun(t *testing.T) {
	dir := t.TempDir()
	res, err := Start(context.Background(), loadText(t, t.TempDir(), flatConfig), Options{Dir: dir, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Summary
	if s == nil || s.Stopped == nil || s.Stopped.Rule != "trend" || res.Generation >= 40 || res.Generation < 4 {
		t.Fatalf("a run without improvement: ended at generation %d, summary %+v", res.Generation, s)
	}
	ck, _, err := ReadCheckpoint(dir)
	if err != nil {
		t.Fatal(err)
	}
	if ck.Generation != res.Generation || ck.Verdict == nil || len(ck.History) != res.Generation {
		t.Fatalf("checkpoint at generation %d with verdict %v; the run ended at %d", ck.Generation, ck.Verdict, res.Generation)
	}
	for _, row := range ck.History {
		if row.MeanSE <= 0 {
			t.Fatalf("generation %d recorded no standard error of its mean", row.Generation)
		}
	}
	// The rule did not fire a generation earlier.
	if why := loadText(t, t.TempDir(), flatConfig).stopRule(ck.History[:len(ck.History)-1]); why != nil {
		t.Fatalf("the rule fires at generation %d too, but the run went on", len(ck.History)-1)
	}
	// Resumed, the finished run stays finished.
	again, err := Resume(context.Background(), Options{Dir: dir, Workers: 1})
	if err != nil || again.Generation != res.Generation || again.Summary == nil || again.Summary.Stopped == nil {
		t.Fatalf("resume of a run the rule ended: %+v, %v", again, err)
	}
}

// TestStopRuleResumesExactly: stopped by Ctrl-C at every generation and
// resumed, at 1 and 2 workers, the run ends where and as a straight run
// does.
func TestStopRuleResumesExactly(t *testing.T) {
	cfgDir := t.TempDir()
	straight := t.TempDir()
	res, err := Start(context.Background(), loadText(t, cfgDir, flatConfig), Options{Dir: straight, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := readRun(t, straight)
	for after := 1; after < res.Generation; after++ {
		dir := t.TempDir()
		stop := make(chan struct{})
		_, err := Start(context.Background(), loadText(t, cfgDir, flatConfig), Options{Dir: dir, Workers: 1, Stop: stop, Progress: &stopAt{after: after, stop: stop}})
		if !errors.Is(err, ErrStopped) {
			t.Fatalf("stop after %d: err %v", after, err)
		}
		if _, err := Resume(context.Background(), Options{Dir: dir, Workers: 2}); err != nil {
			t.Fatal(err)
		}
		sameRun(t, want, readRun(t, dir), "stopped and resumed")
	}
}

func TestStopGamesBudget(t *testing.T) {
	text := strings.Replace(flatConfig, "stop:\n  window: 4\n", "stop:\n  window: 0\n  games: 1000\n", 1)
	res, err := Start(context.Background(), loadText(t, t.TempDir(), text), Options{Dir: t.TempDir(), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	// 10 individuals x 30 games a generation: 1,000 games are reached
	// in the fourth.
	if res.Generation != 4 || res.Summary.Stopped == nil || res.Summary.Stopped.Rule != "games" || res.Summary.Games != 1200 {
		t.Fatalf("ended at generation %d, %+v", res.Generation, res.Summary)
	}
}

// TestStopRuleDecides: the rule reads the last window of the history:
// it lets an improving run go on, in either direction, and ends one
// whose trend is flat or worsening, or unsure at the confidence asked.
func TestStopRuleDecides(t *testing.T) {
	rows := func(slope, se float64) []GenStats {
		var h []GenStats
		for g := 1; g <= 10; g++ {
			h = append(h, GenStats{Generation: g, Mean: 50 + slope*float64(g), MeanSE: se, Games: 100})
		}
		return h
	}
	for _, tc := range []struct {
		name       string
		objective  string
		h          []GenStats
		stops      bool
		window     int
		confidence float64
	}{
		{"cost falling", "cost", rows(-1, 0.5), false, 4, 0.95},
		{"cost flat", "cost", rows(0, 0.5), true, 4, 0.95},
		{"cost rising", "cost", rows(1, 0.5), true, 4, 0.95},
		{"score rising", "score", rows(0.01, 0.001), false, 4, 0.95},
		{"score falling", "score", rows(-0.01, 0.001), true, 4, 0.95},
		// -0.3 a generation over 4 with se 0.5: t 1.34, between the
		// quantiles of 0.8 (0.84) and 0.95 (1.64).
		{"unsure, asked for 0.95", "cost", rows(-0.3, 0.5), true, 4, 0.95},
		{"unsure, asked for 0.8", "cost", rows(-0.3, 0.5), false, 4, 0.8},
		{"shorter than the window", "cost", rows(0, 0.5)[:3], false, 4, 0.95},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.Replace(flatConfig, "stop:\n  window: 4\n", fmt.Sprintf("stop: {window: %d, confidence: %v}\n", tc.window, tc.confidence), 1)
			if tc.objective == "score" {
				text = strings.Replace(text, "  baselines:\n    games: 30\n", "  objective: score\n  baselines:\n    opponents: [even]\n    games: 30\n", 1)
			}
			cfg := loadText(t, t.TempDir(), text)
			if got := cfg.stopRule(tc.h) != nil; got != tc.stops {
				t.Errorf("stops %v, want %v", got, tc.stops)
			}
		})
	}
}

func TestTrend(t *testing.T) {
	rows := []GenStats{{Generation: 3, Mean: 10, MeanSE: 1}, {Generation: 4, Mean: 9.5, MeanSE: 1}, {Generation: 5, Mean: 9, MeanSE: 1}, {Generation: 6, Mean: 8.5, MeanSE: 1}}
	slope, se := trend(rows)
	// x: 3..6, mean 4.5, sum of squares 5: se 1/sqrt 5.
	if math.Abs(slope+0.5) > 1e-12 || math.Abs(se-1/math.Sqrt(5)) > 1e-12 {
		t.Errorf("slope %v +- %v, want -0.5 +- %v", slope, se, 1/math.Sqrt(5))
	}
	// A noisier row counts for less.
	rows[3].Mean, rows[3].MeanSE = 20, 100
	if slope, _ := trend(rows); math.Abs(slope+0.5) > 0.01 {
		t.Errorf("a row of standard error 100 pulled the slope to %v", slope)
	}
	// Without noise: equal weights, no standard error.
	for i := range rows {
		rows[i].MeanSE = 0
	}
	if _, se := trend(rows); se != 0 {
		t.Errorf("rows without noise: se %v", se)
	}
}

func TestStopConfigErrors(t *testing.T) {
	for _, tc := range []struct{ stop, want string }{
		{"stop: {window: 1}", "stop.window: 1: want 0 (no trend rule) or from 2"},
		{"stop: {confidence: 1}", "stop.confidence: 1: want a probability"},
		{"stop: {games: -5}", "stop.games: -5"},
		{"stop: {window: 0}", "stop: neither a window nor a budget of games"},
		{"stop: {patience: 3}", "stop.patience: unknown key"},
	} {
		text := strings.Replace(flatConfig, "stop:\n  window: 4\n", tc.stop+"\n", 1)
		if _, err := Parse("c.yaml", []byte(text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.stop, err, tc.want)
		}
	}
}
