package dashboard

import (
	"bytes"
	"fmt"
	"html/template"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/evotune/evotune/engine/config"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/plot"
)

// maxCompared bounds the runs one comparison shows.
const maxCompared = 8

// compared is one run of a comparison, its figures leading as its page's
// do: fresh, the start's, the gain over it, then as selected.
type compared struct {
	ID, Dir, Colour, Name string
	Class                 string // c0, c1, ...: the run's colour in the page's style
	Lead                  lead
	// Mark is what the chart marks for the run: its fresh figure, else
	// (no verdict yet) the one that chose it.
	Mark string
}

// compareRow is a knob's values, one per run.
type compareRow struct {
	Name   string
	Values []string
	Differ bool
}

// comparePage is two or more runs of one game side by side.
type comparePage struct {
	Runs    []compared
	Problem string
	Chart   template.HTML
	Rows    []compareRow
	Grids   template.HTML
	Command string
	IDs     []string
}

func (s *Server) compare(w http.ResponseWriter, req *http.Request) {
	ids := req.URL.Query()["r"]
	var runs []*run
	for _, id := range ids {
		e, ok := s.entryOf(w, id)
		if !ok {
			return
		}
		runs = append(runs, s.reader.read(e))
	}
	p := s.comparePage(runs)
	p.IDs = ids
	s.page(w, http.StatusOK, layout{Title: "compare", Content: s.fragment("compare", p)})
}

func (s *Server) comparePage(runs []*run) comparePage {
	var p comparePage
	switch {
	case len(runs) < 2:
		p.Problem = "choose two or more runs of one game on the list of runs"
		return p
	case len(runs) > maxCompared:
		p.Problem = fmt.Sprintf("%d runs: compare at most %d at once", len(runs), maxCompared)
		return p
	}
	var views []*engine.SpeciesView
	var cfgs []*config.Config
	var dirs []string
	for i, r := range runs {
		if r.Ins == nil || r.Ins.Setup == nil || len(r.Ins.Views) == 0 {
			msg := "nothing readable yet"
			if r.Err != nil {
				msg = r.Err.Error()
			}
			p.Problem = cleanText(r.dir + ": " + msg)
			return p
		}
		v := &r.Ins.Views[0]
		views, cfgs, dirs = append(views, v), append(cfgs, r.Ins.Setup.Config()), append(dirs, r.dir)
		c := compared{ID: r.id, Dir: r.dir, Colour: plot.Series[i%len(plot.Series)], Class: fmt.Sprintf("c%d", i%len(plot.Series)), Name: r.Ins.Header.Name, Lead: leadOf(v)}
		p.Runs = append(p.Runs, c)
	}
	if problem := sameGame(cfgs, dirs); problem != "" {
		p.Problem = problem
		return p
	}
	if problem := sameMeasure(views, dirs); problem != "" {
		p.Problem = problem
		return p
	}
	p.Chart = overlay(views, p.Runs)
	p.Rows, p.Grids = knobsSideBySide(views, p.Runs)
	quoted := make([]string, len(dirs))
	for i, d := range dirs {
		quoted[i] = shellQuote(d)
	}
	p.Command = "evotune compare " + strings.Join(quoted, " ") + " --games 2000"
	return p
}

// sameGame says what differs when the runs do not play one game under
// one set of rules.
func sameGame(cfgs []*config.Config, dirs []string) string {
	for i := 1; i < len(cfgs); i++ {
		a, b := cfgs[0], cfgs[i]
		if a.Game != b.Game {
			return fmt.Sprintf("%s plays %s and %s plays %s: runs of different games do not compare", dirs[0], a.Game, dirs[i], b.Game)
		}
		if !maps.Equal(a.Rules, b.Rules) {
			return fmt.Sprintf("%s and %s play %s under different rules (%s; %s): their figures do not compare", dirs[0], dirs[i], a.Game, rulesText(a.Rules), rulesText(b.Rules))
		}
	}
	return ""
}

func sameMeasure(views []*engine.SpeciesView, dirs []string) string {
	for i := 1; i < len(views); i++ {
		if views[i].Measure != views[0].Measure {
			return fmt.Sprintf("%s measures %s and %s measures %s: their curves do not share an axis", dirs[0], views[0].Measure, dirs[i], views[i].Measure)
		}
	}
	return ""
}

