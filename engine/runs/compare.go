package runs

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/stats"
)

// CompareOptions say how runs are compared.
type CompareOptions struct {
	Games   int    // games per run and opponent (head-to-head: per pair of runs too); even for a score
	Seed    uint64 // the deals' seed
	Workers int
	// Progress, when set, is told the games done so far and the total,
	// possibly from several goroutines at once.
	Progress func(done, total int)
}

// Comparison is the recommended bests (as each run's checkpoint records
// them: the remeasure's winner, which best.yaml lists first) of runs of
// one game, measured on the same fresh deals: every best meets
// every opponent on the same deals, so two bests' difference is paired,
// deal by deal (a score's by seat-swapped pair). The deals come from
// fitness.Derive(Seed, compareStream, ...), a stream no run draws from.
type Comparison struct {
	Game       string        `json:"game"`
	Measure    string        `json:"measure"`
	Direction  string        `json:"direction"`
	Seed       uint64        `json:"seed"`
	Games      int           `json:"games"`
	Opponents  []string      `json:"opponents"`
	Runs       []ComparedRun `json:"runs"`
	Diffs      []PairedDiff  `json:"paired_differences"`
	HeadToHead []HeadToHead  `json:"head_to_head,omitempty"`
}

// ComparedRun is one run's recommended best and its figures here.
type ComparedRun struct {
	Dir    string `json:"dir"`
	Name   string `json:"name"`
	Player string `json:"player"`
	// Selected is the figure that chose it (biased towards luck; no
	// games for a model's own recommendation, which selection never
	// played); Fresh the run's verdict on it, when the run made one,
	// Start the run's starting point on the verdict's deals, and Gain
	// the paired difference Fresh - Start (lower is better for a cost).
	Selected fitness.Figure  `json:"selected"`
	Fresh    *fitness.Figure `json:"fresh,omitempty"`
	Start    *fitness.Figure `json:"start,omitempty"`
	Gain     *stats.Estimate `json:"gain,omitempty"`
	// Figures are its figures against each opponent, in Opponents' order.
	Figures []fitness.Figure `json:"figures"`
}

// PairedDiff is run A's figure minus run B's against one opponent, from
// the per-deal (per-pair, for a score) differences, with a 95% Student's
// t interval (stats.PairedDifference).
type PairedDiff struct {
	A, B     int        `json:"-"`
	RunA     string     `json:"a"`
	RunB     string     `json:"b"`
	Opponent string     `json:"opponent"`
	Diff     float64    `json:"difference"`
	CI95     [2]float64 `json:"ci95"`
	N        int        `json:"deals"`
}

// HeadToHead is run A's best against run B's, seats swapped on each
// deal: A's pentanomial figures (score and Elo, with 95% intervals from
// the variance of the pairs).
type HeadToHead struct {
	A, B        int               `json:"-"`
	RunA        string            `json:"a"`
	RunB        string            `json:"b"`
	Score       stats.Estimate    `json:"score"`
	Elo         stats.Estimate    `json:"elo"`
	Pentanomial stats.Pentanomial `json:"pentanomial"`
}

// compareStream is the purpose of a comparison's deals: a number no run's
// streams use (see streams.go), so the deals are fresh to every run.
const compareStream uint64 = 0x636f6d70617265 // "compare"

// ErrNotComparable is returned for runs that do not play one game under
// one set of rules and one objective.
var ErrNotComparable = errors.New("runs do not compare")

// comparedRun is a run being compared.
type comparedRun struct {
	dir string
	ck  *engine.Checkpoint
	s   *engine.Setup
	rec engine.SpeciesView // its main species
}

