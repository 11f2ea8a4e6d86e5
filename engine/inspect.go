package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/evotune/evotune/engine/model"
	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/rundir"
	"gopkg.in/yaml.v3"
)

// Inspection is a run directory as a reader outside the run sees it (the
// dashboard): read without taking the lock, without writing, without
// starting an outside program and without following a symbolic link.
type Inspection struct {
	Dir string
	// Holder is the process holding the directory's lock, when Held: a
	// run, resume or coordinator at work.
	Holder int
	Held   bool
	// Header is what the config says of itself, read loosely (from the
	// checkpoint's copy, else config.yaml): enough to list a run whose
	// config no longer loads.
	Header ConfigHeader
	// Checkpoint is nil before the first generation is checkpointed.
	Checkpoint *Checkpoint
	// Config is the config the checkpoint was written for, and Views its
	// species ready to draw; nil when Err says why not.
	Config *Config
	Views  []SpeciesView
}

// ConfigHeader is the part of a config a list of runs shows.
type ConfigHeader struct {
	Name        string `yaml:"name"`
	Game        string `yaml:"game"`
	Player      string `yaml:"player"`
	Command     []string
	Generations int
	Model       string
}

// looseHeader reads a config's header without checking the rest.
func looseHeader(text []byte) ConfigHeader {
	var raw struct {
		Name      string `yaml:"name"`
		Game      string `yaml:"game"`
		Player    string `yaml:"player"`
		Command   any    `yaml:"command"`
		Evolution struct {
			Generations int    `yaml:"generations"`
			Model       string `yaml:"model"`
		} `yaml:"evolution"`
	}
	_ = yaml.Unmarshal(text, &raw) // a header is best effort: what decodes is kept
	h := ConfigHeader{Name: raw.Name, Game: raw.Game, Player: raw.Player, Generations: raw.Evolution.Generations, Model: raw.Evolution.Model}
	if list, ok := raw.Command.([]any); ok {
		for _, a := range list {
			h.Command = append(h.Command, fmt.Sprint(a))
		}
	}
	if h.Model == "" {
		h.Model = model.Models[0].Name
	}
	return h
}

// ErrNoCheckpointYet is returned by Inspect for a run directory whose run
// has not finished its first generation (or stopped before it did).
var ErrNoCheckpointYet = errors.New("no checkpoint yet")

// Inspect reads the run directory dir as it stands. The returned
// Inspection holds what could be read even when the error is not nil:
// the lock's holder, the config's header, the checkpoint without the
// config it no longer loads with. An outside game is described from the
// checkpoint's record of its program, and a player file the config names
// is read only if it is the file the run recorded (its SHA-256), so
// nothing of another file reaches a message.
func Inspect(dir string) (*Inspection, error) {
	ins := &Inspection{Dir: dir}
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %w: %v", dir, ErrNotRunDir, fileio.Cause(err))
	case !fi.IsDir():
		return nil, fmt.Errorf("%s: %w: not a directory", dir, ErrNotRunDir)
	}
	ins.Holder, ins.Held = rundir.Holder(dir)
	path := filepath.Join(dir, rundir.CheckpointFile)
	data, err := fileio.ReadFileNoFollow(path, fileio.MaxCheckpoint)
	if errors.Is(err, fs.ErrNotExist) {
		if text, cerr := fileio.ReadFileNoFollow(filepath.Join(dir, rundir.ConfigFile), fileio.MaxConfig); cerr == nil {
			ins.Header = looseHeader(text)
			return ins, fmt.Errorf("%s: %w", dir, ErrNoCheckpointYet)
		}
		return ins, fmt.Errorf("%s: %w: no %s", dir, ErrNotRunDir, rundir.CheckpointFile)
	}
	if err != nil {
		return ins, err
	}
	ck, err := decodeCheckpoint(path, data)
	if err != nil {
		return ins, err
	}
	ins.Checkpoint = ck
	ins.Header = looseHeader([]byte(ck.Config))
	guard := &workerGuard{files: ck.Files, mismatch: func(spec, file string) error {
		return fmt.Errorf("%s: %s is not the file the run was started with (moved or edited since)", spec, file)
	}}
	if ck.Program != nil {
		if guard.recorded, err = external.ParseDescription(ck.Program.Description); err != nil {
			return ins, fmt.Errorf("%s: corrupt checkpoint: %w", path, err)
		}
		if ins.Header.Game == "" {
			ins.Header.Game = guard.recorded.Game
		}
	}
	cfg, err := parseFor(ck.ConfigHash, path+"#config", []byte(ck.Config), baseDirOf(ck), guard)
	if err != nil {
		return ins, fmt.Errorf("%s: the config stored in the checkpoint does not load here: %s", path, oneLine(err))
	}
	// The game of a recorded program opened no process; closing it is
	// for form's sake.
	defer cfg.Close()
	if cfg.Hash() != ck.ConfigHash {
		return ins, fmt.Errorf("%s: corrupt checkpoint: config hash does not match its config", path)
	}
	if err := ck.checkAgainst(path, cfg); err != nil {
		return ins, err
	}
	views, err := cfg.Views(ck)
	if err != nil {
		return ins, fmt.Errorf("%s: %w", path, err)
	}
	ins.Config, ins.Views = cfg, views
	return ins, nil
}

// MaxReplay bounds the work ModelSpread may take on, in generations times
// genes squared times the population (CMA-ES's replay grows so; a model
// whose replay costs otherwise says what: model.ReplayCoster): about a
// second or two on a busy core, so a page never waits long on it.
const MaxReplay = 4e7

// ModelSpread rebuilds the main species' model from checkpoint ck as
// resume does, and returns its sampling width by generation when the
// model has one (model.Spreader: CMA-ES's step size, SPSA's c_k); ok is
// false when it has not. No game is played.
func (c *Config) ModelSpread(ck *Checkpoint) (spread model.Spread, ok bool, err error) {
	sp := c.species[0]
	m, err := c.newModel(sp, nil)
	if err != nil {
		return spread, false, err
	}
	defer m.Close()
	s, ok := m.(model.Spreader)
	if !ok {
		return spread, false, nil
	}
	dim := float64(sp.space.Len())
	work := float64(ck.Generation) * dim * dim * float64(len(ck.Population))
	if rc, ok := m.(model.ReplayCoster); ok {
		work = rc.ReplayWork(ck.Generation, sp.space.Len(), len(ck.Population))
	}
	if work > MaxReplay {
		return spread, true, fmt.Errorf("engine: replaying %d generations of %d genes is too long to do here", ck.Generation, sp.space.Len())
	}
	if err := sp.resumeModel(m, ck.Generation, ck.SpeciesState); err != nil {
		return spread, true, err
	}
	return s.Spread(), true, nil
}
