package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/evotune/evotune/internal/proctest"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/evotune/evotune/fitness/chess/uci/ucitest"
	"github.com/evotune/evotune/rundir"
	"github.com/evotune/evotune/rundir/rundirtest"
)

// engineMatchConfig is a run of 1,000 games of the fixture engine
// against itself: a hall of fame only (160 games in each of generations
// 2 and 3), so the remeasure's 680 games are head to head, its verdict
// pairs (pentanomial) against the start.
func engineMatchConfig(t *testing.T) string {
	return writeConfig(t, fmt.Sprintf(`name: fixture-match
seed: 5
game: chess
rules: {random-plies: 8, max-moves: 30}
engines:
  dev: {command: [%s], limit: {nodes: 20}}
player: uci:dev
space: {Focus: {min: 0, max: 100}}
seeds:
  - {Focus: 20}
fitness:
  hall-of-fame: {members: 2, games: 20}
evolution: {population: 4, generations: 3, hall-of-fame: 2}
remeasure: {games: 340, top: 2}
`, ucitest.Build(t)))
}

// verdictPairs is the pentanomial counts of a run's verdict.
func verdictPairs(t *testing.T, files map[string][]byte) []int {
	t.Helper()
	var ck struct {
		Verdict struct {
			Games int   `json:"games"`
			Pairs []int `json:"pentanomial"`
		} `json:"verdict"`
	}
	if err := json.Unmarshal(files[rundir.CheckpointFile], &ck); err != nil || len(ck.Verdict.Pairs) != 5 {
		t.Fatalf("checkpoint without a verdict's pentanomial (%v):\n%.2000s", err, files[rundir.CheckpointFile])
	}
	return ck.Verdict.Pairs
}

// TestEngineMatchReplays: a run of 1,000 games of a UCI engine (the
// fixture at go nodes 20) writes the same files, and so the same
// pentanomial counts in its verdict, at 1 and 2 workers, after a kill -9
// in its last generation and a resume, and on two NATS workers; a
// 1,000-game eval between two of its limits gives the same pentanomial
// counts at 1 and 2 workers.
func TestEngineMatchReplays(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 1,000 engine games several times")
	}
	if raceDetector || os.Getenv("EVOTUNE_LONG") != "1" {
		t.Skip("1,000 engine games several times, a few CPU-minutes: EVOTUNE_LONG=1 (.ci/run) plays them, without -race")
	}
	cfg := engineMatchConfig(t)
	var want map[string][]byte
	for _, w := range []string{"1", "2"} {
		dir := filepath.Join(t.TempDir(), "run")
		out := mustRun(t, "run", cfg, "--out", dir, "--workers", w)
		if !strings.Contains(out, "320 games and 680 games re-measuring the best") {
			t.Fatalf("the run did not play 1,000 games:\n%s", out)
		}
		got := rundirtest.Read(t, dir, false)
		if want == nil {
			want = got
			t.Logf("verdict pentanomial %v", verdictPairs(t, got))
			continue
		}
		rundirtest.Same(t, want, got, "1 and 2 workers")
	}
	pairs := verdictPairs(t, want)
	if n := pairs[0] + pairs[1] + pairs[2] + pairs[3] + pairs[4]; n != 170 {
		t.Fatalf("verdict of %d pairs (%v), want 170", n, pairs)
	}

	t.Run("kill -9 and resume", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "run")
		cmd := evotune("run", cfg, "--out", dir, "--quiet", "--workers", "2", "--batch", "4")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
		waitJournal(t, dir, 2, 10) // generation 3's first 40 games
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		if _, err := os.Stat(filepath.Join(dir, rundir.JournalFile)); err != nil {
			t.Fatalf("no journal after the kill: %v", err)
		}
		mustRun(t, "resume", dir, "--quiet", "--workers", "1")
		rundirtest.Same(t, want, rundirtest.Read(t, dir, false), "killed and resumed")
	})

	t.Run("two NATS workers", func(t *testing.T) {
		addr := freeAddr(t)
		dir := filepath.Join(t.TempDir(), "run")
		coord, errb := startCoordinator(t, "run", cfg, "--out", dir, "--serve", addr, "--batch", "10", "--quiet")
		for range 2 {
			startWorker(t, "nats://"+addr, "--workers", "1", "--allow-programs")
		}
		if err := coord.Wait(); err != nil {
			t.Fatalf("coordinator: %v\n%s", err, errb.String())
		}
		rundirtest.Same(t, want, rundirtest.Read(t, dir, false), "two NATS workers")
	})

	t.Run("eval", func(t *testing.T) {
		var first string
		for _, w := range []string{"1", "2"} {
			code, out, errs := run(t, "eval", "chess", "--engines", cfg, "--player", "uci:dev@nodes=30", "--vs", "uci:dev",
				"--rule", "random-plies=8", "--rule", "max-moves=30", "--games", "1000", "--seed", "9", "--workers", w, "--json")
			var rep struct {
				Matches []struct {
					Games int   `json:"games"`
					Pairs []int `json:"pentanomial"`
				} `json:"matches"`
			}
			if err := json.Unmarshal([]byte(out), &rep); code != ExitOK || err != nil || len(rep.Matches) != 1 || rep.Matches[0].Games != 1000 {
				t.Fatalf("eval --json at %s workers: exit %d, %v:\n%s%s", w, code, err, out, errs)
			}
			got := fmt.Sprint(rep.Matches[0].Pairs)
			if first == "" {
				first = got
				t.Logf("eval pentanomial %s", got)
			} else if got != first {
				t.Errorf("eval pentanomial at 2 workers %s, at 1 %s", got, first)
			}
		}
	})
}

