package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	lib "github.com/corentings/chess/v2"

	"github.com/evotune/evotune/fitness/chess/uci/ucitest"
)

// TestEngineEveryFaultCounted: for each fault the fixture injects, a run
// whose opponent engine faults in some games completes, and every fault
// is counted exactly and charged to the side that made it. The games
// that must fault are computed from each game's record as the fixture
// chooses them (ucitest.Gate over the first plies): a game faults if and
// only if the gate opens and the faulting engine reached its first move
// at or past the ply; that game ends there, lost by the faulting engine;
// the generation's row counts exactly those games, by player and kind,
// and no fault of the tuned engine.
func TestEngineEveryFaultCounted(t *testing.T) {
	if testing.Short() {
		t.Skip("plays engines as processes")
	}
	const ply, every = 12, 3
	tests := []struct {
		kind, inject, extra string
	}{
		{"crash", `"Crash Ply": 12`, ""},
		{"illegal", `"Illegal Ply": 12`, ""},
		{"garbage", `"Garbage Ply": 12`, ""},
		{"stall", `"Hang Ply": 12`, "timeouts: {move: 1s}, "},
		// On a clock of 3 s a side, a move of 4 s loses on time.
		{"time", `"Slow Ply": 12, "Slow Ms": 4000`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.kind, func(t *testing.T) {
			text := chessConfig(t, "record: 1")
			text = strings.Replace(text, "options: {Focus: 70}, limit: {nodes: 40}", fmt.Sprintf(`%soptions: {Focus: 70, %s, "Fault Every": %d}, limit: {nodes: 40}`, tc.extra, tc.inject, every), 1)
			if tc.kind == "time" {
				text = strings.ReplaceAll(text, "limit: {nodes: 40}", `limit: {tc: "3+0", margin: 500}`)
				text = strings.Replace(text, "games: 8}", "games: 4}", 1)
				text = strings.Replace(text, "generations: 2", "generations: 1", 1)
				text = strings.Replace(text, "population: 4, generations: 1, hall-of-fame: 2", "population: 3, generations: 1, hall-of-fame: 1, elitism: 1, tournament-size: 2", 1)
				text = strings.Replace(text, "remeasure: {games: 8, top: 2}", "remeasure: {games: 2, top: 1}", 1)
			}
			dir := t.TempDir()
			ck := runText(t, text, Options{Dir: dir, Workers: 2})
			total := 0
			for _, row := range ck.History {
				data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("games-%04d.pgn", row.Generation)))
				if err != nil {
					t.Fatal(err)
				}
				games := splitGames(string(data))
				if len(games) != row.Games {
					t.Fatalf("generation %d: %d games recorded, want all %d", row.Generation, len(games), row.Games)
				}
				want := 0
				for i, g := range games {
					if faulted(t, g, ply, every) {
						want++
						if !strings.Contains(g, `[Termination `) || !baseLost(g) {
							t.Errorf("generation %d game %d: the faulting engine's game is not its loss:\n%s", row.Generation, i+1, g)
						}
					}
				}
				got := row.Faults["uci:base"][tc.kind]
				if got != want || len(row.Faults["uci:dev"]) != 0 || len(row.Faults["uci:base"]) > 1 {
					t.Errorf("generation %d: faults %v, want %d %s of uci:base alone", row.Generation, row.Faults, want, tc.kind)
				}
				total += got
			}
			if total == 0 {
				t.Fatalf("no %s in the run: the gate opened in no game", tc.kind)
			}
			log, _ := os.ReadFile(filepath.Join(dir, "run.log"))
			if !strings.Contains(string(log), tc.kind) {
				t.Errorf("run.log names no %s:\n%s", tc.kind, log)
			}
			// The remeasure's games against uci:base fault too: run.log
			// counts them (they are no generation's).
			if tc.kind == "crash" && !strings.Contains(string(log), "remeasure: games lost to faults: uci:base") {
				t.Errorf("run.log does not count the remeasure's faults:\n%s", log)
			}
		})
	}
}

// splitGames cuts a PGN file into its games.
func splitGames(pgn string) []string {
	var out []string
	for _, g := range strings.Split(pgn, "[Event ")[1:] {
		out = append(out, "[Event "+g)
	}
	return out
}

// faulted says whether the fixture, playing uci:base in the recorded
// game g with a fault at ply and Fault Every every, faulted in it: the
// gate over the game's first ply moves is open and uci:base came to move
// at or past ply. A game it faulted in ends at that move.
func faulted(t *testing.T, g string, ply, every int) bool {
	t.Helper()
	opt, err := lib.PGN(strings.NewReader(g))
	if err != nil {
		t.Fatalf("a recorded game does not parse: %v\n%s", err, g)
	}
	game := lib.NewGame(opt)
	var moves []string
	for _, m := range game.Moves() {
		moves = append(moves, m.String())
	}
	side := 0 // uci:base's colour: its first move is at an even ply as White
	if strings.Contains(g, `[Black "uci:base"]`) {
		side = 1
	}
	at := ply + (ply+side)%2
	fen := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	if len(moves) < at || !ucitest.Gate(fen, moves[:ply], every) {
		return false
	}
	if len(moves) != at {
		t.Errorf("a game the fixture faulted in went on past ply %d (%d moves):\n%s", at, len(moves), g)
	}
	return true
}

// baseLost says whether uci:base lost the recorded game g.
func baseLost(g string) bool {
	if strings.Contains(g, `[Black "uci:base"]`) {
		return strings.Contains(g, `[Result "1-0"]`)
	}
	return strings.Contains(g, `[Result "0-1"]`)
}
