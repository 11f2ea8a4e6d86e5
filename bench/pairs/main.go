// Command pairs measures what pairing does to head-to-head scores: the
// games of `evotune eval` (fitness.PlayPairs on eval's seeds), with the
// 95% interval from the variance of the pair scores next to the interval
// that treats the games as independent, the ratio of the two variances,
// and the games a decision would take with each.
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
	"github.com/evotune/evotune/fitness/stats"
)

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
			t, err := fitness.PlayPairs(ctx, g, a, b, 2**pairs, fitness.MatchSeed(*seed), *workers, nil)
			if err != nil {
				return err
			}
			fmt.Fprintln(out, row(ps, vsSpec, summarize(t)))
		}
	}
	return nil
}

// paired are the figures of a pairing.
type paired struct {
	score             float64    // mean per game
	ci, ciUnpaired    [2]float64 // 95%
	counts            stats.Pentanomial
	pairVar, gameVar  float64 // of a pair's mean score, and of a game's score
	decide, decideUnp float64 // games until the interval excludes 0.5
}

const z95 = 1.959963984540054

// summarize computes the figures of a pairing's games, played as eval
// plays them (fitness.PlayPairs).
func summarize(t fitness.PairTally) paired {
	p := paired{score: t.Score(), counts: t.Pairs}
	n := float64(t.Pairs.Pairs())
	// A pair scoring k/2 over its two games has the mean score k/4.
	var ss float64
	for k, c := range t.Pairs {
		d := float64(k)/4 - p.score
		ss += float64(c) * d * d
	}
	p.pairVar = ss / (n - 1)
	games := float64(t.Games())
	p.gameVar = (float64(t.Wins)*(1-p.score)*(1-p.score) + float64(t.Draws)*(0.5-p.score)*(0.5-p.score) +
		float64(t.Losses)*p.score*p.score) / (games - 1)
	half := z95 * math.Sqrt(p.pairVar/n)
	p.ci = [2]float64{p.score - half, p.score + half}
	halfU := z95 * math.Sqrt(p.gameVar/games)
	p.ciUnpaired = [2]float64{p.score - halfU, p.score + halfU}
	if d := p.score - 0.5; d != 0 {
		// k pairs give a half-width of z*sqrt(pairVar/k), which is |d| at
		// k = z^2*pairVar/d^2: two games a pair.
		p.decide = 2 * z95 * z95 * p.pairVar / (d * d)
		p.decideUnp = z95 * z95 * p.gameVar / (d * d)
	}
	return p
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
