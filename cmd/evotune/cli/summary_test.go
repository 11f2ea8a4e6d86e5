package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/engine/runs"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness"
	"gopkg.in/yaml.v3"
)

// TestGenerationLineFits80Columns: at the extremes evotune allows (the
// largest budget, scores and costs of every size, games in millions, an
// ETA of days) a progress line names the direction and fits 80 columns,
// leaving out no figure: the longest put the hall of fame on a second
// line.
func TestGenerationLineFits80Columns(t *testing.T) {
	for _, tc := range []struct {
		lower bool
		s     engine.GenStats
		best  engine.Member
		eta   time.Duration
	}{
		{true, engine.GenStats{Best: 44.123456, Mean: 60.987654}, engine.Member{Figure: fitness.Figure{Fitness: 43.987654, CI95: [2]float64{43.1, 44.9}, Games: 4000}}, 51 * time.Second},
		{false, engine.GenStats{Best: 0.5123456, Mean: 0.4987654}, engine.Member{Figure: fitness.Figure{Fitness: 0.5123456, CI95: [2]float64{0.4912345, 0.5334567}, Games: 123_456_789}}, 99 * time.Hour},
		{true, engine.GenStats{Best: 123456.789, Mean: 1.23456789e12}, engine.Member{Figure: fitness.Figure{Fitness: 1.23456789e-7, CI95: [2]float64{-1.23456789e9, 1.23456789e9}, Games: 9_999_999_999}}, 10000 * time.Hour},
	} {
		line := generationLine(config.MaxGenerations, config.MaxGenerations, tc.lower, tc.s, tc.best, tc.eta)
		for _, l := range strings.Split(line, "\n") {
			if n := utf8.RuneCountInString(l); n > 80 {
				t.Errorf("%d columns: %q", n, l)
			}
		}
		for _, want := range []string{"best " + figure4(tc.s.Best), "mean " + figure4(tc.s.Mean), "hof " + figure4(tc.best.Fitness), "ETA "} {
			if !strings.Contains(line, want) {
				t.Errorf("%q leaves out %q", line, want)
			}
		}
		if want := map[bool]string{true: "lower=better", false: "higher=better"}[tc.lower]; !strings.Contains(line, want) {
			t.Errorf("%q does not say %q", line, want)
		}
	}
}

