package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/engine/model"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/rundir"
)

// Progress is told how a run goes; the CLI draws it. Calls come from the
// run's goroutine except Games, which workers call concurrently.
type Progress interface {
	// StartGeneration: generation gen (from 0) of budget begins, with games to play.
	StartGeneration(gen, budget, games int)
	Games(done int)
	EndGeneration(gen int, s GenStats, best Member)
}

// RunInfo is what a Progress that also has a Begin(RunInfo) method is
// told once, before the first generation a process plays.
type RunInfo struct {
	Objective     string
	LowerIsBetter bool
	Budget        int // the generation budget
	From          int // the first generation this process plays, from 0
	// EndGames is the games a finished run plays after its last
	// generation: the remeasure of its best.
	EndGames int
}

// Options control a run without changing its results.
type Options struct {
	Dir     string // the run directory
	Workers int    // games at once; 0: the config's run.workers, else all cores
	// Generations, when set, is the generation budget (resume may raise it).
	Generations int
	Progress    Progress
	// Stop, when closed, ends the run after the generation in flight has
	// been checkpointed; cancelling ctx instead abandons that generation.
	Stop <-chan struct{}
	// Now is the clock for run.log only; nil means time.Now.
	Now func() time.Time
	// AcceptProgramChange lets resume continue with an outside program
	// whose files or announced description differ from the checkpoint's.
	AcceptProgramChange bool
	// Pool plays the games; nil means LocalPool(Workers). Results do not
	// depend on it.
	Pool Pool
	// BatchGames is how many games a batch (a work unit, and a line of
	// the match journal) holds; 0 means DefaultBatchGames on the local
	// pool and, on another Pool, a size derived from each generation's
	// number of games (autoBatchGames). Results do not depend on it.
	BatchGames int
}

// ErrStopped is returned when a run ended early because Stop was closed.
var ErrStopped = errors.New("engine: stopped on request")

// Errors that mean the user asked for something that cannot be done; the
// CLI exits 2 for them.
var (
	// ErrRunExists is returned when Start finds a run already in its directory.
	ErrRunExists = errors.New("already holds a run")
	// ErrConfigChanged is returned when resume finds config.yaml edited in
	// a way that changes results.
	ErrConfigChanged = errors.New("edited in ways that change results")
	// ErrBudget is returned for a generation budget below the generations run.
	ErrBudget = errors.New("budget below the generations already run")
	// ErrModelBudget is returned for a budget given beside the config
	// that its model cannot take (bayes's most genomes told).
	ErrModelBudget = errors.New("a budget the model cannot take")
)

// Result is where a run ended. Start and Resume return one with the
// error of a run that began and then stopped or failed, Best unset
// unless it stopped on request, so that the caller can say how to resume
// it.
type Result struct {
	Generation int // generations completed
	Budget     int
	// ConfigBudget is the budget of the run directory's config
	// (evolution.generations): a resume without --generations runs to it,
	// not to a Budget given with --generations.
	ConfigBudget int
	Best         Member
	Dir          string
	// Final is a finished run's last checkpoint and Setup the setup it
	// ran with (closed: it describes the run, and plays no more), from
	// which runs.Summarize says what the run found; both nil unless the
	// run finished, writing its directory.
	Final *Checkpoint
	Setup *Setup
	// Unmeasured says a run stopped on request (ErrStopped) during its
	// end-of-run remeasure: its last generation is checkpointed without
	// the remeasure's figures, which a resume plays.
	Unmeasured bool
	// Resumed says this process resumed the run after generation From
	// (its checkpoint's), and RemeasuredHere that it played the end's
	// remeasure: the part of the run this process played, which
	// runs.Of counts (Summary.Resumed).
	Resumed        bool
	From           int
	RemeasuredHere bool
}

