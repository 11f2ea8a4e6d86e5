package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/evotune/evotune/cmd/evotune/sprtfile"
	"github.com/evotune/evotune/internal/proctest"
	"github.com/evotune/evotune/rundir"
	"github.com/evotune/evotune/rundir/rundirtest"
)

// coinbotDir holds coinbot's build, removed by TestMain when the tests
// end (a test's TempDir would go with the first test that built it).
var coinbotDir string

// coinbot builds testdata/coinbot, the outside program of these tests,
// once per test binary.
var coinbot = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "coinbot")
	if err != nil {
		return "", err
	}
	coinbotDir = dir
	bin := filepath.Join(dir, "coinbot")
	out, err := exec.Command("go", "build", "-o", bin, "./testdata/coinbot").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build testdata/coinbot: %v\n%s", err, out)
	}
	return bin, nil
})

// coinbotCopy puts a copy of coinbot in dir, so a test may edit it.
func coinbotCopy(t *testing.T, dir string) string {
	t.Helper()
	bin, err := coinbot()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "coinbot")
	if err := os.WriteFile(dst, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return dst
}

// coinConfig is a short run of the coin game played by the program at
// bin, with extra environment env.
func coinConfig(t *testing.T, dir, bin string, env map[string]string, generations int, extra ...string) string {
	t.Helper()
	text := fmt.Sprintf("command: [%s]\nplayer: tuned\n%s", bin, strings.Join(extra, ""))
	if len(env) > 0 {
		text += "env:\n"
		for k, v := range env {
			text += fmt.Sprintf("  %s: %q\n", k, v)
		}
	}
	text += fmt.Sprintf(`fitness:
  objective: score
  baselines:
    games: 20
    opponents: [fair]
evolution:
  population: 8
  generations: %d
  tournament-size: 2
`, generations)
	cfg := filepath.Join(dir, "coin.yaml")
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// alive lists the recorded pids whose process still runs (a zombie is
// dead: it only waits to be reaped).
func alive(t *testing.T, pidDir string) []int {
	t.Helper()
	entries, err := os.ReadDir(pidDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue // gone
		}
		// pid (comm) state ...: the state follows the last ')'.
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
			continue
		}
		out = append(out, pid)
	}
	return out
}

func waitForCheckpoint(t *testing.T, dir string, generation int) {
	t.Helper()
	want := fmt.Sprintf(`"generation": %d,`, generation)
	proctest.WaitFor(t, fmt.Sprintf("checkpoint of generation %d", generation), func() bool {
		data, err := os.ReadFile(filepath.Join(dir, rundir.CheckpointFile))
		return err == nil && bytes.Contains(data, []byte(want))
	})
}

