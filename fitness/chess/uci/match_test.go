package uci_test

import (
	"context"
	"flag"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/chess"
	"github.com/evotune/evotune/fitness/chess/uci"
	"github.com/evotune/evotune/fitness/chess/uci/ucitest"
	"github.com/evotune/evotune/genome"
)

// fixtureDef is a definition of the fixture engine, examples/tinyuci.
func fixtureDef(t testing.TB, name string, options ...uci.SetOption) uci.Definition {
	return uci.Definition{Name: name, Command: []string{ucitest.Build(t)}, Options: options, Limit: uci.Limit{Nodes: 40}}
}

func opt(name string, value int) uci.SetOption {
	return uci.SetOption{Name: name, Value: strconv.Itoa(value)}
}

func defaultPlayer(t testing.TB, e *uci.Engine) *uci.Player {
	t.Helper()
	p, err := e.NewPlayer(genome.Values{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// playMatch plays pairs seat-swapped pairs of a against b on workers
// workers: game 2i is (a, b, seed i), game 2i+1 (b, a, seed i).
func playMatch(t testing.TB, a, b chess.SeatPlayer, pairs, workers int) []chess.Record {
	t.Helper()
	g := testGame(t)
	recs, err := fitness.Parallel(context.Background(), 2*pairs, workers, func(i int) (chess.Record, error) {
		seed := fitness.Derive(11, uint64(i/2))
		if i%2 == 0 {
			return playGame(context.Background(), g, a, b, seed)
		}
		return playGame(context.Background(), g, b, a, seed)
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestFixtureFaultsCounted: each fault the fixture injects in a match of
// many games is counted as its kind and charged to the side that
// faulted, and the match completes. The fixture faults at its first
// move at ply 20 or later in the games its gate chooses (about one in
// Fault Every); the test finds those games itself from their moves.
func TestFixtureFaultsCounted(t *testing.T) {
	const ply = 20
	tests := []struct {
		name   string
		inject []uci.SetOption
		kind   fitness.Fault
		pairs  int
		every  int
		edit   func(*uci.Definition)
	}{
		{"crash", []uci.SetOption{opt("Crash Ply", ply)}, fitness.FaultCrash, 24, 3, nil},
		{"illegal", []uci.SetOption{opt("Illegal Ply", ply)}, fitness.FaultIllegal, 24, 3, nil},
		{"garbage", []uci.SetOption{opt("Garbage Ply", ply)}, fitness.FaultGarbage, 24, 3, nil},
		{"hang", []uci.SetOption{opt("Hang Ply", ply)}, fitness.FaultStall, 14, 3, func(d *uci.Definition) { d.Timeouts.Move = time.Second }},
		{"slow on the clock", []uci.SetOption{opt("Slow Ply", ply), opt("Slow Ms", 2200)}, fitness.FaultTime, 8, 3,
			func(d *uci.Definition) { d.Limit = uci.Limit{TC: uci.TC{Base: 2000}} }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bad := fixtureDef(t, "bad", append(tc.inject, opt("Fault Every", tc.every))...)
			good := fixtureDef(t, "good", opt("Focus", 60)) // unlike bad, so the games of a pair differ
			if tc.edit != nil {
				tc.edit(&bad)
				tc.edit(&good)
			}
			be, ge := newEngine(t, bad), newEngine(t, good)
			recs := playMatch(t, defaultPlayer(t, be), defaultPlayer(t, ge), tc.pairs, 2)
			var want, got [2]int // faults by the bad side's colour
			for i, r := range recs {
				badSide := chess.Color(i % 2) // White in game 2i, Black in 2i+1
				at := ply + (ply+int(badSide))%2
				expect := len(r.Moves) >= at && ucitest.Gate(r.StartFEN, r.Moves[:ply], tc.every)
				if expect {
					want[badSide]++
				}
				if fault(r) != fitness.NoFault {
					got[r.FaultSide]++
				}
				switch {
				case expect && (fault(r) != tc.kind || r.FaultSide != badSide || len(r.Moves) != at || r.Termination != chess.ByFault):
					t.Errorf("game %d: %v %v, %d moves; want a %v fault of %v at ply %d", i, r.Termination, r.Fault, len(r.Moves), tc.kind, badSide, at)
				case !expect && fault(r) != fitness.NoFault:
					t.Errorf("game %d: %v; want no fault", i, r.Fault)
				case expect && r.Outcome != map[chess.Color]fitness.Outcome{chess.White: fitness.Loss, chess.Black: fitness.Win}[badSide]:
					t.Errorf("game %d: the fault of %v scored %v for White", i, badSide, r.Outcome)
				}
			}
			if want[0]+want[1] < 3 || want[0]+want[1] == len(recs) {
				t.Errorf("%d of %d games fault: the test needs some that do and some that do not", want[0]+want[1], len(recs))
			}
			t.Logf("%v faults by White %d, by Black %d, of %d games", tc.kind, got[0], got[1], len(recs))
			if n := ge.Processes(); n > 2 {
				t.Errorf("the good engine has %d processes after a match on 2 workers", n)
			}
		})
	}
}

// TestFixturePlanted: the fixture's planted optimum is real: at Focus
// 70 it beats itself at Focus 0 clearly.
func TestFixturePlanted(t *testing.T) {
	best := newEngine(t, fixtureDef(t, "best", opt("Focus", ucitest.Optimum)))
	off := newEngine(t, fixtureDef(t, "off", opt("Focus", 0)))
	recs := playMatch(t, defaultPlayer(t, best), defaultPlayer(t, off), 50, 2)
	score := 0.0
	for i, r := range recs {
		s := r.Outcome.Score()
		if i%2 == 1 {
			s = 1 - s
		}
		score += s
	}
	score /= float64(len(recs))
	t.Logf("Focus %d scores %.3f against Focus 0 over %d games", ucitest.Optimum, score, len(recs))
	if score < 0.6 {
		t.Errorf("the optimum scores %.3f against Focus 0, want above 0.6", score)
	}
}

// replayPairs is the seat-swapped pairs TestReplays plays of each
// engine: go test -run TestReplays -args -replay-pairs 25 plays the
// 50-game matches docs/engines.md quotes.
var replayPairs = flag.Int("replay-pairs", 8, "seat-swapped pairs of each engine's match in TestReplays")

// TestReplays: at a fixed limit, a match replays at 1 and 2 workers
// (processes reused in another order): every game's PGN, with its
// moves' scores, depths and node counts, byte for byte; Toga II's
// without its node counts, which vary with how busy the machine is (by
// one, in about one game in 25: its moves, scores and depths do not).
func TestReplays(t *testing.T) {
	withoutNodes := regexp.MustCompile(` [0-9]+N}`)
	tests := []struct {
		name  string
		def   func(testing.TB) uci.Definition
		nodes bool // the node counts replay too
	}{
		{"fixture", func(t testing.TB) uci.Definition { return fixtureDef(t, "fixture") }, true},
		{"stockfish at 1000 nodes", stockfishDef, true},
		{"toga at depth 3", togaDef, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.name != "fixture" {
				t.Skip("-short: a real engine's match")
			}
			var runs [2][]chess.Record
			for i, workers := range []int{1, 2} {
				e := newEngine(t, tc.def(t))
				p := defaultPlayer(t, e)
				runs[i] = playMatch(t, p, p, *replayPairs, workers)
				e.Close()
			}
			for g := range runs[0] {
				a, b := replayText(t, runs[0][g]), replayText(t, runs[1][g])
				if !tc.nodes {
					a, b = withoutNodes.ReplaceAllString(a, "}"), withoutNodes.ReplaceAllString(b, "}")
				}
				if a != b {
					t.Errorf("game %d differs at 1 and 2 workers:\n%s\n%s", g, a, b)
				}
			}
		})
	}
}

// replayText is a game's PGN: the whole of what a game that replays
// must repeat, byte for byte (it leaves the moves' times out).
func replayText(t testing.TB, r chess.Record) string {
	t.Helper()
	s, err := r.PGN()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRestart: with Restart every game has a fresh process, killed when
// the game ends.
func TestRestart(t *testing.T) {
	d := fixtureDef(t, "fresh")
	d.Restart = true
	e := newEngine(t, d)
	p := defaultPlayer(t, e)
	seen := map[int]bool{}
	for range 3 {
		s, err := p.NewSeat(context.Background(), 1, chess.White)
		if err != nil {
			t.Fatal(err)
		}
		pids := uci.Pids(e)
		if len(pids) != 1 || seen[pids[0]] {
			t.Fatalf("processes %v for one seat, after %v", pids, seen)
		}
		seen[pids[0]] = true
		s.End()
		waitGone(t, pids[0])
		if n := e.Processes(); n != 0 {
			t.Errorf("%d processes after the game", n)
		}
	}
}

// TestFixtureSetup: the fixture's start-up failures are refused in one
// line, and a slow uciok within its timeout is not one.
func TestFixtureSetup(t *testing.T) {
	bin := ucitest.Build(t)
	tests := []struct {
		name    string
		argv    []string
		options []uci.SetOption
		start   time.Duration
		ready   time.Duration
		want    string
	}{
		{"not UCI", []string{bin, "-not-uci"}, nil, 0, 0, "uci: uci:tiny: not a UCI engine: it exited with status 1 before uciok (" + bin + " -not-uci)"},
		{"no uciok", []string{bin, "-no-uciok"}, nil, time.Second, 0, "uci: uci:tiny: no uciok within 1s (" + bin + " -no-uciok): is it a UCI engine?"},
		{"uciok too slow", []string{bin, "-slow-uciok", "1m"}, nil, time.Second, 0, "uci: uci:tiny: no uciok within 1s"},
		{"a slow uciok in time", []string{bin, "-slow-uciok", "200ms"}, nil, time.Minute, 0, ""},
		{"no readyok", []string{bin}, []uci.SetOption{{Name: "No Readyok", Value: "true"}}, 0, time.Second,
			"uci: uci:tiny: after its options were set: uci:tiny: stall: no readyok within 1s"},
		{"a piece value past its max", []string{bin}, []uci.SetOption{opt("Queen", 2001)}, 0, 0,
			"uci: uci:tiny: option Queen: 2001 is outside its range [0, 2000]"},
		{"an option it lacks", []string{bin}, []uci.SetOption{opt("King", 1)}, 0, 0,
			"uci: uci:tiny: option King: the engine has no such option"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := fixtureDef(t, "tiny", tc.options...)
			d.Command, d.Timeouts.Start, d.Timeouts.Ready = tc.argv, tc.start, tc.ready
			e, err := uci.New(context.Background(), d)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				e.Close()
				return
			}
			if err == nil {
				e.Close()
				t.Fatal("accepted")
			}
			if msg := err.Error(); !strings.HasPrefix(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Errorf("error\n%s\nwant one line starting\n%s", msg, tc.want)
			}
		})
	}
}

// TestNoProcessOutlivesClose: after a match on two workers, Close
// leaves no process of the engine running.
func TestNoProcessOutlivesClose(t *testing.T) {
	a, err := uci.New(context.Background(), fixtureDef(t, "a"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := uci.New(context.Background(), fixtureDef(t, "b", opt("Focus", 60)))
	if err != nil {
		t.Fatal(err)
	}
	playMatch(t, defaultPlayer(t, a), defaultPlayer(t, b), 4, 2)
	pids := append(uci.Pids(a), uci.Pids(b)...)
	if len(pids) < 2 || len(pids) > 4 {
		t.Errorf("%d processes for 2 workers of 2 engines, want 2 to 4", len(pids))
	}
	a.Close()
	b.Close()
	for _, pid := range pids {
		waitGone(t, pid)
	}
}

// TestPositionFromFEN: a game from another start is sent as position
// fen ... moves ...: the fixture finds the mate there.
func TestPositionFromFEN(t *testing.T) {
	d := fixtureDef(t, "tiny", opt("Focus", ucitest.Optimum))
	d.Limit = uci.Limit{Depth: 1}
	e := newEngine(t, d)
	s, err := defaultPlayer(t, e).NewSeat(context.Background(), 1, chess.White)
	if err != nil {
		t.Fatal(err)
	}
	defer s.End()
	for _, tc := range []struct {
		pos  chess.Position
		want string
	}{
		{chess.Position{StartFEN: "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"}, "a1a8"},
		{chess.Position{StartFEN: "6k1/5ppp/8/8/8/8/5PPP/1R4K1 b - - 0 1", Moves: []string{"g8h8", "b1b2", "h8g8"}}, "b2b8"},
	} {
		r, err := s.Move(context.Background(), tc.pos)
		if err != nil || r.Move != tc.want || r.Mate != 1 {
			t.Errorf("%s moves %v: %+v, %v; want the mate %s", tc.pos.StartFEN, tc.pos.Moves, r, err, tc.want)
		}
	}
}
