package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
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

	"github.com/evotune/evotune/internal/proctest"

	"github.com/evotune/evotune/internal/buildinfo"
	"github.com/evotune/evotune/rundir"
	"github.com/evotune/evotune/rundir/rundirtest"
)

// distConfig is a run of 2 generations of 10,000 games: most of a second
// each on one core, long enough for the process tests' pollers to see a
// generation pass 25%, 50% or 80%.
const distConfig = `name: dist
seed: 6
game: battleship
player: tuned
seeds:
  - {}
fitness:
  baselines:
    games: 1000
evolution:
  population: 10
  generations: 2
  tournament-size: 2
  elitism: 2
remeasure: {top: 2, games: 40} # on, as by default, but cheap
`

// freeAddr is a loopback address with a port nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// startWorker starts an `evotune worker` process, killed at the test's end.
func startWorker(t *testing.T, args ...string) *proctest.Proc {
	t.Helper()
	p, _ := proctest.Start(t, evotune(append([]string{"worker"}, args...)...), "worker stderr")
	return p
}

// distStraight runs distConfig locally, once per test binary, and
// returns its config file and files.
var distStraight = struct {
	once  sync.Once
	dir   string
	files map[string][]byte
}{}

func straightDistRun(t *testing.T) (cfg string, want map[string][]byte) {
	t.Helper()
	cfg = writeConfig(t, distConfig)
	distStraight.once.Do(func() {
		dir, err := os.MkdirTemp("", "evotune-dist-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		mustRun(t, "run", cfg, "--out", filepath.Join(dir, "run"), "--quiet", "--workers", "2")
		distStraight.files = rundirtest.Read(t, filepath.Join(dir, "run"), false)
	})
	if distStraight.files == nil {
		t.Fatal("the local run failed")
	}
	return cfg, distStraight.files
}

// startCoordinator starts `evotune ARGS` (a run or resume with --serve),
// killed at the test's end; its stderr is the buffer's, which may be read
// while it runs.
func startCoordinator(t *testing.T, args ...string) (*exec.Cmd, *proctest.Buffer) {
	t.Helper()
	cmd := evotune(args...)
	errb := &proctest.Buffer{}
	cmd.Stderr = errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(time.Until(proctest.Patience(t)), func() { _ = cmd.Process.Kill() })
	t.Cleanup(func() { timer.Stop(); _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd, errb
}

func sameAsStraight(t *testing.T, want map[string][]byte, dir, what string) {
	t.Helper()
	rundirtest.Same(t, want, rundirtest.Read(t, dir, false), what)
}

// waitJournal waits until the run in dir has journalled at least n
// batches of generation gen (from 0), and fails at once should one of
// the workers it needs exit first.
func waitJournal(t *testing.T, dir string, gen, n int, needed ...*proctest.Proc) {
	t.Helper()
	proctest.WaitFor(t, fmt.Sprintf("journal of %d batches of generation %d", n, gen+1), func() bool {
		for _, w := range needed {
			if w.Exited() {
				t.Fatalf("a worker exited before the journal held %d batches of generation %d: %v", n, gen+1, w.Wait())
			}
		}
		g, k := journalState(filepath.Join(dir, rundir.JournalFile))
		return g > gen || (g == gen && k >= n)
	})
}

// TestWorkerProcessesMatchLocal: a coordinator (run --serve on a random
// port) and two `evotune worker` processes write the files of a local
// run byte for byte.
func TestWorkerProcessesMatchLocal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	cfg, want := straightDistRun(t)
	addr := freeAddr(t)
	dir := filepath.Join(t.TempDir(), "run")
	coord, errb := startCoordinator(t, "run", cfg, "--out", dir, "--serve", addr, "--batch", "25")
	for range 2 {
		startWorker(t, "nats://"+addr, "--workers", "1")
	}
	if err := proctest.WaitExit(t, coord, "the coordinator"); err != nil {
		t.Fatalf("coordinator: %v\n%s", err, errb.String())
	}
	sameAsStraight(t, want, dir, "two worker processes")
	if _, err := os.Stat(filepath.Join(dir, rundir.StoreDir)); !os.IsNotExist(err) {
		t.Errorf("the finished run left its server's store behind (stat: %v)", err)
	}
}

// TestKilledWorkerAndCoordinator: a worker SIGKILLed in the middle of a
// generation loses no game (its batch goes to another after the ack
// wait); the coordinator SIGKILLed in the middle of the next generation
// is resumed, on the same address, with the same workers, replays its
// journal, and the run still ends byte-identical to a local one.
func TestKilledWorkerAndCoordinator(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	cfg, want := straightDistRun(t)
	addr := freeAddr(t)
	dir := filepath.Join(t.TempDir(), "run")
	flags := []string{"--serve", addr, "--batch", "25", "--ack-wait", "1s", "--quiet"}
	coord, _ := startCoordinator(t, append([]string{"run", cfg, "--out", dir}, flags...)...)
	doomed := startWorker(t, "nats://"+addr, "--workers", "1")
	survivor := startWorker(t, "nats://"+addr, "--workers", "1")
	batches := 10000 / 25
	waitJournal(t, dir, 0, batches/4, doomed, survivor)
	_ = doomed.Cmd.Process.Signal(syscall.SIGKILL) // mid-batch: it plays one batch after another
	waitJournal(t, dir, 1, batches/2, survivor)
	_ = coord.Process.Signal(syscall.SIGKILL)
	_ = coord.Wait()
	if _, err := os.Stat(filepath.Join(dir, rundir.StoreDir)); err != nil {
		t.Errorf("the killed coordinator's server store is gone before its resume: %v", err)
	}
	out, err := outputWatched(t, evotune(append([]string{"resume", dir}, flags...)...))
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	sameAsStraight(t, want, dir, "a worker and the coordinator killed")
	if _, err := os.Stat(filepath.Join(dir, rundir.StoreDir)); !os.IsNotExist(err) {
		t.Errorf("the finished resume left its server's store behind (stat: %v)", err)
	}
	log, _ := os.ReadFile(filepath.Join(dir, rundir.LogFile))
	m := regexp.MustCompile(`generation 2: (\d+) of \d+ games replayed`).FindSubmatch(log)
	if m == nil {
		t.Fatalf("the resume replayed nothing of generation 2:\n%s", log)
	}
	if n, _ := strconv.Atoi(string(m[1])); n < 10000/2 {
		t.Errorf("%d games replayed; the journal held at least %d", n, 10000/2)
	}
}

// TestWorkerSecurity: an embedded server does not listen beyond this
// machine without a token, and a worker with the wrong token is refused
// with one clear line; the coordinator, left without workers, says so.
func TestWorkerSecurity(t *testing.T) {
	cfg := writeConfig(t, distConfig)
	code, _, errs := run(t, "run", cfg, "--out", filepath.Join(t.TempDir(), "run"), "--serve", "0.0.0.0:4222")
	if code != ExitUsage || !strings.Contains(errs, "requires a token") {
		t.Fatalf("serve on 0.0.0.0 without a token: exit %d: %s", code, errs)
	}
	if testing.Short() {
		return
	}
	addr := freeAddr(t)
	coord := evotune("run", cfg, "--out", filepath.Join(t.TempDir(), "run"), "--serve", addr, "--token", "right")
	stderrPath := filepath.Join(t.TempDir(), "stderr")
	stderr, err := os.Create(stderrPath)
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()
	coord.Stderr = stderr
	if err := coord.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = coord.Process.Kill(); _ = coord.Wait() })
	proctest.WaitFor(t, "listening coordinator", func() bool {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	out, err := outputWatched(t, evotune("worker", "nats://wrong@"+addr, "--quiet"))
	exitErr, ok := err.(*exec.ExitError)
	if !ok || exitErr.ExitCode() != int(ExitFailure) || !strings.Contains(string(out), "refused the token given") ||
		strings.Count(strings.TrimSpace(string(out)), "\n") != 0 || strings.Contains(string(out), "wrong") {
		t.Fatalf("worker with a wrong token: %v: %q", err, out)
	}
	proctest.WaitFor(t, "word that no workers are connected", func() bool {
		said, _ := os.ReadFile(stderrPath)
		return strings.Contains(string(said), "no workers connected")
	})
}

// TestCoordinatorPlaysItself: with --play and no worker, the coordinator
// plays every batch through its own queue and matches the local run.
func TestCoordinatorPlaysItself(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	cfg, want := straightDistRun(t)
	dir := filepath.Join(t.TempDir(), "run")
	coord, errb := startCoordinator(t, "run", cfg, "--out", dir, "--serve", freeAddr(t), "--play", "2", "--quiet")
	if err := proctest.WaitExit(t, coord, "the coordinator"); err != nil {
		t.Fatalf("coordinator: %v\n%s", err, errb.String())
	}
	sameAsStraight(t, want, dir, "the coordinator alone")
}

// TestProgramOverTheQueue: a config played by an outside program
// (examples/pig/pig.py) runs on a worker started with --allow-programs,
// from the worker's machine, and gives the files of a local run; a
// worker without it refuses the run, and the coordinator says why.
func TestProgramOverTheQueue(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	pig, err := filepath.Abs(filepath.Join("..", "..", "..", "examples", "pig", "pig.py"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := writeConfig(t, `name: pig
seed: 3
command: [python3, `+pig+`]
player: tuned
seeds:
  - {}
fitness:
  objective: score
  baselines:
    opponents: [hold20]
    games: 40
  hall-of-fame:
    members: 2
    games: 10
evolution:
  population: 6
  generations: 2
  elitism: 1
`)
	local := filepath.Join(t.TempDir(), "run")
	mustRun(t, "run", cfg, "--out", local, "--quiet", "--workers", "2")
	want := rundirtest.Read(t, local, false)

	t.Run("refused", func(t *testing.T) {
		// A worker that runs no programs refuses the run's batches, which
		// wait for a worker that plays them; the coordinator says why in
		// one line, and the command that starts one that plays them (with
		// --allow-programs), and a Ctrl-C stops it at once, no worker
		// playing.
		addr := freeAddr(t)
		coord, said := neighbourProc(t, t.TempDir(), "run", cfg, "--out", filepath.Join(t.TempDir(), "run"), "--serve", addr, "--max-deliver", "1")
		startWorker(t, "nats://"+addr, "--workers", "1")
		proctest.WaitFor(t, "refusal", saysAny(said, "refuses this run's batches"))
		proctest.WaitFor(t, "the command of a worker that plays it", saysAny(said, "(start one with: evotune worker nats://"+addr+" --allow-programs)"))
		if err := coord.Cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		err := coord.WaitWatched(t, "the coordinator, interrupted,")
		exitErr, ok := err.(*exec.ExitError)
		if !ok || exitErr.ExitCode() != int(ExitInterrupted) || strings.Count(said.String(), "refuses this run's batches") != 1 ||
			!strings.Contains(said.String(), "--allow-programs") {
			t.Fatalf("coordinator with a worker that runs no programs: %v:\n%s", err, said)
		}
	})
	t.Run("allowed", func(t *testing.T) {
		addr := freeAddr(t)
		dir := filepath.Join(t.TempDir(), "run")
		coord, errb := startCoordinator(t, "run", cfg, "--out", dir, "--serve", addr, "--quiet")
		startWorker(t, "nats://"+addr, "--workers", "2", "--allow-programs")
		if err := proctest.WaitExit(t, coord, "the coordinator"); err != nil {
			t.Fatalf("coordinator: %v\n%s", err, errb.String())
		}
		sameAsStraight(t, want, dir, "pig.py on a worker")
	})
}

// TestWorkerProfiles: a worker given --cpuprofile and --memprofile writes
// both when it is stopped, with the games it played in the CPU profile,
// so a user can see where a worker's time goes; a path it cannot write
// is refused before it connects.
func TestWorkerProfiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	cfg, want := straightDistRun(t)
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "worker.cpu.prof"), filepath.Join(dir, "worker.mem.prof")
	addr := freeAddr(t)
	runDir := filepath.Join(dir, "run")
	coord, errb := startCoordinator(t, "run", cfg, "--out", runDir, "--serve", addr, "--quiet")
	w := startWorker(t, "nats://"+addr, "--workers", "2", "--quiet", "--cpuprofile", cpu, "--memprofile", mem)
	if err := proctest.WaitExit(t, coord, "the coordinator"); err != nil {
		t.Fatalf("coordinator: %v\n%s", err, errb.String())
	}
	sameAsStraight(t, want, runDir, "a profiled worker")
	if err := w.Cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := w.WaitWatched(t, "the worker, interrupted,"); err == nil || w.Code() != int(ExitInterrupted) {
		t.Fatalf("worker stopped by SIGINT: %v, want exit %d", err, ExitInterrupted)
	}
	checkProfile(t, cpu, "samples", "cpu", "nanoseconds", "Solo")
	checkProfile(t, mem, "alloc_space", "inuse_space")

	missing := filepath.Join(dir, "no", "such", "x.prof")
	code, out, errs := run(t, "worker", "nats://"+freeAddr(t), "--cpuprofile", missing)
	if code != ExitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "--cpuprofile "+missing+": cannot create a file in ") {
		t.Fatalf("unwritable profile: exit %d, stdout %q, stderr %q; want one line, exit %d", code, out, errs, ExitUsage)
	}
}

// TestWorkerOfAnotherBuildIsRefused: a worker of another build (evotune
// as go build makes it, beside this test binary, which coordinates)
// refuses the coordinator before it takes a batch, in one line naming
// both builds, and exits 1; the coordinator says so in one line and does
// not count it. Nothing of the run is touched: even with --max-deliver 1,
// a worker of the coordinator's build then plays the run to the end, byte
// for byte a local run's.
func TestWorkerOfAnotherBuildIsRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	cfg, want := straightDistRun(t)
	addr := freeAddr(t)
	dir := filepath.Join(t.TempDir(), "run")
	coord, errb := startCoordinator(t, "run", cfg, "-o", dir, "--serve="+addr, "--batch", "25", "--max-deliver", "1")
	bin := evotuneBinary(t)
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	other := exec.CommandContext(ctx, bin, "worker", "nats://"+addr, "--quiet")
	var stderr bytes.Buffer
	other.Stderr = &stderr
	err = runWatched(t, other)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != int(ExitFailure) {
		t.Fatalf("the other build's worker: %v, stderr:\n%s", err, stderr.String())
	}
	line := strings.TrimSpace(stderr.String())
	wantPrefix := "evotune worker: refused the coordinator: another build, "
	if strings.Count(line, "\n") != 0 || !strings.HasPrefix(line, wantPrefix) ||
		!strings.Contains(line, ": this worker is evotune ") || !strings.Contains(line, ", binary "+hex.EncodeToString(sum[:6])) ||
		!strings.Contains(line, "; the coordinator is "+buildinfo.Own().Short()) {
		t.Fatalf("want one line naming both builds (this worker's binary %x), got:\n%s", sum[:6], line)
	}
	proctest.WaitFor(t, "refusal by the coordinator", saysAny(errb, `" refused: another build, `))
	startWorker(t, "nats://"+addr, "--workers", "1")
	if err := proctest.WaitExit(t, coord, "the coordinator"); err != nil {
		t.Fatalf("coordinator: %v\n%s", err, errb.String())
	}
	sameAsStraight(t, want, dir, "a refused worker, then one of the coordinator's build")
}

