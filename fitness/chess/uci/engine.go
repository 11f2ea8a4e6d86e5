package uci

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/chess"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/childproc"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/printable"
)

// Prefix starts the name of every engine player: "uci:dev".
const Prefix = "uci:"

// Definition is one engine as a config defines it.
type Definition struct {
	// Name names the engine; its players are "uci:NAME".
	Name string
	// Command is the program and its arguments. Command[0] is looked up
	// in PATH when it has no slash; a relative path with a slash is
	// taken against Dir.
	Command []string
	Dir     string   // its working directory; "" is evotune's
	Env     []string // KEY=VALUE pairs added to evotune's environment
	// Options are fixed options, sent when a process starts, in this
	// order but for Threads, which goes first.
	Options []SetOption
	// Limit is how long the engine thinks on a move; a player's
	// settings may replace it (uci:dev@nodes=4000).
	Limit Limit
	// Scale maps a spin option to the integer its knob is multiplied by
	// before it is sent: an engine that carries a fraction as an integer
	// in hundredths is tuned as a float by a scale of 100.
	Scale map[string]int
	// Restart gives every game a fresh process (cutechess-cli's
	// restart=on), for an engine that carries something from one game
	// to the next despite ucinewgame: its games then do not depend on
	// what its processes played before. Off, a process plays game after
	// game.
	Restart bool
	// Timeouts bound the waits for the engine; zero fields take their
	// defaults.
	Timeouts Timeouts
	// Stderr receives the engine's stderr, each line prefixed with the
	// player's name and the process's pid ("[uci:dev pid 123] "), up to
	// MaxStderrLines lines in all; nil discards it.
	Stderr io.Writer
}

// SetOption is an option's value as a config writes it.
type SetOption struct{ Name, Value string }

// Timeouts bound evotune's waits for an engine. Past one the engine
// stalls (fitness.FaultStall) and loses the game.
type Timeouts struct {
	Start time.Duration // for uciok after uci; DefaultStart when 0
	Ready time.Duration // for readyok after options and ucinewgame; DefaultReady when 0
	// Move is the wait for bestmove at a node or depth limit;
	// DefaultMove when 0. Under a clock or movetime the wait is the
	// move's time and its margin, past which the move loses on time.
	Move time.Duration
}

// The default timeouts: fastchess's for start-up and readiness.
const (
	DefaultStart = 10 * time.Second
	DefaultReady = 60 * time.Second
	DefaultMove  = 60 * time.Second
)

func (d *Definition) timeouts() Timeouts {
	t := d.Timeouts
	if t.Start <= 0 {
		t.Start = DefaultStart
	}
	if t.Ready <= 0 {
		t.Ready = DefaultReady
	}
	if t.Move <= 0 {
		t.Move = DefaultMove
	}
	return t
}

// The limits of an engine's failures. An engine that cannot be started
// and brought to readyok MaxStartFailures times in a row, or that loses
// MaxFaultRun games in a row to its faults, stops the run.
const (
	MaxStartFailures = 3
	MaxFaultRun      = 20
)

// MaxStderrLines bounds what an engine's processes write to
// Definition.Stderr in all; past it the lines are dropped and counted.
const MaxStderrLines = 10000

var engineName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// check reports what is wrong with the definition itself.
func (d *Definition) check() error {
	if !engineName.MatchString(d.Name) {
		return fmt.Errorf("engine name %q: want letters, digits, '-', '_' and '.', such as dev", d.Name)
	}
	if len(d.Command) == 0 || d.Command[0] == "" {
		return errors.New("no command")
	}
	for _, kv := range d.Env {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || k == "" || strings.ContainsRune(kv, 0) {
			return fmt.Errorf("env entry %q: want KEY=VALUE", kv)
		}
	}
	if err := d.Limit.Check(); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, o := range d.Options {
		k := strings.ToLower(o.Name)
		if seen[k] {
			return fmt.Errorf("option %s given twice", o.Name)
		}
		seen[k] = true
	}
	for name, s := range d.Scale {
		if s < 1 {
			return fmt.Errorf("scale %s: %d: want a whole number from 1", name, s)
		}
	}
	if d.Timeouts.Start < 0 || d.Timeouts.Ready < 0 || d.Timeouts.Move < 0 {
		return errors.New("a negative timeout")
	}
	return nil
}

// EngineInfo is what an engine says of itself in its handshake.
type EngineInfo struct {
	Name, Author string   // its id lines
	Options      []Option // in the order declared
	// Unparsed says what was wrong with each option line that did not
	// parse (the option is left out).
	Unparsed []string
}

