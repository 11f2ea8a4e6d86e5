package cli

import (
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// newBar is the one progress bar of evotune: games done of total, with
// their rate and the time left, on w (a terminal), cleared when finished.
func newBar(w io.Writer, total int, what string) *progressbar.ProgressBar {
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("games"),
		progressbar.OptionThrottle(100*time.Millisecond), // redraws cost more than games
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetPredictTime(true),
	)
}

// newProgress returns a progress callback drawing a bar of total steps on
// stderr when it is a terminal, and nil (no progress) otherwise. The
// returned finish func clears the bar.
func newProgress(e *env, total int, what string) (update func(done int), finish func()) {
	if !e.stderrTTY || total <= 0 {
		return nil, func() {}
	}
	bar := newBar(e.stderr, total, what)
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
