package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/evotune/evotune/engine/runs"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/english"
)

// runSummaryJSON is the summary as --json prints it: the engine's, with
// the wall time of this process.
type runSummaryJSON struct {
	*runs.Summary
	WallSeconds float64 `json:"wall_seconds"`
}

// writeSummary says what a finished run found: the starting point and
// the recommended player on the same fresh deals, their paired
// difference, the games and time it took, and the next command.
func writeSummary(w io.Writer, s *runs.Summary, wall time.Duration, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(runSummaryJSON{Summary: s, WallSeconds: wall.Seconds()})
	}
	extra := ""
	if s.RemeasureGames > 0 {
		extra = fmt.Sprintf(" and %s re-measuring the best", english.Count(s.RemeasureGames, "game"))
	}
	took := fmt.Sprintf(", in %s", wall.Round(100*time.Millisecond))
	if r := s.Resumed; r != nil {
		// The games are the whole run's; the time is this process's.
		switch {
		case r.Games == 0:
			took = fmt.Sprintf("; resumed after generation %d, it had finished: nothing left to play", r.From)
		default:
			took = fmt.Sprintf("; resumed after generation %d, this process played %d of those games in %s", r.From,
				r.Games, wall.Round(100*time.Millisecond))
		}
	}
	fmt.Fprintf(w, "%s: %s, %s%s%s\n", s.Dir, english.Count(s.Generations, "generation"),
		english.Count(s.Games, "game"), extra, took)
	if s.Stopped != nil {
		fmt.Fprintf(w, "%s (of a budget of %d)\n", s.Stopped, s.Budget)
	}
	if len(s.Faults) > 0 {
		fmt.Fprintf(w, "games lost to faults (each a loss for the player that faulted): %s\n", s.Faults)
	}
	b := s.Best
	where := fmt.Sprintf("hall of fame #%d, generation %d", b.HallOfFameRank, b.Generation)
	selSaid := fmt.Sprintf("selection said %.4g over %s", b.Selection.Fitness, english.Count(b.Selection.Games, "game"))
	if b.From != "" {
		where = fmt.Sprintf("%s's own recommendation after generation %d", b.From, b.Generation)
		selSaid = "selection never played it; the remeasure chose it"
	}
	if b.Fresh == nil {
		fmt.Fprintf(w, "%s, %s; 95%% intervals\n", s.Objective, direction(s.LowerIsBetter))
		fmt.Fprintf(w, "  best (%s): %s %s: the figure that chose it,\n", where,
			interval(b.Selection), "over "+english.Count(b.Selection.Games, "game"))
		fmt.Fprintln(w, "    so flattered by luck; remeasure: off measured nothing fresh")
	} else {
		on := fmt.Sprintf("on %s no selection saw", english.Count(b.Fresh.Games, "fresh game"))
		fmt.Fprintf(w, "%s, %s; figures %s, 95%% intervals:\n", s.Objective, direction(s.LowerIsBetter), on)
		against := ""
		if s.Against != "baselines" {
			against = " against the " + map[string]string{"start": "start", "runner-up": "runner-up"}[s.Against]
		}
		if st := s.Start; st != nil && st.Fresh != nil {
			even := ""
			if st.Even {
				even = ": every seat-swapped pair split even: it played each deal as its opponents did (as their twin would), or drew every game"
			}
			fmt.Fprintf(w, "  start (%s): %s%s\n", st.Source, interval(*st.Fresh), even)
		}
		fmt.Fprintf(w, "  recommended%s (%s): %s\n", against, where, interval(*b.Fresh))
		fmt.Fprintf(w, "    (%s; the fresh figure chose nothing)\n", selSaid)
		if d := s.Difference; d != nil {
			verdict := "a gain"
			switch {
			case d.CI95[0] <= 0 && d.CI95[1] >= 0:
				verdict = "no demonstrated gain"
			case (d.Value < 0) != s.LowerIsBetter:
				verdict = "worse than the start"
			}
			fmt.Fprintf(w, "  recommended - start: %s, paired on the same deals: %s\n", signedInterval(d.Value, d.CI95), verdict)
		}
		if e := s.Elo; e != nil {
			fmt.Fprintf(w, "  Elo against the %s: %s over %s\n", s.Against, formatElo(*e), english.Count(s.Pairs.Pairs(), "seat-swapped pair"))
		}
	}
	fmt.Fprintf(w, "best parameters: %s\n", s.BestFile)
	fmt.Fprintf(w, "next: %s\n", s.Next)
	return nil
}

// interval is a figure with its interval, to one precision.
func interval(f fitness.Figure) string { return intervalText(f.Fitness, f.CI95, false) }

// signedInterval is a difference with its interval, signed, to two
// significant digits of the interval's half-width: the digits beyond
// those are noise.
func signedInterval(v float64, ci [2]float64) string { return intervalText(v, ci, true) }

// intervalText is a figure and its interval written to one precision
// (english.Interval).
func intervalText(v float64, ci [2]float64, signed bool) string {
	return english.Interval(v, ci, signed)
}
