package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/spsa"
	"github.com/evotune/evotune/internal/yamlcheck"
	"gopkg.in/yaml.v3"
)

// SPSA: settings that keep a state and plan the budget, a Model that
// plays its own pairs, recommends its theta, has a width and replays
// cheaply.
var (
	_ Settings     = (*spsaSettings)(nil)
	_ StateKeeper  = (*spsaSettings)(nil)
	_ Planner      = (*spsaSettings)(nil)
	_ Model        = (*spsaModel)(nil)
	_ Pairer       = (*spsaModel)(nil)
	_ Recommender  = (*spsaModel)(nil)
	_ Spreader     = (*spsaModel)(nil)
	_ ReplayCoster = (*spsaModel)(nil)
)

// spsaSettings are SPSA's own settings (internal/spsa's Schedule, as
// fishtest states it). A generation is population/2 iterations, each
// theta+ and theta- drawn from the same theta; an iteration's pairs are
// the games its two genomes play: with the population mode,
// fitness.population.games seat-swapped games against each other, two a
// pair (fishtest's self-play); with the baselines mode, each baseline
// game of theta+ and the same game of theta-, one shared deal a pair.
type spsaSettings struct {
	// Pairs is the schedule's planned budget in pairs (fishtest's
	// num_iter); 0 plans it from evolution.generations, so that a resume
	// with a larger budget continues the same schedule.
	Pairs int     `json:"spsa_pairs"`
	CEnd  float64 `json:"spsa_c_end"`
	// REnd is the step at the budget's end as written; left out, it is
	// 0.02 in the hash, as it was before rEndPlanned, and the run plans
	// it from the pairs an iteration plays (plannedREnd).
	REnd  float64 `json:"spsa_r_end"`
	Alpha float64 `json:"spsa_alpha"`
	Gamma float64 `json:"spsa_gamma"`
	A     float64 `json:"spsa_a_ratio"`
	// Auto, when set, plans the schedule and the budget instead
	// (fishtest's autoselect).
	Auto *spsaAutoselect `json:"spsa_autoselect,omitempty"`
	// planned are the keys written beside spsa-autoselect that it sets
	// (refused), and whether evolution.generations was left to it.
	planned     []string
	generations bool
	rEndPlanned bool // spsa-r-end was left out
}

// spsaAutoselect is fishtest's autoselect (internal/spsa.Target), in the
// units of a pair's result: wins minus losses over a pair's two games
// head to head, the difference of one shared deal's figures, in standard
// deviations of one game's figure, on a solo measure.
type spsaAutoselect struct {
	Precision   float64 `json:"precision"`
	EdgeLoss    float64 `json:"edge_loss"`
	Variance    float64 `json:"variance"`
	Confidence  float64 `json:"confidence"`
	CRatio      float64 `json:"c_ratio"`
	LambdaRatio float64 `json:"lambda_ratio"`
}

// spsaDefaultVariance is a pair's variance with no draws head to head
// (two games of W-L, each of variance 1) and, on a solo measure, with
// theta+'s and theta-'s figures uncorrelated: an upper bound either way,
// so that the plan errs towards more games.
const spsaDefaultVariance = 2

// check refuses, one line each, the values autoselect cannot plan with.
func (a *spsaAutoselect) check(bad Bad) bool {
	ok := true
	for _, f := range []struct {
		key    string
		v, top float64
		want   string
	}{
		{"precision", a.Precision, math.Inf(1), "above 0"}, {"edge-loss", a.EdgeLoss, math.Inf(1), "above 0"},
		{"variance", a.Variance, math.Inf(1), "above 0"}, {"lambda-ratio", a.LambdaRatio, math.Inf(1), "above 0"},
		{"confidence", a.Confidence, 1, "between 0 and 1"}, {"c-ratio", a.CRatio, 1, "above 0, at most 1 (a fraction of each gene's range)"},
	} {
		if !(f.v > 0 && f.v < f.top || f.key == "c-ratio" && f.v == 1) {
			bad("evolution.spsa-autoselect."+f.key, "%v: want a number %s", f.v, f.want)
			ok = false
		}
	}
	return ok
}

