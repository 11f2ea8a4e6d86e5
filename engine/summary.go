package engine

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

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
	Stopped *StopReason `json:"stopped,omitempty"`
	Budget  int         `json:"budget"`
	// Resumed is the part of the run that the process which resumed it
	// played; nil for a run played straight through.
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

// summary describes the finished run whose species stand at states
// (main species first), and, when this process resumed it, what it
// played.
func (r *runner) summary(states []SpeciesState) *Summary {
	s := r.cfg.summary(r.dir, states, r.budget)
	if r.resumed {
		part := &SummaryResume{From: r.from}
		for _, h := range states[0].History[min(r.from, len(states[0].History)):] {
			part.Games += h.Games
		}
		if r.endHere {
			part.Games += s.RemeasureGames
		}
		s.Resumed = part
	}
	return s
}

// RunSummary is the summary of the run in dir whose checkpoint is ck and
// whose budget is budget, as the run printed it when it finished: what
// the dashboard shows of a finished run.
func (c *Config) RunSummary(dir string, ck *Checkpoint, budget int) *Summary {
	return c.summary(dir, ck.states(), budget)
}

func (c *Config) summary(dir string, states []SpeciesState, budget int) *Summary {
	st := states[0]
	sp := c.species[0]
	s := &Summary{Dir: dir, Objective: c.ObjectiveName(), LowerIsBetter: sp.minimise,
		Generations: len(st.History), BestFile: filepath.Join(dir, rundir.ForSpecies(sp.label, rundir.BestFile))}
	for _, h := range st.History {
		s.Games += h.Games
	}
	for _, st := range states {
		s.RemeasureGames += playedAtEnd(st)
	}
	best := exportOrder(sp, st)[0]
	s.Best = SummaryPlayer{HallOfFameRank: best.Rank, Generation: best.Generation + 1,
		Selection: best.Figure}
	if best.Rank == modelPick {
		s.Best.From, s.Best.Selection = c.pickFrom(), fitness.Figure{}
	}
	for _, rm := range st.Remeasured {
		if rm.Rank == best.Rank {
			f := rm.Figure
			s.Best.Remeasured = &f
		}
	}
	if v := st.Verdict; v != nil && v.Games > 0 {
		f := v.Figure
		s.Best.Fresh = &f
		s.Against, s.Difference, s.Pairs = v.Against, v.Difference, v.Pairs
		if v.Against != againstRunnerUp && v.StartGenes != nil {
			s.Start = &SummaryStart{Source: "defaults", Fresh: v.Start}
			if len(sp.starts) > 0 {
				s.Start.Source = "first seed"
			}
			s.Start.Even = v.Start != nil && EvenEveryPair(*v.Start, sp.minimise)
		}
		if v.Pairs != nil {
			e := v.Pairs.Elo()
			s.Elo = &e
		}
	}
	s.Next = c.nextCommand(s)
	s.Budget = budget
	if why := c.stopRule(st.History); why != nil && why.Generation < budget {
		s.Stopped = why
	}
	return s
}

// EvenEveryPair says a score's figure split every seat-swapped pair:
// 0.5 over some games with an interval of no width (from the pairs'
// variance, which is nil only when every pair scored 1/2).
func EvenEveryPair(f fitness.Figure, lowerIsBetter bool) bool {
	return !lowerIsBetter && f.Games > 0 && f.Fitness == 0.5 && f.CI95 == [2]float64{0.5, 0.5}
}

// playedAtEnd counts the games a species' remeasure and verdict played:
// a round among the best counts each game for both its players.
func playedAtEnd(st SpeciesState) int {
	n := 0
	for _, rm := range st.Remeasured {
		n += rm.Games
	}
	v := st.Verdict
	if v != nil && v.Against != againstBaselines {
		n /= 2
	}
	if v != nil {
		n += v.Games
		if v.Start != nil {
			n += v.Start.Games
		}
	}
	return n
}

// remeasureGames is what the end-of-run remeasure and verdict of every
// species are expected to play, before they do (for the ETA).
func (r *runner) remeasureGames() int { return r.cfg.endGames(r.budget) }

// nextCommand is the command that tests the recommended player on deals
// of its own: sprt against the baseline opponent head to head, or
// against the player's defaults on a solo measure; eval where the run
// found no gain to test.
func (c *Config) nextCommand(s *Summary) string {
	sp := c.species[0]
	args := []string{"evotune"}
	game := c.Game
	if len(c.Command) > 0 {
		game = ""
	}
	player := "tuned:" + s.BestFile
	tail := []string{"--seed", "2"}
	if c.Fitness.Objective == Solo {
		gain := 0.0
		if s.Difference != nil && s.Difference.CI95[1] < 0 {
			gain = s.Difference.Value
		}
		if gain == 0 {
			args = append(args, "eval")
			tail = append([]string{"--player", player, "--player", sp.player, "--games", "20000"}, tail...)
		} else {
			// H1: half the gain the verdict measured.
			args = append(args, "sprt")
			tail = append([]string{"--player", player, "--vs", sp.player, "--diff0", "0", "--diff1", strconv.FormatFloat(roundSig(gain/2, 2), 'g', -1, 64)}, tail...)
		}
		if len(sp.baselines) > 0 && len(c.Fitness.Baselines.Opponents) > 0 && c.solo.DefaultOpponent != c.Fitness.Baselines.Opponents[0] {
			tail = append(tail, "--opponent", c.displaySpec(c.Fitness.Baselines.Opponents[0]))
		}
	} else {
		vs := sp.player
		if len(c.Fitness.Baselines.Opponents) > 0 && len(sp.baselines) > 0 {
			vs = c.displaySpec(c.Fitness.Baselines.Opponents[0])
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
		args = append(args, "--rule", k+"="+c.displayRule(k, c.Rules[k]))
	}
	if len(c.Command) > 0 {
		args = append(args, "--command", quoteArg(strings.Join(c.Command, " ")))
		if dir := displayPath(filepath.Join(c.baseDir, c.Dir)); dir != "." {
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
func (c *Config) displaySpec(spec string) string {
	name, file, ok := strings.Cut(spec, ":")
	if !ok || file == "" || filepath.IsAbs(file) {
		return spec
	}
	return name + ":" + displayPath(filepath.Join(c.baseDir, file))
}

// displayRule is a rule option's value as a command line gives it: one
// that names a player (Battleship's placer) resolved like displaySpec.
func (c *Config) displayRule(key, value string) string {
	if c.solo.OpponentRule == key {
		return c.displaySpec(value)
	}
	return value
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
