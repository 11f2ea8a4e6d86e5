package fitness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
type MatchReport struct {
	A      string     `json:"a"`
	B      string     `json:"b"`
	Games  int        `json:"games"`
	Wins   int        `json:"wins"`
	Draws  int        `json:"draws"`
	Losses int        `json:"losses"`
	Score  float64    `json:"score"`
	CI95   [2]float64 `json:"ci95"`
}

// EvalReport is the result of Evaluate.
type EvalReport struct {
	Game    string         `json:"game"`
	Seed    uint64         `json:"seed"`
	Games   int            `json:"games"`
	Players []PlayerReport `json:"players"`
	Matches []MatchReport  `json:"matches"`
}

// Streams of an evaluation's seeds.
const (
	evalSolo uint64 = iota + 1
	evalMatch
)

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
		for _, c := range append(append([]Contender{}, req.Players...), req.Opponents...) {
			ms := make([]Match, req.Games)
			for i := range ms {
				ms[i] = Match{A: c.Player, B: opp, Seed: Derive(req.Seed, evalSolo, uint64(i))}
			}
			costs, err := PlaySoloMatches(ctx, sg, ms, req.Workers, progress(done))
			if err != nil {
				return rep, err
			}
			done += req.Games
			rep.Players = append(rep.Players, PlayerReport{Name: c.Label, Measure: solo.Measure, Solo: Summarize(costs)})
		}
	}
	for _, a := range req.Players {
		for _, b := range req.Opponents {
			t, err := PlayPairs(ctx, req.Game, a.Player, b.Player, req.Games, Derive(req.Seed, evalMatch), req.Workers, progress(done))
			if err != nil {
				return rep, err
			}
			done += req.Games
			rep.Matches = append(rep.Matches, MatchReport{
				A: a.Label, B: b.Label, Games: t.Games(),
				Wins: t.Wins, Draws: t.Draws, Losses: t.Losses,
				Score: t.Score(), CI95: t.CI95(),
			})
		}
	}
	return rep, nil
}

// PlayPairs plays n games of a against b, seen from a. Game i uses the seed
// of pair i/2; the second game of a pair swaps the seats, so each side of
// each deal is played by both players.
func PlayPairs(ctx context.Context, g Game, a, b Player, n int, seed uint64, workers int, progress func(int)) (Tally, error) {
	ms := make([]Match, n)
	for i := range ms {
		ms[i] = Match{A: a, B: b, Seed: Derive(seed, uint64(i/2))}
		if i%2 == 1 {
			ms[i].A, ms[i].B = b, a
		}
	}
	outs, err := PlayMatches(ctx, g, ms, workers, progress)
	var t Tally
	for i, o := range outs {
		if i%2 == 1 {
			o = o.Flip()
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