// runner is a run of a Setup.
type runner struct {
	*Setup
	dir      string
	workers  int
	budget   int
	progress Progress
	stop     <-chan struct{}
	now      func() time.Time
	log      io.Writer

	pool       Pool
	batchGames int
	autoBatch  bool            // batchGames is set per generation (autoBatchGames)
	journal    *rundir.Journal // the generation's; nil journals nothing
	id         string          // runID, once computed

	lastGames int           // games of the last evaluated generation
	gen       *genNotes     // what the referee said of the generation in play
	models    []model.Model // each species' model
	replayed  int           // games of the generation in flight read back from the journal

	// resumed says this process resumed the run after generation from;
	// endHere that it played the end's remeasure (its summary counts
	// what this process played).
	resumed   bool
	from      int
	endHere   bool
	lastSaved int // games racing saved in it
	race      *race
	// With ratings, the last generation's rated genomes and their ratings.
	rated   *ratingNodes
	ratings []fitness.Rating
}

func newRunner(s *Setup, opts Options) *runner {
	r := &runner{Setup: s, dir: opts.Dir, workers: opts.Workers, budget: s.cfg.Evolution.Generations,
		progress: opts.Progress, stop: opts.Stop, now: opts.Now}
	if r.workers == 0 {
		r.workers = s.cfg.Run.Workers
	}
	if r.workers == 0 {
		r.workers = runtime.NumCPU()
	}
	if opts.Generations > 0 {
		r.budget = opts.Generations
	}
	if r.now == nil {
		r.now = time.Now
	}
	r.pool, r.batchGames = opts.Pool, opts.BatchGames
	_, local := r.pool.(localPool)
	if r.pool == nil {
		r.pool, local = LocalPool(r.workers), true
	}
	if r.batchGames == 0 {
		r.batchGames, r.autoBatch = DefaultBatchGames, !local
	}
	return r
}

// checkBudget refuses a budget of gens generations given beside the
// config (0: none) that the config's model cannot take.
func (s *Setup) checkBudget(gens int) error {
	if gens == 0 || gens == s.cfg.Evolution.Generations {
		return nil
	}
	if why := s.cfg.Evolution.CheckBudget(gens); why != "" {
		return fmt.Errorf("%w: --generations %s", ErrModelBudget, why)
	}
	return nil
}

// check refuses options above the limits the config's own keys have.
func (o Options) check() error {
	if o.Generations > config.MaxGenerations {
		return fmt.Errorf("%w: %d generations, more than the limit of %d", ErrBudget, o.Generations, config.MaxGenerations)
	}
	if o.Workers < 0 || o.Workers > config.MaxWorkers {
		return fmt.Errorf("engine: %d workers: want 0 (all cores) to %d", o.Workers, config.MaxWorkers)
	}
	if o.BatchGames < 0 || o.BatchGames > MaxBatchGames {
		return fmt.Errorf("engine: batches of %d games: want 0 (the default, %d) to %d", o.BatchGames, DefaultBatchGames, MaxBatchGames)
	}
	return nil
}

// Start begins a new run of s in opts.Dir, which must not hold one.
func Start(ctx context.Context, s *Setup, opts Options) (*Result, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot make the run directory %s: %w", opts.Dir, fileio.Cause(err))
	}
	if err := rundir.CheckOwnership(opts.Dir); err != nil {
		return nil, err
	}
	lock, err := rundir.LockRunDir(opts.Dir)
	if err != nil {
		return nil, err
	}
	wrote := false // a refused start leaves the directory as it was
	defer func() { lock.Release(wrote) }()
	if lock.ReadOnly() {
		return nil, fmt.Errorf("%s %w: no run can be started there", opts.Dir, rundir.ErrReadOnly)
	}
	// Only a checkpoint holds results; a directory without one (a run
	// killed during its first generation) may be started again.
	if _, err := os.Stat(filepath.Join(opts.Dir, rundir.CheckpointFile)); err == nil {
		return nil, fmt.Errorf("%s %w", opts.Dir, ErrRunExists)
	}
	if err := s.checkBudget(opts.Generations); err != nil {
		return nil, err
	}
	wrote = true
	if err := lock.RemoveStaleTemps(); err != nil {
		return nil, err
	}
	if err := rundir.WriteAtomic(disk, filepath.Join(opts.Dir, rundir.ConfigFile), s.cfg.Text()); err != nil {
		return nil, err
	}
	r := newRunner(s, opts)
	logf, err := r.openLog()
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	c := s.cfg
	r.logf("start %s: game %s, player %s, model %v, population %d, %s, %s",
		c.Name, c.Game, c.Player, c.Evolution.Model.Name, c.Evolution.Population, english.Count(r.budget, "generation"), english.Count(r.workers, "worker"))
	if c := c.Evolution.Chosen; c != "" {
		r.logf("model: %s", c)
	}
	r.logEngines()
	if err := r.startModels(); err != nil {
		return nil, err
	}
	genomes, err := r.ask(0)
	if err != nil {
		r.closeModels()
		return nil, err
	}
	return r.loop(ctx, 0, genomes, make([]SpeciesState, len(s.species)))
}

