package engine

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/evotune/evotune/engine/config"

	"gonum.org/v1/gonum/stat/distuv"
)

// race is the state of one generation's race.
type race struct {
	rounds   int
	alpha    float64 // one-sided level of one comparison, corrected
	keep     int
	minimise bool
	pairs    bool // head-to-head: round bounds keep seat-swapped pairs together
	weights  [nModes]float64
	nb, gb   int // baseline opponents and games against each
	nh, gh   int // hall-of-fame members that play, and games against each
	res      [][]float64
	alive    []bool
	crit     map[float64]float64 // the critical t by degrees of freedom, memoised
}

func (r *runner) newRace(n, hofPlaying int) *race {
	c := r.cfg
	f := c.Fitness
	rc := &race{rounds: c.Racing.Rounds, keep: c.Evolution.Kept(), minimise: r.species[0].minimise, pairs: f.Objective == config.Score}
	if f.Baselines.Weight > 0 {
		rc.nb, rc.gb = len(r.species[0].baselines), f.Baselines.Games
	}
	if f.HallOfFame.Weight > 0 {
		rc.nh, rc.gh = hofPlaying, f.HallOfFame.Games
	}
	rc.weights = [nModes]float64{f.Baselines.Weight, f.Population.Weight, f.HallOfFame.Weight}
	rc.alpha = raceLevel(c.Racing.Confidence, n, rc.keep, rc.rounds)
	rc.res = make([][]float64, n)
	for i := range rc.res {
		rc.res[i] = make([]float64, rc.nb*rc.gb+rc.nh*rc.gh)
	}
	rc.alive = make([]bool, n)
	for i := range rc.alive {
		rc.alive[i] = true
	}
	return rc
}

// raceLevel is the one-sided level of one comparison in a race of n
// individuals keeping k over the given rounds, such that racing drops an
// individual of the true best k with probability at most 1-confidence.
//
// Only such drops are errors, and each takes several false claims.
// Rank the individuals by their true figures (ties broken any way): to
// drop the one ranked q (1 to k) takes k claims "j is better", of which
// at most q-1 can come from those ranked above it, so at least k-q+1 are
// false claims about those ranked below it. Each of its n-q comparisons
// with those is a false claim with probability at most c, so (Markov's
// inequality on their number) k-q+1 of them at one look happen with
// probability at most (n-q)c/(k-q+1). Summed over q and the rounds-1
// looks, that is the error's bound. Bonferroni over every ordered
// comparison, n(n-1) of them (racing's level before), bounds the chance
// of any false claim at all, which racing does not need: for 16
// individuals keeping 2 that is 240 comparisons' worth, here 21.5, and
// the threshold of a look falls from 3.9 to 3.25 standard errors. An
// individual tied with the k-th exactly may be dropped for it, which
// costs nothing.
func raceLevel(confidence float64, n, k, rounds int) float64 {
	var worth float64
	for q := 1; q <= k && q < n; q++ {
		worth += float64(n-q) / float64(k-q+1)
	}
	return (1 - confidence) / (max(worth, 1) * float64(rounds-1))
}

// bound is where round r's games against one opponent end, of games.
func (rc *race) bound(games, r int) int {
	if r+1 >= rc.rounds {
		return games
	}
	if rc.pairs {
		return games / 2 * (r + 1) / rc.rounds * 2
	}
	return games * (r + 1) / rc.rounds
}

// plays reports whether job j is played in round r: population games all
// in the first round, raced games in their round while the individual is
// in the race.
func (rc *race) plays(j job, r int) bool {
	var games int
	switch j.mode {
	case modeBaselines:
		games = rc.gb
	case modeHallOfFame:
		games = rc.gh
	default:
		return r == 0
	}
	lo := 0
	if r > 0 {
		lo = rc.bound(games, r-1)
	}
	return rc.alive[j.a] && j.game >= lo && j.game < rc.bound(games, r)
}

func (rc *race) slot(j job) int {
	if j.mode == modeBaselines {
		return j.opi*rc.gb + j.game
	}
	return rc.nb*rc.gb + j.opi*rc.gh + j.game
}

func (rc *race) record(j job, x float64) {
	if j.mode == modeBaselines || j.mode == modeHallOfFame {
		rc.res[j.a][rc.slot(j)] = x
	}
}

// paired is the mean and variance of the mean of the paired differences
// b - a over the first played games against each of opps opponents of a
// mode whose games start at slot base.
func (rc *race) paired(a, b []float64, base, opps, games, played int) (mean, varMean, n float64) {
	var sum, sumsq float64
	for o := range opps {
		for g := range played {
			d := b[base+o*games+g] - a[base+o*games+g]
			sum += d
			sumsq += d * d
		}
	}
	n = float64(opps * played)
	if n < 2 {
		return 0, 0, n
	}
	mean = sum / n
	v := max(0, (sumsq-sum*sum/n)/(n-1))
	return mean, v / n, n
}

