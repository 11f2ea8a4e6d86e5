package dashboard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/evotune/evotune/engine/runs"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/internal/plot"
)

// panel is one box of a run's page. The page is its panels in order: a
// new figure (a sequential test's LLR, SPSA's step sizes) is one more
// entry in speciesPanels or runPanels.
type panel struct {
	ID    string
	Title string
	Note  string // a line under the title: what the figure is, in a word
	Body  template.HTML
}

// speciesPanels are drawn for each species of a run, in this order.
var speciesPanels = []func(s *Server, r *run, v *engine.SpeciesView, sid string) (panel, bool){
	fitnessPanel,
	knobsPanel,
	gridsPanel,
	hallOfFamePanel,
	racingPanel,
	spreadPanel,
}

// runPanels are drawn once per run, after its species.
var runPanels = []func(s *Server, r *run) (panel, bool){
	inFlightPanel,
	throughputPanel,
	workersPanel,
	faultsPanel,
	commandsPanel,
	configPanel,
}

// card is a figure in the rows at the top of a run's page, with its
// interval (CI) written small under it; Class, when set, marks it for
// the page's style (a gain's reading).
type card struct {
	ID, Label, Value, CI, Note, Class string
}

// speciesPage is one species' panels.
type speciesPage struct {
	Label  string
	Panels []panel
}

// runPage is a run's page.
type runPage struct {
	Run      *run
	Title    string
	Subtitle string
	Lead     []card // the recommended best's figures, fresh first
	Cards    []card // the run's state and progress
	Species  []speciesPage
	Panels   []panel
	Problem  string
	Series   template.JS // the main chart's numbers, for the hover readout
}

func (s *Server) runPage(r *run) runPage {
	p := runPage{Run: r, Title: filepath.Base(r.dir)}
	h := runs.Header{}
	if r.Ins != nil {
		h = r.Ins.Header
	}
	if h.Name != "" {
		p.Title = h.Name
	}
	p.Subtitle = strings.Join(nonEmpty(h.Game, "player "+h.Player, "model "+h.Model), " · ")
	if r.Err != nil {
		p.Problem = cleanText(r.Err.Error())
	}
	p.Lead, p.Cards = runCards(r)
	if r.Ins != nil {
		for k := range r.Ins.Views {
			v := &r.Ins.Views[k]
			sid := "s" + strconv.Itoa(k)
			sp := speciesPage{Label: v.Label}
			for _, f := range speciesPanels {
				if pn, ok := f(s, r, v, sid); ok {
					sp.Panels = append(sp.Panels, pn)
				}
			}
			p.Species = append(p.Species, sp)
		}
		if len(r.Ins.Views) > 0 {
			p.Series = seriesJSON(&r.Ins.Views[0])
		}
	}
	for _, f := range runPanels {
		if pn, ok := f(s, r); ok {
			p.Panels = append(p.Panels, pn)
		}
	}
	return p
}

// seriesJSON is the main chart's numbers by generation.
func seriesJSON(v *engine.SpeciesView) template.JS {
	type row struct {
		G          int     `json:"g"`
		Best, Mean float64 `json:"-"`
		B, M, SD   string
	}
	out := make([]row, len(v.History))
	for i, h := range v.History {
		out[i] = row{G: h.Generation, B: plot.Num(h.Best), M: plot.Num(h.Mean), SD: plot.Num(h.SD)}
	}
	data, _ := json.Marshal(out)
	return template.JS(data)
}

func nonEmpty(parts ...string) []string {
	var out []string
	for _, p := range parts {
		if p != "" && !strings.HasSuffix(p, " ") {
			out = append(out, p)
		}
	}
	return out
}

