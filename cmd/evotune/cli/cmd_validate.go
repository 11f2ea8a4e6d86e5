package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/evotune/evotune/engine/config"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/internal/english"
	"github.com/spf13/cobra"
)

func init() { addCommand(newValidateCmd) }

// validateOptions are the argument and flags of evotune validate.
type validateOptions struct {
	e           *env
	config      string
	json        bool
	generations int
}

// timingBudget is the CPU time validate spends timing a config's games.
const timingBudget = time.Second

func newValidateCmd(e *env) *cobra.Command {
	o := &validateOptions{e: e}
	cmd := &cobra.Command{
		Use:   "validate CONFIG",
		Short: "Check a config and report every problem at once",
		Long: `Check a config without running it: every problem is reported at once as
file:line: key: message (exit 2). A good config prints its summary, the games
its run will play and an estimate of their CPU time, from about a second of
its own games timed on this machine.`,
		Example: `  evotune validate configs/hadron.yaml
  evotune validate configs/quickstart.yaml --json`,
		ValidArgsFunction: completeConfig,
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if o.config, err = exactlyOne(args, "CONFIG"); err != nil {
				return err
			}
			if o.generations < 0 || (o.generations == 0 && cmd.Flags().Changed("generations")) || o.generations > config.MaxGenerations {
				return usagef("--generations %d: want 1 to %d", o.generations, config.MaxGenerations)
			}
			return onInterrupt(cmd.Context(), e, "", func(ctx context.Context, _ <-chan struct{}) error {
				return o.run(ctx)
			})
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print one JSON document instead of lines (the problems of a bad config too)")
	cmd.Flags().IntVar(&o.generations, "generations", 0, "count and time the games of a run given generation budget `N` (as run --generations N)")
	return cmd
}

// validateReport is validate's --json document.
type validateReport struct {
	Config   string         `json:"config"`
	Valid    bool           `json:"valid"`
	Problems []problem      `json:"problems"`
	Summary  *configSummary `json:"summary,omitempty"`
	Games    *engine.Budget `json:"games,omitempty"`
	Cost     *costEstimate  `json:"cost,omitempty"`
	Timing   *engine.Timing `json:"timing,omitempty"`
}

// problem is one problem of a config.
type problem struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Key     string `json:"key,omitempty"`
	Message string `json:"message"`
}

// configSummary is what the text's summary says, as fields.
type configSummary struct {
	Game        string `json:"game"`
	Player      string `json:"player"`
	Objective   string `json:"objective"`
	Model       string `json:"model"`
	Population  int    `json:"population"`
	Generations int    `json:"generations"`
	Seed        uint64 `json:"seed"`
}

// costEstimate is the run's estimated cost in seconds, at the pace of
// its first generation's games, and the range where whole runs of the
// shipped configs put such an estimate's outcome (calibration); AtLeast
// says the figures are the least it costs.
type costEstimate struct {
	Seconds float64    `json:"seconds"`
	Range   [2]float64 `json:"range"`
	CPU     bool       `json:"cpu"` // CPU time; else one worker's wall time
	AtLeast bool       `json:"at_least"`
	Cores   int        `json:"cores"`
	// OnCores is Seconds spread over Cores workers.
	OnCores float64 `json:"on_cores"`
}

// calibration is the range of a whole run's cost over validate's
// estimate, measured on every shipped config by .ci/estimates (the table
// of docs/benchmarks.md, "validate's estimate against whole runs"): the
// estimate times the first generation, whose random genomes may play
// slower or faster than the players evolution finds, so a run's cost
// lies about this far either side of it. CPU is the ratio for evotune's
// own games (CPU time), Wall for an outside program's (one worker's
// wall time). TestCalibrationHoldsTheShippedRuns holds these to that
// table; .ci/doc-figures holds the table to .ci/estimates.
var calibration = struct{ CPU, Wall [2]float64 }{
	CPU:  [2]float64{0.7, 1.2},
	Wall: [2]float64{1.0, 1.3},
}

