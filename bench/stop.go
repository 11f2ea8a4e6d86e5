package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/evotune/evotune/bench/quality"
	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/engine/runs"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/stats"
	"github.com/evotune/evotune/rundir"
)

// The stop-rule benchmark (-stop): each shipped problem run to its full
// budget and with stop: at its defaults, from the same seed, and the two
// recommended players (best.yaml: the remeasure's winner) measured on the
// same fresh deals. A stopped run is the full run's prefix, so the games
// it saves are the generations it did not play; what it loses is the
// paired difference of the two players' figures.

// stopProblem is one problem of the stop-rule benchmark.
type stopProblem struct {
	name   string
	config string // a shipped config, relative to the repository
	// deals is how many fresh deals (head to head: seat-swapped pairs)
	// the two recommended players are measured on.
	deals int
	// opponent is the fixed player of the measure: the solo opponent
	// (empty: the game's default) or the head-to-head baseline.
	opponent string
}

var stopProblems = []stopProblem{
	{"quickstart", "configs/quickstart.yaml", 20_000, ""},
	{"pig", "configs/pig.yaml", 10_000, "hold20"},
	{"connect4", "configs/connect4.yaml", 1_000, "classic"},
}

// stopRule is the stop: section's keys the stopped runs use; empty, the
// defaults. A rule other than the defaults keeps its runs and records
// apart (variant), so several can be compared on the same full runs.
var stopRule = flag.String("stop-rule", "", "with -stop: the stopped runs' stop: keys, e.g. 'window: 10, confidence: 0.9' (default: stop: {})")

// trajectoryDeals, when set, makes -stop measure instead the hall of
// fame's first of every generation of the full runs on that many fresh
// deals (head to head: seat-swapped pairs): what the run would have
// recommended had it stopped there, before its remeasure.
var trajectoryDeals = flag.Int("trajectory", 0, "with -stop: measure every generation's hall-of-fame first of the full runs on N fresh deals (pairs) instead")

// stopLines switch the stop rule on.
func stopLines() string { return "stop: {" + *stopRule + "}\n" }

// variant names the rule's runs and records: "" for the defaults.
func variant() string {
	if *stopRule == "" {
		return ""
	}
	return "-" + strings.Trim(regexp.MustCompile(`[^a-z0-9.]+`).ReplaceAllString(*stopRule, "-"), "-")
}

// stopRecord is one seed's outcome, kept in OUT/stop/PROBLEM/seedK.json
// so a report can be printed without running anything.
type stopRecord struct {
	Seed        int            `json:"seed"`
	Budget      int            `json:"budget"`
	FullGames   int            `json:"full_games"`
	StopGen     int            `json:"stop_generation"`
	StopGames   int            `json:"stop_games"`
	EndGames    int            `json:"remeasure_games"` // each run's remeasure, the same for both
	Full        float64        `json:"full"`            // the full run's best on the fresh deals
	Stopped     float64        `json:"stopped"`         // the stopped run's
	Diff        stats.Estimate `json:"stopped_minus_full"`
	LowerBetter bool           `json:"lower_is_better"`
}

// runStopBench runs the problems named in only (all when empty) at seeds
// 1..seeds, skipping seeds already recorded, and prints the table.
func runStopBench(ctx context.Context, out, only string, seeds, workers int, reportOnly bool) error {
	chosen := func(p stopProblem) bool { return only == "" || strings.Contains(","+only+",", ","+p.name+",") }
	if !reportOnly && *trajectoryDeals == 0 {
		// A -stop-rule the config refuses is said before the full runs,
		// not after them.
		for _, p := range stopProblems {
			if !chosen(p) {
				continue
			}
			text, err := p.configText(1, stopLines())
			if err != nil {
				return err
			}
			cfg, err := quality.Load(p.config, []byte(text))
			if err != nil {
				return fmt.Errorf("-stop-rule %q: %w", *stopRule, err)
			}
			cfg.Close()
		}
	}
	for _, p := range stopProblems {
		if !chosen(p) {
			continue
		}
		dir := filepath.Join(out, "stop", p.name)
		if *trajectoryDeals > 0 {
			if err := p.trajectory(ctx, dir, seeds, *trajectoryDeals, workers); err != nil {
				return err
			}
			continue
		}
		if !reportOnly {
			for seed := 1; seed <= seeds; seed++ {
				if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("seed%d%s.json", seed, variant()))); err == nil {
					continue
				}
				rec, err := p.runSeed(ctx, dir, seed, workers)
				if err != nil {
					return fmt.Errorf("%s seed %d: %w", p.name, seed, err)
				}
				data, _ := json.MarshalIndent(rec, "", "  ")
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed%d%s.json", seed, variant())), data, 0o644); err != nil {
					return err
				}
			}
		}
		if err := stopReport(p, dir, seeds); err != nil {
			return err
		}
	}
	return nil
}

