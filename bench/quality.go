package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
	"gopkg.in/yaml.v3"
)

// The quality benchmark (-quality): every model on each problem at one
// fixed budget of games, from random genomes, seeds 1..N. After every
// generation the model's recommendation (spsa's theta, bayes's
// pessimistic optimum, any other model's hall-of-fame best) is measured
// on fresh deals that no run plays, the same deals for every model and
// seed; the tables give its figure at 25%, 50% and 100% of the budget
// (median and interquartile range over the seeds) and the games until
// the first recommendation that reaches the problem's target (to a
// quarter of the budget).

// qualityProblem is one problem of the quality benchmark.
type qualityProblem struct {
	name string
	// config is the run's config: %d the seed, %s the evolution lines;
	// {EXAMPLES} the repository's examples directory.
	config      string
	generations int // the budget in generations (25%, 50% and 100% of them are read)
	deals       int // fresh deals (head to head: seat-swapped pairs) a recommendation is measured on
	opponent    string
	lowerBetter bool
	// target is the figure to reach: the reference player's on the same
	// fresh deals (solo), or a score.
	reference string
	score     float64
}

var qualityProblems = []qualityProblem{
	{name: "quickstart", generations: 20, deals: 4000, lowerBetter: true, reference: "over9000", config: `name: bench
seed: %d
game: battleship
player: tuned
fitness:
  objective: shots
  baselines: {opponents: [random], games: 100}
remeasure: off
evolution:
  population: 16
  generations: 20
%s`},
	{name: "pig", generations: 20, deals: 1000, opponent: "hold20", score: 0.55, config: `name: bench
seed: %d
command: [python3, {EXAMPLES}/pig/pig.py]
player: tuned
fitness:
  objective: score
  baselines: {opponents: [hold20], games: 100}
remeasure: off
evolution:
  population: 16
  generations: 20
%s`},
	{name: "connect4", generations: 20, deals: 500, opponent: "classic", score: 0.55, config: `name: bench
seed: %d
game: mnk
rules: {m: 7, n: 6, k: 4, gravity: true, depth: 4, opening: 4}
player: tuned
fitness:
  objective: score
  baselines: {opponents: [classic], games: 40}
remeasure: off
evolution:
  population: 16
  generations: 20
%s`},
	{name: "hadron", generations: 20, deals: 500, opponent: "aenigma", score: 0.55, config: `name: bench
seed: %d
game: hadron
rules: {size: 9, depth: 2}
player: tuned
fitness:
  objective: score
  baselines: {opponents: [aenigma], games: 40}
remeasure: off
evolution:
  population: 16
  generations: 20
%s`},
}

// qualityModels are the models compared, each at its documented
// defaults.
var qualityModels = []method{
	{"random-search", "  model: random-search\n"},
	{"natural-selection", "  model: natural-selection\n  keep: 2\n"},
	{"generational", "  model: generational\n  elitism: 2\n"},
	{"cmaes", "  model: cmaes\n"},
	{"spsa", "  model: spsa\n"},
	{"bayes", "  model: bayes\n"},
}

// qualityRecord is one run's measurements, generation by generation.
type qualityRecord struct {
	Seed    int       `json:"seed"`
	Games   []int     `json:"games"`   // games played up to each generation
	Figures []float64 `json:"figures"` // the recommendation's figure on the fresh deals
	// Reference is the target player's figure on the same deals (solo),
	// or the score to reach.
	Reference float64 `json:"reference"`
}

func runQualityBench(ctx context.Context, out, problems, models string, seeds, workers int, reportOnly bool) error {
	for _, p := range qualityProblems {
		if !picked(problems, p.name, p.name == "quickstart" || p.name == "pig") {
			continue
		}
		dir := filepath.Join(out, "quality", p.name)
		var ms []method
		for _, m := range qualityModels {
			if picked(models, m.name, true) {
				ms = append(ms, m)
			}
		}
		if !reportOnly {
			for seed := 1; seed <= seeds; seed++ {
				for _, m := range ms {
					if err := p.runOne(ctx, dir, m, seed, workers); err != nil {
						return fmt.Errorf("%s %s seed %d: %w", p.name, m.name, seed, err)
					}
				}
			}
		}
		if err := p.report(dir, ms, seeds); err != nil {
			return err
		}
	}
	return nil
}