// lookup finds a declared option by name; UCI names are not
// case-sensitive.
func (in *EngineInfo) lookup(name string) *Option {
	for i := range in.Options {
		if strings.EqualFold(in.Options[i].Name, name) {
			return &in.Options[i]
		}
	}
	return nil
}

// notKnobs are the options that say how an engine runs, not how it
// plays, or that take the game out of evotune's hands (an engine's own
// book, Toga II's own limits, which override go's): never knobs (a
// config may still fix them under options:).
var notKnobs = []string{
	"Threads", "Number of Threads", "Hash", "Clear Hash", "Ponder", "MultiPV", "OwnBook", "Search Time", "Search Depth",
	"UCI_Chess960", "UCI_AnalyseMode", "UCI_ShowWDL", "UCI_ShowCurrLine", "UCI_ShowRefutations", "UCI_Opponent",
	"Debug Log File", "SyzygyPath", "NalimovPath", "NalimovCache", "BookFile", "Bitbases Path", "Bitbases Cache Size",
}

// knob is one tunable option: a parameter of the player's schema.
type knob struct {
	opt   *Option
	scale int // a spin's multiplier (1: an int knob)
}

// Knobs turns an engine's options into a schema: every spin (an int, or
// a float divided by its scale), check (a bool) and combo (a choice)
// that is not fixed and not one of the options that say how an engine
// runs (Threads, Hash, ...). Every knob is opt-in: a config's space:
// searches those it names and holds the rest at the engine's defaults.
// A scale that names no spin option is an error.
func Knobs(info EngineInfo, fixed []SetOption, scale map[string]int) (genome.Schema, error) {
	ks, err := knobsOf(&info, fixed, scale)
	if err != nil {
		return nil, err
	}
	return schemaOf(ks), nil
}

func knobsOf(info *EngineInfo, fixed []SetOption, scale map[string]int) ([]knob, error) {
	names := make([]string, 0, len(scale))
	for n := range scale {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		o := info.lookup(n)
		switch {
		case o == nil:
			return nil, fmt.Errorf("scale %s: the engine has no such option", n)
		case o.Type != Spin:
			return nil, fmt.Errorf("scale %s: a %s option; only a spin takes a scale", o.Name, o.Type)
		}
	}
	var ks []knob
	for i := range info.Options {
		o := &info.Options[i]
		if o.Type != Spin && o.Type != Check && o.Type != Combo {
			continue
		}
		if slices.ContainsFunc(notKnobs, func(n string) bool { return strings.EqualFold(n, o.Name) }) ||
			slices.ContainsFunc(fixed, func(f SetOption) bool { return strings.EqualFold(f.Name, o.Name) }) {
			continue
		}
		k := knob{opt: o, scale: 1}
		for n, s := range scale {
			if strings.EqualFold(n, o.Name) {
				k.scale = s
			}
		}
		ks = append(ks, k)
	}
	return ks, nil
}

func schemaOf(ks []knob) genome.Schema {
	s := make(genome.Schema, len(ks))
	for i, k := range ks {
		o := k.opt
		p := genome.Param{Name: o.Name, OptIn: true, Summary: "UCI " + o.Type.String() + " option"}
		switch o.Type {
		case Spin:
			if k.scale == 1 {
				p.Kind, p.Min, p.Max = genome.Int, float64(o.Min), float64(o.Max)
				p.Default = genome.Value{Num: float64(o.Def)}
			} else {
				sc := float64(k.scale)
				p.Kind, p.Min, p.Max = genome.Float, float64(o.Min)/sc, float64(o.Max)/sc
				p.Default = genome.Value{Num: float64(o.Def) / sc}
				p.Summary += fmt.Sprintf(", sent times %d", k.scale)
			}
		case Check:
			p.Kind = genome.Bool
			if o.Default == "true" {
				p.Default.Num = 1
			}
		case Combo:
			p.Kind, p.Choices, p.Default = genome.Choice, o.Vars, genome.Value{Str: o.Default}
		}
		s[i] = p
	}
	return s
}

// value is the option value a knob's v sends.
func (k knob) value(v genome.Value) string {
	switch k.opt.Type {
	case Spin:
		n := math.Round(v.Num * float64(k.scale))
		return strconv.FormatInt(min(max(int64(n), k.opt.Min), k.opt.Max), 10)
	case Check:
		return strconv.FormatBool(v.Num != 0)
	}
	return v.Str
}

