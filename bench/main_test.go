package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evotune/evotune/bench/quality"

	"github.com/evotune/evotune/rundir"
)

func TestMedianGames(t *testing.T) {
	const out = math.MaxInt // a run out of budget
	tests := []struct {
		name string
		done []int
		want string
	}{
		{"none finished", nil, "—"},
		{"all reached, odd", []int{900, 100, 500}, "500"},
		{"all reached, even", []int{100, 300, 500, 900}, "400"},
		{"one of five out of budget", []int{100, out, 300, 200, 400}, "300"},
		{"three of five out of budget", []int{100, out, out, 200, out}, "> 1000"},
		{"the upper middle of four out of budget", []int{100, out, out, 200}, ">= 200"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := medianGames(tc.done, 1000); got != tc.want {
				t.Errorf("medianGames(%v) = %q, want %q", tc.done, got, tc.want)
			}
		})
	}
}

// TestRunOneResumes runs a two-generation benchmark run, runs it again
// (it is finished: nothing is added), then loses the last line of its log
// (a kill before the append) and runs it again: the generation is
// measured anew, to the same record.
func TestRunOneResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 60,000 games")
	}
	tk := battleship
	if err := tk.load(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	m := methods[3] // cmaes: its state lives only in the replay
	budget := 2 * tk.perGeneration
	ctx := context.Background()
	if err := tk.runOne(ctx, dir, m, 1, budget, 2); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, m.name, "seed1.jsonl")
	first, err := readLog(log)
	if err != nil || len(first) != 2 {
		t.Fatalf("%d records (%v), want 2", len(first), err)
	}
	if err := tk.runOne(ctx, dir, m, 1, budget, 1); err != nil {
		t.Fatal(err)
	}
	if again, _ := readLog(log); len(again) != 2 {
		t.Fatalf("a finished run went on: %d records", len(again))
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	cut := strings.Index(string(data), "\n") + 1
	if err := os.WriteFile(log, data[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := tk.runOne(ctx, dir, m, 1, budget, 1); err != nil {
		t.Fatal(err)
	}
	got, _ := readLog(log)
	if len(got) != 2 || got[1] != first[1] {
		t.Fatalf("records after the lost line:\n%+v\nwant\n%+v", got, first)
	}
}

// TestMeasuresPlayTheRunsGame: the game re-measures play is the one the
// runs' config builds, rules included (Hadron at depth 2, not the
// game's default depth 4).
func TestMeasuresPlayTheRunsGame(t *testing.T) {
	for _, tk := range []task{battleship, hadron} {
		t.Run(tk.name, func(t *testing.T) {
			if err := tk.load(); err != nil {
				t.Fatal(err)
			}
			cfg, err := quality.Load("x.yaml", []byte(fmt.Sprintf(tk.config, 3, "  model: cmaes\n", "")))
			if err != nil {
				t.Fatal(err)
			}
			// The games' settings as printed, addresses left out.
			addr := regexp.MustCompile(`0x[0-9a-f]+`)
			show := func(g any) string { return addr.ReplaceAllString(fmt.Sprintf("%+v", g), "") }
			if got, want := show(tk.game), show(cfg.Game()); got != want {
				t.Errorf("measures play %s, the runs %s", got, want)
			}
		})
	}
}

func TestSavedGames(t *testing.T) {
	for _, tc := range []struct {
		name, csv string
		gens      int
		want      int
		err       bool
	}{
		{"without racing", "generation,best,mean,sd,games\n1,45,50,3,3200\n2,44,49,3,3200\n", 2, 0, false},
		{"with racing, up to the measured generation", "generation,best,mean,sd,games,saved\n1,45,50,3,1400,1800\n2,44,49,3,2000,1200\n3,44,49,3,3000,200\n", 2, 3000, false},
		{"a torn row", "generation,best,mean,sd,games,saved\n1,45,50,3,1400\n", 1, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, rundir.GenerationsFile), []byte(tc.csv), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := savedGames(dir, tc.gens)
			if (err != nil) != tc.err || got != tc.want {
				t.Fatalf("savedGames = %d, %v; want %d (error: %v)", got, err, tc.want, tc.err)
			}
		})
	}
}

