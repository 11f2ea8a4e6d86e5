package genome

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
)

// A Space is the searched space: a schema (a player's declared one, or one
// declared wholly in the config), possibly narrowed, with some parameters
// held fixed. A genome is a point in it, a []float64 of Len genes, each in
// [0, 1] whatever the parameter's range, so that one mutation step size and
// one crossover fit every knob:
//
//   - float: one gene, linear in [Min, Max], or linear in log(x) when Log;
//   - int: one gene; the range is cut into Max-Min+1 equal buckets (equal in
//     log(x) when Log), one per integer, and a gene decodes to the integer
//     whose bucket holds it. Operators keep int genes at the centre of their
//     bucket, so a genome names its integers without hidden sub-integer state;
//   - bool: one gene, true from 0.5 up (kept at 0.25 or 0.75);
//   - choice: one gene cut into len(Choices) buckets (kept at their centres);
//   - grid: one gene per class of cells under the Symmetry, linear in
//     [Min, Max]; all cells of a class share the class's weight;
//   - a fixed parameter: no gene; Decode gives the fixed value. An opt-in
//     parameter (Param.OptIn) that the config's space section leaves out
//     is fixed at its default.
//
// Decoded floats are rounded to 12 significant digits, so that a number
// written in a config comes back as written (see floatDigits).
//
// A Space is immutable once built and safe for concurrent use.
type Space struct {
	schema Schema  // the declared schema: Values carry it
	params Schema  // the effective parameters, parallel to schema
	fixed  []bool  // parallel to schema: held at fixVal, no gene
	fixVal []Value // parallel to schema
	idle   []bool  // parallel to schema: an opt-in parameter the config leaves out, fixed at its default
	first  []int   // parallel to schema: index of the first gene, -1 if fixed
	class  [][]int // parallel to schema: a grid's cell classes under its effective symmetry
	nclass []int   // parallel to schema: a grid's number of classes
	genes  []Gene
}

// Gene describes one gene of a genome.
type Gene struct {
	Param string // the parameter's name
	Kind  Kind
	Class int // Grid: the class of cells the gene weights; 0 otherwise

	param int // index into the schema
}

// String names the gene, with the class of a grid: "edge", "weights[3]".
func (g Gene) String() string {
	if g.Kind == Grid {
		return g.Param + "[" + strconv.Itoa(g.Class) + "]"
	}
	return g.Param
}

// ErrEmptySpace is returned, wrapped, when no parameter is left to search.
var ErrEmptySpace = errors.New("genome: nothing to search")

// newSpace lays out the genes of a checked schema and its effective
// parameters. fixVal[i] is used where fixed[i].
func newSpace(schema, params Schema, fixed []bool, fixVal []Value) *Space {
	s := &Space{
		schema: schema,
		params: params,
		fixed:  fixed,
		fixVal: fixVal,
		first:  make([]int, len(schema)),
		class:  make([][]int, len(schema)),
		nclass: make([]int, len(schema)),
	}
	for i := range params {
		p := &params[i]
		n := 1
		if p.Kind == Grid {
			s.class[i], n = p.Classes()
			s.nclass[i] = n
		}
		if fixed[i] {
			s.first[i] = -1
			continue
		}
		s.first[i] = len(s.genes)
		for c := range n {
			s.genes = append(s.genes, Gene{Param: p.Name, Kind: p.Kind, Class: c, param: i})
		}
	}
	return s
}

// Len is the number of genes of a genome of the space.
func (s *Space) Len() int { return len(s.genes) }

// Genes describes the genes in genome order.
func (s *Space) Genes() []Gene { return slices.Clone(s.genes) }

// Schema is the declared schema (shared: do not modify it); Decode's
// Values carry it, so players read them as they read their defaults.
func (s *Space) Schema() Schema { return s.schema }

// Params is the effective schema, parallel to Schema: the ranges, choices
// and symmetries actually searched. Fixed parameters are included with
// their declared settings; see Fixed.
func (s *Space) Params() Schema {
	return cloneSchema(s.params)
}

// Fixed reports whether the named parameter is held fixed, and at what.
func (s *Space) Fixed(name string) (Value, bool) {
	for i := range s.schema {
		if s.schema[i].Name == name && s.fixed[i] {
			return cloneValue(s.fixVal[i]), true
		}
	}
	return Value{}, false
}

