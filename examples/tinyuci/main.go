// Command tinyuci is a small UCI chess engine for evotune's tests and
// examples: the search of the built-in player "tiny" (package
// fitness/chess/tiny: alpha-beta with captures-only quiescence over
// material) behind the UCI protocol, with its piece values as spin
// options, one knob with a planted optimum, and fault injectors. It
// honours go depth N (N plies) and go nodes N (2 plies within N nodes);
// under movetime or a clock it searches 1 ply.
//
// The planted optimum: with Focus at 70 it always plays its search's
// move; at any other value it plays a random legal move instead with
// probability 0.6 ((Focus-70)/70)^2, so its strength peaks at 70 and
// falls smoothly either side. The draw is a hash of the position, never
// the clock, so the engine is deterministic.
//
// The fault injectors, each an option that is off at 0: at the first
// `go` of a game at ply N or later (N counts the moves of the position
// command since its start position) it crashes (Crash Ply: exits with
// status 3), plays an illegal move (Illegal Ply: a1a1), writes garbage
// instead of a move (Garbage Ply: bestmove banana), hangs (Hang Ply:
// never answers), or answers after Slow Ms milliseconds (Slow Ply). With
// Fault Every K, only games whose first N moves hash (FNV-1a 64 of "FEN
// m1 m2 ... mN") to a multiple of K fault. No Readyok stops answering
// isready. Flags make it fail before any option can be set:
// -slow-uciok D waits D before uciok, -no-uciok never sends it, -not-uci
// exits at once.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/corentings/chess/v2"
	"github.com/evotune/evotune/fitness/chess/tiny"
)

// uciNotation writes moves as UCI does.
var uciNotation chess.UCINotation

// Optimum is the value of Focus at which the engine plays best.
const Optimum = 70

// spin is a spin option.
type spin struct {
	name          string
	def, min, max int
}

var spins = []spin{
	{"Pawn", 100, 0, 2000}, {"Knight", 320, 0, 2000}, {"Bishop", 330, 0, 2000}, {"Rook", 500, 0, 2000}, {"Queen", 900, 0, 2000},
	{"Focus", 50, 0, 100},
	{"Crash Ply", 0, 0, 10000}, {"Illegal Ply", 0, 0, 10000}, {"Garbage Ply", 0, 0, 10000}, {"Hang Ply", 0, 0, 10000},
	{"Slow Ply", 0, 0, 10000}, {"Slow Ms", 0, 0, 600000}, {"Fault Every", 1, 1, 1000000},
}

type engine struct {
	out       *bufio.Writer
	spin      map[string]int
	noReadyok bool

	fen   string   // the position command's start
	moves []string // and its moves
	pos   *chess.Position
}

func main() {
	slowUCIOK := flag.Duration("slow-uciok", 0, "wait this long before uciok")
	noUCIOK := flag.Bool("no-uciok", false, "never send uciok")
	notUCI := flag.Bool("not-uci", false, "exit at once, as a program that is not a UCI engine")
	flag.Parse()
	if *notUCI {
		fmt.Println("tinyuci: not speaking UCI today")
		os.Exit(1)
	}
	e := &engine{out: bufio.NewWriter(os.Stdout), spin: map[string]int{}}
	for _, s := range spins {
		e.spin[s.name] = s.def
	}
	e.newGame()
	in := bufio.NewReaderSize(os.Stdin, 64<<10)
	for {
		line, err := in.ReadString('\n')
		if err != nil && (err != io.EOF || line == "") {
			return
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			e.say("tinyuci: a banner line before id, as some engines print")
			e.say("id name tinyuci")
			e.say("id author evotune")
			for _, s := range spins {
				e.say(fmt.Sprintf("option name %s type spin default %d min %d max %d", s.name, s.def, s.min, s.max))
			}
			e.say("option name No Readyok type check default false")
			if *noUCIOK {
				continue
			}
			time.Sleep(*slowUCIOK)
			e.say("uciok")
		case "isready":
			if !e.noReadyok {
				e.say("readyok")
			}
		case "setoption":
			e.setOption(f[1:])
		case "ucinewgame":
			e.newGame()
		case "position":
			if err := e.position(f[1:]); err != nil {
				e.say("info string " + err.Error())
			}
		case "go":
			e.think(f[1:])
		case "quit":
			return
		}
	}
}

func (e *engine) say(s string) {
	e.out.WriteString(s)
	e.out.WriteByte('\n')
	e.out.Flush()
}

// setOption reads `setoption name N value V`.
func (e *engine) setOption(f []string) {
	var name, value []string
	cur := &name
	for _, w := range f {
		switch w {
		case "name":
			cur = &name
		case "value":
			cur = &value
		default:
			*cur = append(*cur, w)
		}
	}
	n, v := strings.Join(name, " "), strings.Join(value, " ")
	if strings.EqualFold(n, "No Readyok") {
		e.noReadyok = strings.EqualFold(v, "true")
		return
	}
	for _, s := range spins {
		if strings.EqualFold(s.name, n) {
			if x, err := strconv.Atoi(v); err == nil && x >= s.min && x <= s.max {
				e.spin[s.name] = x
			} else {
				e.say("info string bad value for " + s.name)
			}
			return
		}
	}
	e.say("info string no option " + n)
}

func (e *engine) newGame() {
	e.fen, e.moves = "startpos", nil
	e.pos = chess.StartingPosition()
}