func TestMedianReached(t *testing.T) {
	for _, tc := range []struct {
		name  string
		runs  []outcome
		seeds int
		want  int
		ok    bool
	}{
		{"all reached", []outcome{{games: 300, reached: true}, {games: 100, reached: true}, {games: 200, reached: true}}, 3, 200, true},
		{"one of three out of budget", []outcome{{games: 300, reached: true}, {games: 900, done: true}, {games: 100, reached: true}}, 3, 300, true},
		{"the upper middle out of budget", []outcome{{games: 300, reached: true}, {games: 900, done: true}}, 2, 0, false},
		{"a seed still running", []outcome{{games: 300, reached: true}}, 2, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := medianReached(tc.runs, tc.seeds)
			if got != tc.want || ok != tc.ok {
				t.Fatalf("medianReached = %d, %v; want %d, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestRacingTable(t *testing.T) {
	plain := []outcome{
		{seed: 1, games: 40000, reached: true, done: true, figure: 44.9},
		{seed: 2, games: 20000, reached: true, done: true, figure: 44.7},
		{seed: 3, games: 320000, done: true, figure: 45.4},
	}
	for _, tc := range []struct {
		name    string
		racing  []outcome
		want    []string
		medians bool // a seed both reached: the medians line
	}{
		{"both reached", []outcome{
			{seed: 1, games: 30000, reached: true, done: true, figure: 44.9, saved: 10000},
			{seed: 2, games: 15000, reached: true, done: true, figure: 44.6, saved: 5000},
		}, []string{
			"| 1 | 40000 | 30000 | 25% | 25% | 44.9 | 44.9 |",
			"| 2 | 20000 | 15000 | 25% | 25% | 44.7 | 44.6 |",
			"medians over the 2 seeds both reached: 30000 plain, 22500 racing (cut 25%); racing saved 25% of its runs' full budgets",
		}, true},
		{"out of budget and running", []outcome{
			{seed: 3, games: 300000, done: true, figure: 45.3, saved: 20000},
			{seed: 2, games: 9000, figure: 46, saved: 1000},
		}, []string{
			"| 3 | > 320000 | > 300000 | — | 6% | 45.4 | 45.3 |",
			"| 2 | 20000 | 9000 (running) | — | 10% | 44.7 | 46 |",
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			racingTable(&b, "generational", plain, tc.racing)
			for _, line := range tc.want {
				if !strings.Contains(b.String(), line) {
					t.Errorf("no line %q in\n%s", line, b.String())
				}
			}
			if got := strings.Contains(b.String(), "medians over"); got != tc.medians {
				t.Errorf("a medians line: %v, want %v:\n%s", got, tc.medians, b.String())
			}
		})
	}
}

// TestStopRuleVariant: the stopped runs of a rule other than the
// defaults keep their runs and records apart, named by its keys.
func TestStopRuleVariant(t *testing.T) {
	defer func(old string) { *stopRule = old }(*stopRule)
	for _, tc := range []struct{ rule, lines, variant string }{
		{"", "stop: {}\n", ""},
		{"window: 10", "stop: {window: 10}\n", "-window-10"},
		{"window: 10, confidence: 0.9", "stop: {window: 10, confidence: 0.9}\n", "-window-10-confidence-0.9"},
	} {
		*stopRule = tc.rule
		if stopLines() != tc.lines || variant() != tc.variant {
			t.Errorf("%q: lines %q, variant %q; want %q, %q", tc.rule, stopLines(), variant(), tc.lines, tc.variant)
		}
	}
}

// TestBadStopRuleRefusedAtOnce: a -stop-rule the configs refuse is said
// before any run, naming the key, and leaves no run behind.
func TestBadStopRuleRefusedAtOnce(t *testing.T) {
	defer func(old string) { *stopRule = old }(*stopRule)
	*stopRule = "window: 1"
	out := t.TempDir()
	t.Chdir("..") // the problems' configs are the repository's
	err := runStopBench(context.Background(), out, "quickstart", 1, 1, false)
	if err == nil || !strings.Contains(err.Error(), `-stop-rule "window: 1"`) || !strings.Contains(err.Error(), "stop.window") {
		t.Fatalf("got %v, want the refusal naming stop.window", err)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Fatalf("a refused rule left %d entries in the output directory", len(entries))
	}
}
