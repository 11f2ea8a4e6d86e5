package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/internal/yamlcheck"
)

// program is the outside program a config's game is played by (the
// command: key): how it is started, and what it announced.
type program struct {
	cmd   external.Command
	desc  *external.Description
	files map[string]string // argv entry -> sha256 of the file it names
	log   *switchWriter     // the program's stderr: run.log once a run opens it
}

// ProgramRecord is what a checkpoint keeps of an outside program, so
// resume can tell a changed program from the one that ran: its command,
// its announced description, and the content hash of every file its argv
// names (the script, the binary).
type ProgramRecord struct {
	Argv        []string          `json:"argv"`
	Description json.RawMessage   `json:"description"`
	Files       map[string]string `json:"files"`
}

// ProgramConfig is how a config starts an outside program.
type ProgramConfig struct {
	Command []string          `json:"command,omitempty"` // the program and its arguments
	Dir     string            `json:"dir,omitempty"`     // its working directory, relative to the config's
	Env     map[string]string `json:"env,omitempty"`     // extra environment variables
	// timeout: and Audit change no result, so they are not in the hash: a
	// resumed run may wait longer or audit more.
	Audit float64 `json:"-"`
	// ProgramFiles lists more files and directories of the program (the
	// modules a script imports), relative to Dir, whose content the
	// checkpoint records beside the files the command names. They are
	// watched, not results: not in the hash.
	ProgramFiles []string `json:"-"`

	timeout string // as written; prepareProgram reads it
}

// switchWriter forwards writes to a writer set later (run.log), and
// drops them until then.
type switchWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *switchWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.w == nil {
		return len(p), nil
	}
	return s.w.Write(p)
}

func (s *switchWriter) set(w io.Writer) {
	s.mu.Lock()
	s.w = w
	s.mu.Unlock()
}

// NewCommand builds the external.Command of argv run in dir (relative to
// base) with extra environment env; stderr receives the program's stderr.
func NewCommand(argv []string, base, dir string, env map[string]string, timeout time.Duration, audit float64, stderr io.Writer) external.Command {
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(base, dir)
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	c := external.Command{Argv: argv, Dir: dir, Timeout: timeout, Audit: audit, Stderr: stderr}
	for _, k := range slices.Sorted(maps.Keys(env)) {
		c.Env = append(c.Env, k+"="+env[k])
	}
	return c
}

// prepareProgram starts the program of command:, reads what it offers and
// returns it as the game's catalog entry. A worker's guard refuses it
// first, and a timeout or audit it cannot be run with keeps it from
// starting. An outside reader's guard (Inspect) describes it as the run
// recorded it and starts nothing.
func (c *Config) prepareProgram(bad func(key, format string, args ...any)) (fitness.GameInfo, bool) {
	if c.guard != nil && !c.guard.allowPrograms && c.guard.recorded == nil {
		// Before anything starts: a worker runs no command it was not
		// allowed to (--allow-programs).
		c.guard.refused = true
		bad("command", "%s", ErrProgramRefused)
		return fitness.GameInfo{}, false
	}
	pc := &c.ProgramConfig
	var timeout time.Duration // 0: the program's default
	if pc.timeout != "" {
		d, err := time.ParseDuration(pc.timeout)
		if err != nil || d <= 0 {
			bad("timeout", "%q: want a positive duration such as 30s or 2m", pc.timeout)
			return fitness.GameInfo{}, false
		}
		timeout = d
	}
	if pc.Audit < 0 || pc.Audit > 1 {
		bad("audit", "%v: want a fraction of games in [0, 1]", pc.Audit)
		return fitness.GameInfo{}, false
	}
	envOK := true
	for _, k := range slices.Sorted(maps.Keys(pc.Env)) {
		if err := external.CheckEnv(k, pc.Env[k]); err != nil {
			bad(yamlcheck.Join("env", k), "%v", err)
			envOK = false
		}
	}
	if !envOK {
		return fitness.GameInfo{}, false
	}
	// The program and its files travel with the config: they are found
	// from its directory, which the checkpoint remembers.
	c.relative = true
	log := &switchWriter{}
	cmd := NewCommand(pc.Command, c.baseDir, pc.Dir, pc.Env, timeout, pc.Audit, log)
	cmd.Files = pc.ProgramFiles
	var desc *external.Description
	var files map[string]string
	if c.guard != nil && c.guard.recorded != nil {
		// Described as the run recorded it; its processes would start
		// only if a game were played, and none is.
		desc = c.guard.recorded
	} else {
		var err error
		if desc, err = external.Describe(context.Background(), cmd); err != nil {
			// The program's last stderr lines stay lines, indented under
			// the problem.
			bad("command", "%s", err)
			return fitness.GameInfo{}, false
		}
		if files, err = cmd.FileHashes(); err != nil {
			key := "command"
			var fe *external.FileError
			if errors.As(err, &fe) {
				key = fmt.Sprintf("program-files[%d]", fe.Index)
			}
			bad(key, "%s", oneLine(err))
			return fitness.GameInfo{}, false
		}
	}
	if c.Game != "" && c.Game != desc.Game {
		bad("game", "%q, but the program plays %q", c.Game, desc.Game)
		return fitness.GameInfo{}, false
	}
	c.program = &program{cmd: cmd, desc: desc, files: files, log: log}
	return desc.Info(cmd), true
}

