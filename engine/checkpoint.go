package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evotune/evotune/engine/model"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/rundir"
)

// CheckpointFormat is the version of checkpoint.json this code writes and
// reads.
const CheckpointFormat = 1

// Checkpoint is everything needed to continue a run exactly.
type Checkpoint struct {
	Format int `json:"format"`
	// Name is the run's name: the config's name:, else its file's name,
	// which resume, reading the run directory's config.yaml, cannot know.
	Name       string `json:"name,omitempty"`
	ConfigHash string `json:"config_hash"`
	Config     string `json:"config"`               // the config text as given
	ConfigDir  string `json:"config_dir,omitempty"` // where its relative NAME:FILE specs point
	// Files holds the sha256 of every player file the config names
	// (NAME:FILE specs): they are part of the config.
	Files map[string]string `json:"files,omitempty"`
	// Program records the outside program the game is played by, if any.
	Program *ProgramRecord `json:"program,omitempty"`
	// Engines records the config's UCI engines, by name, if any.
	Engines map[string]*engineRecord `json:"engines,omitempty"`
	// Generation is the number of generations completed; Population is
	// the last one's evaluated pool, best first.
	Generation int `json:"generation"`
	// Budget is the generation budget given to the run or its last
	// resume (--generations), when it is not the config's: a resume
	// without one keeps it, unless the config's budget was edited since.
	Budget int `json:"budget,omitempty"`
	SpeciesState
	// Rivals is the co-evolving species, when the config has one.
	Rivals *SpeciesState `json:"rivals,omitempty"`
}

// SpeciesState is where one species stands after a generation.
type SpeciesState struct {
	Population []Member   `json:"population"` // the last generation, best first
	HallOfFame []Member   `json:"hall_of_fame"`
	History    []GenStats `json:"history"`
	// Remeasured holds the fresh-deal figures of the best, and Verdict
	// the recommended player's on a second fresh sample, once the run has
	// finished (unless the config says remeasure: off).
	Remeasured []Remeasured `json:"remeasured,omitempty"`
	Verdict    *Verdict     `json:"verdict,omitempty"`
	// Model is the model's own state (model.Model.State): its keys stand
	// beside the others in the JSON, after them ("cmaes_told").
	Model model.State `json:"-"`
}

// states lists the species' states, main species first.
func (ck *Checkpoint) states() []SpeciesState {
	out := []SpeciesState{ck.SpeciesState}
	if ck.Rivals != nil {
		out = append(out, *ck.Rivals)
	}
	return out
}

// checkpointHeader is a checkpoint's own fields, as its JSON holds them
// before the main species' state.
type checkpointHeader struct {
	Format     int                      `json:"format"`
	Name       string                   `json:"name,omitempty"`
	ConfigHash string                   `json:"config_hash"`
	Config     string                   `json:"config"`
	ConfigDir  string                   `json:"config_dir,omitempty"`
	Files      map[string]string        `json:"files,omitempty"`
	Program    *ProgramRecord           `json:"program,omitempty"`
	Engines    map[string]*engineRecord `json:"engines,omitempty"`
	Generation int                      `json:"generation"`
	Budget     int                      `json:"budget,omitempty"`
}

// MarshalJSON writes the checkpoint's fields, then the main species'
// state (its model's keys last), then the rivals'.
func (ck Checkpoint) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(checkpointHeader{Format: ck.Format, Name: ck.Name, ConfigHash: ck.ConfigHash, Config: ck.Config,
		ConfigDir: ck.ConfigDir, Files: ck.Files, Program: ck.Program, Engines: ck.Engines, Generation: ck.Generation, Budget: ck.Budget})
	if err != nil {
		return nil, err
	}
	main, err := ck.SpeciesState.MarshalJSON()
	if err != nil {
		return nil, err
	}
	out := joinObjects(head, main)
	if ck.Rivals != nil {
		rivals, err := json.Marshal(ck.Rivals)
		if err != nil {
			return nil, err
		}
		out = joinObjects(out, append(append([]byte(`{"rivals":`), rivals...), '}'))
	}
	return out, nil
}

// UnmarshalJSON reads a checkpoint strictly: a key that is none of the
// checkpoint's, its species state's or a model's is an error.
func (ck *Checkpoint) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	head, rest := map[string]json.RawMessage{}, map[string]json.RawMessage{}
	for k, v := range raw {
		if slices.Contains(headerKeys, k) {
			head[k] = v
		} else {
			rest[k] = v
		}
	}
	var h checkpointHeader
	if err := strictDecode(head, &h); err != nil {
		return err
	}
	*ck = Checkpoint{Format: h.Format, Name: h.Name, ConfigHash: h.ConfigHash, Config: h.Config,
		ConfigDir: h.ConfigDir, Files: h.Files, Program: h.Program, Engines: h.Engines, Generation: h.Generation, Budget: h.Budget}
	if r, ok := rest["rivals"]; ok {
		delete(rest, "rivals")
		if err := json.Unmarshal(r, &ck.Rivals); err != nil {
			return err
		}
	}
	return ck.SpeciesState.decode(rest)
}