func rulesText(r map[string]string) string {
	if len(r) == 0 {
		return "the defaults"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(r)) {
		parts = append(parts, k+"="+r[k])
	}
	return strings.Join(parts, " ")
}

// overlay draws the runs' curves on one axis: each run's generation best
// and its recommended best with its interval, in the run's colour: on
// fresh deals where the run measured it (the figure to quote), else as
// selected, which the mark's name says.
func overlay(views []*engine.SpeciesView, runs []compared) template.HTML {
	v0 := views[0]
	ch := plot.Chart{Title: "generation's best, and each run's recommended best on fresh deals", YLabel: v0.Measure + " (" + v0.Direction() + ")",
		ID: "compare-chart", Width: 1180, Height: 460, Bounds: v0.Bounds}
	for i, v := range views {
		best := make([]float64, len(v.History))
		for g, h := range v.History {
			best[g] = h.Best
		}
		ch.Lines = append(ch.Lines, plot.Line{Name: runs[i].Dir, Colour: runs[i].Colour, Y: best, Core: true, Width: 1.5})
		f, what := v.Recommended().Figure, "as selected (no fresh figure yet)"
		if fresh, _, ok := v.Fresh(); ok {
			f, what = fresh, "on fresh deals"
		}
		runs[i].Mark = what
		ch.Marks = append(ch.Marks, plot.Mark{Name: fmt.Sprintf("%s: recommended, %s: %s over %d games", runs[i].Dir, what, english.Interval(f.Fitness, f.CI95, false), f.Games),
			Short: fmt.Sprint(i + 1), Colour: runs[i].Colour, Value: f.Fitness, Lo: f.CI95[0], Hi: f.CI95[1]})
	}
	return template.HTML(ch.SVG())
}

// knobsSideBySide lists every knob of the runs' recommended bests, one
// column per run, by the knob's name (runs may search different knobs
// or symmetries), and their grids' heat maps side by side.
func knobsSideBySide(views []*engine.SpeciesView, runs []compared) ([]compareRow, template.HTML) {
	var names []string
	for _, v := range views {
		for _, p := range v.Params {
			if !slices.Contains(names, p.Name) {
				names = append(names, p.Name)
			}
		}
	}
	var rows []compareRow
	var grids bytes.Buffer
	for _, name := range names {
		row := compareRow{Name: name}
		gridRow := false
		for _, v := range views {
			p, ok := v.Params.Lookup(name)
			if !ok {
				row.Values = append(row.Values, "-")
				continue
			}
			if p.Kind == genome.Grid {
				gridRow = true
			}
			row.Values = append(row.Values, formatValue(p, v.Best.Get(name)))
		}
		for _, x := range row.Values[1:] {
			row.Differ = row.Differ || x != row.Values[0]
		}
		rows = append(rows, row)
		if gridRow {
			// One colour scale for the grids side by side: a shade is
			// one value in all of them.
			scale := [2]float64{math.Inf(1), math.Inf(-1)}
			for _, v := range views {
				for k := range v.Grids {
					if v.Grids[k].Name == name {
						for _, c := range v.Grids[k].Cells {
							scale = [2]float64{min(scale[0], c), max(scale[1], c)}
						}
					}
				}
			}
			grids.WriteString(`<div class="grid-row">`)
			for i, v := range views {
				for k := range v.Grids {
					if v.Grids[k].Name == name {
						g := v.Grids[k]
						g.Name = fmt.Sprintf("%s of %d", g.Name, i+1)
						g.Scale = scale
						fmt.Fprintf(&grids, `<div class="grid c%d">`, i%len(plot.Series))
						grids.Write(g.SVG())
						grids.WriteString(`</div>`)
					}
				}
			}
			grids.WriteString(`</div>`)
		}
	}
	return rows, template.HTML(grids.String())
}

// formatValue writes a knob's value; a grid as its size and the range of
// its cells.
func formatValue(p *genome.Param, v genome.Value) string {
	switch p.Kind {
	case genome.Float:
		return strconv.FormatFloat(v.Num, 'g', 6, 64)
	case genome.Grid:
	default:
		return p.Format(v)
	}
	lo, hi := slices.Min(v.Cells), slices.Max(v.Cells)
	return fmt.Sprintf("%dx%d, %s to %s", p.Rows, p.Cols, plot.Num(lo), plot.Num(hi))
}
