package cli

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/evotune/evotune/engine/config"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/internal/buildinfo"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/natspool"
	"github.com/evotune/evotune/natsqueue"
	"github.com/evotune/evotune/rundir"
	"github.com/nats-io/nats.go"
	"github.com/spf13/pflag"
)

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
// other machines. check checks them and changes nothing; resolve works
// out what they mean (the token, the certificate) into a distSetup.
type distFlags struct {
	serve      string // the address; "" without --serve
	natsURL    string
	tok        tokenFlags
	tlsCert    string
	tlsKey     string
	tlsCA      string
	creds      string
	play       int
	batch      int
	ackWait    time.Duration
	maxDeliver int
}

// distSetup is what the distribution flags resolve to before a run.
type distSetup struct {
	token     string // given, or the user's
	tokenPath string // the user's token file, when the token is its
	tokenMade bool   // whether resolve made that file
	tokenFrom string // where a token given came from: --token, --token-file or $EVOTUNE_NATS_TOKEN
	cert      *tls.Certificate
}

func (d *distFlags) addFlags(fs *pflag.FlagSet) {
	fs.StringVar(&d.serve, "serve", "", "play the games on workers: embed a NATS JetStream server listening on `ADDR`,\ngiven as --serve=ADDR (--serve alone: "+natsqueue.DefaultAddr+"); workers join with 'evotune worker nats://ADDR'\nand the token: the one given, else, on localhost, the user's token file (another address needs one given)")
	fs.Lookup("serve").NoOptDefVal = natsqueue.DefaultAddr
	fs.StringVar(&d.natsURL, "nats", "", "play the games on workers through the NATS JetStream server at `URL`")
	d.tok.addFlags(fs, "the token workers must give")
	fs.StringVar(&d.tlsCert, "tls-cert", "", "with --serve: serve TLS with this certificate `FILE` (PEM)")
	fs.StringVar(&d.tlsKey, "tls-key", "", "with --serve: the TLS certificate's key `FILE` (PEM)")
	fs.StringVar(&d.tlsCA, "tls-ca", "", "with --nats: the certificate authority `FILE` of the server's TLS certificate")
	fs.StringVar(&d.creds, "creds", "", "with --nats: a NATS credentials `FILE`")
	fs.IntVar(&d.play, "play", 0, "with --serve or --nats: batches the coordinator plays itself at once (`N`, default 0)")
	fs.IntVar(&d.batch, "batch", 0, fmt.Sprintf("games per batch, the unit of work (default %d; with --serve or --nats, a generation's games\nin about 64 batches of %d to 1024); results do not depend on it", engine.DefaultBatchGames, engine.DefaultBatchGames))
	fs.DurationVar(&d.ackWait, "ack-wait", 30*time.Second, "with --serve or --nats: a batch whose worker is silent this long goes to another")
	fs.IntVar(&d.maxDeliver, "max-deliver", 4, "with --serve or --nats: deliveries of a batch before the run gives up on it")
}

// bareServe reports whether --serve was given without an address (its
// default stands).
func (d *distFlags) bareServe(fs *pflag.FlagSet) bool {
	return fs.Changed("serve") && d.serve == natsqueue.DefaultAddr
}

// check refuses contradictory or unsafe flags before anything runs; it
// changes nothing.
func (d *distFlags) check() error {
	switch {
	case (d.serve != "") && d.natsURL != "":
		return usagef("--serve and --nats: choose one")
	case d.batch < 0 || d.batch > engine.MaxBatchGames:
		return usagef("--batch %d: want 1 to %d", d.batch, engine.MaxBatchGames)
	case d.play < 0 || d.play > config.MaxWorkers:
		return usagef("--play %d: want 0 to %d", d.play, config.MaxWorkers)
	case d.ackWait < 100*time.Millisecond:
		return usagef("--ack-wait %v: want at least 100ms", d.ackWait)
	case d.maxDeliver < 1 || d.maxDeliver > 100:
		return usagef("--max-deliver %d: want 1 to 100", d.maxDeliver)
	case (d.tlsCert == "") != (d.tlsKey == ""):
		return usagef("--tls-cert and --tls-key go together")
	case d.tlsCert != "" && !(d.serve != ""):
		return usagef("--tls-cert needs --serve")
	case (d.tlsCA != "" || d.creds != "") && d.natsURL == "":
		return usagef("--tls-ca and --creds need --nats")
	}
	if d.serve != "" {
		if err := natsqueue.CheckAddr(d.serve); err != nil {
			return usageError{err}
		}
	}
	if d.natsURL != "" {
		if err := natsqueue.CheckURL(d.natsURL); err != nil {
			return usageError{err}
		}
	}
	if err := (natsqueue.ConnectOptions{CAFile: d.tlsCA, Creds: d.creds}).Check(); err != nil {
		return usageError{err}
	}
	return nil
}

