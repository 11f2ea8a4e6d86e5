package genome

import (
	"errors"
	"fmt"
	"github.com/evotune/evotune/internal/enum"
	"math"
	"math/rand/v2"
)

// Mutation configures Space.Mutate. The zero value is a usable default.
//
// Steps are taken in normalised coordinates, so one Sigma suits every
// parameter whatever its range, and a gene at 0 moves like any other (unlike
// eaopt's MutNormalFloat64, which scales the step by the gene).
type Mutation struct {
	// Sigma is the standard deviation of the Gaussian step added to a
	// float, int or grid gene, as a fraction of the parameter's range (of
	// its log range on a log scale). If Sigma is 0, 0.1 is used.
	Sigma float64
	// Rate is the probability that a float, int or grid gene takes a step.
	// If Rate is 0, 1/Len is used: one gene per genome on average.
	Rate float64
	// ChoiceRate is the probability that a choice gene is replaced by
	// another of its choices (drawn uniformly from the others, so it always
	// changes) and that a bool gene is flipped. If ChoiceRate is 0, the
	// resolved Rate is used.
	ChoiceRate float64
}

// DefaultSigma is the step size used when Mutation.Sigma is 0.
const DefaultSigma = 0.1

// Validate reports settings that Mutate cannot use; the config layer calls
// it once, so that Mutate can treat bad settings as a programmer error.
func (m Mutation) Validate() error {
	var errs []error
	if !(m.Sigma >= 0) || math.IsInf(m.Sigma, 0) {
		errs = append(errs, fmt.Errorf("genome: mutation sigma %v is not a finite number >= 0", m.Sigma))
	}
	if !(m.Rate >= 0 && m.Rate <= 1) {
		errs = append(errs, fmt.Errorf("genome: mutation rate %v is outside [0, 1]", m.Rate))
	}
	if !(m.ChoiceRate >= 0 && m.ChoiceRate <= 1) {
		errs = append(errs, fmt.Errorf("genome: mutation choice rate %v is outside [0, 1]", m.ChoiceRate))
	}
	return errors.Join(errs...)
}

// withDefaults fills in the documented defaults for a genome of n genes.
func (m Mutation) withDefaults(n int) Mutation {
	if m.Sigma == 0 {
		m.Sigma = DefaultSigma
	}
	if m.Rate == 0 && n > 0 {
		m.Rate = 1 / float64(n)
	}
	if m.ChoiceRate == 0 {
		m.ChoiceRate = m.Rate
	}
	return m
}

// Mutate mutates genes in place and returns how many genes changed.
//
//   - float and grid genes: with probability Rate, a Gaussian step of
//     standard deviation Sigma, clamped to [0, 1];
//   - int genes: with probability Rate, the same step, after which the
//     integer is rounded stochastically: from k, a step to k+f (f in
//     integer units, on the log scale where there is one) lands on
//     k+floor(f) or k+floor(f)+1 with probabilities that make its mean
//     k+f. So a step worth 0.3 of an integer moves it with probability 0.3
//     instead of never, and the gene stays on the centre of its integer's
//     bucket;
//   - bool genes flip, and choice genes change to another choice, with
//     probability ChoiceRate.
//
// genes must come from this space and m must pass Validate; anything else
// is a programmer error and panics. The draws from rng depend only on the
// genes and m, so a fixed seed reproduces the mutation.
func (s *Space) Mutate(genes []float64, m Mutation, rng *rand.Rand) int {
	s.mustGenes(genes)
	if err := m.Validate(); err != nil {
		panic(err.Error())
	}
	m = m.withDefaults(len(genes))
	changed := 0
	for i, g := range genes {
		p := &s.params[s.genes[i].param]
		switch p.Kind {
		case Float, Grid:
			if rng.Float64() < m.Rate {
				genes[i] = clamp01(g + m.Sigma*rng.NormFloat64())
			}
		case Int:
			if rng.Float64() < m.Rate {
				genes[i] = roundInt(p, clamp01(g+m.Sigma*rng.NormFloat64()), rng)
			}
		case Bool:
			if rng.Float64() < m.ChoiceRate {
				genes[i] = encodeBool(g < 0.5)
			}
		case Choice:
			n := len(p.Choices)
			if n > 1 && rng.Float64() < m.ChoiceRate {
				k := choiceIndex(n, g)
				j := rng.IntN(n - 1)
				if j >= k {
					j++ // skip the current choice: a re-draw always changes it
				}
				genes[i] = choiceCentre(n, j)
			}
		}
		if genes[i] != g {
			changed++
		}
	}
	return changed
}

