package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/evotune/evotune/cmd/evotune/dashboard"
	"github.com/spf13/cobra"
)

func init() { addCommand(newUICmd) }

// uiTokenEnv names the environment variable --token defaults to.
const uiTokenEnv = "EVOTUNE_UI_TOKEN"

// uiOptions are the flags and arguments of evotune ui.
type uiOptions struct {
	e     *env
	dirs  []string
	addr  string
	token string
	// listening, when set (by tests), is told the address served.
	listening func(addr string)
}

func newUICmd(e *env) *cobra.Command {
	o := &uiOptions{e: e}
	cmd := &cobra.Command{
		Use:   "ui [DIR ...]",
		Short: "Watch runs in a browser: a live dashboard",
		Long: `Serve a dashboard of the runs under each DIR (a run directory, or a directory
of them such as runs/; default runs): a list of runs with their state, and for
each run its fitness over generations with the recommended best's interval, every
knob's trajectory, weight grids, the hall of fame, racing, CMA-ES, throughput
and workers, updated as checkpoints land. Tick two or more runs of one game to
compare them.

The dashboard only reads: it writes nothing, takes no lock, plays no game and
starts no program, and serves nothing outside the DIRs. It listens on
127.0.0.1 unless --addr says otherwise, and every request must carry its
token: --token (or $` + uiTokenEnv + `), else a random one made at start, in
the address it prints (other users of this machine reach 127.0.0.1 too).
Every asset is built in: the pages load nothing from the network. Ctrl-C
stops it (exit 130).`,
		Example: `  evotune ui
  evotune ui runs/quickstart runs/hadron --addr 127.0.0.1:8080
  evotune ui runs --addr 0.0.0.0:8080 --token "$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.dirs = args
			if len(o.dirs) == 0 {
				o.dirs = []string{"runs"}
			}
			if o.token == "" {
				o.token = os.Getenv(uiTokenEnv)
			}
			return onInterrupt(cmd.Context(), e, "", o.run)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.addr, "addr", "127.0.0.1:7788", "listen on `HOST:PORT` (port 0: any free port); an address beyond this machine needs --token")
	fs.StringVar(&o.token, "token", "", "the `TOKEN` every request must carry (default $"+uiTokenEnv+", else a random one); required off loopback")
	return cmd
}

func (o *uiOptions) run(ctx context.Context, _ <-chan struct{}) error {
	host, _, err := net.SplitHostPort(o.addr)
	if err != nil {
		return usagef("--addr %q: want HOST:PORT", o.addr)
	}
	if !dashboard.Loopback(host) && o.token == "" {
		return usagef("--addr %s listens beyond this machine: give --token (or set %s), which every request must then carry", o.addr, uiTokenEnv)
	}
	token := o.token
	if token == "" {
		// Loopback is every local user's: without a token of the user's
		// choosing, one nobody else can guess.
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return fmt.Errorf("ui: a random token: %w", err)
		}
		token = hex.EncodeToString(b[:])
	}
	srv, err := dashboard.New(o.dirs, token)
	if err != nil {
		return asUsage(err)
	}
	l, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", o.addr, errors.Unwrap(err))
	}
	srv.AllowHost(host)
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	url := "http://" + l.Addr().String() + "/?token=" + token
	fmt.Fprintf(o.e.stdout, "evotune ui: serving the runs under %v at %s\n", o.dirs, url)
	if o.listening != nil {
		o.listening(l.Addr().String())
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(l) }()
	select {
	case err := <-done:
		return fmt.Errorf("ui: %w", err)
	case <-ctx.Done():
		srv.Close() // the live pages' streams end first
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = hs.Shutdown(shut)
		return ctx.Err()
	}
}