// runCards are the figures at the top of a run's page: first, as run's
// own summary says them, the recommended best's fresh figure and its
// paired gain over the start, with the direction, then the start's and
// the figure that chose it (flattered by luck); then the run's state and
// progress.
func runCards(r *run) (lead, cards []card) {
	state := string(r.State)
	note := ""
	if r.Ins != nil && r.Ins.Held {
		note = "pid " + strconv.Itoa(r.Ins.Holder)
		if r.Ins.Holder == 0 {
			note = "held by a process"
		}
	}
	gen := strconv.Itoa(r.Generation())
	if b := r.Budget(); b > 0 {
		gen += " of " + strconv.Itoa(b)
	}
	cards = []card{{ID: "state", Label: "state", Value: state, Note: note}, {ID: "generations", Label: "generations", Value: gen}}
	if r.Ins == nil || len(r.Ins.Views) == 0 {
		if !r.Updated.IsZero() {
			cards = append(cards, card{ID: "updated", Label: "last checkpoint", Value: r.Updated.Format("15:04:05"), Note: r.Updated.Format("2006-01-02")})
		}
		return nil, cards
	}
	v := &r.Ins.Views[0]
	l := leadOf(v)
	dir := " (" + l.Measure + ", " + l.Direction + ")"
	figure := func(id, label, text, note, class string) card {
		value, ci := splitFigure(text)
		return card{ID: id, Label: label, Value: value, CI: ci, Note: note, Class: class}
	}
	if l.Fresh != "" {
		lead = append(lead, figure("fresh", l.FreshLabel+dir, l.Fresh, l.FreshNote, ""))
	}
	if l.Gain != "" {
		lead = append(lead, figure("gain", l.GainLabel, l.Gain, l.GainNote+": "+l.GainWord, l.GainClass))
	}
	if l.Start != "" {
		lead = append(lead, figure("start", "start ("+l.StartSource+")", l.Start, l.StartNote, ""))
	}
	sel := figure("recommended", l.SelectedLabel, l.Selected, l.SelectedNote, "selected")
	if l.Fresh == "" {
		sel.Label += dir
		sel.Note += "; the run measures it on fresh deals at its end (unless remeasure: off)"
	}
	lead = append(lead, sel)
	played, saved := 0, 0
	for _, h := range v.History {
		played += h.Games
		saved += h.Saved
	}
	note = ""
	if saved > 0 {
		note = fmt.Sprintf("%d saved by racing", saved)
	}
	cards = append(cards, card{ID: "games", Label: "games played", Value: grouped(played), Note: note})
	if n := len(r.Log.Gens); n > 0 {
		last := r.Log.Gens[n-1]
		cards = append(cards, card{ID: "rate", Label: "games per second", Value: strconv.FormatFloat(last.Rate, 'f', 0, 64),
			Note: fmt.Sprintf("generation %d, %.1f s", last.Gen, last.Seconds)})
	}
	if !r.Updated.IsZero() {
		cards = append(cards, card{ID: "updated", Label: "last checkpoint", Value: r.Updated.Format("15:04:05"), Note: r.Updated.Format("2006-01-02")})
	}
	return lead, cards
}

func fitnessPanel(s *Server, r *run, v *engine.SpeciesView, sid string) (panel, bool) {
	if len(v.History) == 0 {
		return panel{}, false
	}
	ch := v.Chart(titleOf(r, v) + ": " + v.Measure + " per generation")
	ch.ID = sid + "-fitness"
	ch.Width, ch.Height = 1180, 420
	note := "the y-range holds the generation's best, the recommended best's interval"
	if _, _, ok := v.Fresh(); ok {
		note += ", its fresh figure"
	}
	if _, ok := v.Start(); ok {
		note += ", the start's"
	}
	if len(v.Baselines) > 0 && v.Bounds != [2]float64{} {
		note += ", the baselines' level"
	}
	note += "; the mean and its spread may run beyond it"
	return panel{ID: ch.ID + "-panel", Title: "fitness over generations", Note: note, Body: template.HTML(ch.SVG())}, true
}

func titleOf(r *run, v *engine.SpeciesView) string {
	t := r.Ins.Header.Name
	if v.Label != "" {
		t += " " + v.Label
	}
	return t
}

// knobRow is a row of the knob table.
type knobRow struct {
	Name, Best, Range, Lo, Hi string
	Strip                     template.HTML
}