// Check reports whether genes is a genome of the space: Len genes, each a
// number in [0, 1]. Genes read back from a checkpoint should pass it.
func (s *Space) Check(genes []float64) error {
	if len(genes) != len(s.genes) {
		return fmt.Errorf("genome: %d genes, want %d", len(genes), len(s.genes))
	}
	for i, g := range genes {
		if !(g >= 0 && g <= 1) {
			return fmt.Errorf("genome: gene %d (%v) = %v is outside [0, 1]", i, s.genes[i], g)
		}
	}
	return nil
}

// Decode turns a genome into typed values of the declared schema: ints
// rounded, choices picked, grids expanded to all their cells, fixed
// parameters at their fixed values. It fails only if Check fails.
func (s *Space) Decode(genes []float64) (Values, error) {
	if err := s.Check(genes); err != nil {
		return Values{}, err
	}
	v := Values{schema: s.schema, vals: make([]Value, len(s.schema))}
	for i := range s.params {
		if s.fixed[i] {
			v.vals[i] = cloneValue(s.fixVal[i])
			continue
		}
		p := &s.params[i]
		g := genes[s.first[i]:]
		switch p.Kind {
		case Float:
			v.vals[i].Num = decodeFloat(p, g[0])
		case Int:
			v.vals[i].Num = decodeInt(p, g[0])
		case Bool:
			if g[0] >= 0.5 {
				v.vals[i].Num = 1
			}
		case Choice:
			v.vals[i].Str = p.Choices[choiceIndex(len(p.Choices), g[0])]
		case Grid:
			free := make([]float64, s.nclass[i])
			for c := range free {
				free[c] = decodeFloat(p, g[c])
			}
			v.vals[i].Cells = expandClasses(free, s.class[i])
		}
	}
	return v, nil
}

// Encode turns values of the declared schema into a genome. Numbers
// outside a narrowed range are clamped into it; a grid is reduced to its
// symmetry (each class takes the mean of its cells); fixed parameters are
// skipped. It fails when v belongs to another schema or holds a choice the
// space excludes. Decode(Encode(v)) gives v back for values inside the
// space: exactly for ints, bools, choices and floats of up to 12
// significant digits, within a relative 1e-12 for others.
func (s *Space) Encode(v Values) ([]float64, error) {
	if !sameSchema(v.schema, s.schema) {
		return nil, errors.New("genome: values of another schema")
	}
	genes := make([]float64, len(s.genes))
	for i := range s.params {
		if s.fixed[i] {
			continue
		}
		p := &s.params[i]
		x := v.vals[i]
		g := genes[s.first[i]:]
		switch p.Kind {
		case Float:
			g[0] = encodeFloat(p, x.Num)
		case Int:
			g[0] = encodeInt(p, x.Num)
		case Bool:
			g[0] = encodeBool(x.Num != 0)
		case Choice:
			k := slices.Index(p.Choices, x.Str)
			if k < 0 {
				return nil, fmt.Errorf("genome: %s: %q is not among the space's choices %v", p.Name, x.Str, p.Choices)
			}
			g[0] = choiceCentre(len(p.Choices), k)
		case Grid:
			if len(x.Cells) != p.Rows*p.Cols {
				return nil, fmt.Errorf("genome: %s: %d cells, want %d", p.Name, len(x.Cells), p.Rows*p.Cols)
			}
			for c, w := range reduceClasses(x.Cells, s.class[i], s.nclass[i]) {
				g[c] = encodeFloat(p, w)
			}
		}
	}
	return genes, nil
}

// Random draws a genome uniformly: every gene uniform in [0, 1], so floats
// and grid weights are uniform on their (log) scale, ints uniform over their
// buckets, bools and choices uniform.
func (s *Space) Random(rng *rand.Rand) []float64 {
	genes := make([]float64, len(s.genes))
	for i := range genes {
		genes[i] = s.snap(i, rng.Float64())
	}
	return genes
}

// snap moves a gene of a discrete kind to the centre of its bucket.
func (s *Space) snap(i int, g float64) float64 {
	p := &s.params[s.genes[i].param]
	switch p.Kind {
	case Int:
		return encodeInt(p, decodeInt(p, g))
	case Bool:
		return encodeBool(g >= 0.5)
	case Choice:
		return choiceCentre(len(p.Choices), choiceIndex(len(p.Choices), g))
	}
	return g
}

