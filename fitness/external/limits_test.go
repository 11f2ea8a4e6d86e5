package external_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/fitness/external/internal/wire"
	"github.com/evotune/evotune/genome"
)

// The tests of this file pin the edges of what the package accepts and
// the exact words of its errors.

// TestProgramPath: a program named with a slash but not absolute is
// taken against Dir, for running and for hashing; one that is not an
// executable file is refused before it is started.
func TestProgramPath(t *testing.T) {
	dir := t.TempDir()
	script := helloScript(t, hello(""))
	body, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "prog.sh"), body, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plain.txt"), body, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := external.Command{Argv: []string{"./prog.sh", "plain.txt"}, Dir: dir}
	d, err := external.Describe(context.Background(), c)
	if err != nil {
		t.Fatalf("./prog.sh in Dir: %v", err)
	}
	if d.Game != "g" {
		t.Fatalf("described game %q", d.Game)
	}
	h, err := c.FileHashes()
	if err != nil || len(h) != 2 || h["./prog.sh"] == "" || h["./prog.sh"] != h["plain.txt"] {
		t.Fatalf("hashes %v, %v: want ./prog.sh and plain.txt, of equal contents", h, err)
	}
	for _, tc := range []struct{ name, prog, err string }{
		{"not executable", "./plain.txt", "is not an executable file"},
		{"a directory", "./sub", "is not an executable file"},
		{"missing", "./none.sh", "no such file or directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := "program " + filepath.Join(dir, tc.prog)
			_, err := external.Describe(context.Background(), external.Command{Argv: []string{tc.prog}, Dir: dir})
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("err = %v, want %q and %q", err, want, tc.err)
			}
		})
	}
}

// TestStartupWaitsForSlowPrograms: with a short per-game Timeout and no
// Startup, the hello is awaited MinStartup, so a program that takes a
// moment to start is not refused.
func TestStartupWaitsForSlowPrograms(t *testing.T) {
	script := writeScript(t, "read line\nsleep 0.5\nprintf '%s\\n' '"+hello("")+"'\nsleep 5")
	c := external.Command{Argv: []string{script}, Timeout: 100 * time.Millisecond}
	if _, err := external.Describe(context.Background(), c); err != nil {
		t.Fatalf("a program that answers the hello after 0.5 s, Timeout 100 ms: %v", err)
	}
	c.Startup = 100 * time.Millisecond
	if _, err := external.Describe(context.Background(), c); err == nil || !strings.Contains(err.Error(), "no hello within 100ms") {
		t.Fatalf("Startup 100 ms: %v", err)
	}
}

// TestGarbageHelloIsClipped: a line that is not a hello is quoted whole
// up to 200 bytes, and cut there with "..." beyond.
func TestGarbageHelloIsClipped(t *testing.T) {
	for _, n := range []int{200, 201} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			line := strings.Repeat("x", n)
			_, err := external.Describe(context.Background(), external.Command{Argv: []string{helloScript(t, line)}})
			quoted := fmt.Sprintf("%q", strings.Repeat("x", 200))
			if n > 200 {
				quoted += "..."
			}
			if err == nil || !strings.HasSuffix(err.Error(), ": "+quoted) {
				t.Fatalf("err = %v, want it to end with %s", err, quoted)
			}
		})
	}
}