// SetupError says an engine cannot be used as defined: it is missing,
// is not a UCI engine, never says uciok, lacks an option the definition
// sets or refuses its value, or the definition is wrong. It is the
// user's to fix before a run starts (exit 2).
type SetupError struct {
	Engine string // "uci:dev"
	Msg    string // one line
	Tail   []string
	// Field is the definition's field at fault when it is not the
	// command: "options" (an option the engine lacks, or a value it
	// refuses) or "scale"; "" for the command.
	Field string
}

func (e *SetupError) Error() string {
	s := "uci: " + e.Engine + ": " + english.OneLine(e.Msg)
	if len(e.Tail) > 0 {
		s += "; its stderr ended: " + strconv.Quote(e.Tail[len(e.Tail)-1])
	}
	return s
}

// Describe starts the engine of command, runs the handshake and stops
// it: what `evotune games --uci` lists. Its error, a *SetupError, names
// the command.
func Describe(ctx context.Context, command []string, dir string, env []string, start time.Duration) (EngineInfo, error) {
	name := strings.Join(command, " ")
	if len(command) == 0 || command[0] == "" {
		return EngineInfo{}, &SetupError{Engine: name, Msg: "no command"}
	}
	d := Definition{Name: "engine", Command: command, Dir: dir, Env: env, Timeouts: Timeouts{Start: start}}
	c, info, err := dial(ctx, &d, name, nil)
	if err != nil {
		return info, setupError(name, "", err)
	}
	c.kill()
	return info, nil
}

// setupError words a handshake's failure for the user; command, if
// not "", is said after it.
func setupError(name, command string, err error) error {
	var se *startError
	var fe *fitness.FaultError
	if command != "" {
		command = " (" + command + ")"
	}
	switch {
	case errors.As(err, &se):
		return &SetupError{Engine: name, Msg: "cannot start it: " + se.Error()}
	case errors.As(err, &fe) && fe.Kind == fitness.FaultStall:
		return &SetupError{Engine: name, Msg: fmt.Sprintf("%s%s: is it a UCI engine?", fe.Detail, command)}
	case errors.As(err, &fe):
		return &SetupError{Engine: name, Msg: fmt.Sprintf("not a UCI engine: %s%s", fe.Detail, command)}
	}
	return err
}

// Engine is an engine definition in play: its options as the engine
// declared them, its knobs, and its pool of processes, which live for
// many games. Its players build seats on processes from the pool: at
// most one process per seat open at once, each reused by the next seat
// when its game ends. Close kills them all.
type Engine struct {
	def    Definition
	name   string // "uci:dev"
	info   EngineInfo
	knobs  []knob
	schema genome.Schema
	fixed  []fixedOption // checked, in the order sent
	stderr *stderrSink

	mu     sync.Mutex
	idle   []*conn
	live   map[*conn]bool
	closed bool
	// recorded says the engine was built from a run's record (Recorded):
	// it has no process and starts none.
	recorded bool
	// Consecutive failures: starts that failed, games lost to faults.
	startFails, faultRun int
	lastFailure          string

	waited atomic.Int64 // ns spent waiting for readyok and bestmove
}

type fixedOption struct {
	opt   *Option
	value string
}

// New starts the engine once to learn its options, checks the
// definition's against them, and keeps the process for the first game.
// Its error is a *SetupError when the engine cannot be used as defined.
func New(ctx context.Context, d Definition) (*Engine, error) {
	name := Prefix + d.Name
	if err := d.check(); err != nil {
		return nil, &SetupError{Engine: name, Msg: err.Error()}
	}
	d.Command = slices.Clone(d.Command)
	e := &Engine{def: d, name: name, live: map[*conn]bool{}}
	if d.Stderr != nil {
		e.stderr = &stderrSink{w: d.Stderr, name: name}
	}
	c, info, err := e.dial(ctx)
	if err != nil {
		return nil, setupError(name, strings.Join(d.Command, " "), err)
	}
	e.info = info
	if err := e.checkOptions(); err != nil {
		c.kill()
		return nil, &SetupError{Engine: name, Msg: err.Error(), Field: "options"}
	}
	if e.knobs, err = knobsOf(&e.info, d.Options, d.Scale); err != nil {
		c.kill()
		return nil, &SetupError{Engine: name, Msg: err.Error(), Field: "scale"}
	}
	e.schema = schemaOf(e.knobs)
	if err := e.prepare(ctx, c); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &SetupError{Engine: name, Msg: "after its options were set: " + err.Error()}
	}
	e.mu.Lock()
	e.live[c] = true
	e.idle = append(e.idle, c)
	e.mu.Unlock()
	return e, nil
}

