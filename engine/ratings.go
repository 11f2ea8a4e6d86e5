package engine

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/rating"
)

// ratingNodes are the distinct genomes of a generation's rated games:
// copies of one genome, and a hall-of-fame member that is also an
// individual, are one player with one rating.
type ratingNodes struct {
	genes [][]float64
	ind   []int // node of individual i
	hof   []int // node of playing hall-of-fame member h
	table rating.Table
}

func newRatingNodes(genomes [][]float64, hof []Member, members int) *ratingNodes {
	n := &ratingNodes{}
	node := func(g []float64) int {
		if k := slices.IndexFunc(n.genes, func(o []float64) bool { return slices.Equal(o, g) }); k >= 0 {
			return k
		}
		n.genes = append(n.genes, g)
		return len(n.genes) - 1
	}
	for _, g := range genomes {
		n.ind = append(n.ind, node(g))
	}
	for h := 0; h < len(hof) && h < members; h++ {
		n.hof = append(n.hof, node(hof[h].Genes))
	}
	return n
}

// record adds a game's result, x seen from j.a, if it is between rated
// players.
func (n *ratingNodes) record(j job, x float64) {
	switch {
	case j.mode == modePopulation && j.b >= 0:
		n.table.Add(n.ind[j.a], n.ind[j.b], x)
	case j.mode == modeHallOfFame:
		n.table.Add(n.ind[j.a], n.hof[j.opi], x)
	}
}

// rate fits the generation's ratings and turns them into the population
// mode's figures: stats[i][modePopulation] becomes the score individual i
// is expected to make against the generation, with its interval. It
// returns every node's rating, anchored so the playing hall-of-fame
// members keep their mean rating (the generation's mean 0 without one).
func (n *ratingNodes) rate(stats [][nModes]modeStats, hof []Member) ([]fitness.Rating, error) {
	rs, err := rating.Fit(len(n.genes), n.table.Pairs(), rating.Options{})
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	var shift float64
	var stored, fresh, k float64
	for h, node := range n.hof {
		if r := hof[h].Rating; r != nil {
			stored += r.Elo * math.Ln10 / 400
			fresh += rs[node].Theta
			k++
		}
	}
	if k > 0 {
		shift = (stored - fresh) / k
	} else {
		for _, node := range n.ind {
			shift -= rs[node].Theta / float64(len(n.ind))
		}
	}
	out := make([]fitness.Rating, len(rs))
	for i, r := range rs {
		t := r.Theta + shift
		out[i] = fitness.Rating{Elo: rating.Elo(t), CI95: [2]float64{rating.Elo(t - z95*r.SE), rating.Elo(t + z95*r.SE)}, Games: int(r.Games)}
	}
	for i, node := range n.ind {
		st := &stats[i][modePopulation]
		if st.n < 2 {
			continue // no population games: nothing to replace
		}
		// Expected score against the others, and its slope in the rating.
		var e, slope float64
		for j, other := range n.ind {
			if j == i {
				continue
			}
			p := rating.Expected(rs[node].Theta, rs[other].Theta)
			e += p
			slope += p * (1 - p)
		}
		others := float64(len(n.ind) - 1)
		e, slope = e/others, slope/others
		se := slope * rs[node].SE
		// modeStats of the same count whose mean is e and whose variance
		// of the mean is se^2, so combine weighs it like any mode.
		st.sum = e * st.n
		st.sumsq = se*se*st.n*(st.n-1) + st.sum*st.sum/st.n
		st.pairs = 0 // the rating's variance, not the pairs', is the figure's
	}
	return out, nil
}

const z95 = 1.959963984540054

// sortHallOfFame orders a merged hall of fame best first: by fitness,
// or, with ratings, by the latest rating of every member (those that
// played this generation are re-rated; the others keep theirs).
func (r *runner) sortHallOfFame(sp *species, hof []Member) {
	if !r.cfg.Rates() || r.rated == nil {
		sp.sortBest(hof)
		return
	}
	for i := range hof {
		if k := slices.IndexFunc(r.rated.genes, func(g []float64) bool { return slices.Equal(g, hof[i].Genes) }); k >= 0 {
			rt := r.ratings[k]
			hof[i].Rating = &rt
		}
	}
	elo := func(m Member) float64 {
		if m.Rating == nil {
			return math.Inf(-1)
		}
		return m.Rating.Elo
	}
	sort.SliceStable(hof, func(i, j int) bool { return elo(hof[i]) > elo(hof[j]) })
}

// checkRating checks a member's rating, when it has one.
func checkRating(field string, m Member) error {
	r := m.Rating
	if r == nil {
		return nil
	}
	switch {
	case !finite(r.Elo, r.CI95[0], r.CI95[1]) || r.CI95[0] > r.Elo || r.CI95[1] < r.Elo:
		return fmt.Errorf("%s.rating: %v [%v, %v] is not a rating in its interval", field, r.Elo, r.CI95[0], r.CI95[1])
	case r.Games < 0:
		return fmt.Errorf("%s.rating.games: %d", field, r.Games)
	}
	return nil
}