// TestErrorTexts: the errors' words, quoting of the command and plurals.
func TestErrorTexts(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"setup, plain argv", &external.SetupError{Argv: []string{"python3", "bot.py"}, Msg: "handshake: no hello"},
			"external: python3 bot.py: handshake: no hello"},
		{"setup, argv to quote", &external.SetupError{Argv: []string{"my bot", "", `say"hi"`, "tab\there", `back\slash`, "it's"}, Msg: "cannot start",
			Err: errors.New("no such file"), StderrTail: []string{"line 1", "line 2"}},
			`external: "my bot" "" "say\"hi\"" "tab\there" "back\\slash" "it's": cannot start: no such file` +
				"\n  last stderr lines:\n    line 1\n    line 2"},
		{"game, one attempt", &external.GameError{Seed: 7, Request: `{"type":"play"}`, Attempts: 1, Err: errors.New("boom")},
			"external: failed after 1 attempt: boom\n  request: {\"type\":\"play\"}"},
		{"game, three attempts", &external.GameError{Seed: 7, Request: `{}`, Attempts: 3, Err: errors.New("boom"), StderrTail: []string{"oops"}},
			"external: failed after 3 attempts: boom\n  request: {}\n  last stderr lines:\n    oops"},
		{"nondeterminism", &external.NondeterminismError{Seed: 7, Request: `{}`, First: "win", Second: "loss"},
			"external: not deterministic in seed: the game gave win, then loss on replay\n  request: {}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestUnknownPlayerNamesTheKnown: building a player the program did not
// announce names the players of that role, or none.
func TestUnknownPlayerNamesTheKnown(t *testing.T) {
	g := open(t, botCommand("", 0), nil)
	for _, tc := range []struct {
		role fitness.Role
		name string
		want string
	}{
		{fitness.Mover, "nobody", `coin: unknown mover "nobody" (known: ["fixed","biased"])`},
		{"spectre", "fixed", `coin: unknown spectre "fixed" (known: none)`},
	} {
		if _, err := g.NewPlayer(tc.role, tc.name, genome.Values{}); err == nil || err.Error() != tc.want {
			t.Errorf("NewPlayer(%s, %s): %v, want %q", tc.role, tc.name, err, tc.want)
		}
	}
}

// bigGridHello is the hello of a game whose player p has three 256x256
// grids, the most cells a grid may have, in [-1, 1].
func bigGridHello() string {
	zeros := strings.TrimSuffix(strings.Repeat("0,", 256*256), ",")
	var params []string
	for _, name := range []string{"a", "b", "c"} {
		params = append(params, `{"name":"`+name+`","type":"grid","rows":256,"cols":256,"min":-1,"max":1,"default":[`+zeros+`]}`)
	}
	return hello(strings.Join(params, ","))
}

// seatOfLength returns values of schema (grids in [-1, 1]) whose seat
// JSON is exactly n bytes long, by writing cells at lengths 1 ("0") to
// 18 ("0.1234567891234567", no prefix of which ends in 0), and 2 ("-1").
func seatOfLength(t *testing.T, schema genome.Schema, n int) genome.Values {
	t.Helper()
	const long = "0.1234567891234567"
	num := func(s string) float64 {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	longX := num(long)
	base := len(wire.EncodeSeat("p", schema.Defaults(), nil)) // every cell "0"
	extra := n - base
	m := map[string]any{}
	for _, p := range schema {
		cells := make([]float64, p.Rows*p.Cols)
		for i := range cells {
			switch {
			case extra >= len(long)-1:
				cells[i] = longX
				extra -= len(long) - 1
			case extra == 1:
				cells[i] = -1
				extra = 0
			case extra > 1:
				cells[i] = num(long[:extra+1])
				extra = 0
			}
		}
		m[p.Name] = cells
	}
	v, err := schema.FromMap(m)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(wire.EncodeSeat("p", v, nil)); got != n {
		t.Fatalf("the test built a seat of %d bytes, want %d", got, n)
	}
	return v
}

// TestSeatSizeLimit: a player is accepted when its seat fits a third of
// a request line (two seats and the rules must fit in one), to the byte.
func TestSeatSizeLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hello.json")
	if err := os.WriteFile(path, []byte(bigGridHello()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := openGame(t, external.Command{Argv: []string{writeScript(t, "read line\ncat '"+path+"'\nsleep 5")}}, nil)
	schema := g.Players()[0].Schema
	limit := wire.MaxRequestLine / 3
	if _, err := g.NewPlayer(fitness.Mover, "p", seatOfLength(t, schema, limit)); err != nil {
		t.Fatalf("a seat of %d bytes: %v", limit, err)
	}
	want := fmt.Sprintf("g: p: parameters of %d bytes in JSON, more than a request line can carry", limit+1)
	if _, err := g.NewPlayer(fitness.Mover, "p", seatOfLength(t, schema, limit+1)); err == nil || err.Error() != want {
		t.Fatalf("a seat of %d bytes: %v, want %q", limit+1, err, want)
	}
}

// TestLongRules: rules much longer than the seats reach the program.
func TestLongRules(t *testing.T) {
	offer := strings.Replace(hello(""), `"options":[]`, `"options":[{"name":"note","default":""}]`, 1)
	script := writeScript(t, `read line
printf '%s\n' '`+offer+`'
while read line; do
  case "$line" in *'"note":"`+strings.Repeat("n", 300)+`"'*) outcome=win;; *) outcome=loss;; esac
  id=${line#*'"id":'}; id=${id%%,*}
  printf '{"type":"result","id":%s,"outcome":"%s"}\n' "$id" "$outcome"
done`)
	c := external.Command{Argv: []string{script}}
	d, err := external.Describe(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		note string
		want fitness.Outcome
	}{{strings.Repeat("n", 300), fitness.Win}, {"short", fitness.Loss}} {
		g, err := d.Info(c).New(map[string]string{"note": tc.note})
		if err != nil {
			t.Fatal(err)
		}
		p, err := g.NewPlayer(fitness.Mover, "p", genome.Values{})
		if err != nil {
			t.Fatal(err)
		}
		o, err := g.Play(context.Background(), p, p, 1)
		fitness.Close(g)
		if err != nil || o != tc.want {
			t.Fatalf("note of %d bytes: %v, %v; want %v", len(tc.note), o, err, tc.want)
		}
	}
}

// TestAuditProcessesRetire: an audit process replays up to 256 games,
// counted at the end of each batch, and is then replaced.
func TestAuditProcessesRetire(t *testing.T) {
	for _, tc := range []struct {
		batches, size int
		want          int // processes started by the games: one playing, the rest auditing
	}{
		{16, 16, 2}, // 256 replays: the audit process is retired after the last batch
		{17, 16, 3}, // the 17th batch needs a new one
	} {
		t.Run(fmt.Sprintf("%dx%d", tc.batches, tc.size), func(t *testing.T) {
			var log lockedBuffer
			c := botCommand("noisy", 0)
			c.Stderr, c.Audit = &log, 1
			g := open(t, c, nil)
			ms := matches(t, g, tc.batches*tc.size)
			for i := 0; i < len(ms); i += tc.size {
				if _, err := g.PlayBatch(context.Background(), ms[i:i+tc.size]); err != nil {
					t.Fatal(err)
				}
			}
			if n := strings.Count(log.String(), "bot: starting") - 1; n != tc.want {
				t.Fatalf("%d processes started, want %d:\n%s", n, tc.want, log.String())
			}
		})
	}
}

// TestProgramRemovedDuringRun: a program that can no longer be started
// fails its game after the retries, with the reason.
func TestProgramRemovedDuringRun(t *testing.T) {
	script := helloScript(t, hello(""))
	g := openGame(t, external.Command{Argv: []string{script}}, nil)
	p, err := g.NewPlayer(fitness.Mover, "p", genome.Values{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(script); err != nil {
		t.Fatal(err)
	}
	_, err = g.Play(context.Background(), p, p, 1)
	var ge *external.GameError
	if !errors.As(err, &ge) || ge.Attempts != 1+external.DefaultRetries ||
		!strings.Contains(err.Error(), "cannot start: program "+script+": stat") {
		t.Fatalf("err = %v", err)
	}
}

// TestSoloAuditFindsNondeterminism: a solo game whose costs depend on
// what the process played before is caught, its costs named by the
// measure.
func TestSoloAuditFindsNondeterminism(t *testing.T) {
	c := botCommand("solo-nondet", 0)
	c.Audit = 0.5 // a sample: the audit process plays game k as its j-th, j < k
	g := openGame(t, c, nil).(*external.SoloGame)
	p := player(t, g, "biased", map[string]any{"bias": 0.25})
	var ms []external.Match
	for i := range 20 {
		ms = append(ms, external.Match{A: p, Seed: uint64(i)})
	}
	_, err := g.PlaySoloBatch(context.Background(), ms)
	var ne *external.NondeterminismError
	if !errors.As(err, &ne) || !strings.HasPrefix(ne.First, "flips ") || !strings.HasPrefix(ne.Second, "flips ") || ne.First == ne.Second {
		t.Fatalf("err = %v, want costs in flips that differ", err)
	}
	if !strings.Contains(ne.Request, fmt.Sprintf(`"seed":"%d"`, ne.Seed)) {
		t.Fatalf("request %s, want seed %d", ne.Request, ne.Seed)
	}
}

// TestGoBotReportsItsErrors: a Go bot (program.Main) that cannot serve
// answers the hello with the reason, says it on stderr too, and exits
// with status 1; one that serves exits 0 when its input ends.
func TestGoBotReportsItsErrors(t *testing.T) {
	for _, tc := range []struct {
		mode, stdout, stderr string
		status               int
	}{
		{"misdeclared", `"error":"program: set exactly one of Game.Play and Game.PlaySolo"`, "program: set exactly one of Game.Play and Game.PlaySolo\n", 1},
		{"", `"type":"hello"`, "", 0},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			cmd := exec.Command(bot)
			cmd.Env = append(os.Environ(), "EXTBOT_MODE="+tc.mode)
			cmd.Stdin = strings.NewReader(`{"type":"hello","protocol":1}` + "\n")
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			status := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				status = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if status != tc.status || !strings.Contains(stdout.String(), tc.stdout) || stderr.String() != tc.stderr {
				t.Fatalf("status %d, stdout %q, stderr %q; want %d, %q, %q", status, stdout.String(), stderr.String(), tc.status, tc.stdout, tc.stderr)
			}
		})
	}
}