// plan is autoselect's plan for genes genes.
func (a *spsaAutoselect) plan(genes int) (spsa.Plan, error) {
	return spsa.Autoselect(spsa.Target{Genes: genes, Precision: a.Precision, EdgeLoss: a.EdgeLoss, Variance: a.Variance,
		Confidence: a.Confidence, CRatio: a.CRatio, LambdaRatio: a.LambdaRatio})
}

func (s *spsaSettings) Fields(d *yamlcheck.Checker) yamlcheck.Fields {
	return yamlcheck.Fields{
		"spsa-pairs": d.Int(&s.Pairs), "spsa-c-end": d.Number(&s.CEnd), "spsa-r-end": d.Number(&s.REnd),
		"spsa-alpha": d.Number(&s.Alpha), "spsa-gamma": d.Number(&s.Gamma), "spsa-a-ratio": d.Number(&s.A),
		"spsa-autoselect": func(n *yaml.Node, path string) {
			s.Auto = &spsaAutoselect{Variance: spsaDefaultVariance, Confidence: spsa.DefaultConfidence,
				CRatio: spsa.DefaultCRatio, LambdaRatio: spsa.DefaultLambdaRatio}
			d.Map(n, path, yamlcheck.Fields{
				"precision": d.Number(&s.Auto.Precision), "edge-loss": d.Number(&s.Auto.EdgeLoss),
				"variance": d.Number(&s.Auto.Variance), "confidence": d.Number(&s.Auto.Confidence),
				"c-ratio": d.Number(&s.Auto.CRatio), "lambda-ratio": d.Number(&s.Auto.LambdaRatio),
			})
		},
	}
}

// The defaults: Spall's exponents and ratio, and c_end as Stockfish's
// tuning macro prints it (a twentieth of each range).
const spsaDefaultCEnd = spsa.StockfishCEnd

// The default r_end is spsaREnd, or spsaStepPerIteration over the pairs
// an iteration plays where that is less. An iteration's pairs all perturb
// theta along one direction, so its step grows with them, and with it the
// other genes' share of the result, which pairs along one direction
// cannot average away: a fixed 0.02 crossed a gene's range within a
// generation at 1,000 pairs an iteration. On a noisy bowl the best r_end
// at 20, 100 and 1,000 pairs an iteration was about 0.1, 0.02 and 0.002,
// a product of 2 (fishtest's 0.002 at 1,000); at 40 pairs Connect Four
// did better with 0.02 than with 2/40, so the product only lowers it
// (docs/tuning.md has both measurements).
const (
	spsaREnd             = 0.02
	spsaStepPerIteration = 2
)

// plannedREnd is the default r_end for iterations of per pairs.
func plannedREnd(per int) float64 { return min(spsaREnd, spsaStepPerIteration/float64(max(1, per))) }

func (s *spsaSettings) Settle(_ *Evolution, has func(string) bool) {
	if s.Auto != nil {
		for _, key := range []string{"spsa-pairs", "spsa-c-end", "spsa-r-end", "spsa-alpha", "spsa-gamma", "spsa-a-ratio"} {
			if has("evolution." + key) {
				s.planned = append(s.planned, key)
			}
		}
		s.generations = !has("evolution.generations")
	}
	s.rEndPlanned = !has("evolution.spsa-r-end")
	for _, d := range []struct {
		key string
		v   *float64
		def float64
	}{{"spsa-c-end", &s.CEnd, spsaDefaultCEnd}, {"spsa-r-end", &s.REnd, spsaREnd},
		{"spsa-alpha", &s.Alpha, spsa.DefaultAlpha}, {"spsa-gamma", &s.Gamma, spsa.DefaultGamma},
		{"spsa-a-ratio", &s.A, spsa.DefaultARatio}} {
		if !has("evolution." + d.key) {
			*d.v = d.def
		}
	}
}

