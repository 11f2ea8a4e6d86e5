package runs

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/stats"
	"github.com/evotune/evotune/rundir"
)

// Summary is what a finished run says of itself: where it started, what
// it recommends, how the two compare on fresh deals, what it cost, and
// what to run next. The CLI prints it (run and resume, text or --json).
type Summary struct {
	Dir       string `json:"dir"`
	Objective string `json:"objective"`
	// LowerIsBetter: the objective is a cost (a solo measure), not a score.
	LowerIsBetter bool `json:"lower_is_better"`
	Generations   int  `json:"generations"`
	// Games the generations played, and the games of the end-of-run
	// remeasure and verdict.
	Games          int `json:"games"`
	RemeasureGames int `json:"remeasure_games"`
	// Best is the recommended player; BestFile loads it (tuned:FILE).
	Best     SummaryPlayer `json:"best"`
	BestFile string        `json:"best_file"`
	// Start is the run's starting point ("first seed", or "defaults"),
	// measured on the same fresh deals as Best; Difference is Best -
	// Start, paired by deal (head to head: by seat-swapped pair).
	Start      *SummaryStart   `json:"start,omitempty"`
	Difference *stats.Estimate `json:"difference,omitempty"`
	// Against is what Best.Fresh was measured against: the baseline
	// opponents, or, head to head, the start or the remeasure's runner-up.
	Against string `json:"against,omitempty"`
	// Pairs are Best's seat-swapped pairs against the start (head to head
	// without baselines), with its Elo.
	Pairs *stats.Pentanomial `json:"pentanomial,omitempty"`
	Elo   *stats.Estimate    `json:"elo,omitempty"`
	// Next is the command that tests the result on deals of its own.
	Next string `json:"next"`
	// Stopped says why the run ended before its budget (stop:).
	Stopped *engine.StopReason `json:"stopped,omitempty"`
	// Faults are the generations' games lost to faults, by the player
	// that faulted and the kind (players that are processes: UCI
	// engines, bots).
	Faults engine.FaultCounts `json:"faults,omitempty"`
	Budget int                `json:"budget"`
	// Resumed is the part of the run that the process which resumed it
	// played; nil for a run played straight through (and for a run read
	// afterwards: Summarize).
	Resumed *SummaryResume `json:"resumed,omitempty"`
}

// SummaryResume is what a resume played: the generations after From
// (the checkpoint's), and the end's remeasure when it played that too.
type SummaryResume struct {
	From  int `json:"from_generation"`
	Games int `json:"games"`
}

// SummaryPlayer is the recommended player's figures: selection's (biased
// by the choosing), the remeasure's that ranked it, and the fresh one
// that chose nothing.
type SummaryPlayer struct {
	HallOfFameRank int `json:"hall_of_fame_rank"` // 0 for the model's own recommendation
	// From names the model whose own recommendation the player is ("model
	// spsa"), which selection never played (Selection is then zero).
	From       string          `json:"from,omitempty"`
	Generation int             `json:"generation"` // first evaluated, from 1
	Selection  fitness.Figure  `json:"selection"`
	Remeasured *fitness.Figure `json:"remeasured,omitempty"`
	Fresh      *fitness.Figure `json:"fresh,omitempty"`
}

// SummaryStart is the starting point's figure on the verdict's deals.
type SummaryStart struct {
	Source string          `json:"source"` // "first seed" or "defaults"
	Fresh  *fitness.Figure `json:"fresh,omitempty"`
	// Even says a score's start split every seat-swapped pair with its
	// opponents (0.5, an interval of no width): it plays as they do, a
	// twin of theirs (as a tuned player's defaults may be a baseline),
	// or draws every game.
	Even bool `json:"even_every_pair,omitempty"`
}