// Resume continues the run in opts.Dir from its checkpoint. It refuses when
// the directory's config.yaml was edited in a way that changes results,
// naming the keys; a larger generation budget is allowed. The run's
// outside program, if any, is started once, for the run.
//
// Resume holds the directory's lock. A finished run in a directory it
// cannot write is reported as it stands, and nothing is written.
func Resume(ctx context.Context, opts Options) (*Result, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	// A directory without a checkpoint gets its error before anything,
	// a lock file included, is made in it.
	if _, err := os.Lstat(filepath.Join(opts.Dir, rundir.CheckpointFile)); err != nil {
		_, _, err := ReadRun(opts.Dir)
		return nil, err
	}
	lock, err := rundir.LockRunDir(opts.Dir)
	if err != nil {
		return nil, err
	}
	wrote := false // a refused resume leaves the directory as it was
	defer func() { lock.Release(wrote) }()
	// The run as its reader sees it: what config.yaml is compared with.
	ck, was, wasErr := ReadRun(opts.Dir)
	if ck == nil || wasErr != nil && !errors.Is(wasErr, errNotRecorded) {
		// A player file edited since the run is config.yaml's to name,
		// below, as an edit.
		return nil, wasErr
	}
	if was != nil {
		was.Close() // it started nothing; closed for form's sake
	}
	cfgPath := filepath.Join(opts.Dir, rundir.ConfigFile)
	text, err := fileio.ReadFile(cfgPath, fileio.MaxConfig)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	s, err := load(cfgPath, text, baseDirOf(ck), resuming(ck.ConfigHash))
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if now := s.record(); now != nil && ck.Program != nil && !sameJSON(now.Description, ck.Program.Description) && !opts.AcceptProgramChange {
		return nil, fmt.Errorf("%s: %w since the checkpoint: the announced %s",
			opts.Dir, ErrProgramChanged, describeChange(ck.Program.Description, now.Description))
	}
	if ck.Name != "" && !s.cfg.Has("name") {
		s.cfg.Name = ck.Name
	}
	if s.Hash() != ck.ConfigHash {
		if was == nil {
			return nil, wasErr
		}
		now := s.cfg
		if was.legacy && !s.legacy {
			// Compare like with like: the run's model is the old default's.
			if old, ok := s.resolve(true); ok {
				now = old
			}
		}
		return nil, fmt.Errorf("%s was %w (%s); the checkpoint belongs to the config it was started with — restore it, or start a new run",
			cfgPath, ErrConfigChanged, joinKeys(was.cfg.ChangedKeys(now)))
	}
	var changed []string
	for spec, sum := range ck.Files {
		if s.files[spec] != sum {
			changed = append(changed, "file "+spec)
		}
	}
	if len(changed) > 0 {
		sort.Strings(changed)
		return nil, fmt.Errorf("%s: player files the config names were %w (%s); restore them, or start a new run",
			opts.Dir, ErrConfigChanged, strings.Join(changed, ", "))
	}
	changes := append(programChanges(ck.Program, s.record()), engineChanges(ck.Engines, s.engineRecords())...)
	if len(changes) > 0 {
		if !opts.AcceptProgramChange {
			return nil, fmt.Errorf("%s: %w since the checkpoint: %s; restore it, or accept the change (results will differ from a straight run)",
				opts.Dir, ErrProgramChanged, strings.Join(changes, "; "))
		}
	}
	if was == nil {
		return nil, wasErr
	}
	r := newRunner(s, opts)
	r.resumed, r.from = true, ck.Generation
	if opts.Generations == 0 && ck.Budget > 0 && s.cfg.Evolution.Generations == was.cfg.Evolution.Generations {
		// The budget the run was given (run --generations), not the
		// config's, which was not edited since.
		r.budget = ck.Budget
	}
	if err := s.checkBudget(r.budget); err != nil {
		return nil, err
	}
	if r.budget < ck.Generation {
		return nil, fmt.Errorf("%w: a budget of %s, %d already run", ErrBudget, english.Count(r.budget, "generation"), ck.Generation)
	}
	finished := ck.Generation >= r.budget || s.Stopped(ck.History) != nil
	if lock.ReadOnly() {
		if finished {
			return r.result(ck.Generation, ck.HallOfFame[0]), nil
		}
		return nil, fmt.Errorf("%s %w: %d of %s run; the rest cannot be", opts.Dir, rundir.ErrReadOnly, ck.Generation, english.Count(r.budget, "generation"))
	}
	wrote = true
	if err := lock.RemoveStaleTemps(); err != nil {
		return nil, err
	}
	logf, err := r.openLog()
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	r.logf("resume %s at generation %d of %d, %s", s.cfg.Name, ck.Generation, r.budget, english.Count(r.workers, "worker"))
	r.logEngines()
	if finished && r.remeasureMissing(ck) {
		rctx, cancel := r.untilStop(ctx)
		err := r.finishRemeasure(rctx, ck)
		cancel()
		if err != nil && ctx.Err() == nil && r.stopRequested() {
			r.logf("stopped on request during the remeasure of the finished run; resume plays it again")
			res := r.result(ck.Generation, ck.HallOfFame[0])
			res.Unmeasured = true
			return res, ErrStopped
		}
		if err != nil {
			return nil, err
		}
	}
	// Rewrite the derived files from the checkpoint: a kill between the
	// checkpoint and them must not leave them a generation behind.
	if err := r.writeDerived(ck); err != nil {
		return nil, err
	}
	if finished {
		rundir.RemoveJournal(r.dir, nil) // of a run killed as it finished
		return r.finished(ck.Generation, ck), nil
	}
	states := ck.states()
	if err := r.startModels(); err != nil {
		return nil, err
	}
	for i, sp := range s.species {
		if err := sp.resumeModel(r.models[i], ck.Generation, states[i]); err != nil {
			r.closeModels()
			return nil, err
		}
	}
	genomes, err := r.ask(ck.Generation)
	if err != nil {
		r.closeModels()
		return nil, err
	}
	return r.loop(ctx, ck.Generation, genomes, states)
}

