package plot

import (
	"bytes"
	"fmt"
	"math"
)

// curveColours are Curves' line colours, in order.
var curveColours = []string{"#3182bd", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#7f7f7f"}

// Curves are lines over the same steps, each with a band (eval
// --series's learning curves: each player's mean by game of a series,
// with its 95% interval), on one scale that holds every line and every
// finite band.
type Curves struct {
	Title string
	// First labels the first step ("game 1"); the last is labelled by
	// its number, Steps.
	First string
	Steps int
	Lines []Curve
}

// Curve is one line of Curves and its band: Lo[i] to Hi[i] around
// Y[i]; an infinite end is left off the scale.
type Curve struct {
	Legend    string
	Y, Lo, Hi []float64
}

// SVG draws the curves, 640 by 380 pixels. It holds no clock values, so
// the same curves give the same bytes.
func (c Curves) SVG() []byte {
	var b bytes.Buffer
	const w, h, pad = 640.0, 380.0, 56.0
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="12">`+"\n", w, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="20" font-size="14">%s</text>`+"\n", pad, Esc(c.Title))
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, l := range c.Lines {
		for i, y := range l.Y {
			if !math.IsInf(l.Lo[i], 0) && !math.IsInf(l.Hi[i], 0) {
				lo, hi = min(lo, l.Lo[i]), max(hi, l.Hi[i])
			}
			lo, hi = min(lo, y), max(hi, y)
		}
	}
	if math.IsInf(lo, 0) || !(hi > lo) {
		lo, hi = lo-1, hi+1
	}
	n := c.Steps
	x := func(i int) float64 {
		if n == 1 {
			return pad + (w-2*pad)/2
		}
		return pad + float64(i)*(w-2*pad)/float64(n-1)
	}
	clamp := func(v float64) float64 { return min(max(v, lo), hi) }
	y := func(v float64) float64 { return h - pad - (clamp(v)-lo)/(hi-lo)*(h-2*pad) }
	// The axes: values labelled at lo, the middle and hi; steps from
	// First to n.
	fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="black"/>`+"\n", pad, h-pad, w-pad, h-pad)
	fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="black"/>`+"\n", pad, pad, pad, h-pad)
	for _, v := range []float64{lo, (lo + hi) / 2, hi} {
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end">%.4g</text>`+"\n", pad-4, y(v)+4, v)
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f">%s</text><text x="%.0f" y="%.0f" text-anchor="end">%d</text>`+"\n",
		pad, h-pad+16, Esc(c.First), w-pad, h-pad+16, n)
	for k, l := range c.Lines {
		colour := curveColours[k%len(curveColours)]
		var band, line bytes.Buffer
		for i := range l.Y {
			fmt.Fprintf(&band, "%.1f,%.1f ", x(i), y(l.Hi[i]))
			fmt.Fprintf(&line, "%.1f,%.1f ", x(i), y(l.Y[i]))
		}
		for i := len(l.Y) - 1; i >= 0; i-- {
			fmt.Fprintf(&band, "%.1f,%.1f ", x(i), y(l.Lo[i]))
		}
		fmt.Fprintf(&b, `<polygon points="%s" fill="%s" fill-opacity="0.2"/>`+"\n", bytes.TrimSpace(band.Bytes()), colour)
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5"/>`+"\n", bytes.TrimSpace(line.Bytes()), colour)
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" fill="%s">%s</text>`+"\n", pad+10, 40+16*float64(k), colour, Esc(l.Legend))
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}