// dial starts a process of the engine and runs the handshake.
func (e *Engine) dial(ctx context.Context) (*conn, EngineInfo, error) {
	var stderr childproc.StderrSink
	if e.stderr != nil {
		stderr = e.stderr
	}
	c, info, err := dial(ctx, &e.def, e.name, stderr)
	if c != nil {
		c.waited = &e.waited
	}
	return c, info, err
}

// checkOptions checks the fixed options against the engine's and
// orders them: Threads first, then as written.
func (e *Engine) checkOptions() error {
	var errs []string
	for _, so := range e.def.Options {
		o := e.info.lookup(so.Name)
		if o == nil {
			errs = append(errs, fmt.Sprintf("option %s: the engine has no such option (%s)", so.Name, e.optionNames()))
			continue
		}
		var v string // a button's: pressed when a process starts
		if o.Type != Button {
			var err error
			if v, err = o.CheckValue(so.Value); err != nil {
				errs = append(errs, err.Error())
				continue
			}
		}
		e.fixed = append(e.fixed, fixedOption{o, v})
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	slices.SortStableFunc(e.fixed, func(a, b fixedOption) int {
		return boolInt(!strings.EqualFold(a.opt.Name, "Threads")) - boolInt(!strings.EqualFold(b.opt.Name, "Threads"))
	})
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (e *Engine) optionNames() string {
	if len(e.info.Options) == 0 {
		return "it declares none"
	}
	names := make([]string, len(e.info.Options))
	for i, o := range e.info.Options {
		names[i] = o.Name
	}
	return "its options: " + strings.Join(names, ", ")
}

// prepare sends a new process its fixed options and waits for readyok.
func (e *Engine) prepare(ctx context.Context, c *conn) error {
	for _, f := range e.fixed {
		c.setOption(f.opt, f.value, true)
	}
	return c.ready(ctx, e.def.timeouts().Ready)
}

// Name is the engine's player name, "uci:NAME".
func (e *Engine) Name() string { return e.name }

// Info is what the engine said of itself.
func (e *Engine) Info() EngineInfo { return e.info }

// Definition is the engine's definition.
func (e *Engine) Definition() Definition { return e.def }

// Schema is the engine's knobs: its tunable options, all opt-in.
func (e *Engine) Schema() genome.Schema { return e.schema }

// PlayerInfo describes the engine as a player: "uci:NAME", its knobs,
// and its limit's keys as settings.
func (e *Engine) PlayerInfo() fitness.PlayerInfo {
	sum := "UCI engine " + printable.Escape(e.info.Name)
	if e.info.Name == "" {
		sum = "UCI engine " + strings.Join(e.def.Command, " ")
	}
	return fitness.PlayerInfo{
		Name: e.name, Role: fitness.Mover, Summary: sum + " at " + e.def.Limit.String(),
		Schema: e.schema, Settings: limitSettings(e.def.Limit),
	}
}

// Deterministic reports whether the engine's default player replays its
// games move for move, and if not, why. See Player.Deterministic.
func (e *Engine) Deterministic() (bool, string) {
	p, err := e.NewPlayer(genome.Values{}, nil)
	if err != nil {
		return false, err.Error()
	}
	return p.Deterministic()
}

// Close kills every process of the engine, idle or playing, with its
// process group, and waits for them. Seats still open then fail.
func (e *Engine) Close() error {
	e.mu.Lock()
	e.closed = true
	idle, busy := e.idle, make([]*conn, 0, len(e.live))
	for c := range e.live {
		if !slices.Contains(idle, c) {
			busy = append(busy, c)
		}
	}
	e.live = map[*conn]bool{}
	e.idle = nil
	e.mu.Unlock()
	for _, c := range idle {
		c.kill()
	}
	// A busy process is its seat's: killing it ends the seat's wait,
	// and the seat says the engine is closed.
	for _, c := range busy {
		c.closed.Store(true)
		c.p.Kill()
	}
	e.stderr.close()
	return nil
}

// Waited is the wall time, over all the engine's processes, that
// evotune spent waiting for its answers after its handshake: readyok
// before each game, and bestmove (from the write of go). Set against a
// match's wall time it is the share of the match spent in the engine.
func (e *Engine) Waited() time.Duration { return time.Duration(e.waited.Load()) }

// Processes counts the engine's processes alive, idle or playing.
func (e *Engine) Processes() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.live)
}

// ErrNotStarted is a seat asked of an engine built from a run's record
// (Recorded), which starts no process.
var ErrNotStarted = errors.New("uci: the engine was described from a run's record and is not started")

// ErrClosed is a seat asked of a closed engine.
var ErrClosed = errors.New("uci: the engine is closed")