// TestRealEnginesReplayARun: a run of 50 games of Debian's Stockfish
// 15.1 at 1,000 nodes, and one of Toga II 3.0 at depth 3, each tuning a
// knob against the engine at its defaults, writes the same files at 1
// and 2 workers, every game's PGN among them (record: 1): moves, scores,
// depths and Stockfish's node counts byte for byte. Toga's node counts
// vary by one in about one game in 25 with how busy the machine is (its
// moves, scores and depths do not), so its PGNs are compared without
// them.
func TestRealEnginesReplayARun(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real engines")
	}
	if raceDetector {
		t.Skip("-race: 100 games of real engines; .ci/run plays them without it")
	}
	withoutNodes := regexp.MustCompile(` [0-9]+N}`)
	for _, tc := range []struct {
		name, engine, options, limit, knob string
		nodes                              bool
	}{
		{"stockfish at 1000 nodes", "stockfish", "{Threads: 1, Hash: 16}", "{nodes: 1000}", "Use NNUE: {}", true},
		{"toga at depth 3", "toga2", "{OwnBook: false, Hash: 16}", "{depth: 3}", "King Safety: {min: 0, max: 400}", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := uciEngine(t, tc.engine)
			cfg := writeConfig(t, fmt.Sprintf(`name: %[1]s-replay
seed: 17
game: chess
rules: {random-plies: 8, max-moves: 120}
engines:
  dev: {command: [%[2]s], options: %[3]s, limit: %[4]s}
  base: {command: [%[2]s], options: %[3]s, limit: %[4]s}
player: uci:dev
space: {%[5]s}
fitness:
  baselines: {opponents: ["uci:base"], games: 10}
evolution: {population: 5, generations: 1, hall-of-fame: 1}
remeasure: off
record: 1
`, tc.engine, bin, tc.options, tc.limit, tc.knob))
			var runs [2]map[string][]byte
			for i, w := range []string{"1", "2"} {
				dir := filepath.Join(t.TempDir(), "run")
				mustRun(t, "run", cfg, "--out", dir, "--quiet", "--workers", w)
				runs[i] = rundirtest.Read(t, dir, false)
				pgn := string(runs[i]["games-0001.pgn"])
				if n := strings.Count(pgn, "[Event "); n != 50 {
					t.Fatalf("%d games recorded at %s workers, want 50", n, w)
				}
				if !tc.nodes {
					runs[i]["games-0001.pgn"] = []byte(withoutNodes.ReplaceAllString(pgn, "}"))
				}
			}
			rundirtest.Same(t, runs[0], runs[1], "1 and 2 workers")
		})
	}
}

