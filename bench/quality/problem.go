package quality

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/evotune/evotune/engine/config"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/rundir"
)

// A Problem is a config to compare models on, at one budget, measured
// on one set of fresh deals.
type Problem struct {
	// File is the name the configs are parsed under: relative paths in
	// them are found beside it, and messages name it.
	File string
	// Text is the config of one run at seed: evolution is the lines of
	// its evolution: section below the population (the budget and the
	// row's model), extra its top-level lines of racing.
	Text func(seed int, evolution, extra string) ([]byte, error)
	// Generations is the budget; Deals how many fresh deals (head to
	// head: seat-swapped pairs against each baseline) a recommendation is
	// measured on.
	Generations, Deals int
	// Racing is the top-level racing: section of the +racing rows
	// (default racing: {}, at its defaults).
	Racing string
	// OwnLines are evolution: lines the rows of model Own (but
	// spsa-autoselect) add: a user's config's settings of its own model.
	Own, OwnLines string
	// Reference is the figure each record keeps beside the
	// recommendation's (a target, the start's): called once per run.
	Reference func(ctx context.Context, cfg *engine.Setup, workers int) (float64, error)

	precision float64 // autoselect's, once found
}

// Load parses config text, read from file, and prepares it for a run
// (config.Parse, engine.Prepare): the configs of a problem's rows.
func Load(file string, text []byte) (*engine.Setup, error) {
	c, err := config.Parse(file, text)
	if err != nil {
		return nil, err
	}
	return engine.Prepare(c, engine.For{})
}

// EdgeLoss is the spsa-autoselect row's edge-loss: fishtest's default
// (2 Elo) in a pair's units is 0.5 at the scale of its precision.
const EdgeLoss = 0.5

// Config is the text of row's run at seed, with the budget written.
func (p *Problem) Config(row Row, seed int) ([]byte, error) {
	lines := fmt.Sprintf("  generations: %d\n  model: %s\n", p.Generations, row.Model)
	if row.Model == p.Own && !row.Autoselect {
		lines += p.OwnLines
	}
	if row.Autoselect {
		prec, err := p.Precision()
		if err != nil {
			return nil, err
		}
		lines += autoselectLine(prec)
	}
	extra := ""
	if row.Racing {
		extra = p.Racing
		if extra == "" {
			extra = "racing: {}\n"
		}
	}
	return p.Text(seed, lines, extra)
}

func autoselectLine(precision float64) string {
	return fmt.Sprintf("  spsa-autoselect: {precision: %s, edge-loss: %g}\n", strconv.FormatFloat(precision, 'g', -1, 64), EdgeLoss)
}

// Precision is the spsa-autoselect row's precision: the one whose plan
// (the config without a budget, autoselect setting it) takes the
// problem's budget of generations, found by bisection on its logarithm
// (fewer pairs for a coarser precision). It is rounded to three
// significant digits where that plans the budget too.
func (p *Problem) Precision() (float64, error) {
	if p.precision > 0 {
		return p.precision, nil
	}
	planned := func(prec float64) (int, error) {
		text, err := p.Text(1, "  model: spsa\n"+autoselectLine(prec), "")
		if err != nil {
			return 0, err
		}
		cfg, err := Load(p.File, text)
		if err != nil {
			return 0, err
		}
		defer cfg.Close()
		return cfg.Config().Evolution.Generations, nil
	}
	// Too fine a precision plans more generations than the limit: the
	// config is refused, which counts as too many.
	above := func(prec float64) (bool, int, error) {
		g, err := planned(prec)
		var ce config.Errors
		if errors.As(err, &ce) && ce.Covers("evolution.spsa-autoselect") {
			return true, 0, nil
		}
		return g > p.Generations, g, err
	}
	lo, hi := 1e-9, 1e9
	for range 100 {
		mid := math.Sqrt(lo * hi)
		over, g, err := above(mid)
		if err != nil {
			return 0, err
		}
		if g == p.Generations {
			p.precision = mid
			if r, _ := strconv.ParseFloat(strconv.FormatFloat(mid, 'g', 3, 64), 64); r > 0 {
				if g, err := planned(r); err == nil && g == p.Generations {
					p.precision = r
				}
			}
			return p.precision, nil
		}
		if over {
			lo = mid
		} else {
			hi = mid
		}
	}
	return 0, fmt.Errorf("%w %d generations", errNoPrecision, p.Generations)
}

