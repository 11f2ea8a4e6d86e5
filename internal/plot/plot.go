// Package plot draws evotune's figures as SVG: a measure over the
// generations (lines, bands, intervals and reference lines on a y-range
// chosen from the region of interest), a knob's trajectory in its own
// units, a weight grid as a heat map, bars per generation and curves
// with bands (eval's learning curves), and escapes their text (Esc).
// report.svg (engine), the dashboard and the CLI draw with it, so all
// show the same picture. It knows nothing of runs: callers hand it
// numbers.
//
// Output is deterministic (fixed number formats, no map iteration), so a
// figure drawn twice from the same numbers is the same bytes.
package plot

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Palette: the colours every figure uses for the same things.
const (
	ColourBest    = "#d62728" // the generation's best
	ColourSoFar   = "#7f1d1d" // the best so far
	ColourMean    = "#3182bd" // the mean and its band
	ColourBand    = "#9ecae1"
	ColourRec     = "#2ca02c" // the recommended best and its interval
	ColourFresh   = "#9467bd" // the fresh (remeasured) figure
	ColourRef     = "#636363" // reference lines
	ColourStart   = "#8c6d31" // the starting point
	ColourKnob    = "#31a354"
	ColourPlayed  = "#3182bd"
	ColourSaved   = "#a1d99b"
	colourAxis    = "#333"
	colourGrid    = "#e5e5e5"
	colourNote    = "#777"
	fontFamily    = "sans-serif"
	charWidth     = 6.6 // an estimate of a 12px sans-serif character's width, for layout
	smallFontSize = 11
)

// Series is one colour of a run compared with others (Overlay).
var Series = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf"}

// Line is a value per generation (index 0 is generation 1); NaN where a
// generation has none.
type Line struct {
	Name   string
	Colour string
	Y      []float64
	Width  float64 // stroke width; 0 means 2
	Dash   string  // stroke-dasharray, "" for solid
	// Core lines decide the y-range; the others may widen it by at most
	// the core's span on either side and are clipped beyond.
	Core bool
}

// Band is a shaded area per generation between Lo and Hi; it never
// decides the y-range and is clipped to it.
type Band struct {
	Name   string
	Colour string
	Lo, Hi []float64
}

// Mark is a figure with its interval, drawn right of the last generation
// (a run's recommended best, its fresh remeasure). Its value and interval
// always decide the y-range.
type Mark struct {
	Name   string // legend text, with the figures
	Short  string // the label beside the mark
	Colour string
	Value  float64
	Lo, Hi float64
}

// Ref is a horizontal reference line with its label; it decides the
// y-range.
type Ref struct {
	Name   string
	Value  float64
	Colour string
}

// Chart is a measure over the generations.
type Chart struct {
	Title  string
	YLabel string // the measure, with its direction: "shots (lower is better)"
	XLabel string // what the x-axis counts; "" means generation
	Lines  []Line
	Bands  []Band
	Marks  []Mark
	Refs   []Ref
	// Bounds are the measure's own limits (a score's [0, 1]); the y-range
	// never leaves them. Zero Bounds means none.
	Bounds [2]float64
	// Width and Height of the picture; 0 means 760 by 380.
	Width, Height float64
	// ID, when set, is the id attribute of the picture (the dashboard's
	// tests and script find the chart by it).
	ID string
}

// Layout of a chart.
const (
	padLeft   = 64.0
	padTop    = 40.0 // the first legend row's baseline, below the title
	padBottom = 40.0
	markSlot  = 44.0
	legendRow = 16.0
)

// frame is where a chart's plot area lies and how values map into it.
type frame struct {
	left, top, right, bottom float64
	lo, hi                   float64
	n                        int
}

func (f frame) x(i int) float64 {
	if f.n <= 1 {
		return (f.left + f.right) / 2
	}
	return f.left + float64(i)*(f.right-f.left)/float64(f.n-1)
}

func (f frame) y(v float64) float64 {
	return f.bottom - (v-f.lo)/(f.hi-f.lo)*(f.bottom-f.top)
}

// generations is the number of generations the chart spans.
func (c *Chart) generations() int {
	n := 0
	for _, l := range c.Lines {
		n = max(n, len(l.Y))
	}
	for _, b := range c.Bands {
		n = max(n, len(b.Lo), len(b.Hi))
	}
	return n
}

