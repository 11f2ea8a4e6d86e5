package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestBudgetCountsTheRunsGames: the games Budget counts from the config
// are the games the run then plays, generation by generation, and at its
// end the remeasure's (on by default: its ranking and its second sample),
// for every model and fitness mode; where it says "at most" (racing, a
// hall of fame that fills over generations) the run plays no more, and
// racing's played and saved games add up to it.
func TestBudgetCountsTheRunsGames(t *testing.T) {
	type budgetCase struct {
		name, fitness, evolution string
		text                     string // the whole config, instead of the two above
		first, later             int    // 0: not checked
		atMost                   bool
	}
	var cases []budgetCase
	for _, tc := range modeCases {
		cases = append(cases, budgetCase{name: tc.name, fitness: tc.fitness, evolution: tc.evolution, first: tc.first, later: tc.later})
	}
	cases = append(cases,
		budgetCase{name: "remeasure", fitness: "  baselines: {games: 6, opponents: [random, blockhalf]}\n",
			evolution: "  elitism: 1\nremeasure: {top: 2, games: 10}\n", first: 6 * 12, later: 6 * 12},
		budgetCase{name: "remeasure off", fitness: "  baselines: {games: 6}\n",
			evolution: "  elitism: 1\nremeasure: off\n", first: 36, later: 36},
		budgetCase{name: "remeasure of one, head to head", fitness: "  objective: score\n  population: {opponents: 2, games: 4}\n",
			evolution: "  elitism: 1\nremeasure: {top: 1, games: 10}\n", first: 6 * 4, later: 6 * 4},
		budgetCase{name: "racing", fitness: "  baselines: {games: 40}\n", evolution: "  elitism: 1\nracing: {rounds: 3}\n", atMost: true},
		budgetCase{name: "a hall of fame that fills over generations",
			fitness:   "  objective: score\n  hall-of-fame: {members: 4, games: 2}\n  population: {opponents: 1, games: 2}\n",
			evolution: "  elitism: 1\n", atMost: true},
		budgetCase{name: "coevolution", fitness: "  baselines: {games: 4}\n  population: {opponents: 2, games: 2}\n  hall-of-fame: {members: 2, games: 2}\n",
			evolution: "  elitism: 1\ncoevolve: {player: tuned, opponents: [random]}\n"},
		// The field's tuners: spsa evaluates theta beside its pairs on a
		// solo measure, and head to head plays its own pairs (3 of 4 games),
		// not the seeded pairing.
		budgetCase{name: tunerCases[0].name, text: tunerCases[0].text, first: 7 * 12, later: 7 * 12},
		budgetCase{name: tunerCases[1].name, text: tunerCases[1].text, first: 3 * 4, later: 3 * 4},
		budgetCase{name: tunerCases[2].name, text: tunerCases[2].text, first: 5 * 12, later: 5 * 12},
	)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			text := tc.text
			if text == "" {
				text = modeConfig(tc.fitness, tc.evolution)
			}
			if tc.name == "a hall of fame that fills over generations" {
				text = strings.Replace(strings.Replace(text, "population: 6", "population: 2", 1), "tournament-size: 2", "tournament-size: 1", 1)
			}
			cfg := loadText(t, t.TempDir(), text)
			b, _ := cfg.BudgetOf(0)
			if tc.first != 0 && (b.First != tc.first || b.Later != tc.later) {
				t.Fatalf("first %d, later %d; want %d, %d", b.First, b.Later, tc.first, tc.later)
			}
			if b.AtMost != tc.atMost {
				t.Fatalf("at most %v, want %v", b.AtMost, tc.atMost)
			}
			dir := t.TempDir()
			if _, err := Start(context.Background(), cfg, Options{Dir: dir, Workers: 2}); err != nil {
				t.Fatal(err)
			}
			ck, _, err := ReadRun(dir)
			if err != nil {
				t.Fatal(err)
			}
			played, saved, remeasured := 0, 0, 0
			for _, h := range ck.History {
				played += h.Games
				saved += h.Saved
			}
			for _, st := range ck.states() {
				remeasured += st.EndGames()
			}
			got := int64(played + remeasured)
			desc := fmt.Sprintf("budget %+v; the run played %d (%d saved by racing) and remeasured %d", b, played, saved, remeasured)
			if remeasured != b.Remeasure {
				t.Fatal(desc)
			}
			switch {
			case tc.name == "racing":
				if got+int64(saved) != b.Total || saved == 0 {
					t.Fatal(desc)
				}
			case b.AtMost:
				if got > b.Total {
					t.Fatal(desc)
				}
			case got != b.Total:
				t.Fatal(desc)
			}
		})
	}
}

// TestTimeGames: the sample is of the config's own games, played and
// timed within its budget, with a positive cost and a standard error
// that makes an interval around it.
func TestTimeGames(t *testing.T) {
	cfg := loadText(t, t.TempDir(), smallConfig)
	tm, err := TimeGames(context.Background(), cfg, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if tm.Games < sampleUnits || tm.Mean <= 0 || tm.SE <= 0 || tm.AtLeast != 0 {
		t.Fatalf("%+v", tm)
	}
	mid, lo, hi := tm.Estimate(1000)
	if !(lo < mid && mid < hi) || mid != 1000*tm.Mean {
		t.Fatalf("estimate %v [%v, %v] of %+v", mid, lo, hi, tm)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := TimeGames(ctx, cfg, time.Second); err == nil {
		t.Fatal("a cancelled context timed games")
	}
}
