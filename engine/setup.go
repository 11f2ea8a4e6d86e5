package engine

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/engine/model"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/internal/yamlcheck"
)

// Setup is a config prepared (Prepare): the config resolved for its game
// (its objective, model and budget settled, config.Config.WithGame and
// Plan), the game, each species' space, seeds and baselines, the outside
// program and the hashes of the player files. It is the only value that
// holds what a config's game holds (an outside program's processes), and
// is closed when done with.
type Setup struct {
	cfg     *config.Config // resolved: WithGame, then Plan
	written *config.Config // as Parse returned it: Plan starts again from it
	built   *config.Built  // what the species were built as, for Plan

	game    fitness.Game
	role    fitness.Role // the tuned role: the game's first
	solo    fitness.Solo // the game's solo declaration, if it has one
	hasSolo bool
	main    *species   // the main species, as far as it was built
	species []*species // the main species (main, once built), then the rivals when co-evolving
	program *program   // the outside program, with command:
	engines *engineSet // the UCI engines, with engines:

	relative bool              // some spec names a file relative to the config's directory
	files    map[string]string // NAME:FILE spec as written -> sha256 of the file
	// legacy says the model was chosen as before model.SoloDefault
	// (matchHash).
	legacy bool
}

// species is one evolving population: who it is and how it is scored.
type species struct {
	label     string           // "" for the main species, "rivals" for the co-evolving one
	player    string           // the tuned player's name
	settings  fitness.Settings // its settings, from player: NAME@KEY=VALUE
	role      fitness.Role
	space     *genome.Space
	starts    [][]float64 // the genomes of its seeds: section
	baselines []fitness.Player
	minimise  bool
	// offset keeps the rivals' random streams apart from the main
	// species' (which are those of a run without rivals).
	offset uint64
}

// For says who prepares a config, and so what Prepare may do with what
// it names outside evotune: the outside program (and whatever else a
// config may start one day) and the player files.
//
// The zero For is a run's: the program is started and asked what it
// offers, and every player file is read. A worker's (ForWorker) starts a
// program only when allowed to, and reads only the player files its
// coordinator has too, byte for byte. A run's reader (ReadRun) starts
// nothing: a program is described as the run recorded it, and only the
// player files the run recorded are read.
type For struct {
	kind forKind
	// allowPrograms lets a worker start the programs configs name.
	allowPrograms bool
	// files are the player files a worker or a reader may read: NAME:FILE
	// spec as written -> sha256 of the file; a file that is not byte for
	// byte that one is refused before anything parses it, so a config
	// naming another file learns nothing of its contents from a message.
	files map[string]string
	// recorded is a reader's record of the run's program, and engines
	// its record of the run's UCI engines.
	recorded *external.Description
	engines  map[string]*engineRecord
	// engineFiles are a worker's coordinator's engine files: engine name
	// -> command entry -> sha256. A worker plays no other build.
	engineFiles map[string]map[string]string
	// playEngines: a reader that starts the run's engines, to play them
	// (compare), refusing a build other than the run's.
	playEngines bool
	// hash is the hash the config was run with (a checkpoint's, a
	// coordinator's): it settles which default model a config that names
	// none runs (matchHash); "" for a new run.
	hash string
}

type forKind uint8

const (
	forRun forKind = iota
	forWorker
	forReader
)

// ForWorker is For a worker that plays a coordinator's batches: it
// starts an outside program only when allowPrograms, and reads only the
// player files whose hashes files holds (the coordinator's); hash is the
// coordinator's config hash, and engineFiles its engines' files
// (Setup.EngineFiles), which the worker's engines must match byte for
// byte.
func ForWorker(allowPrograms bool, files map[string]string, hash string, engineFiles map[string]map[string]string) For {
	return For{kind: forWorker, allowPrograms: allowPrograms, files: files, hash: hash, engineFiles: engineFiles}
}

// readerOf is For a reader of the run whose checkpoint is ck.
func readerOf(ck *Checkpoint) (For, error) {
	f := For{kind: forReader, files: ck.Files, hash: ck.ConfigHash, engines: ck.Engines}
	if ck.Program != nil {
		var err error
		if f.recorded, err = external.ParseDescription(ck.Program.Description); err != nil {
			return f, err
		}
	}
	return f, nil
}

// resuming is For a run that continues one whose config had hash.
func resuming(hash string) For { return For{hash: hash} }

