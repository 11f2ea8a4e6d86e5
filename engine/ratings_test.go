package engine

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/rundir"
	"strings"
	"testing"
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
	ck, cfg, err := ReadCheckpoint(dir)
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
	r.ratings = []Rating{{Elo: 50}, {Elo: -20}, {Elo: 10}}
	old := []Member{{Genes: []float64{0.1}, Fitness: 0.4, Games: 10, Rating: &Rating{Elo: 0}}}
	gen := []Member{
		{Genes: []float64{0.2}, Fitness: 0.9, Games: 10},
		{Genes: []float64{0.3}, Fitness: 0.6, Games: 10},
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
			_, err := Parse("c.yaml", []byte(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
	// The default written out is the default: the hash does not change.
	a, err := Parse("c.yaml", []byte(strings.Replace(ratedConfig, "bradley-terry", "mean", 1)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse("c.yaml", []byte(strings.Replace(ratedConfig, "    rating: bradley-terry\n", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if a.Hash() != b.Hash() {
		t.Fatal("rating: mean written out changes the config hash")
	}
}