func joinKeys(keys []string) string {
	if len(keys) == 0 {
		return "settings"
	}
	s := keys[0]
	for _, k := range keys[1:] {
		s += ", " + k
	}
	return s
}

// result is a Result of the run after generation gen.
func (r *runner) result(gen int, best Member) *Result {
	return &Result{Generation: gen, Budget: r.budget, ConfigBudget: r.cfg.Evolution.Generations, Best: best, Dir: r.dir,
		Resumed: r.resumed, From: r.from, RemeasuredHere: r.endHere}
}

// finished is the Result of the run finished after generation gen, whose
// last checkpoint is ck.
func (r *runner) finished(gen int, ck *Checkpoint) *Result {
	res := r.result(gen, ck.HallOfFame[0])
	res.Final, res.Setup = ck, r.Setup
	return res
}

// loop evaluates generations gen.. until the budget, checkpointing each.
func (r *runner) loop(ctx context.Context, gen int, genomes [][][]float64, states []SpeciesState) (res *Result, err error) {
	defer r.closeModels()
	defer func() { r.journal.Close() }()
	checkpointed := gen
	var last *Checkpoint // the last checkpoint written
	defer func() {
		if err != nil && res == nil {
			res = r.result(checkpointed, Member{})
		}
	}()
	if b, ok := r.progress.(interface{ Begin(RunInfo) }); ok {
		b.Begin(RunInfo{Objective: r.cfg.ObjectiveName(), LowerIsBetter: r.species[0].minimise,
			Budget: r.budget, From: gen, EndGames: r.remeasureGames()})
	}
	for ; gen < r.budget; gen++ {
		began := r.now()
		hofs := make([][]Member, len(states))
		for s := range states {
			hofs[s] = states[s].HallOfFame
		}
		members, err := r.evaluate(ctx, gen, genomes, hofs)
		if err != nil {
			r.logf("generation %d abandoned: %v", gen+1, err)
			return nil, err
		}
		for s, sp := range r.species {
			sorted, err := r.tell(s, gen, members[s])
			if err != nil {
				return nil, err
			}
			hof := r.updateHallOfFame(sp, states[s].HallOfFame, sorted)
			row := r.stats(gen, sorted, r.lastGames)
			row.Saved = r.lastSaved
			if s == 0 && len(r.gen.faults) > 0 {
				row.Faults = r.gen.faults
			}
			row.BestGenes = slices.Clone(hof[0].Genes)
			states[s] = SpeciesState{
				Population: sorted,
				HallOfFame: hof,
				History:    append(states[s].History, row),
				Model:      r.models[s].State(),
			}
		}
		// The run ends at its budget, or earlier by its stop rule, read
		// from the history alone.
		stopped := r.Stopped(states[0].History)
		done := gen+1 == r.budget || stopped != nil
		unmeasured := false
		if done {
			// The final figures go into the last checkpoint with the
			// generation, so no kill leaves a finished run without them.
			// A stop asked for meanwhile ends the remeasure at once, which
			// may take as long as generations: the generation is
			// checkpointed without its figures, and a resume plays them
			// (finishRemeasure), as a straight run would have.
			// The remeasure's games are no generation's: their faults
			// go to run.log alone (playResults, and here those its
			// batches played through the pool), their records nowhere.
			g := r.gen
			r.gen = &genNotes{faults: FaultCounts{}}
			rctx, cancel := r.untilStop(ctx)
			err := r.remeasure(rctx, states)
			cancel()
			if f := r.gen.faults; len(f) > 0 {
				r.logf("remeasure: games lost to faults: %s", f)
			}
			r.gen = g
			switch {
			case err != nil && ctx.Err() == nil && r.stopRequested():
				for s := range states {
					states[s].Remeasured, states[s].Verdict = nil, nil
				}
				unmeasured = true
			case err != nil:
				r.logf("generation %d abandoned: %v", gen+1, err)
				return nil, err
			}
		}
		if err := r.writeRecords(gen); err != nil {
			return nil, err
		}
		if f := r.gen.faults; len(f) > 0 {
			r.logf("generation %d: games lost to faults: %s", gen+1, f)
		}
		ck := &Checkpoint{Format: CheckpointFormat, Name: r.cfg.Name, ConfigHash: r.Hash(), Config: string(r.cfg.Text()),
			ConfigDir: r.checkpointDir(), Files: r.files, Program: r.record(), Engines: r.engineRecords(), Generation: gen + 1, SpeciesState: states[0]}
		if r.budget != r.cfg.Evolution.Generations {
			ck.Budget = r.budget
		}
		if len(states) > 1 {
			ck.Rivals = &states[1]
		}
		if err := r.writeCheckpoint(ck); err != nil {
			return nil, err
		}
		checkpointed, last = gen+1, ck
		secs := r.now().Sub(began).Seconds()
		for s, sp := range r.species {
			st := states[s]
			r.logf("generation %d/%d%s: best %.6g, mean %.6g, best so far %.6g over %d games; %d games in %.2fs (%.0f games/s)",
				gen+1, r.budget, labelled(sp), st.Population[0].Fitness, st.History[gen].Mean,
				st.HallOfFame[0].Fitness, st.HallOfFame[0].Games, r.lastGames, secs, float64(r.lastGames)/max(secs, 1e-9))
		}
		main := states[0]
		if r.progress != nil {
			r.progress.EndGeneration(gen, main.History[gen], main.HallOfFame[0])
		}
		if unmeasured {
			rundir.RemoveJournal(r.dir, r.journal)
			r.logf("stopped on request during the remeasure after generation %d; resume plays it", gen+1)
			res := r.result(gen+1, main.HallOfFame[0])
			res.Unmeasured = true
			return res, ErrStopped
		}
		if done {
			rundir.RemoveJournal(r.dir, r.journal)
			if stopped != nil {
				r.logf("%s", stopped)
			}
			r.logf("finished %s", english.Count(gen+1, "generation"))
			return r.finished(gen+1, ck), nil
		}
		if r.stopRequested() {
			r.logf("stopped after generation %d on request", gen+1)
			return r.result(gen+1, main.HallOfFame[0]), ErrStopped
		}
		if genomes, err = r.ask(gen + 1); err != nil {
			return nil, err
		}
	}
	// A resumed run whose budget was already reached ends above; the
	// loop ends by its last generation.
	rundir.RemoveJournal(r.dir, r.journal)
	if last == nil {
		return r.result(gen, states[0].HallOfFame[0]), nil
	}
	return r.finished(gen, last), nil
}