// YRange is the chart's y-range: the smallest range holding the core
// lines, the marks with their intervals and the reference lines, widened
// towards the other lines and bands by at most that span on each side,
// padded by 6% and kept within Bounds. So a first generation's wide
// spread does not squash the region where the best moves.
func (c *Chart) YRange() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	hold := func(vs ...float64) {
		for _, v := range vs {
			if finite(v) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	for _, l := range c.Lines {
		if l.Core {
			hold(l.Y...)
		}
	}
	for _, m := range c.Marks {
		hold(m.Value, m.Lo, m.Hi)
	}
	for _, r := range c.Refs {
		hold(r.Value)
	}
	if lo > hi { // no core: the other lines decide
		for _, l := range c.Lines {
			hold(l.Y...)
		}
	}
	if lo > hi {
		lo, hi = 0, 1
	}
	span := hi - lo
	if span == 0 {
		span = math.Max(math.Abs(lo)*0.05, 0.5)
		lo, hi = lo-span/2, hi+span/2
	}
	olo, ohi := lo, hi
	for _, l := range c.Lines {
		if !l.Core {
			for _, v := range l.Y {
				if finite(v) {
					lo, hi = min(lo, max(v, olo-span)), max(hi, min(v, ohi+span))
				}
			}
		}
	}
	pad := 0.06 * (hi - lo)
	lo, hi = lo-pad, hi+pad
	if c.Bounds != [2]float64{} {
		lo, hi = max(lo, c.Bounds[0]), min(hi, c.Bounds[1])
	}
	return lo, hi
}

// SVG draws the chart.
func (c *Chart) SVG() []byte {
	w, h := c.Width, c.Height
	if w == 0 {
		w = 760
	}
	if h == 0 {
		h = 380
	}
	var b bytes.Buffer
	legend := c.legend(w)
	top := padTop + float64(len(legend)-1)*legendRow + 14
	right := w - 20
	if len(c.Marks) > 0 {
		right = w - 20 - markSlot*float64(len(c.Marks)) - 30
	}
	lo, hi := c.YRange()
	f := frame{left: padLeft, top: top, right: right, bottom: h - padBottom, lo: lo, hi: hi, n: c.generations()}
	// The scale travels with the picture, so a reader (the dashboard's
	// readout, its tests) can turn a point back into its figure.
	open(&b, c.ID, w, h, fmt.Sprintf(` data-lo="%s" data-hi="%s" data-left="%.1f" data-right="%.1f" data-top="%.1f" data-bottom="%.1f" data-n="%d"`,
		num(lo), num(hi), f.left, f.right, f.top, f.bottom, f.n))
	fmt.Fprintf(&b, `<text x="%.0f" y="18" font-size="14" font-weight="bold">%s</text>`+"\n", padLeft-54, Esc(c.Title))
	for i, row := range legend {
		x := padLeft
		for _, it := range row {
			y := padTop + float64(i)*legendRow
			it.draw(&b, x, y)
			x += it.width()
		}
	}
	c.drawAxes(&b, f)
	clip := "clip"
	if c.ID != "" {
		clip = c.ID + "-clip"
	}
	fmt.Fprintf(&b, `<clipPath id="%s"><rect x="%.1f" y="%.1f" width="%.1f" height="%.1f"/></clipPath>`+"\n",
		clip, f.left, f.top, f.right-f.left, f.bottom-f.top)
	fmt.Fprintf(&b, `<g clip-path="url(#%s)">`+"\n", clip)
	clipped := false
	for _, band := range c.Bands {
		clipped = drawBand(&b, f, band) || clipped
	}
	for _, r := range c.Refs {
		colour := or(r.Colour, ColourRef)
		fmt.Fprintf(&b, `<line class="ref" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-dasharray="6 4"/>`+"\n",
			f.left, f.y(r.Value), f.right, f.y(r.Value), colour)
	}
	for _, l := range c.Lines {
		clipped = drawLine(&b, f, l) || clipped
	}
	b.WriteString("</g>\n")
	writeRefLabels(&b, f, c.Refs)
	for i, m := range c.Marks {
		x := f.right + 30 + markSlot*float64(i) + markSlot/2
		colour := or(m.Colour, ColourRec)
		fmt.Fprintf(&b, `<g class="mark" data-value="%s" data-lo="%s" data-hi="%s">`, num(m.Value), num(m.Lo), num(m.Hi))
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/>`,
			x, f.y(m.Lo), x, f.y(m.Hi), colour)
		for _, v := range []float64{m.Lo, m.Hi} {
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/>`, x-5, f.y(v), x+5, f.y(v), colour)
		}
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" fill="%s"/>`, x, f.y(m.Value), colour)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="%d" text-anchor="middle" fill="%s">%s</text></g>`+"\n",
			x, f.bottom+14, smallFontSize, colour, Esc(m.Short))
	}
	if clipped {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="%d" fill="%s" text-anchor="end">cut off beyond the scale</text>`+"\n",
			f.right, f.bottom+32, smallFontSize, colourNote)
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// legendItem is one entry of a chart's legend.
type legendItem struct {
	text, colour string
	kind         byte // 'l' line, 'b' band, 'm' mark, 'r' reference
}

func (it legendItem) width() float64 { return 28 + charWidth*float64(len([]rune(it.text))) + 14 }

func (it legendItem) draw(b *bytes.Buffer, x, y float64) {
	switch it.kind {
	case 'b':
		fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="20" height="8" fill="%s" fill-opacity="0.5"/>`, x, y-8, it.colour)
	case 'm':
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/><circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`,
			x+10, y-10, x+10, y+2, it.colour, x+10, y-4, it.colour)
	case 'r':
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-dasharray="6 4"/>`, x, y-4, x+20, y-4, it.colour)
	default:
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/>`, x, y-4, x+20, y-4, it.colour)
	}
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" fill="%s">%s</text>`+"\n", x+26, y, darker(it.colour), Esc(it.text))
}