// Of is the summary a run or a resume prints of the run res finished
// (Summarize of its last checkpoint and setup) and, when this process
// resumed it, what this process played of it: the generations after
// the checkpoint it resumed, and the end's remeasure when it played
// that.
func Of(res *engine.Result) (*Summary, error) {
	sum, err := Summarize(res.Dir, res.Final, res.Setup, res.Budget)
	if err != nil || !res.Resumed {
		return sum, err
	}
	part := &SummaryResume{From: res.From}
	h := res.Final.History
	for _, row := range h[min(res.From, len(h)):] {
		part.Games += row.Games
	}
	if res.RemeasuredHere {
		part.Games += sum.RemeasureGames
	}
	sum.Resumed = part
	return sum, nil
}

// Summarize is the summary of the run in dir whose checkpoint is ck,
// whose Setup is s and whose budget is budget: what the run says when it
// finishes, and what the dashboard shows of a finished run.
func Summarize(dir string, ck *engine.Checkpoint, s *engine.Setup, budget int) (*Summary, error) {
	views, err := s.Views(ck)
	if err != nil {
		return nil, err
	}
	v := &views[0]
	st := ck.SpeciesState
	c := s.Config()
	sum := &Summary{Dir: dir, Objective: c.ObjectiveName(), LowerIsBetter: v.Minimise,
		Generations: len(st.History), BestFile: filepath.Join(dir, rundir.ForSpecies(v.Label, rundir.BestFile))}
	for _, h := range st.History {
		sum.Games += h.Games
		sum.Faults = addFaults(sum.Faults, h.Faults)
	}
	sum.RemeasureGames += ck.EndGames()
	if ck.Rivals != nil {
		sum.RemeasureGames += ck.Rivals.EndGames()
	}
	best := v.Recommended()
	sum.Best = SummaryPlayer{HallOfFameRank: v.RecommendedRank, Generation: best.Generation + 1,
		Selection: best.Figure}
	if v.RecommendedRank == 0 { // the model's own recommendation
		sum.Best.From, sum.Best.Selection = v.ModelPick, fitness.Figure{}
	}
	for _, rm := range st.Remeasured {
		if rm.Rank == v.RecommendedRank {
			f := rm.Figure
			sum.Best.Remeasured = &f
		}
	}
	if vd := st.Verdict; vd != nil && vd.Games > 0 {
		f := vd.Figure
		sum.Best.Fresh = &f
		sum.Against, sum.Difference, sum.Pairs = vd.Against, vd.Difference, vd.Pairs
		if vd.Against != engine.AgainstRunnerUp && vd.StartGenes != nil {
			sum.Start = &SummaryStart{Source: v.StartSource, Fresh: vd.Start}
			sum.Start.Even = vd.Start != nil && EvenEveryPair(*vd.Start, v.Minimise)
		}
		if vd.Pairs != nil {
			e := vd.Pairs.Elo()
			sum.Elo = &e
		}
	}
	sum.Next = nextCommand(s, v, sum)
	sum.Budget = budget
	if why := s.Stopped(st.History); why != nil && why.Generation < budget {
		sum.Stopped = why
	}
	return sum, nil
}

// EvenEveryPair says a score's figure split every seat-swapped pair:
// 0.5 over some games with an interval of no width (from the pairs'
// variance, which is nil only when every pair scored 1/2).
func EvenEveryPair(f fitness.Figure, lowerIsBetter bool) bool {
	return !lowerIsBetter && f.Games > 0 && f.Fitness == 0.5 && f.CI95 == [2]float64{0.5, 0.5}
}

