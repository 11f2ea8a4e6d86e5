package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/evotune/evotune/internal/proctest"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// saysAny reports whether b holds one of want.
func saysAny(b *proctest.Buffer, want ...string) func() bool {
	return func() bool {
		s := b.String()
		for _, w := range want {
			if strings.Contains(s, w) {
				return true
			}
		}
		return false
	}
}

// asSecondUser makes cmd run as another local user (nobody) when the
// tests run as root, and reports whether it did; the binary and the
// directories it needs must be open to that user.
func asSecondUser(cmd *exec.Cmd) bool {
	if os.Getuid() != 0 {
		return false
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	return true
}

// openDir is a directory every local user can enter and read.
func openDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "evotune-open-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	return dir
}

// copyBinary copies this test binary, the evotune command, into dir so
// that another user can run it.
func copyBinary(t *testing.T, dir string) string {
	t.Helper()
	src, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	bin := filepath.Join(dir, "evotune")
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestLocalUsersCannotDriveACoordinator: a coordinator on the loopback
// without a token given still asks every client for one (the user's,
// made in a file only they can read), so another local user can neither
// make a worker that runs programs run a command, nor connect to forge
// results, stop the run or read its config; and a worker refuses to run
// programs without a token. Before, any local connection was accepted:
// a second user's `run --nats` of a config whose command wrote `id`
// made a root worker with --allow-programs run it.
func TestLocalUsersCannotDriveACoordinator(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a coordinator, a worker and an attacker")
	}
	pig, err := filepath.Abs(filepath.Join("..", "..", "..", "examples", "pig", "pig.py"))
	if err != nil {
		t.Fatal(err)
	}
	python, err := exec.LookPath("/usr/bin/python3")
	if err != nil {
		t.Skip("no /usr/bin/python3 for the attacker's program")
	}

	// The victim: a long run served on the loopback with no token given,
	// and a worker of the same user that runs programs.
	addr := freeAddr(t)
	url := "nats://" + addr
	cfg := writeConfig(t, strings.Replace(distConfig, "generations: 2", "generations: 1000", 1))
	coord := evotune("run", cfg, "--out", filepath.Join(t.TempDir(), "run"), "--serve="+addr)
	coordErr := &proctest.Buffer{}
	coord.Stderr = coordErr
	if err := coord.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = coord.Process.Kill(); _ = coord.Wait() })
	proctest.WaitFor(t, "token line from the coordinator", saysAny(coordErr, "workers authenticate with the token in", "made a token"))
	if said := coordErr.String(); !strings.Contains(said, os.Getenv("XDG_CONFIG_HOME")) {
		t.Fatalf("the coordinator does not name the user's token file:\n%s", said)
	}
	worker := evotune("worker", url, "--allow-programs", "--workers", "1")
	workerErr := &proctest.Buffer{}
	worker.Stderr = workerErr
	if err := worker.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = worker.Process.Kill()
		_ = worker.Wait()
		if t.Failed() {
			t.Logf("coordinator:\n%s\nworker:\n%s", coordErr, workerErr)
		}
	})
	proctest.WaitFor(t, "connection of the worker", saysAny(workerErr, "connected to"))

	// A client without the token cannot connect: nothing to publish,
	// forge, stop or read.
	for _, opts := range [][]nats.Option{nil, {nats.Token("guess")}} {
		if nc, err := nats.Connect(url, opts...); err == nil {
			nc.Close()
			t.Errorf("a client with options %v connected to the coordinator's server", opts)
		}
	}

	// The attacker: another local user (nobody, when the tests run as
	// root; else this user without the token file) runs a coordinator of
	// their own on the victim's server, whose program writes `id` when
	// it runs as root.
	open := openDir(t)
	bin := copyBinary(t, open)
	// The program too, readable by the attacker wherever the tests run
	// (a clone in a directory of mode 700, as mktemp -d makes).
	script, err := os.ReadFile(pig)
	if err != nil {
		t.Fatal(err)
	}
	pig = filepath.Join(open, "pig.py")
	if err := os.WriteFile(pig, script, 0o644); err != nil {
		t.Fatal(err)
	}
	proof := filepath.Join(open, "proof")
	evil := filepath.Join(open, "evil.yaml")
	evilText := `name: evil
seed: 1
command: [sh, -c, 'if [ "$(id -u)" = 0 ]; then id > ` + proof + `; fi; exec ` + python + ` ` + pig + `']
player: tuned
seeds:
  - {}
fitness:
  objective: score
  baselines:
    opponents: [hold20]
    games: 40
evolution:
  population: 4
  generations: 1
`
	if err := os.WriteFile(evil, []byte(evilText), 0o644); err != nil {
		t.Fatal(err)
	}
	emptyConfig := filepath.Join(open, "config")
	if err := os.Mkdir(emptyConfig, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(emptyConfig, 0o777); err != nil { // past the umask
		t.Fatal(err)
	}
	// An attacker that gets in may play for ever: the test's patience
	// ends it.
	attacker := func(env []string, args ...string) (*exec.Cmd, bool) {
		ctx, cancel := context.WithDeadline(context.Background(), proctest.Patience(t))
		t.Cleanup(cancel)
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = open
		cmd.Env = append(append(os.Environ(), "EVOTUNE_AS_MAIN=1", "XDG_CONFIG_HOME="+emptyConfig, "HOME="+open), env...)
		return cmd, asSecondUser(cmd)
	}
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		code int
		want string
	}{
		{"a coordinator with a guessed token", nil, []string{"run", evil, "--out", filepath.Join(open, "evil-run"), "--quiet", "--nats", url, "--token", "guess"},
			int(ExitFailure), "refused the token given"},
		{"a coordinator without a token", nil, []string{"run", evil, "--out", filepath.Join(open, "evil-run2"), "--quiet", "--nats", url},
			int(ExitUsage), "give the server's token"},
		{"a worker with its own user's token", nil, []string{"worker", url, "--wait", "0s"},
			int(ExitFailure), "refused the token in " + filepath.Join(emptyConfig, "evotune", "token")},
		{"a worker without a token", []string{"XDG_CONFIG_HOME=", "HOME="}, []string{"worker", url, "--wait", "0s"},
			int(ExitFailure), "asks for a token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd, _ := attacker(tc.env, tc.args...)
			out, err := outputWatched(t, cmd)
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code || !strings.Contains(string(out), tc.want) {
				t.Fatalf("exit %d, want %d saying %q:\n%s", code, tc.code, tc.want, out)
			}
		})
	}
	t.Run("another user reading the token file", func(t *testing.T) {
		file := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "evotune", "token")
		cmd, second := attacker(nil, "worker", url, "--token-file", file, "--wait", "0s")
		if !second {
			t.Skip("the tests do not run as root, so they cannot run a second local user")
		}
		out, err := outputWatched(t, cmd)
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != int(ExitUsage) || !strings.Contains(string(out), "permission denied") {
			t.Fatalf("nobody read the coordinator's token file: %v:\n%s", err, out)
		}
	})
	// Had any job of the attacker's reached the worker, it would have
	// run the command as root by now: the attacker's run gave up only
	// after its program answered, and the worker polls continuously.
	if _, err := os.Stat(proof); !os.IsNotExist(err) {
		data, _ := os.ReadFile(proof)
		t.Fatalf("the worker ran the attacker's command: %s", data)
	}
	if coord.ProcessState != nil {
		t.Fatalf("the coordinator stopped:\n%s", coordErr.String())
	}
	if strings.Contains(workerErr.String(), "evil") {
		t.Fatalf("the worker heard of the attacker's run:\n%s", workerErr.String())
	}
}

