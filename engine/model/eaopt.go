package model

import (
	"encoding/json"
	"errors"
	"fmt"
	mrand "math/rand"
	"math/rand/v2"
	"slices"

	"github.com/MaxHalford/eaopt"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/enum"
)

// eaopt v0.4.2 is an operator library here: a model builds an
// eaopt.Population itself and calls a model's Apply; it never calls
// Minimize, which cannot resume. Its known defects are neutralised: every
// individual is re-evaluated each generation (so a crossover mate's stale
// fitness is never read), tournament selection is evotune's own
// (tournament, returning the winner's index), and mutation is genome's
// (which steps in the gene's range, so a zero gene moves). Only the
// generational and down-to-size models breed with it.

// Operators are the breeding operators of the models that breed with
// eaopt (generational, down-to-size). Every config carries them: they
// are checked and hashed whatever the model, as they were before models
// had settings of their own.
type Operators struct {
	Selection      Selection
	TournamentSize int
	Crossover      genome.Crossover
	CrossoverRate  float64
	BlendAlpha     float64
	MutationRate   float64
	Mutation       genome.Mutation
}

// check reports the operators' problems that no model's choice excuses.
func (o *Operators) check(bad Bad) {
	rate := func(key string, x float64) {
		if x < 0 || x > 1 {
			bad(key, "%v: want a probability in [0, 1]", x)
		}
	}
	rate("evolution.crossover-rate", o.CrossoverRate)
	rate("evolution.mutation-rate", o.MutationRate)
	rate("evolution.mutation.gene-rate", o.Mutation.Rate)
	rate("evolution.mutation.choice-rate", o.Mutation.ChoiceRate)
	if o.Mutation.Sigma < 0 {
		bad("evolution.mutation.sigma", "%v: want 0 (default 0.1) or more", o.Mutation.Sigma)
	} else if err := o.Mutation.Validate(); err != nil {
		bad("evolution.mutation", "%s", english.OneLine(err.Error())) // genome's own checks, should they grow
	}
	if o.BlendAlpha < 0 {
		bad("evolution.blend-alpha", "%v: want 0 or more", o.BlendAlpha)
	}
}

// checkTournament refuses a tournament the population cannot fill:
// eaopt's tournament draws both parents' contestants without
// replacement, so it needs size+1 individuals.
func (o *Operators) checkTournament(population int, bad Bad) {
	if o.Selection == Tournament && (o.TournamentSize < 1 || o.TournamentSize+1 > population) {
		bad("evolution.tournament-size", "%d: want from 1 to population-1 (%d)", o.TournamentSize, population-1)
	}
}

// Selection picks parents.
type Selection uint8

// The selections.
const (
	Tournament Selection = iota + 1
	Roulette
)

var selectionNames = [...]string{Tournament: "tournament", Roulette: "roulette"}

func (s Selection) String() string { return enum.Name(selectionNames[:], s, "Selection") }

// MarshalJSON writes the name, so hashes read as configs do.
func (s Selection) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

func parseSelection(s string) (Selection, bool) { return enum.Parse[Selection](selectionNames[:], s) }

func selectionList() []string { return enum.List(selectionNames[:]) }

// initial is generation 0 of a model that starts from the config's
// seeds: the start genomes as they are, then uniform random genomes.
func initial(p Problem, n int) [][]float64 {
	gen0 := make([][]float64, 0, n)
	for _, g := range p.Starts {
		gen0 = append(gen0, slices.Clone(g))
	}
	for i := len(gen0); i < n; i++ {
		gen0 = append(gen0, p.Space.Random(fitness.NewRand(p.Streams.Init(0, uint64(i)))))
	}
	return gen0
}

// fresh is n fresh uniform genomes of generation gen+1, from index from
// on (natural selection keeps the first from).
func fresh(p Problem, gen, from, n int) [][]float64 {
	out := make([][]float64, 0, n-from)
	for i := from; i < n; i++ {
		out = append(out, p.Space.Random(fitness.NewRand(p.Streams.Fresh(gen, uint64(i)))))
	}
	return out
}

// memory keeps the last generation a stateless model was told: its next
// generation is bred from it alone.
type memory struct {
	gen    int
	ranked []Result
}

func (m *memory) Tell(gen int, g Generation) error {
	m.gen, m.ranked = gen, g.Ranking()
	return nil
}

// Resume: the checkpoint's last generation, best first, is all a
// stateless model needs.
func (m *memory) Resume(gen int, _ State, last Generation) error { return m.Tell(gen, last) }

// last is the generation gen-1 that generation gen is bred from.
func (m *memory) last(gen int) ([]Result, error) {
	if gen < 1 || m.ranked == nil || m.gen != gen-1 {
		return nil, fmt.Errorf("model: generation %d asked for before generation %d was told", gen, gen-1)
	}
	return m.ranked, nil
}

func (m *memory) State() State { return nil }
func (m *memory) Close()       {}

// breeder breeds with eaopt's operators.
type breeder struct {
	p   Problem
	ops Operators
}

