package external_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/genome"
)

// bot is the test program, built once by TestMain.
var bot string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "extbot")
	if err != nil {
		panic(err)
	}
	bot = filepath.Join(dir, "bot")
	build := exec.Command("go", "build", "-o", bot, "./testdata/bot")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the test bot:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// lockedBuffer collects a program's stderr from several processes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func botCommand(mode string, seed uint64, env ...string) external.Command {
	return external.Command{
		Argv: []string{bot},
		Env:  append([]string{"EXTBOT_MODE=" + mode, "EXTBOT_SEED=" + strconv.FormatUint(seed, 10)}, env...),
	}
}

// openGame describes and opens the program's game with rules opts, and
// closes it when the test ends.
func openGame(t testing.TB, c external.Command, opts map[string]string) fitness.Game {
	t.Helper()
	d, err := external.Describe(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	g, err := d.Info(c).New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fitness.Close(g) })
	return g
}

// open is openGame for the *external.Game of a two-seat or solo game.
func open(t testing.TB, c external.Command, opts map[string]string) *external.Game {
	t.Helper()
	g := openGame(t, c, opts)
	switch g := g.(type) {
	case *external.Game:
		return g
	case *external.SoloGame:
		return g.Game
	}
	t.Fatalf("New returned a %T", g)
	return nil
}