// Plan sets, with autoselect, the generations its budget of pairs takes
// when the config left them out; a larger budget on resume continues
// the same constant gains.
func (s *spsaSettings) Plan(e *Evolution) {
	if s.Auto == nil || !s.generations || e.Population < 2 || e.Uses.Genes < 1 {
		return
	}
	if p, err := s.Auto.plan(e.Uses.Genes); err == nil && s.planGenerations(e, p) <= MaxGenerations {
		e.Generations = s.planGenerations(e, p) // Check refuses more
	}
}

// planGenerations is how many generations play the plan's pairs.
func (s *spsaSettings) planGenerations(e *Evolution, p spsa.Plan) int {
	per := max(1, (e.Population/2)*perIteration(e.Uses))
	return (p.Schedule.Pairs + per - 1) / per
}

// Check refuses, one line each, what SPSA cannot honour: its games are
// theta+ against theta- (or both on the same deals), every one of them
// the gradient's evidence, so no racing, no co-evolution, no
// hall-of-fame games, and no mode that mixes another figure in.
func (s *spsaSettings) Check(e *Evolution, chosen bool, bad Bad) {
	if !chosen {
		return
	}
	u := e.Uses
	if e.Population%2 != 0 {
		bad("evolution.population", "%d: model spsa asks for theta+ and theta- of population/2 iterations: want an even number", e.Population)
	}
	if s.Pairs < 0 {
		bad("evolution.spsa-pairs", "%d: want 0 (planned from evolution.generations) or more", s.Pairs)
	}
	if !(s.CEnd > 0 && s.CEnd <= 1) {
		bad("evolution.spsa-c-end", "%v: want above 0 (a fraction of each gene's range), at most 1", s.CEnd)
	}
	for _, f := range []struct {
		key string
		v   float64
	}{{"spsa-r-end", s.REnd}, {"spsa-alpha", s.Alpha}, {"spsa-gamma", s.Gamma}, {"spsa-a-ratio", s.A}} {
		if !(f.v >= 0 && f.v <= 100) {
			bad("evolution."+f.key, "%v: want a number from 0 to 100", f.v)
		}
	}
	if s.Auto != nil {
		for _, key := range s.planned {
			bad("evolution."+key, "spsa-autoselect sets it: write one or the other")
		}
		if !s.Auto.check(bad) {
			// said
		} else if p, err := s.Auto.plan(max(1, u.Genes)); err != nil {
			bad("evolution.spsa-autoselect", "%s", strings.TrimPrefix(err.Error(), "spsa: autoselect "))
		} else if g := s.planGenerations(e, p); s.generations && g > MaxGenerations {
			bad("evolution.spsa-autoselect", "plans %d pairs, %d generations of population %d: more than the limit of %d", p.Schedule.Pairs, g, e.Population, MaxGenerations)
		}
	}
	switch {
	case u.Racing:
		bad("racing", "model spsa reads every pair it plays: no racing")
	case u.Coevolve:
		bad("coevolve", "model spsa tunes one species: no co-evolution")
	case u.HallOfFame:
		bad("fitness.hall-of-fame", "model spsa plays theta+ against theta-, or both against the baselines on the same deals: give hall-of-fame games no weight")
	case u.Population && u.Baselines:
		bad("fitness.baselines", "model spsa plays theta+ against theta- (the population mode) or both against the baselines on the same deals, not both: give one mode no weight")
	case u.Population && u.Rated:
		bad("fitness.population.rating", "model spsa adds up the wins and losses of theta+ against theta-: use the mean score")
	case u.Population && u.PopulationGames%2 != 0:
		bad("fitness.population.games", "%d: model spsa plays seat-swapped pairs: want an even number", u.PopulationGames)
	}
}

