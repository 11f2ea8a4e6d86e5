package battleship

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/evotune/evotune/genome"
)

// The tuned placer's parameters, by name.
const (
	tpEdge        = "edge_affinity"
	tpTouch       = "touch_aversion"
	tpHorizontal  = "horizontal_bias"
	tpTemperature = "temperature"
)

// tunedPlacerSchema declares the tuned placer's knobs. The defaults (all
// biases 0) make it uniform: each ship in turn uniform over its legal
// positions, the same distribution as the random placer.
func tunedPlacerSchema(Rules) genome.Schema {
	return genome.Schema{
		{Name: tpEdge, Kind: genome.Float, Min: -4, Max: 4, Default: genome.Value{Num: 0},
			Summary: "log-weight of a placement per unit of its cells' share on the board's edge (>0 hugs the edges)"},
		{Name: tpTouch, Kind: genome.Float, Min: -3, Max: 3, Default: genome.Value{Num: 0},
			Summary: "log-weight taken off per cell of an earlier ship orthogonally next to a placement (<0 clusters)"},
		{Name: tpHorizontal, Kind: genome.Float, Min: -3, Max: 3, Default: genome.Value{Num: 0},
			Summary: "log-odds of horizontal over vertical placements (>0 favours horizontal)"},
		{Name: tpTemperature, Kind: genome.Float, Min: 0.1, Max: 10, Log: true, Default: genome.Value{Num: 1},
			Summary: "divides every log-weight: high blends toward uniform, low sharpens the biases"},
	}
}

// tunedPlacer lays ships one at a time in fleet order, each drawn among
// its legal positions (no overlap with the ships already placed) with
// probability proportional to exp(score/temperature), where
//
//	score = edge_affinity * (share of its cells on the board's outer ring)
//	      - touch_aversion * (cells of earlier ships orthogonally next to it)
//	      ± horizontal_bias/2 (+ horizontal, - vertical; 0 for length 1)
//
// A dead end (no legal position for the next ship) restarts the layout;
// after tunedPlacerRestarts of them the random placer lays the fleet.
//
// The weights are computed without an exp per candidate: the edge and
// orientation factor of every placement is fixed at build time, and the
// touching factor takes one of a few values per ship (by the number of
// touching cells). The first is scaled so that its largest value over all
// placements of the length is 1 (the parameter ranges bound it below by
// e^-70), the second so that its largest value among the candidates is
// 1: nothing overflows and the best candidates never underflow.
type tunedPlacer struct {
	edge, touch, horizontal, temp float64
	geo                           *Geometry
	feat                          map[int]*placeFeatures // for geo
}

const tunedPlacerRestarts = 1000

// placeFeatures are the per-placement terms of the score for one ship
// length, indexed like Geometry.Placements[L].
type placeFeatures struct {
	weight []float64 // exp((edge and orientation terms - their max)/temperature)
	halo   []Bits    // cells orthogonally next to the placement
}

func newTunedPlacer(g *Geometry, v genome.Values) (*tunedPlacer, error) {
	p := &tunedPlacer{
		edge:       v.Float(tpEdge),
		touch:      v.Float(tpTouch),
		horizontal: v.Float(tpHorizontal),
		temp:       v.Float(tpTemperature),
		geo:        g,
	}
	if !(p.temp > 0) || math.IsInf(p.temp, 0) {
		return nil, fmt.Errorf("battleship: tuned placer: %s %v: want a positive number", tpTemperature, p.temp)
	}
	p.feat = p.features(g)
	return p, nil
}

func (*tunedPlacer) Name() string { return "tuned" }

// features computes the score terms of every placement on g.
func (p *tunedPlacer) features(g *Geometry) map[int]*placeFeatures {
	var ring Bits
	for c := range g.Cells {
		r, col := c/g.W, c%g.W
		if r == 0 || col == 0 || r == g.H-1 || col == g.W-1 {
			ring = ring.Set(c)
		}
	}
	out := make(map[int]*placeFeatures, len(g.Lengths))
	for _, L := range g.Lengths {
		ps := g.Placements[L]
		f := &placeFeatures{weight: make([]float64, len(ps)), halo: make([]Bits, len(ps))}
		best := math.Inf(-1)
		for j, m := range ps {
			s := p.edge * float64(m.And(ring).Count()) / float64(L)
			if L > 1 {
				if first := m.First(); m.Has(first + 1) {
					s += p.horizontal / 2
				} else {
					s -= p.horizontal / 2
				}
			}
			f.weight[j] = s / p.temp
			best = max(best, f.weight[j])
			var halo Bits
			for w := m; !w.Empty(); {
				c := w.First()
				w = w.AndNot(Cell(c))
				for _, d := range compassDirs {
					if n := neighbourAt(g, c, d[0], d[1]); n >= 0 {
						halo = halo.Set(n)
					}
				}
			}
			f.halo[j] = halo.AndNot(m)
		}
		for j := range f.weight {
			f.weight[j] = math.Exp(f.weight[j] - best)
		}
		out[L] = f
	}
	return out
}

func (p *tunedPlacer) Place(g *Geometry, rng *rand.Rand) Layout {
	feat := p.feat
	if g != p.geo {
		feat = p.features(g)
	}
	ships := make([]Bits, len(g.Fleet))
	legal := make([]int, 0, 2*g.Cells)
	touches := make([]int, 0, 2*g.Cells)
	weight := make([]float64, 0, 2*g.Cells)
	var touchW []float64 // by number of touching cells
	for range tunedPlacerRestarts {
		var taken Bits
		ok := true
		for i, L := range g.Fleet {
			ps, f := g.Placements[L], feat[L]
			legal, touches, weight = legal[:0], touches[:0], weight[:0]
			lo, hi := math.MaxInt, 0
			for j, m := range ps {
				if m.Meets(taken) {
					continue
				}
				n := 0
				if p.touch != 0 {
					n = f.halo[j].And(taken).Count()
				}
				legal, touches = append(legal, j), append(touches, n)
				lo, hi = min(lo, n), max(hi, n)
			}
			if len(legal) == 0 {
				ok = false
				break
			}
			// touchW[n] = exp(-touch*n/temp), over its largest value on
			// [lo, hi] (at lo for aversion, at hi for attraction).
			top := max(-p.touch*float64(lo), -p.touch*float64(hi))
			touchW = touchW[:0]
			for n := 0; n <= hi; n++ {
				touchW = append(touchW, math.Exp((-p.touch*float64(n)-top)/p.temp))
			}
			total := 0.0
			for k, j := range legal {
				w := f.weight[j] * touchW[touches[k]]
				weight = append(weight, w)
				total += w
			}
			x := rng.Float64() * total
			pick := len(legal) - 1 // rounding: the last legal one
			for k, w := range weight {
				if x -= w; x < 0 {
					pick = k
					break
				}
			}
			ships[i] = ps[legal[pick]]
			taken = taken.Or(ships[i])
		}
		if ok {
			return Layout{Ships: ships}
		}
	}
	return placeUniform(g, rng)
}