// errNoPrecision is Precision's error when no precision plans the budget.
var errNoPrecision = errors.New("spsa-autoselect: no precision plans a budget of")

// Record is one run's measurements, a quarter of the budget at a time:
// kept in DIR/ROW/seedK.json, rewritten after each quarter, so a killed
// benchmark resumes at the quarter it reached.
type Record struct {
	Seed    int       `json:"seed"`
	Games   []int     `json:"games"`   // games the run played up to each quarter
	Figures []float64 `json:"figures"` // the recommendation's figure on the fresh deals
	// Reference is the problem's Reference, on the same deals where it
	// is a player's figure.
	Reference float64 `json:"reference"`
	// Genes are the recommendations measured (records of the first
	// benchmark's rows have none).
	Genes [][]float64 `json:"genes,omitempty"`
}

// Done says whether the record has every quarter.
func (r *Record) Done() bool { return len(r.Figures) == Quarters && len(r.Games) == Quarters }

// RecordPath is where row's record of seed is kept under dir.
func RecordPath(dir, row string, seed int) string {
	return filepath.Join(dir, row, fmt.Sprintf("seed%d.json", seed))
}

// maxRecord bounds a record's size: four genomes of the largest space
// (a free 128-cell grid and more) fit many times over.
const maxRecord = 64 << 20

// ReadRecord reads a record; a missing one is nil and no error.
func ReadRecord(path string) (*Record, error) {
	data, err := fileio.ReadFile(path, maxRecord)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(r.Games) != len(r.Figures) || len(r.Figures) > Quarters {
		return nil, fmt.Errorf("%s: %d games and %d figures: want as many of each, at most %d", path, len(r.Games), len(r.Figures), Quarters)
	}
	return &r, nil
}

// Quarter is the generation the budget's quarter q (1 to Quarters) ends at.
func (p *Problem) Quarter(q int) int { return p.Generations * q / Quarters }

// Run runs row at seed to the budget, in dir/ROW/seedK, measuring the
// recommendation against the config's baselines at each quarter. A run
// whose record is done is read, not run; an unfinished one resumes from
// its checkpoint at the quarter its record reached (a checkpoint beyond
// that quarter, as an older benchmark left, starts again). logf, when
// set, is told each quarter's figure.
func (p *Problem) Run(ctx context.Context, dir string, row Row, seed, workers int, logf func(string, ...any)) (*Record, error) {
	recPath := RecordPath(dir, row.Name, seed)
	rec, err := ReadRecord(recPath)
	if err != nil || rec != nil && rec.Done() {
		return rec, err
	}
	runDir := filepath.Join(dir, row.Name, fmt.Sprintf("seed%d", seed))
	if rec == nil {
		rec = &Record{Seed: seed}
	}
	done := len(rec.Figures)
	if ck, cfg, err := engine.ReadRun(runDir); err == nil {
		cfg.Close()
		if ck.Generation > p.Quarter(done+1) || done > 0 && ck.Generation < p.Quarter(done) {
			if err := os.RemoveAll(runDir); err != nil {
				return nil, err
			}
			rec, done = &Record{Seed: seed}, 0
		}
	} else if done > 0 {
		rec, done = &Record{Seed: seed}, 0 // the record outlived its run
	}
	if err := os.MkdirAll(filepath.Dir(runDir), 0o755); err != nil {
		return nil, err
	}
	text, err := p.Config(row, seed)
	if err != nil {
		return nil, err
	}
	cfg, err := Load(p.File, text)
	if err != nil {
		return nil, err
	}
	defer cfg.Close()
	opps, _, err := cfg.Baselines()
	if err != nil {
		return nil, err
	}
	if done == 0 && p.Reference != nil {
		if rec.Reference, err = p.Reference(ctx, cfg, workers); err != nil {
			return nil, err
		}
	}
	for q := done + 1; q <= Quarters; q++ {
		gen := p.Quarter(q)
		// A run closes its config's outside program when it ends, so it
		// gets a config of its own; cfg's measures the recommendations.
		runCfg, err := Load(p.File, text)
		if err != nil {
			return nil, err
		}
		ck, err := Advance(ctx, runCfg, runDir, gen, workers)
		runCfg.Close()
		if err != nil {
			return nil, err
		}
		games := 0
		for _, h := range ck.History {
			games += h.Games
		}
		genes, err := Recommendation(ck)
		if err != nil {
			return nil, err
		}
		f, ok := 0.0, false
		for i, g := range rec.Genes { // an unchanged recommendation is not measured twice
			if slices.Equal(g, genes) {
				f, ok = rec.Figures[i], true
			}
		}
		if !ok {
			player, err := cfg.TunedPlayer(genes)
			if err != nil {
				return nil, err
			}
			xs, err := Measure(ctx, cfg.Game(), player, opps, cfg.LowerIsBetter(), p.Deals, workers)
			if err != nil {
				return nil, err
			}
			f = Mean(xs)
		}
		rec.Games, rec.Figures, rec.Genes = append(rec.Games, games), append(rec.Figures, f), append(rec.Genes, genes)
		data, _ := json.MarshalIndent(rec, "", "  ")
		if err := rundir.WriteFile(recPath, append(data, '\n')); err != nil {
			return nil, err
		}
		if logf != nil {
			logf("%s seed %d: generation %d, %d games, recommendation %.4g (reference %.4g)", row.Name, seed, gen, games, f, rec.Reference)
		}
	}
	return rec, nil
}

