package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/evotune/evotune/engine/config"

	"github.com/evotune/evotune/bench/quality"
	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/internal/printable"
	"github.com/evotune/evotune/rundir"
	"github.com/spf13/cobra"
)

func init() { addCommand(newBenchCmd) }

// maxBenchSeeds bounds bench --seeds: each seed is a whole run per model.
const maxBenchSeeds = 1000

// benchOptions are the flags and argument of evotune bench.
type benchOptions struct {
	e           *env
	config      string
	models      string
	seeds       int
	generations int
	// generationsSet: --generations was given (0 is then refused, as
	// run refuses it, not read as the config's budget).
	generationsSet bool
	workers        int
	out            string
	deals          int
	report         bool
	quiet          bool
	json           bool
}

// benchJSON is bench's --json document.
type benchJSON struct {
	Config      string            `json:"config"`
	Dir         string            `json:"dir"`
	Measure     string            `json:"measure"`
	Direction   string            `json:"direction"`
	Baselines   []string          `json:"baselines"`
	Deals       int               `json:"deals"`
	Population  int               `json:"population"`
	Generations int               `json:"generations"`
	Seeds       int               `json:"seeds"`
	Start       *float64          `json:"start,omitempty"`
	Models      []quality.Summary `json:"models"`
	Picture     string            `json:"picture"`
}