// legend lays the legend out in rows that fit width w.
func (c *Chart) legend(w float64) [][]legendItem {
	var items []legendItem
	for _, l := range c.Lines {
		if l.Name != "" {
			items = append(items, legendItem{l.Name, l.Colour, 'l'})
		}
	}
	for _, band := range c.Bands {
		if band.Name != "" {
			items = append(items, legendItem{band.Name, band.Colour, 'b'})
		}
	}
	for _, m := range c.Marks {
		items = append(items, legendItem{m.Name, or(m.Colour, ColourRec), 'm'})
	}
	for _, r := range c.Refs {
		items = append(items, legendItem{r.Name, or(r.Colour, ColourRef), 'r'})
	}
	var rows [][]legendItem
	used := 0.0
	for _, it := range items {
		if len(rows) == 0 || used+it.width() > w-padLeft {
			rows = append(rows, nil)
			used = 0
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], it)
		used += it.width()
	}
	return rows
}

// drawAxes draws the value axis with its ticks and label, and the
// generation axis.
func (c *Chart) drawAxes(b *bytes.Buffer, f frame) {
	for _, t := range Ticks(f.lo, f.hi, 6) {
		y := f.y(t)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`, f.left, y, f.right, y, colourGrid)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="end" font-size="%d">%s</text>`+"\n", f.left-5, y+4, smallFontSize, TickLabel(t, f.lo, f.hi))
	}
	fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`, f.left, f.top, f.left, f.bottom, colourAxis)
	fmt.Fprintf(b, `<line data-axis="x" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`+"\n", f.left, f.bottom, f.right, f.bottom, colourAxis)
	mid := (f.top + f.bottom) / 2
	fmt.Fprintf(b, `<text x="14" y="%.1f" transform="rotate(-90 14 %.1f)" text-anchor="middle">%s</text>`+"\n", mid, mid, Esc(c.YLabel))
	if f.n == 0 {
		return
	}
	for _, g := range genTicks(f.n) {
		x := f.x(g - 1)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/><text x="%.1f" y="%.1f" text-anchor="middle" font-size="%d">%d</text>`+"\n",
			x, f.bottom, x, f.bottom+4, colourAxis, x, f.bottom+16, smallFontSize, g)
	}
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", (f.left+f.right)/2, f.bottom+32, Esc(or(c.XLabel, "generation")))
}

// genTicks are the generations labelled on an axis of n: 1, n and round
// numbers between.
func genTicks(n int) []int {
	if n == 1 {
		return []int{1}
	}
	step := niceStep(float64(n-1) / 6)
	s := max(1, int(step))
	out := []int{1}
	for g := s; g < n; g += s {
		if g > 1 && float64(n-g) > 0.4*float64(s) {
			out = append(out, g)
		}
	}
	return append(out, n)
}

