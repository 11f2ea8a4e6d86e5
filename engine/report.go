package engine

import (
	"bytes"
	"fmt"
	"math"

	"github.com/evotune/evotune/genome"
)

// reportSVG draws the run's picture (rundir.ReportFile): the history of
// a species, the grids of its best parameter set and, below, how each
// knob of the run's best moved over the generations. It holds no clock
// values, so it compares byte for byte like the other files. searched gives the effective parameters (the grid
// symmetry searched), genes the genes the knob picture names.
func reportSVG(title, measure string, minimise bool, history []GenStats, best genome.Values, searched genome.Schema, genes []genome.Gene) []byte {
	var b bytes.Buffer
	const w, chartH, pad = 560.0, 340.0, 50.0
	h := chartH + knobsHeight(genes, history)
	var grids []*genome.Param
	for i := range searched {
		if p := &searched[i]; p.Kind == genome.Grid {
			grids = append(grids, p)
		}
	}
	width := w + float64(len(grids))*(chartH+20)
	if hasBestGenes(history) {
		width = max(width, w+110) // room for the knobs' names right of their strips
	}
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="12">`+"\n", width, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	better := "higher is better"
	if minimise {
		better = "lower is better"
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="20" font-size="14">%s: %s per generation (%s)</text>`+"\n", pad, esc(title), esc(measure), better)

	// Scale: every best, mean-sd and mean+sd.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range history {
		lo = min(lo, s.Best, s.Mean-s.SD)
		hi = max(hi, s.Best, s.Mean+s.SD)
	}
	if !(hi > lo) {
		lo, hi = lo-1, hi+1
	}
	n := len(history)
	x := func(i int) float64 {
		if n == 1 {
			return pad + (w-2*pad)/2
		}
		return pad + float64(i)*(w-2*pad)/float64(n-1)
	}
	y := func(v float64) float64 { return chartH - pad - (v-lo)/(hi-lo)*(chartH-2*pad) }
	drawAxes(&b, w, chartH, pad, lo, hi, y, "generation 1", n)
	// The band of mean +- sd, then the mean and the best.
	var band bytes.Buffer
	for i, s := range history {
		fmt.Fprintf(&band, "%.1f,%.1f ", x(i), y(s.Mean+s.SD))
	}
	for i := n - 1; i >= 0; i-- {
		fmt.Fprintf(&band, "%.1f,%.1f ", x(i), y(history[i].Mean-history[i].SD))
	}
	fmt.Fprintf(&b, `<polygon points="%s" fill="#9ecae1" fill-opacity="0.5"/>`+"\n", bytes.TrimSpace(band.Bytes()))
	for _, line := range []struct {
		colour string
		value  func(GenStats) float64
	}{{"#3182bd", func(s GenStats) float64 { return s.Mean }}, {"#d62728", func(s GenStats) float64 { return s.Best }}} {
		var pts bytes.Buffer
		for i, s := range history {
			fmt.Fprintf(&pts, "%.1f,%.1f ", x(i), y(line.value(s)))
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", bytes.TrimSpace(pts.Bytes()), line.colour)
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="38" fill="#d62728">best</text><text x="%.0f" y="38" fill="#3182bd">mean, band: +-1 sd</text>`+"\n", pad, pad+40)

	for k, p := range grids {
		drawGrid(&b, w+float64(k)*(chartH+20), p, best.Grid(p.Name))
	}
	drawKnobs(&b, chartH, w, genes, history)
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// drawAxes draws the axes of a w x h chart with margin pad: the value
// axis labelled at lo, the middle and hi (y maps a value to its height),
// and the index axis from first to n.
func drawAxes(b *bytes.Buffer, w, h, pad, lo, hi float64, y func(float64) float64, first string, n int) {
	fmt.Fprintf(b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="black"/>`+"\n", pad, h-pad, w-pad, h-pad)
	fmt.Fprintf(b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="black"/>`+"\n", pad, pad, pad, h-pad)
	for _, v := range []float64{lo, (lo + hi) / 2, hi} {
		fmt.Fprintf(b, `<text x="%.0f" y="%.1f" text-anchor="end">%.4g</text>`+"\n", pad-4, y(v)+4, v)
	}
	fmt.Fprintf(b, `<text x="%.0f" y="%.0f">%s</text><text x="%.0f" y="%.0f" text-anchor="end">%d</text>`+"\n",
		pad, h-pad+16, esc(first), w-pad, h-pad+16, n)
}

// drawGrid draws a grid's cells as a heatmap, white at the smallest cell
// and dark red at the largest, with each value written in its cell.
func drawGrid(b *bytes.Buffer, left float64, p *genome.Param, cells []float64) {
	const top, size = 40.0, 280.0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range cells {
		lo, hi = min(lo, c), max(hi, c)
	}
	cw, ch := size/float64(p.Cols), size/float64(p.Rows)
	fmt.Fprintf(b, `<text x="%.0f" y="20" font-size="14">best %s (%v), %.3g to %.3g</text>`+"\n", left, esc(p.Name), p.Symmetry, lo, hi)
	for r := range p.Rows {
		for c := range p.Cols {
			v := cells[r*p.Cols+c]
			t := 0.0
			if hi > lo {
				t = (v - lo) / (hi - lo)
			}
			red := 255 - int(t*100)
			other := 255 - int(t*220)
			fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="rgb(%d,%d,%d)" stroke="#ccc"/>`+"\n",
				left+float64(c)*cw, top+float64(r)*ch, cw, ch, red, other, other)
			if p.Cols <= 12 {
				fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="9" text-anchor="middle">%.2f</text>`+"\n",
					left+(float64(c)+0.5)*cw, top+(float64(r)+0.6)*ch, v)
			}
		}
	}
}

func esc(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Rows of the knob picture.
const knobRow, knobTop = 22.0, 30.0

// knobsHeight is the height of the knob picture: none when no generation
// recorded its best's genes (checkpoints from before they were kept).
func knobsHeight(genes []genome.Gene, history []GenStats) float64 {
	if !hasBestGenes(history) {
		return 0
	}
	return knobTop + knobRow*float64(len(genes)) + 30
}

func hasBestGenes(history []GenStats) bool {
	for _, s := range history {
		if s.BestGenes != nil {
			return true
		}
	}
	return false
}

// drawKnobs draws, from height top, one strip per gene: the gene of the
// run's best after each generation, normalised to its range (0 at the
// knob's min, 1 at its max, on its log scale where it has one; an int,
// bool or choice at the centre of its bucket), on the generation axis of
// the chart above. A knob that settles draws a flat line; one the search
// still argues about, a jagged one.
func drawKnobs(b *bytes.Buffer, top, w float64, genes []genome.Gene, history []GenStats) {
	if !hasBestGenes(history) {
		return
	}
	const pad = 50.0 // as the chart's, so a generation is at the same x
	fmt.Fprintf(b, `<text x="%.0f" y="%.0f" font-size="14">knobs of the best after each generation, each from its min (bottom) to its max (top)</text>`+"\n", pad, top+18)
	n := len(history)
	x := func(i int) float64 {
		if n == 1 {
			return pad + (w-2*pad)/2
		}
		return pad + float64(i)*(w-2*pad)/float64(n-1)
	}
	for k, g := range genes {
		y0 := top + knobTop + knobRow*float64(k)
		y := func(v float64) float64 { return y0 + knobRow - 3 - v*(knobRow-6) }
		fmt.Fprintf(b, `<rect x="%.0f" y="%.1f" width="%.0f" height="%.1f" fill="#f4f4f4" stroke="#ddd"/>`+"\n", pad, y0+2, w-2*pad, knobRow-4)
		fmt.Fprintf(b, `<text x="%.0f" y="%.1f" font-size="11">%s</text>`+"\n", w-pad+6, y0+knobRow/2+4, esc(g.String()))
		var pts bytes.Buffer
		count, lastX, lastY := 0, 0.0, 0.0
		for i, s := range history {
			if len(s.BestGenes) != len(genes) {
				continue
			}
			count, lastX, lastY = count+1, x(i), y(s.BestGenes[k])
			fmt.Fprintf(&pts, "%.1f,%.1f ", lastX, lastY)
		}
		if count == 1 { // a line of one point does not show
			fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="2" fill="#31a354"/>`+"\n", lastX, lastY)
		} else if count > 1 {
			fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="#31a354" stroke-width="1.5"/>`+"\n", bytes.TrimSpace(pts.Bytes()))
		}
	}
}
