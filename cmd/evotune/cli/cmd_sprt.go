package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"

	"github.com/evotune/evotune/engine/config"

	"github.com/evotune/evotune/cmd/evotune/sprtfile"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/stats"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/rundir"
	"github.com/spf13/cobra"
)

func init() { addCommand(newSPRTCmd) }

// sprtOptions are the flags and argument of evotune sprt.
type sprtOptions struct {
	e            *env
	game         string
	player, vs   string
	opponent     string
	placer       string
	rules        kvFlag
	program      programFlags
	headToHead   bool
	elo0, elo1   float64
	model        string
	diff0, diff1 float64
	alpha, beta  float64
	maxGames     int
	batch        int
	seed         uint64
	workers      int
	json         bool
	output       string
}

func newSPRTCmd(e *env) *cobra.Command {
	o := &sprtOptions{e: e, rules: kvFlag{}}
	cmd := &cobra.Command{
		Use:   "sprt GAME --player A --vs B",
		Short: "Test whether A is better than B, playing games until the evidence decides",
		Long: `A sequential probability ratio test: play A against B in batches and stop as
soon as the log-likelihood ratio (LLR) of H1 against H0 crosses a bound, at
error rates --alpha (accepting H1 when H0 holds) and --beta (accepting H0 when
H1 holds).

Head to head (games without a solo measure, or --head-to-head): A meets B in
seat-swapped pairs on one deal; H0 is A's Elo = --elo0, H1 = --elo1 (logistic
Elo, or --elo-model normalized), and the test is fishtest's generalised SPRT
on the pentanomial counts of the pairs. Solo games (Battleship's shots): A and
B play the same deals; H0 is the mean of A - B = --diff0, H1 = --diff1, in the
game's unit (lower is better, so an improvement has --diff1 below --diff0).

Each batch prints the LLR, its bounds, the estimate with its 95% interval and
the games so far: redrawn in place on a terminal, one line per batch
otherwise. Decisions are taken at batch boundaries, in seed order, so the
verdict and the games it took do not depend on --workers, and a test stopped
by Ctrl-C (exit 130) and run again with the same flags ends the same way.
The deals are eval's for the same --seed. See docs/statistics.md.

Exit status: 0 H1 accepted, 3 H0 accepted, 4 --max-games reached first.`,
		Example: `  evotune sprt hadron --rule depth=3 --player tuned:best.yaml --vs aenigma --elo0 0 --elo1 10
  evotune sprt battleship --player tuned:best.yaml --vs over9000 --diff0 0 --diff1 -0.2
  evotune sprt --command "python3 examples/pig/pig.py" --player tuned:best.yaml --vs hold20 --elo-model normalized --elo1 5`,
		ValidArgsFunction: completeGame,
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if o.game, err = oneGame(args, &o.program); err != nil {
				return err
			}
			if err := o.check(cmd); err != nil {
				return err
			}
			return onInterrupt(cmd.Context(), e, "", func(ctx context.Context, _ <-chan struct{}) error {
				return o.run(ctx)
			})
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.player, "player", "", "`SPEC` of A, the player tested: a registered name, NAME@KEY=VALUE,... with its own\nsettings (see 'evotune games GAME'), or NAME:FILE")
	fs.StringVar(&o.vs, "vs", "", "`SPEC` of B, the player A is tested against")
	fs.StringVar(&o.opponent, "opponent", "", "`SPEC` of the solo games' opponent (Battleship: the placer; default: the game's)")
	fs.StringVar(&o.placer, "placer", "", "`SPEC`: --opponent, for games whose solo opponents are placers (Battleship)")
	addRuleFlag(fs, o.rules)
	o.program.add(cmd)
	fs.BoolVar(&o.headToHead, "head-to-head", false, "test A against B head to head (Elo bounds) in a game that has a solo measure")
	fs.Float64Var(&o.elo0, "elo0", 0, "head to head: A's Elo under H0")
	fs.Float64Var(&o.elo1, "elo1", 5, "head to head: A's Elo under H1")
	fs.StringVar(&o.model, "elo-model", "logistic", "scale of --elo0 and --elo1: logistic or normalized")
	fs.Float64Var(&o.diff0, "diff0", 0, "solo: the mean of A - B under H0, in the game's unit")
	fs.Float64Var(&o.diff1, "diff1", 0, "solo: the mean of A - B under H1 (lower is better: an improvement is negative)")
	fs.Float64Var(&o.alpha, "alpha", 0.05, "chance of accepting H1 when H0 holds")
	fs.Float64Var(&o.beta, "beta", 0.05, "chance of accepting H0 when H1 holds")
	fs.IntVar(&o.maxGames, "max-games", 100_000, "stop without a verdict after `N` games at most (solo: deals, each played by A and by B); head to head an even number")
	fs.IntVar(&o.batch, "batch", 200, "games (solo: deals) between decisions; head to head an even number")
	fs.Uint64Var(&o.seed, "seed", 1, "seed every deal is derived from (eval's deals for the same seed)")
	fs.IntVar(&o.workers, "workers", 0, "games played at once (0: all cores); the verdict does not depend on it")
	fs.BoolVar(&o.json, "json", false, "print the verdict as one JSON document (the batches' lines go to stderr)")
	fs.StringVar(&o.output, "output", "", "write where the test stands to `FILE` after every batch, for evotune ui (name it NAME"+sprtfile.Suffix+" to have it listed)")
	completePlayerFlags(cmd, &o.program)
	return cmd
}