// startModels starts every species' model.
func (r *runner) startModels() error {
	for _, sp := range r.species {
		m, err := r.newModel(sp, r.logf)
		if err != nil {
			r.closeModels()
			return err
		}
		r.models = append(r.models, m)
	}
	return nil
}

// newModel starts species sp's model, logging to logf.
func (s *Setup) newModel(sp *species, logf func(string, ...any)) (model.Model, error) {
	return s.cfg.Evolution.New(model.Problem{Space: sp.space, Starts: sp.starts, Minimise: sp.minimise,
		Streams: s.modelStreams(sp), Logf: logf, Label: labelled(sp)})
}

// resumeModel rebuilds species sp's model m as it was once told
// generation gens-1, whose state st is.
func (sp *species) resumeModel(m model.Model, gens int, st SpeciesState) error {
	// The checkpoint keeps the last generation best first.
	last := model.Generation{Results: make([]model.Result, len(st.Population))}
	for i, mb := range st.Population {
		last.Results[i] = modelResult(sp, mb)
		last.Ranked = append(last.Ranked, i)
	}
	return m.Resume(gens-1, st.Model, last)
}

// modelPairs is the population mode's pairing of generation gen when the
// main species' model chooses it (model.Pairer).
func (r *runner) modelPairs(gen int) ([][2]int, bool) {
	if len(r.models) == 0 {
		return nil, false
	}
	p, ok := r.models[0].(model.Pairer)
	if !ok {
		return nil, false
	}
	return p.Pairs(gen), true
}