// picked says whether name is in the comma-separated list (or, with an
// empty list, whether it is picked by default).
func picked(list, name string, byDefault bool) bool {
	if list == "" {
		return byDefault
	}
	return slices.Contains(strings.Split(list, ","), name)
}

func (p qualityProblem) text(seed int, evolution string) (string, error) {
	examples, err := filepath.Abs("examples")
	if err != nil {
		return "", err
	}
	return strings.ReplaceAll(fmt.Sprintf(p.config, seed, evolution), "{EXAMPLES}", examples), nil
}

// runOne runs model m from seed to the budget, one generation at a time,
// measuring the recommendation after each; a finished run is skipped.
func (p qualityProblem) runOne(ctx context.Context, dir string, m method, seed, workers int) error {
	recPath := filepath.Join(dir, m.name, fmt.Sprintf("seed%d.json", seed))
	if _, err := os.Stat(recPath); err == nil {
		return nil
	}
	runDir := filepath.Join(dir, m.name, fmt.Sprintf("seed%d", seed))
	os.RemoveAll(runDir) // an unfinished run starts again: its record is written at the end
	if err := os.MkdirAll(filepath.Dir(runDir), 0o755); err != nil {
		return err
	}
	text, err := p.text(seed, m.evolution)
	if err != nil {
		return err
	}
	cfgPath := runDir + ".yaml"
	if err := os.WriteFile(cfgPath, []byte(text), 0o644); err != nil {
		return err
	}
	cfg, err := engine.Load(cfgPath)
	if err != nil {
		return err
	}
	defer cfg.Close()
	space := cfg.Space()
	rec := qualityRecord{Seed: seed, Reference: p.score}
	if p.reference != "" {
		ref, err := p.measure(ctx, cfg.GameOf(), p.reference, workers)
		if err != nil {
			return err
		}
		rec.Reference = mean(ref)
	}
	t := &task{}
	measured := map[string]float64{}
	// The recommendation at each quarter of the budget: the 25%, 50% and
	// 100% of the tables and a games-to-target of that resolution.
	for q := 1; q <= 4; q++ {
		gen := p.generations * q / 4
		ck, err := t.advance(ctx, cfgPath, runDir, gen, workers)
		if err != nil {
			return err
		}
		games := 0
		for _, h := range ck.History {
			games += h.Games
		}
		genes, err := recommendation(ck)
		if err != nil {
			return err
		}
		key := fmt.Sprint(genes)
		f, ok := measured[key]
		if !ok {
			file := filepath.Join(dir, m.name, fmt.Sprintf("seed%d-recommended.yaml", seed))
			if err := writeParams(file, runDir, space, genes); err != nil {
				return err
			}
			xs, err := p.measure(ctx, cfg.GameOf(), "tuned:"+file, workers)
			if err != nil {
				return err
			}
			f = mean(xs)
			measured[key] = f
		}
		rec.Games, rec.Figures = append(rec.Games, games), append(rec.Figures, f)
		fmt.Printf("%s %s seed %d: generation %d, %d games, recommendation %.4g (target %.4g)\n", p.name, m.name, seed, gen, games, f, rec.Reference)
	}
	data, _ := json.MarshalIndent(rec, "", "  ")
	return os.WriteFile(recPath, data, 0o644)
}

// recommendation is what the run recommends now: the model's own when
// it keeps one (spsa, bayes), else the hall of fame's best.
func recommendation(ck *engine.Checkpoint) ([]float64, error) {
	for _, raw := range ck.Model {
		var v struct {
			Recommend []float64 `json:"recommend"`
		}
		if err := json.Unmarshal(raw, &v); err == nil && len(v.Recommend) > 0 {
			return v.Recommend, nil
		}
	}
	if len(ck.HallOfFame) == 0 {
		return nil, errors.New("no hall of fame")
	}
	return ck.HallOfFame[0].Genes, nil
}

