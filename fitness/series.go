package fitness

import (
	"context"
	"fmt"
)

// A SeriesGame plays series of solo games in which a player may carry
// what it learned from one game to the next (a Battleship shooter learning
// a placer's habits). Players that do not learn play each game afresh.
type SeriesGame interface {
	SoloGame
	// PlaySeries plays games solo games of p, a player of the game's first
	// role, against the game's default solo opponent, in order, and returns
	// each game's measure. It is a pure function of (p, games, seed);
	// errors as for Play.
	PlaySeries(ctx context.Context, p Player, games int, seed uint64) ([]float64, error)
}

// SeriesRequest asks for the learning curves `evotune eval --series` prints.
type SeriesRequest struct {
	Game    SeriesGame
	Players []Contender
	Series  int    // series per player
	Length  int    // games per series
	Seed    uint64 // series i of every player uses the same seed
	Workers int
	// Progress, if set, is told the number of finished games; it may be
	// called from several goroutines.
	Progress func(done int)
}

// SeriesPlayerReport is one player's figures over the series: all games
// together, and game by game of the series (ByGame[i] is game i+1 of every
// series), which is the learning curve.
type SeriesPlayerReport struct {
	Name    string        `json:"name"`
	Overall Summary       `json:"overall"`
	ByGame  []Summary     `json:"by_game"`
	Blocks  []SeriesBlock `json:"blocks"`
}

// SeriesBlock summarises games From to To (1-based, inclusive) of every
// series: game 1 alone, then blocks of a tenth of the series.
type SeriesBlock struct {
	From    int     `json:"from"`
	To      int     `json:"to"`
	Summary Summary `json:"summary"`
}

// seriesBlocks splits games 1..n into game 1, then blocks ending at
// multiples of ceil(n/10).
func seriesBlocks(n int) [][2]int {
	out := [][2]int{{1, 1}}
	step := (n + 9) / 10
	for from := 2; from <= n; {
		to := min(n, (from+step-1)/step*step)
		if to < from {
			to = from
		}
		out = append(out, [2]int{from, to})
		from = to + 1
	}
	return out
}

// SeriesReport is the result of EvaluateSeries.
type SeriesReport struct {
	Game    string               `json:"game"`
	Measure string               `json:"measure"`
	Seed    uint64               `json:"seed"`
	Series  int                  `json:"series"`
	Length  int                  `json:"length"`
	Players []SeriesPlayerReport `json:"players"`
}

// evalSeries is the stream of the series' seeds.
const evalSeries uint64 = 3

// EvaluateSeries plays req.Series series of req.Length games per player.
// Series i has the same seed for every player, so every player meets the
// same fleets in the same order. The report is the same for any worker
// count: series are the unit of work, and a series is played in order.
func EvaluateSeries(ctx context.Context, req SeriesRequest) (SeriesReport, error) {
	if req.Series < 1 || req.Length < 1 {
		return SeriesReport{}, fmt.Errorf("eval: want at least one series of at least one game, got %d of %d", req.Series, req.Length)
	}
	rep := SeriesReport{Game: req.Game.Name(), Measure: req.Game.Solo().Measure, Seed: req.Seed, Series: req.Series, Length: req.Length}
	for k, c := range req.Players {
		var progress func(int)
		if req.Progress != nil {
			offset := k * req.Series * req.Length
			progress = func(d int) { req.Progress(offset + d*req.Length) }
		}
		runs, err := Parallel(ctx, req.Series, req.Workers, func(i int) ([]float64, error) {
			seed := Derive(req.Seed, evalSeries, uint64(i))
			run, err := req.Game.PlaySeries(ctx, c.Player, req.Length, seed)
			return run, Failed(seed, err)
		}, progress)
		if err != nil {
			return rep, err
		}
		all := make([]float64, 0, req.Series*req.Length)
		pr := SeriesPlayerReport{Name: c.Label, ByGame: make([]Summary, req.Length)}
		column := make([]float64, req.Series)
		for j := range req.Length {
			for i, run := range runs {
				column[i] = run[j]
			}
			pr.ByGame[j] = Summarize(column)
		}
		for _, run := range runs {
			all = append(all, run...)
		}
		pr.Overall = Summarize(all)
		for _, b := range seriesBlocks(req.Length) {
			var xs []float64
			for _, run := range runs {
				xs = append(xs, run[b[0]-1:b[1]]...)
			}
			pr.Blocks = append(pr.Blocks, SeriesBlock{From: b[0], To: b[1], Summary: Summarize(xs)})
		}
		rep.Players = append(rep.Players, pr)
	}
	return rep, nil
}