func (o *validateOptions) run(ctx context.Context) error {
	cfg, err := engine.Load(o.config)
	if err != nil {
		if o.json {
			if werr := writeJSON(o.e.stdout, validateReport{Config: o.config, Problems: problemsOf(o.config, err)}); werr != nil {
				return werr
			}
			return errUsageShown
		}
		return asUsage(err)
	}
	defer cfg.Close()
	b, err := cfg.BudgetOf(o.generations)
	if err != nil {
		return usageError{err}
	}
	t, err := engine.TimeGames(ctx, cfg, timingBudget)
	if err != nil {
		return err
	}
	cores := cfg.Config().Run.Workers
	if cores == 0 {
		cores = runtime.NumCPU()
	}
	mid, _, _ := t.Estimate(b.Total)
	ratio := calibration.CPU
	if !t.CPU {
		ratio = calibration.Wall
	}
	cost := costEstimate{Seconds: mid.Seconds(), Range: [2]float64{mid.Seconds() * ratio[0], mid.Seconds() * ratio[1]}, CPU: t.CPU,
		AtLeast: t.Games == 0, Cores: cores, OnCores: mid.Seconds() / float64(cores)}
	if o.json {
		c := cfg.Config()
		e := c.Evolution
		return writeJSON(o.e.stdout, validateReport{Config: o.config, Valid: true,
			Summary: &configSummary{Game: c.Game, Player: c.Player, Objective: c.ObjectiveName(), Model: e.Model.Name,
				Population: e.Population, Generations: e.Generations, Seed: c.Seed},
			Games: &b, Cost: &cost, Timing: &t})
	}
	w := o.e.stdout
	if _, err := io.WriteString(w, cfg.Summary()); err != nil {
		return err
	}
	games := "games"
	if o.generations > 0 {
		games = fmt.Sprintf("games at --generations %d", o.generations)
	}
	fmt.Fprintf(w, "  %s: %s\n", games, budgetText(b))
	fmt.Fprintf(w, "  cost: %s\n", costText(t, cost))
	return nil
}

// budgetText says what Budget counted.
func budgetText(b engine.Budget) string {
	s := english.Thousands(b.Total)
	if b.AtMost {
		s = "at most " + s
	}
	switch {
	case b.Generations == 1 || b.First == b.Later:
		s += fmt.Sprintf(", %s a generation", english.Thousands(b.First))
	case b.Later == 0:
		s += fmt.Sprintf(": %s in the first generation, more as the hall of fame fills", english.Thousands(b.First))
	default:
		s += fmt.Sprintf(": %s in the first generation, then up to %s a generation as the hall of fame fills", english.Thousands(b.First), english.Thousands(b.Later))
	}
	if b.Remeasure > 0 {
		s += fmt.Sprintf("; %s of them to remeasure the best at the end", english.Thousands(b.Remeasure))
	}
	return s
}

// costText says what the timing estimates the run's games cost: the
// figure at the first generation's pace, and the range whole runs of the
// shipped configs put it in (calibration).
func costText(t engine.Timing, c costEstimate) string {
	d := func(s float64) string { return english.Duration(time.Duration(s * float64(time.Second))) }
	if c.AtLeast {
		return fmt.Sprintf("more than %s a game (no game timed finished within %s): at least %s of CPU", english.Duration(t.AtLeast), english.Duration(t.AtLeast), d(c.Seconds))
	}
	what := "of CPU"
	if !c.CPU {
		what = "of one worker's wall time (an outside program's work is in processes of its own)"
	}
	gen := "first generation"
	if t.Generation == 2 {
		gen = "second generation (the first plays none)"
	}
	s := fmt.Sprintf("about %s %s at the pace of %s of its %s timed here", d(c.Seconds), what, english.Count(t.Games, "game"), gen)
	if c.Cores > 1 {
		s += fmt.Sprintf(" (%s on %d cores)", d(c.OnCores), c.Cores)
	}
	ratio := calibration.CPU
	if !c.CPU {
		ratio = calibration.Wall
	}
	return s + fmt.Sprintf(";\n    likely %s to %s: whole runs of the shipped configs took between %.1f and %.1f times such an estimate, as evolution found\n    players faster or slower than the first generation's (docs/benchmarks.md)",
		d(c.Range[0]), d(c.Range[1]), ratio[0], ratio[1])
}

// problemsOf lists a config's problems, one per error, for --json.
func problemsOf(file string, err error) []problem {
	var ce config.Errors
	if !errors.As(err, &ce) {
		return []problem{{File: file, Message: err.Error()}}
	}
	out := make([]problem, len(ce))
	for i, e := range ce {
		out[i] = problem{File: e.File, Line: e.Line, Key: e.Key, Message: e.Msg}
	}
	return out
}