// TestEngineConfigRefusals: each bad engine or book of a config is one
// line naming the config's line and key, exit 2, and no run directory:
// nothing is started that could be lost. The nearest right input of
// each is the test's config itself, which runs (TestEngineMatchReplays).
func TestEngineConfigRefusals(t *testing.T) {
	bin := ucitest.Build(t)
	base := fmt.Sprintf(`name: refusals
seed: 3
game: chess
rules: {random-plies: 8, max-moves: 80}
engines:
  dev: {command: [%[1]s], limit: {nodes: 40}}
  base: {command: [%[1]s], options: {Focus: 70}, limit: {nodes: 40}}
player: uci:dev
space: {Focus: {min: 0, max: 100}}
fitness:
  baselines: {opponents: ["uci:base"], games: 8}
evolution: {population: 4, generations: 1}
`, bin)
	dir := t.TempDir()
	book := filepath.Join(dir, "book.epd")
	if err := os.WriteFile(book, []byte("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR a KQkq -\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, old, new, want string }{
		{"missing", "dev: {command: [" + bin + "]", "dev: {command: [" + bin + "-gone]", "config.yaml:6: engines.dev.command: program " + bin + "-gone: "},
		{"not uci", "dev: {command: [" + bin + "]", "dev: {command: [" + bin + ", -not-uci]", "config.yaml:6: engines.dev.command: uci: uci:dev: not a UCI engine: it exited with status 1 before uciok"},
		{"no uciok", "dev: {command: [" + bin + "]", "dev: {command: [" + bin + ", -no-uciok], timeouts: {start: 1s}", "config.yaml:6: engines.dev.command: uci: uci:dev: no uciok within 1s"},
		{"no such option", "options: {Focus: 70}", "options: {Fokus: 70}", "config.yaml:7: engines.base.options: uci: uci:base: option Fokus: the engine has no such option"},
		{"value out of range", "options: {Focus: 70}", "options: {Focus: 101}", "config.yaml:7: engines.base.options: uci: uci:base: option Focus: 101 is outside its range [0, 100]"},
		{"range past the engine's", "Focus: {min: 0, max: 100}", "Focus: {min: 0, max: 101}", "config.yaml:9: space.Focus.max: 101 is above the declared maximum 100"},
		{"book line", "rules: {random-plies: 8,", "rules: {book: book.epd,", "config.yaml:4: rules.book: chess: book " + book + ": line 2: side to move \"a\": want w or b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(base, tc.old) {
				t.Fatalf("the config has no %q", tc.old)
			}
			cfg := filepath.Join(dir, "config.yaml")
			if err := os.WriteFile(cfg, []byte(strings.Replace(base, tc.old, tc.new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "run")
			code, _, errs := run(t, "run", cfg, "--out", out, "--quiet")
			if code != ExitUsage || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, said %q; want exit 2 and one line with %q", code, errs, tc.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a refused config left its run directory (stat: %v)", err)
			}
		})
	}
}

// TestTogaIgnoredLimitRefused: Toga II ignores go nodes; a config that
// gives it a node limit is refused in one line that says so and what to
// give it instead, exit 2.
func TestTogaIgnoredLimitRefused(t *testing.T) {
	bin := uciEngine(t, "toga2")
	cfg := writeConfig(t, fmt.Sprintf(`name: toga-nodes
game: chess
engines:
  dev: {command: [%s], options: {OwnBook: false}, limit: {nodes: 1000}}
player: uci:dev
space: {King Safety: {min: 0, max: 400}}
fitness:
  hall-of-fame: {members: 2, games: 4}
evolution: {population: 4, generations: 1}
`, bin))
	code, _, errs := run(t, "run", cfg, "--out", filepath.Join(t.TempDir(), "run"), "--quiet")
	if code != ExitUsage || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "engines.dev.limit: uci: uci:dev ignores go nodes 1000") ||
		!strings.Contains(errs, "give it a depth or movetime limit instead") {
		t.Errorf("exit %d, said %q", code, errs)
	}
}