// Compare plays the recommended bests of the runs in dirs on shared
// fresh deals. Each run is read as every reader reads it
// (engine.ReadRunToPlay: an outside program is described as the run
// recorded it, not started, and its UCI engines are started, the builds
// the run played); the games are played in the first run's game, which
// starts an outside program's processes only to play them.
func Compare(ctx context.Context, dirs []string, opts CompareOptions) (*Comparison, error) {
	if len(dirs) < 2 {
		return nil, fmt.Errorf("%w: want two or more runs, got %d", ErrNotComparable, len(dirs))
	}
	var runs []comparedRun
	defer func() {
		for _, r := range runs {
			r.s.Close()
		}
	}()
	for _, d := range dirs {
		ck, s, err := engine.ReadRunToPlay(d)
		if err != nil {
			return nil, err
		}
		views, err := s.Views(ck)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("%s: %w", d, err)
		}
		runs = append(runs, comparedRun{dir: d, ck: ck, s: s, rec: views[0]})
	}
	first := runs[0].s.Config()
	for _, r := range runs[1:] {
		c := r.s.Config()
		switch {
		case c.Game != first.Game:
			return nil, fmt.Errorf("%w: %s plays %s, %s plays %s", ErrNotComparable, runs[0].dir, first.Game, r.dir, c.Game)
		case !maps.Equal(c.Rules, first.Rules):
			return nil, fmt.Errorf("%w: %s and %s play %s under different rules", ErrNotComparable, runs[0].dir, r.dir, first.Game)
		case !slices.Equal(c.Command, first.Command):
			return nil, fmt.Errorf("%w: %s and %s are played by different programs", ErrNotComparable, runs[0].dir, r.dir)
		case c.Fitness.Objective != first.Fitness.Objective:
			return nil, fmt.Errorf("%w: %s measures %s, %s measures %s", ErrNotComparable, runs[0].dir, first.ObjectiveName(), r.dir, c.ObjectiveName())
		}
	}
	score := first.Fitness.Objective == config.Score
	if opts.Games < 1 || score && opts.Games%2 != 0 {
		return nil, fmt.Errorf("runs: compare: %d games: want at least 1, and an even number for a score (seat-swapped pairs)", opts.Games)
	}
	game := runs[0].s.Game()
	cmp := &Comparison{Game: first.Game, Measure: first.ObjectiveName(), Direction: "higher is better", Seed: opts.Seed, Games: opts.Games}
	if runs[0].s.LowerIsBetter() {
		cmp.Direction = "lower is better"
	}
	// The opponents: the first run's baselines (for a solo game of one
	// seat, the game alone), else (a solo game) its default opponent.
	opps, names, err := runs[0].s.Baselines()
	if err != nil && !errors.Is(err, engine.ErrNoBaselines) {
		return nil, err
	}
	cmp.Opponents = names
	if len(opps) == 0 && !score {
		opp, name, err := defaultOpponent(game)
		if err != nil {
			return nil, err
		}
		opps, cmp.Opponents = []fitness.Player{opp}, []string{name}
	}
	players := make([]fitness.Player, len(runs))
	for i, r := range runs {
		// The run's recommended player: best.yaml's first, the remeasure's
		// winner where there is one, built as the run built it (its player
		// spec's settings too).
		best := r.rec.Recommended()
		var err error
		if players[i], err = r.s.TunedPlayer(best.Genes); err != nil {
			return nil, fmt.Errorf("%s: %w", r.dir, err)
		}
		c := r.s.Config()
		cr := ComparedRun{Dir: r.dir, Name: c.Name, Player: c.Player,
			Selected: fitness.Figure{Fitness: best.Fitness, Games: best.Games, CI95: best.CI95}}
		if r.rec.RecommendedRank == 0 {
			cr.Selected = fitness.Figure{} // selection never played the model's own recommendation
		}
		if vd := r.ck.Verdict; vd != nil && vd.Games > 0 {
			cr.Fresh = &fitness.Figure{Fitness: vd.Fitness, Games: vd.Games, CI95: vd.CI95}
			if vd.Start != nil && vd.Difference != nil {
				start, gain := *vd.Start, *vd.Difference
				cr.Start, cr.Gain = &start, &gain
			}
		}
		cmp.Runs = append(cmp.Runs, cr)
	}
	done, total := 0, opts.Total(len(runs), len(opps), score)
	progress := func(n int) {
		if opts.Progress != nil {
			opts.Progress(done+n, total)
		}
	}
	// per[i][o] are run i's per-deal figures against opponent o: costs,
	// or a score's pair means.
	per := make([][][]float64, len(runs))
	for i := range runs {
		per[i] = make([][]float64, len(opps))
		for o, opp := range opps {
			ms := make([]fitness.Match, opts.Games)
			for g := range ms {
				if score {
					ms[g] = fitness.Match{A: players[i], B: opp, Seed: fitness.Derive(opts.Seed, compareStream, uint64(o), uint64(g/2))}
					if g%2 == 1 {
						ms[g].A, ms[g].B = opp, players[i]
					}
				} else {
					ms[g] = fitness.Match{A: players[i], B: opp, Seed: fitness.Derive(opts.Seed, compareStream, uint64(o), uint64(g))}
				}
			}
			xs, f, err := play(ctx, game, ms, score, opts.Workers, progress)
			if err != nil {
				return nil, err
			}
			done += opts.Games
			per[i][o] = xs
			cmp.Runs[i].Figures = append(cmp.Runs[i].Figures, f)
		}
	}
	for a := range runs {
		for b := a + 1; b < len(runs); b++ {
			for o := range opps {
				d := stats.PairedDifference(per[a][o], per[b][o])
				cmp.Diffs = append(cmp.Diffs, PairedDiff{A: a, B: b, RunA: runs[a].dir, RunB: runs[b].dir, Opponent: cmp.Opponents[o], Diff: d.Value, CI95: d.CI95, N: d.N})
			}
			if !score {
				continue
			}
			ms := make([]fitness.Match, opts.Games)
			for g := range ms {
				ms[g] = fitness.Match{A: players[a], B: players[b], Seed: fitness.Derive(opts.Seed, compareStream+1, uint64(a), uint64(b), uint64(g/2))}
				if g%2 == 1 {
					ms[g].A, ms[g].B = players[b], players[a]
				}
			}
			outs, err := fitness.PlayMatches(ctx, game, ms, opts.Workers, progress)
			if err != nil {
				return nil, err
			}
			done += opts.Games
			p := pentanomial(outs)
			cmp.HeadToHead = append(cmp.HeadToHead, HeadToHead{A: a, B: b, RunA: runs[a].dir, RunB: runs[b].dir, Score: p.Score(), Elo: p.Elo(), Pentanomial: p})
		}
	}
	return cmp, nil
}

