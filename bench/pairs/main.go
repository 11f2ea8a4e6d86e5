// Command pairs measures head-to-head scores with paired intervals: the
// games of `evotune eval` (the same seats and seeds: seat-swapped pairs on
// one seed each), reported with a 95% interval from the variance of the
// pair scores, next to the interval that treats the games as independent.
//
//	go run ./bench/pairs -game hadron -rule depth=2 -rule opening=4 \
//	    -player tuned:best.yaml -vs aenigma -vs aenigma@depth=3 -pairs 2000 -seed 101
//
// A pair is the two games played on one seed with the seats swapped; its
// score, 0 to 2, counts the player's points over both (a pentanomial
// outcome: 0, 1/2, 1, 3/2 or 2). Pairs are independent where games of a
// pair are not, so the pairs' variance is the honest one; when seats
// matter (one side of a deal is easier) it is also the smaller.
//
// Each row says how many games a decision would take: the games after
// which the paired interval no longer holds 0.5, at the measured score and
// pair variance, and the same from the unpaired variance.
//
// This is a measurement tool, kept so that the figures in
// docs/games/hadron-evaluation.md can be re-run; `evotune sprt` is the
// tool for deciding between players.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"strings"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
)

// evalMatch is the stream `evotune eval` derives its head-to-head seeds
// from (fitness.Evaluate); playing the same seeds makes a row here the
// same games as the eval of the same players.
const evalMatch = 2

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "pairs:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("pairs", flag.ContinueOnError)
	game := fs.String("game", "hadron", "game name")
	var rules, players, vs multi
	fs.Var(&rules, "rule", "rule option KEY=VALUE (repeatable)")
	fs.Var(&players, "player", "player SPEC (repeatable)")
	fs.Var(&vs, "vs", "opponent SPEC (repeatable)")
	pairs := fs.Int("pairs", 1000, "seat-swapped pairs per pairing")
	seed := fs.Uint64("seed", 1, "seed, as eval's --seed")
	workers := fs.Int("workers", runtime.NumCPU(), "games at once")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if len(players) == 0 || len(vs) == 0 || *pairs < 2 {
		return fmt.Errorf("want -player, -vs and -pairs of at least 2")
	}
	info, err := catalog.Lookup(*game)
	if err != nil {
		return err
	}
	opts := map[string]string{}
	for _, r := range rules {
		k, v, ok := strings.Cut(r, "=")
		if !ok {
			return fmt.Errorf("-rule %q: want KEY=VALUE", r)
		}
		opts[k] = v
	}
	g, err := info.New(opts)
	if err != nil {
		return err
	}
	defer fitness.Close(g)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fmt.Fprintf(out, "%s %s, %d pairs (%d games) per row, seed %d\n\n", *game, strings.Join(rules, " "), *pairs, 2**pairs, *seed)
	fmt.Fprintln(out, "| player | opponent | score | 95% CI (pairs) | 95% CI (games as independent) | pairs 0/½/1/1½/2 | pair var / game var | games to decide (paired, unpaired) |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|")
	for _, ps := range players {
		a, err := fitness.ParseSpec(g, g.Roles()[0], ps)
		if err != nil {
			return err
		}
		for _, vsSpec := range vs {
			b, err := fitness.ParseSpec(g, g.Roles()[0], vsSpec)
			if err != nil {
				return err
			}
			scores, err := gameScores(ctx, g, a, b, *pairs, *seed, *workers)
			if err != nil {
				return err
			}
			fmt.Fprintln(out, row(ps, vsSpec, summarize(scores)))
		}
	}
	return nil
}

// gameScores plays n pairs as fitness.Evaluate does and returns a's
// score in each game, a pair's two games side by side.
func gameScores(ctx context.Context, g fitness.Game, a, b fitness.Player, n int, seed uint64, workers int) ([]float64, error) {
	base := fitness.Derive(seed, evalMatch)
	ms := make([]fitness.Match, 2*n)
	for i := range ms {
		ms[i] = fitness.Match{A: a, B: b, Seed: fitness.Derive(base, uint64(i/2))}
		if i%2 == 1 {
			ms[i].A, ms[i].B = b, a
		}
	}
	outs, err := fitness.PlayMatches(ctx, g, ms, workers, nil)
	if err != nil {
		return nil, err
	}
	scores := make([]float64, len(outs))
	for i, o := range outs {
		if i%2 == 1 {
			o = o.Flip()
		}
		scores[i] = o.Score()
	}
	return scores, nil
}

// paired are the figures of a pairing.
type paired struct {
	score             float64    // mean per game
	ci, ciUnpaired    [2]float64 // 95%
	counts            [5]int     // pairs scoring 0, 1/2, 1, 3/2, 2
	pairVar, gameVar  float64    // of a pair's mean score, and of a game's score
	decide, decideUnp float64    // games until the interval excludes 0.5
}

const z95 = 1.959963984540054

// summarize computes the figures of game scores, a pair's two games side
// by side.
func summarize(games []float64) paired {
	var p paired
	n := float64(len(games) / 2) // pairs
	p.score = mean(games)
	means := make([]float64, len(games)/2)
	for i := range means {
		s := games[2*i] + games[2*i+1]
		p.counts[int(math.Round(2*s))]++
		means[i] = s / 2
	}
	p.pairVar = variance(means, p.score)
	p.gameVar = variance(games, p.score)
	half := z95 * math.Sqrt(p.pairVar/n)
	p.ci = [2]float64{p.score - half, p.score + half}
	halfU := z95 * math.Sqrt(p.gameVar/(2*n))
	p.ciUnpaired = [2]float64{p.score - halfU, p.score + halfU}
	if d := p.score - 0.5; d != 0 {
		// k pairs give a half-width of z*sqrt(pairVar/k), which is |d| at
		// k = z^2*pairVar/d^2: two games a pair.
		p.decide = 2 * z95 * z95 * p.pairVar / (d * d)
		p.decideUnp = z95 * z95 * p.gameVar / (d * d)
	}
	return p
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// variance is the sample variance of xs about their mean m.
func variance(xs []float64, m float64) float64 {
	var s float64
	for _, x := range xs {
		s += (x - m) * (x - m)
	}
	return s / float64(len(xs)-1)
}

func row(player, opp string, p paired) string {
	return fmt.Sprintf("| %s | %s | %.3f | [%.3f, %.3f] | [%.3f, %.3f] | %d/%d/%d/%d/%d | %.3f | %s, %s |",
		player, opp, p.score, p.ci[0], p.ci[1], p.ciUnpaired[0], p.ciUnpaired[1],
		p.counts[0], p.counts[1], p.counts[2], p.counts[3], p.counts[4],
		p.pairVar*2/p.gameVar, games(p.decide), games(p.decideUnp))
}

func games(x float64) string {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.0f", math.Ceil(x))
}