// check refuses flags that cannot make a test, before any game.
func (o *sprtOptions) check(cmd *cobra.Command) error {
	switch {
	case o.player == "" || o.vs == "":
		return usagef("sprt tests one player against another: give --player A and --vs B")
	case !(o.alpha > 0 && o.alpha < 0.5) || !(o.beta > 0 && o.beta < 0.5):
		return usagef("--alpha %g, --beta %g: want each above 0 and below 0.5", o.alpha, o.beta)
	case o.batch < 1 || o.batch > maxEvalGames:
		return usagef("--batch %d: want 1 to %d", o.batch, maxEvalGames)
	case o.maxGames < o.batch || o.maxGames > maxEvalGames:
		return usagef("--max-games %d: want --batch (%d) to %d", o.maxGames, o.batch, maxEvalGames)
	case o.workers < 0 || o.workers > config.MaxWorkers:
		return usagef("--workers %d: want 0 (all cores) to %d", o.workers, config.MaxWorkers)
	}
	if _, err := stats.ParseEloModel(o.model); err != nil {
		return usagef("--elo-model %q: want logistic or normalized", o.model)
	}
	fs := cmd.Flags()
	if o.headToHead && (fs.Changed("diff0") || fs.Changed("diff1")) {
		return usagef("--diff0 and --diff1 bound a solo test; with --head-to-head give --elo0 and --elo1")
	}
	if o.output != "" {
		if err := checkOutput("--output", o.output, sprtOutput); err != nil {
			return err
		}
		return o.checkWriter()
	}
	return nil
}

// checkWriter refuses an --output file that another test in progress
// is writing, as a run directory refuses a second run.
func (o *sprtOptions) checkWriter() error {
	if pid := sprtfile.Writer(o.output, os.Getpid()); pid != 0 {
		return fmt.Errorf("--output %s: the test of process %d is writing it; give another file", o.output, pid)
	}
	return nil
}