// Size: the iterations' pairs, and with the baselines mode theta itself,
// last, so that the point SPSA recommends is measured, ranked and kept
// in the hall of fame like any genome (its games are not a pair's).
func (s *spsaSettings) Size(e *Evolution, _ int) int {
	if e.Uses.Population {
		return e.Population
	}
	return e.Population + 1
}

// Kept: SPSA reads every genome it asks for; racing is refused anyway.
func (s *spsaSettings) Kept(e *Evolution) int { return s.Size(e, 0) }

// perIteration is how many pairs an iteration's genomes play.
func perIteration(u Uses) int {
	if u.Population {
		return u.PopulationGames / 2
	}
	return u.BaselineGames * max(1, u.BaselineOpponents)
}

func (s *spsaSettings) New(e *Evolution, p Problem) (Model, error) {
	theta := p.Space.Random(fitness.NewRand(p.Streams.Init(0, 0)))
	if len(p.Starts) > 0 {
		theta = slices.Clone(p.Starts[0])
	}
	per := perIteration(e.Uses)
	pairs := s.Pairs
	if pairs == 0 {
		pairs = max(1, e.Generations*(e.Population/2)*per)
	}
	rEnd := s.REnd
	if s.rEndPlanned {
		rEnd = plannedREnd(per)
	}
	sched := spsa.NewSchedule(p.Space.Len(), pairs, s.CEnd, rEnd)
	sched.Alpha, sched.Gamma, sched.ARatio = s.Alpha, s.Gamma, s.A
	if s.Auto != nil {
		plan, err := s.Auto.plan(p.Space.Len())
		if err != nil {
			return nil, fmt.Errorf("model: spsa: %w", err)
		}
		sched = plan.Schedule
		if p.Logf != nil {
			p.Logf("spsa%s: autoselect plans %d pairs with constant gains: c_end %.4g, r_end %.4g for every gene", p.Label, plan.Schedule.Pairs, plan.Schedule.CEnd[0], plan.R)
		}
	}
	st, err := spsa.New(theta, sched)
	if err != nil {
		return nil, fmt.Errorf("model: spsa: %w", err)
	}
	return &spsaModel{p: p, iterations: e.Population / 2, per: per, duel: e.Uses.Population, st: spsaState{SPSA: st},
		spread: Spread{Name: "SPSA perturbation c_k"}}, nil
}

// spsaKey is the checkpoint's key of SPSA's state.
const spsaKey = "spsa_state"

func (s *spsaSettings) StateKeys() []string { return []string{spsaKey} }

// StateBound: the schedule's two gains per gene, theta and the
// recommendation, each float64 at most 24 characters in JSON with its
// separator, plus each generation's first pair (an int of at most 20
// digits and its separator), plus the state's fixed fields.
func (s *spsaSettings) StateBound(e *Evolution, genes int) int64 {
	return int64(genes)*4*32 + int64(min(e.Generations, MaxGenerations))*24 + 1024
}

func (s *spsaSettings) CheckState(e *Evolution, gens int, st State, _ func(float64) bool) error {
	var v spsaState
	if err := decodeStrict(st[spsaKey], &v); err != nil {
		return fmt.Errorf("%s: %v", spsaKey, err)
	}
	if v.SPSA == nil {
		return fmt.Errorf("%s.spsa: missing", spsaKey)
	}
	if n := len(v.SPSA.Theta()); e.Uses.Genes > 0 && n != e.Uses.Genes {
		return fmt.Errorf("%s: theta has %d genes, the space %d", spsaKey, n, e.Uses.Genes)
	}
	// The scale is a game's standard deviation, of figures from 0 to
	// fitness.MaxCost: 0 (not measured) or a normal number up to it; a
	// subnormal one would make every result it divides infinite.
	if !(v.Scale == 0 || v.Scale >= minScale && v.Scale <= fitness.MaxCost) {
		return fmt.Errorf("%s.scale: %v: want 0, or a game's standard deviation from %v to %v", spsaKey, v.Scale, minScale, float64(fitness.MaxCost))
	}
	if v.Recommend != nil {
		if n := len(v.SPSA.Theta()); len(v.Recommend) != n {
			return fmt.Errorf("%s.recommend: %d genes, theta %d", spsaKey, len(v.Recommend), n)
		}
		for j, x := range v.Recommend {
			if !(x >= 0 && x <= 1) {
				return fmt.Errorf("%s.recommend[%d]: %v is outside [0, 1]", spsaKey, j, x)
			}
		}
	}
	if v.Starts != nil && len(v.Starts) != gens {
		return fmt.Errorf("%s.starts: %d for %d generations", spsaKey, len(v.Starts), gens)
	}
	for i, k := range v.Starts {
		if k < 0 || k > v.SPSA.K() || i > 0 && k < v.Starts[i-1] {
			return fmt.Errorf("%s.starts[%d]: %d: want pairs told before the generation, from 0 to %d, never fewer than the generation before's", spsaKey, i, k, v.SPSA.K())
		}
	}
	return nil
}

