package uci_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/chess"
	"github.com/evotune/evotune/fitness/chess/uci"
	"github.com/evotune/evotune/genome"
)

// TestSetupErrors: an engine that cannot be used as defined is refused
// before any game, in one line naming the engine and what is wrong.
func TestSetupErrors(t *testing.T) {
	tests := []struct {
		name   string
		script string
		edit   func(*uci.Definition)
		want   string
	}{
		{"missing", "", func(d *uci.Definition) { d.Command = []string{"/nonexistent/engine"} },
			"uci: uci:script: cannot start it: program /nonexistent/engine: stat /nonexistent/engine: no such file or directory"},
		{"not in PATH", "", func(d *uci.Definition) { d.Command = []string{"evotune-no-such-engine"} },
			`uci: uci:script: cannot start it: program "evotune-no-such-engine" not found in PATH`},
		{"not UCI", "not-uci", nil, "uci: uci:script: not a UCI engine: it exited with status 1 before uciok"},
		{"never says uciok", "no-uciok", func(d *uci.Definition) { d.Timeouts.Start = time.Second },
			"uci: uci:script: no uciok within 1s"},
		{"an option it lacks", "", func(d *uci.Definition) { d.Options = []uci.SetOption{{Name: "Contempt", Value: "5"}} },
			"uci: uci:script: option Contempt: the engine has no such option (its options: Threads, Aggression, Style, Book, Clear Hash)"},
		{"a value past its max", "", func(d *uci.Definition) { d.Options = []uci.SetOption{{Name: "Aggression", Value: "201"}} },
			"uci: uci:script: option Aggression: 201 is outside its range [0, 200]"},
		{"a value below its min", "", func(d *uci.Definition) { d.Options = []uci.SetOption{{Name: "Threads", Value: "0"}} },
			"uci: uci:script: option Threads: 0 is outside its range [1, 8]"},
		{"a combo value it lacks", "", func(d *uci.Definition) { d.Options = []uci.SetOption{{Name: "Style", Value: "Wild"}} },
			`uci: uci:script: option Style: "Wild" is not one of Solid, Normal, Risky`},
		{"a check value", "", func(d *uci.Definition) { d.Options = []uci.SetOption{{Name: "Book", Value: "1"}} },
			`uci: uci:script: option Book: "1" is not true or false`},
		{"an option given twice", "", func(d *uci.Definition) {
			d.Options = []uci.SetOption{{Name: "Book", Value: "true"}, {Name: "book", Value: "false"}}
		}, "uci: uci:script: option book given twice"},
		{"a scale on a combo", "", func(d *uci.Definition) { d.Scale = map[string]int{"Style": 10} },
			"uci: uci:script: scale Style: a combo option; only a spin takes a scale"},
		{"a scale on an option it lacks", "", func(d *uci.Definition) { d.Scale = map[string]int{"Contempt": 10} },
			"uci: uci:script: scale Contempt: the engine has no such option"},
		{"a scale of 0", "", func(d *uci.Definition) { d.Scale = map[string]int{"Aggression": 0} },
			"uci: uci:script: scale Aggression: 0: want a whole number from 1"},
		{"no limit", "", func(d *uci.Definition) { d.Limit = uci.Limit{} },
			"uci: uci:script: limit: none given; want one of nodes, depth, movetime or tc"},
		{"a bad name", "", func(d *uci.Definition) { d.Name = "my engine" },
			`uci: uci:my engine: engine name "my engine": want letters, digits, '-', '_' and '.', such as dev`},
		{"crashes on its options", "crash-on-setoption", func(d *uci.Definition) { d.Options = []uci.SetOption{{Name: "Aggression", Value: "60"}} },
			"uci: uci:script: after its options were set: uci:script: crash: it exited with status 4 before readyok"},
		{"no readyok", "no-readyok", func(d *uci.Definition) { d.Timeouts.Ready = time.Second },
			"uci: uci:script: after its options were set: uci:script: stall: no readyok within 1s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := scriptDef(t, tc.script)
			if tc.edit != nil {
				tc.edit(&d)
			}
			e, err := uci.New(context.Background(), d)
			if err == nil {
				e.Close()
				t.Fatal("accepted")
			}
			var se *uci.SetupError
			if !errors.As(err, &se) {
				t.Errorf("%T, want a *uci.SetupError", err)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Errorf("error\n%s\nwant one line starting\n%s", msg, tc.want)
			}
		})
	}
}