func knobsPanel(s *Server, r *run, v *engine.SpeciesView, sid string) (panel, bool) {
	var fixed []string
	for i := range v.Params {
		p := &v.Params[i]
		if !slices.ContainsFunc(v.Knobs, func(k plot.Knob) bool { return k.Name == p.Name || strings.HasPrefix(k.Name, p.Name+"[") }) &&
			!slices.Contains(v.KnobsLeftOut, p.Name) {
			fixed = append(fixed, p.Name+" = "+p.Format(v.Best.Get(p.Name)))
		}
	}
	if len(v.Knobs) == 0 && len(fixed) == 0 {
		return panel{}, false
	}
	rows := make([]knobRow, len(v.Knobs))
	n := len(v.History)
	for i := range v.Knobs {
		k := &v.Knobs[i]
		lo, hi := knobEnds(k)
		rows[i] = knobRow{Name: k.Name, Best: k.Best, Range: k.Range, Lo: lo, Hi: hi, Strip: template.HTML(k.SVG(420, 26, n))}
	}
	note := fmt.Sprintf("the run's best after each generation, generation 1 to %d; each strip spans the values written left of it", n)
	if len(v.Knobs) == 0 {
		note = "no generation recorded its best's genes (a checkpoint of an older evotune)"
	}
	if left := v.KnobsNote(); left != "" {
		note += "; " + left
	}
	body := s.fragment("knobs", struct {
		ID    string
		Rows  []knobRow
		Fixed []string
	}{sid + "-knobs", rows, fixed})
	return panel{ID: sid + "-knobs-panel", Title: fmt.Sprintf("knobs (%d searched)", len(v.Knobs)), Note: note, Body: body}, true
}

// knobEnds are the values at a knob strip's bottom and top.
func knobEnds(k *plot.Knob) (string, string) { return k.Ends() }

func gridsPanel(s *Server, r *run, v *engine.SpeciesView, sid string) (panel, bool) {
	if len(v.Grids) == 0 {
		return panel{}, false
	}
	var b bytes.Buffer
	for i := range v.Grids {
		g := v.Grids[i]
		g.Size = 420
		b.WriteString(`<div class="grid">`)
		b.Write(g.SVG())
		b.WriteString(`</div>`)
	}
	return panel{ID: sid + "-grids-panel", Title: "weight grids of the recommended best", Note: "each cell's value written in it (hover for all its digits)", Body: template.HTML(b.String())}, true
}

// hofRow is a row of the hall-of-fame table.
type hofRow struct {
	Rank                            string // "1", or the model for its own recommendation
	Pick                            bool   // the model's own recommendation: no figure from selection
	Recommended                     bool
	Fitness, Lo, Hi                 string
	Games, Generation               int
	Rating, RatingLo, RatingHi      string
	Fresh, FreshLo, FreshHi, FreshN string
}