func player(t testing.TB, g fitness.Game, name string, set map[string]any) fitness.Player {
	t.Helper()
	info, ok := fitness.Info(g, g.Roles()[0], name)
	if !ok {
		t.Fatalf("no player %q", name)
	}
	v, err := info.Schema.FromMap(set)
	if err != nil {
		t.Fatal(err)
	}
	p, err := g.NewPlayer(g.Roles()[0], name, v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// matches is a batch of n games between the fixed player and a tuned one,
// seats alternating.
func matches(t testing.TB, g *external.Game, n int) []external.Match {
	a := player(t, g, "biased", map[string]any{"bias": 0.8, "depth": 2, "greedy": false, "style": "wild", "w": []any{0.0, 0.0, -1.0, 0.5}})
	b := player(t, g, "fixed", nil)
	ms := make([]external.Match, n)
	for i := range ms {
		ms[i] = external.Match{A: a, B: b, Seed: fitness.Derive(1, uint64(i))}
		if i%2 == 1 {
			ms[i].A, ms[i].B = b, a
		}
	}
	return ms
}

// reference is the outcomes of a batch played by the well-behaved bot.
func reference(t testing.TB, n int) []fitness.Outcome {
	g := open(t, botCommand("", 0), nil)
	out, err := g.PlayBatch(context.Background(), matches(t, g, n))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDescribe(t *testing.T) {
	d, err := external.Describe(context.Background(), botCommand("", 0))
	if err != nil {
		t.Fatal(err)
	}
	if d.Game != "coin" || d.Solo || !slices.Equal(d.Roles, []string{"mover"}) || len(d.Players) != 2 {
		t.Fatalf("description %+v", d)
	}
	if len(d.Options) != 1 || d.Options[0].Name != "draws" || d.Options[0].Default != "no" {
		t.Fatalf("options %+v", d.Options)
	}
	if ops := d.Info(botCommand("", 0)).Options; len(ops) != 1 || ops[0].Summary != "(no | yes)" {
		t.Fatalf("catalog options %+v, want the choices in the summary", ops)
	}
	p, ok := d.Player("mover", "biased")
	if !ok {
		t.Fatal("no biased player")
	}
	want := []string{"bias float [0, 1] 0.5", "depth int [1, 9] log 3", "greedy bool true|false true",
		"style choice calm|wild calm", "w grid 2x2 full in [-1, 1] 2x2 grid"}
	var got []string
	for i := range p.Schema {
		q := &p.Schema[i]
		got = append(got, fmt.Sprintf("%s %v %s %s", q.Name, q.Kind, q.Range(), q.Format(q.Default)))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("schema\n%q\nwant\n%q", got, want)
	}
	if w := p.Schema[4].Default.Cells; !slices.Equal(w, []float64{0.25, -0.5, 1, 0}) {
		t.Fatalf("grid default %v", w)
	}
}

// The same games give the same outcomes whichever way they are sent: one
// by one, in a pipelined batch, from several goroutines, to a program
// that answers out of order or plays on several goroutines.
func TestOutcomesIndependentOfTransport(t *testing.T) {
	const n = 200
	want := reference(t, n)
	wins := 0
	for _, o := range want {
		if o == fitness.Win {
			wins++
		}
	}
	if wins == 0 || wins == n {
		t.Fatalf("%d wins of %d: the reference is degenerate", wins, n)
	}
	for _, mode := range []string{"reverse", "concurrent"} {
		t.Run(mode, func(t *testing.T) {
			g := open(t, botCommand(mode, 0), nil)
			got, err := g.PlayBatch(context.Background(), matches(t, g, n))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatal("outcomes differ from the reference")
			}
		})
	}
	t.Run("one by one from 4 goroutines", func(t *testing.T) {
		g := open(t, botCommand("", 0), nil)
		ms := matches(t, g, n)
		got, err := fitness.Parallel(context.Background(), n, 4, func(i int) (fitness.Outcome, error) {
			return g.Play(context.Background(), ms[i].A, ms[i].B, ms[i].Seed)
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatal("outcomes differ from the reference")
		}
	})
}

func TestRulesReachTheProgram(t *testing.T) {
	g := open(t, botCommand("", 0), map[string]string{"draws": "yes"})
	out, err := g.PlayBatch(context.Background(), matches(t, g, 200))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(out, fitness.Draw) {
		t.Fatal("no draw in 200 games with draws: yes")
	}
	d, _ := external.Describe(context.Background(), botCommand("", 0))
	for _, opts := range []map[string]string{{"draws": "maybe"}, {"drawz": "yes"}} {
		if _, err := d.Info(botCommand("", 0)).New(opts); err == nil {
			t.Errorf("rules %v accepted", opts)
		}
	}
}

func TestNewPlayerRefusesBadValues(t *testing.T) {
	g := open(t, botCommand("", 0), nil)
	info, _ := fitness.Info(g, fitness.Mover, "biased")
	other := genome.Schema{{Name: "bias", Kind: genome.Float, Min: 0, Max: 5, Default: genome.Value{Num: 4}}}
	tests := []struct {
		name, player string
		vals         genome.Values
		err          string
	}{
		{"unknown player", "nobody", genome.Values{}, `unknown mover "nobody"`},
		{"values of another schema", "biased", other.Defaults(), "fitness: 1 parameters, want 5"},
		{"out of range", "biased", mustWith(t, other.Defaults(), info.Schema), "outside [0, 1]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := g.NewPlayer(fitness.Mover, tc.player, tc.vals)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("err = %v, want %q", err, tc.err)
			}
		})
	}
}

// mustWith builds values of schema s whose bias is out of range, by
// bypassing the schema's check with a wider one of the same shape.
func mustWith(t testing.TB, _ genome.Values, s genome.Schema) genome.Values {
	wide := slices.Clone(s)
	wide[0].Max = 5
	v, err := wide.Defaults().With("bias", genome.Value{Num: 4})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestFailingPrograms(t *testing.T) {
	const n = 40
	want := reference(t, n)
	seed := fitness.Derive(1, 17) // the seed of game 17
	tests := []struct {
		name     string
		mode     string
		retries  int
		attempts int
		err      string // in the message
		tail     string // in the stderr tail
	}{
		{"crash", "crash", 0, 3, "program closed its stdout; it exited with status 3", "crashing on purpose on seed"},
		{"crash, no retries", "crash", -1, 1, "exited with status 3", "crashing on purpose"},
		{"hang", "hang", 1, 2, "no reply within 2s", "hanging on purpose"},
		{"garbage", "garbage", 0, 3, `garbage on stdout`, ""},
		{"over-long line", "long", 0, 3, "line too long (over 65536 bytes)", ""},
		{"error reply", "refuse", 0, 1, "the program answered: cannot play seed", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var log lockedBuffer
			c := botCommand(tc.mode, seed)
			// 2 s, not less: a game that answers must not be taken for
			// hung however busy the machine, and it costs the hang case
			// 4 s.
			c.Retries, c.Timeout, c.Stderr = tc.retries, 2*time.Second, &log
			g := open(t, c, nil)
			_, err := g.PlayBatch(context.Background(), matches(t, g, n))
			var ge *external.GameError
			if !errors.As(err, &ge) {
				t.Fatalf("err = %v, want a *GameError", err)
			}
			if ge.Seed != seed || !strings.Contains(ge.Request, `"seed":"`+strconv.FormatUint(seed, 10)+`"`) {
				t.Errorf("error names seed %d and request %s, want seed %d", ge.Seed, ge.Request, seed)
			}
			if ge.Attempts != tc.attempts {
				t.Errorf("%d attempts, want %d", ge.Attempts, tc.attempts)
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.err) || !strings.Contains(msg, "request: {") {
				t.Errorf("message %q, want %q and the request", msg, tc.err)
			}
			if tc.tail != "" && !strings.Contains(strings.Join(ge.StderrTail, "\n"), tc.tail) {
				t.Errorf("stderr tail %q, want %q", ge.StderrTail, tc.tail)
			}
			if tc.tail != "" && !strings.Contains(log.String(), tc.tail) {
				t.Errorf("stderr not forwarded: %q", log.String())
			}
		})
	}
	// Whichever failure comes first in time, the batch reports its first
	// failing game in batch order.
	for _, order := range [][2]int{{5, 17}, {17, 5}} {
		t.Run(fmt.Sprintf("refused game %d, crash on game %d", order[0], order[1]), func(t *testing.T) {
			refused, crash := fitness.Derive(1, uint64(order[0])), fitness.Derive(1, uint64(order[1]))
			c := botCommand("crash", crash, "EXTBOT_REFUSE="+strconv.FormatUint(refused, 10))
			g := open(t, c, nil)
			_, err := g.PlayBatch(context.Background(), matches(t, g, n))
			var ge *external.GameError
			if !errors.As(err, &ge) {
				t.Fatalf("err = %v, want a *GameError", err)
			}
			want := min(order[0], order[1])
			if ge.Seed != fitness.Derive(1, uint64(want)) || !strings.HasPrefix(err.Error(), fmt.Sprintf("game seed %d: external: ", ge.Seed)) {
				t.Fatalf("error %q, want game %d's", err, want)
			}
		})
	}
	t.Run("crash once, replayed", func(t *testing.T) {
		var log lockedBuffer
		c := botCommand("crash-once", seed, "EXTBOT_MARK="+filepath.Join(t.TempDir(), "mark"))
		c.Stderr = &log
		g := open(t, c, nil)
		got, err := g.PlayBatch(context.Background(), matches(t, g, n))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatal("outcomes after the restart differ from the reference")
		}
		if !regexp.MustCompile(`(?m)^\[pid \d+\] bot: crashing once$`).MatchString(log.String()) ||
			!regexp.MustCompile(`(?m)^\[evotune\] pid \d+: process failed: program closed its stdout; it exited with status 3; \d+ games? to replay$`).MatchString(log.String()) {
			t.Fatalf("stderr %q", log.String())
		}
	})
}