// Total is how many games Compare plays for runs runs of a game with
// opponents opponents (a score's head-to-head games included).
func (o CompareOptions) Total(runs, opponents int, score bool) int {
	n := runs * opponents * o.Games
	if score {
		n += runs * (runs - 1) / 2 * o.Games
	}
	return n
}

// play plays ms and returns the first seat's figure per deal: a solo
// game's costs (with their mean and Student's t interval), or a score's
// mean of each seat-swapped pair (games 2k and 2k+1, the second seen from
// its second seat; the figure is the pairs' pentanomial score).
func play(ctx context.Context, g fitness.Game, ms []fitness.Match, score bool, workers int, progress func(int)) ([]float64, fitness.Figure, error) {
	if !score {
		sg, ok := g.(fitness.SoloGame)
		if !ok {
			return nil, fitness.Figure{}, fmt.Errorf("runs: compare: %s has no solo games", g.Name())
		}
		costs, err := fitness.PlaySoloMatches(ctx, sg, ms, workers, progress)
		if err != nil {
			return nil, fitness.Figure{}, err
		}
		e := stats.Mean(costs)
		return costs, fitness.Figure{Fitness: e.Value, Games: len(costs), CI95: e.CI95}, nil
	}
	outs, err := fitness.PlayMatches(ctx, g, ms, workers, progress)
	if err != nil {
		return nil, fitness.Figure{}, err
	}
	pairs := make([]float64, len(outs)/2)
	for k := range pairs {
		pairs[k] = (outs[2*k].Score() + outs[2*k+1].Flip().Score()) / 2
	}
	e := pentanomial(outs).Score()
	return pairs, fitness.Figure{Fitness: e.Value, Games: len(outs), CI95: e.CI95}, nil
}

// pentanomial counts seat-swapped pairs (games 2k and 2k+1, the second
// seen from its second seat) from the first game's first seat.
func pentanomial(outs []fitness.Outcome) stats.Pentanomial {
	var p stats.Pentanomial
	for k := 0; k+1 < len(outs); k += 2 {
		p.Add(outs[k].Score(), outs[k+1].Flip().Score())
	}
	return p
}

// defaultOpponent is solo game g's default opponent, built, and its
// spec; nil for a solo game of one seat.
func defaultOpponent(g fitness.Game) (fitness.Player, string, error) {
	solo, ok := fitness.SoloOf(g)
	if !ok || solo.Opponent == "" {
		return nil, solo.DefaultOpponent, nil // a solo game of one seat
	}
	p, err := fitness.ParseSpec(g, solo.Opponent, solo.DefaultOpponent)
	return p, solo.DefaultOpponent, err
}
