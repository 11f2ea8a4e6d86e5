package quality

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/plot"
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

// Draw draws each line's median figure against the games played (the
// median over its seeds at each quarter), with its interquartile band,
// and ref (the target, the start) as a dashed line named refName
// (plot.Medians). A racing row's line is dashed: where racing cut
// nothing its line is its model's, which shows through the gaps.
func Draw(title, refName string, ref []float64, lines []Line) []byte {
	m := plot.Medians{Title: title, RefName: refName, Ref: ref}
	for _, l := range lines {
		if len(l.Records) == 0 {
			continue
		}
		c := plot.MedianLine{Name: l.Name, Dashed: strings.HasSuffix(l.Name, "+racing")}
		for q := range Quarters {
			games, _, _ := Quantiles(gamesAt(l.Records, q))
			med, lo, hi := Quantiles(figuresAt(l.Records, q))
			c.Points = append(c.Points, [4]float64{games, med, lo, hi})
		}
		m.Lines = append(m.Lines, c)
	}
	return m.SVG()
}