func hallOfFamePanel(s *Server, r *run, v *engine.SpeciesView, sid string) (panel, bool) {
	rows := make([]hofRow, len(v.HallOfFame))
	rated := false
	for i, m := range v.HallOfFame {
		rows[i] = hofRow{Rank: strconv.Itoa(i + 1), Recommended: i+1 == v.RecommendedRank, Fitness: plot.Num(m.Fitness), Lo: plot.Num(m.CI95[0]), Hi: plot.Num(m.CI95[1]), Games: m.Games, Generation: m.Generation + 1}
		if m.Rating != nil {
			rated = true
			rows[i].Rating = strconv.FormatFloat(m.Rating.Elo, 'f', 0, 64)
			rows[i].RatingLo = strconv.FormatFloat(m.Rating.CI95[0], 'f', 0, 64)
			rows[i].RatingHi = strconv.FormatFloat(m.Rating.CI95[1], 'f', 0, 64)
		}
	}
	for _, f := range v.Remeasured {
		var row *hofRow
		switch {
		case f.Rank >= 1 && f.Rank <= len(rows):
			row = &rows[f.Rank-1]
		case f.Rank == 0 && v.ModelPick != "":
			rows = append(rows, hofRow{Rank: v.ModelPick, Pick: true, Recommended: v.RecommendedRank == 0, Generation: len(v.History)})
			row = &rows[len(rows)-1]
		default:
			continue
		}
		row.Fresh, row.FreshLo, row.FreshHi, row.FreshN = plot.Num(f.Fitness), plot.Num(f.CI95[0]), plot.Num(f.CI95[1]), strconv.Itoa(f.Games)
	}
	body := s.fragment("hof", struct {
		ID      string
		Measure string
		Rows    []hofRow
		Rated   bool
		Fresh   bool
	}{sid + "-hof", v.Measure, rows, rated, len(v.Remeasured) > 0})
	note := "figures as selected: the games that chose them, biased towards luck"
	if len(v.Remeasured) > 0 {
		note += "; remeasured: the same players on deals selection never saw, which rank them"
	}
	if v.ModelPick != "" {
		note += "; " + v.ModelPick + ": the model's own recommendation, which only the remeasure played"
	}
	note += "; ★ the recommended best (best.yaml's first)"
	return panel{ID: sid + "-hof-panel", Title: "hall of fame (" + v.Direction() + ")", Note: note, Body: body}, true
}

func racingPanel(s *Server, r *run, v *engine.SpeciesView, sid string) (panel, bool) {
	saved := false
	for _, h := range v.History {
		saved = saved || h.Saved > 0
	}
	if r.Ins.Setup == nil || r.Ins.Setup.Config().Racing == nil && !saved {
		return panel{}, false
	}
	bars := plot.Bars{Title: "games played and saved per generation", ID: sid + "-racing", Width: 1180, Height: 240}
	for _, h := range v.History {
		bars.Played = append(bars.Played, h.Games)
		bars.Saved = append(bars.Saved, h.Saved)
	}
	return panel{ID: sid + "-racing-panel", Title: "racing", Note: "games the race did not play, of the full budget", Body: template.HTML(bars.SVG())}, true
}

// spreadPanel draws the main species' model's sampling width by
// generation, for a model that has one (model.Spreader: CMA-ES's step
// size, SPSA's perturbation size c_k).
func spreadPanel(s *Server, r *run, v *engine.SpeciesView, sid string) (panel, bool) {
	if r.Ins.Setup == nil || r.Ins.Checkpoint == nil || v.Label != "" {
		return panel{}, false
	}
	spread, ok, err := s.spreads.spread(r)
	if !ok {
		return panel{}, false
	}
	title := spread.Name + " by generation"
	if err != nil {
		return panel{ID: sid + "-spread-panel", Title: title, Body: template.HTML(`<p class="problem">` + template.HTMLEscapeString(cleanText(err.Error())) + `</p>`)}, true
	}
	ch := plot.Chart{Title: "spread of each generation's samples", YLabel: "standard deviation (genome units)", ID: sid + "-spread", Width: 1180, Height: 320,
		Lines: []plot.Line{
			{Name: "largest gene's", Colour: plot.Series[1], Y: spread.Max, Width: 1, Core: true},
			{Name: "root mean square over genes", Colour: plot.Series[0], Y: spread.RMS, Core: true},
			{Name: "smallest gene's", Colour: plot.Series[2], Y: spread.Min, Width: 1, Core: true},
		}, Bounds: [2]float64{0, math.Inf(1)}}
	return panel{ID: sid + "-spread-panel", Title: title,
		Note: "the model rebuilt from the checkpoint as resume rebuilds it: the standard deviation of each generation's samples per gene, in genome units (each gene's range is 0 to 1)",
		Body: template.HTML(ch.SVG())}, true
}

