package engine

import (
	"context"
	"fmt"

	"github.com/evotune/evotune/fitness"
)

// A batch as a worker elsewhere plays it (a Pool that sends batches to
// other machines encodes these: natspool): its players and its games.
// With its run's config, prepared (ForWorker), they are all a worker
// needs to play the batch (Setup.PlayBatch), at any time, in any order.

// BatchPlayer is a player of a batch: a genome of species Species, or,
// with Baseline >= 0, that species' baseline opponent of that index.
type BatchPlayer struct {
	Species  int
	Genes    []float64
	Baseline int
}

// BatchGame is one game of a batch: players A and B (-1: none, a solo
// game alone) in their seats as played, its seed, and whether its result
// is seen from B's side.
type BatchGame struct {
	A, B int
	Seed uint64
	Flip bool
}

// Plays lists the batch's players, each once, and its games among them.
func (b *Batch) Plays() ([]BatchPlayer, []BatchGame) {
	st, r := b.in, b.in.r
	var players []BatchPlayer
	var games []BatchGame
	index := map[[3]int]int{} // (kind, species, i) -> player
	ref := func(kind, sp, i int) int {
		k := [3]int{kind, sp, i}
		if n, ok := index[k]; ok {
			return n
		}
		p := BatchPlayer{Species: sp, Baseline: -1}
		switch kind {
		case 0:
			p.Genes = st.genomes[sp][i]
		case 1:
			p.Baseline = i
		case 2:
			// The hall of fame a species meets is the other's (its own
			// when alone): member i of species sp's hall.
			p.Genes = st.hofOf[sp][i].Genes
		}
		index[k] = len(players)
		players = append(players, p)
		return index[k]
	}
	for _, j := range b.jobs {
		a := ref(0, j.sp, j.a)
		var opp int
		switch {
		case j.b >= 0:
			opp = ref(0, j.bsp, j.b)
		case j.mode == modeHallOfFame:
			opp = ref(2, len(r.species)-1-j.sp, j.opi)
		default:
			opp = ref(1, j.sp, j.opi)
		}
		g := BatchGame{A: a, B: opp, Seed: j.seed, Flip: j.swap}
		if j.swap || (j.solo && r.species[j.sp].role != r.role) {
			g.A, g.B = g.B, g.A
		}
		games = append(games, g)
	}
	return players, games
}

// Run is the Setup of the batch's run.
func (b *Batch) Run() *Setup { return b.in.r.Setup }

// Check returns an error naming the first of the batch's results that
// no game gives (one result a game: a score of 0, 1/2 or 1 seen from its
// first player, or a solo game's cost), or the first note no referee
// writes.
func (b *Batch) Check(p Played) error {
	if len(p.Results) != len(b.jobs) {
		return fmt.Errorf("engine: %d results for the %d games of batch %s", len(p.Results), len(b.jobs), b.ID)
	}
	if err := b.in.r.checkResults(b, p.Results); err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	if err := checkNotes(p.Notes, len(b.jobs)); err != nil {
		return fmt.Errorf("engine: batch %s: %w", b.ID, err)
	}
	return nil
}

// Files are the hashes of the player files the config names, by their
// NAME:FILE spec as written: what a worker must have too (ForWorker).
func (s *Setup) Files() map[string]string { return s.files }

// PlayBatch plays the games of batch id among its players (Batch.Plays)
// with up to workers goroutines, and returns them as a Wave's Done
// receives them. A player the run does not have is an error.
func (s *Setup) PlayBatch(ctx context.Context, id string, players []BatchPlayer, games []BatchGame, workers int) (Played, error) {
	built := make([]fitness.Player, len(players))
	for i, p := range players {
		if p.Species < 0 || p.Species >= len(s.species) {
			return Played{}, fmt.Errorf("engine: batch %s: player %d of species %d", id, i, p.Species)
		}
		sp := s.species[p.Species]
		if p.Baseline >= 0 {
			if p.Baseline >= len(sp.baselines) {
				return Played{}, fmt.Errorf("engine: batch %s: baseline %d of %d", id, p.Baseline, len(sp.baselines))
			}
			built[i] = sp.baselines[p.Baseline]
			continue
		}
		vals, err := sp.space.Decode(p.Genes)
		if err != nil {
			return Played{}, fmt.Errorf("engine: batch %s: %w", id, err)
		}
		if built[i], err = sp.build(s.game, vals); err != nil {
			return Played{}, fmt.Errorf("engine: batch %s: %w", id, err)
		}
	}
	get := func(i int) (fitness.Player, error) {
		if i == -1 {
			return nil, nil
		}
		if i < 0 || i >= len(built) {
			return nil, fmt.Errorf("engine: batch %s: no player %d", id, i)
		}
		return built[i], nil
	}
	ms := make([]fitness.Match, len(games))
	for i, g := range games {
		a, err := get(g.A)
		if err != nil {
			return Played{}, err
		}
		b, err := get(g.B)
		if err != nil {
			return Played{}, err
		}
		ms[i] = fitness.Match{A: a, B: b, Seed: g.Seed}
	}
	played, err := s.referee(ctx, ms, func(i int) bool { return games[i].Flip }, workers, nil)
	if err != nil {
		return Played{}, fmt.Errorf("engine: batch %s: %w", id, err)
	}
	return played, nil
}