// Advance brings the run in runDir to generation gen: started from cfg,
// or resumed with a budget of gen; it returns the checkpoint.
func Advance(ctx context.Context, cfg *engine.Setup, runDir string, gen, workers int) (*engine.Checkpoint, error) {
	opts := engine.Options{Dir: runDir, Workers: workers, Generations: gen}
	if _, err := os.Stat(filepath.Join(runDir, rundir.CheckpointFile)); err == nil {
		if _, err := engine.Resume(ctx, opts); err != nil {
			return nil, err
		}
	} else if _, err := engine.Start(ctx, cfg, opts); err != nil {
		return nil, err
	}
	ck, ckCfg, err := engine.ReadRun(runDir)
	if err != nil {
		return nil, err
	}
	ckCfg.Close()
	return ck, nil
}

// Recommendation is what the run recommends now: the model's own when
// it keeps one (spsa's theta, bayes's pessimistic optimum), else the
// hall of fame's best.
func Recommendation(ck *engine.Checkpoint) ([]float64, error) {
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

// Measure plays player on deals fresh deals against each opponent and
// returns its figure deal by deal, the mean over the opponents: a solo
// cost (solo), or a seat-swapped pair's mean score. Deal i is
// fitness.Derive(FreshSeed, i) against every opponent; results do not
// depend on workers.
func Measure(ctx context.Context, g fitness.Game, player fitness.Player, opps []fitness.Player, solo bool, deals, workers int) ([]float64, error) {
	out := make([]float64, deals)
	for _, opp := range opps {
		var xs []float64
		if sg, ok := g.(fitness.SoloGame); ok && solo {
			ms := make([]fitness.Match, deals)
			for i := range ms {
				ms[i] = fitness.Match{A: player, B: opp, Seed: fitness.Derive(FreshSeed, uint64(i))}
			}
			var err error
			if xs, err = fitness.PlaySoloMatches(ctx, sg, ms, workers, nil); err != nil {
				return nil, err
			}
		} else {
			ms := make([]fitness.Match, 2*deals)
			for i := range deals {
				s := fitness.Derive(FreshSeed, uint64(i))
				ms[2*i], ms[2*i+1] = fitness.Match{A: player, B: opp, Seed: s}, fitness.Match{A: opp, B: player, Seed: s}
			}
			outs, err := fitness.PlayMatches(ctx, g, ms, workers, nil)
			if err != nil {
				return nil, err
			}
			xs = make([]float64, deals)
			for i := range deals {
				xs[i] = (outs[2*i].Score() + outs[2*i+1].Flip().Score()) / 2
			}
		}
		for i, x := range xs {
			out[i] += x / float64(len(opps))
		}
	}
	return out, nil
}

// Mean is the mean of xs.
func Mean(xs []float64) float64 {
	m, _ := fitness.MeanSD(xs)
	return m
}