func inFlightPanel(s *Server, r *run) (panel, bool) {
	f := r.Flight
	if f == nil || r.State != Running && r.State != Starting {
		return panel{}, false
	}
	batches := (f.Games + f.BatchGames - 1) / f.BatchGames
	text := fmt.Sprintf("generation %d: %d of about %d batches written to the journal (%d games of %d a batch)", f.Generation, f.Batches, batches, f.Games, f.BatchGames)
	if !f.Counted {
		text = fmt.Sprintf("generation %d: the journal is too large to count here", f.Generation)
	}
	body := s.fragment("progress", struct {
		Text       string
		Done, Most int
	}{text, min(f.Batches, batches), batches})
	return panel{ID: "flight-panel", Title: "generation in flight", Body: body}, true
}

func throughputPanel(s *Server, r *run) (panel, bool) {
	if len(r.Log.Gens) < 1 || r.Generation() == 0 {
		return panel{}, false
	}
	n := 0
	for _, g := range r.Log.Gens {
		n = max(n, g.Gen)
	}
	rate := make([]float64, n)
	for i := range rate {
		rate[i] = math.NaN()
	}
	for _, g := range r.Log.Gens {
		rate[g.Gen-1] = g.Rate
	}
	ch := plot.Chart{Title: "games per second", YLabel: "games per second", ID: "throughput", Width: 1180, Height: 280,
		Lines: []plot.Line{{Name: "by generation (run.log)", Colour: plot.Series[0], Y: rate, Core: true}}, Bounds: [2]float64{0, math.Inf(1)}}
	note := "each generation's games over its wall time, from run.log; a resumed generation counts its last try"
	if r.Log.Cut {
		note += "; run.log's start was not read (it is longer than " + strconv.Itoa(logLimit>>20) + " MiB)"
	}
	return panel{ID: "throughput-panel", Title: "throughput", Note: note, Body: template.HTML(ch.SVG())}, true
}

func workersPanel(s *Server, r *run) (panel, bool) {
	if len(r.Log.Work) == 0 {
		return panel{}, false
	}
	last := r.Log.Work[len(r.Log.Work)-1]
	n := len(r.Log.Work)
	connected, inflight := make([]float64, n), make([]float64, n)
	for i, w := range r.Log.Work {
		connected[i], inflight[i] = float64(w.Connected), float64(w.InFlight)
		if w.Connected < 0 {
			connected[i] = math.NaN()
		}
	}
	ch := plot.Chart{Title: "workers and batches", YLabel: "count", ID: "workers", Width: 1180, Height: 260, XLabel: "status line",
		Lines: []plot.Line{
			{Name: "workers connected", Colour: plot.Series[0], Y: connected, Core: true},
			{Name: "batches in flight", Colour: plot.Series[1], Y: inflight, Core: true},
		}, Bounds: [2]float64{0, math.Inf(1)}}
	redelivered := "not recorded"
	if last.Redelivered >= 0 {
		redelivered = strconv.Itoa(last.Redelivered)
	}
	conn := "unknown"
	if last.Connected >= 0 {
		conn = strconv.Itoa(last.Connected)
	}
	body := s.fragment("workers", struct {
		At                    string
		Connected             string
		InFlight, Done, Total int
		Redelivered           string
		Chart                 template.HTML
	}{last.At.Local().Format("15:04:05"), conn, last.InFlight, last.Done, last.Total, redelivered, template.HTML(ch.SVG())})
	return panel{ID: "workers-panel", Title: "workers", Note: "the coordinator's status lines in run.log, every few seconds while a wave is played", Body: body}, true
}

// command is a command line a user may copy.
type command struct {
	What, Line string
}

func commandsPanel(s *Server, r *run) (panel, bool) {
	var cmds []command
	dir := r.dir
	if r.Ins != nil && r.Ins.Checkpoint != nil {
		if r.Ins.Setup != nil {
			// The command the run itself advises when it ends: a sequential
			// test of the gain it measured, else an eval.
			if sum, err := runs.Summarize(dir, r.Ins.Checkpoint, r.Ins.Setup, r.Budget()); err == nil {
				cmds = append(cmds, command{"test the recommended best on seeds the run did not use", sum.Next})
			}
		}
		cmds = append(cmds, command{"compare it with another run of the same game, on shared fresh deals", "evotune compare " + shellQuote(dir) + " OTHER_RUN_DIR"})
	}
	if r.State == Stopped {
		cmds = append(cmds, command{"continue the run", "evotune resume " + shellQuote(dir)})
	}
	if len(cmds) == 0 {
		return panel{}, false
	}
	return panel{ID: "commands-panel", Title: "next steps", Note: "this page never plays games: run these yourself", Body: s.fragment("commands", cmds)}, true
}

