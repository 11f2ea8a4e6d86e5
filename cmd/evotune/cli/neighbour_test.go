package cli

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/evotune/evotune/internal/proctest"

	"github.com/evotune/evotune/natspool"
	"github.com/evotune/evotune/natsqueue"
	"github.com/evotune/evotune/rundir"
	"github.com/evotune/evotune/rundir/rundirtest"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// neighbourProc starts an evotune process of these tests in dir (a
// worker finds a config's player files there), killed at the end.
func neighbourProc(t *testing.T, dir string, args ...string) (*proctest.Proc, *proctest.Buffer) {
	t.Helper()
	cmd := evotune(args...)
	cmd.Dir = dir
	return proctest.Start(t, cmd, "evotune "+strings.Join(args, " "))
}

// TestRefusingWorkersDoNotStopTheRun: a worker that cannot play a run
// (it does not run programs, or lacks a player file the config names)
// refuses its batches, which go to the other workers without counting
// against them: with --max-deliver 1 and a good worker beside it the run
// finishes, byte for byte the local run. The coordinator says once that
// the worker refuses and why, the worker says why, and it takes none of
// the run's batches while they are queued. Before, each refusal counted
// as a failed delivery: the first one stopped the run.
func TestRefusingWorkersDoNotStopTheRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	placer, err := os.ReadFile(filepath.Join("..", "..", "..", "configs", "players", "battleship-coevolved-placer.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		config func(t *testing.T, dir string) string
		bad    []string // the refusing worker's flags
		good   []string // the good worker's flags
		reason string   // what the refusal says
	}{
		{"a worker that runs no programs", func(t *testing.T, dir string) string {
			return rawbotConfig(t, dir, nil, "")
		}, nil, []string{"--allow-programs"}, "--allow-programs"},
		{"a worker without the config's player file", func(t *testing.T, dir string) string {
			if err := os.WriteFile(filepath.Join(dir, "placer.yaml"), placer, 0o644); err != nil {
				t.Fatal(err)
			}
			return writeConfigIn(t, dir, strings.Replace(distConfig, "    games: 1000\n", "    games: 200\n    opponents: [random, tuned:placer.yaml]\n", 1))
		}, nil, nil, "is not the coordinator's file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := tc.config(t, dir)
			local := filepath.Join(dir, "local")
			mustRun(t, "run", cfg, "--out", local, "--quiet", "--workers", "2")
			want := rundirtest.Read(t, local, false)

			goodDir, badDir := filepath.Join(dir, "good"), filepath.Join(dir, "bad")
			for _, d := range []string{goodDir, badDir} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(goodDir, "placer.yaml"), placer, 0o644); err != nil {
				t.Fatal(err)
			}
			addr := freeAddr(t)
			url := "nats://" + addr
			runDir := filepath.Join(dir, "run")
			coord, coordSaid := neighbourProc(t, dir, "run", cfg, "--out", runDir, "--serve="+addr, "--max-deliver", "1", "--ack-wait", "10s", "--quiet")
			_, badSaid := neighbourProc(t, badDir, append([]string{"worker", url, "--workers", "2"}, tc.bad...)...)
			// The refusing worker meets the run first; the good one joins
			// once it has refused (or the run has stopped).
			proctest.WaitFor(t, "refusal", func() bool {
				return coord.Exited() || strings.Contains(badSaid.String(), "refusing the batches of run")
			})
			neighbourProc(t, goodDir, append([]string{"worker", url, "--workers", "1"}, tc.good...)...)
			proctest.WaitFor(t, "end of the run", coord.Exited)
			if code := coord.Code(); code != 0 {
				t.Fatalf("the run with a refusing worker beside a good one: exit %d:\n%s", code, coordSaid)
			}
			sameAsStraight(t, want, runDir, "a refusing worker beside a good one")
			said := coordSaid.String()
			if n := strings.Count(said, "refuses this run's batches"); n != 1 || !strings.Contains(said, tc.reason) {
				t.Errorf("the coordinator said %d times that a worker refuses, want once with %q:\n%s", n, tc.reason, said)
			}
			if !strings.Contains(badSaid.String(), tc.reason) {
				t.Errorf("the refusing worker does not say why (%q):\n%s", tc.reason, badSaid)
			}
		})
	}
}