// drawLine draws l's polyline (a run of finite values each); it reports
// whether some value lies outside the y-range.
func drawLine(b *bytes.Buffer, f frame, l Line) bool {
	width := l.Width
	if width == 0 {
		width = 2
	}
	dash := ""
	if l.Dash != "" {
		dash = ` stroke-dasharray="` + l.Dash + `"`
	}
	clipped := false
	for _, run := range runs(l.Y) {
		pts := prune(decimate(run.ys, f.right-f.left))
		if len(pts) == 1 {
			fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>`+"\n", f.x(run.first), f.y(pts[0].v), l.Colour)
		}
		var p bytes.Buffer
		for _, pt := range pts {
			clipped = clipped || pt.v < f.lo || pt.v > f.hi
			fmt.Fprintf(&p, "%.1f,%.1f ", f.x(run.first+pt.i), f.y(pt.v))
		}
		if len(pts) > 1 {
			fmt.Fprintf(b, `<polyline class="line" data-name="%s" points="%s" fill="none" stroke="%s" stroke-width="%s"%s/>`+"\n",
				Esc(l.Name), bytes.TrimSpace(p.Bytes()), l.Colour, num(width), dash)
		}
	}
	return clipped
}

// drawBand draws the band's polygon over each run of finite generations.
func drawBand(b *bytes.Buffer, f frame, band Band) bool {
	n := min(len(band.Lo), len(band.Hi))
	ok := make([]float64, n)
	for i := range n {
		ok[i] = math.NaN()
		if finite(band.Lo[i]) && finite(band.Hi[i]) {
			ok[i] = 0
		}
	}
	clipped := false
	for _, run := range runs(ok) {
		hi := decimateMax(band.Hi[run.first:run.first+len(run.ys)], f.right-f.left)
		lo := decimateMin(band.Lo[run.first:run.first+len(run.ys)], f.right-f.left)
		var p bytes.Buffer
		for _, pt := range hi {
			clipped = clipped || pt.v > f.hi
			fmt.Fprintf(&p, "%.1f,%.1f ", f.x(run.first+pt.i), f.y(pt.v))
		}
		for k := len(lo) - 1; k >= 0; k-- {
			clipped = clipped || lo[k].v < f.lo
			fmt.Fprintf(&p, "%.1f,%.1f ", f.x(run.first+lo[k].i), f.y(lo[k].v))
		}
		fmt.Fprintf(b, `<polygon class="band" points="%s" fill="%s" fill-opacity="0.4"/>`+"\n", bytes.TrimSpace(p.Bytes()), band.Colour)
	}
	return clipped
}

// run is a stretch of consecutive finite values.
type run struct {
	first int
	ys    []float64
}

func runs(ys []float64) []run {
	var out []run
	for i := 0; i < len(ys); {
		if !finite(ys[i]) {
			i++
			continue
		}
		j := i
		for j < len(ys) && finite(ys[j]) {
			j++
		}
		out = append(out, run{first: i, ys: ys[i:j]})
		i = j
	}
	return out
}

// prune drops the points inside a stretch of equal values: the line
// through the stretch's ends draws the same. A knob's best changes in a
// few generations of thousands, so its strip is a few points.
func prune(pts []point) []point {
	if len(pts) < 3 {
		return pts
	}
	out := pts[:1]
	for i := 1; i < len(pts)-1; i++ {
		if pts[i].v == pts[i-1].v && pts[i].v == pts[i+1].v {
			continue
		}
		out = append(out, pts[i])
	}
	return append(out, pts[len(pts)-1])
}

// point is a value at an index of its run.
type point struct {
	i int
	v float64
}

// decimate keeps a line of more points than twice the pixels it spans
// readable and small: in each pixel's bucket of generations it keeps the
// lowest and the highest in their order, so no spike is lost.
func decimate(ys []float64, pixels float64) []point {
	buckets := int(pixels)
	if len(ys) <= 2*buckets || buckets < 1 {
		out := make([]point, len(ys))
		for i, v := range ys {
			out[i] = point{i, v}
		}
		return out
	}
	var out []point
	for k := range buckets {
		a, z := k*len(ys)/buckets, (k+1)*len(ys)/buckets
		if a >= z {
			continue
		}
		lo, hi := a, a
		for i := a; i < z; i++ {
			if ys[i] < ys[lo] {
				lo = i
			}
			if ys[i] > ys[hi] {
				hi = i
			}
		}
		first, second := min(lo, hi), max(lo, hi)
		out = append(out, point{first, ys[first]})
		if second != first {
			out = append(out, point{second, ys[second]})
		}
	}
	return out
}

func decimateMax(ys []float64, pixels float64) []point { return decimateBy(ys, pixels, math.Max) }
func decimateMin(ys []float64, pixels float64) []point { return decimateBy(ys, pixels, math.Min) }

// decimateBy keeps one point per pixel's bucket: the bucket's extreme by
// pick, at the bucket's middle.
func decimateBy(ys []float64, pixels float64, pick func(a, b float64) float64) []point {
	buckets := int(pixels)
	if len(ys) <= buckets || buckets < 1 {
		out := make([]point, len(ys))
		for i, v := range ys {
			out[i] = point{i, v}
		}
		return out
	}
	out := make([]point, 0, buckets)
	for k := range buckets {
		a, z := k*len(ys)/buckets, (k+1)*len(ys)/buckets
		if a >= z {
			continue
		}
		v := ys[a]
		for _, y := range ys[a:z] {
			v = pick(v, y)
		}
		at := (a + z - 1) / 2
		if k == 0 {
			at = 0
		} else if k == buckets-1 {
			at = len(ys) - 1
		}
		out = append(out, point{at, v})
	}
	return out
}

// Ticks are about n round values spanning [lo, hi].
func Ticks(lo, hi float64, n int) []float64 {
	if !(hi > lo) || n < 1 {
		return []float64{lo}
	}
	step := niceStep((hi - lo) / float64(n))
	var out []float64
	for k := math.Ceil(lo / step); k*step <= hi+step*1e-9; k++ {
		v := k * step
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		out = append(out, v)
	}
	return out
}

// niceStep is the round number (1, 2 or 5 times a power of ten) nearest
// above x.
func niceStep(x float64) float64 {
	if !(x > 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*0.999999 {
			return m * p
		}
	}
	return 10 * p
}

// TickLabel writes tick t of a scale spanning [lo, hi] with just the
// digits the scale needs.
func TickLabel(t, lo, hi float64) string {
	step := niceStep((hi - lo) / 6)
	digits := max(0, int(-math.Floor(math.Log10(step))))
	if math.Abs(t) >= 1e6 || (t != 0 && math.Abs(t) < 1e-4) {
		return strconv.FormatFloat(t, 'g', 4, 64)
	}
	return strconv.FormatFloat(t, 'f', min(digits, 8), 64)
}

// refLine is the height of a reference label's line: labels of lines
// nearer than it are written apart.
const refLine = smallFontSize + 3

// writeRefLabels writes each reference line's label just above it. Lines
// at one level (a start that plays as the baselines do, at their 1/2)
// share one label, their names side by side, each in its line's colour;
// a label that would touch another, of a line near it, goes a line
// higher, so no label overlaps another or is crossed by a line of its
// level.
func writeRefLabels(b *bytes.Buffer, f frame, refs []Ref) {
	type label struct {
		y    float64 // the level of its lines
		refs []Ref
	}
	var labels []label
	for _, r := range refs {
		y := f.y(r.Value)
		if i := slices.IndexFunc(labels, func(l label) bool { return math.Abs(l.y-y) < 0.5 }); i >= 0 {
			labels[i].refs = append(labels[i].refs, r)
			continue
		}
		labels = append(labels, label{y, []Ref{r}})
	}
	var written []float64 // the baselines of the labels written
	for _, l := range labels {
		y := l.y - 3
		for slices.ContainsFunc(written, func(w float64) bool { return math.Abs(w-y) < refLine }) {
			y -= refLine
		}
		written = append(written, y)
		fmt.Fprintf(b, `<text class="ref-label" x="%.1f" y="%.1f" font-size="%d">`, f.left+4, y, smallFontSize)
		for i, r := range l.refs {
			if i > 0 {
				fmt.Fprintf(b, `<tspan fill="%s"> · </tspan>`, ColourRef)
			}
			fmt.Fprintf(b, `<tspan fill="%s">%s</tspan>`, or(r.Colour, ColourRef), Esc(r.Name))
		}
		b.WriteString("</text>\n")
	}
}

// Num writes a figure with 4 significant digits, as a chart labels it.
func Num(x float64) string {
	if !finite(x) {
		return "-"
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// num writes a number for an attribute: shortest exact form.
func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// darker is the colour legend text is written in: the item's own, but
// the pale band colour becomes its line's.
func darker(c string) string {
	switch c {
	case ColourBand:
		return ColourMean
	case ColourSaved:
		return "#41ab5d"
	}
	return c
}

// open starts a picture of w by h that scales to its container.
func open(b *bytes.Buffer, id string, w, h float64, attrs ...string) {
	idAttr := ""
	if id != "" {
		idAttr = ` id="` + Esc(id) + `"`
	}
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg"%s width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="%s" font-size="12"%s>`+"\n",
		idAttr, w, h, w, h, fontFamily, strings.Join(attrs, ""))
	fmt.Fprintf(b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
}

// Esc escapes text for SVG and HTML, and writes control characters as
// visible escapes (text from a program or a file must not be taken for
// markup or carry terminal codes).
func Esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case r == '"':
			b.WriteString("&#34;")
		case r == '\'':
			b.WriteString("&#39;")
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