// FailingError says an engine keeps failing: it stops the run, naming
// the engine and the cause.
type FailingError struct {
	Engine string
	What   string // "3 starts failed in a row", "20 games in a row lost to its faults"
	Last   string // the last failure
}

func (e *FailingError) Error() string {
	return fmt.Sprintf("uci: %s keeps failing: %s; the last: %s", e.Engine, e.What, english.OneLine(e.Last))
}

// acquire returns an idle process, or starts one. A process that cannot
// be started is the seat's fault, until MaxStartFailures in a row make
// it a *FailingError.
func (e *Engine) acquire(ctx context.Context) (*conn, error) {
	e.mu.Lock()
	switch {
	case e.closed:
		e.mu.Unlock()
		return nil, ErrClosed
	case e.recorded:
		e.mu.Unlock()
		return nil, ErrNotStarted
	case e.faultRun >= MaxFaultRun:
		// Read under the lock: another seat's release writes them.
		err := &FailingError{Engine: e.name, What: fmt.Sprintf("%d games in a row lost to its faults", e.faultRun), Last: e.lastFailure}
		e.mu.Unlock()
		return nil, err
	case e.startFails >= MaxStartFailures:
		err := &FailingError{Engine: e.name, What: fmt.Sprintf("%d starts failed in a row", e.startFails), Last: e.lastFailure}
		e.mu.Unlock()
		return nil, err
	}
	if n := len(e.idle); n > 0 {
		c := e.idle[n-1]
		e.idle = e.idle[:n-1]
		e.mu.Unlock()
		return c, nil
	}
	e.mu.Unlock()
	c, _, err := e.dial(ctx)
	if err == nil {
		err = e.prepare(ctx, c)
	}
	if ctx.Err() != nil {
		if c != nil {
			c.kill()
		}
		return nil, ctx.Err()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if err != nil {
		e.startFails++
		e.lastFailure = "start: " + err.Error()
		var fe *fitness.FaultError
		if !errors.As(err, &fe) {
			// It did not start at all: a crash, for the game.
			fe = &fitness.FaultError{Kind: fitness.FaultCrash, Player: e.name, Detail: "cannot start it: " + err.Error()}
		}
		if e.startFails >= MaxStartFailures {
			return nil, &FailingError{Engine: e.name, What: fmt.Sprintf("%d starts failed in a row", e.startFails), Last: e.lastFailure}
		}
		return nil, fe
	}
	e.startFails = 0
	if e.closed {
		c.kill()
		return nil, ErrClosed
	}
	e.live[c] = true
	return c, nil
}

// release takes a process back when its seat ends: idle for the next
// seat, or gone if it failed or the engine is closed. fault is the
// seat's, if its game was lost to one (of this process or the seat's);
// moved says the seat made a move.
func (e *Engine) release(c *conn, fault *fitness.FaultError, moved bool) {
	e.mu.Lock()
	switch {
	case fault != nil:
		e.faultRun++
		e.lastFailure = fault.Kind.String() + ": " + fault.Detail
	case moved:
		e.faultRun = 0
	}
	gone := c.dead != nil || e.closed || e.def.Restart
	if gone {
		delete(e.live, c)
	} else {
		e.idle = append(e.idle, c)
	}
	e.mu.Unlock()
	if gone {
		c.kill() // killed already if it failed or by Close; else (Restart) now
	}
}

// stderrSink writes the stderr lines of an engine's processes to one
// writer, each prefixed with the player's name and the process's pid
// ("[uci:dev pid 123] "), within MaxStderrLines lines in all.
type stderrSink struct {
	mu      sync.Mutex
	w       io.Writer
	name    string // the player's
	lines   int
	dropped int
}

// Line writes a line of process pid's stderr.
func (s *stderrSink) Line(pid int, l string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.lines < MaxStderrLines:
		s.lines++
		io.WriteString(s.w, "["+s.name+" pid "+strconv.Itoa(pid)+"] "+l+"\n")
	case s.dropped == 0:
		s.dropped++
		fmt.Fprintf(s.w, "[%s] stderr: more than %d lines from its processes; the rest is dropped\n", s.name, MaxStderrLines)
	default:
		s.dropped++
	}
}

// End is the end of a process's stderr: nothing to say.
func (s *stderrSink) End(int) {}

// close says how many lines were dropped.
func (s *stderrSink) close() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dropped > 0 {
		fmt.Fprintf(s.w, "[%s] stderr: %d lines dropped\n", s.name, s.dropped)
		s.dropped = 0
	}
}

var _ chess.ClockedPlayer = (*Player)(nil)