// TestWorkerCommand: the command the coordinator offers starts a worker
// that can play the run: --allow-programs for an outside program's games,
// and the token where such a worker would not find it; a token given on
// the command line is never written out.
func TestWorkerCommand(t *testing.T) {
	const url = "nats://127.0.0.1:4222"
	for _, tc := range []struct {
		name     string
		programs bool
		file     string // --token-file
		from     string
		path     string // the user's token file
		want     string
	}{
		{"user's token", false, "", "", "/home/u/.config/evotune/token", "evotune worker " + url},
		{"user's token, a program", true, "", "", "/home/u/.config/evotune/token", "evotune worker " + url + " --allow-programs"},
		{"token file", true, "/srv/coord token", "--token-file", "", "evotune worker " + url + " --allow-programs --token-file '/srv/coord token'"},
		{"token flag", false, "", "--token", "", "evotune worker " + url + " --token-file FILE"},
		{"token variable", true, "", "$" + tokenEnv, "", "evotune worker " + url + " --allow-programs (with $" + tokenEnv + " set)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &lazyPool{d: &distFlags{tok: tokenFlags{file: tc.file, token: "s3cret"}}, s: distSetup{token: "s3cret", tokenFrom: tc.from, tokenPath: tc.path}, programs: tc.programs}
			if got := p.workerCommand(url); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
