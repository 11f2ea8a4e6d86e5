package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evotune/evotune/bench/quality"
	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness"
)

// The quality benchmark (-quality): every model on each problem at one
// fixed budget of games, from random genomes, seeds 1..N, run by package
// quality: at each quarter of the budget the model's recommendation
// (spsa's theta, bayes's pessimistic optimum, any other model's
// hall-of-fame best) is measured on fresh deals that no run plays, the
// same deals for every model and seed; the tables give its figure at 25%, 50% and 100% of the budget
// (median and interquartile range over the seeds) and the games until
// the first recommendation that reaches the problem's target (to a
// quarter of the budget).

// qualityProblem is one problem of the quality benchmark.
type qualityProblem struct {
	name string
	// config is the run's config: %d the seed, %s the evolution lines
	// below the population (the budget, the model);
	// {EXAMPLES} the repository's examples directory.
	config      string
	generations int // the budget in generations (25%, 50% and 100% of them are read)
	deals       int // fresh deals (head to head: seat-swapped pairs against the config's baselines) a recommendation is measured on
	lowerBetter bool
	// target is the figure to reach: the reference player's on the same
	// fresh deals (solo), or a score.
	reference string
	score     float64
}

var qualityProblems = []qualityProblem{
	{name: "quickstart", generations: 20, deals: 4000, lowerBetter: true, reference: "over9000", config: `name: bench
seed: %d
game: battleship
player: tuned
fitness:
  objective: shots
  baselines: {opponents: [random], games: 100}
remeasure: off
evolution:
  population: 16
%s`},
	{name: "pig", generations: 20, deals: 1000, score: 0.55, config: `name: bench
seed: %d
command: [python3, {EXAMPLES}/pig/pig.py]
player: tuned
fitness:
  objective: score
  baselines: {opponents: [hold20], games: 100}
remeasure: off
evolution:
  population: 16
%s`},
	{name: "connect4", generations: 20, deals: 500, score: 0.55, config: `name: bench
seed: %d
game: mnk
rules: {m: 7, n: 6, k: 4, gravity: true, depth: 4, opening: 4}
player: tuned
fitness:
  objective: score
  baselines: {opponents: [classic], games: 40}
remeasure: off
evolution:
  population: 16
%s`},
	{name: "hadron", generations: 20, deals: 500, score: 0.55, config: `name: bench
seed: %d
game: hadron
rules: {size: 9, depth: 2}
player: tuned
fitness:
  objective: score
  baselines: {opponents: [aenigma], games: 40}
remeasure: off
evolution:
  population: 16
%s`},
}

// qualityRows are the models compared, each at its documented defaults
// (racing: {} added for the +racing rows; spsa-autoselect planned for
// the problem's budget).
var qualityRows = quality.BenchRows

// runQualityBench runs the problems and models picked, seeds 1..seeds
// (seeds outermost), skipping finished records, and prints each
// problem's table and writes its picture.
func runQualityBench(ctx context.Context, out, problems, models string, seeds, workers int, reportOnly bool) error {
	for i := range qualityProblems {
		p := &qualityProblems[i]
		if !picked(problems, p.name, p.name == "quickstart" || p.name == "pig") {
			continue
		}
		dir := filepath.Join(out, "quality", p.name)
		rows := quality.Pick(qualityRows, models)
		if !reportOnly {
			qp, err := p.problem()
			if err != nil {
				return err
			}
			for _, r := range rows {
				if !r.Autoselect {
					continue
				}
				prec, err := qp.Precision()
				if err != nil {
					return fmt.Errorf("%s: %w", p.name, err)
				}
				fmt.Printf("%s: spsa-autoselect plans the budget of %d generations at precision %g (edge-loss %g)\n", p.name, p.generations, prec, quality.EdgeLoss)
			}
			for seed := 1; seed <= seeds; seed++ {
				for _, r := range rows {
					logf := func(format string, args ...any) { fmt.Printf(p.name+" "+format+"\n", args...) }
					if _, err := qp.Run(ctx, dir, r, seed, workers, logf); err != nil {
						return fmt.Errorf("%s %s seed %d: %w", p.name, r.Name, seed, err)
					}
				}
			}
		}
		if err := p.report(dir, rows, seeds); err != nil {
			return err
		}
	}
	return nil
}

// picked says whether name is in the comma-separated list (or, with an
// empty list, whether it is picked by default).
func picked(list, name string, byDefault bool) bool {
	if list == "" {
		return byDefault
	}
	return slices.Contains(strings.Split(list, ","), name)
}

// problem is the problem as package quality runs it: the configs parsed
// in the repository's root, the reference measured on the fresh deals.
func (p *qualityProblem) problem() (*quality.Problem, error) {
	examples, err := filepath.Abs("examples")
	if err != nil {
		return nil, err
	}
	return &quality.Problem{
		File: p.name + ".yaml",
		Text: func(seed int, evolution, extra string) ([]byte, error) {
			return []byte(strings.ReplaceAll(fmt.Sprintf(p.config, seed, evolution), "{EXAMPLES}", examples) + extra), nil
		},
		Generations: p.generations,
		Deals:       p.deals,
		Reference: func(ctx context.Context, cfg *engine.Setup, workers int) (float64, error) {
			if p.reference == "" {
				return p.score, nil
			}
			player, err := fitness.ParseSpec(cfg.Game(), cfg.Game().Roles()[0], p.reference)
			if err != nil {
				return 0, err
			}
			opps, _, err := cfg.Baselines()
			if err != nil {
				return 0, err
			}
			xs, err := quality.Measure(ctx, cfg.Game(), player, opps, cfg.LowerIsBetter(), p.deals, workers)
			return quality.Mean(xs), err
		},
	}, nil
}

// report prints the problem's table and writes its picture.
func (p *qualityProblem) report(dir string, rows []quality.Row, seeds int) error {
	fmt.Printf("\n%s: %d generations; the recommendation on %d fresh %s; median [interquartile range] over the seeds\n\n", p.name, p.generations, p.deals,
		map[bool]string{true: "deals", false: "seat-swapped pairs against the baselines"}[p.lowerBetter])
	var lines []quality.Line
	var ref []float64
	for _, r := range rows {
		l := quality.Line{Name: r.Name}
		for seed := 1; seed <= seeds; seed++ {
			rec, err := quality.ReadRecord(quality.RecordPath(dir, r.Name, seed))
			if err != nil {
				return err
			}
			if rec != nil && rec.Done() {
				l.Records = append(l.Records, *rec)
				if ref == nil && p.reference != "" {
					ref = []float64{rec.Reference}
				}
			}
		}
		lines = append(lines, l)
	}
	// The target: the reference player's figure on the same deals (solo),
	// else the problem's score, which a report may move.
	target := func(r quality.Record) float64 {
		if p.reference == "" {
			return p.score
		}
		return r.Reference
	}
	quality.Table(os.Stdout, lines, p.lowerBetter, target)
	if ref == nil {
		ref = []float64{p.score}
	}
	what := "score against the baselines"
	if p.lowerBetter {
		what = "mean shots (lower is better)"
	}
	svg := quality.Draw(fmt.Sprintf("%s: the recommendation's %s on fresh deals", p.name, what), "target", ref, lines)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "quality.svg"), svg, 0o644)
}
