// Package model holds evotune's optimisation models: what proposes the
// genomes of each generation and learns from their results. A model is
// one type behind one small interface, Model (asked for a generation's
// genomes, told their results), and one row of the table Models: its
// name as a config's evolution.model writes it, its own settings (the
// evolution: keys it reads, their defaults and their checks) and how it
// starts. The engine knows models only through this package; eaopt and
// gonum's CMA-ES are known only to the files of the models that use them.
//
// Like gonum's optimize.Method, a model never evaluates anything: it
// asks, and is told. Every random draw it makes comes from the streams
// its Problem gives it, so a model is a pure function of the run's seed
// and of the results it is told, and a resumed run rebuilds it from what
// the checkpoint keeps (Model.Resume), never from saved generator state.
//
// To add a model, write one file with its Settings and its Model, and
// add one row to Models (docs/architecture.md, "How to add a model").
package model

import (
	"encoding/json"
	"math"

	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/yamlcheck"
)

// Model proposes the genomes of one species' generations. For a new run
// the engine asks for generation 0; then, for each generation gen, it
// evaluates the genomes, tells the model their results, and asks for
// generation gen+1 unless the budget is spent. A resumed run calls Resume
// with the checkpoint's last generation, then asks for the next.
type Model interface {
	// Ask returns the genomes generation gen evaluates, each a genome of
	// the problem's space; asked again before Tell, the same ones. How
	// many is the model's to say (Settings.Size), and may change from
	// one generation to the next.
	Ask(gen int) ([][]float64, error)
	// Tell gives the results of the genomes Ask(gen) returned.
	Tell(gen int, g Generation) error
	// Resume rebuilds the model as it was once told generation gen, from
	// what a checkpoint keeps: the model's State then, and that
	// generation's results, best first (Results in that order).
	Resume(gen int, st State, last Generation) error
	// State is what the checkpoint must keep of the model beyond its last
	// generation's results (CMA-ES's told costs), under keys of its own
	// (its settings are a StateKeeper); nil when those results are all it
	// needs.
	State() State
	// Close releases what the model holds (gonum's goroutine).
	Close()
}

// A Recommender is a model whose own answer is a point it need not have
// measured: SPSA's theta, the mean its pairs move, never played as such
// head to head and moved once more by the last generation's pairs. A
// run's remeasure plays that point beside the hall of fame's best, on
// the same fresh deals, so the model's answer can be the run's
// recommended player rather than its luckiest sample. Implementing it
// is the one place a model says it recommends: validate's count of the
// remeasure's games asks a model of the run whether it does.
type Recommender interface {
	// Recommendation is the point, a genome of the space (snapped to
	// its knobs' values); nil when the model has none.
	Recommendation() []float64
}

// A ReplayCoster is a model whose rebuilding from a checkpoint (Resume)
// costs other than CMA-ES's replay, which repeats every generation's
// update of its covariance: generations x genes^2 x population, the
// units ReplayWork answers in (the engine's maxReplay bounds it).
type ReplayCoster interface {
	ReplayWork(generations, genes, population int) float64
}

// A Pairer is a model that says who meets whom in the population mode
// (SPSA's theta+ against its theta-), in place of the seeded pairing of
// a generation's individuals: each pair plays fitness.population.games
// games, seats swapped in pairs on deals of the pair's own, and each game
// scores for both.
type Pairer interface {
	// Pairs lists the pairs of generation gen's genomes (indices into
	// what Ask returned) that play each other; it may be asked more than
	// once a generation, and answers the same.
	Pairs(gen int) [][2]int
}

// A Spreader is a model whose sampling has a width a user watches as a
// run goes: CMA-ES's step size, or the size of an SPSA-like model's
// perturbation. Spread measures it for every generation the model was
// told, as Tell saw it or Resume replayed it, so a reader outside the run
// gets it from the checkpoint alone (engine's Setup.ModelSpread).
type Spreader interface {
	Spread() Spread
}