// resolve works out what the flags mean, before the run directory is
// made, so that what cannot be used is a usage error: the certificate
// (its files read now: a missing, oversized or malformed one), the token
// (the one given, else, for a server on the loopback, the user's, made
// if need be: every server evotune serves asks for one, and a run on
// another server must give one), and whether the server can listen.
func (d *distFlags) resolve() (distSetup, error) {
	var s distSetup
	if d.tlsCert != "" {
		cert, err := natsqueue.LoadKeyPair(d.tlsCert, d.tlsKey)
		if err != nil {
			return s, usageError{err}
		}
		s.cert = &cert
	}
	tok, from, err := d.tok.given()
	if err != nil {
		return s, err
	}
	s.tokenFrom = from
	switch {
	case d.serve != "" && tok == "" && !natsqueue.Loopback(d.serve):
		return s, usagef("--serve %s: listening on another address than localhost requires a token given to it (--token-file FILE, $%s or --token): workers on other machines need the same", d.serve, tokenEnv)
	case d.serve != "" && tok == "":
		if tok, s.tokenPath, s.tokenMade, err = userToken(true); err != nil {
			return s, usagef("--serve: no token given, and the user's token cannot serve: %v (or give one: --token-file FILE, $%s or --token)", err, tokenEnv)
		}
	case d.natsURL != "" && tok == "" && d.creds == "" && !natsqueue.URLHasSecret(d.natsURL):
		return s, usagef("--nats %s: give the server's token (--token-file FILE, $%s or --token) or --creds: a server any client may join lets anyone queue, forge or stop batches", natsqueue.Redact(d.natsURL), tokenEnv)
	}
	s.token = tok
	if d.serve != "" {
		if err := natsqueue.CheckListen(d.serve, s.token); err != nil {
			return s, usageError{err}
		}
		if err := natsqueue.CanListen(d.serve); err != nil {
			return s, err // before the run directory is made
		}
	}
	return s, nil
}

// apply sets the run's options: the batch size, and a pool that starts
// the server or connects when the run first plays (the run directory
// is locked by then). A local run gets a pool too, never played
// through, for close: it tidies the store an earlier --serve left.
func (d *distFlags) apply(e *env, quiet bool, s distSetup, opts *engine.Options) *lazyPool {
	opts.BatchGames = d.batch
	p := &lazyPool{d: d, s: s, e: e, quiet: quiet, dir: opts.Dir, opts: opts}
	if d.serve != "" || d.natsURL != "" {
		opts.Pool = p
	}
	return p
}

// lazyPool starts the distributed machinery on first use.
type lazyPool struct {
	d     *distFlags
	s     distSetup
	e     *env
	quiet bool
	dir   string
	opts  *engine.Options // its Stop is the first interrupt

	once     sync.Once
	err      error
	programs bool // the run's games are an outside program's or engines': workers need --allow-programs
	pool     natspool.Pool
	closers  []func()
	workers  atomic.Int64 // -1 before the first status
}

