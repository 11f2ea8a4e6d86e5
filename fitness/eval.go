package fitness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/evotune/evotune/fitness/stats"
)

// Contender is one player in an evaluation, with the label reports use
// (usually the SPEC it was built from).
type Contender struct {
	Label  string
	Player Player
}

// EvalRequest asks for the figures `evotune eval` prints.
type EvalRequest struct {
	Game    Game
	Players []Contender // measured alone (SoloGame) and against every Opponent
	// Opponents are met head to head by every player.
	Opponents []Contender
	// SoloOpponent is the opponent of solo games (Battleship: the placer);
	// nil means the game's Solo().DefaultOpponent.
	SoloOpponent Player
	Games        int    // per player (solo) and per pairing (head to head)
	Seed         uint64 // every game's seed is derived from it
	Workers      int
	// Progress, if set, is told the number of finished games (all phases
	// counted together); it may be called from several goroutines.
	Progress func(done int)
}

// Total is the number of games the request plays.
func (r EvalRequest) Total() int {
	n := len(r.Players) * len(r.Opponents) * r.Games
	if _, ok := SoloOf(r.Game); ok {
		n += (len(r.Players) + len(r.Opponents)) * r.Games
	}
	return n
}

// PlayerReport holds a player's solo figures.
type PlayerReport struct {
	Name    string
	Measure string // the solo measure's name, the JSON key of Solo ("shots")
	Solo    Summary
}

// MarshalJSON writes {"name": ..., "<measure>": {...}}.
func (p PlayerReport) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]any{"name": p.Name, p.Measure: p.Solo})
}

// MatchReport holds the head-to-head figures of one pairing, seen from A.
// The games come in seat-swapped pairs on one deal, so the intervals are
// the pentanomial ones, from the variance of the pairs (docs/statistics.md).
type MatchReport struct {
	A      string     `json:"a"`
	B      string     `json:"b"`
	Games  int        `json:"games"`
	Wins   int        `json:"wins"`
	Draws  int        `json:"draws"`
	Losses int        `json:"losses"`
	Score  float64    `json:"score"`
	CI95   [2]float64 `json:"ci95"` // of Score
	// Pairs counts the seat-swapped pairs by A's score over the pair: 0,
	// 1/2, 1, 3/2, 2. A last game without its partner (an odd count) is
	// in the tally but in no pair.
	Pairs stats.Pentanomial `json:"pentanomial"`
	// Elo and NormalizedElo are A's strength against B (logistic and
	// normalised), with intervals from the pairs.
	Elo           stats.Estimate `json:"elo"`
	NormalizedElo stats.Estimate `json:"normalized_elo"`
}

// DifferenceReport is the paired difference of two players' mean solo
// measures over the same deals: A's mean minus B's, lower is better.
type DifferenceReport struct {
	A          string         `json:"a"`
	B          string         `json:"b"`
	Measure    string         `json:"measure"`
	Difference stats.Estimate `json:"difference"` // N: the deals both played
}

// EvalReport is the result of Evaluate.
type EvalReport struct {
	Game    string         `json:"game"`
	Seed    uint64         `json:"seed"`
	Games   int            `json:"games"`
	Players []PlayerReport `json:"players"`
	// Differences compares every two players of Players on their solo
	// games, which share deals: the first named minus the second.
	Differences []DifferenceReport `json:"differences,omitempty"`
	Matches     []MatchReport      `json:"matches"`
}

// Streams of an evaluation's seeds.
const (
	evalSolo uint64 = iota + 1
	evalMatch
)

// SoloSeed is the seed of solo deal i of an evaluation seeded seed: every
// player of the evaluation meets it, and so does `evotune sprt` with the
// same seed.
func SoloSeed(seed uint64, i int) uint64 { return Derive(seed, evalSolo, uint64(i)) }

// MatchSeed is the seed from which PlayPairs derives the deals of an
// evaluation's head-to-head pairs.
func MatchSeed(seed uint64) uint64 { return Derive(seed, evalMatch) }