// minScale is the least scale a checkpoint holds: the smallest normal
// float64.
const minScale = 0x1p-1022

// decodeStrict decodes a model's state, refusing fields it does not
// know, as every other part of a checkpoint does (a newer evotune's
// state is not silently stripped).
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// spsaState is what the checkpoint keeps: the SPSA state (schedule,
// theta, pairs told), the solo measure's scale, and the recommendation,
// theta snapped to a genome.
type spsaState struct {
	SPSA *spsa.State `json:"spsa"`
	// Scale is, with the baselines mode, the standard deviation of one
	// game's figure in generation 1 (0 before it, and head to head): a pair's
	// result is counted in it, so that r_end means the same whatever the
	// measure's units.
	Scale     float64   `json:"scale"`
	Recommend []float64 `json:"recommend,omitempty"`
	// Starts are the pairs told before each told generation (its first
	// iteration's k), from which Spread is read; a checkpoint written
	// before they were kept has none, and Resume assumes full games.
	Starts []int `json:"starts,omitempty"`
}

// spsaModel asks, each generation, for the pairs theta+ and theta- of
// its iterations (genomes 2b and 2b+1), all drawn from one theta (and,
// with the baselines mode, for theta snapped to a genome, last), and
// moves theta by their results in that order: the same theta whatever
// the workers and wherever the run resumed.
type spsaModel struct {
	p          Problem
	iterations int
	per        int
	duel       bool // theta+ plays theta- (else both play the baselines)
	st         spsaState
	spread     Spread
	said       bool // the schedule is logged
}

// perturbations draws generation gen's iterations from the current
// theta, iteration b from its own stream.
func (m *spsaModel) perturbations(gen int) []spsa.Perturbation {
	out := make([]spsa.Perturbation, m.iterations)
	k := m.st.SPSA.K()
	for b := range out {
		out[b] = m.st.SPSA.Perturb(k+b*m.per, m.p.Space, fitness.NewRand(m.p.Streams.Own(gen, 0, uint64(b))))
	}
	return out
}

func (m *spsaModel) Ask(gen int) ([][]float64, error) {
	if gen == 0 && !m.said && m.p.Logf != nil {
		// Said once, as the run starts: a resume keeps the checkpoint's
		// schedule, whatever its new budget would plan.
		sc := m.st.SPSA.Schedule()
		m.p.Logf("spsa%s: plans %d pairs: c_end %.4g, r_end %.4g for every gene", m.p.Label, sc.Pairs, sc.CEnd[0], sc.REnd[0])
		m.said = true
	}
	var out [][]float64
	for _, p := range m.perturbations(gen) {
		out = append(out, p.Plus, p.Minus)
	}
	if !m.duel {
		out = append(out, m.p.Space.Project(m.st.SPSA.Theta()))
	}
	return out, nil
}

