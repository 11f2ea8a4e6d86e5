package cli

import (
	"io"
	"math"
	"time"
)

// checkedWriter remembers the first failed write, so that a command whose
// results were lost (stdout on a full disk, a closed pipe) exits 1 even
// where a Fprintf's error went unchecked.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

// maxETA is the longest time an ETA shows; beyond it the figure means
// nothing, and a time.Duration overflows (and turns negative) at 292
// years.
const maxETA = 100 * 365 * 24 * time.Hour

// eta is the time left for remaining generations at the mean pace of the
// done ones that took spent, rounded to the second and capped at maxETA.
func eta(spent time.Duration, done, remaining int) time.Duration {
	if done <= 0 || remaining <= 0 {
		return 0
	}
	secs := spent.Seconds() / float64(done) * float64(remaining)
	if math.IsNaN(secs) || secs >= maxETA.Seconds() {
		return maxETA
	}
	return time.Duration(secs * float64(time.Second)).Round(time.Second)
}
