package cli

import (
	"sync"

	"github.com/schollz/progressbar/v3"
)

// newProgress returns a progress callback drawing a bar of total steps on
// stderr when it is a terminal, and nil (no progress) otherwise. The
// returned finish func clears the bar.
func newProgress(e *env, total int, what string) (update func(done int), finish func()) {
	if !e.stderrTTY || total <= 0 {
		return nil, func() {}
	}
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(e.stderr),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("games"),
		progressbar.OptionThrottle(100_000_000), // 100ms: redraws cost more than games
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetPredictTime(true),
	)
	var mu sync.Mutex
	last := 0
	return func(done int) {
			mu.Lock()
			defer mu.Unlock()
			if done > last { // workers report out of order
				_ = bar.Set(done)
				last = done
			}
		}, func() {
			_ = bar.Finish()
		}
}
