package model

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/gp"
	"github.com/evotune/evotune/internal/yamlcheck"
)

// Bayes: settings that keep a state, a Model that recommends its
// pessimistic optimum.
var (
	_ Settings    = (*bayesSettings)(nil)
	_ StateKeeper = (*bayesSettings)(nil)
	_ Model       = (*bayesModel)(nil)
	_ Recommender = (*bayesModel)(nil)
)

// bayesSettings are the bayes model's own settings: a Gaussian process
// (internal/gp) over the normalised genome, a generation proposed at once
// by Thompson sampling.
type bayesSettings struct {
	// Initial is how many random genomes start the run (whole
	// generations: the first generations until this many are told);
	// 0 means two generations.
	Initial    int     `json:"bayes_initial"`
	Candidates int     `json:"bayes_candidates"`  // the seeded candidate set each generation
	Spread     float64 `json:"bayes_spread"`      // the local candidates' step, of a gene's range
	RefitEvery int     `json:"bayes_refit_every"` // full restarts of the fit every this many generations
	Bound      float64 `json:"bayes_bound"`       // z of the pessimistic optimum
}

// The defaults (docs/research/wiring-plan.md says why).
const (
	bayesDefaultCandidates = 1000
	bayesDefaultSpread     = 0.1
	bayesDefaultRefitEvery = 10
	bayesDefaultBound      = 1.96
	// bayesCentres is how many of the told points, best by the model's
	// mean, the local candidates step from.
	bayesCentres = 5
)

func (s *bayesSettings) Fields(d *yamlcheck.Checker) yamlcheck.Fields {
	return yamlcheck.Fields{
		"bayes-initial": d.Int(&s.Initial), "bayes-candidates": d.Int(&s.Candidates), "bayes-spread": d.Number(&s.Spread),
		"bayes-refit-every": d.Int(&s.RefitEvery), "bayes-bound": d.Number(&s.Bound),
	}
}

func (s *bayesSettings) Settle(e *Evolution, has func(string) bool) {
	if !has("evolution.bayes-initial") {
		s.Initial = 2 * e.Population
	}
	if !has("evolution.bayes-candidates") {
		s.Candidates = bayesDefaultCandidates
	}
	if !has("evolution.bayes-spread") {
		s.Spread = bayesDefaultSpread
	}
	if !has("evolution.bayes-refit-every") {
		s.RefitEvery = bayesDefaultRefitEvery
	}
	if !has("evolution.bayes-bound") {
		s.Bound = bayesDefaultBound
	}
}

// Check refuses what the model cannot honour: more genes than the GP
// models, more points than it takes, and figures that are relative to a
// field that changes every generation (the population and hall-of-fame
// modes, co-evolution), or cut short (racing): the surface it models must
// stay put, and every point needs its whole figure.
func (s *bayesSettings) Check(e *Evolution, chosen bool, bad Bad) {
	if !chosen {
		return
	}
	u := e.Uses
	if u.Genes > gp.MaxDims {
		bad("evolution.model", "model bayes models at most %d genes; this space has %d: tune fewer knobs, or use another model", gp.MaxDims, u.Genes)
	}
	if n := int64(e.Population) * int64(e.Generations); n > gp.MaxPoints {
		hint := ""
		if e.Chosen != "" {
			hint = fmt.Sprintf(" (bayes is a solo measure's default: write evolution.model: %s for this budget)", Models[0].Name)
		}
		bad("evolution.generations", "%d: model bayes is told population x generations = %d points, more than the %d it models%s", e.Generations, n, gp.MaxPoints, hint)
	}
	if s.Initial < 1 || s.Initial > gp.MaxPoints {
		bad("evolution.bayes-initial", "%d: want from 1 to %d random genomes", s.Initial, gp.MaxPoints)
	}
	if s.Candidates < e.Population || s.Candidates > 10_000 {
		bad("evolution.bayes-candidates", "%d: want from the population (%d) to 10000", s.Candidates, e.Population)
	}
	if !(s.Spread > 0 && s.Spread <= 1) {
		bad("evolution.bayes-spread", "%v: want above 0 (a fraction of each gene's range), at most 1", s.Spread)
	}
	if s.RefitEvery < 1 {
		bad("evolution.bayes-refit-every", "%d: want at least 1", s.RefitEvery)
	}
	if !(s.Bound >= 0 && s.Bound <= 10) {
		bad("evolution.bayes-bound", "%v: want from 0 (the best mean) to 10", s.Bound)
	}
	switch {
	case u.Racing:
		bad("racing", "model bayes needs every genome's whole figure: no racing")
	case u.Coevolve:
		bad("coevolve", "model bayes tunes one species against a surface that stays put: no co-evolution")
	case u.HallOfFame:
		bad("fitness.hall-of-fame", "model bayes models a surface that stays put; hall-of-fame games change with it: give them no weight")
	case u.Population:
		bad("fitness.population", "model bayes models a surface that stays put; games within the population change with it: give the population mode no weight")
	}
}