// configText is the problem's config at seed, its relative paths made
// absolute (the runs live elsewhere), with extra lines.
func (p stopProblem) configText(seed int, extra string) (string, error) {
	data, err := os.ReadFile(p.config)
	if err != nil {
		return "", err
	}
	text := regexp.MustCompile(`(?m)^seed: \d+$`).ReplaceAllString(string(data), fmt.Sprintf("seed: %d", seed))
	abs, err := filepath.Abs(filepath.Dir(p.config))
	if err != nil {
		return "", err
	}
	text = strings.ReplaceAll(text, "../examples/", filepath.Join(abs, "..", "examples")+"/")
	return text + extra, nil
}

// runSeed runs the problem in full and with the stop rule from seed,
// then measures both recommended players on the same fresh deals.
func (p stopProblem) runSeed(ctx context.Context, dir string, seed, workers int) (*stopRecord, error) {
	rec := &stopRecord{Seed: seed}
	var full, stop *runs.Summary
	for _, run := range []struct {
		name  string
		extra string
		into  **runs.Summary
	}{{"full", "", &full}, {"stop" + variant(), stopLines(), &stop}} {
		text, err := p.configText(seed, run.extra)
		if err != nil {
			return nil, err
		}
		runDir := filepath.Join(dir, run.name, fmt.Sprintf("seed%d", seed))
		if err := os.MkdirAll(filepath.Dir(runDir), 0o755); err != nil {
			return nil, err
		}
		cfgPath := runDir + ".yaml"
		if err := os.WriteFile(cfgPath, []byte(text), 0o644); err != nil {
			return nil, err
		}
		opts := engine.Options{Dir: runDir, Workers: workers}
		var res *engine.Result
		if _, err := os.Stat(filepath.Join(runDir, rundir.CheckpointFile)); err == nil {
			res, err = engine.Resume(ctx, opts)
			if err != nil {
				return nil, err
			}
		} else {
			cfg, err := engine.Load(cfgPath)
			if err != nil {
				return nil, err
			}
			res, err = engine.Start(ctx, cfg, opts)
			cfg.Close()
			if err != nil {
				return nil, err
			}
		}
		sum, err := runs.Summarize(res.Dir, res.Final, res.Setup, res.Budget)
		if err != nil {
			return nil, err
		}
		*run.into = sum
		fmt.Printf("%s seed %d %s: %d generations, %d games\n", p.name, seed, run.name, res.Generation, sum.Games)
	}
	rec.Budget, rec.FullGames, rec.StopGen, rec.StopGames = full.Budget, full.Games, stop.Generations, stop.Games
	rec.EndGames, rec.LowerBetter = full.RemeasureGames, full.LowerIsBetter
	text, err := p.configText(seed, "")
	if err != nil {
		return nil, err
	}
	cfg, err := quality.Load(filepath.Join(dir, "measure.yaml"), []byte(text))
	if err != nil {
		return nil, err
	}
	defer cfg.Close()
	f, s, err := p.measure(ctx, cfg.Game(), full.BestFile, stop.BestFile, workers)
	if err != nil {
		return nil, err
	}
	rec.Full, rec.Stopped = stats.Mean(f).Value, stats.Mean(s).Value
	rec.Diff = stats.PairedDifference(s, f)
	return rec, nil
}

// measure plays the two players on the same fresh deals and returns
// their results deal by deal.
func (p stopProblem) measure(ctx context.Context, g fitness.Game, fullFile, stopFile string, workers int) (full, stop []float64, err error) {
	if full, err = measureSpec(ctx, g, "tuned:"+fullFile, p.opponent, p.deals, workers); err != nil {
		return nil, nil, err
	}
	if stop, err = measureSpec(ctx, g, "tuned:"+stopFile, p.opponent, p.deals, workers); err != nil {
		return nil, nil, err
	}
	return full, stop, nil
}