// better reports whether individual j is better than i at the race's
// confidence, from the games both have played after round r.
func (rc *race) better(j, i, r int, stats [][nModes]modeStats) bool {
	type part struct{ w, mean, varMean, n float64 }
	var parts []part
	if rc.weights[modeBaselines] > 0 && rc.nb > 0 {
		m, v, n := rc.paired(rc.res[i], rc.res[j], 0, rc.nb, rc.gb, rc.bound(rc.gb, r))
		parts = append(parts, part{rc.weights[modeBaselines], m, v, n})
	}
	if rc.weights[modeHallOfFame] > 0 && rc.nh > 0 {
		m, v, n := rc.paired(rc.res[i], rc.res[j], rc.nb*rc.gb, rc.nh, rc.gh, rc.bound(rc.gh, r))
		parts = append(parts, part{rc.weights[modeHallOfFame], m, v, n})
	}
	if si, sj := stats[i][modePopulation], stats[j][modePopulation]; rc.weights[modePopulation] > 0 && si.n > 0 && sj.n > 0 {
		// Different opponents: not paired.
		parts = append(parts, part{rc.weights[modePopulation], sj.mean() - si.mean(), si.varMeanGames() + sj.varMeanGames(), min(si.n, sj.n)})
	}
	var wmax, wsum float64
	df := math.Inf(1)
	for _, p := range parts {
		wmax = max(wmax, p.w)
		df = min(df, p.n-1)
	}
	if len(parts) == 0 || df < 1 {
		return false // too few games to say anything
	}
	for _, p := range parts {
		wsum += p.w / wmax
	}
	var d, v float64
	for _, p := range parts {
		w := p.w / wmax / wsum
		d += w * p.mean
		v += w * w * p.varMean
	}
	if rc.minimise {
		d = -d
	}
	if d <= 0 {
		return false
	}
	if v == 0 {
		return true
	}
	crit, ok := rc.crit[df]
	if !ok {
		crit = tQuantile(1-rc.alpha, df)
		if rc.crit == nil {
			rc.crit = map[float64]float64{}
		}
		rc.crit[df] = crit
	}
	return d/math.Sqrt(v) > crit
}

// decide ends round r: every individual with at least keep others
// significantly better is out of the race. All decisions of a round are
// taken from the same results, in index order, so they depend on the
// results alone.
func (rc *race) decide(r int, stats [][nModes]modeStats) {
	var out []int
	for i, in := range rc.alive {
		if !in {
			continue
		}
		beaten := 0
		for j, jin := range rc.alive {
			if j != i && jin && rc.better(j, i, r, stats) {
				beaten++
				if beaten >= rc.keep {
					out = append(out, i)
					break
				}
			}
		}
	}
	for _, i := range out {
		rc.alive[i] = false
	}
}

// rankGeneration lists a generation's members best first, by index:
// with racing, those still in the race at the end before those dropped
// from it, whose figures come from fewer games and were found worse;
// ties keep their order (stable), so ranking is deterministic.
func (r *runner) rankGeneration(sp *species, members []Member) []int {
	idx := make([]int, len(members))
	for i := range idx {
		idx[i] = i
	}
	raced := r.race != nil && len(members) == len(r.race.alive)
	sort.SliceStable(idx, func(a, b int) bool {
		ia, ib := idx[a], idx[b]
		if raced && r.race.alive[ia] != r.race.alive[ib] {
			return r.race.alive[ia]
		}
		return sp.cost(members[ia]) < sp.cost(members[ib])
	})
	return idx
}

// racingCSV is generations.csv of a racing run: the games played and
// the games racing saved.
func racingCSV(h []GenStats) []byte {
	var b bytes.Buffer
	b.WriteString("generation,best,mean,sd,games,saved\n")
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 10, 64) }
	for _, s := range h {
		fmt.Fprintf(&b, "%d,%s,%s,%s,%d,%d\n", s.Generation, f(s.Best), f(s.Mean), f(s.SD), s.Games, s.Saved)
	}
	return b.Bytes()
}

// tQuantile is the p quantile of Student's t with df degrees of freedom
// (df may be +Inf, the normal limit, which gonum's t does not take).
func tQuantile(p, df float64) float64 {
	if math.IsInf(df, 1) || df > 1e7 {
		return distuv.UnitNormal.Quantile(p)
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(p)
}