// roundInt decodes an int gene that may lie anywhere in its range to a
// number, rounds that stochastically and returns the centre of the
// integer's bucket.
func roundInt(p *Param, g float64, rng *rand.Rand) float64 {
	x := scaleOf(p).from(g)
	k := math.Floor(x)
	// A gene already on a centre decodes to its integer give or take an
	// ulp; do not let that ulp move it (identical parents must breed true).
	if r := math.Round(x); math.Abs(x-r) < 1e-9*max(1, math.Abs(r)) {
		k = r
	} else if rng.Float64() < x-k {
		k++
	}
	return encodeInt(p, k)
}

// Crossover is a way of breeding two genomes.
type Crossover uint8

// The crossovers.
const (
	// Uniform swaps each gene between the parents with probability 1/2.
	Uniform Crossover = iota + 1
	// Blend is BLX-alpha: each child's float, int and grid gene is drawn
	// uniformly from the parents' interval [lo, hi] widened by
	// alpha*(hi-lo) on each side, then clamped to [0, 1] (ints then
	// rounded stochastically, as in Mutate). Bool and choice genes are
	// swapped as in Uniform.
	Blend
)

// DefaultAlpha is the usual BLX-alpha widening.
const DefaultAlpha = 0.5

var crossoverNames = [...]string{Uniform: "uniform", Blend: "blend"}

func (c Crossover) String() string { return enum.Name(crossoverNames[:], c, "Crossover") }

// ParseCrossover turns "uniform" or "blend" into a Crossover.
func ParseCrossover(s string) (Crossover, error) {
	if c, ok := enum.Parse[Crossover](crossoverNames[:], s); ok {
		return c, nil
	}
	return 0, fmt.Errorf("genome: unknown crossover %q (want uniform or blend)", s)
}

// MarshalText writes the crossover's name, so that configs and
// checkpoints hold "blend" rather than 2.
func (c Crossover) MarshalText() ([]byte, error) {
	if int(c) >= len(crossoverNames) || crossoverNames[c] == "" {
		return nil, fmt.Errorf("genome: no name for %v", c)
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads a crossover's name.
func (c *Crossover) UnmarshalText(text []byte) error {
	x, err := ParseCrossover(string(text))
	if err != nil {
		return err
	}
	*c = x
	return nil
}

// Cross breeds a and b in place: afterwards they hold the two children.
// alpha is Blend's widening (DefaultAlpha is usual; 0 keeps children
// between their parents) and is ignored by Uniform. The parents must come
// from this space, c must be Uniform or Blend and alpha a finite number
// >= 0; anything else is a programmer error and panics.
func (s *Space) Cross(c Crossover, alpha float64, a, b []float64, rng *rand.Rand) {
	s.mustGenes(a)
	s.mustGenes(b)
	if c != Uniform && c != Blend {
		panic("genome: Cross with " + c.String())
	}
	if !(alpha >= 0) || math.IsInf(alpha, 0) {
		panic(fmt.Sprintf("genome: Cross with alpha %v", alpha))
	}
	for i := range a {
		p := &s.params[s.genes[i].param]
		if c == Uniform || p.Kind == Bool || p.Kind == Choice {
			if rng.Float64() < 0.5 {
				a[i], b[i] = b[i], a[i]
			}
			continue
		}
		lo, hi := min(a[i], b[i]), max(a[i], b[i])
		d := hi - lo
		a[i] = clamp01(lo - alpha*d + rng.Float64()*(1+2*alpha)*d)
		b[i] = clamp01(lo - alpha*d + rng.Float64()*(1+2*alpha)*d)
		if p.Kind == Int {
			a[i] = roundInt(p, a[i], rng)
			b[i] = roundInt(p, b[i], rng)
		}
	}
}

func (s *Space) mustGenes(genes []float64) {
	if len(genes) != len(s.genes) {
		panic(fmt.Sprintf("genome: %d genes for a space of %d", len(genes), len(s.genes)))
	}
}