// sprtReport is the verdict of a test, as --json prints it: what the
// test is (the fields of its state file) and where it ended.
type sprtReport struct {
	sprtfile.Test
	// Verdict is "H1 accepted", "H0 accepted" or "no verdict" (the cap).
	Verdict string `json:"verdict"`
	// Games counts the games played head to head; in a solo test, the
	// deals, each played by A and by B.
	Games int     `json:"games"`
	LLR   float64 `json:"llr"`
	// Head to head: the pairs and A's figures against B.
	Pairs         *stats.Pentanomial `json:"pentanomial,omitempty"`
	Score         *stats.Estimate    `json:"score,omitempty"`
	Elo           *stats.Estimate    `json:"elo,omitempty"`
	NormalizedElo *stats.Estimate    `json:"normalized_elo,omitempty"`
	// Sequential is A's Elo in the test's model allowing for where the
	// test stopped (fishtest's estimate): the plain figures above lean
	// towards the bound the test crossed.
	Sequential *stats.Sequential `json:"sequential,omitempty"`
	// Solo: the mean of A - B over the deals.
	Difference *stats.Estimate  `json:"difference,omitempty"`
	Batches    []sprtfile.Batch `json:"batches"`
}

// dropInfinite leaves out of the report the estimates that are not
// finite, which JSON cannot hold: one deal's difference has no interval
// (as the state file leaves them out, sprtfile.Write).
func (r *sprtReport) dropInfinite() {
	finite := func(e *stats.Estimate) bool {
		return e != nil && !math.IsInf(e.Value, 0) && !math.IsNaN(e.Value) &&
			!math.IsInf(e.CI95[0], 0) && !math.IsNaN(e.CI95[0]) && !math.IsInf(e.CI95[1], 0) && !math.IsNaN(e.CI95[1])
	}
	for _, e := range []**stats.Estimate{&r.Score, &r.Elo, &r.NormalizedElo, &r.Difference} {
		if !finite(*e) {
			*e = nil
		}
	}
	if r.Sequential != nil && (!finite(&r.Sequential.Elo) || math.IsNaN(r.Sequential.LOS)) {
		r.Sequential = nil
	}
}

// sequential is one kind of test: it plays the games first to
// first+n-1 and says where the test stands.
type sequential interface {
	play(ctx context.Context, first, n int) error
	llr() float64
	estimate() string // the estimate with its interval, for the batch lines
	fill(r *sprtReport)
	tested(r *sprtReport) *stats.Estimate // the tested quantity's estimate, once filled
}