// TestWorkerRefusesProgramsWithoutAToken: --allow-programs with no token
// from the flags, the environment, the URL or the user's token file is a
// usage error before any connection; given one, it is not refused.
func TestWorkerRefusesProgramsWithoutAToken(t *testing.T) {
	empty := t.TempDir()
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	open := filepath.Join(t.TempDir(), "open")
	if err := os.WriteFile(open, []byte("s3cret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o644); err != nil {
		t.Fatal(err)
	}
	url := "nats://127.0.0.1:1" // nothing listens: a worker that gets past its checks waits
	for _, tc := range []struct {
		name string
		args []string
		env  []string
		code ExitCode
		want string
	}{
		{"no token and no place for the user's", []string{"worker", url, "--allow-programs"}, []string{"XDG_CONFIG_HOME=", "HOME="}, ExitUsage, "--allow-programs needs the coordinator's token"},
		{"a token file others can read", []string{"worker", url, "--allow-programs", "--token-file", open}, nil, ExitUsage, "mode 0644 lets other users read or write it"},
		{"both token flags", []string{"worker", url, "--token", "a", "--token-file", tokenFile}, nil, ExitUsage, "--token and --token-file: choose one"},
		{"a token of two words", []string{"worker", url, "--token", "a b"}, nil, ExitUsage, "one word"},
		{"a token file", []string{"worker", url, "--allow-programs", "--token-file", tokenFile}, nil, ExitFailure, "connect to"},
		{"a token in the environment", []string{"worker", url, "--allow-programs"}, []string{tokenEnv + "=s3cret"}, ExitFailure, "connect to"},
		{"a token in the URL", []string{"worker", "nats://s3cret@127.0.0.1:1", "--allow-programs"}, nil, ExitFailure, "connect to"},
		{"no programs, no token", []string{"worker", url}, []string{"XDG_CONFIG_HOME=", "HOME="}, ExitFailure, "connect to"},
		{"the user's token, made", []string{"worker", url, "--allow-programs"}, nil, ExitFailure, "connect to"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := evotune(append(tc.args, "--wait", "0s")...)
			cmd.Env = append(cmd.Env, "XDG_CONFIG_HOME="+empty)
			cmd.Env = append(cmd.Env, tc.env...)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			err := runWatched(t, cmd)
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			if code != int(tc.code) || !strings.Contains(errb.String(), tc.want) {
				t.Fatalf("exit %d, want %d saying %q:\n%s", code, tc.code, tc.want, errb.String())
			}
			if strings.Contains(errb.String(), "s3cret") {
				t.Fatalf("the worker printed its token:\n%s", errb.String())
			}
		})
	}
}

