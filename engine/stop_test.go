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
	if res.Final == nil {
		t.Fatalf("a run without improvement did not finish: %+v", res)
	}
	stopped := res.Setup.Stopped(res.Final.History)
	if stopped == nil || stopped.Rule != "trend" || res.Generation >= 40 || res.Generation < 4 {
		t.Fatalf("a run without improvement: ended at generation %d, stopped %+v", res.Generation, stopped)
	}
	ck, _, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if ck.Generation != res.Generation || ck.Verdict == nil || len(ck.History) != res.Generation {
		t.Fatalf("checkpoint at generation %d with verdict %v; the run ended at %d", ck.Generation, ck.Verdict, res.Generation)
	}
	// The rule did not fire a generation earlier.
	if why := loadText(t, t.TempDir(), flatConfig).Stopped(ck.History[:len(ck.History)-1]); why != nil {
		t.Fatalf("the rule fires at generation %d too, but the run went on", len(ck.History)-1)
	}
	// Resumed, the finished run stays finished.
	again, err := Resume(context.Background(), Options{Dir: dir, Workers: 1})
	if err != nil || again.Generation != res.Generation || again.Final == nil || again.Setup.Stopped(again.Final.History) == nil {
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
	stopped := res.Setup.Stopped(res.Final.History)
	if res.Generation != 4 || stopped == nil || stopped.Rule != "games" || stopped.Games != 1200 {
		t.Fatalf("ended at generation %d, %+v", res.Generation, stopped)
	}
}

// TestStopRuleDecides: the rule fits a line to the last window of the
// history: it lets an improving run go on, in either direction, and ends
// one whose trend is flat or worsening, or unsure at the confidence
// asked.
func TestStopRuleDecides(t *testing.T) {
	// Means on a line of the slope, plus or minus noise at alternate
	// generations.
	rows := func(slope, noise float64) []GenStats {
		var h []GenStats
		for g := 1; g <= 10; g++ {
			e := noise
			if g%2 == 1 {
				e = -noise
			}
			h = append(h, GenStats{Generation: g, Mean: 50 + slope*float64(g) + e, Games: 100})
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
		{"cost falling", "cost", rows(-1, 0.1), false, 4, 0.95},
		{"cost flat", "cost", rows(0, 0.5), true, 4, 0.95},
		{"cost rising", "cost", rows(1, 0.5), true, 4, 0.95},
		{"score rising", "score", rows(0.01, 0.001), false, 4, 0.95},
		{"score falling", "score", rows(-0.01, 0.001), true, 4, 0.95},
		{"cost falling without noise", "cost", rows(-0.001, 0), false, 4, 0.95},
		// Over generations 7 to 10 the means of slope -0.4 and noise 0.5
		// fit a slope of -0.2 +- 0.283 (hand-worked in TestTrend) on 2
		// degrees of freedom: t 0.707, between Student's quantiles of 0.8
		// (1.061) and 0.7 (0.617).
		{"unsure, asked for 0.8", "cost", rows(-0.4, 0.5), true, 4, 0.8},
		{"unsure, asked for 0.7", "cost", rows(-0.4, 0.5), false, 4, 0.7},
		{"shorter than the window", "cost", rows(0, 0.5)[:3], false, 4, 0.95},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.Replace(flatConfig, "stop:\n  window: 4\n", fmt.Sprintf("stop: {window: %d, confidence: %v}\n", tc.window, tc.confidence), 1)
			if tc.objective == "score" {
				text = strings.Replace(text, "  baselines:\n    games: 30\n", "  objective: score\n  baselines:\n    opponents: [even]\n    games: 30\n", 1)
			}
			cfg := loadText(t, t.TempDir(), text)
			if got := cfg.Stopped(tc.h) != nil; got != tc.stops {
				t.Errorf("stops %v, want %v", got, tc.stops)
			}
		})
	}
}

func TestTrend(t *testing.T) {
	// On a line: slope -0.5, no scatter.
	rows := []GenStats{{Generation: 3, Mean: 10}, {Generation: 4, Mean: 9.5}, {Generation: 5, Mean: 9}, {Generation: 6, Mean: 8.5}}
	slope, se, df := trend(rows)
	if math.Abs(slope+0.5) > 1e-12 || se != 0 || df != 2 {
		t.Errorf("a line: slope %v +- %v on %d, want -0.5 +- 0 on 2", slope, se, df)
	}
	// Generations 7..10 of -0.4 a generation, -0.5 at odd generations and
	// +0.5 at even: x deviations -1.5, -0.5, 0.5, 1.5 (sum of squares 5)
	// against noise -0.5, 0.5, -0.5, 0.5 add 1/5 to the slope: -0.2;
	// residuals -0.2, 0.6, -0.6, 0.2, their sum of squares 0.8 over 2
	// degrees of freedom, 0.4; se sqrt(0.4/5) = 0.283.
	rows = nil
	for g := 7; g <= 10; g++ {
		e := 0.5
		if g%2 == 1 {
			e = -0.5
		}
		rows = append(rows, GenStats{Generation: g, Mean: 50 - 0.4*float64(g) + e})
	}
	slope, se, df = trend(rows)
	if math.Abs(slope+0.2) > 1e-9 || math.Abs(se-math.Sqrt(0.08)) > 1e-9 || df != 2 {
		t.Errorf("slope %v +- %v on %d, want -0.2 +- 0.283 on 2", slope, se, df)
	}
}

func TestStopConfigErrors(t *testing.T) {
	for _, tc := range []struct{ stop, want string }{
		{"stop: {window: 2}", "stop.window: 2: want 0 (no trend rule) or from 3"},
		{"stop: {confidence: 1}", "stop.confidence: 1: want a probability"},
		{"stop: {games: -5}", "stop.games: -5"},
		{"stop: {window: 0}", "stop: neither a window nor a budget of games"},
		{"stop: {patience: 3}", "stop.patience: unknown key"},
	} {
		text := strings.Replace(flatConfig, "stop:\n  window: 4\n", tc.stop+"\n", 1)
		if _, err := parse("c.yaml", []byte(text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.stop, err, tc.want)
		}
	}
}