func (o *sprtOptions) run(ctx context.Context) error {
	e := o.e
	workers := workersOf(o.workers)
	g, soloOpp, closeGame, err := openGame(ctx, e, "sprt", o.game, &o.program, o.rules, o.opponent, o.placer, []string{o.player, o.vs})
	if err != nil {
		return err
	}
	defer closeGame()
	role := g.Roles()[0]
	a, err := fitness.ParseSpec(g, role, o.player)
	if err != nil {
		return asUsage(err)
	}
	b, err := fitness.ParseSpec(g, role, o.vs)
	if err != nil {
		return asUsage(err)
	}
	rep := sprtReport{Test: sprtfile.Test{Game: g.Name(), A: o.player, B: o.vs, Alpha: o.alpha, Beta: o.beta, Seed: o.seed}}
	rep.Bounds[0], rep.Bounds[1] = stats.WaldBounds(o.alpha, o.beta)
	var test sequential
	solo, hasSolo := fitness.SoloOf(g)
	switch {
	case hasSolo && !o.headToHead:
		if o.diff0 == o.diff1 {
			return usagef("%s has a solo measure (%s): give bounds on the mean of A - B in %s, --diff0 and --diff1 apart (or --head-to-head for Elo bounds)",
				g.Name(), solo.Measure, solo.Measure)
		}
		if soloOpp == nil && solo.Opponent != "" {
			if soloOpp, err = fitness.ParseSpec(g, solo.Opponent, solo.DefaultOpponent); err != nil {
				return err
			}
		}
		rep.Kind, rep.Unit, rep.H0, rep.H1 = "paired difference", solo.Measure, o.diff0, o.diff1
		test = &soloTest{g: g.(fitness.SoloGame), a: a, b: b, opp: soloOpp, seed: o.seed, workers: workers, measure: solo.Measure,
			sprt: stats.NormalSPRT{Alpha: o.alpha, Beta: o.beta, Mu0: o.diff0, Mu1: o.diff1}}
	default:
		if !fitness.HasHeadToHead(g) {
			return usagef("%s has no head-to-head play", g.Name())
		}
		if o.elo0 == o.elo1 {
			return usagef("--elo0 and --elo1 are both %g: give H0 and H1 apart", o.elo0)
		}
		if o.batch%2 != 0 {
			return usagef("--batch %d: want an even number, head-to-head games are played in seat-swapped pairs", o.batch)
		}
		if o.maxGames%2 != 0 {
			// Its last game would be half a pair, played and counted in
			// --max-games but in no figure.
			return usagef("--max-games %d: want an even number, head-to-head games are played in seat-swapped pairs", o.maxGames)
		}
		model, _ := stats.ParseEloModel(o.model)
		rep.Kind, rep.Unit, rep.H0, rep.H1 = "pentanomial", model.String()+" Elo", o.elo0, o.elo1
		test = &pairTest{g: g, a: a, b: b, seed: fitness.MatchSeed(o.seed), workers: workers,
			sprt: stats.SPRT{Alpha: o.alpha, Beta: o.beta, Elo0: o.elo0, Elo1: o.elo1, Model: model}}
	}
	if o.output != "" {
		// One test writes a state file at a time: a second would overwrite
		// the first's batches, and the first to end would lose its end.
		unlock, err := rundir.LockBeside(o.output)
		if errors.Is(err, rundir.ErrLocked) {
			if err := o.checkWriter(); err != nil {
				return err
			}
			return fmt.Errorf("--output %s: another test is writing it; give another file", o.output)
		}
		if err != nil {
			return err
		}
		defer unlock()
	}
	lines := newSPRTLines(e, o.json)
	fmt.Fprintf(lines.w, "%s: %s vs %s; %s test, H0 %g, H1 %g %s; alpha %g, beta %g; LLR bounds [%.2f, %.2f]\n",
		g.Name(), o.player, o.vs, rep.Kind, rep.H0, rep.H1, rep.Unit, o.alpha, o.beta, rep.Bounds[0], rep.Bounds[1])
	verdict := stats.Continue
	if err := o.writeState(&rep, test, sprtfile.InProgress); err != nil {
		return err
	}
	for rep.Games < o.maxGames && verdict == stats.Continue {
		n := min(o.batch, o.maxGames-rep.Games)
		if err := test.play(ctx, rep.Games, n); err != nil {
			lines.end()
			if werr := o.writeState(&rep, test, sprtfile.Stopped); werr != nil {
				return errors.Join(err, werr)
			}
			return err
		}
		rep.Games += n
		rep.LLR = test.llr()
		verdict = stats.Decide(rep.LLR, rep.Bounds[0], rep.Bounds[1])
		rep.Batches = append(rep.Batches, sprtfile.Batch{Games: rep.Games, LLR: rep.LLR})
		// The state first: a reader that saw the line finds its batch.
		if verdict == stats.Continue && rep.Games < o.maxGames {
			if err := o.writeState(&rep, test, sprtfile.InProgress); err != nil {
				lines.end()
				return err
			}
		}
		lines.batch(fmt.Sprintf("%s: LLR %+.2f [%.2f, %.2f], %s", english.Count(rep.Games, countWord(rep)), rep.LLR, rep.Bounds[0], rep.Bounds[1], test.estimate()))
	}
	lines.end()
	test.fill(&rep)
	rep.Verdict = verdict.String()
	if verdict == stats.Continue {
		rep.Verdict = "no verdict"
	}
	if err := o.writeState(&rep, test, sprtfile.Finished); err != nil {
		return err
	}
	if o.json {
		rep.dropInfinite()
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		writeSPRTVerdict(e.stdout, rep, test.tested(&rep))
	}
	switch verdict {
	case stats.AcceptH0:
		return exitStatus(ExitH0)
	case stats.Continue:
		return exitStatus(ExitInconclusive)
	}
	return nil
}