func sameSchema(a, b Schema) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Kind != b[i].Kind {
			return false
		}
	}
	return true
}

// scale maps a number parameter's range to [0, 1]: linearly in u(x), where
// u is the identity or log. An int's range is widened by half a unit on each
// side so that every integer owns an equal bucket and the end points are
// not drawn half as often as the others.
type scale struct {
	lo, hi float64 // in u-space
	log    bool
}

func scaleOf(p *Param) scale {
	lo, hi := p.Min, p.Max
	if p.Kind == Int {
		lo, hi = lo-0.5, hi+0.5
	}
	log := p.Log && p.Kind != Grid
	if log {
		lo, hi = math.Log(lo), math.Log(hi)
	}
	return scale{lo: lo, hi: hi, log: log}
}

func (sc scale) from(g float64) float64 {
	u := sc.lo + g*(sc.hi-sc.lo)
	if sc.log {
		return math.Exp(u)
	}
	return u
}

func (sc scale) to(x float64) float64 {
	if sc.hi == sc.lo {
		return 0.5
	}
	u := x
	if sc.log {
		u = math.Log(x)
	}
	return clamp01((u - sc.lo) / (sc.hi - sc.lo))
}

// decodeFloat maps a gene to a number of p's range, rounded to
// floatDigits significant digits (see there).
func decodeFloat(p *Param, g float64) float64 {
	switch {
	case g <= 0:
		return p.Min
	case g >= 1:
		return p.Max
	}
	x := roundDigits(scaleOf(p).from(g))
	return math.Min(math.Max(x, p.Min), p.Max)
}

// floatDigits is the precision of decoded floats. Rounding there makes a
// number the user wrote (a seed's 0.3, an exported 1.23456789) decode back
// as written, not as 0.30000000000000004: the trip through a normalised
// and, above all, a log scale loses the last few bits, and no gene's
// preimage may hit them exactly. A relative 1e-12 is far finer than any
// difference a game can feel.
const floatDigits = 12

func roundDigits(x float64) float64 {
	y, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', floatDigits, 64), 64)
	if err != nil {
		return x // unreachable for a finite x
	}
	return y
}

// encodeFloat clamps x into p's range and returns its gene.
func encodeFloat(p *Param, x float64) float64 {
	return scaleOf(p).to(math.Min(math.Max(x, p.Min), p.Max))
}

func decodeInt(p *Param, g float64) float64 {
	return math.Min(math.Max(math.Round(scaleOf(p).from(g)), p.Min), p.Max)
}

// encodeInt gives the centre of the bucket of the integer nearest x,
// clamped into p's range. On a log scale the centre is taken in log space
// (log x itself), which decodes back to x because x lies inside its bucket.
func encodeInt(p *Param, x float64) float64 {
	return scaleOf(p).to(math.Min(math.Max(math.Round(x), p.Min), p.Max))
}

func encodeBool(b bool) float64 {
	if b {
		return 0.75
	}
	return 0.25
}

func choiceIndex(n int, g float64) int {
	return min(max(int(g*float64(n)), 0), n-1)
}

func choiceCentre(n, k int) float64 { return (float64(k) + 0.5) / float64(n) }

func clamp01(x float64) float64 { return math.Min(math.Max(x, 0), 1) }

func expandClasses(free []float64, class []int) []float64 {
	cells := make([]float64, len(class))
	for i, c := range class {
		cells[i] = free[c]
	}
	return cells
}

// reduceClasses is Reduce for a precomputed map of cells to n classes.
// The mean of a class is taken as its first cell plus the mean deviation
// from it, so that a class of equal cells gives back that value bit for
// bit; a plain sum/count turns three cells of 0.1 into 0.10000000000000002.
func reduceClasses(cells []float64, class []int, n int) []float64 {
	first := make([]float64, n)
	dev := make([]float64, n)
	cnt := make([]float64, n)
	for i, c := range class {
		if cnt[c] == 0 {
			first[c] = cells[i]
		}
		dev[c] += cells[i] - first[c]
		cnt[c]++
	}
	for c := range first {
		first[c] += dev[c] / cnt[c]
	}
	return first
}