// TestRunSummary: a finished run says where it started, what it
// recommends on fresh deals, their paired difference, the games and the
// time, and a next command that runs; --json says the same; every
// progress line names the direction and fits 80 columns.
func TestRunSummary(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "small.yaml")
	if err := os.WriteFile(cfg, []byte(`name: small
game: battleship
player: tuned
seeds:
  - {}
fitness:
  baselines:
    games: 40
evolution:
  population: 6
  generations: 3
  tournament-size: 2
remeasure:
  top: 2
  games: 200
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	code, text, errs := run(t, "run", cfg, "--out", out, "--workers", "2")
	if code != ExitOK {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	gens := 0
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("a progress line of %d columns: %q", n, l)
		}
		if strings.HasPrefix(l, "gen ") {
			gens++
			if !strings.Contains(l, "lower=better") {
				t.Errorf("a generation line without the direction: %q", l)
			}
		}
	}
	if gens != 3 || !strings.Contains(errs, "shots: lower is better") {
		t.Errorf("%d generation lines, want 3, and the header:\n%s", gens, errs)
	}
	code, js, errs := run(t, "resume", out, "--json")
	if code != ExitOK {
		t.Fatalf("resume of the finished run: exit %d: %s", code, errs)
	}
	var s struct {
		runs.Summary
		WallSeconds float64 `json:"wall_seconds"`
	}
	if err := json.Unmarshal([]byte(js), &s); err != nil {
		t.Fatalf("%v:\n%s", err, js)
	}
	if s.Games != 3*6*40 || s.RemeasureGames != (2+2)*200 || s.Generations != 3 || !s.LowerIsBetter {
		t.Errorf("games %d, remeasure games %d, generations %d: want %d, %d and 3", s.Games, s.RemeasureGames, s.Generations, 3*6*40, 4*200)
	}
	if s.Start == nil || s.Start.Source != "first seed" || s.Start.Fresh == nil || s.Best.Fresh == nil || s.Difference == nil {
		t.Fatalf("summary without the start, the fresh figure or the difference:\n%s", js)
	}
	if d := s.Difference.Value - (s.Best.Fresh.Fitness - s.Start.Fresh.Fitness); d > 1e-9 || d < -1e-9 {
		t.Errorf("difference %v, fresh figures %v and %v", s.Difference.Value, s.Best.Fresh.Fitness, s.Start.Fresh.Fitness)
	}
	for _, want := range []string{
		"start (first seed): ",
		"recommended (hall of fame #",
		"recommended - start: ",
		"paired on the same deals",
		"best parameters: " + s.BestFile,
		"next: " + s.Next,
		"on 200 fresh games no selection saw",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
	// The next command runs.
	args := strings.Fields(s.Next)
	if args[0] != "evotune" {
		t.Fatalf("next %q", s.Next)
	}
	args = append(args[1:], "--games", "40", "--workers", "2")
	if args[0] == "sprt" {
		args = append(args[:len(args)-4], "--max-games", "200", "--workers", "2")
	}
	if code, _, errs := run(t, args...); code == ExitFailure || code == ExitUsage {
		t.Errorf("next command %q: exit %d: %s", strings.Join(args, " "), code, errs)
	}
}

// TestETACountsGamesLeft: the ETA is the games left (the generations to
// come and the remeasure) at the rate games have been played, not the
// generations left at the time one took.
func TestETACountsGamesLeft(t *testing.T) {
	var b strings.Builder
	clock := time.Unix(0, 0)
	p := &runProgress{w: &b, now: func() time.Time { return clock }}
	p.Begin(engine.RunInfo{Objective: "shots", LowerIsBetter: true, Budget: 10, EndGames: 500})
	p.StartGeneration(0, 10, 1000)
	clock = clock.Add(10 * time.Second) // 100 games/s
	p.EndGeneration(0, engine.GenStats{Games: 1000, Best: 44, Mean: 50}, engine.Member{Figure: fitness.Figure{Fitness: 44, CI95: [2]float64{43, 45}, Games: 1000}})
	// 9 generations of 1,000 games and 500 to remeasure: 95 s, not the
	// 90 s of 9 generations at 10 s each.
	if !strings.Contains(b.String(), "ETA 1m35s\n") {
		t.Errorf("want ETA 1m35s:\n%s", b.String())
	}
}

func TestSignedInterval(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		ci   [2]float64
		want string
	}{
		{-0.6074, [2]float64{-0.8436, -0.3712}, "-0.61 [-0.84, -0.37]"},
		{0.0485, [2]float64{0.0453, 0.0518}, "+0.0485 [+0.0453, +0.0518]"},
		{-12.3, [2]float64{-40, 15}, "-12 [-40, +15]"},
		{0.5, [2]float64{0.5, 0.5}, "+0.50 [+0.50, +0.50]"},
		{1, [2]float64{0, 2.5}, "+1.0 [+0.0, +2.5]"},
	} {
		if got := signedInterval(tc.v, tc.ci); got != tc.want {
			t.Errorf("signedInterval(%v, %v) = %q, want %q", tc.v, tc.ci, got, tc.want)
		}
	}
}

// TestSummaryNamesTheModelsPick: a run whose model's own recommendation
// (spsa's theta, which selection never played) wins the remeasure says
// so where a hall-of-fame rank would stand, and best.yaml's first is
// theta, marked as the model's.
func TestSummaryNamesTheModelsPick(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "spsa.yaml")
	if err := os.WriteFile(cfg, []byte("seed: 3\ngame: battleship\nplayer: tuned\nfitness:\n  baselines: {games: 12}\n"+
		"evolution:\n  model: spsa\n  population: 6\n  generations: 4\n  spsa-r-end: 0.05\nremeasure: {top: 2, games: 40}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	code, stdout, stderr := run(t, "run", cfg, "--out", out, "--quiet", "--workers", "2")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"  recommended (model spsa's own recommendation after generation 4): ",
		"    (selection never played it; the remeasure chose it; the fresh figure chose nothing)\n"} {
		if !strings.Contains(stdout, want) {
			t.Fatalf("the summary lacks %q:\n%s", want, stdout)
		}
	}
	data, err := os.ReadFile(filepath.Join(out, "best.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var pf fitness.ParamsFile
	if err := yaml.Unmarshal(data, &pf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "# the remeasure's: selection never played it") {
		t.Errorf("best.yaml does not say theta's fitness is the remeasure's:\n%s", data)
	}
	if len(pf.Players) < 1 || pf.Players[0].From != "model spsa" || pf.Players[0].HallOfFameRank != 0 || pf.Players[0].Fresh == nil {
		t.Fatalf("best.yaml's first: %+v; want theta, from model spsa, with its fresh figure", pf.Players[0])
	}
}

// TestResumeSummarySaysWhatItPlayed: a resumed run's summary counts the
// whole run's games and says how many this process played in the time
// it gives; its next command names the program's directory as the
// first run's did (relative to here), not as the checkpoint records it.
func TestResumeSummarySaysWhatItPlayed(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "cfg"), 0o755); err != nil {
		t.Fatal(err)
	}
	rawbotConfig(t, filepath.Join(dir, "cfg"), nil, "")
	t.Chdir(dir)
	code, first, errs := run(t, "run", "cfg/walk.yaml", "--out", "r", "--generations", "1", "--quiet", "--workers", "2")
	if code != ExitOK {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	code, resumed, errs := run(t, "resume", "r", "--generations", "2", "--quiet", "--workers", "2")
	if code != ExitOK {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	if strings.Contains(first, "resumed") || !strings.Contains(firstLineWith(resumed, "generations"), "; resumed after generation 1, this process played ") {
		t.Errorf("the summaries' first lines:\n%s\n%s", firstLineWith(first, "generation"), firstLineWith(resumed, "generations"))
	}
	for _, out := range []string{first, resumed} {
		if next := firstLineWith(out, "next: "); !strings.Contains(next, " --dir cfg ") || strings.Contains(next, dir) {
			t.Errorf("next command %q, want --dir cfg", next)
		}
	}
}

// TestSummarySaysWhyTheStartIsEven: a start at 1/2 with an interval of no
// width is said to split every pair.
func TestSummarySaysWhyTheStartIsEven(t *testing.T) {
	f := fitness.Figure{Fitness: 0.5, Games: 400, CI95: [2]float64{0.5, 0.5}}
	s := &runs.Summary{Dir: "r", Objective: "score", Games: 100, Start: &runs.SummaryStart{Source: "defaults", Fresh: &f, Even: true},
		Best: runs.SummaryPlayer{HallOfFameRank: 1, Fresh: &fitness.Figure{Fitness: 0.55, Games: 400, CI95: [2]float64{0.52, 0.58}}}}
	var b strings.Builder
	if err := writeSummary(&b, s, time.Second, false); err != nil {
		t.Fatal(err)
	}
	if line := firstLineWith(b.String(), "start (defaults)"); !strings.Contains(line, "0.50 [0.50, 0.50]: every seat-swapped pair split even") {
		t.Errorf("the start's line: %q", line)
	}
	s.Start.Even = false
	b.Reset()
	_ = writeSummary(&b, s, time.Second, false)
	if strings.Contains(b.String(), "split even") {
		t.Errorf("a start not even is said to be:\n%s", b.String())
	}
}
