package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/internal/english"
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
		// One step past each bound.
		{"stop: {window: -1}", "stop.window: -1"},
		{fmt.Sprintf("stop: {window: %d}", config.MaxGenerations+1), fmt.Sprintf("stop.window: %d", config.MaxGenerations+1)},
		{"stop: {confidence: 0.4999}", "stop.confidence: 0.4999: want a probability"},
		{"stop: {confidence: -0.9}", "stop.confidence: -0.9"},
		{"stop: {games: -1}", "stop.games: -1"},
	} {
		text := strings.Replace(flatConfig, "stop:\n  window: 4\n", tc.stop+"\n", 1)
		if _, err := parse("c.yaml", []byte(text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.stop, err, tc.want)
		}
	}
}

// TestStopRuleReadsTheLastWindow: the trend is fitted to the last window
// of generations, not the first: a run that improved fast at first and
// has been flat since stops (fitted to the first window it would never
// stop), and one that was flat at first and improves now goes on.
func TestStopRuleReadsTheLastWindow(t *testing.T) {
	rows := func(means ...float64) []GenStats {
		var h []GenStats
		for i, m := range means {
			h = append(h, GenStats{Generation: i + 1, Mean: m, Games: 100})
		}
		return h
	}
	cfg := loadText(t, t.TempDir(), strings.Replace(flatConfig, "stop:\n  window: 4\n", "stop: {window: 4, confidence: 0.9}\n", 1))
	for _, tc := range []struct {
		name  string
		h     []GenStats
		stops bool
	}{
		// Costs: lower is better.
		{"fast at first, flat since", rows(90, 80, 70, 60, 50, 50.5, 49.5, 50.2, 49.8), true},
		{"flat at first, falling since", rows(50, 50.5, 49.5, 50.2, 49.8, 45, 40, 35, 30), false},
		{"falling, then one generation flat: the window still falls", rows(90, 80, 70, 60, 50, 40, 30, 30), false},
		{"exactly the window, flat", rows(50, 50.5, 49.5, 50.2), true},
		{"perfectly flat", rows(50, 50, 50, 50, 50), true},
		{"perfectly falling", rows(50, 49, 48, 47, 46), false},
		{"perfectly rising", rows(46, 47, 48, 49, 50), true},
		{"exactly the window, falling", rows(50, 40, 30, 20), false},
		{"a generation short of the window", rows(50, 50, 50), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			why := cfg.Stopped(tc.h)
			if got := why != nil; got != tc.stops {
				t.Fatalf("stops %v (%v), want %v", got, why, tc.stops)
			}
			if why == nil {
				return
			}
			last := tc.h[len(tc.h)-4:]
			slope, se, _ := trend(last)
			if why.Rule != "trend" || why.Generation != len(tc.h) || why.Window != 4 || why.Confidence != 0.9 ||
				why.Slope != slope || why.SlopeSE != se || why.Games != 100*len(tc.h) {
				t.Fatalf("reason %+v; want the trend of the last 4 generations (slope %v +- %v) at %d games", why, slope, se, 100*len(tc.h))
			}
		})
	}
}

// TestStopGamesReachedExactly: stop.games ends the run after the
// generation that brings its games to the budget, reached exactly or
// passed, and not before: at 10 x 30 games a generation, a budget of
// 1,200 games ends the fourth generation (a rule that wanted more than
// the budget would run a fifth), 1,201 the fifth, 300 the first.
func TestStopGamesReachedExactly(t *testing.T) {
	for _, tc := range []struct {
		games, generation int
	}{{1200, 4}, {1199, 4}, {1201, 5}, {300, 1}, {301, 2}, {1, 1}} {
		t.Run(fmt.Sprint(tc.games), func(t *testing.T) {
			text := strings.Replace(flatConfig, "stop:\n  window: 4\n", fmt.Sprintf("stop: {games: %d}\n", tc.games), 1)
			res, err := Start(context.Background(), loadText(t, t.TempDir(), text), Options{Dir: t.TempDir(), Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			if res.Final == nil {
				t.Fatalf("stop.games %d: the run did not finish: %+v", tc.games, res)
			}
			stopped := res.Setup.Stopped(res.Final.History)
			if res.Generation != tc.generation || stopped == nil || stopped.Rule != "games" ||
				stopped.Generation != tc.generation || stopped.Games != 300*tc.generation {
				t.Fatalf("stop.games %d: ended at generation %d, %+v; want generation %d at %d games", tc.games, res.Generation, stopped, tc.generation, 300*tc.generation)
			}
			want := fmt.Sprintf("stopped after generation %d: %s played, the budget of stop.games", tc.generation, english.Count(300*tc.generation, "game"))
			if got := stopped.String(); got != want {
				t.Errorf("%q, want %q", got, want)
			}
		})
	}
}

// TestStopConfigAtItsBounds: each key of stop: at its bound is taken, and
// what the run then does is the key's: a window of 3 fits a line on one
// degree of freedom; confidence 0.5 asks only that the line slope the
// right way; a budget of one game ends the first generation.
func TestStopConfigAtItsBounds(t *testing.T) {
	rows := func(means ...float64) []GenStats {
		var h []GenStats
		for i, m := range means {
			h = append(h, GenStats{Generation: i + 1, Mean: m, Games: 10 * (i + 1)})
		}
		return h
	}
	for _, tc := range []struct {
		stop  string
		h     []GenStats
		stops bool
	}{
		// Costs falling over the last 3 by 1 +- 0.577 a generation:
		// t 1.73 on 1 degree of freedom, above Student's 0.8 quantile
		// (1.376) and below its 0.9 (3.078): the run goes on at 0.8 and
		// stops at 0.9.
		{"stop: {window: 3, confidence: 0.8}", rows(50, 50, 49, 47, 47), false},
		{"stop: {window: 3, confidence: 0.9}", rows(50, 50, 49, 47, 47), true},
		// At 0.5 any slope the right way goes on, a flat or wrong one
		// stops.
		{"stop: {window: 4, confidence: 0.5}", rows(50, 49.9, 50.4, 49.6, 49.8), false},
		{"stop: {window: 4, confidence: 0.5}", rows(50, 49.6, 49.9, 50.4, 49.8), true},
		{fmt.Sprintf("stop: {window: 4, confidence: %v}", math.Nextafter(1, 0)), rows(50, 40, 30, 20.5, 10), true},
		{fmt.Sprintf("stop: {window: %d}", config.MaxGenerations), rows(50, 40, 30), false},
		{"stop: {games: 1}", rows(50), true},
		{"stop: {games: 30}", rows(50, 40), true},
		{"stop: {games: 31}", rows(50, 40), false},
	} {
		t.Run(tc.stop+fmt.Sprint(len(tc.h)), func(t *testing.T) {
			text := strings.Replace(flatConfig, "stop:\n  window: 4\n", tc.stop+"\n", 1)
			cfg := loadText(t, t.TempDir(), text)
			why := cfg.Stopped(tc.h)
			if got := why != nil; got != tc.stops {
				t.Fatalf("stops %v (%v), want %v", got, why, tc.stops)
			}
			// The games the reason gives are every generation's, 10, 20,
			// 30... a generation.
			if why != nil && why.Games != 5*len(tc.h)*(len(tc.h)+1) {
				t.Fatalf("reason %+v: games %d, want the history's %d", why, why.Games, 5*len(tc.h)*(len(tc.h)+1))
			}
		})
	}
}