// The timeout bounds the silence between replies, not the wait of each
// request: a batch of slow games, queued behind each other for longer
// than the timeout, is not a hang.
func TestTimeoutIsBetweenReplies(t *testing.T) {
	const n = 120 // 20 ms each: 2.4 s in all, more than twice the timeout
	want := reference(t, n)
	var log lockedBuffer
	c := botCommand("slow", 0)
	// A second between replies of games of 20 ms: fifty times what one
	// takes, so a busy machine does not make one look hung.
	c.Timeout, c.Stderr = time.Second, &log
	g := open(t, c, nil)
	start := time.Now()
	got, err := g.PlayBatch(context.Background(), matches(t, g, n))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatal("outcomes differ from the reference")
	}
	if time.Since(start) < 2*c.Timeout {
		t.Fatalf("the batch took %v: too fast to tell", time.Since(start))
	}
	if strings.Contains(log.String(), "process failed") {
		t.Fatalf("a process was taken for hung:\n%s", log.String())
	}
}

// A program that crashes now and then, on no game in particular (1% of
// games, wherever its process's dice say), costs restarts and replays
// but changes no result.
func TestFlakyProgramGivesTheSameResults(t *testing.T) {
	const n = 2000
	want := reference(t, n)
	var log lockedBuffer
	c := botCommand("flaky", 0)
	// Four retries: a game's five lone tries all crashing (1e-10) must
	// not fail the test.
	c.Stderr, c.Retries = &log, 4
	g := open(t, c, nil)
	ms := matches(t, g, n)
	got, err := fitness.PlayMatches(context.Background(), g, ms, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatal("outcomes differ from the reference")
	}
	if crashes := strings.Count(log.String(), "bot: flaky crash"); crashes < 5 {
		t.Fatalf("%d crashes in %d games: the test tested nothing", crashes, n)
	} else {
		t.Logf("%d crashes, %d restarts", crashes, strings.Count(log.String(), "process failed"))
	}
}

