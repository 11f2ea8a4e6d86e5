package engine

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/plot"
)

// SpeciesView is what a run's pictures show of one species: its history
// and hall of fame with the knobs decoded into their own units. report.svg
// and the dashboard (cmd/evotune/dashboard) both draw from it, so they show the same
// figures.
type SpeciesView struct {
	Label    string // "" for the main species, "rivals" for the co-evolving one
	Player   string
	Measure  string // the objective's name: "shots", "score"
	Minimise bool
	// Bounds are the objective's own limits: [0, 1] for a score, none
	// (zero) for a cost.
	Bounds     [2]float64
	Baselines  []string // the baseline opponents' specs
	History    []GenStats
	HallOfFame []Member
	Remeasured []Remeasured
	Verdict    *Verdict
	// RecommendedRank is the recommended player's place in the hall of
	// fame, from 1 (best.yaml's first): the remeasure's winner, else the
	// first; 0 when the winner is the model's own recommendation (SPSA's
	// theta: ModelPick). StartSource names the starting point the verdict
	// measured ("first seed" or "defaults").
	RecommendedRank int
	StartSource     string
	// ModelPick names the model whose own recommendation the remeasure
	// played ("model spsa"), "" when it played none.
	ModelPick   string
	recommended Member
	// Knobs are the genes' trajectories in the run's best after each
	// generation, in their own units (none for a checkpoint older than
	// the record of the best's genes); Grids the best's weight grids.
	Knobs []plot.Knob
	Grids []plot.Grid
	// KnobsLeftOut names the parameters with genes beyond the maxKnobs
	// drawn (their values are in the best's file and, for a grid, its
	// heat map).
	KnobsLeftOut []string
	// Best is the hall of fame's first decoded; Params the searched
	// parameters (fixed ones included, see Fixed).
	Best   genome.Values
	Params genome.Schema
	space  *genome.Space
}

