package external

import (
	"fmt"
	"hash/fnv"
	"math"
	"testing"

	"github.com/evotune/evotune/fitness"
)

// TestSampledIsBelowTheFraction: the audit replays a game when its
// request's hash, as a number in [0, 1), is below the fraction: never at
// 0, always at 1, and at a fraction equal to a game's own number that
// game is left out while the next fraction up takes it. The hash is of
// the request's body as it is sent, so the sample stays what it was
// when calls kept their bodies whole.
func TestSampledIsBelowTheFraction(t *testing.T) {
	for i := range 50 {
		body := fmt.Appendf(nil, `,"seed":"%d","rules":{},"seats":[]}`, i)
		h := fnv.New64a()
		h.Write(body)
		u := float64(fitness.Mix(h.Sum64())>>11) / (1 << 53)
		for _, tc := range []struct {
			fraction float64
			want     bool
		}{
			{0, false},
			{u, false},
			{math.Nextafter(u, 2), true},
			{1, true},
		} {
			c := &call{seed: uint64(i), rules: []byte("{}")}
			if got := sampled(c, tc.fraction); got != tc.want {
				t.Fatalf("game %d (hash %v) at fraction %v: sampled %v, want %v", i, u, tc.fraction, got, tc.want)
			}
		}
	}
}
