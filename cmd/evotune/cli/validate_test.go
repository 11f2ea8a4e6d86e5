package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/internal/english"
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
	cost := regexp.MustCompile(`\n  cost: about [0-9.]+ (s|min) of CPU at the pace of [0-9]+ games of its first generation timed here( \([0-9.]+ (s|min) on [0-9]+ cores\))?;\n    likely [0-9.]+ (s|min) to [0-9.]+ (s|min): whole runs of the shipped configs took between [0-9.]+ and [0-9.]+ times such an estimate, as evolution found\n    players faster or slower than the first generation's \(docs/benchmarks.md\)\n$`)
	if !cost.MatchString(out) {
		t.Fatalf("no cost line:\n%s", out)
	}
}

// TestValidateGenerations: --generations N counts the games of run
// --generations N, as the run plays them, and says so; a budget of none
// is refused, as run refuses it.
func TestValidateGenerations(t *testing.T) {
	cfg := writeConfig(t, killConfig)
	code, out, errs := run(t, "validate", cfg, "--generations", "2")
	if code != ExitOK || !strings.Contains(out, "\n  games at --generations 2: 960, 400 a generation; 160 of them to remeasure the best at the end\n") {
		t.Fatalf("exit %d (%s), want 2 generations' games:\n%s", code, errs, out)
	}
	for _, bad := range []string{"0", "-1", "100001"} {
		if code, _, errs := run(t, "validate", cfg, "--generations", bad); code != ExitUsage || !strings.Contains(errs, "--generations "+bad) {
			t.Errorf("--generations %s: exit %d, %s", bad, code, errs)
		}
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
			costEstimate{Seconds: 42, Range: [2]float64{42 * calibration.CPU[0], 42 * calibration.CPU[1]}, CPU: true, Cores: 2, OnCores: 21}),
			fmt.Sprintf("about 42 s of CPU at the pace of 400 games of its first generation timed here (21 s on 2 cores);\n    likely %s to %s: whole runs of the shipped configs took between %.1f and %.1f times such an estimate, as evolution found\n    players faster or slower than the first generation's (docs/benchmarks.md)",
				seconds(42*calibration.CPU[0]), seconds(42*calibration.CPU[1]), calibration.CPU[0], calibration.CPU[1])},
		{"wall, one core", costText(engine.Timing{Games: 320, Mean: time.Millisecond},
			costEstimate{Seconds: 300, Range: [2]float64{300 * calibration.Wall[0], 300 * calibration.Wall[1]}, Cores: 1, OnCores: 300}),
			fmt.Sprintf("about 5 min of one worker's wall time (an outside program's work is in processes of its own) at the pace of 320 games of its first generation timed here;\n    likely %s to %s: whole runs of the shipped configs took between %.1f and %.1f times such an estimate, as evolution found\n    players faster or slower than the first generation's (docs/benchmarks.md)",
				seconds(300*calibration.Wall[0]), seconds(300*calibration.Wall[1]), calibration.Wall[0], calibration.Wall[1])},
		{"no game finished", costText(engine.Timing{AtLeast: 5 * time.Second, CPU: true},
			costEstimate{Seconds: 5000, Range: [2]float64{5000, 5000}, CPU: true, AtLeast: true, Cores: 2, OnCores: 2500}),
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

func seconds(s float64) string { return english.Duration(time.Duration(s * float64(time.Second))) }

// TestCalibrationHoldsTheShippedRuns: validate's range (calibration)
// holds every whole run of docs/benchmarks.md's table of the shipped
// configs against their estimates: the ratio of each row, CPU for
// evotune's own games, wall time for an outside program's, lies within
// the range validate prints. .ci/doc-figures holds the table to
// .ci/estimates, which measures it; a calibration narrower than what the
// runs took (the 95% interval validate printed before, the sample's
// alone) fails here.
func TestCalibrationHoldsTheShippedRuns(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs", "benchmarks.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `([a-z0-9-]+\\.yaml)` \\| [0-9]+ \\| [0-9,]+ \\| [0-9.]+ s \\| [0-9.]+ s \\((CPU|wall, 1 worker)[^)]*\\) \\| ([0-9.]+) \\|$")
	rows := row.FindAllStringSubmatch(string(data), -1)
	configs, _ := filepath.Glob(filepath.Join(repoRoot, "configs", "*.yaml"))
	if len(rows) != len(configs) {
		t.Errorf("docs/benchmarks.md measures %d configs, configs/ ships %d: run .ci/estimates", len(rows), len(configs))
	}
	for _, m := range rows {
		ratio, _ := strconv.ParseFloat(m[3], 64)
		r := calibration.CPU
		if m[2] != "CPU" {
			r = calibration.Wall
		}
		if ratio < r[0] || ratio > r[1] {
			t.Errorf("%s: a whole run took %v times validate's estimate, outside its range [%v, %v]", m[1], ratio, r[0], r[1])
		}
	}
}

// TestValidateHallOfFameAlone: a config measured against its hall of
// fame alone plays no game in its first generation; validate times the
// second's (against a hall of fame of the first's members) instead of
// saying a game costs "more than 0 s".
func TestValidateHallOfFameAlone(t *testing.T) {
	cfg := writeConfig(t, `game: mnk
player: tuned
fitness:
  hall-of-fame: {members: 2, games: 20}
evolution: {population: 4, generations: 3}
`)
	code, out, errs := run(t, "validate", cfg)
	if code != ExitOK || !regexp.MustCompile(`cost: about [0-9.]+ (s|min) of CPU at the pace of [0-9]+ games of its second generation \(the first plays none\) timed here`).MatchString(out) {
		t.Fatalf("exit %d:\n%s%s", code, out, errs)
	}
}