// Spread is a model's sampling width by generation, in the normalised
// genome's units (each gene's range is 1): per generation, the root mean
// square over the genes of each gene's width, the smallest and the
// largest.
type Spread struct {
	// Name says what is measured, for a figure's title.
	Name          string
	RMS, Min, Max []float64
}

// add appends a generation's widths, one a gene.
func (s *Spread) add(widths []float64) {
	sum2, lo, hi := 0.0, math.Inf(1), math.Inf(-1)
	for _, w := range widths {
		sum2 += w * w
		lo, hi = min(lo, w), max(hi, w)
	}
	s.RMS = append(s.RMS, math.Sqrt(sum2/float64(len(widths))))
	s.Min, s.Max = append(s.Min, lo), append(s.Max, hi)
}

// Generation is one generation's results as a model is told them.
type Generation struct {
	// Results are the genomes in the order Ask returned them, each with
	// its cost (on Resume: best first, the order a checkpoint keeps).
	Results []Result
	// Ranked lists the indices of Results best first: those that played
	// their whole budget by cost, then those racing dropped by cost, ties
	// in the order of Results.
	Ranked []int
}

// Result is one genome's evaluation.
type Result struct {
	Genes []float64
	// Cost is the genome's fitness with lower better: the objective's
	// value, negated when higher is better.
	Cost float64
	// Dropped says racing stopped its games early, sure that it is not
	// among the best Settings.Kept: its Cost comes from fewer games.
	Dropped bool
	// Games is how many games Cost comes from, and SE its standard error
	// (the half-width of its 95% interval over 1.96): what a model that
	// weighs each figure by its noise (bayes) or adds figures up game by
	// game (spsa) needs.
	Games int
	SE    float64
}

// Ranking returns g's results best first.
func (g Generation) Ranking() []Result {
	out := make([]Result, len(g.Ranked))
	for k, i := range g.Ranked {
		out[k] = g.Results[i]
	}
	return out
}

// State is a model's own part of a checkpoint: JSON values under keys of
// the model's naming, each a key of the species' state in
// checkpoint.json ("cmaes_told").
type State map[string]json.RawMessage

// Problem is what a model works on: one species' space, and what the run
// gives it.
type Problem struct {
	Space *genome.Space
	// Starts are the genomes generation 0 starts from: the config's
	// seeds: section for the species (a random seed is a Stream's).
	Starts [][]float64
	// Minimise says lower fitness is better. Results are told as costs
	// either way; a model that keeps figures in the checkpoint keeps them
	// in the objective's own sense.
	Minimise bool
	// Streams are the species' random streams.
	Streams Streams
	// Logf appends a line to run.log; Label names the species in it (""
	// for the main one, " (rivals)").
	Logf  func(format string, args ...any)
	Label string
}

// A Stream is a family of seeds derived from the run's seed
// (fitness.Derive of the seed, the generation, the stream's purpose and
// the indices): the same numbers however the run is played or resumed.
type Stream func(gen int, index ...uint64) uint64

// Streams are the random streams a model draws from, each of its own
// purpose (engine/streams.go lists them).
type Streams struct {
	Init  Stream // generation 0's random genomes: Init(0, i)
	Breed Stream // eaopt's generator breeding generation gen+1: Breed(gen)
	Fresh Stream // fresh random genomes of generation gen+1: Fresh(gen, i)
	// Own is the model's own draws (CMA-ES's samples, Own(0)): a run has
	// one model, so no two models share it.
	Own Stream
}

// Bad reports a problem of a config at a key.
type Bad func(key, format string, args ...any)

