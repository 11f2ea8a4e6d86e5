// Command coinbot is the outside program of the CLI's process tests: a
// coin game with a tunable bias that speaks evotune's protocol. It
// records its pid (and its helper's) in $COINBOT_PIDS so tests can check
// that none outlives evotune, starts a helper child process so the kill
// must reach the whole process group, and misbehaves on request:
// COINBOT_SLOW=DURATION sleeps in every game, COINBOT_CRASH=1 exits on
// every game whose seed is divisible by 7, COINBOT_RANDOM=1 flips coins
// the seed does not determine.
package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/evotune/evotune/fitness/external/program"
	"github.com/evotune/evotune/genome"
)

func record(pid int) {
	if dir := os.Getenv("COINBOT_PIDS"); dir != "" {
		_ = os.WriteFile(filepath.Join(dir, strconv.Itoa(pid)), nil, 0o644)
	}
}

func main() {
	record(os.Getpid())
	if os.Getenv("COINBOT_PIDS") != "" {
		helper := exec.Command("sleep", "600")
		if err := helper.Start(); err == nil {
			record(helper.Process.Pid)
		}
	}
	slow, _ := time.ParseDuration(os.Getenv("COINBOT_SLOW"))
	crash := os.Getenv("COINBOT_CRASH") == "1"
	random := os.Getenv("COINBOT_RANDOM") == "1"
	fmt.Fprintln(os.Stderr, "coinbot: ready")
	program.Main(program.Game{
		Name:    "coin",
		Summary: "a biased coin; the heavier bias wins more often",
		Players: []program.Player{
			{Name: "fair", Summary: "bias 1/2"},
			{Name: "tuned", Summary: "a tunable bias", Schema: genome.Schema{
				{Name: "bias", Kind: genome.Float, Min: 0.05, Max: 1, Default: genome.Value{Num: 0.5}},
			}},
		},
		Play: func(r program.Request) (program.Outcome, error) {
			time.Sleep(slow)
			if crash && r.Seed%7 == 0 {
				fmt.Fprintln(os.Stderr, "coinbot: crashing on seed", r.Seed)
				os.Exit(3)
			}
			bias := func(s program.Seat) float64 {
				if s.Player == "fair" {
					return 0.5
				}
				return s.Params.Float("bias")
			}
			a, b := bias(r.Seats[0]), bias(r.Seats[1])
			rng := rand.New(rand.NewPCG(r.Seed, 1))
			if random {
				rng = rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(os.Getpid())))
			}
			if rng.Float64()*(a+b) < a {
				return program.Win, nil
			}
			return program.Loss, nil
		},
	})
}