// nextCommand is the command that tests the recommended player on deals
// of its own: sprt against the baseline opponent head to head, or
// against the player's defaults on a solo measure; eval where the run
// found no gain to test. v is the run's main species.
func nextCommand(s *engine.Setup, v *engine.SpeciesView, sum *Summary) string {
	c := s.Config()
	solo, _ := fitness.SoloOf(s.Game())
	args := []string{"evotune"}
	game := c.Game
	if len(c.Command) > 0 {
		game = ""
	}
	player := v.Player + ":" + sum.BestFile
	tail := []string{"--seed", "2"}
	if c.Fitness.Objective == config.Solo {
		gain := 0.0
		if sum.Difference != nil && sum.Difference.CI95[1] < 0 {
			gain = sum.Difference.Value
		}
		if gain == 0 {
			args = append(args, "eval")
			tail = append([]string{"--player", player, "--player", v.Player, "--games", "20000"}, tail...)
		} else {
			// H1: half the gain the verdict measured.
			args = append(args, "sprt")
			tail = append([]string{"--player", player, "--vs", v.Player, "--diff0", "0", "--diff1", strconv.FormatFloat(roundSig(gain/2, 2), 'g', -1, 64)}, tail...)
		}
		if len(v.Baselines) > 0 && solo.DefaultOpponent != v.Baselines[0] {
			tail = append(tail, "--opponent", displaySpec(c, v.Baselines[0]))
		}
	} else {
		vs := v.Player
		if len(v.Baselines) > 0 {
			vs = displaySpec(c, v.Baselines[0])
		}
		args = append(args, "sprt")
		tail = append([]string{"--player", player, "--vs", vs, "--elo0", "0", "--elo1", "5"}, tail...)
	}
	if game != "" {
		args = append(args, game)
	}
	keys := make([]string, 0, len(c.Rules))
	for k := range c.Rules {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		value := c.Rules[k]
		if solo.OpponentRule == k {
			// A rule option that names a player (Battleship's placer).
			value = displaySpec(c, value)
		}
		args = append(args, "--rule", k+"="+value)
	}
	if len(c.Engines) > 0 {
		// The engines as the run defined them, found from its directory.
		args = append(args, "--engines", displayPath(sum.Dir))
	}
	if len(c.Command) > 0 {
		args = append(args, "--command", quoteArg(strings.Join(c.Command, " ")))
		if dir := displayPath(filepath.Join(c.BaseDir(), c.Dir)); dir != "." {
			args = append(args, "--dir", dir)
		}
		envs := make([]string, 0, len(c.Env))
		for k, v := range c.Env {
			envs = append(envs, k+"="+v)
		}
		sort.Strings(envs)
		for _, e := range envs {
			args = append(args, "--env", e)
		}
	}
	for _, a := range tail {
		args = append(args, quoteArg(a))
	}
	return strings.Join(args, " ")
}

// displaySpec is a player spec as a command line run from here names
// it: a file relative to the config's directory joined to it.
func displaySpec(c *config.Config, spec string) string {
	name, file, ok := fitness.CutFile(spec)
	if !ok || file == "" || filepath.IsAbs(file) {
		return spec
	}
	return name + ":" + displayPath(filepath.Join(c.BaseDir(), file))
}

// displayPath cleans a path for a command line run from here: one
// under the working directory is written relative to it (a resumed
// run's config directory is absolute in its checkpoint).
func displayPath(p string) string {
	p = filepath.Clean(p)
	if !filepath.IsAbs(p) {
		return p
	}
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return rel
	}
	return p
}

// quoteArg quotes a shell word that needs it.
func quoteArg(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// roundSig rounds x to n significant digits.
func roundSig(x float64, n int) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	p := math.Pow(10, float64(n)-math.Ceil(math.Log10(math.Abs(x))))
	return math.Round(x*p) / p
}

// addFaults is fc with other's counts added; fc is not changed (nil:
// none).
func addFaults(fc, other engine.FaultCounts) engine.FaultCounts {
	if len(other) == 0 {
		return fc
	}
	out := engine.FaultCounts{}
	for _, x := range []engine.FaultCounts{fc, other} {
		for p, kinds := range x {
			if out[p] == nil {
				out[p] = map[string]int{}
			}
			for k, n := range kinds {
				out[p][k] += n
			}
		}
	}
	return out
}
