package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/engine/runs"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/internal/english"
	"github.com/spf13/cobra"
)

func init() { addCommand(newCompareCmd) }

// compareOptions are the flags and arguments of evotune compare.
type compareOptions struct {
	e       *env
	dirs    []string
	games   int
	seed    uint64
	workers int
	json    bool
}

func newCompareCmd(e *env) *cobra.Command {
	o := &compareOptions{e: e}
	cmd := &cobra.Command{
		Use:   "compare RUN_DIR RUN_DIR [RUN_DIR ...]",
		Short: "Play the recommended bests of runs of one game on shared fresh deals",
		Long: `Play the recommended best of each run (as its checkpoint records it: the
remeasure's winner, which best.yaml lists first) against the first run's baseline
opponents (for a solo game of one seat: the game alone) on the same fresh deals,
and report each best's figure, then the run's own fresh figure and its gain over
its start, then the figure that chose it (flattered by luck), and every two
bests' paired difference, with 95% intervals; for a score, each
two bests also meet head to head in seat-swapped pairs. The deals come from
--seed through a stream no run draws from, so no best is measured on the deals
that chose it. The runs must play one game under one set of rules. Results do
not depend on --workers. Ctrl-C or SIGTERM stops at once (exit 130).`,
		Example: `  evotune compare runs/quickstart runs/quickstart-seed2
  evotune compare runs/h1 runs/h2 runs/h3 --games 400 --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.dirs = args
			return onInterrupt(cmd.Context(), e, "", func(ctx context.Context, _ <-chan struct{}) error { return o.run(ctx) })
		},
	}
	fs := cmd.Flags()
	fs.IntVar(&o.games, "games", 2000, "games per run and opponent (even for a score: seat-swapped pairs)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed the deals are derived from")
	fs.IntVar(&o.workers, "workers", 0, "games played at once (0: all cores)")
	fs.BoolVar(&o.json, "json", false, "print one JSON document instead of tables")
	return cmd
}

func (o *compareOptions) run(ctx context.Context) error {
	switch {
	case len(o.dirs) < 2:
		return usagef("want two or more RUN_DIRs, got %d", len(o.dirs))
	case o.games < 1 || o.games > maxEvalGames:
		return usagef("--games %d: want 1 to %d", o.games, maxEvalGames)
	case o.workers < 0 || o.workers > config.MaxWorkers:
		return usagef("--workers %d: want 0 (all cores) to %d", o.workers, config.MaxWorkers)
	}
	if o.workers == 0 {
		o.workers = runtime.NumCPU()
	}
	// The total is known once the runs are read: the bar starts then.
	var once sync.Once
	update, finish := func(int) {}, func() {}
	progress := func(done, total int) {
		once.Do(func() {
			if u, f := newProgress(o.e, total, "compare"); u != nil {
				update, finish = u, f
			}
		})
		update(done)
	}
	cmp, err := runs.Compare(ctx, o.dirs, runs.CompareOptions{Games: o.games, Seed: o.seed, Workers: o.workers, Progress: progress})
	finish()
	if errors.Is(err, runs.ErrNotComparable) || errors.Is(err, engine.ErrNotRunDir) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	if o.json {
		enc := json.NewEncoder(o.e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(cmp)
	}
	writeCompareText(o.e.stdout, cmp)
	return nil
}

// writeCompareText prints the comparison: first the figures measured
// here on fresh deals, then each run's own verdict (its fresh figure and
// its paired gain over its start), and last the figure that chose each
// best, which luck flatters. Every interval is written to one precision
// (intervalText); no line ends in spaces.
func writeCompareText(w io.Writer, c *runs.Comparison) {
	fmt.Fprintf(w, "%s: the recommended bests of %d runs on the same %s against each opponent, seed %d; %s, %s; 95%% intervals\n",
		c.Game, len(c.Runs), english.Count(c.Games, "fresh game"), c.Seed, c.Measure, c.Direction)
	header := []string{"run"}
	for _, opp := range c.Opponents {
		header = append(header, "vs "+oppName(opp))
	}
	header = append(header, "in its run: fresh", "fresh - start", "as selected")
	rows := [][]string{header}
	for _, r := range c.Runs {
		row := []string{r.Dir}
		for _, f := range r.Figures {
			row = append(row, intervalText(f.Fitness, f.CI95, false))
		}
		fresh, gain := "-", "-"
		if r.Fresh != nil {
			fresh = intervalText(r.Fresh.Fitness, r.Fresh.CI95, false)
		}
		if r.Gain != nil {
			gain = intervalText(r.Gain.Value, r.Gain.CI95, true)
		}
		sel := intervalText(r.Selected.Fitness, r.Selected.CI95, false)
		if r.Selected.Games == 0 {
			sel = "not played (model's)"
		}
		rows = append(rows, append(row, fresh, gain, sel))
	}
	fmt.Fprintln(w)
	writeTable(w, rows)
	fmt.Fprintf(w, "(vs: measured here, on deals no run saw; in its run: the run's own verdict on fresh deals, and its\n"+
		"recommended minus its start on them, paired; as selected: the figure that chose it, flattered by luck)\n")
	if len(c.Diffs) > 0 {
		fmt.Fprintf(w, "\npaired differences on the shared deals (first run minus second), 95%% intervals:\n")
		for _, d := range c.Diffs {
			fmt.Fprintf(w, "  %s - %s vs %s: %s %s over %s%s\n", d.RunA, d.RunB, oppName(d.Opponent), intervalText(d.Diff, d.CI95, true),
				c.Measure, english.Count(d.N, unit(c)), verdict(d.CI95))
		}
	}
	if len(c.HeadToHead) > 0 {
		fmt.Fprintf(w, "\nhead to head, seats swapped on each deal (the first run's score):\n")
		for _, h := range c.HeadToHead {
			fmt.Fprintf(w, "  %s vs %s: score %s, Elo %s over %s (pentanomial %v)%s\n", h.RunA, h.RunB,
				intervalText(h.Score.Value, h.Score.CI95, false), formatElo(h.Elo),
				english.Count(h.Pentanomial.Pairs(), "pair"), h.Pentanomial, verdict([2]float64{h.Score.CI95[0] - 0.5, h.Score.CI95[1] - 0.5}))
		}
	}
}

// writeTable writes rows as columns two spaces apart, each as wide as
// its widest cell, with no spaces at the end of a line.
func writeTable(w io.Writer, rows [][]string) {
	var widths []int
	for _, row := range rows {
		for i, cell := range row {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	for _, row := range rows {
		var b strings.Builder
		for i, cell := range row {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(cell)
			b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell)))
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

func unit(c *runs.Comparison) string {
	if strings.HasPrefix(c.Direction, "higher") && c.Measure == "score" {
		return "pair"
	}
	return "deal"
}

// verdict says a difference whose interval holds zero is none shown.
func verdict(ci [2]float64) string {
	if ci[0] <= 0 && ci[1] >= 0 {
		return " (no demonstrated difference)"
	}
	return ""
}

func oppName(s string) string {
	if s == "" {
		return "(no opponent)"
	}
	return s
}