// costNote: the fits grow faster than the points told (BenchmarkFit in
// internal/gp measured a fit at 512 points and at 2,000).
func (s *bayesSettings) costNote(e *Evolution) string {
	return fmt.Sprintf("the model's fits take CPU time beyond the games', growing faster than the %d genomes told\n    (a fit took about 1.3 s at 512 points, 44 s at 2,000, on a 2-core machine: docs/tuning.md)",
		min(int64(e.Population)*int64(e.Generations), gp.MaxPoints))
}

func (s *bayesSettings) Size(e *Evolution, _ int) int { return e.Population }

// Kept: every genome's figure is a point; racing is refused anyway.
func (s *bayesSettings) Kept(e *Evolution) int { return e.Population }

func (s *bayesSettings) New(e *Evolution, p Problem) (Model, error) {
	return &bayesModel{p: p, s: *s, pop: e.Population}, nil
}

// bayesKey is the checkpoint's key of the bayes model's state.
const bayesKey = "bayes_state"

func (s *bayesSettings) StateKeys() []string { return []string{bayesKey} }

// StateBound: every point told (population x generations, at most
// gp.MaxPoints), each its coordinates, figure, variance and group, plus
// the fit's start and result (a length scale per gene each) and the
// recommendation with its figure.
func (s *bayesSettings) StateBound(e *Evolution, genes int) int64 {
	points := min(int64(e.Population)*int64(e.Generations), int64(gp.MaxPoints))
	perGene := int64(genes) * 32
	return points*(perGene+128) + 3*(perGene+128) + 1024
}

func (s *bayesSettings) CheckState(e *Evolution, gens int, st State, inRange func(float64) bool) error {
	var v bayesState
	if err := decodeStrict(st[bayesKey], &v); err != nil {
		return fmt.Errorf("%s: %v", bayesKey, err)
	}
	if want := gens * e.Population; len(v.Points) != want {
		return fmt.Errorf("%s.points: %d, want %d for %d generations", bayesKey, len(v.Points), want, gens)
	}
	genes := e.Uses.Genes
	if genes == 0 && len(v.Points) > 0 {
		genes = len(v.Points[0].X)
	}
	inUnit := func(field string, x []float64) error {
		if len(x) != genes {
			return fmt.Errorf("%s.%s: %d genes, the space has %d", bayesKey, field, len(x), genes)
		}
		for j, g := range x {
			if !(g >= 0 && g <= 1) {
				return fmt.Errorf("%s.%s[%d]: %v is outside [0, 1]", bayesKey, field, j, g)
			}
		}
		return nil
	}
	for i, pt := range v.Points {
		field := fmt.Sprintf("points[%d]", i)
		if err := inUnit(field+".X", pt.X); err != nil {
			return err
		}
		if !inRange(pt.Y) && !inRange(-pt.Y) || !(pt.Var >= 0) || math.IsInf(pt.Var, 0) {
			return fmt.Errorf("%s.%s: figure %v, variance %v", bayesKey, field, pt.Y, pt.Var)
		}
		// A generation's points share its deals: their group is the
		// generation, from 1 (0 would be no group at all).
		if want := i/e.Population + 1; pt.Group != want {
			return fmt.Errorf("%s.%s.Group: %d, want %d (its generation's)", bayesKey, field, pt.Group, want)
		}
	}
	for _, h := range []struct {
		field string
		h     *gp.Hyper
	}{{"start", v.Start}, {"hyper", v.Hyper}} {
		if h.h != nil {
			if err := h.h.Check(genes); err != nil {
				return fmt.Errorf("%s.%s: %v", bayesKey, h.field, err)
			}
		}
	}
	if v.Recommend != nil {
		if err := inUnit("recommend", v.Recommend); err != nil {
			return err
		}
	}
	if f := v.Figure; f != nil && !(finiteAll(f[:]...) && f[1] <= f[0] && f[0] <= f[2]) {
		return fmt.Errorf("%s.figure: %v [%v, %v] is not a figure in its interval", bayesKey, f[0], f[1], f[2])
	}
	return nil
}

