package engine

import (
	"fmt"
	"math"

	"github.com/evotune/evotune/internal/english"
	"gonum.org/v1/gonum/stat/distuv"
)

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

// Stopped says why a run of history h (one row a generation) ends after
// its last generation by its stop rule; nil when it does not. Only
// history is read, so a resumed run decides as a straight one did.
func (s *Setup) Stopped(h []GenStats) *StopReason {
	sc := s.cfg.Stop
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
	if !s.species[0].minimise {
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