// writeParams writes genes as a player file: the run's best.yaml with
// its parameters replaced.
func writeParams(file, runDir string, space *genome.Space, genes []float64) error {
	data, err := os.ReadFile(filepath.Join(runDir, "best.yaml"))
	if err != nil {
		return err
	}
	var pf fitness.ParamsFile
	if err := yaml.Unmarshal(data, &pf); err != nil {
		return err
	}
	v, err := space.Decode(genes)
	if err != nil {
		return err
	}
	params := v.Map()
	for _, s := range v.Schema() {
		if s.Kind == genome.Grid {
			cells := params[s.Name].([]float64)
			rows := make([][]float64, s.Rows)
			for r := range rows {
				rows[r] = cells[r*s.Cols : (r+1)*s.Cols]
			}
			params[s.Name] = rows
		}
	}
	pf.Params, pf.Players = params, nil
	out, err := yaml.Marshal(pf)
	if err != nil {
		return err
	}
	return os.WriteFile(file, out, 0o644)
}

// measure plays spec on the fresh deals: a solo cost per deal, or a
// seat-swapped pair's mean score against the opponent.
func (p qualityProblem) measure(ctx context.Context, g fitness.Game, spec string, workers int) ([]float64, error) {
	return measureSpec(ctx, g, spec, p.opponent, p.deals, workers)
}

func mean(xs []float64) float64 {
	m, _ := fitness.MeanSD(xs)
	return m
}

