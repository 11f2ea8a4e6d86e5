package uci_test

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/evotune/evotune/fitness/chess/uci"
	"github.com/evotune/evotune/fitness/chess/uci/ucitest"
)

// The test binary doubles as a scripted UCI engine: with UCI_SCRIPT
// set, TestMain speaks UCI (badly, as the script says) instead of
// running the tests. The script is a comma-separated list of flags.
func TestMain(m *testing.M) {
	if s, ok := os.LookupEnv("UCI_SCRIPT"); ok {
		scripted(s)
		os.Exit(0)
	}
	code := m.Run()
	ucitest.Remove()
	os.Exit(code)
}

func scripted(script string) {
	has := func(flag string) bool {
		for _, f := range strings.Split(script, ",") {
			if f == flag {
				return true
			}
		}
		return false
	}
	if has("not-uci") {
		fmt.Println("usage: solver [puzzle]")
		os.Exit(1)
	}
	out := bufio.NewWriter(os.Stdout)
	say := func(s string) { out.WriteString(s + "\n"); out.Flush() }
	in := bufio.NewScanner(os.Stdin)
	games := 0
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			say("Scripted engine 1.0, a banner line before id")
			say("id name Scripted")
			say("id author evotune's tests")
			say("option name Threads type spin default 1 min 1 max 8")
			say("option name Aggression type spin default 50 min 0 max 200")
			say("option name Style type combo default Normal var Solid var Normal var Risky")
			say("option name Book type check default true")
			say("option name Broken type spin default 9 min 0 max 5")
			say("option name Clear Hash type button")
			if has("no-uciok") {
				continue
			}
			if has("slow-uciok") {
				time.Sleep(2 * time.Second)
			}
			say("uciok")
		case "setoption":
			fmt.Fprintln(os.Stderr, "set:", strings.Join(f[2:], " "))
			if has("crash-on-setoption") {
				os.Exit(4)
			}
		case "ucinewgame":
			games++
		case "isready":
			if has("no-readyok") || has("no-readyok-2nd-game") && games >= 2 {
				continue
			}
			say("readyok")
		case "go":
			if has("log-go") {
				fmt.Fprintln(os.Stderr, strings.Join(f, " "))
			}
			switch {
			case has("crash-on-go"):
				fmt.Fprintln(os.Stderr, "panic: the search fell over")
				os.Exit(3)
			case has("hang-on-go"):
				time.Sleep(time.Hour)
			case has("garbage-on-go"):
				say("bestmove banana")
			case has("long-line-on-go"):
				say("info string " + strings.Repeat("x", uci.MaxLine))
			case has("partial-line-on-go"):
				out.WriteString("bestmo")
				out.Flush()
				os.Exit(0)
			case has("overshoot-nodes"):
				say("info depth 9 nodes 5000000")
				time.Sleep(time.Hour)
			case has("silent-nodes"):
				say("info depth 1 score cp 5")
				say("bestmove e2e4")
			case has("stderr-flood"):
				w := bufio.NewWriter(os.Stderr)
				for i := range uci.MaxStderrLines + 50 {
					fmt.Fprintf(w, "noise %d\x1b[2J\n", i)
				}
				w.Flush()
				say("bestmove e2e4")
			case has("slow-move"):
				time.Sleep(400 * time.Millisecond)
				say("bestmove e2e4")
			default:
				say("info depth 1 seldepth 1 score cp 13 nodes 20 pv e2e4")
				say("info depth 2 seldepth 3 score cp 17 lowerbound nodes 90 pv e2e4")
				say("info string thinking done")
				say("bestmove e2e4 ponder e7e5")
			}
		case "quit":
			return
		}
	}
}

// scriptDef is a definition of the scripted engine.
func scriptDef(t testing.TB, script string) uci.Definition {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return uci.Definition{
		Name: "script", Command: []string{self}, Env: []string{"UCI_SCRIPT=" + script},
		Limit: uci.Limit{Depth: 2},
	}
}