// headerKeys are the JSON keys of checkpointHeader and of the rivals.
var headerKeys = []string{"format", "name", "config_hash", "config", "config_dir", "files", "program", "engines", "generation", "budget"}

// speciesFields is SpeciesState without its methods, for encoding/json.
type speciesFields SpeciesState

// MarshalJSON writes the species' fields, then its model's keys in
// order.
func (st SpeciesState) MarshalJSON() ([]byte, error) {
	out, err := json.Marshal(speciesFields(st))
	if err != nil {
		return nil, err
	}
	for _, k := range slices.Sorted(maps.Keys(st.Model)) {
		key, _ := json.Marshal(k)
		out = joinObjects(out, fmt.Appendf(nil, "{%s:%s}", key, st.Model[k]))
	}
	return out, nil
}

// UnmarshalJSON reads a species' state strictly; a model's keys go to
// Model, which the config's model checks once the config is known.
func (st *SpeciesState) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	return st.decode(raw)
}

func (st *SpeciesState) decode(raw map[string]json.RawMessage) error {
	var own model.State
	for k, v := range raw {
		if model.IsStateKey(k) {
			if own == nil {
				own = model.State{}
			}
			own[k] = v
			delete(raw, k)
		}
	}
	var f speciesFields
	if err := strictDecode(raw, &f); err != nil {
		return err
	}
	*st = SpeciesState(f)
	st.Model = own
	return nil
}

// strictDecode decodes the object of fields into v, refusing a field v
// does not have.
func strictDecode(fields map[string]json.RawMessage, v any) error {
	data, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// joinObjects joins two JSON objects' members into one object.
func joinObjects(a, b []byte) []byte {
	a, b = bytes.TrimSpace(a), bytes.TrimSpace(b)
	switch {
	case len(a) == 2: // {}
		return b
	case len(b) == 2:
		return a
	}
	out := append(slices.Clone(a[:len(a)-1]), ',')
	return append(out, b[1:]...)
}

// ErrNotRunDir is returned for a path that is not a directory, or a
// directory without a checkpoint.
var ErrNotRunDir = errors.New("not a run directory")

func (ck *Checkpoint) encode() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", " ")
	if err := enc.Encode(ck); err != nil {
		return nil, fmt.Errorf("engine: encode checkpoint: %w", err)
	}
	return b.Bytes(), nil
}

// ReadRun reads the run in dir as a reader outside it sees it, the one
// way every reader of a run (export, compare, the dashboard, resume's
// comparison) reads one: its checkpoint, checked (format, shape, every
// genome in its space, every figure in range), and the config it was
// written for, prepared For the run's reader: an outside program is
// described as the run recorded it and not started, and only the player
// files the run recorded are read. The caller closes the Setup.
//
// When the checkpoint reads but its config does not prepare here, or
// does not match it, the checkpoint is returned with the error and no
// Setup.
func ReadRun(dir string) (*Checkpoint, *Setup, error) {
	data, err := readCheckpointFile(dir)
	if err != nil {
		return nil, nil, err
	}
	return OpenRun(dir, data)
}

// ReadRunToPlay is ReadRun for a reader that plays the run's players
// (compare): the run's UCI engines are started, and refused if their
// files are not the builds the run recorded. The caller closes the
// Setup, which stops them.
func ReadRunToPlay(dir string) (*Checkpoint, *Setup, error) {
	if err := checkOwnRun(dir); err != nil {
		return nil, nil, err
	}
	data, err := readCheckpointFile(dir)
	if err != nil {
		return nil, nil, err
	}
	path := filepath.Join(dir, rundir.CheckpointFile)
	ck, err := decodeCheckpoint(path, data)
	if err != nil {
		return nil, nil, err
	}
	s, err := ck.setupFor(path, true)
	if err != nil {
		return ck, nil, err
	}
	return ck, s, nil
}

// checkOwnRun refuses to start what the run in dir recorded (its engines)
// unless the directory and its checkpoint are the user's own and no one
// else may write them.
func checkOwnRun(dir string) error {
	for _, p := range []string{dir, filepath.Join(dir, rundir.CheckpointFile)} {
		if err := fileio.CheckOwn(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("engine: %w", err)
		}
	}
	return nil
}

// OpenRun is ReadRun of the run in dir whose checkpoint's bytes, data,
// the caller read (the dashboard reads them without following a link).
func OpenRun(dir string, data []byte) (*Checkpoint, *Setup, error) {
	path := filepath.Join(dir, rundir.CheckpointFile)
	ck, err := decodeCheckpoint(path, data)
	if err != nil {
		return nil, nil, err
	}
	s, err := ck.setup(path)
	if err != nil {
		return ck, nil, err
	}
	return ck, s, nil
}