// position reads `position startpos|fen FEN [moves M...]`, playing only
// the moves past those of the last position command when it extends it.
func (e *engine) position(f []string) error {
	fen := "startpos"
	rest := f
	switch {
	case len(f) > 0 && f[0] == "startpos":
		rest = f[1:]
	case len(f) > 0 && f[0] == "fen":
		i := 1
		for i < len(f) && f[i] != "moves" {
			i++
		}
		fen, rest = strings.Join(f[1:i], " "), f[i:]
	default:
		return fmt.Errorf("position: want startpos or fen")
	}
	var moves []string
	if len(rest) > 0 && rest[0] == "moves" {
		moves = rest[1:]
	}
	from := 0
	if fen != e.fen || len(moves) < len(e.moves) || strings.Join(moves[:len(e.moves)], " ") != strings.Join(e.moves, " ") {
		pos := chess.StartingPosition()
		if fen != "startpos" {
			pos = &chess.Position{}
			if err := pos.UnmarshalText([]byte(fen)); err != nil {
				return fmt.Errorf("position: %v", err)
			}
		}
		e.fen, e.moves, e.pos = fen, nil, pos
	} else {
		from = len(e.moves)
	}
	for _, m := range moves[from:] {
		next, ok := play(e.pos, m)
		if !ok {
			return fmt.Errorf("position: illegal move %s", m)
		}
		e.pos = next
		e.moves = append(e.moves, m)
	}
	return nil
}

// play plays move s (UCI) in pos if it is legal. The move played is
// decoded afresh, not taken from ValidMoves: the library's v2.3.2 tags
// an under-promotion with the queen's check (fitness/chess/internal/legal
// says how), and Update trusts the tag.
func play(pos *chess.Position, s string) (*chess.Position, bool) {
	for _, m := range pos.ValidMoves() {
		if uciNotation.Encode(pos, &m) == s {
			fresh, err := uciNotation.Decode(pos, s)
			if err != nil {
				return nil, false
			}
			return pos.Update(fresh), true
		}
	}
	return nil, false
}

// faultsNow reports whether the injector at ply n fires in this game.
func (e *engine) faultsNow(n int) bool {
	if n == 0 || len(e.moves) < n {
		return false
	}
	return Gate(e.startFEN(), e.moves[:n], e.spin["Fault Every"])
}

// Gate is the fault injectors' choice of games: those whose first moves
// hash to a multiple of every.
func Gate(fen string, moves []string, every int) bool {
	h := fnv.New64a()
	io.WriteString(h, fen)
	for _, m := range moves {
		io.WriteString(h, " "+m)
	}
	return h.Sum64()%uint64(every) == 0
}

func (e *engine) startFEN() string {
	if e.fen == "startpos" {
		return "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	}
	return e.fen
}

// think answers `go`.
func (e *engine) think(f []string) {
	depth, nodes := 1, int64(0) // depth 1 without go depth (go nodes searches 2 deep, to its cap)
	for i := 0; i+1 < len(f); i++ {
		n, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			continue
		}
		switch f[i] {
		case "depth":
			depth = int(n)
		case "nodes":
			depth, nodes = 2, n
		}
	}
	switch {
	case e.faultsNow(e.spin["Crash Ply"]):
		fmt.Fprintln(os.Stderr, "tinyuci: crashing, as Crash Ply asks")
		os.Exit(3)
	case e.faultsNow(e.spin["Hang Ply"]):
		time.Sleep(time.Hour)
	case e.faultsNow(e.spin["Garbage Ply"]):
		e.say("bestmove banana")
		return
	case e.faultsNow(e.spin["Illegal Ply"]):
		e.say("bestmove a1a1")
		return
	case e.faultsNow(e.spin["Slow Ply"]):
		time.Sleep(time.Duration(e.spin["Slow Ms"]) * time.Millisecond)
	}
	p := tiny.Params{Pawn: e.spin["Pawn"], Knight: e.spin["Knight"], Bishop: e.spin["Bishop"], Rook: e.spin["Rook"], Queen: e.spin["Queen"]}
	r, ok := tiny.Search(e.pos, p, depth, nodes)
	if !ok {
		e.say(fmt.Sprintf("info depth %d score cp 0 nodes %d", depth, r.Nodes))
		e.say("bestmove (none)")
		return
	}
	move := uciNotation.Encode(e.pos, &r.Move)
	if u, k := e.draw(); u < miss(e.spin["Focus"]) {
		// Out of focus: a random legal move instead.
		legal := e.pos.ValidMoves()
		move = uciNotation.Encode(e.pos, &legal[k%uint64(len(legal))])
	}
	score := "cp " + strconv.Itoa(r.Score)
	if m := r.Mate(); m != 0 {
		score = "mate " + strconv.Itoa(m)
	}
	e.say(fmt.Sprintf("info depth %d score %s nodes %d pv %s", depth, score, r.Nodes, move))
	e.say("bestmove " + move)
}

// miss is the chance of a random move at focus f: 0 at Optimum, growing
// with the square of the distance from it.
func miss(f int) float64 {
	d := float64(f-Optimum) / Optimum
	return 0.6 * d * d
}

// draw is the position's uniform in [0, 1) and an index, from a hash of
// the game so far: the same position of the same game draws the same.
func (e *engine) draw() (float64, uint64) {
	h := fnv.New64a()
	io.WriteString(h, "focus "+e.startFEN())
	for _, m := range e.moves {
		io.WriteString(h, " "+m)
	}
	x := h.Sum64()
	x ^= x >> 31
	x *= 0x9e3779b97f4a7c15
	x ^= x >> 29
	return float64(x>>11) / (1 << 53), x
}
