package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/chess/uci"
	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/internal/printable"
	"github.com/evotune/evotune/internal/yamlcheck"
)

// engineRecord is what a checkpoint keeps of one UCI engine of a config
// (engines:), so that a reader of the run knows its knobs without
// starting it and resume can tell another build of it: what it said of
// itself (its id and option lines, uci.EngineInfo.Lines) and the
// SHA-256 of every file its command names (the binary, a script).
type engineRecord struct {
	Info  []string          `json:"info"`
	Files map[string]string `json:"files,omitempty"`
}

// engineSet is the UCI engines a config defines, as Prepare readied them:
// started for a run or a worker, described from the run's record for a
// reader.
type engineSet struct {
	byName  map[string]*uci.Engine
	records map[string]*engineRecord
	log     *switchWriter // their stderr: run.log once a run opens it
}

// names lists the engines in name order.
func (es *engineSet) names() []string { return slices.Sorted(maps.Keys(es.byName)) }

// close kills every engine's processes.
func (es *engineSet) close() {
	if es == nil {
		return
	}
	for _, e := range es.byName {
		e.Close()
	}
}

// prepareEngines readies the config's engines as f lets it and returns
// them as guests of the game: started (a run, a worker allowed to run
// programs, whose engine files must be its coordinator's byte for byte),
// or built from the run's record (a reader). Every problem goes to p, at
// the engine's key.
func (s *Setup) prepareEngines(f For, p *yamlcheck.Checker) ([]fitness.Guest, bool) {
	c := s.cfg
	es := &engineSet{byName: map[string]*uci.Engine{}, records: map[string]*engineRecord{}, log: &switchWriter{}}
	s.engines = es
	ok := true
	var guests []fitness.Guest
	for _, name := range slices.Sorted(maps.Keys(c.Engines)) {
		e, err := s.prepareEngine(f, p, name, c.Engines[name], es)
		if err != nil {
			ok = false
			continue
		}
		es.byName[name] = e
		guests = append(guests, e.Guest())
	}
	return guests, ok
}

// prepareEngine readies one engine, or reports why it cannot be.
func (s *Setup) prepareEngine(f For, p *yamlcheck.Checker, name string, ce *config.Engine, es *engineSet) (*uci.Engine, error) {
	key := func(field string) string { return config.EngineKey(name, field) }
	fail := func(k string, err error) (*uci.Engine, error) {
		report(p, k, err)
		return nil, err
	}
	limit, err := uci.Limit{}.With(fitness.Settings(ce.Limit))
	if err == nil {
		err = limit.Check()
	}
	if err != nil {
		return fail(key("limit"), err)
	}
	for _, k := range slices.Sorted(maps.Keys(ce.Env)) {
		if err := external.CheckEnv(k, ce.Env[k]); err != nil {
			return fail(yamlcheck.Join(key("env"), k), err)
		}
	}
	cmd := external.NewCommand(ce.Command, s.cfg.BaseDir(), ce.Dir, ce.Env)
	if namesRelative(ce, s.cfg.BaseDir()) {
		// The engine and its files travel with the config, found from
		// its directory, which the checkpoint then remembers.
		s.relative = true
	}
	d := uci.Definition{Name: name, Command: ce.Command, Dir: cmd.Dir, Env: cmd.Env, Limit: limit,
		Scale: ce.Scale, Restart: ce.Restart, Stderr: es.log}
	for _, o := range ce.Options {
		d.Options = append(d.Options, uci.SetOption{Name: o.Key, Value: o.Value})
	}
	d.Timeouts.Start, _ = ce.Timeout("start")
	d.Timeouts.Ready, _ = ce.Timeout("ready")
	d.Timeouts.Move, _ = ce.Timeout("move")
	start, ok := f.starts(p, key("command"))
	if !ok {
		return nil, ErrProgramRefused
	}
	if !start && !f.playEngines {
		rec := f.engines[name]
		if rec == nil {
			return fail(key("command"), fmt.Errorf("the run recorded no engine %s", name))
		}
		info, err := uci.ParseLines(rec.Info)
		if err != nil {
			return fail(key("command"), err)
		}
		e, err := uci.Recorded(d, info)
		if err != nil {
			return fail(key("command"), err)
		}
		es.records[name] = rec
		return e, nil
	}
	files, err := cmd.FileHashes()
	if err != nil {
		return fail(key("command"), err)
	}
	if rec := f.engines[name]; f.playEngines && (rec == nil || !maps.Equal(rec.Files, files)) {
		// A reader that plays the run's engines plays the builds the run
		// played, or says which file changed.
		var was map[string]string
		if rec != nil {
			was = rec.Files
		}
		return fail(key("command"), fmt.Errorf("engine %s is not the build the run played (%s): install that build at the same path", name, engineFilesChange(was, files)))
	}
	if want, ok := f.engineFiles[name]; f.kind == forWorker && (!ok || !maps.Equal(want, files)) {
		// Before it starts: a worker plays no other build of the engine
		// than its coordinator's.
		return fail(key("command"), fmt.Errorf("this worker's engine %s is not the coordinator's (%s): install the same build at the same path", name, engineFilesChange(want, files)))
	}
	e, err := uci.New(context.Background(), d)
	if err != nil {
		var se *uci.SetupError
		if errors.As(err, &se) && se.Field != "" {
			return fail(key(se.Field), err)
		}
		return fail(key("command"), err)
	}
	if err := e.Verify(context.Background()); err != nil {
		e.Close()
		return fail(key("limit"), err)
	}
	es.records[name] = &engineRecord{Info: e.Info().Lines(), Files: files}
	return e, nil
}