// TestOptionsAtTheirEnds: the nearest values to those refused are
// taken.
func TestOptionsAtTheirEnds(t *testing.T) {
	d := scriptDef(t, "")
	d.Options = []uci.SetOption{{Name: "Aggression", Value: "200"}, {Name: "threads", Value: "8"}, {Name: "style", Value: "risky"}, {Name: "Book", Value: "False"}}
	e := newEngine(t, d)
	want := []string{"Threads=8", "Aggression=200", "Style=Risky", "Book=false"}
	p, err := e.NewPlayer(genome.Values{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Options(); strings.Join(got[:4], " ") != strings.Join(want, " ") {
		t.Errorf("options sent %q, want %q first (Threads first, names as the engine spells them)", got, want)
	}
	if info := e.Info(); len(info.Unparsed) != 1 || !strings.Contains(info.Unparsed[0], "Broken: default 9 outside [0, 5]") {
		t.Errorf("unparsed options %q, want the one whose default is outside its range", info.Unparsed)
	}
}

// syncBuffer is a bytes.Buffer safe for the stderr goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// withoutPids drops the pids of an engine's stderr lines.
func withoutPids(s string) string {
	return regexp.MustCompile(` pid [0-9]+\]`).ReplaceAllString(s, "]")
}

// TestOptionsSentBeforeEachGame: a process reused by another player is
// sent that player's values before its game, and Threads goes first.
func TestOptionsSentBeforeEachGame(t *testing.T) {
	d := scriptDef(t, "")
	var log syncBuffer
	d.Stderr = &log
	d.Options = []uci.SetOption{{Name: "Book", Value: "false"}, {Name: "Threads", Value: "1"}}
	e := newEngine(t, d)
	player := func(aggr float64, style string) *uci.Player {
		v := e.Schema().Defaults()
		var err error
		if v, err = v.With("Aggression", genome.Value{Num: aggr}); err != nil {
			t.Fatal(err)
		}
		if v, err = v.With("Style", genome.Value{Str: style}); err != nil {
			t.Fatal(err)
		}
		p, err := e.NewPlayer(v, nil)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, p := range []*uci.Player{player(120, "Normal"), player(50, "Risky"), player(50, "Risky")} {
		s, err := p.NewSeat(context.Background(), 1, chess.White)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Move(context.Background(), chess.Position{StartFEN: uci.StartFEN}); err != nil {
			t.Fatal(err)
		}
		s.End()
	}
	e.Close() // its stderr is read to the end
	want := "[uci:script] set: Threads value 1\n[uci:script] set: Book value false\n" +
		"[uci:script] set: Aggression value 120\n" + // the first game's
		"[uci:script] set: Aggression value 50\n[uci:script] set: Style value Risky\n" // the second's; the third sends none
	if got := withoutPids(log.String()); got != want {
		t.Errorf("stderr:\n%s\nwant\n%s", got, want)
	}
	if n := e.Processes(); n != 0 {
		t.Errorf("%d processes after Close", n)
	}
}

func faultOf(t *testing.T, err error) *fitness.FaultError {
	t.Helper()
	var fe *fitness.FaultError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T), want a *fitness.FaultError", err, err)
	}
	return fe
}

// TestFaults: each way an engine fails a move is its fault, of its
// kind, its process killed; the next game has a fresh process.
func TestFaults(t *testing.T) {
	tests := []struct {
		name   string
		script string
		limit  uci.Limit
		move   time.Duration
		kind   fitness.Fault
		detail string
	}{
		{"crash", "crash-on-go", uci.Limit{Depth: 2}, 0, fitness.FaultCrash,
			`it exited with status 3 before bestmove; its stderr ended: "panic: the search fell over"`},
		{"output ends in a line", "partial-line-on-go", uci.Limit{Depth: 2}, 0, fitness.FaultCrash,
			"it exited with status 0 in the middle of a line, before bestmove"},
		{"hang", "hang-on-go", uci.Limit{Depth: 2}, time.Second, fitness.FaultStall, "no bestmove within 1s"},
		{"garbage", "garbage-on-go", uci.Limit{Depth: 2}, 0, fitness.FaultGarbage, `"bestmove banana" in answer to go depth 2`},
		{"a line too long", "long-line-on-go", uci.Limit{Depth: 2}, 0, fitness.FaultGarbage,
			fmt.Sprintf("a line too long (over %d bytes) while evotune waited for bestmove", uci.MaxLine)},
		{"late under movetime", "slow-move", uci.Limit{MoveTime: 100, Margin: 50}, 0, fitness.FaultTime, "of its 100 ms, past the margin of 50 ms"},
		{"late on the clock", "slow-move", uci.Limit{TC: uci.TC{Base: 200}, Margin: 50}, 0, fitness.FaultTime, "of its 200 ms, past the margin of 50 ms"},
		{"late after an overrun", "slow-move", uci.Limit{TC: uci.TC{Base: -100}, Margin: 200}, 0, fitness.FaultTime, "of its -100 ms, past the margin of 200 ms"},
		{"no answer on the clock", "hang-on-go", uci.Limit{MoveTime: 100}, 0, fitness.FaultTime, "no bestmove within its 100 ms and the margin of 100 ms"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := scriptDef(t, tc.script)
			d.Limit, d.Timeouts.Move = tc.limit, tc.move
			if d.Limit.TC.Base < 0 {
				d.Limit.TC.Base = 1000 // its control; the clock is the game's
			}
			e := newEngine(t, d)
			p, err := e.NewPlayer(genome.Values{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for game := range 2 {
				s, err := p.NewSeat(context.Background(), 1, chess.Black)
				if err != nil {
					t.Fatal(err)
				}
				pids := uci.Pids(e)
				pos := chess.Position{StartFEN: uci.StartFEN, Moves: []string{"e2e4"}, ToMove: chess.Black}
				if tc.limit.TC.Base != 0 { // the referee's clocks: Base left (-100: overrun before)
					pos.Clock = &chess.Clock{Time: [2]int64{60000, tc.limit.TC.Base}}
				}
				_, err = s.Move(context.Background(), pos)
				fe := faultOf(t, err)
				if fe.Kind != tc.kind || fe.Player != "uci:script" || !strings.Contains(fe.Detail, tc.detail) {
					t.Errorf("game %d: fault %v %q: %q, want %v containing %q", game, fe.Kind, fe.Player, fe.Detail, tc.kind, tc.detail)
				}
				if _, again := s.Move(context.Background(), chess.Position{StartFEN: uci.StartFEN}); again != err {
					t.Errorf("a seat that faulted answered again: %v", again)
				}
				s.End()
				if tc.kind != fitness.FaultTime {
					if n := e.Processes(); n != 0 {
						t.Errorf("game %d: %d processes after a %v fault, want it killed", game, n, tc.kind)
					}
					for _, pid := range pids {
						waitGone(t, pid)
					}
				}
			}
		})
	}
}

// waitGone fails unless process pid is gone (or a zombie no one
// reaped) within a minute.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for end := time.Now().Add(time.Minute); ; {
		b, err := os.ReadFile(filepath.Join("/proc", fmt.Sprint(pid), "stat"))
		if err != nil {
			return
		}
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) && b[i+2] == 'Z' {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("process %d still runs a minute after its engine was done with it", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestOnTime: a move within its time and margin is no fault.
func TestOnTime(t *testing.T) {
	for _, l := range []uci.Limit{{MoveTime: 5000}, {TC: uci.TC{Base: 5000}}} {
		d := scriptDef(t, "slow-move")
		d.Limit = l
		e := newEngine(t, d)
		p, _ := e.NewPlayer(genome.Values{}, nil)
		s, err := p.NewSeat(context.Background(), 1, chess.White)
		if err != nil {
			t.Fatal(err)
		}
		pos := chess.Position{StartFEN: uci.StartFEN}
		if !l.TC.IsZero() {
			pos.Clock = &chess.Clock{Time: [2]int64{5000, 5000}}
		}
		r, err := s.Move(context.Background(), pos)
		if err != nil || r.Move != "e2e4" || r.Elapsed < 400 {
			t.Errorf("%v: %+v, %v; want e2e4 after 400 ms or more", l, r, err)
		}
		s.End()
	}
}

// TestNoReadyok: a process that stops answering isready stalls the
// game it was to play.
func TestNoReadyok(t *testing.T) {
	d := scriptDef(t, "no-readyok-2nd-game")
	d.Timeouts.Ready = time.Second
	e := newEngine(t, d)
	p, _ := e.NewPlayer(genome.Values{}, nil)
	s, err := p.NewSeat(context.Background(), 1, chess.White)
	if err != nil {
		t.Fatal(err)
	}
	s.End()
	_, err = p.NewSeat(context.Background(), 2, chess.White)
	if fe := faultOf(t, err); fe.Kind != fitness.FaultStall || fe.Detail != "no readyok within 1s" {
		t.Errorf("fault %v: %q", fe.Kind, fe.Detail)
	}
	if n := e.Processes(); n != 0 {
		t.Errorf("%d processes, want the stalled one killed", n)
	}
}

func TestReplyFigures(t *testing.T) {
	e := newEngine(t, scriptDef(t, ""))
	p, _ := e.NewPlayer(genome.Values{}, nil)
	s, err := p.NewSeat(context.Background(), 1, chess.White)
	if err != nil {
		t.Fatal(err)
	}
	defer s.End()
	r, err := s.Move(context.Background(), chess.Position{StartFEN: uci.StartFEN})
	// The last exact score is kept over a later bound, with its depth,
	// as fastchess reads them; the nodes are the last said.
	want := chess.Reply{Move: "e2e4", Score: 13, HasScore: true, Depth: 1, Nodes: 90}
	r.Elapsed = 0
	if err != nil || r != want {
		t.Errorf("reply %+v, %v; want %+v", r, err, want)
	}
}

// TestLimitIgnored: an engine that searches far past go nodes, or says
// no node count, is the definition's error, not a lost game.
func TestLimitIgnored(t *testing.T) {
	for _, tc := range []struct{ script, want string }{
		{"overshoot-nodes", "uci: uci:script ignores go nodes 1000: it reported 5000000 nodes searched"},
		{"silent-nodes", "uci: uci:script reports no node count, so evotune cannot tell that it honours go nodes 1000"},
	} {
		t.Run(tc.script, func(t *testing.T) {
			d := scriptDef(t, tc.script)
			d.Limit = uci.Limit{Nodes: 1000}
			e := newEngine(t, d)
			err := e.Verify(context.Background())
			var le *uci.LimitError
			if !errors.As(err, &le) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("Verify: %v, want %q", err, tc.want)
			}
		})
	}
	d := scriptDef(t, "")
	d.Limit = uci.Limit{Nodes: 1000}
	if err := newEngine(t, d).Verify(context.Background()); err != nil {
		t.Errorf("an engine that honours go nodes: %v", err)
	}
}

// TestKeepsFailing: an engine that loses MaxFaultRun games in a row to
// its faults, or cannot be started MaxStartFailures times in a row,
// stops the run with one line naming it and the cause.
func TestKeepsFailing(t *testing.T) {
	t.Run("faults", func(t *testing.T) {
		e := newEngine(t, scriptDef(t, "crash-on-go"))
		p, _ := e.NewPlayer(genome.Values{}, nil)
		for game := 0; ; game++ {
			s, err := p.NewSeat(context.Background(), 1, chess.White)
			if game == uci.MaxFaultRun {
				var fe *uci.FailingError
				want := "uci: uci:script keeps failing: 20 games in a row lost to its faults; the last: crash: it exited with status 3 before bestmove"
				if !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("after %d faults: %v, want %q", game, err, want)
				}
				return
			}
			if err != nil {
				t.Fatalf("game %d: %v", game, err)
			}
			_, err = s.Move(context.Background(), chess.Position{StartFEN: uci.StartFEN})
			faultOf(t, err)
			s.End()
		}
	})
	t.Run("starts", func(t *testing.T) {
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(self)
		if err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(t.TempDir(), "engine")
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
		d := scriptDef(t, "crash-on-go")
		d.Command = []string{bin}
		e := newEngine(t, d)
		p, _ := e.NewPlayer(genome.Values{}, nil)
		s, err := p.NewSeat(context.Background(), 1, chess.White)
		if err != nil {
			t.Fatal(err)
		}
		s.Move(context.Background(), chess.Position{StartFEN: uci.StartFEN})
		s.End()
		os.Remove(bin) // the engine is gone: no process can start
		for try := 1; try <= uci.MaxStartFailures; try++ {
			_, err := p.NewSeat(context.Background(), 1, chess.White)
			if try < uci.MaxStartFailures {
				if fe := faultOf(t, err); fe.Kind != fitness.FaultCrash || !strings.Contains(fe.Detail, "no such file") {
					t.Errorf("start %d: %v", try, err)
				}
				continue
			}
			var fe *uci.FailingError
			want := "uci: uci:script keeps failing: 3 starts failed in a row; the last: start: program " + bin + ": stat " + bin + ": no such file or directory"
			if !errors.As(err, &fe) || err.Error() != want {
				t.Errorf("start %d: %v, want %q", try, err, want)
			}
		}
	})
}

// TestClose: Close kills every process of the engine, the idle and
// those playing, and a seat mid-move returns at once.
func TestClose(t *testing.T) {
	d := scriptDef(t, "hang-on-go")
	e, err := uci.New(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := e.NewPlayer(genome.Values{}, nil)
	var seats []chess.Seat
	for range 3 {
		s, err := p.NewSeat(context.Background(), 1, chess.White)
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, s)
	}
	seats[2].End() // one idle
	pids := uci.Pids(e)
	if len(pids) != 3 {
		t.Fatalf("%d processes for 3 seats", len(pids))
	}
	moved := make(chan error)
	go func() {
		_, err := seats[0].Move(context.Background(), chess.Position{StartFEN: uci.StartFEN})
		moved <- err
	}()
	time.Sleep(50 * time.Millisecond) // let it reach the search (the test holds either way)
	e.Close()
	select {
	case err := <-moved:
		if !errors.Is(err, uci.ErrClosed) {
			t.Errorf("a move on a closed engine: %v, want ErrClosed (not a fault)", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("a seat waiting on a process Close killed did not return within a minute")
	}
	for _, pid := range pids {
		waitGone(t, pid)
	}
	if _, err := p.NewSeat(context.Background(), 1, chess.White); !errors.Is(err, uci.ErrClosed) {
		t.Errorf("a seat of a closed engine: %v", err)
	}
	for _, s := range seats[:2] {
		s.End()
	}
}

// TestCancel: a cancelled context ends a move at once, with ctx's
// error, not a fault; the process is not reused.
func TestCancel(t *testing.T) {
	e := newEngine(t, scriptDef(t, "hang-on-go"))
	p, _ := e.NewPlayer(genome.Values{}, nil)
	s, err := p.NewSeat(context.Background(), 1, chess.White)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	_, err = s.Move(ctx, chess.Position{StartFEN: uci.StartFEN})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Move: %v, want context.Canceled", err)
	}
	var fe *fitness.FaultError
	if errors.As(err, &fe) {
		t.Errorf("a cancelled move is a fault: %v", err)
	}
	s.End()
	if n := e.Processes(); n != 0 {
		t.Errorf("%d processes: the interrupted one is kept", n)
	}
}

// TestScale: a spin with a scale is a float knob in the option's range
// divided by the scale, sent multiplied back and rounded.
func TestScale(t *testing.T) {
	d := scriptDef(t, "")
	d.Scale = map[string]int{"aggression": 100}
	var log syncBuffer
	d.Stderr = &log
	e := newEngine(t, d)
	p, ok := e.Schema().Lookup("Aggression")
	if !ok || p.Kind != genome.Float || p.Min != 0 || p.Max != 2 || p.Default.Num != 0.5 {
		t.Fatalf("Aggression: %+v, want a float in [0, 2], default 0.5", p)
	}
	v, err := e.Schema().Defaults().With("Aggression", genome.Value{Num: 1.234})
	if err != nil {
		t.Fatal(err)
	}
	pl, err := e.NewPlayer(v, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.NewPlayer(genome.Values{}, fitness.Settings{"depth": "x"}); err == nil {
		t.Error("a bad setting accepted")
	}
	s, err := pl.NewSeat(context.Background(), 1, chess.White)
	if err != nil {
		t.Fatal(err)
	}
	s.End()
	e.Close()
	if got := withoutPids(log.String()); got != "[uci:script] set: Aggression value 123\n" {
		t.Errorf("sent %q, want Aggression 123", got)
	}
}

// TestStderrBounded: an engine's stderr reaches the log escaped and
// within MaxStderrLines lines, the rest dropped and counted.
func TestStderrBounded(t *testing.T) {
	d := scriptDef(t, "stderr-flood")
	var log syncBuffer
	d.Stderr = &log
	e := newEngine(t, d)
	s, err := defaultPlayer(t, e).NewSeat(context.Background(), 1, chess.White)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Move(context.Background(), chess.Position{StartFEN: uci.StartFEN}); err != nil {
		t.Fatal(err)
	}
	s.End()
	e.Close()
	lines := strings.Split(strings.TrimSuffix(withoutPids(log.String()), "\n"), "\n")
	want := []string{
		`[uci:script] noise 9999\x1b[2J`,
		"[uci:script] stderr: more than 10000 lines from its processes; the rest is dropped",
		"[uci:script] stderr: 50 lines dropped",
	}
	if len(lines) != uci.MaxStderrLines+2 || strings.Join(lines[len(lines)-3:], "\n") != strings.Join(want, "\n") {
		t.Errorf("%d lines ending\n%s\nwant %d ending\n%s", len(lines), strings.Join(lines[max(0, len(lines)-3):], "\n"), uci.MaxStderrLines+2, strings.Join(want, "\n"))
	}
}

// TestClock: under a clock the player tells the referee its control,
// and each go sends the game's clocks as the referee keeps them, a time
// below zero (an overrun within the margin) as 0; a seat without the
// game's clocks is an error, not a fault.
func TestClock(t *testing.T) {
	d := scriptDef(t, "log-go")
	d.Limit = uci.Limit{TC: uci.TC{Moves: 40, Base: 10000, Inc: 100}}
	var log syncBuffer
	d.Stderr = &log
	e := newEngine(t, d)
	p := defaultPlayer(t, e)
	if tc, ok := p.TimeControl(); !ok || tc != (chess.TimeControl{Moves: 40, Base: 10000, Inc: 100}) {
		t.Errorf("TimeControl() = %+v, %v", tc, ok)
	}
	s, err := p.NewSeat(context.Background(), 1, chess.White)
	if err != nil {
		t.Fatal(err)
	}
	for _, ck := range []chess.Clock{
		{Time: [2]int64{10000, 9000}, Inc: [2]int64{100, 100}, MovesToGo: 40},
		{Time: [2]int64{-30, 5}, Inc: [2]int64{100, 0}},
	} {
		if _, err := s.Move(context.Background(), chess.Position{StartFEN: uci.StartFEN, Clock: &ck}); err != nil {
			t.Fatal(err)
		}
	}
	var fe *fitness.FaultError
	if _, err := s.Move(context.Background(), chess.Position{StartFEN: uci.StartFEN}); err == nil || errors.As(err, &fe) {
		t.Errorf("a move under a clock without the game's clocks: %v, want an error that is not a fault", err)
	}
	s.End()
	e.Close()
	want := "[uci:script] go wtime 10000 btime 9000 winc 100 binc 100 movestogo 40\n[uci:script] go wtime 0 btime 5 winc 100 binc 0\n"
	if got := withoutPids(log.String()); got != want {
		t.Errorf("go commands\n%s\nwant\n%s", got, want)
	}
	if _, ok := defaultPlayer(t, newEngine(t, scriptDef(t, ""))).TimeControl(); ok {
		t.Error("a player at a depth reports a clock")
	}
}

// TestVerifyEveryLimit: Verify plays its first move under each kind of
// limit, a clock included (it gives the move the clock a game starts
// with; before, an engine under a clock failed Verify, so no config
// could play one).
func TestVerifyEveryLimit(t *testing.T) {
	for _, l := range []uci.Limit{{Nodes: 40}, {Depth: 1}, {MoveTime: 50}, {TC: uci.TC{Base: 3000}}, {TC: uci.TC{Moves: 40, Base: 3000, Inc: 100}}} {
		t.Run(l.String(), func(t *testing.T) {
			d := fixtureDef(t, "fixture")
			d.Limit = l
			if err := newEngine(t, d).Verify(context.Background()); err != nil {
				t.Errorf("Verify at %v: %v", l, err)
			}
		})
	}
}

// TestKeepsFailingInParallel: seats of one engine on two goroutines
// (two workers) reach MaxFaultRun together; the FailingError is built
// under the engine's lock (under -race, a read of its counts after the
// unlock raced with another seat's release).
func TestKeepsFailingInParallel(t *testing.T) {
	e := newEngine(t, fixtureDef(t, "crashing", opt("Crash Ply", 1)))
	p := defaultPlayer(t, e)
	var wg sync.WaitGroup
	failing := make([]bool, 2)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 4 * uci.MaxFaultRun {
				s, err := p.NewSeat(context.Background(), 1, chess.Black)
				var fe *uci.FailingError
				if errors.As(err, &fe) {
					failing[w] = true
					return
				}
				if err == nil {
					_, _ = s.Move(context.Background(), chess.Position{StartFEN: uci.StartFEN, Moves: []string{"e2e4"}, ToMove: chess.Black})
					s.End()
				}
			}
		}()
	}
	wg.Wait()
	if !failing[0] || !failing[1] {
		t.Errorf("an engine that crashes every game: keeps failing seen by the workers %v, want both", failing)
	}
}
