package cli

import (
	"context"

	"github.com/evotune/evotune/engine"
	"github.com/spf13/cobra"
)

func init() { addCommand(newResumeCmd) }

// resumeOptions are the flags and argument of evotune resume.
type resumeOptions struct {
	e      *env
	dir    string
	accept bool
	engineFlags
}

func newResumeCmd(e *env) *cobra.Command {
	o := &resumeOptions{e: e}
	cmd := &cobra.Command{
		Use:   "resume RUN_DIR",
		Short: "Continue a stopped run exactly where it stopped",
		Long: `Continue a run from its last checkpoint. The result is identical to a run that
was never stopped. The run directory's config.yaml may not change results; the
budget may grow. --generations N is the total budget, not additional
generations; without it the budget is the config's evolution.generations (a
'run --generations N' budget is not remembered: the advice printed when a run
stops repeats it).`,
		Example: `  evotune resume runs/quickstart
  evotune resume runs/quickstart --generations 200 --workers 8`,
		ValidArgsFunction: completeRunDir,
		RunE:              o.runE("RUN_DIR", &o.dir, o.run),
	}
	fs := cmd.Flags()
	o.add(fs, "new generation budget `N` (total, not additional)")
	fs.BoolVar(&o.accept, "accept-program-change", false, "continue although the outside program (command:) changed since the checkpoint:\nits files or what it announces; results then differ from a run never stopped")
	return cmd
}

func (o *resumeOptions) run(ctx context.Context) (err error) {
	opts := engine.Options{Dir: o.dir, Workers: o.workers, Generations: o.generations, AcceptProgramChange: o.accept}
	pool := o.dist.apply(o.e, o.quiet, o.distSetup, &opts)
	recordWorkers(&opts, pool)
	defer func() { pool.close(err == nil) }()
	return o.runEngine(ctx, o.e, &opts, func(ctx context.Context) (*engine.Result, error) {
		return engine.Resume(ctx, opts)
	})
}
