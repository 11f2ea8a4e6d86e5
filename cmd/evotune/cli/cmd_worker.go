package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/evotune/evotune/engine/config"

	"github.com/evotune/evotune/internal/buildinfo"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/natspool"
	"github.com/evotune/evotune/natsqueue"
	"github.com/spf13/cobra"
)

func init() { addCommand(newWorkerCmd) }

// workerOptions are the flags and argument of evotune worker.
type workerOptions struct {
	e       *env
	url     string
	workers int
	tok     tokenFlags
	ca      string
	creds   string
	allow   bool
	quiet   bool
	wait    time.Duration
	prof    profiles
}

func newWorkerCmd(e *env) *cobra.Command {
	o := &workerOptions{e: e}
	cmd := &cobra.Command{
		Use:   "worker URL",
		Short: "Play batches of games for a coordinator (run --serve) on this machine",
		Long: `Play batches of games for a coordinator ('evotune run CONFIG --serve' or
'--nats URL') until stopped: pull a batch, play it, send its results. Workers
may join and leave at any time; a batch held by a worker that dies goes to
another. A worker gives the coordinator's token: --token-file, $EVOTUNE_NATS_TOKEN,
--token or the URL, else the user's token file, which a coordinator on localhost
uses. A worker plays evotune's own games only, unless --allow-programs lets it
run the outside program a config names (from this machine); it then refuses to
start without a token or --creds.`,
		Example: `  evotune worker nats://127.0.0.1:4222
  evotune worker nats://coord:4222 --token-file coord.token --workers 8`,
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if o.url, err = exactlyOne(args, "URL"); err != nil {
				return err
			}
			if err := o.check(); err != nil {
				return err
			}
			return o.prof.profiled(func() error { return o.run(cmd.Context()) })
		},
	}
	fs := cmd.Flags()
	fs.IntVar(&o.workers, "workers", 0, "batches played at once (default: all cores)")
	o.tok.addFlags(fs, "the coordinator's token (or in the URL: nats://TOKEN@HOST:PORT)")
	fs.StringVar(&o.ca, "tls-ca", "", "the certificate authority `FILE` of the coordinator's TLS certificate")
	fs.StringVar(&o.creds, "creds", "", "a NATS credentials `FILE`")
	fs.BoolVar(&o.allow, "allow-programs", false, "play configs whose games are played by an outside program (the config names the command)")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress output")
	fs.DurationVar(&o.wait, "wait", 10*time.Minute, "how long to wait for a coordinator that is not there yet")
	o.prof.addFlags(fs) // written when the worker stops (Ctrl-C, SIGTERM)
	return cmd
}

// check checks every flag once parsed, changing nothing.
func (o *workerOptions) check() error {
	if o.workers < 0 || o.workers > config.MaxWorkers {
		return usagef("--workers %d: want 0 (all cores) to %d", o.workers, config.MaxWorkers)
	}
	if err := natsqueue.CheckURL(o.url); err != nil {
		return usageError{err}
	}
	if err := (natsqueue.ConnectOptions{CAFile: o.ca, Creds: o.creds}).Check(); err != nil {
		return usageError{err}
	}
	return nil
}

func (o *workerOptions) run(ctx context.Context) error {
	slots := workersOf(o.workers)
	token, tokenFrom, err := o.token()
	if err != nil {
		return err
	}
	var logw io.Writer = o.e.stderr
	if o.quiet {
		logw = io.Discard
	}
	// Ctrl-C and SIGTERM end the wait for a coordinator too, as a stop
	// (exit 130, the profiles written).
	return onInterrupt(ctx, o.e, "", func(ctx context.Context, _ <-chan struct{}) error {
		nc, err := natsqueue.Connect(ctx, o.url, natsqueue.ConnectOptions{Name: "evotune worker", Token: token, TokenFrom: tokenFrom, CAFile: o.ca, Creds: o.creds, Wait: o.wait,
			Waiting: func() {
				fmt.Fprintf(logw, "evotune worker: no coordinator at %s yet; waiting up to %v\n", natsqueue.Redact(o.url), o.wait)
			}})
		if err != nil {
			return err
		}
		defer nc.Close()
		if o.allow {
			// A server that takes anyone's jobs would make this worker
			// run anyone's programs.
			if err := natsqueue.Authenticates(o.url, natsqueue.ConnectOptions{Name: "evotune worker", CAFile: o.ca}); err != nil {
				if errors.Is(err, natsqueue.ErrOpenServer) {
					return fmt.Errorf("%w: --allow-programs takes work only from a server that authenticates its clients", err)
				}
				return err
			}
		}
		w := &natspool.Worker{AllowPrograms: o.allow}
		defer w.Close()
		var batches atomic.Int64
		fmt.Fprintf(logw, "evotune worker: connected to %s, playing %s at once\n", natsqueue.Redact(nc.ConnectedUrl()), english.Count(slots, "batch"))
		// A coordinator of another build gets no results from this
		// worker: it says so before the worker takes a batch (Build,
		// CheckCoordinator); and should a run's description show another
		// build later (a coordinator restarted from another binary), the
		// worker stops at that batch, which goes back to the queue.
		ctx, refuse := context.WithCancelCause(ctx)
		play := natspool.Play(w)
		err = natsqueue.Work(ctx, nc, func(ctx context.Context, payload []byte, fetch natsqueue.Fetch) ([]byte, error) {
			res, err := play(ctx, payload, fetch)
			if errors.Is(err, buildinfo.ErrOtherBuild) {
				refuse(err)
			}
			return res, err
		}, natsqueue.WorkerOptions{Slots: slots, Build: ownBuild(), CheckCoordinator: checkCoordinatorBuild,
			Log:    func(format string, args ...any) { fmt.Fprintf(o.e.stderr, "evotune worker: "+format+"\n", args...) },
			Played: func(string, time.Duration) { batches.Add(1) }})
		if cause := context.Cause(ctx); errors.Is(cause, buildinfo.ErrOtherBuild) {
			err = cause
		}
		if m, ok := errors.AsType[*buildinfo.MismatchError](err); ok {
			return fmt.Errorf("refused the coordinator: %w", m)
		}
		fmt.Fprintf(logw, "evotune worker: played %s\n", english.Count(batches.Load(), "batch"))
		if err == nil && ctx.Err() != nil {
			return context.Canceled
		}
		return err
	})
}

// token is the token the worker gives and where it comes from: the one
// given (flags, the environment, the URL), else the user's token file's,
// made if there is none yet, so that a worker started before its
// coordinator agrees with it. A worker that runs programs needs one (or
// credentials).
func (o *workerOptions) token() (tok, from string, err error) {
	tok, _, err = o.tok.given()
	if err != nil || tok != "" || natsqueue.URLHasSecret(o.url) {
		return tok, "", err
	}
	tok, path, made, err := userToken(true)
	var ue usageError
	switch {
	case errors.As(err, &ue):
		return "", "", err // a token file that is there but unfit: say so
	case err != nil && o.allow && o.creds == "":
		return "", "", noTokenForPrograms(err)
	case err != nil:
		return "", "", nil // no place for one: a server that asks says so
	}
	if made && !o.quiet {
		fmt.Fprintf(o.e.stderr, "evotune worker: made a token for this user's coordinators and workers in %s (mode 600)\n", path)
	}
	return tok, path, nil
}
