package engine

import (
	"github.com/evotune/evotune/internal/plot"
)

// report draws the run's picture (rundir.ReportFile) of species sp at
// state st. It holds no clock values, so it compares byte for byte like
// the other files.
func (s *Setup) report(sp *species, st SpeciesState) ([]byte, error) {
	v, err := s.view(sp, st)
	if err != nil {
		return nil, err
	}
	title := s.cfg.Name
	if sp.label != "" {
		title += " " + sp.label
	}
	return reportSVG(title, &v, s.cfg.Racing != nil), nil
}

// reportSVG draws species view v of a run called title
// (plot.Report): the main picture (the generation's best, the mean with
// its spread, the recommended best with its interval, its fresh
// remeasure, the baselines' own level on a y-range chosen from the
// region of interest), the best's grids beside it, below them every knob
// of the run's best after each generation in its own units with the
// best's value, and with racing the games played and saved.
func reportSVG(title string, v *SpeciesView, racing bool) []byte {
	r := plot.Report{Chart: v.Chart(title + ": " + v.Measure + " per generation"), Grids: v.Grids, Knobs: v.Knobs,
		Generations: len(v.History), Note: v.KnobsNote()}
	if racing {
		bars := racingBars(v.History)
		r.Bars = &bars
	}
	return r.SVG()
}

// racingBars are racing's games played and saved per generation.
func racingBars(history []GenStats) plot.Bars {
	bars := plot.Bars{Title: "racing: games played and saved per generation"}
	for _, s := range history {
		bars.Played = append(bars.Played, s.Games)
		bars.Saved = append(bars.Saved, s.Saved)
	}
	return bars
}