// finiteAll reports whether every x is a finite number.
func finiteAll(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// bayesState is what the checkpoint keeps: every point told (its genes,
// its figure with higher better, the figure's variance from its games,
// its generation as the group of deals it shares), the start of the last
// fit and its result, and the recommendation.
type bayesState struct {
	Points []gp.Point `json:"points"`
	Start  *gp.Hyper  `json:"start,omitempty"`
	Hyper  *gp.Hyper  `json:"hyper,omitempty"`
	// Recommend is the pessimistic optimum (or, before the first fit, the
	// best figure told) and Figure the model's belief of it, in the
	// objective's own sense: the model's interval, optimistic for the
	// point it chose.
	Recommend []float64   `json:"recommend,omitempty"`
	Figure    *[3]float64 `json:"figure,omitempty"` // mean, low, high
}

// bayesModel fits the Gaussian process to every point told, and asks for
// a generation by Thompson sampling on a seeded candidate set. It is a
// pure function of the points, the stored start of the last fit and the
// run's streams: a resume refits exactly what the straight run fitted.
type bayesModel struct {
	p   Problem
	s   bayesSettings
	pop int
	st  bayesState
	gp  *gp.Model   // the fit after the last generation told (nil before)
	cs  [][]float64 // the candidates it proposes from
}

func (m *bayesModel) Ask(gen int) ([][]float64, error) {
	if gen == 0 {
		return initial(m.p, m.pop), nil
	}
	if m.gp == nil {
		return fresh(m.p, gen-1, 0, m.pop), nil
	}
	// The batch: Thompson's picks, and the pessimistic optimum, last, so
	// that the point the model recommends is measured, ranked and kept in
	// the hall of fame like any genome.
	idx, err := m.gp.Thompson(m.cs, m.pop-1, fitness.NewRand(m.p.Streams.Own(gen, 3)))
	if err != nil {
		return nil, fmt.Errorf("model: bayes: %w", err)
	}
	out := make([][]float64, 0, m.pop)
	for _, k := range idx {
		out = append(out, slices.Clone(m.cs[k]))
	}
	return append(out, slices.Clone(m.st.Recommend)), nil
}

// Recommendation is the pessimistic optimum after the last generation
// told: the remeasure plays it beside the hall of fame's best (the
// optimum each generation asked is in the hall of fame by its figure;
// the last one has not been played).
func (m *bayesModel) Recommendation() []float64 { return slices.Clone(m.st.Recommend) }

// figure is a cost as the GP wants it, higher better.
func (m *bayesModel) Tell(gen int, g Generation) error {
	if len(m.st.Points)+len(g.Results) > gp.MaxPoints {
		return fmt.Errorf("model: bayes: %d points would be more than the %d it models; lower evolution.generations", len(m.st.Points)+len(g.Results), gp.MaxPoints)
	}
	for _, r := range g.Results {
		m.st.Points = append(m.st.Points, gp.Point{X: slices.Clone(r.Genes), Y: -r.Cost, Var: r.SE * r.SE, Group: gen + 1})
	}
	m.st.Start = m.st.Hyper
	if err := m.fit(gen); err != nil {
		return err
	}
	if m.p.Logf != nil && m.st.Figure != nil {
		m.p.Logf("bayes%s: after generation %d the pessimistic optimum is %v: %.6g (the model's 95%% interval %.6g to %.6g)",
			m.p.Label, gen+1, m.st.Recommend, m.st.Figure[0], m.st.Figure[1], m.st.Figure[2])
	}
	return nil
}

// fit fits the GP to the points once the random start is told (from the
// last fit's result, with restarts at the first fit and every
// RefitEvery generations), draws the candidates of generation gen+1, and
// recommends.
func (m *bayesModel) fit(gen int) error {
	if len(m.st.Points) < m.s.Initial {
		best := slices.MaxFunc(m.st.Points, func(a, b gp.Point) int { return cmpFloat(a.Y, b.Y) })
		m.st.Recommend, m.st.Figure, m.gp = slices.Clone(best.X), nil, nil
		return nil
	}
	restarts := -1
	if m.st.Start == nil || (gen+1)%m.s.RefitEvery == 0 {
		restarts = 0 // gp's default
	}
	fitted, err := gp.Fit(m.st.Points, m.st.Start, gp.Settings{Restarts: restarts}, fitness.NewRand(m.p.Streams.Own(gen, 1)))
	if err != nil {
		return fmt.Errorf("model: bayes: %w", err)
	}
	h := fitted.Hyper()
	m.gp, m.st.Hyper = fitted, &h
	// The local candidates step from the best points by the model's mean.
	byMean := make([]int, len(m.st.Points))
	means := make([]float64, len(m.st.Points))
	for i, pt := range m.st.Points {
		byMean[i] = i
		means[i], _ = fitted.Predict(pt.X)
	}
	slices.SortStableFunc(byMean, func(a, b int) int { return cmpFloat(means[b], means[a]) })
	var centres [][]float64
	for _, i := range byMean[:min(bayesCentres, len(byMean))] {
		centres = append(centres, m.st.Points[i].X)
	}
	m.cs = nil
	for _, c := range gp.Candidates(m.s.Candidates, m.p.Space.Len(), centres, m.s.Spread, fitness.NewRand(m.p.Streams.Own(gen, 2))) {
		m.cs = append(m.cs, m.p.Space.Project(c))
	}
	told := make([][]float64, len(m.st.Points))
	for i, pt := range m.st.Points {
		told[i] = pt.X
	}
	rec, err := fitted.Recommend(append(slices.Clone(m.cs), told...), m.s.Bound)
	if err != nil {
		return fmt.Errorf("model: bayes: %w", err)
	}
	m.st.Recommend = slices.Clone(rec.X)
	f := [3]float64{rec.Mean, rec.Low, rec.High}
	if m.p.Minimise { // the figure is a cost: back to the objective's sense
		f = [3]float64{-rec.Mean, -rec.High, -rec.Low}
	}
	m.st.Figure = &f
	return nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Resume reads the points and refits as the straight run did after
// generation gen; the fit must come out as the checkpoint has it.
func (m *bayesModel) Resume(gen int, st State, _ Generation) error {
	var v bayesState
	if err := decodeStrict(st[bayesKey], &v); err != nil {
		return fmt.Errorf("model: bayes: %s: %w", bayesKey, err)
	}
	m.st = v
	if len(v.Points) == 0 {
		return nil
	}
	if err := m.fit(gen); err != nil {
		return err
	}
	if v.Hyper != nil && (m.st.Hyper == nil || !sameHyper(*v.Hyper, *m.st.Hyper)) {
		return fmt.Errorf("model: bayes: refitting the checkpoint's points does not give its fit (was the run started by an evotune built differently?); start a new run")
	}
	return nil
}

func sameHyper(a, b gp.Hyper) bool {
	return a.Signal == b.Signal && a.Nugget == b.Nugget && a.GroupVar == b.GroupVar && slices.Equal(a.Lengths, b.Lengths)
}

func (m *bayesModel) State() State {
	data, _ := json.Marshal(m.st) // finite numbers always encode
	return State{bayesKey: data}
}

func (m *bayesModel) Close() {}
