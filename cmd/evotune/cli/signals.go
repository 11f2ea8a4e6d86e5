package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// interruptSignals stop a long command: Ctrl-C, and the TERM batch
// schedulers and kill send.
var interruptSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// onInterrupt installs the interrupt handling every long command shares,
// for as long as work runs. Without a graceful stop (graceful == ""), the
// first SIGINT or SIGTERM cancels work's context: the command reports
// "interrupted" and exits 130. With one, the first signal prints graceful
// and closes the stop channel, which the command watches to finish what
// it is doing properly (run: checkpoint the generation in flight); the
// second cancels the context. The caller cancelling ctx cancels work's
// context too.
func onInterrupt(ctx context.Context, e *env, graceful string, work func(ctx context.Context, stop <-chan struct{}) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := make(chan struct{})
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, interruptSignals...)
	defer signal.Stop(sigs)
	go func() {
		for n := 1; ; n++ {
			select {
			case <-sigs:
			case <-ctx.Done():
				return
			}
			if n == 1 && graceful != "" {
				fmt.Fprintln(e.stderr, graceful)
				close(stop)
				continue
			}
			cancel()
			return
		}
	}()
	return work(ctx, stop)
}