// writeConfigIn writes a config file into dir.
func writeConfigIn(t *testing.T, dir, text string) string {
	t.Helper()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// userNATS connects to the server at url with the user's token, as any
// process of the user's may: the forger of these tests holds the token.
func userNATS(t *testing.T, url string) *nats.Conn {
	t.Helper()
	tok, _, _, err := userToken(false)
	if err != nil || tok == "" {
		t.Fatalf("the user's token: %q, %v", tok, err)
	}
	nc, err := nats.Connect(url, nats.Token(tok))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// forgery is a token holder's misdeed on the first job it sees: it
// publishes on the job's subjects (or plays it wrong).
type forgery struct {
	name string
	// forge is done once, given the first job's ID; nil for a worker
	// that plays the jobs and answers wrong (worker).
	forge func(t *testing.T, nc *nats.Conn, job string)
	// worker, when not nil, changes the results of the first job it
	// plays (encoded by natspool.Worker).
	worker func(results []byte) []byte
	// logged is what run.log must note of it, escaped.
	logged string
}

// TestForgedMessagesDoNotStopTheRun: what a token holder (a buggy worker
// or a forger) puts on a run's subjects counts only through what the
// server delivered: garbage results, a failure report claiming the last
// delivery whose reason carries escape sequences, and a worker's
// impossible 1e300 shots neither stop nor change the run, which ends
// byte for byte as a local run beside one good worker process; the
// coordinator's terminal gets no escape sequence, run.log the escaped
// text. Before, four garbage messages on one batch's subject stopped the
// run, as did one forged failure report (its escapes reaching the
// terminal raw) and a result of 1e300 shots ("fitness is not a finite
// number").
func TestForgedMessagesDoNotStopTheRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	cfg, want := straightDistRun(t)
	const evil = "\x1b]0;pwned\x07\x1b[2J\u202eforged"
	for _, f := range []forgery{
		{name: "garbage results on one batch's subject", forge: func(t *testing.T, nc *nats.Conn, job string) {
			for k, data := range []string{"", "not results", "EVR\x02", "EVR\x02\x01x\x00", "EVB\x02", `{"results":[1e300]}`} {
				m := nats.NewMsg("evotune.results." + job)
				m.Data = []byte(data)
				m.Header.Set("Nats-Msg-Id", job+".garbage"+string(rune('a'+k)))
				if err := nc.PublishMsg(m); err != nil {
					t.Error(err)
				}
			}
		}, logged: "of no copy in play: ignored"},
		{name: "a forged failure report", forge: func(t *testing.T, nc *nats.Conn, job string) {
			m := nats.NewMsg("evotune.results." + job)
			m.Header.Set("Evotune-Error", evil)
			m.Header.Set("Evotune-Delivery", "4")
			m.Header.Set("Nats-Msg-Id", job+".s1.d4.failed")
			if err := nc.PublishMsg(m); err != nil {
				t.Error(err)
			}
		}, logged: `\x1b]0;pwned\x07\x1b[2J\u202eforged`},
		{name: "a worker's 1e300 shots", worker: func(res []byte) []byte {
			out := bytes.Clone(res)
			// The last result's bits, before the notes' length (0:
			// a battleship game keeps no notes).
			if out[len(out)-1] != 0 {
				panic("a battleship batch's answer carries notes")
			}
			bits := math.Float64bits(1e300)
			for k := range 8 {
				out[len(out)-9+k] = byte(bits >> (8 * k))
			}
			return out
		}, logged: "1e+300 is not a result a game gives"},
	} {
		t.Run(f.name, func(t *testing.T) {
			addr := freeAddr(t)
			url := "nats://" + addr
			runDir := filepath.Join(t.TempDir(), "run")
			coord, said := neighbourProc(t, t.TempDir(), "run", cfg, "--out", runDir, "--serve="+addr, "--batch", "500", "--quiet")
			var nc *nats.Conn
			proctest.WaitFor(t, "the coordinator's server", func() bool {
				if coord.Exited() {
					return true
				}
				c, err := nats.Connect(url, nats.Token("x"), nats.NoReconnect())
				if c != nil {
					c.Close()
				}
				return err == nil || errors.Is(err, nats.ErrAuthorization) || strings.Contains(err.Error(), "Authorization")
			})
			if coord.Exited() {
				t.Fatalf("the coordinator stopped:\n%s", said)
			}
			nc = userNATS(t, url)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if f.forge != nil {
				var once sync.Once
				sub, err := nc.Subscribe("evotune.jobs.>", func(m *nats.Msg) {
					once.Do(func() { f.forge(t, nc, strings.TrimPrefix(m.Subject, "evotune.jobs.")) })
				})
				if err != nil {
					t.Fatal(err)
				}
				defer sub.Unsubscribe()
			} else {
				w := &natspool.Worker{}
				defer w.Close()
				play := natspool.Play(w)
				var forged atomic.Bool
				wdone := make(chan struct{})
				go func() {
					defer close(wdone)
					_ = natsqueue.Work(ctx, nc, func(ctx context.Context, payload []byte, fetch natsqueue.Fetch) ([]byte, error) {
						res, err := play(ctx, payload, fetch)
						if err == nil && forged.CompareAndSwap(false, true) {
							res = f.worker(res)
						}
						return res, err
					}, natsqueue.WorkerOptions{Slots: 1})
				}()
				defer func() { cancel(); <-wdone }()
				proctest.WaitFor(t, "the forging worker's first batch", func() bool { return forged.Load() || coord.Exited() })
			}
			neighbourProc(t, t.TempDir(), "worker", url, "--workers", "1")
			proctest.WaitFor(t, "end of the run", coord.Exited)
			if code := coord.Code(); code != 0 {
				t.Fatalf("the run with a forger: exit %d:\n%q", code, said)
			}
			sameAsStraight(t, want, runDir, f.name)
			if s := said.String(); strings.ContainsAny(s, "\x1b\x07\u202e") {
				t.Errorf("the coordinator's terminal got control characters: %q", s)
			}
			log, _ := os.ReadFile(filepath.Join(runDir, rundir.LogFile))
			if !strings.Contains(string(log), f.logged) {
				t.Errorf("run.log does not note %q:\n%s", f.logged, log)
			}
		})
	}
}

// TestWorkerHidesItsToken: a worker given the token in the URL connects
// and says where without printing it. Before, "connected to
// nats://TOKEN@HOST:PORT" showed it.
func TestWorkerHidesItsToken(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	addr := freeAddr(t)
	cfg := writeConfig(t, strings.Replace(distConfig, "generations: 2", "generations: 1000", 1))
	neighbourProc(t, t.TempDir(), "run", cfg, "--out", filepath.Join(t.TempDir(), "run"), "--serve="+addr, "--token", "s3cretTOKEN", "--quiet")
	_, said := neighbourProc(t, t.TempDir(), "worker", "nats://s3cretTOKEN@"+addr, "--workers", "1")
	proctest.WaitFor(t, "the worker's connection", saysAny(said, "connected to"))
	if strings.Contains(said.String(), "s3cret") {
		t.Fatalf("the worker printed its token:\n%s", said)
	}
}

// TestCoordinatorSaysItLostItsServer: a coordinator on a NATS server of
// its own (--nats) that loses the server says so, not that no workers
// are connected, which sent users looking at healthy workers.
func TestCoordinatorSaysItLostItsServer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoSigs: true, NoLog: true,
		JetStream: true, StoreDir: t.TempDir(), Authorization: "s3cretTOKEN"})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(proctest.IdleLimit) {
		t.Fatal("the NATS server did not start")
	}
	defer ns.Shutdown()
	// Generations of 100,000 games: seconds each, so the coordinator
	// reports its workers (every 2 s while a wave is played).
	cfg := writeConfig(t, strings.NewReplacer("generations: 2", "generations: 1000", "games: 1000", "games: 10000").Replace(distConfig))
	url := ns.ClientURL()
	coord, said := neighbourProc(t, t.TempDir(), "run", cfg, "--out", filepath.Join(t.TempDir(), "run"), "--nats", url, "--token", "s3cretTOKEN")
	neighbourProc(t, t.TempDir(), "worker", url, "--token", "s3cretTOKEN", "--workers", "1")
	proctest.WaitFor(t, "the worker's hello", saysAny(said, "1 worker connected"))
	ns.Shutdown()
	proctest.WaitFor(t, "word of the lost server", func() bool {
		return coord.Exited() || strings.Contains(said.String(), "lost the connection to the NATS server")
	})
	if after := said.String()[strings.Index(said.String(), "1 worker connected"):]; strings.Contains(after, "no workers connected") {
		t.Fatalf("the coordinator blamed the workers for the lost server:\n%s", said)
	}
}
