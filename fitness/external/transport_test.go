package external_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/fitness/external/internal/wire"
	"github.com/evotune/evotune/genome"
)

// The tests of this file pin how requests and replies travel: the window
// of requests in flight, replies that cannot be matched, lines at and
// over their limits, and what a failed start or a crash costs a batch.

// answerLoop is shell that answers every request with a win, reading
// the request's id from the line.
const answerLoop = `while read line; do
  id=${line#*'"id":'}; id=${id%%,*}
  printf '{"type":"result","id":%s,"outcome":"win"}\n' "$id"
done`

// TestRequestsInFlight: evotune leaves at most wire.MaxInFlight requests
// unanswered on a process, and sends that many before it waits: a
// program that answers once it holds 256 plays, one that waits for 257
// is taken for hung.
func TestRequestsInFlight(t *testing.T) {
	for _, window := range []int{wire.MaxInFlight, wire.MaxInFlight + 1} {
		t.Run(fmt.Sprint(window), func(t *testing.T) {
			script := writeScript(t, `read line
printf '%s\n' '`+hello("")+`'
n=0; ids=
while read line; do
  id=${line#*'"id":'}; id=${id%%,*}
  ids="$ids $id"; n=$((n+1))
  if [ $n -eq `+strconv.Itoa(window)+` ]; then
    for i in $ids; do printf '{"type":"result","id":%s,"outcome":"win"}\n' "$i"; done
    n=0; ids=
  fi
done`)
			g := openGame(t, external.Command{Argv: []string{script}, Timeout: time.Second, Retries: -1}, nil)
			p, err := g.NewPlayer(fitness.Mover, "p", genome.Values{})
			if err != nil {
				t.Fatal(err)
			}
			ms := make([]external.Match, window)
			for i := range ms {
				ms[i] = external.Match{A: p, B: p, Seed: uint64(i)}
			}
			out, err := g.(*external.Game).PlayBatch(context.Background(), ms)
			if window <= wire.MaxInFlight {
				if err != nil || len(out) != window || slices.Contains(out, fitness.Loss) {
					t.Fatalf("%d outcomes, err %v", len(out), err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "no reply within 1s") {
				t.Fatalf("err = %v, want the program taken for hung", err)
			}
		})
	}
}

// TestUnknownReplyID: a reply to no request in flight is a protocol
// error of the process.
func TestUnknownReplyID(t *testing.T) {
	script := writeScript(t, `read line
printf '%s\n' '`+hello("")+`'
while read line; do
  id=${line#*'"id":'}; id=${id%%,*}
  printf '{"type":"result","id":%s,"outcome":"win"}\n' "$((id+1))"
done`)
	g := openGame(t, external.Command{Argv: []string{script}, Retries: -1}, nil)
	p, err := g.NewPlayer(fitness.Mover, "p", genome.Values{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.Play(context.Background(), p, p, 1)
	if err == nil || !strings.Contains(err.Error(), `reply to unknown request id 1: "{\"type\":\"result\",\"id\":1,\"outcome\":\"win\"}"`) {
		t.Fatalf("err = %v", err)
	}
}

// TestRepliesWithoutID: a reply that names no request is a protocol
// error of the process, worded by its type: an error is the program
// giving up.
func TestRepliesWithoutID(t *testing.T) {
	for _, tc := range []struct{ name, reply, err string }{
		{"error", `{"type":"error","error":"out of memory"}`, "the program gave up: out of memory"},
		{"result", `{"type":"result","outcome":"win"}`, `reply without an id: "{\"type\":\"result\",\"outcome\":\"win\"}"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			script := writeScript(t, "read line\nprintf '%s\\n' '"+hello("")+"'\nread line\nprintf '%s\\n' '"+tc.reply+"'\nsleep 5")
			g := openGame(t, external.Command{Argv: []string{script}, Retries: -1}, nil)
			p, err := g.NewPlayer(fitness.Mover, "p", genome.Values{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := g.Play(context.Background(), p, p, 1); err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("err = %v, want %q", err, tc.err)
			}
		})
	}
}

// TestReplyLineLimit: a reply of wire.MaxReplyLine bytes, its newline
// included, is read; one byte more is a protocol error.
func TestReplyLineLimit(t *testing.T) {
	for _, n := range []int{wire.MaxReplyLine, wire.MaxReplyLine + 1} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			head, tail := `{"type":"result","id":0,"outcome":"win","pad":"`, "\"}\n"
			reply := filepath.Join(t.TempDir(), "reply")
			if err := os.WriteFile(reply, []byte(head+strings.Repeat("x", n-len(head)-len(tail))+tail), 0o644); err != nil {
				t.Fatal(err)
			}
			script := writeScript(t, "read line\nprintf '%s\\n' '"+hello("")+"'\nread line\ncat '"+reply+"'\nsleep 5")
			g := openGame(t, external.Command{Argv: []string{script}, Retries: -1}, nil)
			p, err := g.NewPlayer(fitness.Mover, "p", genome.Values{})
			if err != nil {
				t.Fatal(err)
			}
			o, err := g.Play(context.Background(), p, p, 1)
			if n <= wire.MaxReplyLine {
				if err != nil || o != fitness.Win {
					t.Fatalf("outcome %v, err %v", o, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("line too long (over %d bytes)", wire.MaxReplyLine)) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

// TestTornHello: a program that stops in the middle of its hello line is
// told apart from one that says nothing.
func TestTornHello(t *testing.T) {
	for _, tc := range []struct{ name, body, err string }{
		{"mid-line", `read line; printf '{"type":"hel'`, "handshake: no hello: program closed its stdout in the middle of a line (exited with status 0)"},
		{"nothing", `read line`, "handshake: no hello: program closed its stdout (exited with status 0)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := external.Describe(context.Background(), external.Command{Argv: []string{writeScript(t, tc.body)}})
			if err == nil || !strings.HasSuffix(err.Error(), tc.err) {
				t.Fatalf("err = %v, want it to end with %q", err, tc.err)
			}
		})
	}
}

// TestStderrTail: an error quotes the program's last 10 stderr lines,
// each cut to 300 bytes.
func TestStderrTail(t *testing.T) {
	long, most := strings.Repeat("y", 400), strings.Repeat("z", 300)
	var body strings.Builder
	for i := range 11 {
		fmt.Fprintf(&body, "echo 'line %d' >&2\n", i)
	}
	body.WriteString("echo '" + most + "' >&2\necho '" + long + "' >&2\nexit 4")
	_, err := external.Describe(context.Background(), external.Command{Argv: []string{writeScript(t, body.String())}})
	var se *external.SetupError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v", err)
	}
	want := []string{"line 3", "line 4", "line 5", "line 6", "line 7", "line 8", "line 9", "line 10", most, long[:300] + "..."}
	if !slices.Equal(se.StderrTail, want) {
		t.Fatalf("tail %q\nwant %q", se.StderrTail, want)
	}
}

// TestEmptyBatchStartsNothing: a batch of no games starts no process.
func TestEmptyBatchStartsNothing(t *testing.T) {
	var log lockedBuffer
	c := botCommand("noisy", 0)
	c.Stderr = &log
	g := open(t, c, nil)
	out, err := g.PlayBatch(context.Background(), nil)
	if err != nil || len(out) != 0 {
		t.Fatalf("%v, %v", out, err)
	}
	if n := strings.Count(log.String(), "bot: starting"); n != 1 {
		t.Fatalf("%d processes started, want only Describe's", n)
	}
}

// TestFailedStartsAreRetried: a program that fails to start (here: it
// exits before its hello) is tried 1+Retries times for the game at the
// head of the batch; when a later start works, the whole batch is
// played.
func TestFailedStartsAreRetried(t *testing.T) {
	for _, tc := range []struct {
		name     string
		retries  int
		failures int // starts after Describe's that fail
		starts   int // starts after Describe's, in all
		err      string
	}{
		{"no retries", -1, 100, 1, "failed after 1 attempt: "},
		{"one retry", 1, 100, 2, "failed after 2 attempts: "},
		{"one failure, then plays", 2, 1, 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			count := filepath.Join(dir, "starts")
			// The first start (Describe's) and those after the failures work.
			script := writeScript(t, `echo x >> '`+count+`'
n=$(wc -l < '`+count+`')
read line
if [ "$n" -gt 1 ] && [ "$n" -le `+strconv.Itoa(1+tc.failures)+` ]; then echo 'not today' >&2; exit 3; fi
printf '%s\n' '`+hello("")+`'
`+answerLoop)
			g := openGame(t, external.Command{Argv: []string{script}, Retries: tc.retries}, nil)
			p, err := g.NewPlayer(fitness.Mover, "p", genome.Values{})
			if err != nil {
				t.Fatal(err)
			}
			ms := make([]external.Match, 5)
			for i := range ms {
				ms[i] = external.Match{A: p, B: p, Seed: uint64(i)}
			}
			out, err := g.(*external.Game).PlayBatch(context.Background(), ms)
			data, _ := os.ReadFile(count)
			if starts := strings.Count(string(data), "x") - 1; starts != tc.starts {
				t.Errorf("%d starts after Describe's, want %d", starts, tc.starts)
			}
			if tc.err == "" {
				if err != nil || !slices.Equal(out, []fitness.Outcome{fitness.Win, fitness.Win, fitness.Win, fitness.Win, fitness.Win}) {
					t.Fatalf("outcomes %v, err %v", out, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err+"external: "+script+": handshake: no hello") || !strings.Contains(err.Error(), "not today") {
				t.Fatalf("err = %v, want %q and the program's stderr", err, tc.err)
			}
		})
	}
}

// TestCrashWithGamesUnsent: when a process dies with games still to
// send (more than the window in flight), the games in flight are
// replayed and the rest are still played: every outcome is the
// reference's.
func TestCrashWithGamesUnsent(t *testing.T) {
	const n = 600
	want := reference(t, n)
	c := botCommand("crash-once", fitness.Derive(1, 5), "EXTBOT_MARK="+filepath.Join(t.TempDir(), "mark"))
	g := open(t, c, nil)
	got, err := g.PlayBatch(context.Background(), matches(t, g, n))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatal("outcomes differ from the reference")
	}
}

// TestErrorRequestText: a game's error quotes the request line as it was
// sent, without its newline.
func TestErrorRequestText(t *testing.T) {
	seed := fitness.Derive(1, 0)
	g := open(t, botCommand("refuse", seed), nil)
	p := player(t, g, "fixed", nil)
	_, err := g.Play(context.Background(), p, p, seed)
	var ge *external.GameError
	if !errors.As(err, &ge) {
		t.Fatalf("err = %v", err)
	}
	want := `{"type":"play","id":0,"seed":"` + strconv.FormatUint(seed, 10) + `","rules":{"draws":"no"},"seats":[{"player":"fixed","params":{}},{"player":"fixed","params":{}}]}`
	if ge.Request != want {
		t.Fatalf("request %q\nwant %q", ge.Request, want)
	}
}

// TestLoneGameCrashCountsEveryTry: a game played alone whose process
// dies is tried exactly 1+Retries times, the first try included.
func TestLoneGameCrashCountsEveryTry(t *testing.T) {
	for _, tc := range []struct{ retries, tries int }{{-1, 1}, {0, 1 + external.DefaultRetries}, {1, 2}} {
		t.Run(fmt.Sprint(tc.retries), func(t *testing.T) {
			seed := fitness.Derive(1, 0)
			var log lockedBuffer
			c := botCommand("crash", seed)
			c.Retries, c.Stderr = tc.retries, &log
			g := open(t, c, nil)
			p := player(t, g, "fixed", nil)
			_, err := g.Play(context.Background(), p, p, seed)
			var ge *external.GameError
			if !errors.As(err, &ge) || ge.Attempts != tc.tries {
				t.Fatalf("err = %v, want %d attempts", err, tc.tries)
			}
			if n := strings.Count(log.String(), "crashing on purpose"); n != tc.tries {
				t.Fatalf("the game crashed %d times, want %d", n, tc.tries)
			}
		})
	}
}

// TestStderrControlCharacters: a program's stderr reaches the log and an
// error with its control characters escaped (a terminal's escape sequence
// would otherwise act on the user's terminal), its tabs kept.
func TestStderrControlCharacters(t *testing.T) {
	var log lockedBuffer
	script := writeScript(t, `printf '\033[2Jcleared\r\n' >&2; printf 'a\tb\n' >&2; exit 4`)
	_, err := external.Describe(context.Background(), external.Command{Argv: []string{script}, Stderr: &log})
	var se *external.SetupError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v", err)
	}
	want := []string{`\x1b[2Jcleared\r`, "a\tb"}
	if !slices.Equal(se.StderrTail, want) {
		t.Errorf("tail %q\nwant %q", se.StderrTail, want)
	}
	for _, w := range want {
		if !strings.Contains(log.String(), "] "+w+"\n") {
			t.Errorf("log %q, want the line %q", log.String(), w)
		}
	}
}
