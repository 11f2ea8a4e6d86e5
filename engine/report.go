package engine

import (
	"bytes"
	"fmt"

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

// reportSVG draws species view v of a run called title: the main
// picture (the generation's best, the mean with its spread, the
// recommended best with its interval, its fresh remeasure, the baselines'
// own level on a y-range chosen from the region of interest), the best's
// grids beside it, below them every knob of the run's best after each
// generation in its own units with the best's value, and with racing the
// games played and saved.
func reportSVG(title string, v *SpeciesView, racing bool) []byte {
	const chartW, chartH, gap = 760.0, 380.0, 12.0
	width := chartW + float64(len(v.Grids))*(plot.GridSize+30)
	height := chartH
	if len(v.Knobs) > 0 {
		height += gap + plot.KnobsHeight(len(v.Knobs))
	}
	if len(v.KnobsLeftOut) > 0 {
		height += gap + 8
	}
	const barsH = 220.0
	if racing {
		height += gap + barsH
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	ch := v.Chart(title + ": " + v.Measure + " per generation")
	ch.Width, ch.Height = chartW, chartH
	b.Write(ch.SVG())
	for k := range v.Grids {
		plot.DrawGrid(&b, chartW+20+float64(k)*(plot.GridSize+30), 8, &v.Grids[k])
	}
	top := chartH
	if len(v.Knobs) > 0 {
		plot.DrawKnobTable(&b, 10, top+gap, chartW-20, v.Knobs, len(v.History))
		top += gap + plot.KnobsHeight(len(v.Knobs))
	}
	if len(v.KnobsLeftOut) > 0 {
		fmt.Fprintf(&b, `<text x="10" y="%.0f" font-size="12">%s</text>`+"\n", top+gap+4, plot.Esc(v.KnobsNote()))
		top += gap + 8
	}
	if racing {
		bars := racingBars(v.History)
		fmt.Fprintf(&b, `<svg x="0" y="%.0f" width="%.0f" height="%.0f">`+"\n", top+gap, chartW, barsH)
		bars.Draw(&b, 0, chartW, barsH)
		b.WriteString("</svg>\n")
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
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
