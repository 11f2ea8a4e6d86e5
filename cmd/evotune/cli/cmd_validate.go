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
	e      *env
	config string
	json   bool
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
			return onInterrupt(cmd.Context(), e, "", func(ctx context.Context, _ <-chan struct{}) error {
				return o.run(ctx)
			})
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print one JSON document instead of lines (the problems of a bad config too)")
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

// costEstimate is the run's estimated cost in seconds with its 95%
// interval; Lower says the figures are the least it costs.
type costEstimate struct {
	Seconds float64    `json:"seconds"`
	CI95    [2]float64 `json:"ci95"`
	CPU     bool       `json:"cpu"` // CPU time; else wall time one game at a time
	AtLeast bool       `json:"at_least"`
	Cores   int        `json:"cores"`
	// OnCores is Seconds spread over Cores workers.
	OnCores float64 `json:"on_cores"`
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
	b := cfg.Budget()
	t, err := engine.TimeGames(ctx, cfg, timingBudget)
	if err != nil {
		return err
	}
	cores := cfg.Config().Run.Workers
	if cores == 0 {
		cores = runtime.NumCPU()
	}
	mid, lo, hi := t.Estimate(b.Total)
	cost := costEstimate{Seconds: mid.Seconds(), CI95: [2]float64{lo.Seconds(), hi.Seconds()}, CPU: t.CPU,
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
	fmt.Fprintf(w, "  games: %s\n", budgetText(b))
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

// costText says what the timing estimates the run's games cost.
func costText(t engine.Timing, c costEstimate) string {
	d := func(s float64) string { return english.Duration(time.Duration(s * float64(time.Second))) }
	if c.AtLeast {
		return fmt.Sprintf("more than %s a game (no game timed finished within %s): at least %s of CPU", english.Duration(t.AtLeast), english.Duration(t.AtLeast), d(c.Seconds))
	}
	what := "of CPU"
	if !c.CPU {
		what = "of one worker's wall time (an outside program's work is in processes of its own)"
	}
	s := fmt.Sprintf("about %s %s, 95%% interval %s to %s from %s timed here", d(c.Seconds), what, d(c.CI95[0]), d(c.CI95[1]), english.Count(t.Games, "game"))
	if c.Cores > 1 {
		s += fmt.Sprintf("; about %s on %d cores", d(c.OnCores), c.Cores)
	}
	return s + "; players that evolution finds may play faster or slower"
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
