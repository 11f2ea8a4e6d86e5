package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/evotune/evotune/engine/runs"

	"github.com/evotune/evotune/engine/config"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/rundir"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func init() { addCommand(newRunCmd) }

// runOptions are the flags and argument of evotune run.
type runOptions struct {
	e      *env
	config string
	out    string
	engineFlags
}

func newRunCmd(e *env) *cobra.Command {
	o := &runOptions{e: e}
	cmd := &cobra.Command{
		Use:   "run CONFIG",
		Short: "Start a tuning run from a config",
		Long: `Start a tuning run: evaluate, checkpoint and breed every generation, and write
config.yaml, checkpoint.json, generations.csv, best.yaml, report.svg and run.log
to the run directory. Ctrl-C (or SIGTERM) stops after the generation in flight is
checkpointed; a second one aborts it.

Progress: one line per generation (a bar on a terminal) with the direction of
the objective, the generation's best and mean, and the hall of fame's best
(hof), whose games pool every generation it was re-evaluated in, so its figure
moves either way as they add up. At the end the run re-measures its best on
fresh deals and prints what it recommends beside where it started, paired on
the same deals, and the command that tests it further (--json: as one JSON
document).`,
		Example: `  evotune run configs/quickstart.yaml
  evotune run configs/hadron.yaml -o runs/h1 --workers 4 --generations 50`,
		ValidArgsFunction: completeConfig,
	}
	cmd.RunE = o.runE("CONFIG", &o.config, func(ctx context.Context) error {
		if fs := cmd.Flags(); fs.Changed("out") && fs.Changed("output") {
			return usagef("--out is the older spelling of -o/--output: give one")
		}
		return o.run(ctx)
	})
	fs := cmd.Flags()
	fs.StringVarP(&o.out, "output", "o", "", "run `DIR` (default runs/NAME)")
	// --out is the older spelling of --output, still read.
	fs.StringVar(&o.out, "out", "", "run `DIR`: the older spelling of --output")
	_ = fs.MarkHidden("out")
	_ = cmd.MarkFlagDirname("output")
	_ = cmd.MarkFlagDirname("out")
	o.add(fs, "generation budget `N`, overriding the config's")
	return cmd
}

func (o *runOptions) run(ctx context.Context) (err error) {
	cfg, err := engine.Load(o.config)
	if err != nil {
		return asUsage(err)
	}
	defer cfg.Close()
	dir := o.out
	if dir == "" {
		if dir, err = cfg.Config().DefaultDir(); err != nil {
			return asUsage(err)
		}
	}
	opts := engine.Options{Dir: dir, Workers: o.workers, Generations: o.generations}
	pool := o.dist.apply(o.e, o.quiet, o.distSetup, &opts)
	recordWorkers(&opts, pool)
	defer func() { pool.close(err == nil) }()
	return o.runEngine(ctx, o.e, &opts, func(ctx context.Context) (*engine.Result, error) {
		res, err := engine.Start(ctx, cfg, opts)
		if errors.Is(err, engine.ErrRunExists) {
			return nil, usageError{fmt.Errorf("%w: resume it with '%s' or choose another -o/--output",
				err, resumeCommand(opts.Dir, opts.Generations, cfg.Config().Evolution.Generations))}
		}
		return res, err
	})
}

// engineFlags are the flags run and resume share.
type engineFlags struct {
	workers     int
	generations int
	quiet       bool
	json        bool
	prof        profiles
	dist        distFlags // play on other machines
	distSetup   distSetup // what dist resolves to, before anything runs
}

func (f *engineFlags) add(fs *pflag.FlagSet, generations string) {
	fs.IntVar(&f.workers, "workers", 0, "games played at once (default: the config's run.workers, else all cores)")
	fs.IntVar(&f.generations, "generations", 0, generations)
	fs.BoolVar(&f.quiet, "quiet", false, "no progress output")
	fs.BoolVar(&f.json, "json", false, "print the end-of-run summary as one JSON document")
	f.prof.addFlags(fs)
	f.dist.addFlags(fs)
}

// runE is the RunE of run and resume: their one argument, what names it,
// into arg, every flag checked (check), what the distribution flags mean
// worked out (resolve), then run.
func (f *engineFlags) runE(what string, arg *string, run func(context.Context) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		var err error
		if *arg, err = exactlyOne(args, what); err != nil {
			if len(args) > 1 && f.dist.bareServe(cmd.Flags()) {
				// --serve garbage: an optional value cannot follow a space.
				return usagef("want exactly one %s, got %d arguments (%s): --serve takes its ADDR attached, as --serve=ADDR; a word after it is taken as the %s",
					what, len(args), strings.Join(args, " "), what)
			}
			return err
		}
		if err := f.check(cmd.Flags()); err != nil {
			return err
		}
		if f.distSetup, err = f.dist.resolve(); err != nil {
			return err
		}
		return run(cmd.Context())
	}
}