// TestNoProcessOutlivesARun runs real evotune processes over coinbot,
// which starts a helper process of its own, and checks /proc that every
// one of them is gone once evotune has exited: after a finished run, a
// run stopped by a game that keeps crashing, a Ctrl-C, a SIGTERM, a
// second Ctrl-C that abandons the generation in flight, a program that
// hangs past the config's timeout, and one the determinism audit catches.
func TestNoProcessOutlivesARun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	tests := []struct {
		name    string
		env     map[string]string
		signals []os.Signal
		exit    ExitCode
		stderr  string // on evotune's stderr
		log     string // in run.log
		extra   string // config keys
	}{
		{"finished", nil, nil, ExitOK, "", "coinbot: ready", ""},
		{"failing game", map[string]string{"COINBOT_CRASH": "1"}, nil, ExitFailure, "game seed", "coinbot: crashing on seed", ""},
		{"ctrl-c", map[string]string{"COINBOT_SLOW": "2ms"}, []os.Signal{os.Interrupt}, ExitInterrupted, "evotune resume", "stopped after generation", ""},
		{"sigterm", map[string]string{"COINBOT_SLOW": "2ms"}, []os.Signal{syscall.SIGTERM}, ExitInterrupted, "evotune resume", "stopped after generation", ""},
		{"ctrl-c twice", map[string]string{"COINBOT_SLOW": "20ms"}, []os.Signal{os.Interrupt, os.Interrupt}, ExitInterrupted, "aborted", "abandoned", ""},
		{"hung program", map[string]string{"COINBOT_SLOW": "10s"}, nil, ExitFailure, "game seed", "abandoned", "timeout: 200ms\n"},
		{"not deterministic", map[string]string{"COINBOT_RANDOM": "1"}, nil, ExitFailure, "not deterministic in seed", "abandoned", "audit: 1\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			pids := filepath.Join(dir, "pids")
			if err := os.Mkdir(pids, 0o755); err != nil {
				t.Fatal(err)
			}
			env := map[string]string{"COINBOT_PIDS": pids}
			for k, v := range tc.env {
				env[k] = v
			}
			cfg := coinConfig(t, dir, coinbotCopy(t, dir), env, 30, tc.extra)
			run := filepath.Join(dir, "run")
			cmd := evotune("run", cfg, "--out", run, "--quiet", "--workers", "2")
			stderr := &proctest.Buffer{}
			cmd.Stderr = stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if len(tc.signals) > 0 {
				// Signal while generation 2 is in flight: after the
				// checkpoint of generation 1 come its derived files,
				// each fsynced, which on a loaded machine take well over
				// 50 ms; a generation here lasts about a second. A second
				// signal goes once the first is acknowledged: two sent
				// while the process was not running merge into one.
				waitForCheckpoint(t, run, 1)
				time.Sleep(400 * time.Millisecond)
				for i, s := range tc.signals {
					if i > 0 {
						proctest.WaitFor(t, "acknowledgement of the first signal", func() bool { return strings.Contains(stderr.String(), "again to abort") })
					}
					_ = cmd.Process.Signal(s)
				}
			}
			err := waitOrKill(t, cmd)
			code := 0
			var exitErr *exec.ExitError
			if errors.As(err, &exitErr) {
				code = exitErr.ExitCode()
			}
			if code != int(tc.exit) || !strings.Contains(stderr.String(), tc.stderr) {
				t.Fatalf("exit %d, want %d with %q on stderr:\n%s", code, tc.exit, tc.stderr, stderr.String())
			}
			if strings.Contains(stderr.String(), "goroutine ") {
				t.Fatalf("stack trace:\n%s", stderr.String())
			}
			if n, _ := os.ReadDir(pids); len(n) < 2 {
				t.Fatalf("%d pids recorded: coinbot and its helper did not start", len(n))
			}
			if left := alive(t, pids); len(left) > 0 {
				t.Fatalf("processes %v still alive after evotune exited", left)
			}
			log, err := os.ReadFile(filepath.Join(run, rundir.LogFile))
			if err != nil || !bytes.Contains(log, []byte(tc.log)) {
				t.Fatalf("run.log does not hold %q: %v\n%s", tc.log, err, log)
			}
		})
	}
}

// TestKilledOutsideRunResumesExactly SIGKILLs a real run of an outside
// game after its second checkpoint, resumes it, and demands the files of
// a run never interrupted, byte for byte.
func TestKilledOutsideRunResumesExactly(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	dir := t.TempDir()
	cfg := coinConfig(t, dir, coinbotCopy(t, dir), map[string]string{"COINBOT_SLOW": "1ms"}, 8)
	straight := filepath.Join(dir, "straight")
	mustRun(t, "run", cfg, "--out", straight, "--quiet")
	want := rundirtest.Read(t, straight, false)

	killed := filepath.Join(dir, "killed")
	cmd := evotune("run", cfg, "--out", killed, "--quiet", "--workers", "2")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForCheckpoint(t, killed, 2)
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	mustRun(t, "resume", killed, "--quiet", "--workers", "1")
	got := rundirtest.Read(t, killed, false)
	rundirtest.Same(t, want, got, "after kill -9 and resume")
	if !bytes.Contains(got[rundir.CheckpointFile], []byte(`"program": {`)) {
		t.Error("the checkpoint does not record the program")
	}
}

// TestResumeRefusesAChangedProgram edits the program after a run: resume
// refuses, naming the file, until --accept-program-change.
func TestResumeRefusesAChangedProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	dir := t.TempDir()
	bin := coinbotCopy(t, dir)
	cfg := coinConfig(t, dir, bin, nil, 2)
	runDir := filepath.Join(dir, "run")
	mustRun(t, "run", cfg, "--out", runDir, "--quiet")
	f, err := os.OpenFile(bin, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("rebuilt")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, _, errs := run(t, "resume", runDir, "--generations", "3", "--quiet")
	if code != ExitFailure || !strings.Contains(errs, "file "+bin+" was edited") || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
		t.Fatalf("exit %d, want %d and one line naming the edited file: %s", code, ExitFailure, errs)
	}
	if code, _, errs := run(t, "resume", runDir, "--generations", "3", "--quiet", "--accept-program-change"); code != ExitOK {
		t.Fatalf("with --accept-program-change: exit %d: %s", code, errs)
	}
}

