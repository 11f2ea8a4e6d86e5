package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/rating"
	"github.com/evotune/evotune/rundir"
)

// ratedConfig evolves coin players (strength s in [0, 1]) on population
// and hall-of-fame games, rated by Bradley-Terry.
const ratedConfig = `seed: 5
game: coin
player: tuned
fitness:
  objective: score
  population:
    opponents: 4
    games: 10
    rating: bradley-terry
  hall-of-fame:
    members: 3
    games: 10
evolution:
  population: 16
  generations: 8
  tournament-size: 2
`

// TestRatingsInARun: every member of a rated run carries a rating with
// its interval; the hall of fame is ordered by rating; the strongest
// players rise; checkpoint, best.yaml and export show the ratings; and
// the run is the same at any worker count and across a resume.
func TestRatingsInARun(t *testing.T) {
	cfgDir := t.TempDir()
	dir := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, cfgDir, ratedConfig), Options{Dir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	ck, cfg, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, list := range [][]Member{ck.Population, ck.HallOfFame} {
		for i, m := range list {
			if m.Rating == nil || m.Rating.Games == 0 || !(m.Rating.CI95[0] < m.Rating.Elo && m.Rating.Elo < m.Rating.CI95[1]) {
				t.Fatalf("member %d: rating %+v, want one inside its interval", i, m.Rating)
			}
		}
	}
	for i := 1; i < len(ck.HallOfFame); i++ {
		if ck.HallOfFame[i].Rating.Elo > ck.HallOfFame[i-1].Rating.Elo {
			t.Fatalf("hall of fame not ordered by rating at %d: %v after %v", i, ck.HallOfFame[i].Rating.Elo, ck.HallOfFame[i-1].Rating.Elo)
		}
	}
	vals, err := cfg.species[0].space.Decode(ck.HallOfFame[0].Genes)
	if err != nil {
		t.Fatal(err)
	}
	if s := vals.Get("s").Num; s < 0.8 {
		t.Fatalf("the best rated player has strength %v after 8 generations, want above 0.8", s)
	}
	files := readRun(t, dir)
	if !strings.Contains(string(files[rundir.BestFile]), "rating: {elo: ") && !strings.Contains(string(files[rundir.BestFile]), "rating:\n") {
		t.Fatalf("best.yaml has no rating:\n%s", files[rundir.BestFile])
	}
	var doc fitness.ParamsFile
	if err := json.Unmarshal(files["export"], &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Players[0].Rating == nil {
		t.Fatalf("the export has no rating: %s", files["export"])
	}

	one := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, cfgDir, ratedConfig), Options{Dir: one, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	sameRun(t, files, readRun(t, one), "workers 2 vs 1")
	resumed := t.TempDir()
	stop := make(chan struct{})
	_, err = Start(context.Background(), loadText(t, cfgDir, ratedConfig), Options{Dir: resumed, Workers: 2, Stop: stop, Progress: &stopAt{after: 3, stop: stop}})
	if !errors.Is(err, ErrStopped) {
		t.Fatalf("err %v, want ErrStopped", err)
	}
	if _, err := Resume(context.Background(), Options{Dir: resumed, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	sameRun(t, files, readRun(t, resumed), "stopped after 3 and resumed")
}

// TestHallOfFameAdmitsByRating: with ratings, a member's place in the
// hall of fame is its rating, not its (noisier) fitness.
func TestHallOfFameAdmitsByRating(t *testing.T) {
	cfg := loadText(t, t.TempDir(), strings.Replace(ratedConfig, "  hall-of-fame:\n    members: 3", "  hall-of-fame:\n    members: 2", 1)+"  hall-of-fame: 2\n")
	r := newRunner(cfg, Options{Dir: t.TempDir()})
	r.rated = &ratingNodes{genes: [][]float64{{0.1}, {0.2}, {0.3}}}
	r.ratings = []fitness.Rating{{Elo: 50}, {Elo: -20}, {Elo: 10}}
	old := []Member{{Genes: []float64{0.1}, Figure: fitness.Figure{Fitness: 0.4, Games: 10}, Rating: &fitness.Rating{Elo: 0}}}
	gen := []Member{
		{Genes: []float64{0.2}, Figure: fitness.Figure{Fitness: 0.9, Games: 10}},
		{Genes: []float64{0.3}, Figure: fitness.Figure{Fitness: 0.6, Games: 10}},
	}
	hof := r.updateHallOfFame(cfg.species[0], old, gen)
	var got []float64
	for _, m := range hof {
		got = append(got, m.Genes[0])
	}
	if len(got) != 2 || got[0] != 0.1 || got[1] != 0.3 {
		t.Fatalf("hall of fame %v, want [0.1 0.3]: by the new ratings 50, 10 (not by fitness, nor the stale rating 0)", got)
	}
	if hof[0].Rating.Elo != 50 {
		t.Fatalf("the member that played keeps its stale rating %v", hof[0].Rating.Elo)
	}
}

func TestRatingConfigErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"shots", "game: battleship\nplayer: tuned\nfitness:\n  population:\n    rating: bradley-terry\n", "fitness.population"},
		{"no population weight", strings.Replace(ratedConfig, "    opponents: 4\n", "    weight: 0\n    opponents: 4\n", 1),
			"fitness.population.rating: bradley-terry rates the population games, and fitness.population has no weight"},
		{"unknown", strings.Replace(ratedConfig, "bradley-terry", "elo", 1), `fitness.population.rating: unknown rating "elo" (want mean, bradley-terry)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse("c.yaml", []byte(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
	// The default written out is the default: the hash does not change.
	a, err := parse("c.yaml", []byte(strings.Replace(ratedConfig, "bradley-terry", "mean", 1)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := parse("c.yaml", []byte(strings.Replace(ratedConfig, "    rating: bradley-terry\n", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if a.Hash() != b.Hash() {
		t.Fatal("rating: mean written out changes the config hash")
	}
}

// ratedGeneration is three individuals and two playing hall-of-fame
// members (the first a copy of individual 1), with games among them.
func ratedGeneration(stored []*fitness.Rating, members int) (*ratingNodes, []Member) {
	pool := [][]float64{{0.1}, {0.5}, {0.9}}
	hof := []Member{{Genes: []float64{0.5}, Rating: stored[0]}, {Genes: []float64{0.7}, Rating: stored[1]}, {Genes: []float64{0.3}}}
	n := newRatingNodes(pool, hof, members)
	results := []struct {
		j job
		x float64
	}{
		{job{a: 0, b: 1, mode: modePopulation}, 1}, {job{a: 0, b: 1, mode: modePopulation}, 0},
		{job{a: 0, b: 1, mode: modePopulation}, 0}, {job{a: 2, b: 0, mode: modePopulation}, 1},
		{job{a: 2, b: 1, mode: modePopulation}, 0.5}, {job{a: 2, b: 1, mode: modePopulation}, 1},
		{job{a: 1, b: 2, mode: modePopulation}, 0}, {job{a: 0, b: -1, opi: 1, mode: modeHallOfFame}, 0},
		{job{a: 2, b: -1, opi: 1, mode: modeHallOfFame}, 1}, {job{a: 1, b: -1, opi: 0, mode: modeHallOfFame}, 1},
		{job{a: 0, b: -1, opi: 0, mode: modeBaselines}, 1}, // not a rated game
	}
	for _, r := range results {
		n.record(r.j, r.x)
	}
	return n, hof
}

// TestRatingNodesRate: the generation's ratings are anchored so the
// playing hall-of-fame members keep their mean (or, when none has a
// rating yet, so the individuals' mean is 0); every interval is the
// rating -+ 1.96 standard errors; and each individual's population
// figure becomes its expected score against the others.
func TestRatingNodesRate(t *testing.T) {
	toTheta := func(elo float64) float64 { return elo * math.Ln10 / 400 }
	for _, tc := range []struct {
		name   string
		stored []*fitness.Rating
	}{
		{"no stored ratings", []*fitness.Rating{nil, nil}},
		{"both members rated", []*fitness.Rating{{Elo: 100, CI95: [2]float64{50, 150}}, {Elo: -50, CI95: [2]float64{-90, -10}}}},
		{"one member rated", []*fitness.Rating{nil, {Elo: 230, CI95: [2]float64{200, 260}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, hof := ratedGeneration(tc.stored, 2)
			if len(n.genes) != 4 || len(n.hof) != 2 || n.hof[0] != n.ind[1] {
				t.Fatalf("nodes %v, individuals %v, members %v", n.genes, n.ind, n.hof)
			}
			// Population and hall-of-fame games, between nodes, lower node
			// first; a member against its own copy and baseline games are
			// not results.
			if got, want := fmt.Sprint(n.table.Pairs()), "[{0 1 3 1} {0 2 1 0} {0 3 1 0} {1 2 3 0.5} {2 3 1 1}]"; got != want {
				t.Fatalf("pairs %s, want %s", got, want)
			}
			stats := make([][nModes]modeStats, 3)
			for i := range stats {
				stats[i][modePopulation] = modeStats{n: 4, sum: 2, sumsq: 1.5}
			}
			stats[1][modePopulation] = modeStats{n: 1, sum: 1, sumsq: 1} // too few games: left as it is
			stats[2][modePopulation] = modeStats{n: 2, sum: 1, sumsq: 1} // the fewest replaced
			out, err := n.rate(stats, hof)
			if err != nil {
				t.Fatal(err)
			}
			fit, err := rating.Fit(len(n.genes), n.table.Pairs(), rating.Options{})
			if err != nil {
				t.Fatal(err)
			}
			// The anchor.
			var stored, fresh, k float64
			for h, node := range n.hof {
				if r := tc.stored[h]; r != nil {
					stored += r.Elo
					fresh += out[node].Elo
					k++
				}
			}
			if k == 0 {
				for _, node := range n.ind {
					fresh += out[node].Elo
				}
				k = float64(len(n.ind))
			}
			if !(math.Abs(fresh/k-stored/k) <= 1e-9) {
				t.Fatalf("anchored mean %v, want %v", fresh/k, stored/k)
			}
			for i, r := range out {
				// Differences are the fit's, intervals 1.96 SE either side.
				if d := toTheta(r.Elo-out[0].Elo) - (fit[i].Theta - fit[0].Theta); !(math.Abs(d) <= 1e-9) {
					t.Errorf("node %d: difference off by %g", i, d)
				}
				half := rating.Elo(z95 * fit[i].SE)
				if !(math.Abs(r.CI95[0]-(r.Elo-half)) <= 1e-9 && math.Abs(r.CI95[1]-(r.Elo+half)) <= 1e-9) {
					t.Errorf("node %d: %v in %v, want -+ %v", i, r.Elo, r.CI95, half)
				}
				if r.Games != int(fit[i].Games) {
					t.Errorf("node %d: %d games, want %v", i, r.Games, fit[i].Games)
				}
			}
			for i, node := range n.ind {
				st := stats[i][modePopulation]
				if i == 1 {
					if st != (modeStats{n: 1, sum: 1, sumsq: 1}) {
						t.Errorf("individual 1, of one game: stats %+v changed", st)
					}
					continue
				}
				var e, slope float64
				for j, other := range n.ind {
					if j != i {
						p := rating.Expected(fit[node].Theta, fit[other].Theta)
						e, slope = e+p/2, slope+p*(1-p)/2
					}
				}
				if games := float64(4 - 2*(i/2)); !(math.Abs(st.mean()-e) <= 1e-12) || st.n != games {
					t.Errorf("individual %d: mean %v over %v games, want %v over %v", i, st.mean(), st.n, e, games)
				}
				if se := slope * fit[node].SE; !(math.Abs(math.Sqrt(st.varMean())-se) <= 1e-12) {
					t.Errorf("individual %d: standard error %v, want %v", i, math.Sqrt(st.varMean()), se)
				}
			}
		})
	}
}

// TestRatingNodesPlayingMembers: only the first members hall-of-fame
// members play and become rating nodes.
func TestRatingNodesPlayingMembers(t *testing.T) {
	for _, members := range []int{0, 1, 2, 3, 5} {
		pool := [][]float64{{0.1}, {0.5}, {0.9}}
		hof := []Member{{Genes: []float64{0.6}}, {Genes: []float64{0.7}}, {Genes: []float64{0.3}}}
		n := newRatingNodes(pool, hof, members)
		if want := min(members, len(hof)); len(n.hof) != want || len(n.genes) != 3+want {
			t.Errorf("members %d: %d playing members, %d nodes; want %d, %d", members, len(n.hof), len(n.genes), want, 3+want)
		}
	}
	// Copies of a genome, the first included, are one node.
	n := newRatingNodes([][]float64{{0.1}, {0.5}, {0.1}, {0.5}}, []Member{{Genes: []float64{0.1}}}, 1)
	if len(n.genes) != 2 || fmt.Sprint(n.ind, n.hof) != "[0 1 0 1] [0]" {
		t.Errorf("nodes %v, individuals %v, members %v", n.genes, n.ind, n.hof)
	}
}

// TestSortHallOfFameByRating: with ratings, the hall of fame is ordered
// by rating, best first, ties and the unrated (last) in their order;
// members rated this generation take their new rating.
func TestSortHallOfFameByRating(t *testing.T) {
	cfg := loadText(t, t.TempDir(), ratedConfig)
	defer cfg.Close()
	r := newRunner(cfg, Options{Dir: t.TempDir()})
	r.rated = &ratingNodes{genes: [][]float64{{0.9}, {0.2}}}
	r.ratings = []fitness.Rating{{Elo: 500}, {Elo: -20}}
	rated := func(elo float64) *fitness.Rating { return &fitness.Rating{Elo: elo} }
	hof := []Member{
		{Genes: []float64{0.1}, Rating: rated(10)},
		{Genes: []float64{0.3}},
		{Genes: []float64{0.4}, Rating: rated(30)},
		{Genes: []float64{0.5}},
		{Genes: []float64{0.6}, Rating: rated(10)},
		{Genes: []float64{0.2}, Rating: rated(99)}, // re-rated this generation: -20
		{Genes: []float64{0.9}},                    // rated this generation: 500
	}
	r.sortHallOfFame(cfg.species[0], hof)
	var got []float64
	for _, m := range hof {
		got = append(got, m.Genes[0])
	}
	want := []float64{0.9, 0.4, 0.1, 0.6, 0.2, 0.3, 0.5}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("order %v, want %v", got, want)
		}
	}
	if hof[0].Rating.Elo != 500 || hof[4].Rating.Elo != -20 {
		t.Fatalf("new ratings not taken: %v, %v", hof[0].Rating, hof[4].Rating)
	}
}

// TestCheckRatingEdges: a checkpoint member's rating is accepted with an
// interval closed on it and no games, and refused one past either.
func TestCheckRatingEdges(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    *fitness.Rating
		want string
	}{
		{"none", nil, ""},
		{"a closed interval, no games", &fitness.Rating{Elo: 5, CI95: [2]float64{5, 5}}, ""},
		{"an interval above", &fitness.Rating{Elo: 5, CI95: [2]float64{5.5, 6}}, "m.rating: 5 [5.5, 6] is not a rating in its interval"},
		{"an interval below", &fitness.Rating{Elo: 5, CI95: [2]float64{4, 4.5}}, "m.rating: 5 [4, 4.5] is not a rating in its interval"},
		{"not finite", &fitness.Rating{Elo: math.Inf(1), CI95: [2]float64{0, math.Inf(1)}}, "m.rating: +Inf"},
		{"negative games", &fitness.Rating{Elo: 5, CI95: [2]float64{4, 6}, Games: -1}, "m.rating.games: -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkRating("m", Member{Rating: tc.r})
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}
