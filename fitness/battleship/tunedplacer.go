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
type tunedPlacer struct {
	edge, touch, horizontal, temp float64
	geo                           *Geometry
	feat                          map[int]*placeFeatures // for geo
}

const tunedPlacerRestarts = 1000

// placeFeatures are the per-placement terms of the score for one ship
// length, indexed like Geometry.Placements[L].
type placeFeatures struct {
	static []float64 // edge and orientation terms, already weighted
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
	if !(p.temp > 0) {
		return nil, fmt.Errorf("battleship: tuned placer: %s %v: want > 0", tpTemperature, p.temp)
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
		f := &placeFeatures{static: make([]float64, len(ps)), halo: make([]Bits, len(ps))}
		for j, m := range ps {
			s := p.edge * float64(m.And(ring).Count()) / float64(L)
			if L > 1 {
				if first := m.First(); m.Has(first + 1) {
					s += p.horizontal / 2
				} else {
					s -= p.horizontal / 2
				}
			}
			f.static[j] = s
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
	score := make([]float64, 0, 2*g.Cells)
	for range tunedPlacerRestarts {
		var taken Bits
		ok := true
		for i, L := range g.Fleet {
			ps, f := g.Placements[L], feat[L]
			legal, score = legal[:0], score[:0]
			best := math.Inf(-1)
			for j, m := range ps {
				if m.Meets(taken) {
					continue
				}
				s := f.static[j]
				if p.touch != 0 {
					s -= p.touch * float64(f.halo[j].And(taken).Count())
				}
				s /= p.temp
				legal, score = append(legal, j), append(score, s)
				best = max(best, s)
			}
			if len(legal) == 0 {
				ok = false
				break
			}
			total := 0.0
			for k, s := range score {
				score[k] = math.Exp(s - best) // in (0, 1], the best is 1
				total += score[k]
			}
			x := rng.Float64() * total
			pick := len(legal) - 1 // rounding: the last legal one
			for k, w := range score {
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
