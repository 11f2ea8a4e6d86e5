package engine

import (
	"bytes"
	"fmt"
	"math"

	"github.com/evotune/evotune/fitness"
)

// seriesColours are the players' line colours, in report order.
var seriesColours = []string{"#3182bd", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#7f7f7f"}

// SeriesSVG draws learning curves: each player's mean measure by game of
// the series, with its 95% interval as a band. It holds no clock values,
// so the same report gives the same bytes.
func SeriesSVG(rep fitness.SeriesReport) []byte {
	var b bytes.Buffer
	const w, h, pad = 640.0, 380.0, 56.0
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="12">`+"\n", w, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="20" font-size="14">%s: mean %s by game of the series (%d series of %d, seed %d)</text>`+"\n",
		pad, esc(rep.Game), esc(rep.Measure), rep.Series, rep.Length, rep.Seed)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range rep.Players {
		for _, s := range p.ByGame {
			if !math.IsInf(s.CI95[0], 0) && !math.IsInf(s.CI95[1], 0) {
				lo, hi = min(lo, s.CI95[0]), max(hi, s.CI95[1])
			}
			lo, hi = min(lo, s.Mean), max(hi, s.Mean)
		}
	}
	if math.IsInf(lo, 0) || !(hi > lo) {
		lo, hi = lo-1, hi+1
	}
	n := rep.Length
	x := func(i int) float64 {
		if n == 1 {
			return pad + (w-2*pad)/2
		}
		return pad + float64(i)*(w-2*pad)/float64(n-1)
	}
	clamp := func(v float64) float64 { return min(max(v, lo), hi) }
	y := func(v float64) float64 { return h - pad - (clamp(v)-lo)/(hi-lo)*(h-2*pad) }
	drawAxes(&b, w, h, pad, lo, hi, y, "game 1", n)
	for k, p := range rep.Players {
		colour := seriesColours[k%len(seriesColours)]
		var band, line bytes.Buffer
		for i, s := range p.ByGame {
			fmt.Fprintf(&band, "%.1f,%.1f ", x(i), y(s.CI95[1]))
			fmt.Fprintf(&line, "%.1f,%.1f ", x(i), y(s.Mean))
		}
		for i := len(p.ByGame) - 1; i >= 0; i-- {
			fmt.Fprintf(&band, "%.1f,%.1f ", x(i), y(p.ByGame[i].CI95[0]))
		}
		fmt.Fprintf(&b, `<polygon points="%s" fill="%s" fill-opacity="0.2"/>`+"\n", bytes.TrimSpace(band.Bytes()), colour)
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5"/>`+"\n", bytes.TrimSpace(line.Bytes()), colour)
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" fill="%s">%s: %.3f over all games</text>`+"\n",
			pad+10, 40+16*float64(k), colour, esc(p.Name), p.Overall.Mean)
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}