// TestWorkerRefusesAnOpenServer: a worker with --allow-programs that
// finds a server taking clients without a token (a plain nats-server, or
// anything else listening where the coordinator should be) refuses to
// take work from it, exit 1, in one line; without --allow-programs it
// plays evotune's own games for it.
func TestWorkerRefusesAnOpenServer(t *testing.T) {
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoSigs: true, NoLog: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(proctest.IdleLimit) {
		t.Fatal("the open server did not start")
	}
	defer ns.Shutdown()
	cmd := evotune("worker", ns.ClientURL(), "--allow-programs", "--token", "s3cret", "--wait", "0s")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err = runWatched(t, cmd)
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != int(ExitFailure) || !strings.Contains(errb.String(), "takes clients without its token or credentials: --allow-programs takes work only from a server that authenticates its clients") ||
		strings.Count(errb.String(), "\n") != 1 {
		t.Fatalf("worker with --allow-programs on an open server: %v:\n%s", err, errb.String())
	}
	plain := evotune("worker", ns.ClientURL(), "--token", "s3cret")
	said := &proctest.Buffer{}
	plain.Stderr = said
	if err := plain.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = plain.Process.Kill(); _ = plain.Wait() }()
	proctest.WaitFor(t, "connection of a worker without --allow-programs", saysAny(said, "connected to"))
}
