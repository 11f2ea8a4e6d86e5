package cli

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/evotune/evotune/engine"
)

// TestValidateSaysGamesAndCost: a good config's summary ends with the
// games its run plays and what they cost, timed on its own games.
func TestValidateSaysGamesAndCost(t *testing.T) {
	// 10 shooters x 40 games x 6 generations, then the remeasure: the best
	// 2 on 40 fresh games, the winner and the start on 40 more each.
	cfg := writeConfig(t, killConfig)
	code, out, errs := run(t, "validate", cfg)
	if code != ExitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "\n  games: 2,560, 400 a generation; 160 of them to remeasure the best at the end\n") {
		t.Fatalf("no games line:\n%s", out)
	}
	cost := regexp.MustCompile(`\n  cost: about [0-9.]+ (s|min) of CPU, 95% interval [0-9.]+ (s|min) to [0-9.]+ (s|min) from [0-9]+ games timed here(; about [0-9.]+ (s|min) on [0-9]+ cores)?; players that evolution finds may play faster or slower\n$`)
	if !cost.MatchString(out) {
		t.Fatalf("no cost line:\n%s", out)
	}
}

func TestBudgetAndCostText(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"constant", budgetText(engine.Budget{Generations: 25, First: 20000, Later: 20000, Total: 500000}), "500,000, 20,000 a generation"},
		{"one generation", budgetText(engine.Budget{Generations: 1, First: 720, Total: 720}), "720, 720 a generation"},
		{"a hall of fame", budgetText(engine.Budget{Generations: 20, First: 720, Later: 1200, Total: 23520}),
			"23,520: 720 in the first generation, then up to 1,200 a generation as the hall of fame fills"},
		{"racing and remeasure", budgetText(engine.Budget{Generations: 12, First: 20000, Later: 20000, Remeasure: 30000, Total: 270000, AtMost: true}),
			"at most 270,000, 20,000 a generation; 30,000 of them to remeasure the best at the end"},
		{"CPU", costText(engine.Timing{Games: 400, Mean: 84 * time.Microsecond, SE: time.Microsecond, CPU: true},
			costEstimate{Seconds: 42, CI95: [2]float64{41, 43}, CPU: true, Cores: 2, OnCores: 21}),
			"about 42 s of CPU, 95% interval 41 s to 43 s from 400 games timed here; about 21 s on 2 cores; players that evolution finds may play faster or slower"},
		{"wall, one core", costText(engine.Timing{Games: 320, Mean: time.Millisecond},
			costEstimate{Seconds: 300, CI95: [2]float64{280, 320}, Cores: 1, OnCores: 300}),
			"about 5 min of one worker's wall time (an outside program's work is in processes of its own), 95% interval 4.7 min to 5.3 min from 320 games timed here; players that evolution finds may play faster or slower"},
		{"no game finished", costText(engine.Timing{AtLeast: 5 * time.Second, CPU: true},
			costEstimate{Seconds: 5000, CI95: [2]float64{5000, 5000}, CPU: true, AtLeast: true, Cores: 2, OnCores: 2500}),
			"more than 5 s a game (no game timed finished within 5 s): at least 83 min of CPU"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Fatalf("%q\nwant %q", tc.got, tc.want)
			}
		})
	}
}
