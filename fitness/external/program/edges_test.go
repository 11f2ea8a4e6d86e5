package program_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evotune/evotune/internal/proctest"

	"github.com/evotune/evotune/fitness/external/internal/wire"
	"github.com/evotune/evotune/fitness/external/program"
)

// serve runs Serve on input and returns the lines after the offer.
func serve(t *testing.T, g program.Game, input string) ([]string, error) {
	t.Helper()
	var out bytes.Buffer
	err := program.Serve(g, strings.NewReader(input), &out)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], `{"type":"hello"`) {
		return lines, err
	}
	return lines[1:], err
}

// TestRulesReachPlay: every option reaches Play, given or defaulted,
// with or without a rules object in the request; a value outside an
// option's choices is an error reply.
func TestRulesReachPlay(t *testing.T) {
	g := program.Game{
		Name: "g",
		Options: []program.Option{
			{Name: "size", Default: "9", Choices: []string{"9", "13"}},
			{Name: "note", Default: "none"},
		},
		Players: []program.Player{{Name: "a"}},
		Play: func(r program.Request) (program.Outcome, error) {
			return 0, fmt.Errorf("size %s note %s", r.Rules["size"], r.Rules["note"])
		},
	}
	seats := `"seats":[{"player":"a","params":{}},{"player":"a","params":{}}]`
	input := hello +
		`{"type":"play","id":1,"seed":"1","rules":{},` + seats + "}\n" +
		`{"type":"play","id":2,"seed":"1","rules":{"size":"13","note":"hi"},` + seats + "}\n" +
		`{"type":"play","id":3,"seed":"1",` + seats + "}\n" +
		`{"type":"play","id":4,"seed":"1","rules":null,` + seats + "}\n" +
		`{"type":"play","id":5,"seed":"1","rules":{"size":"10"},` + seats + "}\n" +
		`{"type":"play","id":6,"seed":"1","rules":{"note":"x"},` + seats + "}\n"
	got, err := serve(t, g, input)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"type":"error","id":1,"error":"size 9 note none"}`,
		`{"type":"error","id":2,"error":"size 13 note hi"}`,
		`{"type":"error","id":3,"error":"size 9 note none"}`,
		`{"type":"error","id":4,"error":"size 9 note none"}`,
		`{"type":"error","id":5,"error":"rule size: \"10\" is not one of [9 13]"}`,
		`{"type":"error","id":6,"error":"size 9 note x"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("replies\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestResultsAreChecked: an outcome that is not a win, draw or loss, a
// cost that is not finite, and a solo game's error become error replies;
// a finite cost is the result.
func TestResultsAreChecked(t *testing.T) {
	two := `"seats":[{"player":"a","params":{}},{"player":"a","params":{}}]`
	one := `"seats":[{"player":"a","params":{}}]`
	play := func(seed int, seats string) string {
		return fmt.Sprintf(`{"type":"play","id":%d,"seed":"%d","rules":{},%s}`+"\n", seed, seed, seats)
	}
	outcome := program.Game{Name: "g", Players: []program.Player{{Name: "a"}},
		Play: func(r program.Request) (program.Outcome, error) { return program.Outcome(r.Seed), nil }}
	solo := program.Game{Name: "g", Players: []program.Player{{Name: "a"}},
		PlaySolo: func(r program.Request) (float64, error) {
			switch r.Seed {
			case 1:
				return math.NaN(), nil
			case 2:
				return math.Inf(-1), nil
			case 3:
				return 0, errors.New("no luck")
			}
			return 2.5, nil
		}}
	for _, tc := range []struct {
		name  string
		game  program.Game
		input string
		want  []string
	}{
		{"outcomes", outcome, hello + play(0, two) + play(2, two) + play(3, two) + play(255, two), []string{
			`{"type":"result","id":0,"outcome":"loss"}`,
			`{"type":"result","id":2,"outcome":"win"}`,
			`{"type":"error","id":3,"error":"outcome Outcome(3)"}`,
			`{"type":"error","id":255,"error":"outcome Outcome(-1)"}`,
		}},
		{"costs", solo, hello + play(1, one) + play(2, one) + play(3, one) + play(4, one), []string{
			`{"type":"error","id":1,"error":"cost NaN is not a finite number"}`,
			`{"type":"error","id":2,"error":"cost -Inf is not a finite number"}`,
			`{"type":"error","id":3,"error":"no luck"}`,
			`{"type":"result","id":4,"cost":2.5}`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := serve(t, tc.game, tc.input)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("replies\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestSoloSecondRole: in a solo game with two roles, seat 0 is of the
// first role and seat 1 of the second.
func TestSoloSecondRole(t *testing.T) {
	g := program.Game{Name: "g", Roles: []string{"shooter", "placer"}, Opponent: "r",
		Players: []program.Player{{Name: "s"}, {Name: "r", Role: "placer"}},
		PlaySolo: func(r program.Request) (float64, error) {
			if r.Seats[0].Role != "shooter" || r.Seats[1].Role != "placer" {
				return 0, fmt.Errorf("seats %+v", r.Seats)
			}
			return 7, nil
		}}
	input := hello + `{"type":"play","id":1,"seed":"1","rules":{},"seats":[{"player":"s","params":{}},{"player":"r","params":{}}]}` + "\n" +
		`{"type":"play","id":2,"seed":"1","rules":{},"seats":[{"player":"r","params":{}},{"player":"s","params":{}}]}` + "\n"
	got, err := serve(t, g, input)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"result","id":1,"cost":7}` + "\n" + `{"type":"error","id":2,"error":"seat 0: no shooter called \"r\""}`
	if strings.Join(got, "\n") != want {
		t.Fatalf("replies\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}

// TestInputEnds: stdin that ends after a whole line ends the program
// cleanly; in the middle of a line it is an error.
func TestInputEnds(t *testing.T) {
	for _, tc := range []struct{ name, input, err string }{
		{"after a line", hello, ""},
		{"in the hello", `{"type":"hel`, "program: stdin ended in the middle of a line"},
		{"in a request", hello + `{"type":"play"`, "program: stdin ended in the middle of a line"},
		{"after a long fragment", hello + strings.Repeat(" ", 100<<10), "program: stdin ended in the middle of a line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := serve(t, game(), tc.input)
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || err.Error() != tc.err) {
				t.Fatalf("err = %v, want %q", err, tc.err)
			}
		})
	}
}

// TestRequestLineLimit: a request line of wire.MaxRequestLine bytes, its
// newline included, is played; one byte more is refused.
func TestRequestLineLimit(t *testing.T) {
	head := `{"type":"play","id":1,"seed":"5","rules":{},"seats":[{"player":"a","params":{}},{"player":"b","params":{}}],"pad":"`
	tail := "\"}\n"
	for _, n := range []int{wire.MaxRequestLine, wire.MaxRequestLine + 1} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			line := head + strings.Repeat("x", n-len(head)-len(tail)) + tail
			got, err := serve(t, game(), hello+line)
			if n <= wire.MaxRequestLine {
				if err != nil || len(got) != 1 || got[0] != `{"type":"result","id":1,"outcome":"win"}` {
					t.Fatalf("replies %q, err %v", got, err)
				}
				return
			}
			want := fmt.Sprintf("program: a line from evotune is longer than %d bytes", wire.MaxRequestLine)
			if err == nil || err.Error() != want {
				t.Fatalf("err = %v, want %q", err, want)
			}
		})
	}
}

// session serves g over pipes: send writes lines to the program, and
// next returns its next line, failing the test when none comes in 10 s
// (a reply that waits for more input never comes).
type session struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

func newSession(t *testing.T, g program.Game) *session {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, lines: make(chan string, 100), done: make(chan error, 1)}
	go func() {
		err := program.Serve(g, inR, outW)
		outW.Close()
		s.done <- err
	}()
	go func() {
		out := bufio.NewReader(outR)
		for {
			l, err := out.ReadString('\n')
			if err != nil {
				close(s.lines)
				return
			}
			s.lines <- strings.TrimSuffix(l, "\n")
		}
	}()
	s.send(hello)
	s.next()
	return s
}