// TestCompareEngineRuns: compare plays the recommended bests of two runs
// of a UCI engine, starting the engines each run played; an engine whose
// binary changed since its run is refused, naming it, where before
// compare failed every game ("described from a run's record and is not
// started").
func TestCompareEngineRuns(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "tinyuci")
	data, err := os.ReadFile(ucitest.Build(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, seed := range []string{"1", "2"} {
		cfg := writeConfig(t, fmt.Sprintf(`name: cmp
seed: %s
game: chess
rules: {random-plies: 8, max-moves: 40}
engines:
  dev: {command: [%s], limit: {nodes: 20}}
player: uci:dev
space: {Focus: {min: 0, max: 100}}
fitness:
  hall-of-fame: {members: 2, games: 4}
evolution: {population: 4, generations: 2, hall-of-fame: 2}
remeasure: {games: 4, top: 2}
`, seed, bin))
		dir := filepath.Join(t.TempDir(), "run")
		mustRun(t, "run", cfg, "--out", dir, "--quiet")
		dirs = append(dirs, dir)
	}
	code, out, errs := run(t, "compare", dirs[0], dirs[1], "--games", "10", "--json")
	var cmp struct {
		HeadToHead []struct {
			Pentanomial []int `json:"pentanomial"`
		} `json:"head_to_head"`
	}
	if err := json.Unmarshal([]byte(out), &cmp); code != ExitOK || err != nil || len(cmp.HeadToHead) != 1 {
		t.Fatalf("compare of two engine runs: exit %d, %v:\n%s%s", code, err, out, errs)
	}
	if p := cmp.HeadToHead[0].Pentanomial; p[0]+p[1]+p[2]+p[3]+p[4] != 5 {
		t.Errorf("compare's head to head: pentanomial %v, want 5 pairs", p)
	}
	if err := os.WriteFile(bin, append(data, 0), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, errs = run(t, "compare", dirs[0], dirs[1], "--games", "10")
	if code == ExitOK || !strings.Contains(errs, "engine dev is not the build the run played") || strings.Count(errs, "\n") != 1 {
		t.Errorf("compare with the engine's binary changed: exit %d, said %q", code, errs)
	}
}

// TestReplayKeptGame: every game a run kept replays with one command,
// byte for byte, a crashed one included; a game whose seed was changed
// does not (exit 1, saying where it first differs); a game number past
// the file's, and a file of games no run kept, are refused (exit 2).
func TestReplayKeptGame(t *testing.T) {
	bin := ucitest.Build(t)
	cfg := writeConfig(t, fmt.Sprintf(`name: replay
seed: 3
game: chess
rules: {random-plies: 6, max-moves: 40}
engines:
  dev: {command: [%[1]s], limit: {nodes: 20}}
  base: {command: [%[1]s], options: {Focus: 70, "Crash Ply": 12, "Fault Every": 3}, limit: {nodes: 20}}
player: uci:dev
space: {Focus: {min: 0, max: 100}}
fitness:
  baselines: {opponents: ["uci:base"], games: 4}
evolution: {population: 3, generations: 1, hall-of-fame: 1, elitism: 1, tournament-size: 2}
remeasure: off
record: 1
`, bin))
	dir := filepath.Join(t.TempDir(), "run")
	mustRun(t, "run", cfg, "--out", dir, "--quiet")
	file := filepath.Join(dir, "games-0001.pgn")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(string(data), "[Event ")
	crashes := strings.Count(string(data), "crash")
	if n != 12 || crashes == 0 {
		t.Fatalf("%d games kept, %d crashes: want 12 and some crashes", n, crashes)
	}
	for i := 1; i <= n; i++ {
		code, out, errs := run(t, "replay", file, "--game", strconv.Itoa(i))
		if code != ExitOK || !strings.Contains(out, "replayed: the same game") {
			t.Errorf("game %d: exit %d:\n%s%s", i, code, out, errs)
		}
	}
	forged := filepath.Join(dir, "forged.pgn")
	seed := regexp.MustCompile(`\[Seed "[0-9]+"\]`).FindString(string(data))
	if err := os.WriteFile(forged, []byte(strings.Replace(string(data), seed, `[Seed "12345"]`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := run(t, "replay", forged); code != ExitFailure || !strings.Contains(out, "not replayed: the game differs from game 1") {
		t.Errorf("a game with another seed: exit %d:\n%s", code, out)
	}
	if code, _, errs := run(t, "replay", file, "--game", strconv.Itoa(n+1)); code != ExitUsage || !strings.Contains(errs, fmt.Sprintf("holds %d games", n)) {
		t.Errorf("--game past the file's: exit %d: %s", code, errs)
	}
	noSeed := filepath.Join(dir, "other.pgn")
	if err := os.WriteFile(noSeed, []byte(regexp.MustCompile(`\[Seed "[0-9]+"\]\n`).ReplaceAllString(string(data), "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, "replay", noSeed); code != ExitUsage || !strings.Contains(errs, "not a game a run kept") {
		t.Errorf("a game without its seed: exit %d: %s", code, errs)
	}
}

// TestEngineAudit: audit: replays a share of an engine run's games and
// stops the run, naming the game, when one does not replay: Stockfish at
// Skill Level 5 draws its weaker moves from the clock. The fixture,
// deterministic at its node limit, passes an audit of every game (the
// nearest run that must not stop).
func TestEngineAudit(t *testing.T) {
	sf := uciEngine(t, "stockfish")
	fixture := ucitest.Build(t)
	for _, tc := range []struct {
		name, command, options, limit, space string
		stops                                bool
	}{
		{"stockfish at skill level 5", sf, `{Threads: 1, Hash: 16, "Skill Level": 5}`, "1000", "Slow Mover: {min: 10, max: 1000}", true},
		{"the fixture", fixture, "{}", "20", "Focus: {min: 0, max: 100}", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeConfig(t, fmt.Sprintf(`name: audit
game: chess
rules: {random-plies: 8, max-moves: 40}
engines:
  dev: {command: [%[1]s], options: %[2]s, limit: {nodes: %[3]s}}
  base: {command: [%[1]s], options: %[2]s, limit: {nodes: %[3]s}}
player: uci:dev
space: {%[4]s}
fitness:
  baselines: {opponents: ["uci:base"], games: 8}
evolution: {population: 3, generations: 1, hall-of-fame: 1, elitism: 1, tournament-size: 2}
remeasure: off
audit: 1
`, tc.command, tc.options, tc.limit, tc.space))
			code, _, errs := run(t, "run", cfg, "--out", filepath.Join(t.TempDir(), "run"), "--quiet")
			if tc.stops {
				if code != ExitFailure || !strings.Contains(errs, "audit: the game of seed") || !strings.Contains(errs, "did not replay") {
					t.Errorf("exit %d: %s", code, errs)
				}
				t.Log(errs)
			} else if code != ExitOK {
				t.Errorf("a deterministic engine audited: exit %d: %s", code, errs)
			}
		})
	}
}

// TestNoEngineOutlivesEvotune: every engine process a run starts is gone
// once evotune has exited, however it exits: a finished run, a Ctrl-C, a
// SIGTERM, a kill -9 (the engines die with it: Pdeathsig), and a run an
// engine that keeps crashing stops. The engine is the fixture behind a
// script that records its pid and execs it.
func TestNoEngineOutlivesEvotune(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	bin := ucitest.Build(t)
	tests := []struct {
		name   string
		signal os.Signal
		base   string // uci:base's options
		exit   ExitCode
	}{
		{"finished", nil, "Focus: 70", ExitOK}, // 2 generations; the others have 30
		{"ctrl-c", os.Interrupt, "Focus: 70", ExitInterrupted},
		{"sigterm", syscall.SIGTERM, "Focus: 70", ExitInterrupted},
		{"kill -9", syscall.SIGKILL, "Focus: 70", -1},
		// An engine that hangs reads no input: it does not see evotune's
		// end on its pipe; only the kernel's Pdeathsig ends it.
		{"kill -9 while an engine hangs", syscall.SIGKILL, `"Hang Ply": 1`, -1},
		{"keeps crashing", nil, `"Crash Ply": 1`, ExitFailure},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			pids := filepath.Join(dir, "pids")
			if err := os.Mkdir(pids, 0o755); err != nil {
				t.Fatal(err)
			}
			script := filepath.Join(dir, "engine.sh")
			if err := os.WriteFile(script, []byte("#!/bin/sh\necho > "+pids+"/$$\nexec "+bin+" \"$@\"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			cfg := writeConfig(t, fmt.Sprintf(`name: outlive
game: chess
rules: {random-plies: 6, max-moves: 40}
engines:
  dev: {command: [%[1]s], limit: {nodes: 20}}
  base: {command: [%[1]s], options: {%[2]s}, limit: {nodes: 20}}
player: uci:dev
space: {Focus: {min: 0, max: 100}}
fitness:
  baselines: {opponents: ["uci:base"], games: 20}
evolution: {population: 4, generations: %[3]d}
remeasure: off
`, script, tc.base, map[bool]int{true: 2, false: 30}[tc.name == "finished"]))
			run := filepath.Join(dir, "run")
			cmd := evotune("run", cfg, "--out", run, "--quiet", "--workers", "2")
			stderr := &proctest.Buffer{}
			cmd.Stderr = stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			switch {
			case strings.Contains(tc.base, "Hang"):
				proctest.WaitFor(t, "the engines' start", func() bool { n, _ := os.ReadDir(pids); return len(n) >= 2 })
				time.Sleep(time.Second) // into the first games, a move of uci:base hanging
				_ = cmd.Process.Signal(tc.signal)
			case tc.signal != nil:
				waitForCheckpoint(t, run, 1)
				_ = cmd.Process.Signal(tc.signal)
			}
			err := waitOrKill(t, cmd)
			code := 0
			var exitErr *exec.ExitError
			if errors.As(err, &exitErr) {
				code = exitErr.ExitCode()
			}
			if code != int(tc.exit) || strings.Contains(stderr.String(), "goroutine ") {
				t.Fatalf("exit %d, want %d:\n%s", code, tc.exit, stderr.String())
			}
			if n, _ := os.ReadDir(pids); len(n) < 2 {
				t.Fatalf("%d engine pids recorded: the engines did not start", len(n))
			}
			// The kernel kills a dead parent's children (Pdeathsig) as it
			// reaps it: wait for that, boundedly.
			proctest.WaitFor(t, "the engines' exit", func() bool { return len(alive(t, pids)) == 0 })
		})
	}
}

// TestOthersRunsStartNoEngine: replay, compare and --engines RUN_DIR
// start the engines a run recorded only from a run directory that is the
// user's own and that no one else may write: another local user's run
// (chowned to nobody, as root can), or the user's own made
// group-writable, is refused in one line before any engine starts; the
// user's own, mode 755, is played (the nearest input that must pass).
func TestOthersRunsStartNoEngine(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("chowning a run to another user needs root")
	}
	bin := ucitest.Build(t)
	cfg := writeConfig(t, fmt.Sprintf(`name: others
seed: 3
game: chess
rules: {random-plies: 6, max-moves: 30}
engines:
  dev: {command: [%s], limit: {nodes: 20}}
player: uci:dev
space: {Focus: {min: 0, max: 100}}
fitness:
  hall-of-fame: {members: 2, games: 4}
evolution: {population: 4, generations: 2, hall-of-fame: 2}
remeasure: {games: 4, top: 2}
record: 1
`, bin))
	own := filepath.Join(t.TempDir(), "run")
	mustRun(t, "run", cfg, "--out", own, "--quiet")
	if err := os.Chmod(filepath.Dir(own), 0o755); err != nil {
		t.Fatal(err)
	}
	commands := func(dir string) [][]string {
		return [][]string{
			{"replay", filepath.Join(dir, "games-0002.pgn")},
			{"compare", dir, own, "--games", "4"},
			{"eval", "chess", "--engines", dir, "--player", "uci:dev", "--vs", "uci:dev", "--games", "2"},
		}
	}
	for _, args := range commands(own) {
		if code, _, errs := run(t, args...); code != ExitOK {
			t.Fatalf("%s on the user's own run: exit %d: %s", args[0], code, errs)
		}
	}
	copyRun := func(t *testing.T) string {
		dir := filepath.Join(t.TempDir(), "run")
		if err := os.CopyFS(dir, os.DirFS(own)); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	for _, tc := range []struct {
		name, want string
		edit       func(dir string) error
	}{
		{"another user's", "belongs to another user (uid 65534)", func(dir string) error {
			return filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				return os.Lchown(p, 65534, 65534)
			})
		}},
		{"the user's, group-writable", "may be written by others", func(dir string) error { return os.Chmod(dir, 0o775) }},
		{"its checkpoint world-writable", "may be written by others", func(dir string) error {
			return os.Chmod(filepath.Join(dir, rundir.CheckpointFile), 0o646)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyRun(t)
			if err := tc.edit(dir); err != nil {
				t.Fatal(err)
			}
			for _, args := range commands(dir) {
				code, _, errs := run(t, args...)
				if code == ExitOK || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
					t.Errorf("%s: exit %d, said %q; want a refusal saying %q", args[0], code, errs, tc.want)
				}
			}
		})
	}
}

// TestValidateSaysWhetherEnginesReplay: validate and run.log say, per
// engine, whether its games replay: at a node limit they do; under a
// clock they cannot, and the line says why and what the journal still
// keeps.
func TestValidateSaysWhetherEnginesReplay(t *testing.T) {
	bin := ucitest.Build(t)
	for _, tc := range []struct{ limit, want string }{
		{"{nodes: 20}", "engine uci:dev: tinyuci at nodes=20; its games replay move for move"},
		{`{tc: "5+0.1"}`, "engine uci:dev: tinyuci at tc=5+0.1; uci:dev plays at tc=5+0.1: its moves depend on time, so its games cannot replay; finished games are kept by the journal"},
	} {
		cfg := writeConfig(t, fmt.Sprintf(`name: replays
game: chess
rules: {random-plies: 6, max-moves: 10}
engines:
  dev: {command: [%s], limit: %s}
player: uci:dev
space: {Focus: {min: 0, max: 100}}
fitness:
  hall-of-fame: {members: 2, games: 2}
evolution: {population: 3, generations: 2, hall-of-fame: 2, elitism: 1, tournament-size: 2}
remeasure: off
`, bin, tc.limit))
		code, out, errs := run(t, "validate", cfg)
		if code != ExitOK || !strings.Contains(out, tc.want) {
			t.Errorf("validate at %s: exit %d, want %q:\n%s%s", tc.limit, code, tc.want, out, errs)
		}
		dir := filepath.Join(t.TempDir(), "run")
		mustRun(t, "run", cfg, "--out", dir, "--quiet")
		if log, err := os.ReadFile(filepath.Join(dir, rundir.LogFile)); err != nil || !strings.Contains(string(log), tc.want) {
			t.Errorf("run.log at %s does not say %q (%v):\n%s", tc.limit, tc.want, err, log)
		}
	}
}