// TestProgramSetupFailuresExitTwo: a program that is missing, answers no
// hello, or announces an invalid schema stops every command with exit 2
// and one line.
func TestProgramSetupFailuresExitTwo(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	silent := script("silent.sh", "exit 0\n")
	badSchema := script("bad.sh", `read hello
echo '{"type":"hello","protocol":1,"game":"bad","mode":"two-seat","roles":["mover"],"players":[{"name":"p","role":"mover","params":[{"name":"a","type":"float","min":2,"max":1,"default":1}]}]}'
`)
	missing := filepath.Join(dir, "nope")
	badConfig := filepath.Join(dir, "missing.yaml")
	if err := os.WriteFile(badConfig, []byte("command: ["+missing+"]\nplayer: tuned\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"games, missing program", []string{"games", "--command", missing}, "no such file"},
		{"eval, missing program", []string{"eval", "--command", missing, "--player", "tuned"}, "no such file"},
		{"games, no hello", []string{"games", "--command", silent}, "handshake"},
		{"games, invalid schema", []string{"games", "--command", badSchema}, "bad range [2, 1]"},
		{"run, missing program", []string{"run", badConfig}, "command: external:"},
		{"eval, another game", []string{"eval", "hadron", "--command", badSchema, "--player", "p"}, "handshake"},
		{"dir without command", []string{"eval", "hadron", "--dir", ".", "--player", "random"}, "--dir belongs to --command"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := run(t, tc.args...)
			if code != ExitUsage || !strings.Contains(errs, tc.want) {
				t.Fatalf("exit %d, want %d with %q:\n%s", code, ExitUsage, tc.want, errs)
			}
			if lines := strings.Split(strings.TrimSpace(errs), "\n"); len(lines) != 1 {
				t.Fatalf("want one line, got:\n%s", errs)
			}
		})
	}
}

