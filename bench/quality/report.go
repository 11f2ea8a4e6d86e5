package quality

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/printable"
)

// A Line is one row of a table: its finished records, or why the row
// cannot run the config (Refused, one line).
type Line struct {
	Name    string
	Records []Record
	Refused string
}

// Shares are the budget's shares a table gives, in percent.
var Shares = []int{25, 50, 100}

// Summary is a line's figures: at each share of the budget (Shares),
// the median games played and the median and quartiles of the
// recommendation's figure over the seeds.
type Summary struct {
	Model   string  `json:"model"`
	Refused string  `json:"refused,omitempty"` // why the model cannot run the config
	Seeds   int     `json:"seeds"`             // finished runs
	At      []Point `json:"at"`
}

// Point is a line's figures at one share of the budget.
type Point struct {
	Share  int     `json:"share_percent"`
	Games  float64 `json:"games"` // median over the seeds
	Median float64 `json:"median"`
	Q1     float64 `json:"q1"`
	Q3     float64 `json:"q3"`
}

// Summarize is l's figures.
func Summarize(l Line) Summary {
	s := Summary{Model: l.Name, Refused: l.Refused, Seeds: len(l.Records), At: []Point{}}
	if l.Refused != "" || len(l.Records) == 0 {
		return s
	}
	for _, share := range Shares {
		q := Quarters*share/100 - 1
		games, _, _ := Quantiles(gamesAt(l.Records, q))
		med, lo, hi := Quantiles(figuresAt(l.Records, q))
		s.At = append(s.At, Point{Share: share, Games: games, Median: med, Q1: lo, Q3: hi})
	}
	return s
}

// Table writes lines as a Markdown table: each row's figure at 25%, 50%
// and 100% of the budget (median [interquartile range] over its seeds);
// with target, the median games until the first measured recommendation
// reached it (to a quarter of the budget) and the seeds that reached it;
// without, the median games played.
func Table(w io.Writer, lines []Line, lowerIsBetter bool, target func(Record) float64) {
	head := "| model | seeds | at 25% | at 50% | at 100% of the budget |"
	if target != nil {
		fmt.Fprintln(w, head+" games to the target (median) | reached |")
		fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	} else {
		fmt.Fprintln(w, head+" games (median) |")
		fmt.Fprintln(w, "|---|---|---|---|---|---|")
	}
	for _, l := range lines {
		s := Summarize(l)
		if s.Refused != "" {
			fmt.Fprintf(w, "| %s | cannot run: %s |\n", l.Name, oneLine(l.Refused))
			continue
		}
		if s.Seeds == 0 {
			fmt.Fprintf(w, "| %s | 0 | no finished run yet |\n", l.Name)
			continue
		}
		row := fmt.Sprintf("| %s | %d |", l.Name, s.Seeds)
		for _, p := range s.At {
			row += fmt.Sprintf(" %.4g [%.4g, %.4g] |", p.Median, p.Q1, p.Q3)
		}
		if target == nil {
			fmt.Fprintf(w, "%s %s |\n", row, english.Thousands(int64(math.Round(s.At[len(s.At)-1].Games))))
			continue
		}
		var toTarget []float64
		reached := 0
		for _, r := range l.Records {
			first, t := math.Inf(1), target(r)
			for g, f := range r.Figures {
				if lowerIsBetter && f <= t || !lowerIsBetter && f >= t {
					first = float64(r.Games[g])
					break
				}
			}
			if !math.IsInf(first, 1) {
				reached++
			}
			toTarget = append(toTarget, first)
		}
		med, _, _ := Quantiles(toTarget)
		text := "more than the budget"
		if !math.IsInf(med, 1) {
			text = english.Thousands(int64(math.Round(med)))
		}
		fmt.Fprintf(w, "%s %s | %d of %d |\n", row, text, reached, len(l.Records))
	}
}

// oneLine keeps a message to its first line, table-safe, with the
// control characters a program's text may hold escaped.
func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.ReplaceAll(printable.Escape(s), "|", `\|`)
}

