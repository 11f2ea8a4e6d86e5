package cli

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/evotune/evotune/dist"
	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/internal/distpool"
	"github.com/nats-io/nats.go"
)

// tokenEnv names the environment variable a token may come from, so it
// need not show in the process list.
const tokenEnv = "EVOTUNE_NATS_TOKEN"

// serveFlag is --serve with an optional address: --serve, --serve=ADDR
// or --serve ADDR (see joinServeAddr).
type serveFlag struct {
	on   bool
	addr string
}

func (s *serveFlag) String() string   { return s.addr }
func (s *serveFlag) IsBoolFlag() bool { return true }
func (s *serveFlag) Set(v string) error {
	s.on = true
	switch v {
	case "true":
		s.addr = dist.DefaultAddr
	case "false":
		s.on = false
	default:
		s.addr = v
	}
	return nil
}

// addrLike is an argument after --serve that is its address, not the
// command's CONFIG or RUN_DIR.
var addrLike = regexp.MustCompile(`^[A-Za-z0-9.\-\[\]:]*:[0-9]+$`)

// joinServeAddr turns "--serve ADDR" into "--serve=ADDR": a flag with an
// optional value cannot take it after a space otherwise.
func joinServeAddr(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if (a == "--serve" || a == "-serve") && i+1 < len(args) && addrLike.MatchString(args[i+1]) {
			out = append(out, a+"="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}

// distFlags are the flags of run and resume that play the games on
// other machines.
type distFlags struct {
	serve      serveFlag
	natsURL    string
	token      string
	tlsCert    string
	tlsKey     string
	tlsCA      string
	creds      string
	play       int
	batch      int
	ackWait    time.Duration
	maxDeliver int
}

func (d *distFlags) addFlags(fs *flag.FlagSet) {
	fs.Var(&d.serve, "serve", "play the games on workers: embed a NATS JetStream server listening on `ADDR`\n(default "+dist.DefaultAddr+"; another address than localhost needs --token);\nworkers join with 'evotune worker nats://ADDR'")
	fs.StringVar(&d.natsURL, "nats", "", "play the games on workers through the NATS JetStream server at `URL`")
	fs.StringVar(&d.token, "token", "", "the token workers must give (default $"+tokenEnv+")")
	fs.StringVar(&d.tlsCert, "tls-cert", "", "with --serve: serve TLS with this certificate `FILE` (PEM)")
	fs.StringVar(&d.tlsKey, "tls-key", "", "with --serve: the TLS certificate's key `FILE` (PEM)")
	fs.StringVar(&d.tlsCA, "tls-ca", "", "with --nats: the certificate authority `FILE` of the server's TLS certificate")
	fs.StringVar(&d.creds, "creds", "", "with --nats: a NATS credentials `FILE`")
	fs.IntVar(&d.play, "play", 0, "with --serve or --nats: games the coordinator plays itself at once (`N`, default 0)")
	fs.IntVar(&d.batch, "batch", 0, fmt.Sprintf("games per batch, the unit of work (default %d); results do not depend on it", engine.DefaultBatchGames))
	fs.DurationVar(&d.ackWait, "ack-wait", 30*time.Second, "with --serve or --nats: a batch whose worker is silent this long goes to another")
	fs.IntVar(&d.maxDeliver, "max-deliver", 4, "with --serve or --nats: deliveries of a batch before the run gives up on it")
}

// check refuses contradictory or unsafe flags before anything runs.
func (d *distFlags) check() error {
	if d.token == "" {
		d.token = os.Getenv(tokenEnv)
	}
	switch {
	case d.serve.on && d.natsURL != "":
		return usagef("--serve and --nats: choose one")
	case d.batch < 0 || d.batch > engine.MaxBatchGames:
		return usagef("--batch %d: want 1 to %d", d.batch, engine.MaxBatchGames)
	case d.play < 0 || d.play > engine.MaxWorkers:
		return usagef("--play %d: want 0 to %d", d.play, engine.MaxWorkers)
	case d.ackWait < 100*time.Millisecond:
		return usagef("--ack-wait %v: want at least 100ms", d.ackWait)
	case d.maxDeliver < 1 || d.maxDeliver > 100:
		return usagef("--max-deliver %d: want 1 to 100", d.maxDeliver)
	case (d.tlsCert == "") != (d.tlsKey == ""):
		return usagef("--tls-cert and --tls-key go together")
	case d.tlsCert != "" && !d.serve.on:
		return usagef("--tls-cert needs --serve")
	case (d.tlsCA != "" || d.creds != "") && d.natsURL == "":
		return usagef("--tls-ca and --creds need --nats")
	}
	if d.serve.on {
		if err := dist.CheckListen(d.serve.addr, d.token); err != nil {
			return usageError{err}
		}
	}
	return nil
}

// apply sets the run's options: the batch size, and a pool that starts
// the server or connects when the run first plays (the run directory
// is locked by then).
func (d *distFlags) apply(e *env, quiet bool, opts *engine.Options) *lazyPool {
	opts.BatchGames = d.batch
	if !d.serve.on && d.natsURL == "" {
		return nil
	}
	p := &lazyPool{d: d, e: e, quiet: quiet, dir: opts.Dir}
	opts.Pool = p
	return p
}

// lazyPool starts the distributed machinery on first use.
type lazyPool struct {
	d     *distFlags
	e     *env
	quiet bool
	dir   string

	once    sync.Once
	err     error
	pool    distpool.Pool
	closers []func()
	workers atomic.Int64 // -1 before the first status
}

func (p *lazyPool) Play(ctx context.Context, w engine.Wave) error {
	p.once.Do(func() { p.err = p.start() })
	if p.err != nil {
		return p.err
	}
	return p.pool.Play(ctx, w)
}

func (p *lazyPool) start() error {
	d := p.d
	var nc *nats.Conn
	var srv *dist.Server
	url := d.natsURL
	if d.serve.on {
		so := dist.ServerOptions{Addr: d.serve.addr, StoreDir: filepath.Join(p.dir, "nats"), Token: d.token}
		if d.tlsCert != "" {
			cert, err := tls.LoadX509KeyPair(d.tlsCert, d.tlsKey)
			if err != nil {
				return fmt.Errorf("--tls-cert %s: %w", d.tlsCert, err)
			}
			so.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		}
		var err error
		if srv, err = dist.Serve(so); err != nil {
			return err
		}
		p.closers = append(p.closers, srv.Close)
		if nc, err = srv.Connect("evotune coordinator"); err != nil {
			return err
		}
		url = srv.URL()
		if !p.quiet {
			fmt.Fprintf(p.e.stderr, "evotune: serving batches on %s; start workers with: evotune worker %s\n", srv.Addr(), url)
		}
	} else {
		var err error
		if nc, err = dist.Connect(url, dist.ConnectOptions{Name: "evotune coordinator", Token: d.token, CAFile: d.tlsCA, Creds: d.creds}); err != nil {
			return err
		}
	}
	p.closers = append(p.closers, nc.Close)
	c, err := dist.NewCoordinator(context.Background(), nc, dist.Settings{AckWait: d.ackWait, MaxDeliver: d.maxDeliver})
	if err != nil {
		return err
	}
	p.closers = append(p.closers, c.Close)
	p.workers.Store(-1)
	c.OnStatus = func(s dist.Status) {
		if old := p.workers.Swap(int64(s.Workers)); old != int64(s.Workers) && !p.quiet {
			if s.Workers == 0 {
				fmt.Fprintf(p.e.stderr, "evotune: no workers connected; waiting (start one with: evotune worker %s)\n", url)
			} else {
				fmt.Fprintf(p.e.stderr, "evotune: %d workers connected, %d games at once\n", s.Workers, s.Slots)
			}
		}
	}
	p.pool = distpool.Pool{C: c}
	if d.play > 0 {
		var wnc *nats.Conn
		if srv != nil {
			wnc, err = srv.Connect("evotune coordinator's worker")
		} else {
			wnc, err = dist.Connect(url, dist.ConnectOptions{Name: "evotune coordinator's worker", Token: d.token, CAFile: d.tlsCA, Creds: d.creds})
		}
		if err != nil {
			return err
		}
		ctx, cancel := context.WithCancel(context.Background())
		w := &engine.Worker{}
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = dist.Work(ctx, wnc, distpool.Play(w), dist.WorkerOptions{Slots: d.play})
		}()
		p.closers = append(p.closers, func() { cancel(); <-done; w.Close(); wnc.Close() })
	}
	return nil
}

// close stops what start started, last first.
func (p *lazyPool) close() {
	if p == nil {
		return
	}
	for i := len(p.closers) - 1; i >= 0; i-- {
		p.closers[i]()
	}
}

func runWorker(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "worker", "URL [--workers N] [--token T] [--tls-ca FILE] [--creds FILE] [--allow-programs]",
		"Play batches of games for a coordinator ('evotune run CONFIG --serve' or '--nats URL') until\n"+
			"stopped: pull a batch, play it, send its results. Workers may join and leave at any time; a\n"+
			"batch held by a worker that dies goes to another. It plays evotune's own games only, unless\n"+
			"--allow-programs lets it run the outside program a config names (from this machine)")
	workers := fs.Int("workers", 0, "batches played at once (default: all cores)")
	token := fs.String("token", "", "the coordinator's token (default $"+tokenEnv+"; or in the URL: nats://TOKEN@HOST:PORT)")
	ca := fs.String("tls-ca", "", "the certificate authority `FILE` of the coordinator's TLS certificate")
	creds := fs.String("creds", "", "a NATS credentials `FILE`")
	allow := fs.Bool("allow-programs", false, "play configs whose games are played by an outside program (the config names the command)")
	quiet := fs.Bool("quiet", false, "no progress output")
	wait := fs.Duration("wait", 10*time.Minute, "how long to wait for a coordinator that is not there yet")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one URL, got %d arguments", len(pos))
	}
	if *workers < 0 || *workers > engine.MaxWorkers {
		return usagef("--workers %d: want 0 (all cores) to %d", *workers, engine.MaxWorkers)
	}
	if *workers == 0 {
		*workers = runtime.NumCPU()
	}
	if *token == "" {
		*token = os.Getenv(tokenEnv)
	}
	var logw io.Writer = e.stderr
	if *quiet {
		logw = io.Discard
	}
	nc, err := dist.Connect(pos[0], dist.ConnectOptions{Name: "evotune worker", Token: *token, CAFile: *ca, Creds: *creds, Wait: *wait,
		Waiting: func() {
			fmt.Fprintf(logw, "evotune worker: no coordinator at %s yet; waiting up to %v\n", dist.Redact(pos[0]), *wait)
		}})
	if err != nil {
		return err
	}
	defer nc.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	var stopped atomic.Bool
	go func() {
		select {
		case <-sigs:
			stopped.Store(true)
			cancel()
		case <-ctx.Done():
		}
	}()
	w := &engine.Worker{AllowPrograms: *allow}
	defer w.Close()
	var batches atomic.Int64
	fmt.Fprintf(logw, "evotune worker: connected to %s, playing %d batches at once\n", nc.ConnectedUrlRedacted(), *workers)
	err = dist.Work(ctx, nc, distpool.Play(w), dist.WorkerOptions{Slots: *workers,
		Log:    func(format string, args ...any) { fmt.Fprintf(e.stderr, "evotune worker: "+format+"\n", args...) },
		Played: func(string, time.Duration) { batches.Add(1) }})
	fmt.Fprintf(logw, "evotune worker: played %d batches\n", batches.Load())
	if err != nil {
		return err
	}
	if stopped.Load() {
		return context.Canceled
	}
	return nil
}
