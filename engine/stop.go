package engine

import (
	"fmt"
	"math"

	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/yamlcheck"
	"gonum.org/v1/gonum/stat/distuv"
)

// StopConfig ends a run before its generation budget: when the
// generations' mean fitness has stopped improving (Window), or once the
// run has played a budget of Games. Both are read from the run's history
// alone, after each generation, so a run stops at the same generation at
// any worker count and whether or not it was resumed; a clock would not
// (wall time depends on the machine), so there is no time budget.
type StopConfig struct {
	// Window is the number of generations whose mean fitness the trend
	// is fitted to; 0 means no trend rule.
	Window int `json:"window"`
	// Confidence is how sure the trend must be of an improvement for the
	// run to go on (one-sided, Student's t on the trend's scatter).
	Confidence float64 `json:"confidence"`
	// Games ends the run after the generation that brings its games to
	// at least this many; 0 means no such budget.
	Games int `json:"games,omitempty"`
}

func (c *Config) decodeStop(d *yamlcheck.Checker) yamlcheck.Reader {
	return optional(d, &c.Stop, defaultStop, func(sc *StopConfig) yamlcheck.Fields {
		return yamlcheck.Fields{"window": d.Int(&sc.Window), "confidence": d.Number(&sc.Confidence), "games": d.Int(&sc.Games)}
	})
}

func (c *Config) checkStop(bad func(key, format string, args ...any)) {
	sc := c.Stop
	if sc == nil {
		return
	}
	if sc.Window > 0 && sc.Window < 3 || sc.Window < 0 || sc.Window > MaxGenerations {
		bad("stop.window", "%d: want 0 (no trend rule) or from 3 to %d generations (a line through two points has no scatter to judge it by)", sc.Window, MaxGenerations)
	}
	if !(sc.Confidence >= 0.5 && sc.Confidence < 1) {
		bad("stop.confidence", "%v: want a probability from 0.5 up to (not including) 1", sc.Confidence)
	}
	if sc.Games < 0 {
		bad("stop.games", "%d: want 0 (no budget of games) or more", sc.Games)
	}
	if sc.Window == 0 && sc.Games == 0 {
		bad("stop", "neither a window nor a budget of games: give one, or leave stop out")
	}
}

// StopReason says why a run ended before its budget.
type StopReason struct {
	Rule       string  `json:"rule"` // "trend" or "games"
	Generation int     `json:"generation"`
	Games      int     `json:"games"` // games played up to it
	Window     int     `json:"window,omitempty"`
	Confidence float64 `json:"confidence,omitempty"`
	// Slope is the fitted change of the mean fitness per generation over
	// the window, and SlopeSE its standard error.
	Slope   float64 `json:"slope,omitempty"`
	SlopeSE float64 `json:"slope_se,omitempty"`
}

func (s *StopReason) String() string {
	if s.Rule == "games" {
		return fmt.Sprintf("stopped after generation %d: %s played, the budget of stop.games", s.Generation, english.Count(s.Games, "game"))
	}
	return fmt.Sprintf("stopped after generation %d: over the last %d generations the mean fitness moved %+.3g +- %.2g a generation, no improvement at confidence %g",
		s.Generation, s.Window, s.Slope, s.SlopeSE, s.Confidence)
}

// stopRule reports whether a run of history h (one row a generation)
// ends after its last generation, and why. Only history is read, so a
// resumed run decides as a straight one did.
func (c *Config) stopRule(h []GenStats) *StopReason {
	sc := c.Stop
	if sc == nil || len(h) == 0 {
		return nil
	}
	games := 0
	for _, row := range h {
		games += row.Games
	}
	gen := len(h)
	if sc.Games > 0 && games >= sc.Games {
		return &StopReason{Rule: "games", Generation: gen, Games: games}
	}
	if sc.Window < 2 || gen < sc.Window {
		return nil
	}
	slope, se, df := trend(h[gen-sc.Window:])
	improving := -slope
	if !c.species[0].minimise {
		improving = slope
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(sc.Confidence)
	if se == 0 && improving > 0 || se > 0 && improving > t*se {
		return nil
	}
	return &StopReason{Rule: "trend", Generation: gen, Games: games, Window: sc.Window, Confidence: sc.Confidence, Slope: slope, SlopeSE: se}
}

// trend fits a line to the rows' mean fitness by ordinary least squares
// and returns its slope per generation, the slope's standard error from
// the scatter of the means about the line, and the degrees of freedom of
// that error. The scatter holds every kind of noise a generation's mean
// has (the luck of its deals, which it shares with no other generation,
// and which of its individuals were bred), whatever their structure, so
// nothing about the game has to be assumed.
func trend(rows []GenStats) (slope, se float64, df int) {
	n := float64(len(rows))
	var sx, sy float64
	for _, r := range rows {
		sx += float64(r.Generation)
		sy += r.Mean
	}
	mx, my := sx/n, sy/n
	var sxx, sxy float64
	for _, r := range rows {
		dx := float64(r.Generation) - mx
		sxx += dx * dx
		sxy += dx * (r.Mean - my)
	}
	slope = sxy / sxx
	var rss float64
	for _, r := range rows {
		e := r.Mean - my - slope*(float64(r.Generation)-mx)
		rss += e * e
	}
	df = len(rows) - 2
	return slope, math.Sqrt(rss / float64(df) / sxx), df
}
