package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/evotune/evotune/engine"
	"github.com/schollz/progressbar/v3"
)

func runRun(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "run", "CONFIG [--out DIR] [--workers N] [--generations N] [--quiet] [--cpuprofile FILE] [--memprofile FILE]",
		"Start a tuning run: evaluate, checkpoint and breed every generation, and write\n"+
			"config.yaml, checkpoint.json, generations.csv, best.yaml, report.svg and run.log to the run\n"+
			"directory. Ctrl-C (or SIGTERM) stops after the generation in flight is checkpointed; a second\n"+
			"one aborts it. 'best so far' is the hall of fame's best; re-evaluation can move it either way")
	out := fs.String("out", "", "run `DIR` (default runs/NAME)")
	workers := fs.Int("workers", 0, "games played at once (default: the config's run.workers, else all cores)")
	generations := fs.Int("generations", 0, "generation budget `N`, overriding the config's")
	quiet := fs.Bool("quiet", false, "no progress output")
	var prof profiles
	prof.addFlags(fs)
	var d distFlags
	d.addFlags(fs)
	file, err := parseRunArgs(fs, joinServeAddr(args), "CONFIG", workers, generations)
	if err != nil {
		return err
	}
	if err := d.check(); err != nil {
		return err
	}
	cfg, err := engine.Load(file)
	if err != nil {
		return asUsage(err)
	}
	defer cfg.Close()
	dir := *out
	if dir == "" {
		dir = filepath.Join("runs", cfg.Name)
	}
	opts := engine.Options{Dir: dir, Workers: *workers, Generations: *generations}
	defer d.apply(e, *quiet, &opts).close()
	return prof.profiled(func() error {
		return runEngine(ctx, e, *quiet, &opts, func(ctx context.Context) (*engine.Result, error) {
			res, err := engine.Start(ctx, cfg, opts)
			if errors.Is(err, engine.ErrRunExists) {
				return nil, usageError{err}
			}
			return res, err
		})
	})
}

func runResume(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "resume", "RUN_DIR [--generations N] [--workers N] [--quiet] [--cpuprofile FILE] [--memprofile FILE]",
		"Continue a run from its last checkpoint. The result is identical to a run that was never\n"+
			"stopped. The run directory's config.yaml may not change results; the budget may grow.\n"+
			"Without --generations the budget is the config's evolution.generations (a 'run\n"+
			"--generations N' budget is not remembered)")
	generations := fs.Int("generations", 0, "new generation budget `N` (total, not additional)")
	workers := fs.Int("workers", 0, "games played at once (default: the config's run.workers, else all cores)")
	quiet := fs.Bool("quiet", false, "no progress output")
	accept := fs.Bool("accept-program-change", false, "continue although the outside program (command:) changed since the checkpoint:\nits files or what it announces; results then differ from a run never stopped")
	var prof profiles
	prof.addFlags(fs)
	var d distFlags
	d.addFlags(fs)
	dir, err := parseRunArgs(fs, joinServeAddr(args), "RUN_DIR", workers, generations)
	if err != nil {
		return err
	}
	if err := d.check(); err != nil {
		return err
	}
	opts := engine.Options{Dir: dir, Workers: *workers, Generations: *generations, AcceptProgramChange: *accept}
	defer d.apply(e, *quiet, &opts).close()
	return prof.profiled(func() error {
		return runEngine(ctx, e, *quiet, &opts, func(ctx context.Context) (*engine.Result, error) {
			return engine.Resume(ctx, opts)
		})
	})
}

// parseRunArgs parses the flags of run or resume and returns their one
// positional argument (what names it in the usage error); the counts are
// checked once parsed.
func parseRunArgs(fs *flag.FlagSet, args []string, what string, workers, generations *int) (string, error) {
	pos, err := parseArgs(fs, args)
	if err != nil {
		return "", err
	}
	if len(pos) != 1 {
		return "", usagef("want exactly one %s, got %d arguments", what, len(pos))
	}
	return pos[0], checkCounts(fs, *workers, *generations)
}

func checkCounts(fs *flag.FlagSet, workers, generations int) error {
	if workers < 0 || workers > engine.MaxWorkers {
		return usagef("--workers %d: want 0 (all cores) to %d", workers, engine.MaxWorkers)
	}
	if generations < 0 || (generations == 0 && flagSet(fs, "generations")) {
		return usagef("--generations %d: want at least 1", generations)
	}
	if generations > engine.MaxGenerations {
		return usagef("--generations %d: more than the limit of %d", generations, engine.MaxGenerations)
	}
	return nil
}

