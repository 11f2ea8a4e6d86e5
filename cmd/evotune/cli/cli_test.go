package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/internal/proctest"
)

// run runs evotune in-process and returns its exit code and output. A
// command that stalls (this process idle for proctest.IdleLimit before
// it ends) fails t, naming the command, instead of hanging to the
// binary's deadline.
func run(t testing.TB, args ...string) (code ExitCode, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	done := make(chan ExitCode, 1)
	go func() { done <- dispatch(context.Background(), &env{stdout: &out, stderr: &errb}, args) }()
	code = proctest.AwaitInProcess(t, done, "evotune "+strings.Join(args, " "))
	return code, out.String(), errb.String()
}

func TestEvalIndependentOfWorkers(t *testing.T) {
	args := []string{"eval", "battleship", "--player", "random", "--vs", "random", "--games", "302", "--seed", "11", "--json"}
	code1, out1, err1 := run(t, append(args, "--workers", "1")...)
	code2, out2, err2 := run(t, append(args, "--workers", "2")...)
	if code1 != ExitOK || code2 != ExitOK {
		t.Fatalf("exit %d/%d: %s%s", code1, code2, err1, err2)
	}
	if out1 != out2 {
		t.Fatalf("--workers 1 and 2 differ:\n%s\n%s", out1, out2)
	}
}

