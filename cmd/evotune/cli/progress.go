package cli

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/evotune/evotune/engine"
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

// runProgress draws one bar per generation on a terminal, or one plain
// line per generation otherwise. Every line names the objective's
// direction and fits 80 columns; a header, printed once, says what its
// figures are.
type runProgress struct {
	w     io.Writer
	tty   bool
	mu    sync.Mutex
	bar   *progressbar.ProgressBar
	start time.Time
	info  engine.RunInfo
	gen   int
	games int // the generation's games
	last  int
	hof   string
	// spent and played time the games of this process, for the ETA.
	spent  time.Duration
	played int
	now    func() time.Time
}

func newRunProgress(e *env) *runProgress {
	return &runProgress{w: e.stderr, tty: e.stderrTTY, now: time.Now}
}

// direction is the objective's direction in words.
func direction(lowerIsBetter bool) string {
	if lowerIsBetter {
		return "lower is better"
	}
	return "higher is better"
}

// Begin prints what the lines to come say.
func (p *runProgress) Begin(info engine.RunInfo) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.info = info
	fmt.Fprintf(p.w, "%s: %s. Each generation: its best and mean, and the hall of\n", info.Objective, direction(info.LowerIsBetter))
	fmt.Fprintln(p.w, "fame's best (hof) +- its 95% interval over n games: the hof pools every")
	fmt.Fprintln(p.w, "generation its player was re-evaluated in, so its figure moves either way as")
	fmt.Fprintln(p.w, "games add up. Both were chosen by these games, so both flatter; the run")
	fmt.Fprintln(p.w, "re-measures its best on fresh deals at the end.")
}

func (p *runProgress) StartGeneration(gen, budget, games int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.start, p.gen, p.games, p.last = p.now(), gen, games, 0
	p.info.Budget = budget
	if !p.tty {
		return
	}
	desc := fmt.Sprintf("gen %d/%d", gen+1, budget)
	if p.hof != "" {
		desc += ", hof " + p.hof
	}
	p.bar = newBar(p.w, games, desc+" ("+direction(p.info.LowerIsBetter)+")")
}

func (p *runProgress) Games(done int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil && done > p.last {
		_ = p.bar.Set(done)
		p.last = done
	}
}

func (p *runProgress) EndGeneration(gen int, s engine.GenStats, best engine.Member) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
		p.bar = nil
	}
	p.spent += p.now().Sub(p.start)
	p.played += s.Games
	// Games left: the generations to come, each as many as this one
	// scheduled, and the remeasure at the end.
	left := (p.info.Budget-gen-1)*p.games + p.info.EndGames
	eta := eta(p.spent, p.played, left)
	p.hof = figure4(best.Fitness) + "±" + figure2((best.CI95[1]-best.CI95[0])/2)
	fmt.Fprintln(p.w, generationLine(gen+1, p.info.Budget, p.info.LowerIsBetter, s, best, eta))
}

// generationLine is a generation's progress line: the direction, the
// generation's best and mean, the hall of fame's best with the half
// width of its interval and its games, and the ETA. It fits 80 columns;
// where long figures would pass them, the hall of fame goes on a second
// line, indented, rather than any figure being left out.
func generationLine(gen, budget int, lowerIsBetter bool, s engine.GenStats, best engine.Member, eta time.Duration) string {
	dir := "lower=better"
	if !lowerIsBetter {
		dir = "higher=better"
	}
	head := fmt.Sprintf("gen %d/%d %s: best %s mean %s,", gen, budget, dir, figure4(s.Best), figure4(s.Mean))
	hof := fmt.Sprintf("hof %s±%s n=%s, ETA %s", figure4(best.Fitness), figure2((best.CI95[1]-best.CI95[0])/2),
		compactCount(best.Games), compactDuration(eta))
	if line := head + " " + hof; utf8.RuneCountInString(line) <= 80 {
		return line
	}
	return head + "\n    " + hof
}

// figure4 writes x to 4 significant digits without an exponent where it
// has at most 6 digits before the point.
func figure4(x float64) string { return sig(x, 4) }

// figure2 writes an interval's half width to 2 significant digits.
func figure2(x float64) string { return sig(x, 2) }

func sig(x float64, n int) string {
	a := math.Abs(x)
	if a == 0 || math.IsNaN(x) || math.IsInf(x, 0) || a >= 1e6 || a < 1e-3 {
		return strconv.FormatFloat(x, 'g', n, 64)
	}
	decimals := max(0, n-1-int(math.Floor(math.Log10(a))))
	return strconv.FormatFloat(x, 'f', decimals, 64)
}

// compactCount writes a count in at most 5 characters: 950, 12k, 3.4M.
func compactCount(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 10_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	case n < 1_000_000:
		return fmt.Sprintf("%dk", n/1000)
	case n < 10_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n < 1_000_000_000:
		return fmt.Sprintf("%dM", n/1_000_000)
	}
	return fmt.Sprintf("%dG", n/1_000_000_000)
}

// compactDuration writes a duration in at most 6 characters: 45s, 12m3s,
// 5h12m, 3d4h.
func compactDuration(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%ds", s/60, s%60)
	case s < 100*3600:
		return fmt.Sprintf("%dh%dm", s/3600, s%3600/60)
	}
	return fmt.Sprintf("%dd%dh", s/86400, s%86400/3600)
}

func (p *runProgress) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Exit()
	}
}
