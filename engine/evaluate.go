package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/english"
)

// Member is one evaluated genome.
type Member struct {
	Genes []float64 `json:"genes"`
	// Figure is its fitness (the objective's value: shots or score), the
	// games it comes from and its 95% interval.
	fitness.Figure
	Generation int             `json:"generation"`       // when it was (first) evaluated, from 0
	Rating     *fitness.Rating `json:"rating,omitempty"` // with fitness.population.rating: bradley-terry
}

// UnmarshalJSON refuses members with missing or null figures, so a
// damaged checkpoint is not read as fitness 0.
func (m *Member) UnmarshalJSON(data []byte) error {
	var raw struct {
		Genes      []float64       `json:"genes"`
		Fitness    *float64        `json:"fitness"`
		Games      *int            `json:"games"`
		CI95       *[2]float64     `json:"ci95"`
		Generation *int            `json:"generation"`
		Rating     *fitness.Rating `json:"rating"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return err
	}
	for _, f := range []struct {
		name    string
		missing bool
	}{{"genes", raw.Genes == nil}, {"fitness", raw.Fitness == nil}, {"games", raw.Games == nil}, {"ci95", raw.CI95 == nil}, {"generation", raw.Generation == nil}} {
		if f.missing {
			return fmt.Errorf("member without %s", f.name)
		}
	}
	if *raw.Games < 1 || *raw.Games > config.MaxMemberGames {
		return fmt.Errorf("member with games %d", *raw.Games)
	}
	if *raw.Generation < 0 {
		return fmt.Errorf("member with generation %d", *raw.Generation)
	}
	*m = Member{Genes: raw.Genes, Figure: fitness.Figure{Fitness: *raw.Fitness, Games: *raw.Games, CI95: *raw.CI95}, Generation: *raw.Generation, Rating: raw.Rating}
	return nil
}

// modeStats accumulates one individual's results in one fitness mode:
// by game, and, for head-to-head games, by seat-swapped pair, whose two
// games share a deal and so are not independent.
type modeStats struct {
	n, sum, sumsq float64
	// The pairs' mean scores, and the first game of an open pair.
	pairs, pairSum, pairSumsq float64
	first                     float64
	open                      bool
}

func (m *modeStats) add(x float64) { m.n++; m.sum += x; m.sumsq += x * x }

// addPaired adds a head-to-head game: the first of its pair, or the
// second (swapped), which closes the pair.
func (m *modeStats) addPaired(x float64, second bool) {
	m.add(x)
	switch {
	case !second:
		m.first, m.open = x, true
	case m.open:
		p := (m.first + x) / 2
		m.pairs++
		m.pairSum += p
		m.pairSumsq += p * p
		m.open = false
	}
}

func (m modeStats) mean() float64 { return m.sum / m.n }

// varMean is the variance of the mean: from the pairs' mean scores where
// the games came in seat-swapped pairs (docs/statistics.md), else from
// the games.
func (m modeStats) varMean() float64 {
	if m.pairs >= 2 {
		v := (m.pairSumsq - m.pairSum*m.pairSum/m.pairs) / (m.pairs - 1)
		return max(0, v) / m.pairs
	}
	return m.varMeanGames()
}

// varMeanGames is the variance of the mean from the games taken one by
// one: what racing's comparisons of population figures read, which this
// change of intervals leaves as they were.
func (m modeStats) varMeanGames() float64 {
	if m.n < 2 {
		return 0
	}
	v := (m.sumsq - m.sum*m.sum/m.n) / (m.n - 1)
	return max(0, v) / m.n
}

const (
	modeBaselines = iota
	modePopulation
	modeHallOfFame
	nModes
)

// job is one game of the generation's batch: individual a of species sp
// against individual b of species bsp (b >= 0) or a fixed player opp.
type job struct {
	sp, a   int
	bsp, b  int
	opp     fitness.Player
	opi     int // opp's index among the baselines or hall-of-fame members
	game    int // the game's number against this opponent
	mode    int
	seed    uint64
	swap    bool // seats swapped: the opponent plays first
	solo    bool
	between bool // a game between two species: both score the same shots
}

// jobChunk is how many of a generation's games are listed at once: the
// games are produced and played in chunks, so memory does not grow with
// the games a generation plays (a chunk's jobs take some 6 MB). Each
// chunk is a wave, whose end waits for its last batch: on workers, a
// generation cut into two waves paid that tail twice, so a chunk holds
// the games of most generations whole.
var jobChunk = 1 << 16 // a variable only so tests can vary it

// schedule lists the generation's games, all at once: for tests, since a
// generation's list can be too long to hold (evaluate streams it).
func (r *runner) schedule(gen int, sizes []int, hof [][]fitness.Player) []job {
	var jobs []job
	r.scheduleEach(gen, sizes, hof, func(j job) bool { jobs = append(jobs, j); return true })
	return jobs
}

// scheduleEach hands the generation's games to emit, in order, until emit
// returns false, and returns how many there are; with emit nil it only
// counts them. Deals depend on (generation, mode, opponent, game) but not
// on the individual, so every individual meets the same deals: common
// random numbers.
func (r *runner) scheduleEach(gen int, sizes []int, hof [][]fitness.Player, emit func(job) bool) int {
	f := r.cfg.Fitness
	solo := f.Objective == config.Solo
	n := 0
	stopped := false
	add := func(j job, games int, seedOf func(game int) uint64) {
		n += games
		if emit == nil || stopped {
			return
		}
		for g := range games {
			j.seed, j.game = seedOf(g), g
			if !solo {
				j.seed, j.swap = seedOf(g/2), g%2 == 1 // seat-swapped pairs on one deal
			}
			if !emit(j) {
				stopped = true
				return
			}
		}
	}
	for s, sp := range r.species {
		if f.Baselines.Weight == 0 {
			break
		}
		for i := range sizes[s] {
			for o, opp := range sp.baselines {
				add(job{sp: s, a: i, b: -1, opp: opp, opi: o, mode: modeBaselines, solo: solo}, f.Baselines.Games,
					func(g int) uint64 { return r.stream(gen, sp.offset+purposeBaselines, uint64(o), uint64(g)) })
			}
		}
	}
	if f.Population.Weight > 0 {
		if len(r.species) == 2 {
			r.scheduleRivals(gen, sizes, add)
		} else if pairs, ok := r.modelPairs(gen); ok {
			// The model's own pairing (SPSA's theta+ against theta-): each
			// pair plays the mode's games, seats swapped, on deals of its
			// own index.
			for k, p := range pairs {
				add(job{a: p[0], b: p[1], mode: modePopulation, solo: solo}, f.Population.Games,
					func(g int) uint64 { return r.stream(gen, purposePopulation, 0, uint64(k), uint64(g)) })
			}
		} else if n := sizes[0]; n > 1 {
			// One seeded permutation; individual perm[k] meets perm[k+d]
			// for d = 1..ceil(M/2), so everyone meets about M others (2
			// per offset) and results count for both sides.
			perm := fitness.NewRand(r.stream(gen, purposePairing)).Perm(n)
			for d := 1; d <= (f.Population.Opponents+1)/2 && d < n; d++ {
				for k := range n {
					if 2*d == n && k >= n/2 {
						break // the same pairs again
					}
					add(job{a: perm[k], b: perm[(k+d)%n], mode: modePopulation, solo: solo}, f.Population.Games,
						func(g int) uint64 { return r.stream(gen, purposePopulation, uint64(d), uint64(k), uint64(g)) })
				}
			}
		}
	}
	if f.HallOfFame.Weight > 0 {
		for s, sp := range r.species {
			for i := range sizes[s] {
				// A lone species meets its own hall of fame; rivals meet
				// each other's.
				for h, opp := range hof[len(hof)-1-s] {
					add(job{sp: s, a: i, b: -1, opp: opp, opi: h, mode: modeHallOfFame, solo: solo}, f.HallOfFame.Games,
						func(g int) uint64 { return r.stream(gen, sp.offset+purposeHallOfFame, uint64(h), uint64(g)) })
				}
			}
		}
	}
	return n
}

// scheduleRivals pairs every individual of the main species with M of the
// rival species through a seeded permutation of the rivals; each game
// scores for both.
func (r *runner) scheduleRivals(gen int, sizes []int, add func(job, int, func(int) uint64)) {
	n0, n1 := sizes[0], sizes[1]
	perm := fitness.NewRand(r.stream(gen, purposePairing)).Perm(n1)
	for d := range min(r.cfg.Fitness.Population.Opponents, n1) {
		for i := range n0 {
			add(job{sp: 0, a: i, bsp: 1, b: perm[(i+d)%n1], mode: modePopulation, solo: true, between: true},
				r.cfg.Fitness.Population.Games,
				func(g int) uint64 { return r.stream(gen, purposePopulation, uint64(d), uint64(i), uint64(g)) })
		}
	}
}

// match is the game of job j: the players in their seats (a solo game
// measures the player of the first role, whichever species it is of).
func (r *runner) match(j job, players [][]fitness.Player) fitness.Match {
	a := players[j.sp][j.a]
	b := j.opp
	if j.b >= 0 {
		b = players[j.bsp][j.b]
	}
	if j.swap || (j.solo && r.species[j.sp].role != r.role) {
		a, b = b, a
	}
	return fitness.Match{A: a, B: b, Seed: j.seed}
}

// play plays the jobs and returns each result seen from its a: its score,
// or the cost of the solo game (which a player of the rival role raises),
// with the notes of the games a referee said something of.
func (r *runner) play(ctx context.Context, jobs []job, players [][]fitness.Player, progress func(int)) (Played, error) {
	ms := make([]fitness.Match, len(jobs))
	for i, j := range jobs {
		ms[i] = r.match(j, players)
	}
	return r.referee(ctx, ms, func(i int) bool { return jobs[i].swap }, r.workers, progress)
}

// playResults is play outside a generation (the remeasure, validate's
// timing): its results, its faults said in run.log as what's.
func (r *runner) playResults(ctx context.Context, what string, jobs []job, players [][]fitness.Player) ([]float64, error) {
	p, err := r.play(ctx, jobs, players, nil)
	if fc := (FaultCounts{}); err == nil {
		if fc.add(p.Notes); len(fc) > 0 {
			r.logf("%s: games lost to faults: %s", what, fc)
		}
	}
	return p.Results, err
}

// evaluate plays the generation's batch and returns, per species, every
// individual's fitness, games and 95% interval. hof holds each species'
// hall of fame.
func (r *runner) evaluate(ctx context.Context, gen int, genomes [][][]float64, hof [][]Member) ([][]Member, error) {
	players := make([][]fitness.Player, len(genomes))
	sizes := make([]int, len(genomes))
	hofPlayers := make([][]fitness.Player, len(genomes))
	for s, sp := range r.species {
		sizes[s] = len(genomes[s])
		for _, genes := range genomes[s] {
			p, err := r.player(sp, genes)
			if err != nil {
				return nil, err
			}
			players[s] = append(players[s], p)
		}
		for i := 0; i < len(hof[s]) && i < r.cfg.Fitness.HallOfFame.Members; i++ {
			p, err := r.player(sp, hof[s][i].Genes)
			if err != nil {
				return nil, err
			}
			hofPlayers[s] = append(hofPlayers[s], p)
		}
	}
	r.lastGames = r.scheduleEach(gen, sizes, hofPlayers, nil)
	r.gen = &genNotes{faults: FaultCounts{}}
	r.rated, r.ratings, r.race = nil, nil, nil
	rounds := 1
	if r.cfg.Racing != nil {
		r.race = r.newRace(sizes[0], len(hofPlayers[0]))
		rounds = r.race.rounds
	}
	if r.cfg.Rates() {
		r.rated = newRatingNodes(genomes[0], hof[0], r.cfg.Fitness.HallOfFame.Members)
	}
	if r.progress != nil {
		r.progress.StartGeneration(gen, r.budget, r.lastGames)
	}
	stats := make([][][nModes]modeStats, len(genomes))
	for s := range genomes {
		stats[s] = make([][nModes]modeStats, sizes[s])
	}
	st := &evalState{r: r, gen: gen, players: players, hof: hofPlayers, hofOf: hof, genomes: genomes}
	if r.autoBatch {
		r.batchGames = autoBatchGames(r.lastGames)
	}
	if err := r.beginJournal(gen, genomes, hof, r.lastGames); err != nil {
		return nil, err
	}
	r.replayed = 0
	// Play the games chunk by chunk, each a wave of whole batches, and
	// reduce each chunk in batch order, so the sums are the same at any
	// worker count, chunk size, pool or resume point. Batches are
	// numbered through the generation, across racing rounds.
	per := r.batchGames
	chunkGames := max(1, jobChunk/per) * per
	var wave []*Batch
	cur := &Batch{}
	played, listed, batches, inChunk := 0, 0, 0, 0
	var err error
	flush := func() {
		if len(cur.jobs) > 0 {
			wave = append(wave, cur)
			cur = &Batch{}
		}
		inChunk = 0
		if err != nil || len(wave) == 0 {
			return
		}
		err = r.playWave(ctx, st, wave, played, stats)
		for _, b := range wave {
			played += len(b.jobs)
		}
		wave = wave[:0]
	}
	// With racing, the games are played in rounds, and each round's
	// decisions are taken once all its games are in.
	for round := range rounds {
		r.scheduleEach(gen, sizes, hofPlayers, func(j job) bool {
			if r.race != nil && !r.race.plays(j, round) {
				return true
			}
			if len(cur.jobs) == 0 {
				cur = &Batch{ID: r.batchID(gen, batches), Gen: gen, Index: batches, First: listed, jobs: make([]job, 0, per), in: st}
				batches++
			}
			cur.jobs = append(cur.jobs, j)
			listed++
			inChunk++
			if len(cur.jobs) == per {
				wave = append(wave, cur)
				cur = &Batch{}
				if inChunk >= chunkGames {
					flush()
				}
			}
			return err == nil
		})
		flush()
		if err != nil {
			return nil, err
		}
		if round+1 < rounds {
			r.race.decide(round, stats[0])
		}
	}
	if r.replayed > 0 {
		r.logf("generation %d: %d of %s replayed from the journal", gen+1, r.replayed, english.Count(played, "game"))
	}
	r.lastSaved = r.lastGames - played
	r.lastGames = played
	if r.rated != nil {
		if r.ratings, err = r.rated.rate(stats[0], hof[0]); err != nil {
			return nil, err
		}
	}
	weights := [nModes]float64{r.cfg.Fitness.Baselines.Weight, r.cfg.Fitness.Population.Weight, r.cfg.Fitness.HallOfFame.Weight}
	out := make([][]Member, len(genomes))
	for s := range genomes {
		out[s] = make([]Member, sizes[s])
		for i := range genomes[s] {
			m := combine(genomes[s][i], gen, stats[s][i], weights)
			if !finite(m.Fitness, m.CI95[0], m.CI95[1]) {
				return nil, fmt.Errorf("engine: generation %d: %w: individual %d%s scored %v [%v, %v] over %s; the generation is not checkpointed",
					gen+1, errNotFinite, i, labelled(r.species[s]), m.Fitness, m.CI95[0], m.CI95[1], english.Count(m.Games, "game"))
			}
			if r.cfg.Fitness.Objective == config.Score {
				// A score lies in [0, 1]; the normal interval of a few
				// games can stick out of it.
				m.CI95 = [2]float64{max(0, m.CI95[0]), min(1, m.CI95[1])}
			}
			if r.rated != nil {
				rt := r.ratings[r.rated.ind[i]]
				m.Rating = &rt
			}
			out[s][i] = m
		}
	}
	return out, nil
}

// errImpossibleResult is returned for a game result no game gives: a
// two-player game's score other than 0, 1/2 or 1 (seen from its first
// player), or a solo cost that is negative or not a finite number. The
// checkpoint holds fitnesses of such results only, so a run never
// writes one it would refuse to resume.
var errImpossibleResult = errors.New("not a result a game gives")

// checkResults returns an error naming the first of batch b's results
// that no game gives (errImpossibleResult).
func (r *runner) checkResults(b *Batch, res []float64) error {
	solo := r.cfg.Fitness.Objective == config.Solo
	var bounds fitness.Solo
	if solo {
		bounds, _ = fitness.SoloOf(r.game)
	}
	for k, x := range res {
		if solo && bounds.Admits(x) || !solo && (x == 0 || x == 0.5 || x == 1) {
			continue
		}
		want := "a score of 0, 1/2 or 1"
		if solo {
			// The game's own bounds: 200 shots on a board of 100 cells is
			// no game's, however far below 2^53.
			want = bounds.Bounds()
		}
		seed := uint64(0)
		if k < len(b.jobs) {
			seed = b.jobs[k].seed
		}
		return fmt.Errorf("batch %s: game %d (seed %d): %v is %w (want %s)", b.ID, b.First+k, seed, x, errImpossibleResult, want)
	}
	return nil
}

// errNotFinite is returned when a generation's fitnesses are not finite
// numbers: a game reported an impossible result. The run stops before the
// generation is checkpointed, so the last checkpoint stays as it was.
var errNotFinite = errors.New("fitness is not a finite number")

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// playOne plays one job, as play does a batch.
func (r *runner) playOne(ctx context.Context, j job, players [][]fitness.Player) (float64, *Note, error) {
	m := r.match(j, players)
	solo := r.cfg.Fitness.Objective == config.Solo
	if !r.referees() {
		if solo {
			cost, err := r.game.(fitness.SoloGame).PlaySolo(ctx, m.A, m.B, m.Seed)
			return cost, nil, fitness.Failed(m.Seed, err)
		}
		o, err := r.game.Play(ctx, m.A, m.B, m.Seed)
		if j.swap {
			o = o.Flip()
		}
		return o.Score(), nil, fitness.Failed(m.Seed, err)
	}
	p, err := r.referee(ctx, []fitness.Match{m}, func(int) bool { return j.swap }, 1, nil)
	if err != nil {
		return 0, nil, err
	}
	if len(p.Notes) > 0 {
		return p.Results[0], &p.Notes[0], nil
	}
	return p.Results[0], nil, nil
}

// combine weighs an individual's modes into one fitness with a 95%
// interval; modes it played no game in do not count.
func combine(genes []float64, gen int, st [nModes]modeStats, weights [nModes]float64) Member {
	var wsum, wmax, fit, v float64
	games := 0
	for m, s := range st {
		if s.n > 0 && weights[m] > 0 {
			wsum += weights[m]
			wmax = max(wmax, weights[m])
		}
	}
	if math.IsInf(wsum, 0) {
		// Weights near math.MaxFloat64 overflow their sum, and every
		// weight over it would be 0: weigh them relative to the largest.
		wsum = 0
		for m := range weights {
			if st[m].n > 0 && weights[m] > 0 {
				weights[m] /= wmax
				wsum += weights[m]
			}
		}
	}
	for m, s := range st {
		if s.n == 0 || weights[m] == 0 {
			continue
		}
		w := weights[m] / wsum
		fit += w * s.mean()
		v += w * w * s.varMean()
		games += int(s.n)
	}
	half := 1.959963984540054 * math.Sqrt(v)
	return Member{Genes: genes, Figure: fitness.Figure{Fitness: fit, Games: games, CI95: [2]float64{fit - half, fit + half}}, Generation: gen}
}

func (r *runner) player(sp *species, genes []float64) (fitness.Player, error) {
	vals, err := sp.space.Decode(genes)
	if err != nil {
		return nil, err
	}
	return sp.build(r.game, vals)
}

// build makes one of the species' players from its values, with the
// settings of its player spec.
func (sp *species) build(g fitness.Game, vals genome.Values) (fitness.Player, error) {
	return fitness.NewPlayerWith(g, sp.role, sp.player, vals, sp.settings)
}
