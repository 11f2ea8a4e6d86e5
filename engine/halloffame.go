package engine

import (
	"slices"
	"sort"

	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/fitness"
)

// cost is the species' fitness of m with lower better: what models are
// told and eaopt minimises.
func (sp *species) cost(m Member) float64 {
	if sp.minimise {
		return m.Fitness
	}
	return -m.Fitness
}

// sortBest orders members best first, ties by position (stable), so
// sorting is deterministic.
func (sp *species) sortBest(ms []Member) {
	sort.SliceStable(ms, func(i, j int) bool { return sp.cost(ms[i]) < sp.cost(ms[j]) })
}

// updateHallOfFame merges a generation's evaluated members into the hall
// of fame: a genome already there (a survivor) adds its games to its record, so its
// figures sharpen with every re-evaluation; the rest compete for a place.
func (r *runner) updateHallOfFame(sp *species, hof, gen []Member) []Member {
	out := slices.Clone(hof)
	merged := make([]bool, len(out))
	for k, m := range gen {
		// Copies of one genome in a generation played the same deals, so
		// their results are one sample, not several: count it once.
		if slices.ContainsFunc(gen[:k], func(o Member) bool { return slices.Equal(o.Genes, m.Genes) }) {
			continue
		}
		found := false
		for i := range out {
			if slices.Equal(out[i].Genes, m.Genes) {
				if i < len(merged) && !merged[i] {
					out[i] = mergeEvaluations(out[i], m)
					if r.cfg.Fitness.Objective == config.Score {
						// As a generation's figures are: pooling two
						// clipped intervals can stick out of [0, 1] again.
						out[i].CI95 = [2]float64{max(0, out[i].CI95[0]), min(1, out[i].CI95[1])}
					}
					merged[i] = true
				}
				found = true
				break
			}
		}
		if !found {
			out = append(out, m)
		}
	}
	r.sortHallOfFame(sp, out)
	if len(out) > r.cfg.Evolution.HallOfFame {
		out = out[:r.cfg.Evolution.HallOfFame]
	}
	return out
}

// mergeEvaluations combines two evaluations of one genome, weighting by games.
func mergeEvaluations(a, b Member) Member {
	n := float64(a.Games + b.Games)
	wa, wb := float64(a.Games)/n, float64(b.Games)/n
	fit := wa*a.Fitness + wb*b.Fitness
	ha, hb := (a.CI95[1]-a.CI95[0])/2, (b.CI95[1]-b.CI95[0])/2
	half := sqrt(wa*wa*ha*ha + wb*wb*hb*hb)
	return Member{Genes: a.Genes, Figure: fitness.Figure{Fitness: fit, Games: a.Games + b.Games, CI95: [2]float64{fit - half, fit + half}}, Generation: a.Generation}
}