// quantiles returns the median and the interquartile range of xs.
func quantiles(xs []float64) (med, lo, hi float64) {
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

// report prints the problem's table and writes its picture.
func (p qualityProblem) report(dir string, ms []method, seeds int) error {
	shares := []int{25, 50, 100}
	fmt.Printf("\n%s: %d generations; the recommendation on %d fresh %s; median [interquartile range] over the seeds\n\n", p.name, p.generations, p.deals,
		map[bool]string{true: "deals", false: "seat-swapped pairs against " + p.opponent}[p.opponent == ""])
	fmt.Println("| model | seeds | at 25% | at 50% | at 100% of the budget | games to the target (median) | reached |")
	fmt.Println("|---|---|---|---|---|---|---|")
	var lines []qualityLine
	budget := 0
	for _, m := range ms {
		var recs []qualityRecord
		for seed := 1; seed <= seeds; seed++ {
			data, err := os.ReadFile(filepath.Join(dir, m.name, fmt.Sprintf("seed%d.json", seed)))
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			if err != nil {
				return err
			}
			var r qualityRecord
			if err := json.Unmarshal(data, &r); err != nil {
				return err
			}
			recs = append(recs, r)
		}
		if len(recs) == 0 {
			continue
		}
		line := qualityLine{name: m.name}
		row := fmt.Sprintf("| %s | %d |", m.name, len(recs))
		for _, share := range shares {
			var xs []float64
			for _, r := range recs {
				xs = append(xs, r.Figures[4*share/100-1])
			}
			med, lo, hi := quantiles(xs)
			row += fmt.Sprintf(" %.4g [%.4g, %.4g] |", med, lo, hi)
		}
		for g := range recs[0].Figures {
			var xs []float64
			for _, r := range recs {
				xs = append(xs, r.Figures[g])
			}
			med, lo, hi := quantiles(xs)
			line.points = append(line.points, [4]float64{float64(recs[0].Games[g]), med, lo, hi})
		}
		budget = max(budget, recs[0].Games[len(recs[0].Games)-1])
		var toTarget []float64
		reached := 0
		for _, r := range recs {
			first := math.Inf(1)
			target := r.Reference
			if p.reference == "" {
				target = p.score // the problem's, which a report may move
			}
			for g, f := range r.Figures {
				if (p.lowerBetter && f <= target) || (!p.lowerBetter && f >= target) {
					first = float64(r.Games[g])
					break
				}
			}
			if !math.IsInf(first, 1) {
				reached++
			}
			toTarget = append(toTarget, first)
		}
		med, _, _ := quantiles(toTarget)
		medText := fmt.Sprintf("%.0f", med)
		if math.IsInf(med, 1) {
			medText = "more than the budget"
		}
		fmt.Printf("%s %s | %d of %d |\n", row, medText, reached, len(recs))
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return nil
	}
	refs := []float64{p.score}
	for _, m := range ms {
		if p.reference == "" {
			break
		}
		data, err := os.ReadFile(filepath.Join(dir, m.name, "seed1.json"))
		if err == nil {
			var r qualityRecord
			if json.Unmarshal(data, &r) == nil {
				refs = []float64{r.Reference}
				break
			}
		}
	}
	what := "score against " + p.opponent
	if p.lowerBetter {
		what = "mean shots (lower is better)"
	}
	svg := drawQuality(fmt.Sprintf("%s: the recommendation's %s on fresh deals", p.name, what), budget, refs, lines)
	return os.WriteFile(filepath.Join(dir, "quality.svg"), svg, 0o644)
}

// qualityLine is one model's curve: (games, median, low, high) points.
type qualityLine struct {
	name   string
	points [][4]float64
}

var qualityColours = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"}

// drawQuality draws each model's median figure against games played,
// with its interquartile band, and the target as a dashed line.
func drawQuality(title string, budget int, target []float64, lines []qualityLine) []byte {
	const w, h, left, right, top, bottom = 820.0, 480.0, 70.0, 170.0, 50.0, 50.0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, l := range lines {
		for _, p := range l.points {
			lo, hi = min(lo, p[2]), max(hi, p[3])
		}
	}
	for _, t := range target {
		lo, hi = min(lo, t), max(hi, t)
	}
	pad := (hi - lo) * 0.05
	lo, hi = lo-pad, hi+pad
	x := func(g float64) float64 { return left + g/float64(budget)*(w-left-right) }
	y := func(f float64) float64 { return top + (hi-f)/(hi-lo)*(h-top-bottom) }
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="12">`+"\n", w, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="10" y="20" font-size="13">%s</text>`+"\n", title)
	fmt.Fprintf(&b, `<text x="10" y="36" fill="#555">line: the median over the seeds; band: the interquartile range; dashed: the target</text>`+"\n")
	fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="black"/>`+"\n", left, h-bottom, w-right, h-bottom)
	fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="black"/>`+"\n", left, top, left, h-bottom)
	for k := 0; k <= 4; k++ {
		g := float64(budget) * float64(k) / 4
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#ddd"/>`+"\n", x(g), top, x(g), h-bottom)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="middle">%.0f</text>`+"\n", x(g), h-bottom+16, g)
		f := lo + (hi-lo)*float64(k)/4
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end">%.4g</text>`+"\n", left-6, y(f)+4, f)
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" text-anchor="middle">games played by the run</text>`+"\n", (left+w-right)/2, h-12)
	if len(target) > 0 {
		fmt.Fprintf(&b, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="black" stroke-dasharray="5,4"/>`+"\n", left, y(target[0]), w-right, y(target[0]))
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f">target</text>`+"\n", w-right+6, y(target[0])+4)
	}
	for i, l := range lines {
		c := qualityColours[i%len(qualityColours)]
		var band, med strings.Builder
		for _, p := range l.points {
			fmt.Fprintf(&band, "%.1f,%.1f ", x(p[0]), y(p[3]))
			fmt.Fprintf(&med, "%.1f,%.1f ", x(p[0]), y(p[1]))
		}
		for k := len(l.points) - 1; k >= 0; k-- {
			fmt.Fprintf(&band, "%.1f,%.1f ", x(l.points[k][0]), y(l.points[k][2]))
		}
		fmt.Fprintf(&b, `<polygon points="%s" fill="%s" fill-opacity="0.12" stroke="none"/>`+"\n", band.String(), c)
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", med.String(), c)
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" fill="%s">%s</text>`+"\n", w-right+6, top+20+float64(i)*18, c, l.name)
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}
