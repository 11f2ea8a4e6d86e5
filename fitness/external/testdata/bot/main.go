// Command bot is the test program of fitness/external: a coin-flip game
// that speaks the protocol through fitness/external/program, and can
// misbehave on request (EXTBOT_MODE) on one seed (EXTBOT_SEED).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/evotune/evotune/fitness/external/internal/wire"
	"github.com/evotune/evotune/fitness/external/program"
	"github.com/evotune/evotune/genome"
)

var schema = genome.Schema{
	{Name: "bias", Kind: genome.Float, Min: 0, Max: 1, Default: genome.Value{Num: 0.5}},
	{Name: "depth", Kind: genome.Int, Min: 1, Max: 9, Log: true, Default: genome.Value{Num: 3}},
	{Name: "greedy", Kind: genome.Bool, Default: genome.Value{Num: 1}},
	{Name: "style", Kind: genome.Choice, Choices: []string{"calm", "wild"}, Default: genome.Value{Str: "calm"}},
	{Name: "w", Kind: genome.Grid, Rows: 2, Cols: 2, Min: -1, Max: 1, Symmetry: genome.Full,
		Default: genome.Value{Cells: []float64{0.25, -0.5, 1, 0}}},
}

var (
	mode      = os.Getenv("EXTBOT_MODE")
	target, _ = strconv.ParseUint(os.Getenv("EXTBOT_SEED"), 10, 64)
	// refuse, if set, is a seed the bot answers with an error in any mode.
	refuse, _ = strconv.ParseUint(os.Getenv("EXTBOT_REFUSE"), 10, 64)
	played    atomic.Int64
	// flaky draws this process's crashes: each process crashes elsewhere.
	flaky = rand.New(rand.NewPCG(uint64(os.Getpid()), uint64(time.Now().UnixNano())))
)

// bias is a seat's chance weight: the parameters all count, so that a
// wrong encoding of any of them changes results.
func bias(s program.Seat) float64 {
	if s.Player == "fixed" {
		return 0.5
	}
	v := s.Params
	b := v.Float("bias") + 0.01*float64(v.Int("depth")) + 0.01*v.Grid("w")[2]
	if v.Bool("greedy") {
		b += 0.02
	}
	if v.Choice("style") == "wild" {
		b += 0.03
	}
	return b
}

func misbehave(seed uint64) {
	if seed != target {
		return
	}
	switch mode {
	case "crash":
		fmt.Fprintln(os.Stderr, "bot: crashing on purpose on seed", seed)
		os.Exit(3)
	case "crash-once":
		mark := os.Getenv("EXTBOT_MARK")
		if _, err := os.Stat(mark); err != nil {
			os.WriteFile(mark, nil, 0o644)
			fmt.Fprintln(os.Stderr, "bot: crashing once")
			os.Exit(3)
		}
	case "hang":
		fmt.Fprintln(os.Stderr, "bot: hanging on purpose")
		time.Sleep(time.Hour)
	case "garbage":
		fmt.Fprintln(os.Stdout, "this is not json")
	case "long":
		fmt.Fprintf(os.Stdout, "{\"type\":\"result\",\"pad\":%q}\n", strings.Repeat("x", 70000))
	}
}

func play(req program.Request) (program.Outcome, error) {
	misbehave(req.Seed)
	if mode == "slow" {
		time.Sleep(20 * time.Millisecond)
	}
	if mode == "flaky" && flaky.Float64() < 0.01 {
		// A crash that has nothing to do with the game: a replay succeeds.
		fmt.Fprintln(os.Stderr, "bot: flaky crash")
		os.Exit(5)
	}
	if mode == "refuse" && req.Seed == target || refuse != 0 && req.Seed == refuse {
		return 0, fmt.Errorf("cannot play seed %d", req.Seed)
	}
	seed := req.Seed
	if mode == "nondet" {
		seed += uint64(played.Add(1)) // state carried from game to game
	}
	x := rand.New(rand.NewPCG(seed, 7)).Float64()
	a, b := bias(req.Seats[0]), bias(req.Seats[1])
	switch {
	case req.Rules["draws"] == "yes" && x > 0.9:
		return program.Draw, nil
	case x*(a+b) < a:
		return program.Win, nil
	}
	return program.Loss, nil
}

func playSolo(req program.Request) (float64, error) {
	misbehave(req.Seed)
	seed := req.Seed
	if mode == "solo-nondet" {
		seed += uint64(played.Add(1)) // state carried from game to game
	}
	x := rand.New(rand.NewPCG(seed, 7)).Float64()
	return float64(int(x*100)) * (1 - bias(req.Seats[0])), nil
}

func main() {
	switch mode {
	case "reverse":
		reverse()
		return
	case "grandchild":
		sleep := exec.Command("sleep", "1000")
		if err := sleep.Start(); err != nil {
			panic(err)
		}
		fmt.Fprintln(os.Stderr, "grandchild", sleep.Process.Pid)
	case "noisy":
		fmt.Fprintln(os.Stderr, "bot: starting")
	}
	g := program.Game{
		Name:    "coin",
		Summary: "a biased coin",
		Options: []program.Option{{Name: "draws", Default: "no", Choices: []string{"no", "yes"}}},
		Players: []program.Player{
			{Name: "fixed", Summary: "bias 1/2"},
			{Name: "biased", Summary: "tunable", Schema: schema},
		},
		Play: play,
	}
	if mode == "solo" || mode == "solo-nondet" {
		g.Play, g.PlaySolo, g.Measure = nil, playSolo, "flips"
	}
	if mode == "concurrent" {
		g.Concurrency = 4
	}
	if mode == "misdeclared" {
		g.Play = nil // neither Play nor PlaySolo: Main refuses the game
	}
	program.Main(g)
}

// reverse speaks the protocol by hand and answers requests in pairs,
// the second first: replies out of order.
func reverse() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	in.Scan()
	fmt.Fprintln(out, `{"type":"hello","protocol":1,"game":"coin","mode":"two-seat","roles":["mover"],"options":[{"name":"draws","default":"no","choices":["no","yes"]}],"players":[{"name":"fixed","role":"mover","params":[]},{"name":"biased","role":"mover","params":[{"name":"bias","type":"float","min":0,"max":1,"default":0.5},{"name":"depth","type":"int","min":1,"max":9,"log":true,"default":3},{"name":"greedy","type":"bool","default":true},{"name":"style","type":"choice","choices":["calm","wild"],"default":"calm"},{"name":"w","type":"grid","rows":2,"cols":2,"min":-1,"max":1,"symmetry":"full","default":[0.25,-0.5,1,0]}]}]}`)
	out.Flush()
	var held *wire.Request
	for in.Scan() {
		var req wire.Request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			panic(err)
		}
		if held == nil {
			held = &req
			continue
		}
		for _, r := range []*wire.Request{&req, held} {
			fmt.Fprintf(out, "{\"type\":\"result\",\"id\":%d,\"outcome\":%q}\n", r.ID, outcomeOf(r))
		}
		out.Flush()
		held = nil
	}
}

func outcomeOf(r *wire.Request) string {
	schemas := map[string]genome.Schema{"fixed": nil, "biased": schema}
	req := program.Request{Rules: r.Rules}
	req.Seed, _ = wire.ParseSeed(r.Seed)
	for _, s := range r.Seats {
		v, err := wire.DecodeValues(schemas[s.Player], s.Params)
		if err != nil {
			panic(err)
		}
		req.Seats = append(req.Seats, program.Seat{Player: s.Player, Params: v})
	}
	o, _ := play(req)
	return o.String()
}