// Settings are a model's own settings: a struct of its own, decoded from
// its keys of a config's evolution: section (each model's keys are
// distinct), and what the engine asks of the model before it starts one.
type Settings interface {
	// Fields are the evolution: keys the model reads, each decoding into
	// the settings (see yamlcheck).
	Fields(d *yamlcheck.Checker) yamlcheck.Fields
	// Settle fills in the defaults that depend on what else the config
	// wrote (has reports whether a key was written); it is called for the
	// run's model only.
	Settle(e *Evolution, has func(key string) bool)
	// Check reports every problem of the settings without changing them;
	// chosen says whether the model is the run's (a shared key is held to
	// its limits whatever the model, see Info.SharedKeys).
	Check(e *Evolution, chosen bool, bad Bad)
	// Size is how many genomes generation gen evaluates.
	Size(e *Evolution, gen int) int
	// Kept is how many of a generation's best the model carries into the
	// next as they are, or reads alone (CMA-ES's parents): racing must
	// not drop any of them.
	Kept(e *Evolution) int
	// New starts the model on problem p.
	New(e *Evolution, p Problem) (Model, error)
}

// A StateKeeper is the Settings of a model that keeps a State of its own
// in the checkpoint (Model.State), beyond the last generation's results
// every model is resumed from: CMA-ES's told figures, SPSA's theta and
// step counter, bayes's points. A model that keeps none leaves it out.
type StateKeeper interface {
	// StateKeys are the keys of the model's State.
	StateKeys() []string
	// CheckState checks the State a checkpoint holds for the model after
	// gens generations; inRange says which told figures are possible.
	CheckState(e *Evolution, gens int, st State, inRange func(float64) bool) error
	// StateBound is the most bytes the State takes in a checkpoint after
	// the budget's generations with genomes of genes genes: the
	// checkpoint's size bound counts it (a state that grows with the
	// generations must say so, or a run validate accepts outgrows it).
	StateBound(e *Evolution, genes int) int64
}

// Info is one row of the table of models.
type Info struct {
	Name    string // as evolution.model writes it
	Summary string // one line
	// Settings returns the model's own settings, at their defaults.
	Settings func() Settings
	// SharedKeys marks the models whose keys predate settings of their
	// own (elitism, keep, offspring): those keys may be written whatever
	// the model, are held to their limits and enter every config's hash,
	// as they always did. A model added since leaves it false: its keys
	// belong to it alone (written under another model, they are refused)
	// and enter the hash only of configs that choose it, so that no
	// older config's hash changes.
	SharedKeys bool
}

// Models is the table of models, in the order messages list them. Add a
// model here, and in a file of its own.
var Models = []*Info{
	{Name: "generational", SharedKeys: true, Settings: func() Settings { return &generationalSettings{Elitism: 2} },
		Summary: "eaopt's generational model: selection, crossover and mutation breed a whole population, the best elitism kept as they are"},
	{Name: "down-to-size", SharedKeys: true, Settings: func() Settings { return &downToSizeSettings{} },
		Summary: "the best population of parents and children survive and breed offspring children (eaopt's ModDownToSize)"},
	{Name: "natural-selection", SharedKeys: true, Settings: func() Settings { return &naturalSelectionSettings{Keep: 2} },
		Summary: "keep the best keep, fill the rest with fresh random genomes: the scheme Aenigma's parameters were found with"},
	{Name: "cmaes", Settings: func() Settings { return &cmaesSettings{} },
		Summary: "CMA-ES: each generation sampled from a normal distribution over the genome, updated by the ranking (gonum's CmaEsChol)"},
	{Name: "random-search", Settings: func() Settings { return randomSearchSettings{} },
		Summary: "every generation fresh uniform genomes: the baseline a model has to beat"},
	{Name: "spsa", Settings: func() Settings { return &spsaSettings{} },
		Summary: "SPSA as chess engines tune (fishtest, OpenBench): theta+ against theta- (or both on the same deals) moves theta, the recommendation"},
	{Name: "bayes", Settings: func() Settings { return &bayesSettings{} },
		Summary: "a Gaussian process over the genome, each figure with its games' noise; a generation by Thompson sampling, the pessimistic optimum recommended"},
}

// Lookup returns the model named name.
func Lookup(name string) (*Info, bool) {
	for _, m := range Models {
		if m.Name == name {
			return m, true
		}
	}
	return nil, false
}