func TestEvalJSONFields(t *testing.T) {
	code, out, errs := run(t, "eval", "battleship", "--player", "random", "--vs", "random", "--games", "50", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Players []struct {
			Name  string `json:"name"`
			Shots *struct {
				Mean float64    `json:"mean"`
				CI95 [2]float64 `json:"ci95"`
			} `json:"shots"`
		} `json:"players"`
		Matches []struct {
			A, B                string
			Wins, Draws, Losses int
			Score               float64
			CI95                []float64 `json:"ci95"`
		} `json:"matches"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Players) == 0 || doc.Players[0].Name != "random" || doc.Players[0].Shots == nil ||
		doc.Players[0].Shots.Mean < 17 || doc.Players[0].Shots.CI95[0] >= doc.Players[0].Shots.CI95[1] {
		t.Fatalf("players: %s", out)
	}
	m := doc.Matches[0]
	if m.A != "random" || m.B != "random" || m.Wins+m.Draws+m.Losses != 50 || len(m.CI95) != 2 {
		t.Fatalf("matches: %s", out)
	}
}

func TestBadInputExitsTwoWithOneLine(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	malformed := write("malformed.yaml", "jitter: [\n")
	outOfRange := write("range.yaml", "jitter: 1000\n")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown command", []string{"frobnicate"}, "unknown command"},
		{"unknown game", []string{"eval", "shogi", "--player", "random"}, `unknown game "shogi"`},
		{"unknown player", []string{"eval", "battleship", "--player", "nobody"}, `unknown shooter "nobody"`},
		{"unknown opponent", []string{"eval", "battleship", "--player", "random", "--vs", "nobody"}, `unknown shooter "nobody"`},
		{"unknown placer", []string{"eval", "battleship", "--player", "random", "--placer", "nobody"}, `unknown placer "nobody"`},
		{"unknown solo opponent", []string{"eval", "battleship", "--player", "random", "--opponent", "nobody"}, `unknown placer "nobody"`},
		{"placer and opponent", []string{"eval", "battleship", "--player", "random", "--placer", "random", "--opponent", "random"}, "give one"},
		{"placer of a game without placers", []string{"eval", "hadron", "--player", "random", "--vs", "random", "--placer", "random"}, "--placer: hadron has no placers"},
		{"opponent of a game without solo games", []string{"eval", "mnk", "--player", "random", "--vs", "random", "--opponent", "random"}, "--opponent: mnk has no solo opponent"},
		{"missing tuned file", []string{"eval", "battleship", "--player", "tuned:" + filepath.Join(dir, "nope.yaml")}, "no such file"},
		{"tuned without a file", []string{"eval", "battleship", "--player", "tuned:"}, `"tuned:" names no file after tuned:; want tuned:FILE`},
		{"opponent without a file", []string{"eval", "battleship", "--player", "random", "--opponent", "tuned:"}, `"tuned:" names no file after tuned:`},
		{"a player file without its name", []string{"eval", "battleship", "--player", "runs/x/best.yaml"}, `unknown shooter "runs/x/best.yaml" (known: random, tierlist, mediocre, good, bob, over9000, tuned, posterior, learner); did you mean tuned:runs/x/best.yaml?`},
		{"a placer file without its name", []string{"eval", "battleship", "--player", "random", "--placer", "placers.yaml"}, "did you mean tuned:placers.yaml?"},
		{"a config as a player file", []string{"eval", "battleship", "--player", "tuned:../../../configs/quickstart.yaml"},
			"../../../configs/quickstart.yaml: is a config (it has seeds:, fitness:, evolution:), not a player file; a player file is a run's best.yaml or an export ('evotune export RUN_DIR -o FILE')"},
		{"malformed tuned file", []string{"eval", "battleship", "--player", "tuned:" + malformed}, malformed},
		{"out-of-range parameter", []string{"eval", "battleship", "--player", "tuned:" + outOfRange}, ":1: jitter: 1000 is above the maximum"},
		{"games 0", []string{"eval", "battleship", "--player", "random", "--games", "0"}, "--games must be at least 1"},
		{"games not a number", []string{"eval", "battleship", "--player", "random", "--games", "many"}, "invalid value"},
		{"no player", []string{"eval", "battleship"}, "--player is required"},
		{"no game", []string{"eval", "--player", "random"}, "want exactly one GAME"},
		{"bad rule", []string{"eval", "battleship", "--player", "random", "--rule", "size=99"}, "at most 128 cells"},
		{"unknown rule", []string{"eval", "battleship", "--player", "random", "--rule", "colour=red"}, `unknown option "colour" (want size, width, height, fleet, reveal or placer)`},
		{"rule given twice", []string{"eval", "battleship", "--player", "random", "--rule", "size=10", "--rule", "size=8"}, "--rule: size given twice (size=10, then size=8)"},
		{"rule given twice, once the old way", []string{"perft", "hadron", "--size", "5", "--rule", "size=7", "--depth", "1"}, "size given twice"},
		{"env given twice", []string{"games", "--command", "true", "--env", "A=1", "--env", "A=1"}, "--env: A given twice"},
		{"empty command", []string{"games", "--command", ""}, `invalid value "" for --command: empty`},
		{"blank command", []string{"eval", "--command", " ", "--player", "p"}, "for --command: empty"},
		{"perft without depth", []string{"perft", "battleship"}, "--depth is required"},
		{"perft of battleship", []string{"perft", "battleship", "--depth", "2"}, "no move generator"},
		{"games of unknown", []string{"games", "shogi"}, `unknown game "shogi"`},
		{"odd games head to head", []string{"eval", "battleship", "--player", "random", "--vs", "random", "--games", "3"}, "want an even number"},
		{"run generations 0", []string{"run", "../../../configs/quickstart.yaml", "--generations", "0"}, "--generations 0: want at least 1"},
		{"resume generations 0", []string{"resume", ".", "--generations", "0"}, "--generations 0: want at least 1"},
		{"serve then a word", []string{"run", "../../../configs/quickstart.yaml", "--serve", "garbage"}, "got 2 arguments (../../../configs/quickstart.yaml garbage): --serve takes its ADDR attached, as --serve=ADDR; a word after it is taken as the CONFIG"},
		{"serve then a word, resume", []string{"resume", "--serve", "somewhere", "."}, "--serve takes its ADDR attached, as --serve=ADDR; a word after it is taken as the RUN_DIR"},
		{"export rivals of a plain run", []string{"export", "testdata/no-rivals", "--rivals"}, "no co-evolved rivals"},
		{"hadron size below 3", []string{"perft", "hadron", "--size", "2", "--depth", "3"}, "size 2: must be at least 3"},
		{"hadron depth 0", []string{"perft", "hadron", "--depth", "0"}, "--depth \"0\": want a whole number of at least 1"},
		{"hadron search depth 0", []string{"eval", "hadron", "--player", "aenigma", "--vs", "random", "--rule", "depth=0"}, "depth"},
		{"hadron unknown player", []string{"eval", "hadron", "--player", "nobody", "--vs", "random"}, `unknown player "nobody"`},
		{"hadron without opponents", []string{"eval", "hadron", "--player", "aenigma"}, "name opponents with --vs"},
		{"mnk k too long", []string{"perft", "mnk", "--m", "3", "--n", "3", "--k", "7", "--depth", "2"}, "k 7 exceeds the board 3x3"},
		{"mnk unknown player", []string{"eval", "mnk", "--player", "nobody", "--vs", "random"}, `unknown player "nobody"`},
		{"mnk unknown option", []string{"perft", "mnk", "--size", "3", "--depth", "2"}, `unknown option "size"`},
		{"series not dividing games", []string{"eval", "battleship", "--player", "learner", "--series", "7", "--games", "20"}, "multiple"},
		{"series with opponents", []string{"eval", "battleship", "--player", "learner", "--vs", "random", "--series", "2", "--games", "20"}, "no --vs"},
		{"series negative", []string{"eval", "battleship", "--player", "learner", "--series", "-1"}, "--series -1"},
		{"svg without series", []string{"eval", "battleship", "--player", "learner", "--svg", filepath.Join(dir, "c.svg")}, "give --series"},
		{"series of a game without", []string{"eval", "hadron", "--player", "aenigma", "--series", "2", "--games", "4"}, "no series"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := run(t, tc.args...)
			if code != ExitUsage {
				t.Fatalf("exit %d, want %d; stderr: %s", code, ExitUsage, errs)
			}
			if strings.Contains(errs, "panic") || strings.Contains(errs, "goroutine") {
				t.Fatalf("stack trace on stderr: %s", errs)
			}
			if !strings.Contains(errs, tc.want) {
				t.Fatalf("stderr %q does not mention %q", errs, tc.want)
			}
			if tc.want != "" && !strings.Contains(errs, "invalid value") && strings.Count(strings.TrimSpace(errs), "\n") != 0 {
				t.Fatalf("want one line on stderr, got:\n%s", errs)
			}
		})
	}
}

// TestNoCommandPrintsHelp: evotune alone is a request for help, not a
// mistake: the help that 'evotune help' prints, on stdout, exit 0.
func TestNoCommandPrintsHelp(t *testing.T) {
	_, want, _ := run(t, "help")
	code, out, errs := run(t)
	if code != ExitOK || errs != "" || out != want || !strings.Contains(out, "Available Commands:") {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s\nwant the help of 'evotune help' on stdout, exit 0", code, errs, out)
	}
}

// TestUnknownCommandSuggests: a misspelt command is one line offering the
// nearest commands; a name near none says how to list them.
func TestUnknownCommandSuggests(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"swapped letters", []string{"rnu", "configs/quickstart.yaml"}, `evotune: unknown command "rnu"; did you mean run?`},
		{"a letter missing", []string{"resum", "runs/x"}, `evotune: unknown command "resum"; did you mean resume?`},
		{"a prefix", []string{"exp"}, `evotune: unknown command "exp"; did you mean export?`},
		{"with a flag", []string{"evl", "--games", "10"}, `evotune: unknown command "evl"; did you mean eval?`},
		{"through help", []string{"help", "valdate"}, `evotune help: unknown command "valdate"; did you mean validate?`},
		{"near nothing", []string{"frobnicate"}, `evotune: unknown command "frobnicate"; run 'evotune help'`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, tc.args...)
			if code != ExitUsage || out != "" || errs != tc.want+"\n" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errs, tc.want)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"eval", "--help"}, {"help", "games"}} {
		code, out, errs := run(t, args...)
		if code != ExitOK || !strings.Contains(out+errs, "evotune") {
			t.Fatalf("%v: exit %d, output %q", args, code, out+errs)
		}
	}
}

func TestGamesListsPlayersAndParameters(t *testing.T) {
	code, out, errs := run(t, "games", "battleship")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"random (shooter)", "random (placer)", "reveal", "(opt-in: searched only if space: names it)"} {
		if !strings.Contains(out, want) {
			t.Errorf("games battleship does not list %q:\n%s", want, out)
		}
	}
}

// TestGamesUnderRules: mnk's tuned player has threat knobs only under
// gravity, so `games` lists the knobs of the rules it is given.
func TestGamesUnderRules(t *testing.T) {
	code, out, errs := run(t, "games", "mnk", "--rule", "m=7", "--rule", "n=6", "--rule", "k=4", "--rule", "gravity=true")
	if code != ExitOK || !strings.Contains(out, "x_threat_odd") || !strings.Contains(out, "own_open_3") {
		t.Fatalf("exit %d (%s), want the Connect Four knobs:\n%s", code, errs, out)
	}
	code, out, _ = run(t, "games", "mnk")
	if code != ExitOK || strings.Contains(out, "x_threat_odd") {
		t.Fatalf("exit %d: threat knobs without gravity:\n%s", code, out)
	}
	code, _, errs = run(t, "games", "mnk", "--rule", "gravity=sideways")
	if code != ExitUsage || !strings.Contains(errs, `gravity: "sideways" is not true or false`) {
		t.Fatalf("bad rule: exit %d, stderr %q", code, errs)
	}
}

func TestPerft(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // the last line of output
	}{
		{"hadron 9x9 depth 2", []string{"perft", "hadron", "--depth", "2"}, "perft(2) = 6192"},
		{"hadron 5x5", []string{"perft", "hadron", "--size=5", "--depth", "1"}, "perft(1) = 25"},
		{"tic-tac-toe", []string{"perft", "mnk", "--m", "3", "--n", "3", "--k", "3", "--depth", "9"}, "perft(9) = 127872"},
		{"connect four", []string{"perft", "mnk", "--m", "7", "--n", "6", "--k", "4", "--gravity", "true", "--depth", "8"}, "perft(8) = 5673234"},
		{"seed 003", []string{"perft", "mnk", "--gravity=true", "--depth", "4"}, "perft(4) = 78"}, // a column is full after three chips,
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, tc.args...)
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if code != ExitOK || lines[len(lines)-1] != tc.want {
				t.Fatalf("exit %d, output %q (stderr %q), want last line %q", code, out, errs, tc.want)
			}
		})
	}
	code, out, _ := run(t, "perft", "mnk", "--depth", "2", "--json")
	var doc struct {
		Perft []struct{ Depth, Nodes int }
	}
	if code != ExitOK || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Perft) != 2 || doc.Perft[1].Nodes != 72 {
		t.Fatalf("perft --json: exit %d: %s", code, out)
	}
}

// TestEvalSeries plays learning curves: the JSON has a summary per game of
// the series that agrees with the overall one, the SVG is written, and the
// report does not depend on the worker count.
func TestEvalSeries(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "curve.svg")
	args := []string{"eval", "battleship", "--player", "learner", "--player", "over9000", "--placer", "blockhalf",
		"--games", "120", "--series", "12", "--seed", "4", "--json"}
	code, out, errs := run(t, append(args, "--workers", "1", "--svg", svg)...)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, out2, _ := run(t, append(args, "--workers", "2")...); out2 != out {
		t.Fatalf("--workers 1 and 2 differ:\n%s\n%s", out, out2)
	}
	var doc struct {
		Series, Length int
		Players        []struct {
			Name    string
			Overall struct {
				N    int
				Mean float64
			}
			ByGame []struct {
				N    int
				Mean float64
			} `json:"by_game"`
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Series != 10 || doc.Length != 12 || len(doc.Players) != 2 {
		t.Fatalf("series %d of %d, %d players: %s", doc.Series, doc.Length, len(doc.Players), out)
	}
	for _, p := range doc.Players {
		sum := 0.0
		for _, g := range p.ByGame {
			if g.N != 10 {
				t.Fatalf("%s: %d games at one index, want 10", p.Name, g.N)
			}
			sum += g.Mean
		}
		if len(p.ByGame) != 12 || p.Overall.N != 120 || math.Abs(sum/12-p.Overall.Mean) > 1e-9 {
			t.Fatalf("%s: %d indices, overall %+v, mean of indices %v", p.Name, len(p.ByGame), p.Overall, sum/12)
		}
	}
	data, err := os.ReadFile(svg)
	if err != nil || !strings.HasPrefix(string(data), "<svg") || !strings.Contains(string(data), "learner") {
		t.Fatalf("svg: %v %.80q", err, data)
	}
	// The text table: a header, the overall row and one row per block.
	code, text, errs := run(t, "eval", "battleship", "--player", "learner", "--games", "40", "--series", "20")
	if code != ExitOK || !strings.Contains(text, "2 series of 20 games") || !strings.Contains(text, "\n19-20 ") {
		t.Fatalf("exit %d: %s%s", code, text, errs)
	}
}

// TestEvalTextAndJSONCarryTheSameFigures: the paired differences and the
// pentanomial figures of --json are those the text prints.
func TestEvalTextAndJSONCarryTheSameFigures(t *testing.T) {
	args := []string{"eval", "battleship", "--player", "over9000", "--player", "bob", "--vs", "random", "--games", "200", "--seed", "3"}
	code, text, errs := run(t, args...)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, js, errs := run(t, append(args, "--json")...)
	if code != ExitOK {
		t.Fatalf("--json: exit %d: %s", code, errs)
	}
	var rep struct {
		Differences []struct {
			A, B, Measure string
			Difference    struct {
				Value float64
				CI95  [2]float64
				N     int
			}
		}
		Matches []struct {
			A, B        string
			Score       float64
			CI95        [2]float64
			Pentanomial [5]int
			EloJSON     struct {
				Value float64
				CI95  [2]float64
			} `json:"elo"`
			NormalizedEloJSON struct {
				Value float64
				CI95  [2]float64
			} `json:"normalized_elo"`
		}
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Differences) != 3 || len(rep.Matches) != 2 {
		t.Fatalf("--json: %d differences and %d matches, want 3 (over9000, bob and random) and 2:\n%s", len(rep.Differences), len(rep.Matches), js)
	}
	d := rep.Differences[0]
	want := []string{fmt.Sprintf("  over9000 - bob = %+.3f [%+.3f, %+.3f] shots", d.Difference.Value, d.Difference.CI95[0], d.Difference.CI95[1])}
	for _, m := range rep.Matches {
		want = append(want,
			fmt.Sprintf("  score %.4f [%.4f, %.4f] (higher is better), Elo %+.1f [%+.1f, %+.1f], normalized Elo %+.1f [%+.1f, %+.1f]",
				m.Score, m.CI95[0], m.CI95[1], m.EloJSON.Value, m.EloJSON.CI95[0], m.EloJSON.CI95[1],
				m.NormalizedEloJSON.Value, m.NormalizedEloJSON.CI95[0], m.NormalizedEloJSON.CI95[1]),
			fmt.Sprintf("  pairs scoring 0, 1/2, 1, 3/2, 2: [%d, %d, %d, %d, %d]", m.Pentanomial[0], m.Pentanomial[1], m.Pentanomial[2], m.Pentanomial[3], m.Pentanomial[4]))
	}
	for _, line := range want {
		if !strings.Contains(text, line+"\n") {
			t.Errorf("the text lacks the --json figure line %q:\n%s", line, text)
		}
	}
	if d.Difference.N != 200 || d.Difference.CI95[1] >= 0 {
		t.Errorf("over9000 - bob over 200 deals: %+v (over9000 needs some 11 shots fewer)", d)
	}
}

// TestGamesOfAProgramWithoutRules: a program that declares no rule
// options gets no heading over nothing, and a player or knob without a
// summary no spaces at the end of its line.
func TestGamesOfAProgramWithoutRules(t *testing.T) {
	code, out, errs := run(t, append([]string{"games"}, rawbotFlags()...)...)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out, "Rule options") || !strings.Contains(out, "Solo measure: steps") {
		t.Errorf("games of a program without rule options:\n%s", out)
	}
	checkTableText(t, out) // a player or knob without a summary pads nothing
	if code, out, _ := run(t, "games", "mnk"); code != ExitOK || !strings.Contains(out, "Rule options") {
		t.Errorf("games mnk: exit %d, no rule options:\n%s", code, out)
	}
}