// Pairs: theta+ of each iteration meets its theta-.
func (m *spsaModel) Pairs(int) [][2]int {
	out := make([][2]int, m.iterations)
	for b := range out {
		out[b] = [2]int{2 * b, 2*b + 1}
	}
	return out
}

// Tell moves theta by each iteration's result: how much better theta+
// did than theta-, summed over the games (wins minus losses head to
// head, the measure's differences deal by deal on a solo measure).
func (m *spsaModel) Tell(gen int, g Generation) error {
	asked := 2 * m.iterations
	if !m.duel {
		asked++
	}
	if len(g.Results) != asked {
		return fmt.Errorf("model: spsa told %d results for %d genomes", len(g.Results), asked)
	}
	if !m.duel && m.st.Scale == 0 {
		var v float64
		for _, r := range g.Results[:2*m.iterations] {
			v += float64(r.Games) * r.SE * r.SE
		}
		m.st.Scale = math.Sqrt(v / float64(2*m.iterations))
	}
	m.noteSpread(m.st.SPSA.K())
	m.st.Starts = append(m.st.Starts, m.st.SPSA.K())
	for b, p := range m.perturbations(gen) {
		plus, minus := g.Results[2*b], g.Results[2*b+1]
		sum := float64(plus.Games) * (minus.Cost - plus.Cost)
		pairs := plus.Games
		if m.duel {
			pairs = plus.Games / 2
		} else if m.st.Scale > 0 {
			sum /= m.st.Scale
			if math.IsInf(sum, 0) {
				return fmt.Errorf("model: spsa: iteration %d's result over the scale %v (%s.scale) is too large a number", b+1, m.st.Scale, spsaKey)
			}
		}
		if err := m.st.SPSA.Update(p, spsa.Result{Pairs: pairs, Sum: sum}); err != nil {
			return fmt.Errorf("model: spsa: %w", err)
		}
	}
	m.st.Recommend = m.p.Space.Project(m.st.SPSA.Theta())
	if m.p.Logf != nil {
		m.p.Logf("spsa%s: after generation %d (%d pairs) theta is %v", m.p.Label, gen+1, m.st.SPSA.K(), m.st.Recommend)
	}
	return nil
}

// Resume reads the state: theta after generation gen holds all of it,
// and the spread is read again off each generation's first pair.
func (m *spsaModel) Resume(gen int, st State, _ Generation) error {
	var v spsaState
	if err := decodeStrict(st[spsaKey], &v); err != nil {
		return fmt.Errorf("model: spsa: %s: %w", spsaKey, err)
	}
	if v.Starts == nil {
		for g := range gen + 1 {
			v.Starts = append(v.Starts, g*m.iterations*m.per)
		}
	}
	m.st = v
	m.spread.RMS, m.spread.Min, m.spread.Max = nil, nil, nil
	for _, k := range v.Starts {
		m.noteSpread(k)
	}
	return nil
}

// noteSpread measures a generation whose first iteration starts after k
// pairs: each gene's c_k, the distance theta+ and theta- lie from theta
// before clipping (the later iterations of the generation perturb a
// little less, as c_k decays).
func (m *spsaModel) noteSpread(k int) {
	c, _ := m.st.SPSA.Gains(k)
	m.spread.add(c)
}

// Spread is c_k of each told generation's first iteration (noteSpread):
// SPSA's perturbation size as it sampled.
func (m *spsaModel) Spread() Spread { return m.spread }

func (m *spsaModel) State() State {
	data, _ := json.Marshal(m.st) // finite numbers always encode
	return State{spsaKey: data}
}

func (m *spsaModel) Close() {}

// Recommendation is theta snapped to a genome, as the last generation
// left it: SPSA's answer (its pairs' points are theta's perturbations).
func (m *spsaModel) Recommendation() []float64 { return slices.Clone(m.st.Recommend) }

// ReplayWork: Resume reads the state and notes each generation's c_k,
// whatever the genes and the population.
func (m *spsaModel) ReplayWork(generations, _, _ int) float64 { return float64(generations) }