// readCheckpointFile reads the checkpoint of the run directory dir,
// saying what dir is when it holds none.
func readCheckpointFile(dir string) ([]byte, error) {
	// A path that names no directory is the command line's mistake, not
	// the directory's: it wraps ErrNotRunDir, which the CLI reports as a
	// usage error.
	switch st, serr := os.Stat(dir); {
	case serr != nil:
		return nil, fmt.Errorf("%s: %w: %v", dir, ErrNotRunDir, errors.Unwrap(serr))
	case !st.IsDir():
		return nil, fmt.Errorf("%s: %w: not a directory", dir, ErrNotRunDir)
	}
	data, err := fileio.ReadFile(filepath.Join(dir, rundir.CheckpointFile), fileio.MaxCheckpoint)
	if errors.Is(err, os.ErrNotExist) {
		// A run in its first generation has no checkpoint yet either.
		if holder, held := rundir.HeldBy(dir); held {
			return nil, fmt.Errorf("%s %w%s, whose run has not finished its first generation: wait for it, or stop it",
				dir, rundir.ErrLocked, holder)
		}
		if _, cerr := os.Stat(filepath.Join(dir, rundir.ConfigFile)); cerr == nil {
			return nil, fmt.Errorf("%s: %w yet: no %s (the run stopped before its first generation finished); start it again with 'evotune run CONFIG -o %s'",
				dir, ErrNotRunDir, rundir.CheckpointFile, dir)
		}
		return nil, fmt.Errorf("%s: %w: no %s", dir, ErrNotRunDir, rundir.CheckpointFile)
	}
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	return data, nil
}

// setup prepares the config of the checkpoint read from path For its
// reader, and checks the checkpoint against it.
func (ck *Checkpoint) setup(path string) (*Setup, error) { return ck.setupFor(path, false) }

// setupFor is setup, for a reader that starts the run's engines to play
// them when playEngines.
func (ck *Checkpoint) setupFor(path string, playEngines bool) (*Setup, error) {
	f, err := readerOf(ck)
	if err != nil {
		return nil, fmt.Errorf("%s: corrupt checkpoint: %w", path, err)
	}
	f.playEngines = playEngines
	s, err := load(path+"#config", []byte(ck.Config), baseDirOf(ck), f)
	if err != nil {
		return nil, fmt.Errorf("%s: the config stored in the checkpoint no longer loads (a player file it names may have moved): %w", path, folded{err})
	}
	if s.Hash() != ck.ConfigHash {
		s.Close()
		return nil, fmt.Errorf("%s: corrupt checkpoint: config hash does not match its config", path)
	}
	if err := ck.checkAgainst(path, s); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// decodeCheckpoint decodes the checkpoint read from path, strictly, and
// checks its header and format.
func decodeCheckpoint(path string, data []byte) (*Checkpoint, error) {
	var ck Checkpoint
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ck); err != nil {
		if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			// Dropped unread, it would be lost at the next checkpoint:
			// likely written by a newer evotune, which must resume it.
			return nil, fmt.Errorf("%s: corrupt checkpoint, or a newer evotune's: it holds field %s, which this evotune does not know", path, field)
		}
		return nil, fmt.Errorf("%s: corrupt checkpoint: %v", path, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: corrupt checkpoint: data after the JSON document", path)
	}
	if err := ck.checkHeader(); err != nil {
		return nil, fmt.Errorf("%s: corrupt checkpoint: %w", path, err)
	}
	if ck.Format != CheckpointFormat {
		return nil, fmt.Errorf("%s: checkpoint format %d, this evotune reads format %d", path, ck.Format, CheckpointFormat)
	}
	return &ck, nil
}

// checkAgainst checks the checkpoint read from path against the config
// it was written for: species, player files, and every species' state.
func (ck *Checkpoint) checkAgainst(path string, run *Setup) error {
	states := ck.states()
	if len(states) != len(run.species) {
		return fmt.Errorf("%s: corrupt checkpoint: %d species, the config evolves %d", path, len(states), len(run.species))
	}
	if err := ck.checkFiles(run); err != nil {
		return fmt.Errorf("%s: corrupt checkpoint: %w", path, err)
	}
	for s, st := range states {
		if err := ck.checkSpecies(run, s, st); err != nil {
			return fmt.Errorf("%s: corrupt checkpoint: %w", path, err)
		}
	}
	return nil
}

// folded is an error on one line (oneLine) that errors.Is still finds
// err's sentinels in; it is not err's problems to errors.As (a stored
// config's are not the user's config's, exit 2).
type folded struct{ err error }

func (f folded) Error() string        { return oneLine(f.err) }
func (f folded) Is(target error) bool { return errors.Is(f.err, target) }

// baseDirOf is where a checkpoint's relative specs are found.
func baseDirOf(ck *Checkpoint) string {
	if ck.ConfigDir == "" {
		return "."
	}
	return ck.ConfigDir
}