func newBenchCmd(e *env) *cobra.Command {
	o := &benchOptions{e: e}
	cmd := &cobra.Command{
		Use:   "bench CONFIG --models MODEL,... [--seeds N]",
		Short: "Compare models on a config: each one's recommendation on fresh deals at 25%, 50% and 100% of the budget",
		Long: `Run the config under each model named by --models, at that model's defaults
(the config's population and budget; the rows of the config's own model keep its
evolution settings, which the other rows drop), from seeds 1 to N. At 25%, 50% and 100% of the
budget each run's recommendation (spsa's theta, bayes's pessimistic optimum, the
others' hall-of-fame best) is measured against the config's baselines on fresh
deals no run plays (head to head: seat-swapped pairs), beside the config's
starting point on the same deals. Prints the median and interquartile range over
the seeds, and draws them in DIR/quality.svg.

Models: every model of a config's evolution.model, MODEL+racing (with the
config's racing: section, else racing: {}), and spsa-autoselect (spsa with
fishtest's autoselect, its precision found so that it plans the budget). A model
that cannot run the config gets a row saying why. Every run and measure is kept
in DIR: Ctrl-C or SIGTERM stops at once (exit 130), and the same command again
continues where it stopped; --report prints the table of what is recorded,
running nothing. Results do not depend on --workers.`,
		Example: `  evotune bench configs/quickstart.yaml --models generational,cmaes,spsa,bayes --seeds 5 --generations 8
  evotune bench configs/quickstart.yaml --models generational,cmaes,spsa,bayes --seeds 5 --generations 8 --report`,
		ValidArgsFunction: completeConfig,
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if o.config, err = exactlyOne(args, "CONFIG"); err != nil {
				return err
			}
			o.generationsSet = cmd.Flags().Changed("generations")
			return onInterrupt(cmd.Context(), e, "", func(ctx context.Context, _ <-chan struct{}) error { return o.run(ctx) })
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.models, "models", "", "the models to compare, comma-separated: "+quality.RowsHelp())
	fs.IntVar(&o.seeds, "seeds", 5, "runs per model: seeds 1 to N")
	fs.IntVar(&o.generations, "generations", 0, "generation budget `N` of every run (default: the config's)")
	fs.IntVar(&o.workers, "workers", 0, "games played at once (default: the config's run.workers, else all cores)")
	fs.StringVarP(&o.out, "output", "o", "", "bench `DIR`: its runs, records and picture (default runs/NAME-bench)")
	fs.IntVar(&o.deals, "deals", 1000, "fresh deals a recommendation is measured on against each baseline (head to head: seat-swapped pairs)")
	fs.BoolVar(&o.report, "report", false, "print the table and draw the picture from what DIR holds; run nothing")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress lines")
	fs.BoolVar(&o.json, "json", false, "print one JSON document instead of the table")
	_ = cmd.MarkFlagDirname("output")
	// A list: each name completes after the commas before it.
	_ = cmd.RegisterFlagCompletionFunc("models", func(_ *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
		done := typed[:strings.LastIndex(typed, ",")+1]
		var out []string
		for _, name := range quality.RowNames() {
			out = append(out, done+name)
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	})
	return cmd
}

// check checks the flags, changing nothing.
func (o *benchOptions) check() ([]quality.Row, error) {
	switch {
	case o.models == "":
		return nil, usagef("name the models to compare: --models MODEL,... (%s)", quality.RowsHelp())
	case o.seeds < 1 || o.seeds > maxBenchSeeds:
		return nil, usagef("--seeds %d: want 1 to %d", o.seeds, maxBenchSeeds)
	case o.generations < 0 || o.generations > config.MaxGenerations:
		return nil, usagef("--generations %d: want %d to %d", o.generations, quality.Quarters, config.MaxGenerations)
	case (o.generations > 0 || o.generationsSet) && o.generations < quality.Quarters:
		return nil, usagef("--generations %d: want at least %d (a recommendation is measured at each quarter of the budget)", o.generations, quality.Quarters)
	case o.workers < 0 || o.workers > config.MaxWorkers:
		return nil, usagef("--workers %d: want 0 (all cores) to %d", o.workers, config.MaxWorkers)
	case o.deals < 1 || o.deals > maxEvalGames/2:
		return nil, usagef("--deals %d: want 1 to %d", o.deals, maxEvalGames/2)
	}
	rows, err := quality.ParseRows(o.models)
	if err != nil {
		return nil, usagef("--models: %v", err)
	}
	return rows, nil
}

func (o *benchOptions) run(ctx context.Context) error {
	rows, err := o.check()
	if err != nil {
		return err
	}
	cfg, err := engine.Load(o.config)
	if err != nil {
		return asUsage(err)
	}
	defer cfg.Close()
	if o.workers == 0 { // as run: the config's run.workers, else every core
		o.workers = cfg.Config().Run.Workers
	}
	if o.workers == 0 {
		o.workers = runtime.NumCPU()
	}
	if o.out == "" {
		if o.out, err = cfg.Config().DefaultDir(); err != nil {
			return asUsage(err)
		}
		o.out += "-bench"
	}
	b, err := quality.OpenBench(o.out, o.config, cfg, o.generations, o.deals)
	if errors.Is(err, engine.ErrNoBaselines) {
		return usagef("%s: %v: bench measures each model's recommendation against them", o.config, err)
	}
	if err != nil {
		return asUsage(err)
	}
	if o.report && b.Start == nil {
		if _, err := quality.ReadManifest(b.Dir); err != nil {
			return usagef("--report: %s holds no bench (%v): run it without --report first", b.Dir, fileio.Cause(err))
		}
	}
	if !o.report {
		if err := o.runRows(ctx, b, rows); err != nil {
			return err
		}
	}
	lines, err := b.Lines(rows, o.seeds)
	if err != nil {
		return err
	}
	return o.write(b, lines)
}

// runRows runs every row that can run the config, seeds outermost, so
// that a bench stopped early has every model at about as many seeds.
func (o *benchOptions) runRows(ctx context.Context, b *quality.Bench, rows []quality.Row) error {
	var runnable []quality.Row
	for _, r := range rows {
		why, err := b.Problem.Refusal(r)
		if err != nil {
			return err
		}
		if why != "" {
			fmt.Fprintf(o.e.stderr, "evotune bench: %s cannot run %s: %s\n", r.Name, o.config, printable.Escape(why))
			continue
		}
		if r.Autoselect && !o.quiet {
			prec, _ := b.Problem.Precision()
			fmt.Fprintf(o.e.stderr, "evotune bench: spsa-autoselect plans the budget of %s at precision %g, edge-loss %g\n",
				english.Count(b.Generations, "generation"), prec, quality.EdgeLoss)
		}
		runnable = append(runnable, r)
	}
	if err := b.MeasureStart(ctx, o.workers); err != nil {
		return err
	}
	logf := func(format string, args ...any) {
		if !o.quiet {
			fmt.Fprintf(o.e.stderr, "evotune bench: "+format+"\n", args...)
		}
	}
	for seed := 1; seed <= o.seeds; seed++ {
		for _, r := range runnable {
			if _, err := b.Problem.Run(ctx, b.Dir, r, seed, o.workers, logf); err != nil {
				if errors.Is(err, context.Canceled) {
					fmt.Fprintf(o.e.stderr, "evotune bench: interrupted; what is done is kept in %s: the same command continues\n", b.Dir)
				}
				return err
			}
		}
	}
	return nil
}

// write prints the table and draws the picture.
func (o *benchOptions) write(b *quality.Bench, lines []quality.Line) error {
	w := o.e.stdout
	unit := "fresh deals against each baseline"
	if !b.Lower {
		unit = "fresh seat-swapped pairs against each baseline"
	}
	dir := "higher is better"
	if b.Lower {
		dir = "lower is better"
	}
	if !o.json {
		fmt.Fprintf(w, "%s: %s (%s) of each model's recommendation on %d %s (%s), at 25%%, 50%% and 100%% of a budget of %s of population %d; median [interquartile range] over seeds 1 to %d\n\n",
			o.config, b.Measure, dir, b.Deals, unit, strings.Join(b.Baselines, ", "), english.Count(b.Generations, "generation"), b.Population, o.seeds)
	}
	var ref []float64
	if b.Start != nil {
		ref = []float64{*b.Start}
	}
	svg := quality.Draw(fmt.Sprintf("%s: the recommendation's %s (%s) on fresh deals", filepath.Base(o.config), b.Measure, dir), "start", ref, lines)
	path := filepath.Join(b.Dir, quality.PictureFile)
	if err := rundir.WriteFile(path, svg); err != nil {
		return err
	}
	if o.json {
		doc := benchJSON{Config: o.config, Dir: b.Dir, Measure: b.Measure, Direction: dir, Baselines: b.Baselines, Deals: b.Deals,
			Population: b.Population, Generations: b.Generations, Seeds: o.seeds, Start: b.Start, Models: []quality.Summary{}, Picture: path}
		for _, l := range lines {
			doc.Models = append(doc.Models, quality.Summarize(l))
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(doc)
	}
	if b.Start != nil {
		fmt.Fprintf(w, "start (the config's first seed, else the player's defaults): %.4g on the same deals\n\n", *b.Start)
	}
	quality.Table(w, lines, b.Lower, nil)
	_, err := fmt.Fprintf(w, "\npicture: %s\n", path)
	return err
}