// ask returns every species' genomes of generation gen.
func (r *runner) ask(gen int) ([][][]float64, error) {
	genomes := make([][][]float64, len(r.models))
	for s, m := range r.models {
		var err error
		if genomes[s], err = m.Ask(gen); err != nil {
			return nil, err
		}
	}
	return genomes, nil
}

// tell tells species s's model the results of generation gen (members,
// in the order it asked for them) and returns them best first.
func (r *runner) tell(s, gen int, members []Member) ([]Member, error) {
	sp := r.species[s]
	ranked := r.rankGeneration(sp, members)
	g := model.Generation{Results: make([]model.Result, len(members)), Ranked: ranked}
	// Only the main species races (racing refuses co-evolution).
	raced := s == 0 && r.race != nil && len(r.race.alive) == len(members)
	for i, m := range members {
		g.Results[i] = modelResult(sp, m)
		g.Results[i].Dropped = raced && !r.race.alive[i]
	}
	if err := r.models[s].Tell(gen, g); err != nil {
		return nil, err
	}
	sorted := make([]Member, len(ranked))
	for k, i := range ranked {
		sorted[k] = members[i]
	}
	return sorted, nil
}

// modelResult is member m of species sp as its model is told it.
func modelResult(sp *species, m Member) model.Result {
	return model.Result{Genes: m.Genes, Cost: sp.cost(m), Games: m.Games, SE: (m.CI95[1] - m.CI95[0]) / (2 * 1.96)}
}