// starts says whether Prepare starts an outside process the config
// names at key: a run does, a worker does when allowed to (else the
// config is refused there, with ErrProgramRefused), and a reader never
// does: it describes the process from what the run recorded.
func (f For) starts(p *yamlcheck.Checker, key string) (start, ok bool) {
	switch {
	case f.kind == forReader:
		return false, true
	case f.kind == forWorker && !f.allowPrograms:
		p.AddErrors(yamlcheck.Errors{{Line: p.Line(key), Key: key, Msg: ErrProgramRefused.Error(), Err: ErrProgramRefused}})
		return false, false
	}
	return true, true
}

// admits refuses a player file that a worker's coordinator or a reader's
// run did not have: spec names file, whose hash is sum ("" when it
// could not be read). Nothing of the file is read into the message. A
// reader lets a file it cannot read through, to be refused by what
// reads it ("no such file"): its name is the run's.
func (f For) admits(spec, file, sum string) error {
	if f.kind == forRun {
		return nil
	}
	want, ok := f.files[spec]
	switch {
	case ok && sum != "" && sum == want:
		return nil
	case f.kind == forReader && ok && sum == "":
		return nil
	case f.kind == forReader:
		return notRecorded(fmt.Sprintf("%s: %s is not the file the run was started with (moved or edited since)", spec, file))
	}
	return fmt.Errorf("%s: this worker's %s is not the coordinator's file (copy the player files a config names beside it on every worker, at the same paths)", spec, file)
}

// notRecorded is a reader's refusal of a player file that is not the
// one its run recorded (errNotRecorded).
type notRecorded string

func (e notRecorded) Error() string        { return string(e) }
func (e notRecorded) Is(target error) bool { return target == errNotRecorded }

// errNotRecorded marks a reader's refusal of a player file edited since
// its run recorded it: resume reports it as an edit of the config.
var errNotRecorded = errors.New("not the player file the run recorded")

// report records err at key, keeping what err stands for (errors.Is
// finds it through the problems Prepare returns).
func report(p *yamlcheck.Checker, key string, err error) {
	p.AddErrors(yamlcheck.Errors{{Line: p.Line(key), Key: key, Msg: oneLine(err), Err: err}})
}

// ErrProgramRefused is returned when a worker is sent a config that plays
// an outside program and was not allowed to run programs.
var ErrProgramRefused = errors.New("the config plays an outside program, which this worker does not run (start it with --allow-programs)")

// Load reads a config file, parses it and prepares it for a run:
// config.Parse and Prepare, every problem of either reported at once, in
// line order, as config.Errors with file:line: key: message.
func Load(file string) (*Setup, error) {
	text, err := fileio.ReadFile(file, fileio.MaxConfig)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return load(file, text, "", For{})
}

// Prepare builds what the config needs, for whom f says: the game (from
// the catalog, or announced by the outside program), with the defaults
// that depend on it; each species' space, seeds and baselines; the
// hashes of the player files; then it checks what depends on them. Every
// problem is reported at once, as config.Errors. The Setup is closed
// when done with.
func Prepare(cfg *config.Config, f For) (*Setup, error) {
	p := cfg.Fork()
	s := prepare(cfg, f, p)
	if err := p.Err(); err != nil {
		s.Close()
		return nil, err
	}
	s.matchHash(f.hash)
	return s, nil
}

// load is Load of text for f: dir, when set, is where its relative specs
// are found (else beside file). Decoding, the defaults and the checks
// run as one pass, so that every mistake shows at once; a key that
// failed to decode has already said what is wrong with it.
func load(file string, text []byte, dir string, f For) (*Setup, error) {
	if dir == "" {
		dir = filepath.Dir(file)
	}
	c, ck := config.Decode(file, text, dir)
	if c == nil {
		return nil, ck.Err()
	}
	var s *Setup
	if err := ck.Validate(func(p *yamlcheck.Checker) {
		if c.CheckFoundations(p) {
			s = prepare(c, f, p)
		}
	}); err != nil {
		s.Close()
		return nil, err
	}
	s.matchHash(f.hash)
	return s, nil
}

// matchHash keeps the model of a config that names none as it was chosen
// before model.SoloDefault existed (Models[0] on a solo measure) when
// that is what hashes to hash, the hash the config was run with: a run
// goes on with the model it began with. It is the one place that rule
// lives.
func (s *Setup) matchHash(hash string) {
	if hash == "" || s.cfg.Hash() == hash || s.cfg.Has("evolution.model") || s.cfg.Evolution.Model.Name != model.SoloDefault {
		return
	}
	if old, ok := s.resolve(true); ok && old.Hash() == hash {
		s.cfg, s.legacy = old, true
	}
}