func configPanel(s *Server, r *run) (panel, bool) {
	if r.Ins == nil || r.Ins.Checkpoint == nil {
		return panel{}, false
	}
	body := s.fragment("config", struct{ Dir, Text string }{r.dir, cleanConfig(r.Ins.Checkpoint.Config)})
	return panel{ID: "config-panel", Title: "config", Note: "as the checkpoint keeps it", Body: body}, true
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=+,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// cleanText writes control characters of a message as escapes: a file's
// text must not carry terminal codes or line breaks into a page's line.
// grouped writes n with its thousands apart, as people read counts:
// 500,000.
func grouped(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

func cleanText(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			fmt.Fprintf(&b, `\x%02x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// cleanConfig is cleanText that keeps a config's lines and indentation.
func cleanConfig(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = cleanText(strings.ReplaceAll(l, "\t", "    "))
	}
	return strings.Join(lines, "\n")
}

// listRow is a row of the list of runs. Its figures lead as a run's
// page does: the recommended best's fresh figure, the start's on the
// same deals, the gain over it, then the figure that chose it.
type listRow struct {
	ID, Dir, Label, Game, Name, Model, Player string
	State                                     State
	PID                                       string
	Gen, Budget                               int
	Measure, Direction                        string
	Fresh, FreshCI, FreshNote                 string
	Start, StartCI                            string
	Gain, GainCI, GainWord, GainClass         string
	Best, BestCI, BestNote                    string // as selected
	Updated, UpdatedDate                      string
	UpdatedISO                                string
	Problem                                   string
}

// splitFigure parts a figure written with its interval ("44.28 [44.11,
// 44.45]") into the figure and the interval, for a table that writes the
// interval small under it.
func splitFigure(s string) (value, ci string) {
	value, ci, _ = strings.Cut(s, " ")
	return value, ci
}

func listRowOf(r *run) listRow {
	row := listRow{ID: r.id, Dir: r.dir, Label: r.name, State: r.State, Gen: r.Generation(), Budget: r.Budget()}
	if r.Ins != nil {
		h := r.Ins.Header
		row.Game, row.Name, row.Model, row.Player = h.Game, h.Name, h.Model, h.Player
		if r.Ins.Held && r.Ins.Holder > 0 {
			row.PID = strconv.Itoa(r.Ins.Holder)
		}
		if len(r.Ins.Views) > 0 {
			l := leadOf(&r.Ins.Views[0])
			row.Measure, row.Direction = l.Measure, l.Direction
			row.Fresh, row.FreshCI = splitFigure(l.Fresh)
			row.Start, row.StartCI = splitFigure(l.Start)
			row.Gain, row.GainCI = splitFigure(l.Gain)
			row.Best, row.BestCI = splitFigure(l.Selected)
			row.FreshNote, row.BestNote = l.FreshNote, l.SelectedNote
			row.GainWord, row.GainClass = l.GainWord, l.GainClass
		} else if ck := r.Ins.Checkpoint; ck != nil && len(ck.HallOfFame) > 0 {
			row.Best = plot.Num(ck.HallOfFame[0].Fitness)
		}
	}
	if !r.Updated.IsZero() {
		row.Updated, row.UpdatedDate = r.Updated.Format("15:04:05"), r.Updated.Format("2006-01-02")
		row.UpdatedISO = r.Updated.UTC().Format(time.RFC3339)
	}
	if r.Err != nil {
		row.Problem = cleanText(r.Err.Error())
	}
	return row
}
