package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

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

// prepareProgram readies the program of command: as f lets it, and
// returns what it offers as the game's catalog entry: a run starts it and
// reads what it offers, and the hashes of its files; a worker does so
// only when allowed to, refusing first; a reader describes it as the run
// recorded it and starts nothing. A timeout or audit it cannot be run
// with keeps it from starting.
func (s *Setup) prepareProgram(f For, p *yamlcheck.Checker) (fitness.GameInfo, bool) {
	bad := p.Report
	start, ok := f.starts(p, "command")
	if !ok {
		return fitness.GameInfo{}, false
	}
	pc := &s.cfg.Program
	timeout, ok := pc.ParseTimeout() // 0: the program's default
	if !ok {
		bad("timeout", "%q: want a positive duration such as 30s or 2m", pc.Timeout)
		return fitness.GameInfo{}, false
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
	s.relative = true
	log := &switchWriter{}
	cmd := external.NewCommand(pc.Command, s.cfg.BaseDir(), pc.Dir, pc.Env)
	cmd.Timeout, cmd.Audit, cmd.Stderr, cmd.Files = timeout, pc.Audit, log, pc.ProgramFiles
	var desc *external.Description
	var files map[string]string
	if !start {
		// Described as the run recorded it; its processes would start
		// only if a game were played.
		desc = f.recorded
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
	if desc == nil {
		bad("command", "the run recorded no description of its program")
		return fitness.GameInfo{}, false
	}
	if g := s.cfg.Game; g != "" && g != desc.Game {
		bad("game", "%q, but the program plays %q", g, desc.Game)
		return fitness.GameInfo{}, false
	}
	s.program = &program{cmd: cmd, desc: desc, files: files, log: log}
	return desc.Info(cmd), true
}

// record is what the checkpoint keeps of the program; nil without one.
func (s *Setup) record() *ProgramRecord {
	if s.program == nil {
		return nil
	}
	desc, _ := s.program.desc.MarshalJSON()
	return &ProgramRecord{Argv: s.cfg.Command, Description: desc, Files: s.program.files}
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

// logProgram sends the stderr of the program and the engines to w
// (run.log); nil drops it.
func (s *Setup) logProgram(w io.Writer) {
	if s.program != nil {
		s.program.log.set(w)
	}
	if s.engines != nil {
		s.engines.log.set(w)
	}
}

// closeProgram ends the outside program's processes, if the config has
// one, before its log closes; the game plays no more after.
func (s *Setup) closeProgram() {
	if s.program != nil || s.engines != nil {
		s.Close()
	}
}