func (p *lazyPool) Play(ctx context.Context, w engine.Wave) error {
	p.once.Do(func() {
		p.programs = len(w.Batches) > 0 && w.Batches[0].Program()
		p.err = p.start()
	})
	if p.err != nil {
		return p.err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go p.abandonIfIdle(ctx, p.opts.Stop, cancel)
	return p.pool.Play(ctx, w)
}

// idleCheck is how often a coordinator asked to stop looks for workers.
const idleCheck = 250 * time.Millisecond

// abandonIfIdle cancels the wave when a stop was asked for (the first
// Ctrl-C or SIGTERM) and no worker is connected: the generation in
// flight, which run waits for after a first signal, would never end,
// and a service manager's one SIGTERM would hang. Nothing is lost: the
// batches played are in the journal, the ones queued in the store, for
// the resume.
func (p *lazyPool) abandonIfIdle(ctx context.Context, stop <-chan struct{}, cancel func()) {
	select {
	case <-stop:
	case <-ctx.Done():
		return
	}
	t := time.NewTicker(idleCheck)
	defer t.Stop()
	for {
		if p.pool.C.Workers().Workers == 0 {
			fmt.Fprintln(p.e.stderr, "evotune: no workers connected: stopping now; the batches played are kept for the resume")
			cancel()
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// workerCommand is the command that starts a worker able to play this
// run from url: with --allow-programs when an outside program plays its
// games, and the token where a worker of this user would not find it
// (the user's token file it reads itself; a token given is named by its
// file or its variable, never written out).
func (p *lazyPool) workerCommand(url string) string {
	args := []string{"evotune", "worker", natsqueue.Redact(url)}
	if p.programs {
		args = append(args, "--allow-programs")
	}
	switch p.s.tokenFrom {
	case "--token-file":
		args = append(args, "--token-file", shellWord(p.d.tok.file))
	case "--token":
		args = append(args, "--token-file", "FILE")
	case "$" + tokenEnv:
		return strings.Join(args, " ") + " (with $" + tokenEnv + " set)"
	}
	return strings.Join(args, " ")
}

// shellWord quotes a word for a shell where it needs it.
func shellWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func (p *lazyPool) start() error {
	d, s := p.d, p.s
	var nc *nats.Conn
	var srv *natsqueue.Server
	url := d.natsURL
	if d.serve != "" {
		so := natsqueue.ServerOptions{Addr: d.serve, StoreDir: filepath.Join(p.dir, rundir.StoreDir), Token: s.token}
		if s.cert != nil {
			so.TLS = &tls.Config{Certificates: []tls.Certificate{*s.cert}, MinVersion: tls.VersionTLS12}
		}
		var err error
		if srv, err = natsqueue.Serve(so); err != nil {
			return err
		}
		p.closers = append(p.closers, srv.Close)
		if nc, err = srv.Connect("evotune coordinator"); err != nil {
			return err
		}
		url = srv.URL()
		if !p.quiet {
			fmt.Fprintf(p.e.stderr, "evotune: serving batches on %s; start workers with: %s\n", srv.Addr(), p.workerCommand(url))
			if s.tokenPath != "" {
				fmt.Fprintln(p.e.stderr, tokenHint(s.tokenPath, s.tokenMade))
			} else {
				fmt.Fprintf(p.e.stderr, "evotune: workers need this run's token: --token-file FILE or $%s\n", tokenEnv)
			}
		}
	} else {
		var err error
		if nc, err = natsqueue.Connect(context.Background(), url, natsqueue.ConnectOptions{Name: "evotune coordinator", Token: s.token, CAFile: d.tlsCA, Creds: d.creds}); err != nil {
			return err
		}
	}
	p.closers = append(p.closers, nc.Close)
	c, err := natsqueue.NewCoordinator(context.Background(), nc, natsqueue.Settings{AckWait: d.ackWait, MaxDeliver: d.maxDeliver,
		Build: ownBuild(), CheckWorker: checkWorkerBuild,
		OnRefused: func(worker string, err error) {
			fmt.Fprintf(p.e.stderr, "evotune: worker %q refused: %v\n", worker, err)
		}})
	if err != nil {
		return err
	}
	p.closers = append(p.closers, c.Close)
	p.workers.Store(-1)
	c.OnStatus = func(s natsqueue.Status) {
		state := int64(s.Workers)
		if s.Disconnected {
			state = -2
		}
		if old := p.workers.Swap(state); old != state && !p.quiet {
			switch {
			case s.Disconnected:
				fmt.Fprintf(p.e.stderr, "evotune: lost the connection to the NATS server at %s; reconnecting (the batches played are kept)\n", natsqueue.Redact(url))
			case s.Workers == 0 && s.Refusing > 0:
				fmt.Fprintf(p.e.stderr, "evotune: no worker plays this run (%s refusing it); waiting (start one with: %s)\n", english.Count(s.Refusing, "worker"), p.workerCommand(url))
			case s.Workers == 0:
				fmt.Fprintf(p.e.stderr, "evotune: no workers connected; waiting (start one with: %s)\n", p.workerCommand(url))
			default:
				fmt.Fprintf(p.e.stderr, "evotune: %s connected, %s at once\n", english.Count(s.Workers, "worker"), english.Count(s.Slots, "batch"))
			}
		}
	}
	// A worker's refusal is said whatever --quiet: the run may wait for
	// ever on workers that all refuse it.
	c.OnRefusal = func(worker, reason string) {
		fmt.Fprintf(p.e.stderr, "evotune: worker %s refuses this run's batches: %s\n", worker, reason)
	}
	p.pool = natspool.Pool{C: c, OneCore: d.play == 0}
	if d.play > 0 {
		var wnc *nats.Conn
		if srv != nil {
			wnc, err = srv.Connect("evotune coordinator's worker")
		} else {
			wnc, err = natsqueue.Connect(context.Background(), url, natsqueue.ConnectOptions{Name: "evotune coordinator's worker", Token: s.token, CAFile: d.tlsCA, Creds: d.creds})
		}
		if err != nil {
			return err
		}
		ctx, cancel := context.WithCancel(context.Background())
		w := &natspool.Worker{}
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = natsqueue.Work(ctx, wnc, natspool.Play(w), natsqueue.WorkerOptions{Slots: d.play, Build: ownBuild()})
		}()
		p.closers = append(p.closers, func() { cancel(); <-done; w.Close(); wnc.Close() })
	}
	return nil
}

// close stops what start started, last first. The embedded server's
// store (RUN_DIR/nats/) is removed once the run has finished, however
// it was played (a local resume of a run a coordinator started
// finishes it too): its jobs and results are all played and taken. A
// run that stopped keeps it for its resume, which then finds the
// batches already queued, and results the journal has not yet taken.
func (p *lazyPool) close(finished bool) {
	for i := len(p.closers) - 1; i >= 0; i-- {
		p.closers[i]()
	}
	if store := filepath.Join(p.dir, rundir.StoreDir); finished {
		// Only a store that is there is removed: on a read-only file
		// system removing one that is not fails too (EROFS).
		if _, err := os.Lstat(store); err == nil {
			if err := os.RemoveAll(store); err != nil {
				fmt.Fprintf(p.e.stderr, "evotune: %v\n", err)
			}
		}
	}
}

// ownBuild is this binary's build as a worker announces it.
func ownBuild() string {
	data, _ := json.Marshal(buildinfo.Own())
	return string(data)
}

// checkWorkerBuild is a coordinator's check of the build a worker
// announces: only a build known to compute what this one computes
// counts (buildinfo.Compatible).
func checkWorkerBuild(announced string) error {
	return buildinfo.Compatible(buildinfo.Own(), decodeBuild(announced))
}

// checkCoordinatorBuild is a worker's check of its coordinator's build.
func checkCoordinatorBuild(announced string) error {
	return buildinfo.Compatible(decodeBuild(announced), buildinfo.Own())
}

// decodeBuild reads a build another process announced; the zero Info,
// an unknown build, if it announced none that reads.
func decodeBuild(announced string) buildinfo.Info {
	var in buildinfo.Info
	if json.Unmarshal([]byte(announced), &in) != nil {
		return buildinfo.Info{}
	}
	return in
}
