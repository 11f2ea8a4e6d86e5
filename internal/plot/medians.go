package plot

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/evotune/evotune/internal/english"
)

// medianColours are Medians' line colours, in order.
var medianColours = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf", "#bcbd22"}

// Medians are figures against the games played to reach them (the
// quality benchmark's recommendations a quarter of the budget at a
// time): each line's median over seeds with its interquartile band, and
// a reference figure (the target, the start) as a dashed line.
type Medians struct {
	Title   string
	RefName string    // what the reference line is
	Ref     []float64 // its figure, the first; none when empty
	Lines   []MedianLine
}

// MedianLine is one line of Medians: per point, the games, the median
// and the quartiles' low and high; Dashed for a line drawn over another
// that shows through (a racing row where racing cut nothing).
type MedianLine struct {
	Name   string
	Dashed bool
	Points [][4]float64
}

// SVG draws the lines, 820 by 480 pixels, the legend in the right
// margin.
func (m Medians) SVG() []byte {
	budget := 0.0
	for _, c := range m.Lines {
		for _, p := range c.Points {
			budget = max(budget, p[0])
		}
	}
	const w, h, left, right, top, bottom = 820.0, 480.0, 70.0, 170.0, 50.0, 50.0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range m.Lines {
		for _, p := range c.Points {
			lo, hi = min(lo, p[2]), max(hi, p[3])
		}
	}
	for _, t := range m.Ref {
		lo, hi = min(lo, t), max(hi, t)
	}
	if !(hi > lo) { // one figure, or none: a range around it
		lo, hi = lo-1, hi+1
		if math.IsInf(lo, 0) {
			lo, hi = 0, 1
		}
	}
	budget = max(budget, 1)
	pad := (hi - lo) * 0.05
	lo, hi = lo-pad, hi+pad
	x := func(g float64) float64 { return left + g/budget*(w-left-right) }
	y := func(f float64) float64 { return top + (hi-f)/(hi-lo)*(h-top-bottom) }
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="12">`+"\n", w, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="10" y="20" font-size="13">%s</text>`+"\n", Esc(m.Title))
	fmt.Fprintf(&b, `<text x="10" y="36" fill="#555">line: the median over the seeds; band: the interquartile range; dashed: the %s</text>`+"\n", Esc(m.RefName))
	fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="black"/>`+"\n", left, h-bottom, w-right, h-bottom)
	fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="black"/>`+"\n", left, top, left, h-bottom)
	for k := 0; k <= 4; k++ {
		g := budget * float64(k) / 4
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#ddd"/>`+"\n", x(g), top, x(g), h-bottom)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="middle">%s</text>`+"\n", x(g), h-bottom+16, english.Thousands(int64(math.Round(g))))
		f := lo + (hi-lo)*float64(k)/4
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end">%.4g</text>`+"\n", left-6, y(f)+4, f)
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" text-anchor="middle">games played by the run</text>`+"\n", (left+w-right)/2, h-12)
	if len(m.Ref) > 0 {
		fmt.Fprintf(&b, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="black" stroke-dasharray="5,4"/>`+"\n", left, y(m.Ref[0]), w-right, y(m.Ref[0]))
		// Inside the plot, above the line: the legend holds the right margin.
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" fill="#555">%s</text>`+"\n", left+6, y(m.Ref[0])-5, Esc(m.RefName))
	}
	for i, c := range m.Lines {
		col := medianColours[i%len(medianColours)]
		var band, med strings.Builder
		for _, p := range c.Points {
			fmt.Fprintf(&band, "%.1f,%.1f ", x(p[0]), y(p[3]))
			fmt.Fprintf(&med, "%.1f,%.1f ", x(p[0]), y(p[1]))
		}
		for k := len(c.Points) - 1; k >= 0; k-- {
			fmt.Fprintf(&band, "%.1f,%.1f ", x(c.Points[k][0]), y(c.Points[k][2]))
		}
		fmt.Fprintf(&b, `<polygon points="%s" fill="%s" fill-opacity="0.12" stroke="none"/>`+"\n", band.String(), col)
		dash := ""
		if c.Dashed {
			dash = ` stroke-dasharray="7,5"`
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"%s/>`+"\n", med.String(), col, dash)
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" fill="%s">%s</text>`+"\n", w-right+6, top+20+float64(i)*18, col, Esc(c.Name))
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// Reach is, per method, the games each run took to reach a target (the
// sample-efficiency benchmark): one row a method.
type Reach struct {
	Title    string
	MaxGames int
	Rows     []ReachRow
}

// ReachRow is a method's runs.
type ReachRow struct {
	Name   string
	Points []ReachPoint
}

// ReachPoint is one run: the games it played, whether it reached the
// target in them, and whether it is done (out of budget, when it did not
// reach it).
type ReachPoint struct {
	Games         int
	Reached, Done bool
}

// SVG draws one row per method: a filled dot per run that reached the
// target at the games it took, a hollow one at the right edge per run
// out of budget, a grey one per run still going at its games so far, and
// a bar at the median of the finished runs.
func (r Reach) SVG() []byte {
	const left, right, top, rowH = 170.0, 40.0, 50.0, 40.0
	const w = 760.0
	h := top + rowH*float64(len(r.Rows)) + 50
	maxGames := r.MaxGames
	x := func(g int) float64 { return left + float64(g)/float64(maxGames)*(w-left-right) }
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="12">`+"\n", w, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="10" y="20" font-size="14">%s</text>`+"\n", Esc(r.Title))
	fmt.Fprintf(&b, `<text x="10" y="36" fill="#555">filled: reached; hollow: not within %d games; grey: still running; bar: median of finished runs</text>`+"\n", maxGames)
	axisY := top + rowH*float64(len(r.Rows))
	fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="black"/>`+"\n", left, axisY, w-right, axisY)
	for k := 0; k <= 4; k++ {
		g := maxGames * k / 4
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#ddd"/>`+"\n", x(g), top, x(g), axisY)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="middle">%d</text>`+"\n", x(g), axisY+16, g)
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" text-anchor="middle">games played by the run</text>`+"\n", (left+w-right)/2, axisY+34)
	for i, row := range r.Rows {
		y := top + rowH*(float64(i)+0.5)
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-10, y+4, Esc(row.Name))
		var done []int
		for j, p := range row.Points {
			dy := float64(j%5-2) * 4 // spread the runs of a row so equal figures stay visible
			switch {
			case p.Reached:
				done = append(done, p.Games)
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" fill="#3182bd"/>`+"\n", x(p.Games), y+dy)
			case p.Done:
				done = append(done, maxGames+1)
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" fill="none" stroke="#d62728"/>`+"\n", x(maxGames), y+dy)
			default:
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="#bbb"/>`+"\n", x(p.Games), y+dy)
			}
		}
		if len(done) > 0 {
			slices.Sort(done)
			med := (done[(len(done)-1)/2] + done[len(done)/2]) / 2
			if med <= maxGames {
				fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black" stroke-width="2"/>`+"\n", x(med), y-12, x(med), y+12)
			}
		}
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}