// engineFilesChange names what differs between an engine's files as
// recorded (was) and as found (now).
func engineFilesChange(was, now map[string]string) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(was)) {
		switch sum, ok := now[k]; {
		case !ok:
			out = append(out, k+" is gone")
		case sum != was[k]:
			out = append(out, k+" differs")
		}
	}
	for _, k := range slices.Sorted(maps.Keys(now)) {
		if _, ok := was[k]; !ok {
			out = append(out, k+" is new")
		}
	}
	if len(out) == 0 {
		return "the same files"
	}
	return strings.Join(out, ", ")
}

// engineRecords is what the checkpoint keeps of the engines; nil
// without them.
func (s *Setup) engineRecords() map[string]*engineRecord {
	if s.engines == nil || len(s.engines.records) == 0 {
		return nil
	}
	return maps.Clone(s.engines.records)
}

// engineChanges names what differs between the engines a checkpoint
// recorded and those found now (another build, other options); nil
// when nothing does.
func engineChanges(was, now map[string]*engineRecord) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(was)) {
		n := now[name]
		switch {
		case n == nil:
			continue // the config's hash says when an engine is gone
		case !maps.Equal(was[name].Files, n.Files):
			out = append(out, "engine "+name+": "+engineFilesChange(was[name].Files, n.Files))
		case !slices.Equal(was[name].Info, n.Info):
			out = append(out, "engine "+name+" announces other options")
		}
	}
	return out
}

// namesRelative reports whether an engine's command is found from the
// config's directory base: a relative working directory, a program
// named by a relative path, or an argument that is a file there.
func namesRelative(ce *config.Engine, base string) bool {
	if ce.Dir != "" && !filepath.IsAbs(ce.Dir) {
		return true
	}
	if p := ce.Command[0]; strings.ContainsRune(p, '/') && !filepath.IsAbs(p) {
		return true
	}
	for _, a := range ce.Command[1:] {
		if filepath.IsAbs(a) {
			continue
		}
		if st, err := os.Stat(filepath.Join(base, ce.Dir, a)); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// HostEngines starts the UCI engines that path defines and returns g
// with them among its players (uci:NAME), and a function that kills
// them: for commands that play engines outside a run (eval, sprt:
// --engines). path is a config file, read for its engines: section alone
// (its other keys are not read), or a run directory, whose run's config
// defines them, found from the run's config directory.
func HostEngines(g fitness.Game, path string) (fitness.Game, func(), error) {
	var c *config.Config
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		if err := checkOwnRun(path); err != nil {
			return nil, nil, err
		}
		_, s, err := ReadRun(path)
		if err != nil {
			return nil, nil, err
		}
		c = s.Config()
		s.Close() // a reader's: it started nothing
	} else {
		text, err := fileio.ReadFile(path, fileio.MaxConfig)
		if err != nil {
			return nil, nil, fmt.Errorf("engines: %w", err)
		}
		dc, ck := config.Decode(path, text, filepath.Dir(path))
		var problems config.Errors
		for _, e := range ck.Errors() {
			if e.Key == "" || e.Key == "engines" || strings.HasPrefix(e.Key, "engines.") {
				problems = append(problems, e)
			}
		}
		if len(problems) > 0 {
			return nil, nil, problems
		}
		c = dc
	}
	if len(c.Engines) == 0 {
		return nil, nil, fmt.Errorf("%s defines no engines (an engines: section)", path)
	}
	p := c.Fork()
	s := &Setup{cfg: c, written: c}
	g = s.hostEngines(For{}, p, g)
	if err := p.Err(); err != nil {
		s.Close()
		return nil, nil, err
	}
	return g, func() { s.Close() }, nil
}

// enginesSummary says, for validate and run.log, each engine's limit and
// whether its games replay: a clock or movetime cannot, nor more than one
// thread, an engine's own book or a weakened Stockfish; "" without
// engines.
func (s *Setup) enginesSummary() string {
	if s.engines == nil || len(s.engines.byName) == 0 {
		return ""
	}
	var b strings.Builder
	for _, name := range s.engines.names() {
		e := s.engines.byName[name]
		replays := "its games replay move for move"
		if ok, why := e.Deterministic(); !ok {
			replays = why + "; finished games are kept by the journal, but a resumed or distributed run differs from a straight one"
		}
		fmt.Fprintf(&b, "  engine %s: %s at %s; %s\n", e.Name(), printableName(e), e.Definition().Limit, replays)
	}
	return b.String()
}

// printableName is what the engine calls itself (its id name), or its
// command.
func printableName(e *uci.Engine) string {
	if n := e.Info().Name; n != "" {
		return printable.Escape(n)
	}
	return printable.Escape(strings.Join(e.Definition().Command, " "))
}