// sprtOutput is what --output writes: a test's state file.
var sprtOutput = outputKind{"an evotune sprt state file", func(path string) bool {
	_, err := sprtfile.Read(path)
	return err == nil
}}

// writeState writes where the test stands to --output, if given.
func (o *sprtOptions) writeState(rep *sprtReport, test sequential, state string) error {
	if o.output == "" {
		return nil
	}
	st := sprtfile.State{SPRT: sprtfile.Format, State: state, PID: os.Getpid(), Test: rep.Test,
		MaxGames: o.maxGames, Games: rep.Games, LLR: rep.LLR, Verdict: rep.Verdict, Batches: slices.Clone(rep.Batches)}
	if state != sprtfile.Finished {
		st.Verdict = ""
	}
	if rep.Games > 0 {
		var r sprtReport
		test.fill(&r)
		st.Estimate = test.tested(&r)
	}
	return sprtfile.Write(o.output, &st)
}

// writeSPRTVerdict says what the test decided, in words; plain is the
// tested quantity's estimate from the games alone.
func writeSPRTVerdict(w io.Writer, r sprtReport, plain *stats.Estimate) {
	what := "no verdict: --max-games reached with the LLR between its bounds"
	switch r.Verdict {
	case "H1 accepted":
		what = fmt.Sprintf("H1 accepted: %s is nearer %g (H1) than %g (H0)", quantity(r), r.H1, r.H0)
	case "H0 accepted":
		what = fmt.Sprintf("H0 accepted: %s is nearer %g (H0) than %g (H1)", quantity(r), r.H0, r.H1)
	}
	fmt.Fprintf(w, "%s after %s; LLR %+.2f, bounds [%.2f, %.2f], alpha %g, beta %g\n",
		what, english.Count(r.Games, countWord(r)), r.LLR, r.Bounds[0], r.Bounds[1], r.Alpha, r.Beta)
	if q := r.Sequential; q != nil {
		fmt.Fprintf(w, "  %s allowing for where the test stopped (fishtest's estimate): %s, LOS %.1f%%\n", r.Unit, formatElo(q.Elo), 100*q.LOS)
		switch {
		case plain == nil:
		case r.Verdict == stats.Continue.String() || r.Verdict == "no verdict":
			fmt.Fprintf(w, "  (the pairs alone say %s)\n", formatElo(*plain))
		default:
			fmt.Fprintf(w, "  (the pairs alone say %s, which leans towards the bound the test crossed)\n", formatElo(*plain))
		}
	}
}

// quantity names what the test's hypotheses are about.
func quantity(r sprtReport) string {
	if r.Kind == "pentanomial" {
		return fmt.Sprintf("the %s of %s against %s", r.Unit, r.A, r.B)
	}
	return fmt.Sprintf("the mean of %s - %s in %s", r.A, r.B, r.Unit)
}

// countWord is what Games counts: games, or deals that A and B each play.
func countWord(r sprtReport) string {
	if r.Kind == "pentanomial" {
		return "game"
	}
	return "deal"
}

// sprtLines prints a line per batch: redrawn in place on a terminal,
// one after another otherwise; with --json on stderr, so stdout holds
// the document alone.
type sprtLines struct {
	w    io.Writer
	tty  bool
	open bool // a redrawn line is on screen
}

func newSPRTLines(e *env, json bool) *sprtLines {
	if json {
		return &sprtLines{w: e.stderr, tty: e.stderrTTY}
	}
	return &sprtLines{w: e.stdout, tty: e.stdoutTTY}
}

func (l *sprtLines) batch(s string) {
	if !l.tty {
		fmt.Fprintln(l.w, s)
		return
	}
	fmt.Fprintf(l.w, "\r\x1b[K%s", s)
	l.open = true
}

