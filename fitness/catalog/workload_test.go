package catalog

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/battleship"
	"github.com/evotune/evotune/fitness/internal/playtest"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/cputime"
)

// A workload is one tunable player of a shipped config and the games a
// run of that config makes it play: solo games against a player of the
// other role, or games against an opponent with the seats swapped every
// game.
type workload struct {
	name    string
	game    string
	rules   map[string]string
	player  string
	role    fitness.Role
	against string // the opponent's registered name
	oppRole fitness.Role
	solo    bool
}

// workloads are the tunable players of every game, with the rules and
// opponents of the shipped configs (configs/*.yaml).
var workloads = []workload{
	{name: "battleship/tuned-shooter", game: "battleship", player: "tuned", role: battleship.ShooterRole,
		against: "random", oppRole: battleship.PlacerRole, solo: true},
	{name: "battleship/tuned-placer", game: "battleship", player: "tuned", role: battleship.PlacerRole,
		against: "over9000", oppRole: battleship.ShooterRole, solo: true},
	{name: "chess/tiny", game: "chess", rules: map[string]string{"random-plies": "8", "max-moves": "100"},
		player: "tiny", role: fitness.Mover, against: "random", oppRole: fitness.Mover},
	{name: "hadron/tuned", game: "hadron", rules: map[string]string{"size": "9", "depth": "3"},
		player: "tuned", role: fitness.Mover, against: "aenigma", oppRole: fitness.Mover},
	{name: "mnk-9x9x5/tuned", game: "mnk", rules: map[string]string{"m": "9", "n": "9", "k": "5", "depth": "3"},
		player: "tuned", role: fitness.Mover, against: "classic", oppRole: fitness.Mover},
	{name: "connect4/tuned", game: "mnk", rules: map[string]string{"m": "7", "n": "6", "k": "4", "gravity": "true", "depth": "4", "opening": "4"},
		player: "tuned", role: fitness.Mover, against: "classic", oppRole: fitness.Mover},
}

// workloadDraws is how many parameter vectors beside the defaults each
// workload plays, drawn uniformly from the player's schema.
const workloadDraws = 16

// workloadPlayers builds the player at its defaults and at workloadDraws
// seeded uniform draws from its whole schema (genome.Space.Random): the
// parameters a tuning run actually plays, not only the defaults.
func workloadPlayers(tb testing.TB, g fitness.Game, w workload) []fitness.Player {
	tb.Helper()
	vals := workloadValues(tb, g, w)
	out := make([]fitness.Player, len(vals))
	for i, v := range vals {
		var err error
		if out[i], err = g.NewPlayer(w.role, w.player, v); err != nil {
			tb.Fatalf("%s: vector %d: %v", w.name, i, err)
		}
	}
	return out
}

// workloadValues are the parameter vectors of workloadPlayers.
func workloadValues(tb testing.TB, g fitness.Game, w workload) []genome.Values {
	tb.Helper()
	info, ok := fitness.Info(g, w.role, w.player)
	if !ok || !info.Tunable() {
		tb.Fatalf("%s: no tunable %v %q", w.name, w.role, w.player)
	}
	space, err := genome.NewSpace(info.Schema, nil)
	if err != nil {
		tb.Fatal(err)
	}
	vals := []genome.Values{info.Schema.Defaults()}
	rng := fitness.NewRand(fitness.Derive(14, 1))
	for range workloadDraws {
		v, err := space.Decode(space.Random(rng))
		if err != nil {
			tb.Fatal(err)
		}
		vals = append(vals, v)
	}
	return vals
}

// BenchmarkWorkload plays, per iteration, one game of every parameter
// vector of workloadPlayers (the defaults and 16 draws) on one core, and
// reports games per second at the defaults, the median over the 17
// vectors and the slowest vector. Each vector's rate is its games over
// the CPU time of the benchmark's thread spent in those games alone
// (wall time on a loaded machine counts the waits for a core too).
func BenchmarkWorkload(b *testing.B) {
	for _, w := range workloads {
		b.Run(w.name, func(b *testing.B) {
			g, err := New(w.game, w.rules)
			if err != nil {
				b.Fatal(err)
			}
			opp, err := g.NewPlayer(w.oppRole, w.against, genome.Values{})
			if err != nil {
				b.Fatal(err)
			}
			players := workloadPlayers(b, g, w)
			spent := make([]time.Duration, len(players))
			games := 0
			seed := uint64(0)
			runtime.LockOSThread() // cputime.Thread times this thread
			defer runtime.UnlockOSThread()
			for b.Loop() {
				for i, p := range players {
					// Each vector plays games of its own seeds: a game
					// replayed at once with the same moves runs faster (see
					// battleship's BenchmarkTunedDraws), which flattered
					// every vector playing like the one before it.
					seed := seed*uint64(len(players)) + uint64(i)
					start := cputime.Thread()
					switch {
					case w.solo && w.role == g.Roles()[0]:
						playtest.MustSolo(g.(fitness.SoloGame), p, opp, seed)
					case w.solo: // a player of the other role raises the cost
						playtest.MustSolo(g.(fitness.SoloGame), opp, p, seed)
					case seed%2 == 0:
						playtest.MustPlay(g, p, opp, seed)
					default:
						playtest.MustPlay(g, opp, p, seed)
					}
					spent[i] += cputime.Thread() - start
				}
				games++
				seed++
			}
			rates := make([]float64, len(spent))
			for i, d := range spent {
				rates[i] = float64(games) / d.Seconds()
			}
			b.ReportMetric(rates[0], "games/s-defaults")
			sorted := slices.Clone(rates)
			slices.Sort(sorted)
			b.ReportMetric(sorted[len(sorted)/2], "games/s-median")
			b.ReportMetric(sorted[0], "games/s-slowest")
		})
	}
}

// TestWorkloadPlayersDiffer guards the benchmark's premise: the draws are
// distinct parameter vectors, reproducible from the fixed seed, and every
// workload's player and opponent build.
func TestWorkloadPlayersDiffer(t *testing.T) {
	for _, w := range workloads {
		t.Run(w.name, func(t *testing.T) {
			g, err := New(w.game, w.rules)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := g.NewPlayer(w.oppRole, w.against, genome.Values{}); err != nil {
				t.Fatal(err)
			}
			workloadPlayers(t, g, w)
			a, b := workloadValues(t, g, w), workloadValues(t, g, w)
			if len(a) != workloadDraws+1 {
				t.Fatalf("%d players, want %d", len(a), workloadDraws+1)
			}
			seen := map[string]bool{}
			for i := range a {
				sa, sb := fmt.Sprint(a[i].Map()), fmt.Sprint(b[i].Map())
				if sa != sb {
					t.Fatalf("vector %d differs between two builds", i)
				}
				if seen[sa] {
					t.Fatalf("vector %d repeats an earlier one", i)
				}
				seen[sa] = true
			}
		})
	}
}