// TestEvalAndGamesOfAProgram: eval and games take a --command, and
// tuned:FILE specs load parameters for its players.
func TestEvalAndGamesOfAProgram(t *testing.T) {
	dir := t.TempDir()
	bin := coinbotCopy(t, dir)
	code, out, errs := run(t, "games", "--command", bin)
	if code != ExitOK || !strings.Contains(out, "coin: a biased coin") || !strings.Contains(out, "bias") {
		t.Fatalf("games: exit %d:\n%s%s", code, out, errs)
	}
	params := filepath.Join(dir, "heavy.yaml")
	if err := os.WriteFile(params, []byte("bias: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = run(t, "eval", "coin", "--command", bin, "--player", "tuned:"+params, "--vs", "fair", "--games", "400", "--json")
	if code != ExitOK {
		t.Fatalf("eval: exit %d: %s", code, errs)
	}
	var rep struct {
		Matches []struct {
			Score float64    `json:"score"`
			CI95  [2]float64 `json:"ci95"`
		} `json:"matches"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Matches) != 1 {
		t.Fatalf("eval: %v\n%s", err, out)
	}
	// bias 1 against 1/2 wins two games in three.
	if m := rep.Matches[0]; m.CI95[0] > 2.0/3 || m.CI95[1] < 2.0/3 {
		t.Fatalf("bias 1 vs 1/2: score %v %v, want 2/3 inside the interval", m.Score, m.CI95)
	}
}

// TestOutsideCoevolutionEqualsBuiltin co-evolves shooters and placers of
// Battleship served by examples/bridge, an outside program with two roles
// and a solo measure, and demands the generations of the same run on the
// built-in game: outside and built-in games take the same path.
func TestOutsideCoevolutionEqualsBuiltin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the bridge")
	}
	dir := t.TempDir()
	bridge := filepath.Join(dir, "bridge")
	if out, err := exec.Command("go", "build", "-o", bridge, "../../../examples/bridge").CombinedOutput(); err != nil {
		t.Fatalf("go build examples/bridge: %v\n%s", err, out)
	}
	const body = `player: tuned
coevolve:
  player: tuned
fitness:
  baselines: {games: 10}
  population: {opponents: 2, games: 10}
evolution: {population: 6, generations: 3, tournament-size: 2}
`
	configs := map[string]string{
		"builtin": "game: battleship\nrules: {size: 6, fleet: [3, 2, 2]}\n" + body,
		"outside": fmt.Sprintf("command: [%s, battleship, size=6, \"fleet=3,2,2\"]\n", bridge) + body,
	}
	files := map[string][]string{}
	for name, text := range configs {
		cfg := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "run-"+name)
		if code, _, errs := run(t, "run", cfg, "--out", out, "--quiet"); code != ExitOK {
			t.Fatalf("%s: exit %d: %s", name, code, errs)
		}
		for _, f := range []string{rundir.GenerationsFile, rundir.ForSpecies("rivals", rundir.GenerationsFile)} {
			data, err := os.ReadFile(filepath.Join(out, f))
			if err != nil {
				t.Fatal(err)
			}
			files[name] = append(files[name], string(data))
		}
	}
	for i, f := range []string{rundir.GenerationsFile, rundir.ForSpecies("rivals", rundir.GenerationsFile)} {
		if files["builtin"][i] != files["outside"][i] {
			t.Errorf("%s differs:\nbuilt-in:\n%s\noutside:\n%s", f, files["builtin"][i], files["outside"][i])
		}
	}
}

// TestProgramStderrOnce: an outside program that fails, at its hello or
// in a game, has its stderr shown as the lines it wrote, not folded onto
// one with "; ", and once: a command that shows them as the program
// writes them (games, eval) does not quote them again in its error; one
// whose program writes to run.log (run, validate) quotes the last of
// them there, indented under the error.
func TestProgramStderrOnce(t *testing.T) {
	dir := t.TempDir()
	failing := filepath.Join(dir, "failing.sh")
	if err := os.WriteFile(failing, []byte("#!/bin/sh\necho 'oops one' >&2\necho 'second line' >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	failingConfig := writeConfig(t, "command: ["+failing+"]\nplayer: tuned\nfitness:\n  baselines: {games: 10}\nevolution:\n  population: 4\n  generations: 2\n")
	bot := coinbotCopy(t, dir)
	crashing := coinConfig(t, t.TempDir(), bot, map[string]string{"COINBOT_CRASH": "1"}, 2)
	quoted := "\n  last stderr lines:\n    oops one\n    second line\n"
	tests := []struct {
		name  string
		args  []string
		code  ExitCode
		check func(t *testing.T, stderr string)
	}{
		{"games, no hello", []string{"games", "--command", failing}, ExitUsage, shownOnce("oops one", "second line")},
		{"eval, no hello", []string{"eval", "--command", failing, "--player", "tuned"}, ExitUsage, shownOnce("oops one", "second line")},
		{"validate, no hello", []string{"validate", failingConfig}, ExitUsage, quotedOnce(quoted)},
		{"run, no hello", []string{"run", failingConfig, "-o", filepath.Join(dir, "r1"), "--quiet"}, ExitUsage, quotedOnce(quoted)},
		{"eval, a game that crashes", []string{"eval", "--command", bot, "--env", "COINBOT_CRASH=1", "--player", "tuned", "--vs", "fair", "--games", "20"},
			ExitFailure, shownOnce("coinbot: crashing on seed")},
		{"run, a game that crashes", []string{"run", crashing, "-o", filepath.Join(dir, "r2"), "--quiet"}, ExitFailure,
			quotedOnce("\n  last stderr lines:\n", "\n    coinbot: crashing on seed ")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := run(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d:\n%s", code, tc.code, stderr)
			}
			// Folded, "\n  " reads ";   ".
			if strings.Contains(stderr, ";  ") {
				t.Errorf("lines folded with \";\":\n%s", stderr)
			}
			tc.check(t, stderr)
		})
	}
}

// shownOnce checks that the program's stderr lines holding each of words
// are the ones shown as it wrote them ("[pid N] ..."), and that the error
// does not quote them again.
func shownOnce(words ...string) func(*testing.T, string) {
	return func(t *testing.T, stderr string) {
		t.Helper()
		for _, w := range words {
			seen := 0
			for l := range strings.Lines(stderr) {
				if !strings.Contains(l, w) {
					continue
				}
				seen++
				if !strings.HasPrefix(l, "[pid ") {
					t.Errorf("%q shown again, outside the program's own lines:\n%s", w, stderr)
				}
			}
			if seen == 0 {
				t.Errorf("%q not shown:\n%s", w, stderr)
			}
		}
		if strings.Contains(stderr, "last stderr lines") {
			t.Errorf("the error quotes the lines shown above it:\n%s", stderr)
		}
	}
}

// quotedOnce checks that stderr holds each of parts exactly once.
func quotedOnce(parts ...string) func(*testing.T, string) {
	return func(t *testing.T, stderr string) {
		t.Helper()
		for _, p := range parts {
			if n := strings.Count(stderr, p); n != 1 {
				t.Errorf("%q %d times, want once:\n%s", p, n, stderr)
			}
		}
	}
}

// raceProgram writes a solo game program (race: two runners, costs in
// turns) whose every game costs cost, as a shell script.
func raceProgram(t *testing.T, dir, cost string) string {
	t.Helper()
	hello := `{"type":"hello","protocol":1,"game":"race","mode":"solo","measure":"turns","roles":["runner"],"options":[],` +
		`"players":[{"name":"walk","role":"runner","params":[]},{"name":"jog","role":"runner","params":[]}]}`
	script := "#!/bin/sh\nread hello\necho '" + hello + "'\n" +
		"while read line; do\n  id=$(echo \"$line\" | sed 's/.*\"id\":\\([0-9]*\\).*/\\1/')\n" +
		"  echo \"{\\\"type\\\":\\\"result\\\",\\\"id\\\":$id,\\\"cost\\\":" + cost + "}\"\ndone\n"
	p := filepath.Join(dir, "race.sh")
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestProgramCostsOutsideTheirBounds: an outside program's cost below 0
// or past 2^53 fails eval and sprt (exit 1, one line naming the game's
// seed and what a cost may be), as it stops a run: they reported a mean
// of -3 turns, or of 1e300 with an infinite interval, and sprt decided on
// them. A cost at a bound is taken.
func TestProgramCostsOutsideTheirBounds(t *testing.T) {
	if _, err := exec.LookPath("sed"); err != nil {
		t.Skip("no sed:", err)
	}
	for _, tc := range []struct{ cost, want string }{
		{"-3", "turns -3: not a cost the game gives (want a cost from 0 to 2^53)"},
		{"1e300", "turns 1e+300: not a cost the game gives"},
		{"-0.000001", "turns -1e-06: not a cost the game gives"},
		{"9007199254740994", "turns 9.007199254740994e+15: not a cost the game gives"},
		{"0", ""},
		{"9007199254740992", ""},
	} {
		t.Run(tc.cost, func(t *testing.T) {
			dir := t.TempDir()
			prog := raceProgram(t, dir, tc.cost)
			state := filepath.Join(dir, "t"+sprtfile.Suffix)
			for _, args := range [][]string{
				{"eval", "--command", prog, "--player", "walk", "--player", "jog", "--games", "10"},
				{"sprt", "--command", prog, "--player", "walk", "--vs", "jog", "--diff1", "-1", "--batch", "10", "--max-games", "20", "--output", state},
			} {
				code, out, errs := run(t, args...)
				if tc.want == "" {
					if code != ExitOK && code != ExitH0 {
						t.Fatalf("%s, cost %s: exit %d: %s", args[0], tc.cost, code, errs)
					}
					continue
				}
				if code != ExitFailure || !strings.Contains(errs, tc.want) || !regexp.MustCompile(`game seed \d+: `).MatchString(errs) ||
					strings.Count(strings.TrimSpace(errs), "\n") != 0 || strings.Contains(out, "turns") && args[0] == "eval" {
					t.Fatalf("%s, cost %s: exit %d, stdout %q, stderr %q; want 1 and one line saying %q", args[0], tc.cost, code, out, errs, tc.want)
				}
			}
			// The test stops at its first batch, which counts for nothing.
			if st, err := sprtfile.Read(state); tc.want != "" && (err != nil || st.State != sprtfile.Stopped || st.Games != 0 || st.Verdict != "") {
				t.Fatalf("the state file of a test that failed: %+v, %v", st, err)
			}
		})
	}
}