// measureSpec plays the player spec on deals fresh deals and returns
// its results deal by deal (quality.Measure): a solo cost against the
// game's default opponent (opponent empty), or a seat-swapped pair's mean
// score against opponent.
func measureSpec(ctx context.Context, g fitness.Game, spec, opponent string, deals, workers int) ([]float64, error) {
	role := g.Roles()[0]
	player, err := fitness.ParseSpec(g, role, spec)
	if err != nil {
		return nil, err
	}
	sg, solo := g.(fitness.SoloGame)
	solo = solo && opponent == ""
	var opp fitness.Player
	if solo {
		opp, err = fitness.ParseSpec(g, sg.Solo().Opponent, sg.Solo().DefaultOpponent)
	} else {
		opp, err = fitness.ParseSpec(g, role, opponent)
	}
	if err != nil {
		return nil, err
	}
	return quality.Measure(ctx, g, player, []fitness.Player{opp}, solo, deals, workers)
}

// stopReport prints the table of a problem's recorded seeds.
func stopReport(p stopProblem, dir string, seeds int) error {
	fmt.Printf("\n%s: full budget against %s (defaults: window 8, confidence 0.8), same seed; both recommended players on %d fresh %s\n\n",
		p.name, strings.TrimSpace(stopLines()), p.deals, map[bool]string{true: "deals", false: "seat-swapped pairs"}[p.opponent == ""])
	fmt.Println("| seed | generations, stopped / budget | games saved | full run's best | stopped run's best | stopped - full, paired | loss? |")
	fmt.Println("|---|---|---|---|---|---|---|")
	saved, total := 0, 0
	for seed := 1; seed <= seeds; seed++ {
		data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("seed%d%s.json", seed, variant())))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		var r stopRecord
		if err := json.Unmarshal(data, &r); err != nil {
			return err
		}
		d := r.Diff
		loss := "none demonstrated"
		worse := d.CI95[0] > 0
		if !r.LowerBetter {
			worse = d.CI95[1] < 0
		}
		if worse {
			loss = "a loss"
		}
		fmt.Printf("| %d | %d / %d | %.0f%% (%d of %d) | %.4g | %.4g | %+.3g [%+.3g, %+.3g] | %s |\n", r.Seed, r.StopGen, r.Budget,
			100*float64(r.FullGames-r.StopGames)/float64(r.FullGames), r.FullGames-r.StopGames, r.FullGames, r.Full, r.Stopped, d.Value, d.CI95[0], d.CI95[1], loss)
		saved += r.FullGames - r.StopGames
		total += r.FullGames
	}
	if total > 0 {
		fmt.Printf("\nsaved %.0f%% of the full budgets' games over the seeds (each run also plays its remeasure, the same in both)\n", 100*float64(saved)/float64(total))
	}
	return nil
}

// trajectory prints, for each full run recorded, every generation's
// hall-of-fame first's figure on deals fresh deals, each distinct
// genome measured once.
func (p stopProblem) trajectory(ctx context.Context, dir string, seeds, deals, workers int) error {
	for seed := 1; seed <= seeds; seed++ {
		runDir := filepath.Join(dir, "full", fmt.Sprintf("seed%d", seed))
		ck, _, err := engine.ReadRun(runDir)
		if err != nil {
			return err
		}
		cfg, err := engine.Load(filepath.Join(runDir, rundir.ConfigFile))
		if err != nil {
			return err
		}
		opps, _, err := cfg.Baselines()
		if err != nil {
			cfg.Close()
			return err
		}
		measured := map[string]float64{}
		for _, row := range ck.History {
			key := fmt.Sprint(row.BestGenes)
			f, ok := measured[key]
			if !ok {
				player, err := cfg.TunedPlayer(row.BestGenes)
				if err != nil {
					cfg.Close()
					return err
				}
				xs, err := quality.Measure(ctx, cfg.Game(), player, opps, cfg.LowerIsBetter(), deals, workers)
				if err != nil {
					cfg.Close()
					return err
				}
				f = quality.Mean(xs)
				measured[key] = f
			}
			fmt.Printf("%s seed %d generation %d: the hall of fame's first %.4g on %d fresh deals\n", p.name, seed, row.Generation, f, deals)
		}
		cfg.Close()
	}
	return nil
}