// eaGenome is a genome as eaopt sees it. Evaluation happens outside
// eaopt, in one batch per generation, so Evaluate is never expected to be
// called: every individual handed to eaopt is already marked evaluated.
type eaGenome struct {
	genes []float64
	b     *breeder
}

var errBatchOnly = errors.New("model: eaopt asked to evaluate a genome outside the generation's batch")

func (g *eaGenome) Evaluate() (float64, error) { return 0, errBatchOnly }
func (g *eaGenome) Mutate(rng *mrand.Rand) {
	g.b.p.Space.Mutate(g.genes, g.b.ops.Mutation, v2From(rng))
}
func (g *eaGenome) Crossover(o eaopt.Genome, rng *mrand.Rand) {
	g.b.p.Space.Cross(g.b.ops.Crossover, g.b.ops.BlendAlpha, g.genes, o.(*eaGenome).genes, v2From(rng))
}
func (g *eaGenome) Clone() eaopt.Genome { return &eaGenome{genes: slices.Clone(g.genes), b: g.b} }

// eaPopulation is eaopt's view of ranked (best first), drawing from rng.
func (b *breeder) eaPopulation(ranked []Result, rng *mrand.Rand) eaopt.Population {
	indis := make(eaopt.Individuals, len(ranked))
	for i, r := range ranked {
		// Marked evaluated with this generation's cost: eaopt never
		// evaluates, and every genome is re-evaluated next generation
		// (which also defuses v0.4.2's stale-mate-after-crossover bug).
		indis[i] = eaopt.Individual{Genome: &eaGenome{genes: slices.Clone(r.Genes), b: b},
			Fitness: r.Cost, Evaluated: true, ID: fmt.Sprint(i)}
	}
	return eaopt.Population{Individuals: indis, RNG: rng}
}

// eaModel is eaopt's generational model with the configured
// selection and rates.
func (b *breeder) eaModel() eaopt.ModGenerational {
	var sel eaopt.Selector = tournament{b.ops.TournamentSize}
	if b.ops.Selection == Roulette {
		sel = eaopt.SelRoulette{} // expects individuals sorted by fitness: they are
	}
	return eaopt.ModGenerational{Selector: sel, MutRate: b.ops.MutationRate, CrossRate: b.ops.CrossoverRate}
}

// rng is eaopt's generator for breeding generation gen+1.
func (b *breeder) rng(gen int) *mrand.Rand { return newEaoptRand(b.p.Streams.Breed(gen)) }

func genesOf(indis eaopt.Individuals) [][]float64 {
	out := make([][]float64, len(indis))
	for i, in := range indis {
		out[i] = in.Genome.(*eaGenome).genes
	}
	return out
}

// tournament is tournament selection with the winner's true index (eaopt
// v0.4.2's SelTournament reports index 0 when the first contestant wins).
// Contestants are drawn without replacement from those not yet selected
// in this call, so two parents differ, as in eaopt.
type tournament struct{ size int }

func (t tournament) Apply(n uint, indis eaopt.Individuals, rng *mrand.Rand) (eaopt.Individuals, []int, error) {
	if len(indis) < int(n)+t.size-1 {
		return nil, nil, fmt.Errorf("model: tournament of %d needs %d individuals, have %d", t.size, int(n)+t.size-1, len(indis))
	}
	free := make([]int, len(indis))
	for i := range free {
		free[i] = i
	}
	winners := make(eaopt.Individuals, n)
	indexes := make([]int, n)
	for k := range winners {
		// Draw size distinct contestants by a partial shuffle of the
		// free positions; the fittest wins, ties to the lower index.
		best := -1
		for d := range t.size {
			j := d + rng.Intn(len(free)-d)
			free[d], free[j] = free[j], free[d]
			c := free[d]
			if best < 0 || indis[c].Fitness < indis[free[best]].Fitness ||
				(indis[c].Fitness == indis[free[best]].Fitness && c < free[best]) {
				best = d
			}
		}
		indexes[k] = free[best]
		winners[k] = indis[free[best]].Clone(rng)
		free = append(free[:best], free[best+1:]...)
	}
	return winners, indexes, nil
}

func (t tournament) Validate() error {
	if t.size < 1 {
		return errors.New("model: tournament size below 1")
	}
	return nil
}

// pcgSource adapts a math/rand/v2 PCG to the math/rand.Source64 eaopt
// needs.
type pcgSource struct{ *rand.PCG }

func (s pcgSource) Int63() int64 { return int64(s.Uint64() >> 1) }

// Seed is never called by eaopt; reseeding would break derivation.
func (s pcgSource) Seed(int64) { panic("model: eaopt generator must not be reseeded") }

func newEaoptRand(seed uint64) *mrand.Rand {
	return mrand.New(pcgSource{rand.NewPCG(seed, fitness.Mix(seed))})
}

// v2From draws a math/rand/v2 generator from an eaopt one, for genome's
// operators, deterministically.
func v2From(rng *mrand.Rand) *rand.Rand {
	return rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
}