// Views are the species of a checkpoint written for cfg, main species
// first, ready to draw.
func (s *Setup) Views(ck *Checkpoint) ([]SpeciesView, error) {
	states := ck.states()
	if len(states) != len(s.species) {
		return nil, fmt.Errorf("engine: %d species in the checkpoint, the config evolves %d", len(states), len(s.species))
	}
	out := make([]SpeciesView, len(states))
	for i, st := range states {
		v, err := s.view(s.species[i], st)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (s *Setup) view(sp *species, st SpeciesState) (SpeciesView, error) {
	v := SpeciesView{Label: sp.label, Player: sp.player, Measure: s.cfg.ObjectiveName(), Minimise: sp.minimise,
		History: st.History, HallOfFame: st.HallOfFame, Remeasured: st.Remeasured, Verdict: st.Verdict,
		Params: sp.space.Params(), space: sp.space, StartSource: "defaults"}
	if len(sp.starts) > 0 {
		v.StartSource = "first seed"
	}
	if slices.ContainsFunc(st.Remeasured, func(m Remeasured) bool { return m.Rank == modelPick }) {
		v.ModelPick = s.pickFrom()
	}
	if s.cfg.Fitness.Objective == config.Score {
		v.Bounds = [2]float64{0, 1}
	}
	if sp.label == "" {
		v.Baselines = slices.Clone(s.cfg.Fitness.Baselines.Opponents)
	} else if s.cfg.Coevolve != nil {
		v.Baselines = slices.Clone(s.cfg.Coevolve.Opponents)
	}
	if s.cfg.Fitness.Baselines.Weight <= 0 {
		v.Baselines = nil
	}
	if len(st.HallOfFame) == 0 {
		return v, fmt.Errorf("engine: the hall of fame is empty")
	}
	rec := exportOrder(sp, st)[0]
	v.RecommendedRank, v.recommended = rec.Rank, rec.Member
	best, err := sp.space.Decode(rec.Genes)
	if err != nil {
		return v, fmt.Errorf("engine: the hall of fame's best: %w", err)
	}
	v.Best = best
	v.Knobs, v.KnobsLeftOut = knobs(sp.space, st.History, best)
	for i := range v.Params {
		if p := &v.Params[i]; p.Kind == genome.Grid {
			v.Grids = append(v.Grids, plot.Grid{Name: p.Name, Rows: p.Rows, Cols: p.Cols, Cells: best.Grid(p.Name), Note: p.Symmetry.String()})
		}
	}
	return v, nil
}

// KnobsNote says which parameters' genes the knob strips leave out; ""
// when none.
func (v *SpeciesView) KnobsNote() string {
	if len(v.KnobsLeftOut) == 0 {
		return ""
	}
	return fmt.Sprintf("knobs: the first %d genes drawn; more of %s are in best.yaml", maxKnobs, strings.Join(v.KnobsLeftOut, ", "))
}

// Direction says which way the measure improves.
func (v *SpeciesView) Direction() string {
	if v.Minimise {
		return "lower is better"
	}
	return "higher is better"
}

// Recommended is the member a user is told to take (best.yaml's first),
// with its figures as selected (the model's own recommendation, which
// selection never played, with the remeasure's).
func (v *SpeciesView) Recommended() Member { return v.recommended }

// RecommendedFrom says, for a label, where the recommended player comes
// from ("hall of fame #2") and which figure Recommended carries ("as
// selected"; for the model's own recommendation "as remeasured").
func (v *SpeciesView) RecommendedFrom() (where, figure string) {
	if v.RecommendedRank == modelPick {
		return v.ModelPick + "'s own recommendation", "as remeasured"
	}
	return fmt.Sprintf("hall of fame #%d", v.RecommendedRank), "as selected"
}

// Fresh is the recommended member's figure on fresh deals: the verdict's,
// from a sample that chose nothing, else (a checkpoint from before the
// verdict) its remeasure; against says what it played ("baselines", the
// "start" or the "runner-up", head to head).
func (v *SpeciesView) Fresh() (f fitness.Figure, against string, ok bool) {
	if vd := v.Verdict; vd != nil && vd.Games > 0 {
		return fitness.Figure{Fitness: vd.Fitness, Games: vd.Games, CI95: vd.CI95}, vd.Against, true
	}
	for _, m := range v.Remeasured {
		if m.Rank == v.RecommendedRank {
			return fitness.Figure{Fitness: m.Fitness, Games: m.Games, CI95: m.CI95}, AgainstBaselines, true
		}
	}
	return fitness.Figure{}, "", false
}

// Start is the starting point's figure on the verdict's fresh deals,
// against the baselines, when the run measured it.
func (v *SpeciesView) Start() (fitness.Figure, bool) {
	if vd := v.Verdict; vd != nil && vd.Start != nil && vd.Against == AgainstBaselines {
		return *vd.Start, true
	}
	return fitness.Figure{}, false
}

// Chart is the main picture: the generation's best, the mean with its
// spread, the recommended best with its interval, its fresh figure, and
// the baselines' own level where the measure has one; the y-range is the
// region where those lie.
func (v *SpeciesView) Chart(title string) plot.Chart {
	n := len(v.History)
	best, mean, lo, hi := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	sofar := make([]float64, n)
	for i, s := range v.History {
		best[i], mean[i], lo[i], hi[i] = s.Best, s.Mean, s.Mean-s.SD, s.Mean+s.SD
		sofar[i] = s.Best
		if i > 0 && (v.Minimise && sofar[i-1] < s.Best || !v.Minimise && sofar[i-1] > s.Best) {
			sofar[i] = sofar[i-1]
		}
	}
	if v.Bounds != [2]float64{} {
		for i := range lo {
			lo[i], hi[i] = max(lo[i], v.Bounds[0]), min(hi[i], v.Bounds[1])
		}
	}
	ch := plot.Chart{
		Title:  title,
		YLabel: v.Measure + " (" + v.Direction() + ")",
		Lines: []plot.Line{
			{Name: "mean of the generation", Colour: plot.ColourMean, Y: mean},
			{Name: "generation's best", Colour: plot.ColourBest, Y: best, Core: true, Width: 1.5},
			// Optuna's best-value line: the best of the generations' bests
			// so far, so the maximum of many noisy figures (the recommended
			// best's own figure pools its games and is the one to quote).
			{Name: "best so far (of the generations' bests, luck included)", Colour: plot.ColourSoFar, Y: sofar, Core: true, Width: 1.2, Dash: "5 3"},
		},
		Bands:  []plot.Band{{Name: "mean ± 1 sd", Colour: plot.ColourBand, Lo: lo, Hi: hi}},
		Bounds: v.Bounds,
	}
	// The marks lead as the run's summary does: the recommended best on
	// fresh deals, the start's on the same deals, and last the figure
	// that chose it, which luck flatters.
	if f, against, ok := v.Fresh(); ok {
		what := "on fresh deals"
		if against != AgainstBaselines {
			what = "head to head against the " + against + " on fresh deals"
		}
		ch.Marks = append(ch.Marks, plot.Mark{
			Name: fmt.Sprintf("the recommended best %s: %s [%s, %s] over %s",
				what, plot.Num(f.Fitness), plot.Num(f.CI95[0]), plot.Num(f.CI95[1]), games(f.Games)),
			Short: "fresh", Colour: plot.ColourFresh, Value: f.Fitness, Lo: f.CI95[0], Hi: f.CI95[1]})
	}
	if f, ok := v.Start(); ok {
		ch.Marks = append(ch.Marks, plot.Mark{
			Name: fmt.Sprintf("the start (%s) on the same deals: %s [%s, %s] over %s",
				v.StartSource, plot.Num(f.Fitness), plot.Num(f.CI95[0]), plot.Num(f.CI95[1]), games(f.Games)),
			Short: "start", Colour: plot.ColourStart, Value: f.Fitness, Lo: f.CI95[0], Hi: f.CI95[1]})
		ch.Refs = append(ch.Refs, plot.Ref{Name: "the start (" + v.StartSource + "), fresh: " + plot.Num(f.Fitness), Value: f.Fitness, Colour: plot.ColourStart})
	}
	rec := v.Recommended()
	where, figure := v.RecommendedFrom()
	ch.Marks = append(ch.Marks, plot.Mark{
		Name: fmt.Sprintf("recommended (best.yaml, %s): %s [%s, %s] over %s, %s",
			where, plot.Num(rec.Fitness), plot.Num(rec.CI95[0]), plot.Num(rec.CI95[1]), games(rec.Games), figure),
		Short: "chosen", Colour: plot.ColourRec, Value: rec.Fitness, Lo: rec.CI95[0], Hi: rec.CI95[1]})
	if len(v.Baselines) > 0 && v.Bounds != [2]float64{} {
		// Every baseline scores 1/2 against itself on seat-swapped pairs:
		// above the line the tuned player beats the baselines.
		ch.Refs = append(ch.Refs, plot.Ref{Name: "0.5: each baseline's own score against itself (" + strings.Join(v.Baselines, ", ") + ")", Value: 0.5})
	}
	return ch
}

func games(n int) string {
	if n == 1 {
		return "1 game"
	}
	return strconv.Itoa(n) + " games"
}

// knobs are the trajectories of every gene of the run's best after each
// generation, in the knob's own units: a grid's gene is its class's
// weight. None when no generation recorded its best's genes.
// maxKnobs is the most knob strips a view draws: a run's first maxKnobs
// genes (a weight grid's heat map shows every cell). A protocol player
// may have 65,536 genes, whose strips would make report.svg some tens of
// megabytes at every generation.
const maxKnobs = 256

// knobs are the trajectories of the first maxKnobs genes, and the names
// of the parameters with genes beyond them.
func knobs(space *genome.Space, history []GenStats, best genome.Values) ([]plot.Knob, []string) {
	recorded := false
	for _, s := range history {
		recorded = recorded || s.BestGenes != nil
	}
	if !recorded {
		return nil, nil
	}
	params := space.Params()
	genes := space.Genes()
	total := len(genes)
	var leftOut []string
	if len(genes) > maxKnobs {
		for _, g := range genes[maxKnobs:] {
			if !slices.Contains(leftOut, g.Param) {
				leftOut = append(leftOut, g.Param)
			}
		}
		genes = genes[:maxKnobs]
	}
	// firstCells[i][class] is grid parameter i's first cell of a class,
	// worked out once a parameter: a grid has up to 65,536 cells.
	firstCells := map[int][]int{}
	out := make([]plot.Knob, len(genes))
	cell := make([]int, len(genes)) // a grid gene's first cell of its class
	param := make([]*genome.Param, len(genes))
	at := make([]int, len(genes)) // its parameter's index in the schema
	for k, g := range genes {
		at[k] = slices.IndexFunc(params, func(p genome.Param) bool { return p.Name == g.Param })
		p := &params[at[k]]
		param[k] = p
		out[k] = plot.Knob{Name: g.String(), Min: p.Min, Max: p.Max, Log: p.Log, Range: p.Range(), Values: make([]float64, len(history))}
		switch p.Kind {
		case genome.Bool:
			out[k].Levels = []string{"false", "true"}
			out[k].Range = "false or true"
		case genome.Choice:
			out[k].Levels = slices.Clone(p.Choices)
			out[k].Range = strings.Join(p.Choices, ", ")
		case genome.Grid:
			first, ok := firstCells[at[k]]
			if !ok {
				class, n := p.Classes()
				first = make([]int, n)
				for i := range first {
					first[i] = -1
				}
				for c := len(class) - 1; c >= 0; c-- {
					first[class[c]] = c
				}
				firstCells[at[k]] = first
			}
			cell[k] = -1
			if g.Class >= 0 && g.Class < len(first) {
				cell[k] = first[g.Class]
			}
			out[k].Range = fmt.Sprintf("[%v, %v]", p.Min, p.Max)
		}
		out[k].Best = formatGene(p, best.Get(g.Param), cell[k])
	}
	for i, s := range history {
		var vals genome.Values
		ok := len(s.BestGenes) == total
		if ok {
			var err error
			vals, err = space.Decode(s.BestGenes)
			ok = err == nil
		}
		for k := range genes {
			out[k].Values[i] = math.NaN()
			if ok {
				out[k].Values[i] = geneValue(param[k], vals.At(at[k]), cell[k])
			}
		}
	}
	return out, leftOut
}

// geneValue is the value a gene stands for, as a number on its knob's
// scale (a choice's index, a bool's 0 or 1, a grid class's weight).
func geneValue(p *genome.Param, v genome.Value, cell int) float64 {
	switch p.Kind {
	case genome.Choice:
		return float64(slices.Index(p.Choices, v.Str))
	case genome.Grid:
		if cell >= 0 && cell < len(v.Cells) {
			return v.Cells[cell]
		}
		return math.NaN()
	}
	return v.Num
}

// formatGene writes a gene's value as a config would.
func formatGene(p *genome.Param, v genome.Value, cell int) string {
	if p.Kind == genome.Grid {
		if cell >= 0 && cell < len(v.Cells) {
			return strconv.FormatFloat(v.Cells[cell], 'g', 6, 64)
		}
		return "-"
	}
	if p.Kind == genome.Float {
		return strconv.FormatFloat(v.Num, 'g', 6, 64)
	}
	return p.Format(v)
}