func figuresAt(recs []Record, q int) []float64 {
	var xs []float64
	for _, r := range recs {
		xs = append(xs, r.Figures[q])
	}
	return xs
}

func gamesAt(recs []Record, q int) []float64 {
	var xs []float64
	for _, r := range recs {
		xs = append(xs, float64(r.Games[q]))
	}
	return xs
}

// Quantiles returns the median and the interquartile range of xs
// (linear interpolation between order statistics).
func Quantiles(xs []float64) (med, lo, hi float64) {
	s := slices.Clone(xs)
	sort.Float64s(s)
	q := func(f float64) float64 {
		pos := f * float64(len(s)-1)
		i := int(pos)
		if i+1 >= len(s) || pos == float64(i) { // (an infinite neighbour would give NaN)
			return s[i]
		}
		return s[i] + (pos-float64(i))*(s[i+1]-s[i])
	}
	return q(0.5), q(0.25), q(0.75)
}

// colours are the curves' colours, one a row of the benchmark's.
var colours = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf", "#bcbd22"}

// Draw draws each line's median figure against the games played (the
// median over its seeds at each quarter), with its interquartile band,
// and ref (the target, the start) as a dashed line named refName.
func Draw(title, refName string, ref []float64, lines []Line) []byte {
	type curve struct {
		name   string
		points [][4]float64 // games, median, low, high
	}
	var curves []curve
	budget := 0.0
	for _, l := range lines {
		if len(l.Records) == 0 {
			continue
		}
		c := curve{name: l.Name}
		for q := range Quarters {
			games, _, _ := Quantiles(gamesAt(l.Records, q))
			med, lo, hi := Quantiles(figuresAt(l.Records, q))
			c.points = append(c.points, [4]float64{games, med, lo, hi})
			budget = max(budget, games)
		}
		curves = append(curves, c)
	}
	const w, h, left, right, top, bottom = 820.0, 480.0, 70.0, 170.0, 50.0, 50.0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range curves {
		for _, p := range c.points {
			lo, hi = min(lo, p[2]), max(hi, p[3])
		}
	}
	for _, t := range ref {
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
	fmt.Fprintf(&b, `<text x="10" y="20" font-size="13">%s</text>`+"\n", escape(title))
	fmt.Fprintf(&b, `<text x="10" y="36" fill="#555">line: the median over the seeds; band: the interquartile range; dashed: the %s</text>`+"\n", escape(refName))
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
	if len(ref) > 0 {
		fmt.Fprintf(&b, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="black" stroke-dasharray="5,4"/>`+"\n", left, y(ref[0]), w-right, y(ref[0]))
		// Inside the plot, above the line: the legend holds the right margin.
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" fill="#555">%s</text>`+"\n", left+6, y(ref[0])-5, escape(refName))
	}
	for i, c := range curves {
		col := colours[i%len(colours)]
		var band, med strings.Builder
		for _, p := range c.points {
			fmt.Fprintf(&band, "%.1f,%.1f ", x(p[0]), y(p[3]))
			fmt.Fprintf(&med, "%.1f,%.1f ", x(p[0]), y(p[1]))
		}
		for k := len(c.points) - 1; k >= 0; k-- {
			fmt.Fprintf(&band, "%.1f,%.1f ", x(c.points[k][0]), y(c.points[k][2]))
		}
		fmt.Fprintf(&b, `<polygon points="%s" fill="%s" fill-opacity="0.12" stroke="none"/>`+"\n", band.String(), col)
		// A racing row is dashed: where racing cut nothing its line is
		// its model's, which shows through the gaps.
		dash := ""
		if strings.HasSuffix(c.name, "+racing") {
			dash = ` stroke-dasharray="7,5"`
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"%s/>`+"\n", med.String(), col, dash)
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" fill="%s">%s</text>`+"\n", w-right+6, top+20+float64(i)*18, col, escape(c.name))
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// escape makes text safe inside an SVG text element.
func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