// check checks the flags once parsed, changing nothing.
func (f *engineFlags) check(fs *pflag.FlagSet) error {
	if f.workers < 0 || f.workers > config.MaxWorkers {
		return usagef("--workers %d: want 0 (all cores) to %d", f.workers, config.MaxWorkers)
	}
	if f.generations < 0 || (f.generations == 0 && fs.Changed("generations")) {
		return usagef("--generations %d: want at least 1", f.generations)
	}
	if f.generations > config.MaxGenerations {
		return usagef("--generations %d: more than the limit of %d", f.generations, config.MaxGenerations)
	}
	return f.dist.check()
}

// runEngine wires profiles, progress and the two-stage interrupt around
// a run: the first interrupt lets the generation in flight finish and be
// checkpointed, the second abandons it (the last checkpoint stays).
func (f *engineFlags) runEngine(ctx context.Context, e *env, opts *engine.Options, start func(context.Context) (*engine.Result, error)) error {
	const graceful = "\nevotune: stopping after this generation's checkpoint; Ctrl-C again to abort it"
	return onInterrupt(ctx, e, graceful, func(ctx context.Context, stop <-chan struct{}) error {
		return f.prof.profiled(func() error {
			opts.Stop = stop
			if !f.quiet {
				opts.Progress = newRunProgress(e)
			}
			return reportRun(ctx, e, opts, f.json, start)
		})
	})
}

// reportRun runs start and says how it ended.
func reportRun(ctx context.Context, e *env, opts *engine.Options, json bool, start func(context.Context) (*engine.Result, error)) error {
	began := time.Now()
	// start reads opts (Stop, Progress) through the closure's copy.
	res, err := start(ctx)
	if p, ok := opts.Progress.(*runProgress); ok {
		p.close()
	}
	switch {
	case errors.Is(err, engine.ErrStopped) && res.Unmeasured:
		fmt.Fprintf(e.stderr, "evotune: stopped during the remeasure after the last generation, %d; it is checkpointed, and resume plays the remeasure: %s\n",
			res.Generation, resumeCommand(res.Dir, res.Budget, res.ConfigBudget))
		return context.Canceled
	case errors.Is(err, engine.ErrStopped):
		fmt.Fprintf(e.stderr, "evotune: stopped after generation %d of %d; continue with: %s\n",
			res.Generation, res.Budget, resumeCommand(res.Dir, res.Budget, res.ConfigBudget))
		return context.Canceled
	case errors.Is(err, context.Canceled):
		if _, serr := os.Stat(filepath.Join(opts.Dir, rundir.CheckpointFile)); serr == nil {
			resume := resumeCommand(opts.Dir, 0, 0)
			if res != nil {
				resume = resumeCommand(res.Dir, res.Budget, res.ConfigBudget)
			}
			fmt.Fprintf(e.stderr, "evotune: aborted; the last checkpoint in %s is intact: %s\n", opts.Dir, resume)
		} else {
			fmt.Fprintf(e.stderr, "evotune: aborted before the first checkpoint: nothing to resume; start again with evotune run\n")
		}
		return err
	case err != nil:
		return err
	}
	if res.Final == nil { // a finished run in a directory it cannot write
		b := res.Best
		fmt.Fprintf(e.stdout, "%s: %s; best fitness %.6g [%.6g, %.6g] over %s (generation %d)\nbest parameters: %s\n",
			res.Dir, english.Count(res.Generation, "generation"), b.Fitness, b.CI95[0], b.CI95[1], english.Count(b.Games, "game"), b.Generation+1, filepath.Join(res.Dir, rundir.BestFile))
		return nil
	}
	sum, err := runs.Of(res)
	if err != nil {
		return err
	}
	return writeSummary(e.stdout, sum, time.Since(began), json)
}

// resumeCommand is the command line that continues the run in dir to
// budget generations, when the directory's config says configBudget. The
// checkpoint remembers a budget given with --generations, so a resume
// without it keeps it too; the command names it all the same, so that
// it means the same after the config's budget is edited.
func resumeCommand(dir string, budget, configBudget int) string {
	cmd := "evotune resume " + dir
	if budget > 0 && budget != configBudget {
		cmd += " --generations " + strconv.Itoa(budget)
	}
	return cmd
}