// runEngine wires progress and the two-stage Ctrl-C around a run: the
// first interrupt lets the generation in flight finish and be
// checkpointed, the second abandons it (the last checkpoint stays).
func runEngine(ctx context.Context, e *env, quiet bool, opts *engine.Options, start func(context.Context) (*engine.Result, error)) error {
	hard, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	stop := make(chan struct{})
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM) // batch schedulers send TERM
	defer signal.Stop(sigs)
	go func() {
		for n := 1; ; n++ {
			select {
			case <-sigs:
			case <-ctx.Done(): // an in-process caller cancelled: abort
				cancel()
				return
			case <-hard.Done():
				return
			}
			if n == 1 {
				fmt.Fprintln(e.stderr, "\nevotune: stopping after this generation's checkpoint; Ctrl-C again to abort it")
				close(stop)
				continue
			}
			cancel()
			return
		}
	}()
	opts.Stop = stop
	if !quiet {
		opts.Progress = newRunProgress(e)
	}
	// start reads opts (Stop, Progress) through the closure's copy.
	res, err := start(hard)
	if p, ok := opts.Progress.(*runProgress); ok {
		p.close()
	}
	switch {
	case errors.Is(err, engine.ErrStopped):
		fmt.Fprintf(e.stderr, "evotune: stopped after generation %d of %d; continue with: evotune resume %s\n", res.Generation, res.Budget, res.Dir)
		return context.Canceled
	case errors.Is(err, context.Canceled):
		if _, serr := os.Stat(filepath.Join(opts.Dir, "checkpoint.json")); serr == nil {
			fmt.Fprintf(e.stderr, "evotune: aborted; the last checkpoint in %s is intact: evotune resume %s\n", opts.Dir, opts.Dir)
		} else {
			fmt.Fprintf(e.stderr, "evotune: aborted before the first checkpoint: nothing to resume; start again with evotune run\n")
		}
		return err
	case err != nil:
		return err
	}
	b := res.Best
	fmt.Fprintf(e.stdout, "%s: %d generations; best fitness %.6g [%.6g, %.6g] over %d games (generation %d)\nbest parameters: %s\n",
		res.Dir, res.Generation, b.Fitness, b.CI95[0], b.CI95[1], b.Games, b.Generation+1, filepath.Join(res.Dir, "best.yaml"))
	return nil
}

// runProgress draws one bar per generation on a terminal, or one plain
// line per generation otherwise.
type runProgress struct {
	w      io.Writer
	tty    bool
	mu     sync.Mutex
	bar    *progressbar.ProgressBar
	start  time.Time
	budget int
	gen    int
	last   int
	best   string
	// spent and done time the generations of this process, for the ETA.
	spent time.Duration
	done  int
}

func newRunProgress(e *env) *runProgress { return &runProgress{w: e.stderr, tty: e.stderrTTY} }

func (p *runProgress) StartGeneration(gen, budget, games int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.start, p.gen, p.budget, p.last = time.Now(), gen, budget, 0
	if !p.tty {
		return
	}
	desc := fmt.Sprintf("generation %d/%d", gen+1, budget)
	if p.best != "" {
		desc += ", best so far " + p.best
	}
	p.bar = progressbar.NewOptions(games, progressbar.OptionSetWriter(p.w), progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("games"),
		progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish())
}

func (p *runProgress) Games(done int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil && done > p.last {
		_ = p.bar.Set(done)
		p.last = done
	}
}

func (p *runProgress) EndGeneration(gen int, s engine.GenStats, best engine.Member) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
		p.bar = nil
	}
	took := time.Since(p.start)
	p.spent += took
	p.done++
	eta := eta(p.spent, p.done, p.budget-gen-1)
	p.best = fmt.Sprintf("%.4g", best.Fitness)
	fmt.Fprintf(p.w, "generation %d/%d: best %.4g, mean %.4g (sd %.3g); best so far %.4g [%.4g, %.4g] over %d games; %d games, %.0f games/s, ETA %v\n",
		gen+1, p.budget, s.Best, s.Mean, s.SD, best.Fitness, best.CI95[0], best.CI95[1], best.Games,
		s.Games, float64(s.Games)/max(took.Seconds(), 1e-9), eta)
}

func (p *runProgress) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Exit()
	}
}
