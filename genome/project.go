package genome

import "math"

// Project maps any real vector of Len numbers to a genome of the space,
// for search models that work in unbounded coordinates (CMA-ES):
//
//   - each number is mirrored into [0, 1] (x and 2-x, x and -x are the
//     same point), so a coordinate that steps past a bound comes back
//     the way it went instead of piling up on the bound, and no penalty
//     with a scale that would depend on the objective is needed;
//   - int, bool and choice genes then go to the centre of the bucket
//     that holds them (round to the nearest integer, threshold at 0.5,
//     pick the choice whose bucket it is), as Random and Mutate keep them;
//   - float and grid genes stay where they land.
//
// A number that is not finite lands on 0.5. Project panics when x has
// the wrong length: that is a programmer error.
func (s *Space) Project(x []float64) []float64 {
	if len(x) != len(s.genes) {
		panic("genome: Project of a vector of the wrong length")
	}
	genes := make([]float64, len(x))
	for i, v := range x {
		genes[i] = s.snap(i, mirror01(v))
	}
	return genes
}

// mirror01 folds the real line onto [0, 1] by reflection at every
// integer: a triangle wave of period 2.
func mirror01(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0.5
	}
	t := math.Mod(x, 2)
	if t < 0 {
		t += 2
	}
	if t > 1 {
		t = 2 - t
	}
	return t
}
