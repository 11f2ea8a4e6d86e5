package genome

import "math"

// Round moves gene i to a legal value near x, a number in [0, 1], for
// search models that step genes by arbitrary amounts (SPSA): the
// stochastic rounding fishtest and OpenBench apply to a perturbed integer
// parameter, floor(x + u), with the uniform u passed in so that a caller
// can use one u for two points.
//
//   - float and grid genes: x itself;
//   - int genes: the centre of the bucket of floor(v) or floor(v)+1,
//     where v is the number x decodes to before rounding (on the log
//     scale where there is one, as Mutate rounds); the upper one when
//     u < v - floor(v). Over uniform u the mean integer is v;
//   - bool and choice genes: the centre of the bucket whose centre is the
//     nearest at or below x, or of the next one, the upper when u is less
//     than x's fraction of the way between the two centres (in gene
//     units); past the outermost centre, that centre.
//
// One u for two values x <= y gives Round(i, x, u) <= Round(i, y, u), so
// two points perturbed apart from one centre never cross when rounded.
// Every result passes Check and sits on its bucket's centre. Round panics
// when i is not a gene of the space: that is a programmer error.
func (s *Space) Round(i int, x, u float64) float64 {
	if i < 0 || i >= len(s.genes) {
		panic("genome: Round of a gene the space does not have")
	}
	x = clamp01(x)
	p := &s.params[s.genes[i].param]
	switch p.Kind {
	case Int:
		k, f := intFloor(p, x)
		if u < f {
			k++
		}
		return encodeInt(p, k)
	case Bool:
		return roundBetween(x, u, 2)
	case Choice:
		return roundBetween(x, u, len(p.Choices))
	}
	return x
}

// intFloor splits the number an int gene decodes to before rounding into
// its integer part and fraction. A gene already on a centre decodes to
// its integer give or take an ulp; that ulp counts as no fraction, so a
// centre never moves.
func intFloor(p *Param, g float64) (k, frac float64) {
	x := scaleOf(p).from(g)
	if r := math.Round(x); math.Abs(x-r) < 1e-9*max(1, math.Abs(r)) {
		return r, 0
	}
	k = math.Floor(x)
	return k, x - k
}

// roundBetween rounds x stochastically between the centres of n equal
// buckets of [0, 1].
func roundBetween(x, u float64, n int) float64 {
	t := x*float64(n) - 0.5 // in bucket units, centres at 0 .. n-1
	if t <= 0 {
		return choiceCentre(n, 0)
	}
	if t >= float64(n-1) {
		return choiceCentre(n, n-1)
	}
	k := math.Floor(t)
	if u < t-k {
		k++
	}
	return choiceCentre(n, int(k))
}
