package uci_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/evotune/evotune/fitness/chess"
	"github.com/evotune/evotune/fitness/chess/uci"
	"github.com/evotune/evotune/genome"
)

// TestLinesReadBack: every option an engine may declare writes a line
// that reads back to itself, and an engine's info to its lines and back.
func TestLinesReadBack(t *testing.T) {
	lines := []string{
		"id name Toga II 3.0",
		"id author Thomas Gaksch and Fabien Letouzey",
		"option name Hash type spin default 128 min 4 max 1024",
		"option name Ponder type check default false",
		"option name NullMove Pruning type combo default Always var Always var Fail High var Never",
		"option name BookFile type string default performance.bin",
		"option name SyzygyPath type string default <empty>",
		"option name Clear Hash type button",
		"option name Material type spin default 100 min 0 max 400",
	}
	info, err := uci.ParseLines(lines)
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Lines(); !reflect.DeepEqual(got, lines) {
		t.Fatalf("lines written back:\n%q\nwant\n%q", got, lines)
	}
	again, err := uci.ParseLines(info.Lines())
	if err != nil || !reflect.DeepEqual(again, info) {
		t.Fatalf("read back: %+v, %v; want %+v", again, err, info)
	}
	for _, bad := range []string{"option name X type spin default 5 min 6 max 7", "id nme x", "garbage"} {
		if _, err := uci.ParseLines([]string{bad}); err == nil {
			t.Errorf("%q: read without error", bad)
		}
	}
}

// TestRecordedStartsNothing: an engine built from a run's record has the
// started engine's knobs and settings, and a seat asked of it fails
// without starting a process.
func TestRecordedStartsNothing(t *testing.T) {
	info, err := uci.ParseLines([]string{"id name X", "id author Y",
		"option name Threads type spin default 1 min 1 max 8",
		"option name Material type spin default 100 min 0 max 400",
		"option name Style type combo default Normal var Solid var Normal"})
	if err != nil {
		t.Fatal(err)
	}
	d := uci.Definition{Name: "dev", Command: []string{"/nonexistent/engine"},
		Options: []uci.SetOption{{Name: "Threads", Value: "1"}}, Limit: uci.Limit{Depth: 2}}
	e, err := uci.Recorded(d, info)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	pi := e.PlayerInfo()
	if pi.Name != "uci:dev" || len(pi.Schema) != 2 {
		t.Fatalf("player info %+v: want uci:dev with 2 knobs (Material, Style)", pi)
	}
	p, err := e.NewPlayer(genome.Values{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.NewSeat(context.Background(), 1, chess.White); !errors.Is(err, uci.ErrNotStarted) {
		t.Fatalf("seat of a recorded engine: %v, want ErrNotStarted", err)
	}
	if e.Processes() != 0 {
		t.Fatalf("%d processes, want none", e.Processes())
	}
	// The nearest definition that must be refused: an option the
	// recorded engine has not.
	d.Options = append(d.Options, uci.SetOption{Name: "Hash", Value: "16"})
	if _, err := uci.Recorded(d, info); err == nil {
		t.Fatal("an option the recorded engine lacks was accepted")
	}
}