// resolve is the config resolved again from the written one, its model
// chosen as before model.SoloDefault when legacy; ok is false when it
// does not check out so.
func (s *Setup) resolve(legacy bool) (*config.Config, bool) {
	c := s.written.WithGame(s.built.Game)
	c.Plan(s.built, legacy)
	p := c.Fork()
	c.Check(p, s.built)
	return c, p.Err() == nil
}

// Config is the config as the Setup resolved it for its game: its
// objective, model and budget settled. It is shared: read it, do not
// change it.
func (s *Setup) Config() *config.Config { return s.cfg }

// Hash identifies the results the config produces: configs with equal
// hashes give identical runs.
func (s *Setup) Hash() string { return s.cfg.Hash() }

// Game is the game the config plays.
func (s *Setup) Game() fitness.Game { return s.game }

// Space is the main species' searched parameter space.
func (s *Setup) Space() *genome.Space {
	if s.main == nil {
		return nil
	}
	return s.main.space
}

// Close stops what the game holds (an outside program's processes).
// Every Setup is closed when done with.
func (s *Setup) Close() error {
	if s == nil {
		return nil
	}
	s.engines.close()
	if s.game == nil {
		return nil
	}
	return fitness.Close(s.game)
}

// EngineFiles are the SHA-256 of the files each UCI engine's command
// names (engine name -> command entry -> sum): what a worker's engines
// must match (ForWorker); nil without engines.
func (s *Setup) EngineFiles() map[string]map[string]string {
	if s.engines == nil {
		return nil
	}
	out := map[string]map[string]string{}
	for name, r := range s.engines.records {
		out[name] = maps.Clone(r.Files)
	}
	return out
}

// oneLine folds a joined error onto one line.
func oneLine(err error) string { return english.OneLine(err.Error()) }

// checkpointDir is where a checkpoint must remember relative specs to be
// found from: empty when there are none, so runs of one config from
// different places write identical checkpoints.
func (s *Setup) checkpointDir() string {
	if !s.relative {
		return ""
	}
	dir, err := filepath.Abs(s.cfg.BaseDir())
	if err != nil {
		return s.cfg.BaseDir()
	}
	return dir
}

// Summary describes the prepared config in a few lines, for `evotune
// validate`.
func (s *Setup) Summary() string {
	c := s.cfg
	e, f := c.Evolution, c.Fitness
	var modes []string
	if f.Baselines.Weight > 0 {
		against := fmt.Sprintf("baselines %v", f.Baselines.Opponents)
		if s.alone() {
			against = "measured alone"
		}
		modes = append(modes, fmt.Sprintf("%s x %s (weight %g)", against, english.Count(f.Baselines.Games, "game"), f.Baselines.Weight))
	}
	if f.Population.Weight > 0 {
		modes = append(modes, fmt.Sprintf("population %s x %s (weight %g)", english.Count(f.Population.Opponents, "opponent"), english.Count(f.Population.Games, "game"), f.Population.Weight))
	}
	if f.HallOfFame.Weight > 0 {
		modes = append(modes, fmt.Sprintf("hall of fame %s x %s (weight %g)", english.Count(f.HallOfFame.Members, "member"), english.Count(f.HallOfFame.Games, "game"), f.HallOfFame.Weight))
	}
	// A model may evaluate more genomes than its population (spsa's theta
	// beside its pairs, down-to-size's offspring): say how many.
	pop := fmt.Sprintf("population %d", e.Population)
	if n := e.MaxSize(); n != e.Population {
		pop += fmt.Sprintf(" (%s evaluated a generation)", english.Count(n, "genome"))
	}
	chosen := ""
	if e.Chosen != "" {
		// Which model a solo measure's config that names none runs, and
		// why (model.Evolution.ChooseDefault).
		chosen = "  model: " + e.Chosen + "; write evolution.model to choose\n"
	}
	return fmt.Sprintf("%s: valid\n  %s, player %s, %s to search, %s\n  objective %v: %s\n  %v model, %s, %s, seed %d\n",
		c.File(), c.Game, c.Player, english.Count(s.main.space.Len(), "gene"), english.Count(len(s.main.starts), "seed"), c.ObjectiveName(), strings.Join(modes, "; "),
		e.Model.Name, pop, english.Count(e.Generations, "generation"), c.Seed) + chosen + s.enginesSummary() + s.spendingSummary()
}