func writeScript(t testing.TB, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "prog.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// helloScript answers the hello with one line and then echoes nothing.
func helloScript(t testing.TB, hello string) string {
	return writeScript(t, "read line\nprintf '%s\\n' '"+hello+"'\nsleep 5")
}

const goodPlayers = `"players":[{"name":"p","role":"mover","params":[%s]}]`

func hello(params string) string {
	return `{"type":"hello","protocol":1,"game":"g","mode":"two-seat","roles":["mover"],"options":[],` + fmt.Sprintf(goodPlayers, params) + `}`
}

func TestSetupErrors(t *testing.T) {
	tests := []struct {
		name string
		argv func(t testing.TB) []string
		err  string
	}{
		{"missing command", func(testing.TB) []string { return []string{"no-such-program-evotune"} }, `program "no-such-program-evotune" not found in PATH`},
		{"missing file", func(testing.TB) []string { return []string{"./nowhere/bot"} }, "no such file"},
		{"empty command", func(testing.TB) []string { return nil }, "empty command"},
		{"exits at once", func(t testing.TB) []string { return []string{writeScript(t, "echo 'cannot load model' >&2; exit 4")} },
			"handshake: no hello: program closed its stdout (exited with status 4)\n  last stderr lines:\n    cannot load model"},
		{"not json", func(t testing.TB) []string { return []string{helloScript(t, "hello there")} }, "not a JSON object"},
		{"other protocol", func(t testing.TB) []string {
			return []string{helloScript(t, strings.Replace(hello(""), `"protocol":1`, `"protocol":2`, 1))}
		}, "speaks protocol 2; evotune speaks 1"},
		{"refusal", func(t testing.TB) []string { return []string{helloScript(t, `{"type":"error","error":"no GPU"}`)} }, "the program refused: no GPU"},
		{"silent", func(t testing.TB) []string { return []string{writeScript(t, "sleep 5")} }, "no hello within 300ms"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := external.Describe(context.Background(), external.Command{Argv: tc.argv(t), Startup: 300 * time.Millisecond})
			var se *external.SetupError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("err = %v, want a *SetupError with %q", err, tc.err)
			}
		})
	}
}

// TestFloodingStderrIsBounded: a program's stderr filled run.log without
// bound. A process's first lines go to the log, then one line says the
// rest is dropped and, as it ends, how much was; the error still quotes
// its last lines.
func TestFloodingStderrIsBounded(t *testing.T) {
	var log lockedBuffer
	script := writeScript(t, "yes 'flood flood flood' | head -n 5000 >&2; echo 'the last words' >&2; exit 3")
	_, err := external.Describe(context.Background(), external.Command{Argv: []string{script}, Stderr: &log})
	var se *external.SetupError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want a *SetupError", err)
	}
	if n := len(se.StderrTail); n == 0 || se.StderrTail[n-1] != "the last words" {
		t.Fatalf("stderr tail %q, want it to end with the last words", se.StderrTail)
	}
	got := log.String()
	if n := strings.Count(got, "] flood flood flood\n"); n != 1000 {
		t.Errorf("%d lines of the flood in the log, want the first 1000", n)
	}
	for _, want := range []string{"] stderr: more than 1000 lines or 256 KiB from this process; the rest is dropped", "] stderr: 4001 lines (68014 bytes) dropped\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the log does not say %q:\n%.300s...", want, got[max(0, len(got)-300):])
		}
	}
}