// record is what the checkpoint keeps of the program; nil without one.
func (c *Config) record() *ProgramRecord {
	if c.program == nil {
		return nil
	}
	desc, _ := c.program.desc.MarshalJSON()
	return &ProgramRecord{Argv: c.Command, Description: desc, Files: c.program.files}
}

// ErrProgramChanged says the outside program differs from the one a run
// was started with.
var ErrProgramChanged = fmt.Errorf("engine: the program changed")

// programChanges names what differs between the program a checkpoint
// recorded and the one now found; nil when nothing does.
func programChanges(was, now *ProgramRecord) []string {
	if was == nil || now == nil {
		return nil
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(was.Files)) {
		switch sum, ok := now.Files[k]; {
		case !ok:
			out = append(out, "file "+k+" is gone")
		case sum != was.Files[k]:
			out = append(out, "file "+k+" was edited")
		}
	}
	for _, k := range slices.Sorted(maps.Keys(now.Files)) {
		if _, ok := was.Files[k]; !ok {
			out = append(out, "file "+k+" is new")
		}
	}
	if !sameJSON(was.Description, now.Description) {
		out = append(out, "the announced "+describeChange(was.Description, now.Description))
	}
	return out
}

// sameJSON reports whether two JSON texts are the same but for spacing
// (a checkpoint indents the description it keeps).
func sameJSON(a, b json.RawMessage) bool {
	var x, y bytes.Buffer
	return json.Compact(&x, a) == nil && json.Compact(&y, b) == nil && bytes.Equal(x.Bytes(), y.Bytes())
}

// describeChange names the parts of two announced descriptions that
// differ: top-level fields, and players by name.
func describeChange(a, b json.RawMessage) string {
	var x, y map[string]any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return "description"
	}
	var parts []string
	keys := slices.Sorted(maps.Keys(x))
	for k := range y {
		if _, ok := x[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range slices.Compact(keys) {
		if reflect.DeepEqual(x[k], y[k]) {
			continue
		}
		if k == "players" {
			parts = append(parts, "players ("+strings.Join(changedPlayers(x[k], y[k]), ", ")+")")
			continue
		}
		parts = append(parts, k)
	}
	return "description: " + strings.Join(parts, ", ")
}

func changedPlayers(a, b any) []string {
	index := func(v any) map[string]any {
		out := map[string]any{}
		list, _ := v.([]any)
		for _, p := range list {
			m, _ := p.(map[string]any)
			out[fmt.Sprintf("%v %v", m["role"], m["name"])] = m
		}
		return out
	}
	x, y := index(a), index(b)
	var names []string
	for k, v := range x {
		if !reflect.DeepEqual(v, y[k]) {
			names = append(names, k)
		}
	}
	for k := range y {
		if _, ok := x[k]; !ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	return names
}

// Close stops what the config's game holds (an outside program's
// processes). Every loaded config is closed when done with.
func (c *Config) Close() error {
	if c == nil || c.game == nil {
		return nil
	}
	return fitness.Close(c.game)
}

// logProgram sends the program's stderr to w (run.log); nil drops it.
func (c *Config) logProgram(w io.Writer) {
	if c.program != nil {
		c.program.log.set(w)
	}
}

// closeProgram ends the outside program's processes, if the config has
// one, before its log closes; the game plays no more after.
func (c *Config) closeProgram() {
	if c.program != nil {
		c.Close()
	}
}
