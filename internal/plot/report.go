package plot

import (
	"bytes"
	"fmt"
)

// Report is a run's report.svg: the main chart, the best's weight grids
// beside it, below them the knob strips of Generations generations and a
// note on what they leave out, and bars (racing's games played and saved)
// when there are any.
type Report struct {
	Chart       Chart
	Grids       []Grid
	Knobs       []Knob
	Generations int
	Note        string // "" for none
	Bars        *Bars  // nil for none
}

// SVG draws the report. It holds no clock values, so the same report
// gives the same bytes.
func (r Report) SVG() []byte {
	const chartW, chartH, gap = 760.0, 380.0, 12.0
	width := chartW + float64(len(r.Grids))*(GridSize+30)
	height := chartH
	if len(r.Knobs) > 0 {
		height += gap + KnobsHeight(len(r.Knobs))
	}
	if r.Note != "" {
		height += gap + 8
	}
	const barsH = 220.0
	if r.Bars != nil {
		height += gap + barsH
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	ch := r.Chart
	ch.Width, ch.Height = chartW, chartH
	b.Write(ch.SVG())
	for k := range r.Grids {
		DrawGrid(&b, chartW+20+float64(k)*(GridSize+30), 8, &r.Grids[k])
	}
	top := chartH
	if len(r.Knobs) > 0 {
		DrawKnobTable(&b, 10, top+gap, chartW-20, r.Knobs, r.Generations)
		top += gap + KnobsHeight(len(r.Knobs))
	}
	if r.Note != "" {
		fmt.Fprintf(&b, `<text x="10" y="%.0f" font-size="12">%s</text>`+"\n", top+gap+4, Esc(r.Note))
		top += gap + 8
	}
	if r.Bars != nil {
		fmt.Fprintf(&b, `<svg x="0" y="%.0f" width="%.0f" height="%.0f">`+"\n", top+gap, chartW, barsH)
		r.Bars.Draw(&b, 0, chartW, barsH)
		b.WriteString("</svg>\n")
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}