func TestInvalidSchema(t *testing.T) {
	tests := []struct {
		name, params, err string
	}{
		{"min above max", `{"name":"x","type":"float","min":2,"max":1,"default":1}`, `player "p", parameter "x": x: bad range [2, 1]`},
		{"default outside", `{"name":"x","type":"int","min":1,"max":5,"default":9}`, `parameter "x": default: x: 9 is outside [1, 5]`},
		{"unknown type", `{"name":"x","type":"complex","default":1}`, `parameter "x": type: unknown kind "complex"`},
		{"log of zero", `{"name":"x","type":"float","min":0,"max":1,"log":true,"default":0.5}`, "log scale needs min > 0"},
		{"no default", `{"name":"x","type":"bool"}`, `parameter "x": no default`},
		{"no range", `{"name":"x","type":"float","default":1}`, "needs min and max"},
		{"empty choice", `{"name":"x","type":"choice","choices":[],"default":"a"}`, "choice with no choices"},
		{"grid cells", `{"name":"x","type":"grid","rows":2,"cols":2,"min":0,"max":1,"default":[0,1]}`, "2 cells, want 2x2"},
		{"grid symmetry", `{"name":"x","type":"grid","rows":2,"cols":2,"min":0,"max":1,"symmetry":"star","default":[0,1,0,1]}`, `unknown symmetry "star"`},
		{"duplicate", `{"name":"x","type":"bool","default":true},{"name":"x","type":"bool","default":false}`, "listed twice"},
		{"bad name", `{"name":"a b","type":"bool","default":true}`, `bad name "a b"`},
		{"a grid default breaking its symmetry", `{"name":"x","type":"grid","rows":2,"cols":2,"min":0,"max":1,"symmetry":"ring","default":[[0,1],[1,0.5]]}`,
			`parameter "x": default: x: cells 0 and 1 hold 0 and 1, which its ring symmetry ties together`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := external.Describe(context.Background(), external.Command{Argv: []string{helloScript(t, hello(tc.params))}})
			var se *external.SetupError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("err = %v, want a *SetupError with %q", err, tc.err)
			}
		})
	}
	t.Run("valid", func(t *testing.T) {
		d, err := external.Describe(context.Background(), external.Command{Argv: []string{helloScript(t,
			hello(`{"name":"x","type":"grid","rows":3,"cols":3,"min":0,"max":1,"symmetry":"ring","default":[[1,1,1],[1,0.5,1],[1,1,1]]}`))}})
		if err != nil {
			t.Fatal(err)
		}
		if c := d.Players[0].Schema[0].Default.Cells; !slices.Equal(c, []float64{1, 1, 1, 1, 0.5, 1, 1, 1, 1}) {
			t.Fatalf("grid default %v", c)
		}
	})
}

func TestAuditFindsNondeterminism(t *testing.T) {
	for _, tc := range []struct {
		mode  string
		audit float64
		bad   bool
	}{
		{"", 1, false},
		{"nondet", 0.25, true},
		{"nondet", 0, false}, // no audit, no alarm
	} {
		t.Run(fmt.Sprintf("%s audit %v", tc.mode, tc.audit), func(t *testing.T) {
			c := botCommand(tc.mode, 0)
			c.Audit = tc.audit
			g := open(t, c, nil)
			_, err := g.PlayBatch(context.Background(), matches(t, g, 100))
			var ne *external.NondeterminismError
			if got := errors.As(err, &ne); got != tc.bad {
				t.Fatalf("err = %v, want nondeterminism %v", err, tc.bad)
			}
			if tc.bad && !regexp.MustCompile(`^game seed \d+: external: not deterministic in seed: the game gave (win|loss), then (win|loss) on replay`).MatchString(err.Error()) {
				t.Fatalf("message %q", err)
			}
		})
	}
}

