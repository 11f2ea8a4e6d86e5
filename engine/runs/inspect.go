package runs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/rundir"
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
	// Header is what the config says of itself: from the run's Setup
	// when its config prepares here, else as written (the checkpoint's
	// copy, else config.yaml), enough to list a run whose config no
	// longer prepares.
	Header Header
	// Checkpoint is nil before the first generation is checkpointed.
	Checkpoint *engine.Checkpoint
	// Setup is the config the checkpoint was written for, prepared for
	// its reader (closed: it describes the run and plays nothing), and
	// Views its species ready to draw; nil when Err says why not.
	Setup *engine.Setup
	Views []engine.SpeciesView
}

// Header is the part of a config a list of runs shows.
type Header struct {
	Name        string // as the config's name: writes it ("" without one)
	Game        string
	Player      string
	Command     []string
	Generations int
	// Model is the model the run runs, "" when that is not known: a
	// config that names none and does not prepare here.
	Model string
}

// headerOf is the header of config c: written (a config that has not
// been prepared: its model only when it names one), or resolved.
func headerOf(c *config.Config, resolved bool) Header {
	h := Header{Game: c.Game, Player: c.Player, Command: c.Command, Generations: c.Evolution.Generations}
	if c.Has("name") {
		h.Name = c.Name
	}
	if resolved || c.Has("evolution.model") {
		h.Model = c.Evolution.Model.Name
	}
	return h
}

// writtenHeader is the header of config text as written, from file; the
// zero Header when the text does not parse.
func writtenHeader(file string, text []byte) Header {
	c, err := config.Parse(file, text)
	if err != nil {
		return Header{}
	}
	return headerOf(c, false)
}

// ErrNoCheckpointYet is returned by Inspect for a run directory whose run
// has not finished its first generation (or stopped before it did).
var ErrNoCheckpointYet = errors.New("no checkpoint yet")

// Inspect reads the run directory dir as it stands, through
// engine.OpenRun. The returned Inspection holds what could be read even
// when the error is not nil: the lock's holder, the config's header, the
// checkpoint without the config it no longer prepares with. An outside
// game is described from the checkpoint's record of its program, and a
// player file the config names is read only if it is the file the run
// recorded (its SHA-256), so nothing of another file reaches a message.
func Inspect(dir string) (*Inspection, error) {
	ins := &Inspection{Dir: dir}
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %w: %v", dir, engine.ErrNotRunDir, fileio.Cause(err))
	case !fi.IsDir():
		return nil, fmt.Errorf("%s: %w: not a directory", dir, engine.ErrNotRunDir)
	}
	ins.Holder, ins.Held = rundir.Holder(dir)
	path := filepath.Join(dir, rundir.CheckpointFile)
	data, err := fileio.ReadFileNoFollow(path, fileio.MaxCheckpoint)
	if errors.Is(err, fs.ErrNotExist) {
		file := filepath.Join(dir, rundir.ConfigFile)
		if text, cerr := fileio.ReadFileNoFollow(file, fileio.MaxConfig); cerr == nil {
			ins.Header = writtenHeader(file, text)
			return ins, fmt.Errorf("%s: %w", dir, ErrNoCheckpointYet)
		}
		return ins, fmt.Errorf("%s: %w: no %s", dir, engine.ErrNotRunDir, rundir.CheckpointFile)
	}
	if err != nil {
		return ins, err
	}
	ck, s, err := engine.OpenRun(dir, data)
	ins.Checkpoint = ck
	if ck != nil {
		ins.Header = writtenHeader(path+"#config", []byte(ck.Config))
		if ins.Header.Game == "" && ck.Program != nil {
			if d, derr := external.ParseDescription(ck.Program.Description); derr == nil {
				ins.Header.Game = d.Game // a program's config may leave game: out
			}
		}
	}
	if err != nil {
		return ins, err
	}
	// A reader's game opened no process; closing it is for form's sake.
	defer s.Close()
	ins.Header = headerOf(s.Config(), true)
	views, err := s.Views(ck)
	if err != nil {
		return ins, fmt.Errorf("%s: %w", path, err)
	}
	ins.Setup, ins.Views = s, views
	return ins, nil
}