// Evaluate plays the requested games and summarises them. Every player
// meets the same deals: solo game i of every player uses the same seed,
// and head-to-head games are played in pairs on one seed with seats
// swapped, so differences between players are not luck of the draw. The
// report is the same for any worker count.
func Evaluate(ctx context.Context, req EvalRequest) (EvalReport, error) {
	if req.Games < 1 {
		return EvalReport{}, fmt.Errorf("eval: games must be at least 1, got %d", req.Games)
	}
	rep := EvalReport{Game: req.Game.Name(), Seed: req.Seed, Games: req.Games}
	done := 0
	progress := func(offset int) func(int) {
		if req.Progress == nil {
			return nil
		}
		return func(d int) { req.Progress(offset + d) }
	}
	if sg, ok := req.Game.(SoloGame); ok {
		solo := sg.Solo()
		opp := req.SoloOpponent
		if opp == nil && solo.Opponent != "" {
			var err error
			if opp, err = ParseSpec(sg, solo.Opponent, solo.DefaultOpponent); err != nil {
				return rep, err
			}
		}
		all := append(append([]Contender{}, req.Players...), req.Opponents...)
		costs := make([][]float64, len(all))
		for k, c := range all {
			ms := make([]Match, req.Games)
			for i := range ms {
				ms[i] = Match{A: c.Player, B: opp, Seed: SoloSeed(req.Seed, i)}
			}
			var err error
			if costs[k], err = PlaySoloMatches(ctx, sg, ms, req.Workers, progress(done)); err != nil {
				return rep, err
			}
			done += req.Games
			rep.Players = append(rep.Players, PlayerReport{Name: c.Label, Measure: solo.Measure, Solo: Summarize(costs[k])})
		}
		for i := range all {
			for j := i + 1; j < len(all); j++ {
				rep.Differences = append(rep.Differences, DifferenceReport{A: all[i].Label, B: all[j].Label,
					Measure: solo.Measure, Difference: stats.PairedDifference(costs[i], costs[j])})
			}
		}
	}
	for _, a := range req.Players {
		for _, b := range req.Opponents {
			t, err := PlayPairs(ctx, req.Game, a.Player, b.Player, req.Games, MatchSeed(req.Seed), req.Workers, progress(done))
			if err != nil {
				return rep, err
			}
			done += req.Games
			rep.Matches = append(rep.Matches, MatchReport{
				A: a.Label, B: b.Label, Games: t.Games(),
				Wins: t.Wins, Draws: t.Draws, Losses: t.Losses,
				Score: t.Score(), CI95: t.CI95(),
				Pairs: t.Pairs, Elo: t.Pairs.Elo(), NormalizedElo: t.Pairs.NormalizedElo(),
			})
		}
	}
	return rep, nil
}

// PairTally counts games played in seat-swapped pairs: by game, and by
// pair.
type PairTally struct {
	Tally
	Pairs stats.Pentanomial
}

// CI95 is the interval of Score from the variance of the pairs, not of
// single games (which the pairing makes dependent): the pentanomial
// interval. An odd last game is in Score but not in the interval.
func (t PairTally) CI95() [2]float64 {
	if t.Pairs.Pairs() == 0 {
		return t.Tally.CI95()
	}
	ci := t.Pairs.Score().CI95
	// The tally's score counts an odd last game; keep it in the interval.
	return [2]float64{min(ci[0], t.Score()), max(ci[1], t.Score())}
}

// PlayPairs plays n games of a against b, seen from a. Game i uses the seed
// of pair i/2; the second game of a pair swaps the seats, so each side of
// each deal is played by both players.
func PlayPairs(ctx context.Context, g Game, a, b Player, n int, seed uint64, workers int, progress func(int)) (PairTally, error) {
	return PlayPairsFrom(ctx, g, a, b, 0, n, seed, workers, progress)
}

// PlayPairsFrom plays games first to first+n-1 of the sequence PlayPairs
// plays (first even), so a long match can be played in batches: batch
// after batch, it plays the games one PlayPairs would.
func PlayPairsFrom(ctx context.Context, g Game, a, b Player, first, n int, seed uint64, workers int, progress func(int)) (PairTally, error) {
	ms := make([]Match, n)
	for k := range ms {
		i := first + k
		ms[k] = Match{A: a, B: b, Seed: Derive(seed, uint64(i/2))}
		if i%2 == 1 {
			ms[k].A, ms[k].B = b, a
		}
	}
	outs, err := PlayMatches(ctx, g, ms, workers, progress)
	var t PairTally
	for k, o := range outs {
		if (first+k)%2 == 1 {
			o = o.Flip()
			if k > 0 {
				t.Pairs.Add(outs[k-1].Score(), o.Score())
			}
		}
		t.Add(o)
	}
	return t, err
}

// GameError is a game that could not be played: the run or evaluation
// stops with it, naming the game's seed so it can be replayed.
type GameError struct {
	Seed uint64
	Err  error
}

func (e *GameError) Error() string    { return fmt.Sprintf("game seed %d: %v", e.Seed, e.Err) }
func (e *GameError) Unwrap() error    { return e.Err }
func (e *GameError) GameSeed() uint64 { return e.Seed }

// Seeded is implemented by errors that name the seed of the game that
// failed (*GameError, and an outside program's game errors), so it is not
// named twice.
type Seeded interface {
	GameSeed() uint64
}

// Failed returns err as a *GameError of the game with seed; nil stays nil,
// and an error that names its game's seed already (Seeded), or says ctx
// was cancelled, comes back as it is.
func Failed(seed uint64, err error) error {
	if err == nil {
		return nil // before seeded, which escapes: every game passes here
	}
	var seeded Seeded
	switch {
	case errors.As(err, &seeded), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	return &GameError{Seed: seed, Err: err}
}