// children lists the live processes whose parent is this test.
func children(t testing.TB) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc")
	}
	var out []int
	me := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so cut at ')'.
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if ppid, _ := strconv.Atoi(f[1]); ppid == me {
			out = append(out, pid)
		}
	}
	return out
}

func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return f[0] != "Z" && f[0] != "X"
}

func TestCloseLeavesNoProcess(t *testing.T) {
	before := children(t)
	var log lockedBuffer
	c := botCommand("grandchild", 0)
	c.Stderr = &log
	g := open(t, c, nil)
	described := len(log.String()) // the lines of Describe's process, gone already
	ms := matches(t, g, 64)
	// Four callers at once: four processes, each with a grandchild.
	_, err := fitness.Parallel(context.Background(), 4, 4, func(i int) (int, error) {
		_, err := g.PlayBatch(context.Background(), ms[i*16:(i+1)*16])
		return 0, err
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, m := range regexp.MustCompile(`\[pid (\d+)\] grandchild (\d+)`).FindAllStringSubmatch(log.String()[described:], -1) {
		for _, s := range m[1:] {
			pid, _ := strconv.Atoi(s)
			pids = append(pids, pid)
		}
	}
	if len(pids) < 2 {
		t.Fatalf("no processes seen: %q", log.String())
	}
	for _, pid := range pids {
		if !alive(pid) {
			t.Fatalf("process %d died before Close", pid)
		}
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("process %d alive after Close", pid)
		}
	}
	if after := children(t); len(after) > len(before) {
		t.Errorf("children before %v, after Close %v: zombies or survivors", before, after)
	}
	if _, err := g.Play(context.Background(), ms[0].A, ms[0].B, 1); !errors.Is(err, external.ErrClosed) {
		t.Errorf("Play after Close: %v", err)
	}
}

func TestSolo(t *testing.T) {
	gg := openGame(t, botCommand("solo", 0), nil)
	g, ok := gg.(*external.SoloGame)
	if !ok {
		t.Fatalf("New returned a %T, want a *SoloGame", gg)
	}
	if s := g.Solo(); s.Measure != "flips" || !s.Only || s.Opponent != "" {
		t.Fatalf("solo %+v", s)
	}
	if _, err := g.Play(context.Background(), nil, nil, 1); !errors.Is(err, fitness.ErrNoHeadToHead) {
		t.Fatalf("Play of a solo game: %v", err)
	}
	p := player(t, g, "biased", map[string]any{"bias": 0.25})
	var ms []external.Match
	for i := range 50 {
		ms = append(ms, external.Match{A: p, Seed: uint64(i)})
	}
	batch, err := g.PlaySoloBatch(context.Background(), ms)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range ms {
		cost, err := g.PlaySolo(context.Background(), m.A, nil, m.Seed)
		if err != nil {
			t.Fatal(err)
		}
		if cost != batch[i] {
			t.Fatalf("game %d: %v alone, %v in a batch", i, cost, batch[i])
		}
	}
	if slices.Min(batch) == slices.Max(batch) {
		t.Fatalf("every cost is %v", batch[0])
	}
}

func TestFileHashes(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "bot.py")
	os.WriteFile(script, []byte("print(1)\n"), 0o644)
	c := external.Command{Argv: []string{"sh", "bot.py", "--fast"}, Dir: dir}
	h1, err := c.FileHashes()
	if err != nil {
		t.Fatal(err)
	}
	if len(h1) != 2 || h1["sh"] == "" || h1["bot.py"] == "" {
		t.Fatalf("hashes %v, want sh and bot.py", h1)
	}
	os.WriteFile(script, []byte("print(2)\n"), 0o644)
	h2, _ := c.FileHashes()
	if h2["bot.py"] == h1["bot.py"] || h2["sh"] != h1["sh"] {
		t.Fatalf("hashes before %v, after editing the script %v", h1, h2)
	}

	// Files lists more: a directory's hash covers every regular file
	// under it, by path and content, and no link.
	lib := filepath.Join(dir, "lib")
	os.MkdirAll(filepath.Join(lib, "deep"), 0o755)
	os.WriteFile(filepath.Join(lib, "deep", "m.py"), []byte("A = 1\n"), 0o644)
	c.Files = []string{"lib"}
	hashes := func() string {
		t.Helper()
		h, err := c.FileHashes()
		if err != nil {
			t.Fatal(err)
		}
		return h["lib"]
	}
	before := hashes()
	os.Symlink("/etc/passwd", filepath.Join(lib, "link"))
	if hashes() != before {
		t.Fatal("a link changed the directory's hash")
	}
	for _, change := range []func(){
		func() { os.WriteFile(filepath.Join(lib, "deep", "m.py"), []byte("A = 2\n"), 0o644) },
		func() { os.Rename(filepath.Join(lib, "deep", "m.py"), filepath.Join(lib, "deep", "n.py")) },
		func() { os.WriteFile(filepath.Join(lib, "new.py"), nil, 0o644) },
	} {
		change()
		if after := hashes(); after == before {
			t.Fatal("an edit under the directory left its hash as it was")
		} else {
			before = after
		}
	}
	syscall.Mkfifo(filepath.Join(lib, "fifo"), 0o644)
	var fe *external.FileError
	if _, err := c.FileHashes(); !errors.As(err, &fe) || fe.Index != 0 || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a FIFO under the directory: %v", err)
	}
}

