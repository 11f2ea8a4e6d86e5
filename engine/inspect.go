package engine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/internal/fileio"
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
		h.Model = Generational.String()
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
	ins.Holder, ins.Held = LockHolder(dir)
	path := filepath.Join(dir, fileCheckpoint)
	data, err := fileio.ReadFileNoFollow(path, fileio.MaxCheckpoint)
	if errors.Is(err, fs.ErrNotExist) {
		if text, cerr := fileio.ReadFileNoFollow(filepath.Join(dir, fileConfig), fileio.MaxConfig); cerr == nil {
			ins.Header = looseHeader(text)
			return ins, fmt.Errorf("%s: %w", dir, ErrNoCheckpointYet)
		}
		return ins, fmt.Errorf("%s: %w: no %s", dir, ErrNotRunDir, fileCheckpoint)
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
	cfg, err := parseGuarded(path+"#config", []byte(ck.Config), baseDirOf(ck), guard)
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

// InFlight is the generation a run is playing, as its match journal
// says: the batches finished so far.
type InFlight struct {
	Generation int // from 1
	Games      int // the generation's games
	BatchGames int // games a batch (the last of a round may hold fewer)
	// Batches is the journal's complete entry lines after its header: the
	// batches finished and written. Counted is false when the journal was
	// larger than the limit given and they were not counted.
	Batches int
	Counted bool
}

// JournalProgress reads the match journal of the run directory dir: its
// header, and its complete lines up to limit bytes (a line being
// appended is not counted). ok is false when there is no journal (no
// generation in flight, or a finished run) or its header does not read.
func JournalProgress(dir string, limit int64) (in InFlight, ok bool, err error) {
	f, err := fileio.OpenNoFollow(filepath.Join(dir, fileJournal))
	if errors.Is(err, fs.ErrNotExist) {
		return in, false, nil
	}
	if err != nil {
		return in, false, fmt.Errorf("engine: journal: %w", err)
	}
	defer f.Close()
	rd := bufio.NewReaderSize(f, 1<<16)
	line, whole := nextLine(rd, 4096)
	var hdr journalHeader
	if !whole || json.Unmarshal(line, &hdr) != nil || hdr.Journal != journalFormat || hdr.Games < 1 || hdr.BatchGames < 1 {
		return in, false, nil
	}
	in = InFlight{Generation: hdr.Generation + 1, Games: hdr.Games, BatchGames: hdr.BatchGames, Counted: true}
	buf := make([]byte, 1<<16)
	read := int64(len(line) + 1)
	for {
		n, rerr := rd.Read(buf)
		in.Batches += bytes.Count(buf[:n], []byte{'\n'})
		read += int64(n)
		if read > limit {
			in.Counted = false
			break
		}
		if rerr != nil {
			break
		}
	}
	return in, true, nil
}

// Spread is CMA-ES's spread by generation: the standard deviation of
// each gene over the generation's samples (before they are mirrored into
// the genome's [0, 1]), its root mean square over the genes, smallest
// and largest. It estimates the step size of the distribution sampled.
type Spread struct {
	RMS, Min, Max []float64
}

// MaxReplay bounds the work CMAESSpread may take on, in generations times
// genes squared times the population: about a second or two of gonum's
// search on a busy core, so a page never waits long on it.
const MaxReplay = 4e7

// CMAESSpread replays the main species' CMA-ES search of checkpoint ck
// from its record of the values CMA-ES was told, as resume does, and
// measures each generation's samples. No game is played.
func (c *Config) CMAESSpread(ck *Checkpoint) (Spread, error) {
	var out Spread
	if c.Evolution.Model != CMAES {
		return out, fmt.Errorf("engine: the model is %v, not cmaes", c.Evolution.Model)
	}
	sp := c.species[0]
	dim, pop := float64(sp.space.Len()), float64(c.poolSize())
	if work := float64(len(ck.Told)) * dim * dim * pop; work > MaxReplay {
		return out, fmt.Errorf("engine: replaying %d generations of %d genes is too long to do here", len(ck.Told), sp.space.Len())
	}
	search := c.startCMAES(sp)
	defer search.close()
	for _, told := range ck.Told {
		search.ask()
		xs := search.asked
		if len(xs) != len(told) || len(xs) < 2 {
			return out, fmt.Errorf("engine: the checkpoint's CMA-ES record does not replay (%d values for %d samples)", len(told), len(xs))
		}
		sum2, lo, hi := 0.0, math.Inf(1), math.Inf(-1)
		for g := range xs[0] {
			col := make([]float64, len(xs))
			for i, x := range xs {
				col[i] = x[g]
			}
			_, sd := fitness.MeanSD(col)
			sum2 += sd * sd
			lo, hi = min(lo, sd), max(hi, sd)
		}
		out.RMS = append(out.RMS, math.Sqrt(sum2/float64(len(xs[0]))))
		out.Min, out.Max = append(out.Min, lo), append(out.Max, hi)
		costs := make([]float64, len(told))
		for i, f := range told {
			costs[i] = sp.cost(Member{Fitness: f})
		}
		if err := search.tell(costs); err != nil {
			return out, err
		}
	}
	return out, nil
}