// end closes a redrawn line, keeping the last batch's figures on screen.
func (l *sprtLines) end() {
	if l.open {
		fmt.Fprintln(l.w)
		l.open = false
	}
}

// pairTest is the pentanomial test: A and B in seat-swapped pairs.
type pairTest struct {
	g       fitness.Game
	a, b    fitness.Player
	seed    uint64
	workers int
	sprt    stats.SPRT
	tally   fitness.PairTally
}

func (t *pairTest) play(ctx context.Context, first, n int) error {
	got, err := fitness.PlayPairsFrom(ctx, t.g, t.a, t.b, first, n, t.seed, t.workers, nil)
	if err != nil {
		return err
	}
	t.tally.Merge(got.Tally)
	t.tally.Pairs.Merge(got.Pairs)
	return nil
}

func (t *pairTest) llr() float64 { return t.sprt.LLR(t.tally.Pairs) }

func (t *pairTest) estimate() string {
	s := t.tally.Pairs.Score()
	est := t.tally.Pairs.Elo()
	if t.sprt.Model == stats.Normalized {
		est = t.tally.Pairs.NormalizedElo()
	}
	return fmt.Sprintf("score %.4f [%.4f, %.4f], %s Elo %s", s.Value, s.CI95[0], s.CI95[1], t.sprt.Model, formatElo(est))
}

func (t *pairTest) tested(r *sprtReport) *stats.Estimate {
	if t.sprt.Model == stats.Normalized {
		return r.NormalizedElo
	}
	return r.Elo
}

func (t *pairTest) fill(r *sprtReport) {
	p, s, e, n := t.tally.Pairs, t.tally.Pairs.Score(), t.tally.Pairs.Elo(), t.tally.Pairs.NormalizedElo()
	r.Pairs, r.Score, r.Elo, r.NormalizedElo = &p, &s, &e, &n
	if seq, ok := t.sprt.Sequential(p); ok {
		r.Sequential = &seq
	}
}

// soloTest is the test on paired costs: A and B on the same deals.
type soloTest struct {
	g       fitness.SoloGame
	a, b    fitness.Player
	opp     fitness.Player
	seed    uint64
	workers int
	measure string
	sprt    stats.NormalSPRT
	ca, cb  []float64
}

func (t *soloTest) play(ctx context.Context, first, n int) error {
	ms := make([]fitness.Match, 0, 2*n)
	for i := first; i < first+n; i++ {
		s := fitness.SoloSeed(t.seed, i)
		ms = append(ms, fitness.Match{A: t.a, B: t.opp, Seed: s}, fitness.Match{A: t.b, B: t.opp, Seed: s})
	}
	costs, err := fitness.PlaySoloMatches(ctx, t.g, ms, t.workers, nil)
	if err != nil {
		return err
	}
	for k := 0; k < len(costs); k += 2 {
		t.ca, t.cb = append(t.ca, costs[k]), append(t.cb, costs[k+1])
	}
	return nil
}

func (t *soloTest) diff() stats.Estimate { return stats.PairedDifference(t.ca, t.cb) }

func (t *soloTest) llr() float64 {
	d := make([]float64, len(t.ca))
	for i := range d {
		d[i] = t.ca[i] - t.cb[i]
	}
	mean, sd := stats.MeanSD(d)
	return t.sprt.LLR(len(d), mean, sd*sd)
}

func (t *soloTest) estimate() string {
	d := t.diff()
	return fmt.Sprintf("A - B = %+.3f [%+.3f, %+.3f] %s", d.Value, d.CI95[0], d.CI95[1], t.measure)
}

func (t *soloTest) tested(r *sprtReport) *stats.Estimate { return r.Difference }

func (t *soloTest) fill(r *sprtReport) {
	d := t.diff()
	r.Difference = &d
}