func (s *session) send(text string) {
	if _, err := io.WriteString(s.in, text); err != nil {
		s.t.Fatal(err)
	}
}

func (s *session) next() string {
	s.t.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			s.t.Fatal("the program's output ended")
		}
		return l
	case <-time.After(time.Until(proctest.Patience(s.t))):
		s.t.Fatal("no reply without more input")
	}
	return ""
}

func (s *session) close() {
	s.in.Close()
	if err := <-s.done; err != nil {
		s.t.Fatal(err)
	}
}

// TestRepliesGoOutWithoutTheHold: with the hold timer out of the way,
// replies still reach evotune with no more input coming: played on the
// reading goroutine, before it waits for the next line; played
// concurrently, when the last request in hand is answered.
func TestRepliesGoOutWithoutTheHold(t *testing.T) {
	defer program.SetMaxHold(time.Hour)()
	for _, conc := range []int{0, 1, 3} {
		t.Run(fmt.Sprint("concurrency ", conc), func(t *testing.T) {
			g := game()
			g.Concurrency = conc
			s := newSession(t, g)
			for burst := range 5 {
				for k := range burst + 1 {
					s.send(seatLine(10*burst+k, "9", "a", "b"))
				}
				for range burst + 1 {
					if l := s.next(); !strings.Contains(l, `"outcome":"win"`) {
						t.Fatalf("reply %s", l)
					}
				}
			}
			s.close()
		})
	}
}

// TestReplyDoesNotWaitForTheNextGame: a reply goes out while the next
// game, already read, is still being played.
func TestReplyDoesNotWaitForTheNextGame(t *testing.T) {
	release := make(chan struct{})
	g := game()
	g.Play = func(r program.Request) (program.Outcome, error) {
		if r.Seed == 2 {
			<-release // until the first reply is out
		}
		return program.Win, nil
	}
	s := newSession(t, g)
	s.send(seatLine(1, "1", "a", "b") + seatLine(2, "2", "a", "b"))
	if l := s.next(); l != `{"type":"result","id":1,"outcome":"win"}` {
		t.Fatalf("first reply %s", l)
	}
	close(release)
	if l := s.next(); l != `{"type":"result","id":2,"outcome":"win"}` {
		t.Fatalf("second reply %s", l)
	}
	s.close()
}

// TestConcurrencyOneIsSequential: Concurrency 0 and 1 play on the
// reading goroutine; more plays on that many playing goroutines.
func TestConcurrencyOneIsSequential(t *testing.T) {
	for _, tc := range []struct {
		conc    int
		goroutn bool
	}{{0, false}, {1, false}, {2, true}} {
		t.Run(fmt.Sprint(tc.conc), func(t *testing.T) {
			var hooked atomic.Int64
			defer program.SetTestHookBeforeReply(func(uint64) { hooked.Add(1) })()
			g := game()
			g.Concurrency = tc.conc
			if _, err := serve(t, g, hello+seatLine(1, "5", "a", "b")+seatLine(2, "5", "b", "a")); err != nil {
				t.Fatal(err)
			}
			if got := hooked.Load() > 0; got != tc.goroutn {
				t.Fatalf("played on a playing goroutine: %v, want %v", got, tc.goroutn)
			}
		})
	}
}