// TestCancel: a cancelled batch ends with the context's error, not the
// game timeout's: with a game timeout of an hour, waiting for it would
// fail the test at its own deadline, whatever the machine's load.
func TestCancel(t *testing.T) {
	c := botCommand("hang", fitness.Derive(1, 3))
	c.Timeout = time.Hour
	g := open(t, c, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := g.PlayBatch(ctx, matches(t, g, 10))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's", err)
	}
}

func TestInvalidOffer(t *testing.T) {
	p := func(name, role string) string {
		return `{"name":"` + name + `","role":"` + role + `","params":[]}`
	}
	offer := func(mode, roles, players, extra string) string {
		return `{"type":"hello","protocol":1,"game":"g","mode":"` + mode + `","roles":[` + roles + `],"options":[],"players":[` + players + `]` + extra + `}`
	}
	tests := []struct {
		name, hello, err string
	}{
		{"unknown mode", offer("duel", `"mover"`, p("a", "mover"), ""), `mode "duel": want "two-seat" or "solo"`},
		{"two roles, two seats", offer("two-seat", `"x","y"`, p("a", "x")+","+p("b", "y"), ""), "a two-seat game has one role"},
		{"upper-case role", offer("two-seat", `"Mover"`, p("a", "Mover"), ""), `role "Mover": want a lower-case word`},
		{"undeclared role", offer("two-seat", `"mover"`, p("a", "placer"), ""), `player "a": role "placer" is not one of the roles mover`},
		{"role without players", offer("solo", `"x","y"`, p("a", "x"), `,"opponent":"a"`), `opponent "a": want the name of a y`},
		{"solo opponent missing", offer("solo", `"x","y"`, p("a", "x")+","+p("b", "y"), ""), `opponent "": want the name of a y`},
		{"opponent without a second role", offer("solo", `"x"`, p("a", "x"), `,"opponent":"a"`), "an opponent needs a solo game with a second role"},
		{"measure score", offer("solo", `"x"`, p("a", "x"), `,"measure":"score"`), `measure "score"`},
		{"duplicate player", offer("two-seat", `"mover"`, p("a", "mover")+","+p("a", "mover"), ""), `player "a" (mover) listed twice`},
		{"no players", offer("two-seat", `"mover"`, "", ""), "no players"},
		{"bad game name", strings.Replace(offer("two-seat", `"mover"`, p("a", "mover"), ""), `"game":"g"`, `"game":"my game"`, 1), `game: bad name "my game"`},
		{"option twice", strings.Replace(offer("two-seat", `"mover"`, p("a", "mover"), ""), `"options":[]`, `"options":[{"name":"o","default":"1"},{"name":"p","default":"1"},{"name":"o","default":"2"}]`, 1), `option "o" listed twice`},
		{"option default not a choice", strings.Replace(offer("two-seat", `"mover"`, p("a", "mover"), ""), `"options":[]`, `"options":[{"name":"o","default":"3","choices":["1","2"]}]`, 1), `option "o": default "3" is not one of its choices`},
		{"setting twice", offer("two-seat", `"mover"`, `{"name":"a","role":"mover","params":[],"settings":[{"name":"depth","default":"2"},{"name":"depth","default":"3"}]}`, ""),
			`player "a", setting "depth" listed twice`},
		{"setting default not a choice", offer("two-seat", `"mover"`, `{"name":"a","role":"mover","params":[],"settings":[{"name":"depth","default":"9","choices":["1","2"]}]}`, ""),
			`player "a", setting "depth": default "9" is not one of its choices`},
		{"bad setting name", offer("two-seat", `"mover"`, `{"name":"a","role":"mover","params":[],"settings":[{"name":"two words","default":"1"}]}`, ""),
			`player "a", setting: bad name "two words"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := external.Describe(context.Background(), external.Command{Argv: []string{helloScript(t, tc.hello)}})
			var se *external.SetupError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("err = %v, want a *SetupError with %q", err, tc.err)
			}
		})
	}
}

// Close kills a process still in its handshake, and the caller waiting
// on it gets ErrClosed at once: with a startup timeout of an hour,
// waiting for the handshake would fail the test at its own deadline.
func TestCloseDuringHandshake(t *testing.T) {
	mark := filepath.Join(t.TempDir(), "mark")
	script := writeScript(t, `read line
if [ -e "`+mark+`" ]; then sleep 30; fi
touch "`+mark+`"
printf '%s\n' '`+hello("")+`'
sleep 30`)
	before := children(t)
	g := openGame(t, external.Command{Argv: []string{script}, Startup: time.Hour}, nil)
	p, err := g.NewPlayer(fitness.Mover, "p", genome.Values{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() {
		_, err := g.Play(context.Background(), p, p, 1)
		done <- err
	}()
	for len(children(t)) == len(before) {
		time.Sleep(10 * time.Millisecond) // until the second process runs
	}
	if err := fitness.Close(g); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, external.ErrClosed) {
		t.Fatalf("Play during Close: %v", err)
	}
	if after := children(t); len(after) != len(before) {
		t.Fatalf("children before %v, after Close %v", before, after)
	}
}

// The audit reuses its processes: auditing every game of 10 batches
// starts one audit process, not one per batch, and the games' own
// process is never used for replays.
func TestAuditProcesses(t *testing.T) {
	var log lockedBuffer
	c := botCommand("noisy", 0)
	c.Stderr, c.Audit = &log, 1
	g := open(t, c, nil)
	ms := matches(t, g, 100)
	for i := 0; i < len(ms); i += 10 {
		if _, err := g.PlayBatch(context.Background(), ms[i:i+10]); err != nil {
			t.Fatal(err)
		}
	}
	// The process Describe started said so too.
	if n := strings.Count(log.String(), "bot: starting") - 1; n != 2 {
		t.Fatalf("%d processes started, want 2 (one playing, one auditing):\n%s", n, log.String())
	}
}

// A program that announces something else when restarted (edited during
// the run) fails the game rather than play under another schema.
func TestRestartedProgramMustAnnounceTheSame(t *testing.T) {
	mark := filepath.Join(t.TempDir(), "mark")
	other := strings.Replace(hello(""), `"name":"p"`, `"name":"q"`, 1)
	script := writeScript(t, `read line
if [ -e "`+mark+`" ]; then printf '%s\n' '`+other+`'; else touch "`+mark+`"; printf '%s\n' '`+hello("")+`'; fi
sleep 30`)
	g := openGame(t, external.Command{Argv: []string{script}, Retries: -1}, nil)
	p, err := g.NewPlayer(fitness.Mover, "p", genome.Values{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.Play(context.Background(), p, p, 1)
	var ge *external.GameError
	if !errors.As(err, &ge) || !strings.Contains(err.Error(), "a restarted program announced another game, players or schema") {
		t.Fatalf("err = %v", err)
	}
}