// closeModels releases the models (CMA-ES's goroutines).
func (r *runner) closeModels() {
	for _, m := range r.models {
		m.Close()
	}
	r.models = nil
}

func labelled(sp *species) string {
	if sp.label == "" {
		return ""
	}
	return " (" + sp.label + ")"
}

// untilStop is ctx, cancelled too when the run is asked to stop: for
// work that checkpoints nothing until it is done (the end-of-run
// remeasure), which a stop therefore ends at once.
func (r *runner) untilStop(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	switch {
	case r.stopRequested():
		cancel() // now, not when a goroutine gets round to it
	case r.stop != nil:
		go func() {
			select {
			case <-r.stop:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	return ctx, cancel
}

func (r *runner) stopRequested() bool {
	select {
	case <-r.stop:
		return true
	default:
		return false
	}
}

// writeCheckpoint writes the checkpoint first (the truth), then the files
// derived from it.
func (r *runner) writeCheckpoint(ck *Checkpoint) error {
	data, err := ck.encode()
	if err != nil {
		return err
	}
	if err := r.writeFile(rundir.CheckpointFile, data); err != nil {
		return err
	}
	return r.writeDerived(ck)
}

func (r *runner) writeDerived(ck *Checkpoint) error {
	for s, st := range ck.states() {
		sp := r.species[s]
		csv := historyCSV(st.History)
		if r.cfg.Racing != nil {
			csv = racingCSV(st.History)
		}
		if err := r.writeFile(rundir.ForSpecies(sp.label, rundir.GenerationsFile), csv); err != nil {
			return err
		}
		best, err := r.exportYAML(sp, st, 1)
		if err != nil {
			return err
		}
		if err := r.writeFile(rundir.ForSpecies(sp.label, rundir.BestFile), best); err != nil {
			return err
		}
		svg, err := r.report(sp, st)
		if err != nil {
			return err
		}
		if err := r.writeFile(rundir.ForSpecies(sp.label, rundir.ReportFile), svg); err != nil {
			return err
		}
	}
	return nil
}

func (r *runner) openLog() (io.Closer, error) {
	path := filepath.Join(r.dir, rundir.LogFile)
	f, err := fileio.OpenAppend(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) { // "is a directory" alone does not say what is
			err = fmt.Errorf("%s: %w", path, pe.Err)
		}
		return nil, fmt.Errorf("engine: %w", err)
	}
	r.log = f
	r.logProgram(f)
	return closerFunc(func() error {
		// An outside program's last words (each process's count of the
		// stderr lines dropped, written as it ends) belong in run.log:
		// its processes end before the log closes, not after.
		r.closeProgram()
		r.logProgram(nil)
		return f.Close()
	}), nil
}

// closerFunc is a function as an io.Closer.
type closerFunc func() error

func (f closerFunc) Close() error { return f() }

// logf appends a timestamped line to run.log: the only place clock values
// go, so every other file of two identical runs compares byte for byte.
func (r *runner) logf(format string, args ...any) {
	if r.log == nil {
		return
	}
	fmt.Fprintf(r.log, "%s %s\n", r.now().UTC().Format(time.RFC3339), fmt.Sprintf(format, args...))
}

// logEngines says in run.log what validate says of the engines: their
// limits, and whether their games replay.
func (r *runner) logEngines() {
	for _, line := range strings.Split(r.enginesSummary(), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			r.logf("%s", line)
		}
	}
}
