package chess

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	lib "github.com/corentings/chess/v2"
	"github.com/evotune/evotune/fitness/chess/internal/legal"
)

// StartFEN is the standard starting position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// MaxFullMoves bounds a position's full-move number, so that no count
// derived from it overflows.
const MaxFullMoves = 100_000

// fenMu serialises the library's FEN reader: it splits a board into
// ranks through one buffer shared by every call (v2.3.2's rankBuffer),
// and its NewGame and PGN parser read FENs too. Every call into the
// library that reads a FEN holds it.
var fenMu sync.Mutex

// decode reads a six-field FEN through the library. The library indexes
// a table by each byte of the board without a bounds check, so the board
// is checked first (checkBoard), and a panic of the reader on input
// nobody foresaw is that input's error.
func decode(fen string) (pos *lib.Position, err error) {
	board, _, _ := strings.Cut(fen, " ")
	if err := checkBoard(board); err != nil {
		return nil, err
	}
	fenMu.Lock()
	defer fenMu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			pos, err = nil, fmt.Errorf("unreadable FEN (the reader failed: %v)", r)
		}
	}()
	pos = new(lib.Position)
	if err := pos.UnmarshalText([]byte(fen)); err != nil {
		return nil, err
	}
	return pos, nil
}

// checkBoard checks a FEN's board field: eight ranks separated by /,
// each of pieces (PNBRQK, pnbrqk) and counts of empty squares (1 to 8)
// filling eight squares.
func checkBoard(board string) error {
	ranks := strings.Split(board, "/")
	if len(ranks) != 8 {
		return fmt.Errorf("the board has %d ranks, want 8 separated by /", len(ranks))
	}
	for i, rank := range ranks {
		n := 0
		for j := 0; j < len(rank); j++ {
			switch c := rank[j]; {
			case c >= '1' && c <= '8':
				n += int(c - '0')
			case strings.IndexByte("PNBRQKpnbrqk", c) >= 0:
				n++
			default:
				return fmt.Errorf("board: rank %d %q: %q is neither a piece (PNBRQK, pnbrqk) nor a count of empty squares", 8-i, clip(rank), rank[j:j+1])
			}
		}
		if n != 8 {
			return fmt.Errorf("board: rank %d %q holds %d squares, want 8", 8-i, clip(rank), n)
		}
	}
	return nil
}

// ParseFEN reads a position in Forsyth-Edwards Notation (six fields,
// separated by spaces) and checks that it can occur in a game and is not
// over: one king a side, at most 16 pieces and 8 pawns a side, no pawn on
// the first or last rank, the side not to move not in check, castling
// rights that match a king and rook on their squares, an en-passant
// square behind a pawn that has just moved two squares, a half-move
// clock below 100 and a full-move number from 1 to MaxFullMoves, and a
// side to move with a legal move and mating material on the board. The
// position returned is the caller's own.
//
// ParseFEN is safe for concurrent use, unlike the library's FEN reader.
func ParseFEN(fen string) (*lib.Position, error) {
	f := strings.Fields(fen)
	if len(f) != 6 {
		return nil, fmt.Errorf("want 6 fields (board, side, castling, en passant, half-move clock, full-move number), got %d", len(f))
	}
	for i, name := range []string{"half-move clock", "full-move number"} {
		if _, err := strconv.ParseUint(f[4+i], 10, 32); err != nil {
			return nil, fmt.Errorf("%s %q: not a whole number", name, f[4+i])
		}
	}
	return parseFields(f[0], f[1], f[2], f[3], f[4], f[5])
}

// parseFields reads and checks a position given as FEN's six fields.
func parseFields(board, side, castling, ep, halfmove, fullmove string) (*lib.Position, error) {
	if side != "w" && side != "b" {
		return nil, fmt.Errorf("side to move %q: want w or b", side)
	}
	if err := checkCastling(castling); err != nil {
		return nil, err
	}
	half, err := strconv.Atoi(halfmove)
	if err != nil || half < 0 || half > 99 {
		return nil, fmt.Errorf("half-move clock %q: want 0 to 99 (at 100 the game is drawn by the fifty-move rule)", halfmove)
	}
	full, err := strconv.Atoi(fullmove)
	if err != nil || full < 1 || full > MaxFullMoves {
		return nil, fmt.Errorf("full-move number %q: want 1 to %d", fullmove, MaxFullMoves)
	}
	pos, err := decode(strings.Join([]string{board, side, castling, ep, halfmove, fullmove}, " "))
	if err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "chess: "))
	}
	if err := checkPosition(pos); err != nil {
		return nil, err
	}
	if over := newGame(pos).ended(); over != 0 {
		return nil, fmt.Errorf("the game is already over (%v)", over)
	}
	return pos, nil
}

// checkCastling accepts "-" or each of K, Q, k and q at most once.
func checkCastling(s string) error {
	if s == "-" {
		return nil
	}
	if s == "" || len(s) > 4 {
		return fmt.Errorf("castling %q: want - or some of KQkq", s)
	}
	for i, r := range s {
		if !strings.ContainsRune("KQkq", r) || strings.ContainsRune(s[i+1:], r) {
			return fmt.Errorf("castling %q: want - or some of KQkq, each once", s)
		}
	}
	return nil
}

// checkPosition checks what the library's FEN reader does not.
func checkPosition(pos *lib.Position) error {
	b := pos.Board()
	var kings, pieces, pawns [2]int
	kingSq := [2]lib.Square{lib.NoSquare, lib.NoSquare}
	for sq := lib.A1; sq <= lib.H8; sq++ {
		p := b.Piece(sq)
		if p == lib.NoPiece {
			continue
		}
		c := side(p.Color())
		pieces[c]++
		switch p.Type() {
		case lib.King:
			kings[c]++
			kingSq[c] = sq
		case lib.Pawn:
			pawns[c]++
			if r := sq.Rank(); r == lib.Rank1 || r == lib.Rank8 {
				return fmt.Errorf("a pawn on %v", sq)
			}
		}
	}
	for c := range 2 {
		name := Color(c).String()
		switch {
		case kings[c] != 1:
			return fmt.Errorf("%s has %d kings, want 1", name, kings[c])
		case pieces[c] > 16:
			return fmt.Errorf("%s has %d pieces, more than 16", name, pieces[c])
		case pawns[c] > 8:
			return fmt.Errorf("%s has %d pawns, more than 8", name, pawns[c])
		}
	}
	mover := side(pos.Turn())
	if attacked(b, kingSq[1-mover], mover) {
		return fmt.Errorf("%v is in check but it is %v's move", Color(1-mover), mover)
	}
	cr := pos.CastleRights()
	for _, c := range []struct {
		right      string
		king, rook lib.Square
		piece      lib.Piece
	}{
		{"K", lib.E1, lib.H1, lib.WhiteRook}, {"Q", lib.E1, lib.A1, lib.WhiteRook},
		{"k", lib.E8, lib.H8, lib.BlackRook}, {"q", lib.E8, lib.A8, lib.BlackRook},
	} {
		if !strings.Contains(string(cr), c.right) {
			continue
		}
		king := lib.WhiteKing
		if c.piece == lib.BlackRook {
			king = lib.BlackKing
		}
		if b.Piece(c.king) != king || b.Piece(c.rook) != c.piece {
			return fmt.Errorf("castling right %s without the king on %v and a rook on %v", c.right, c.king, c.rook)
		}
	}
	if ep := pos.EnPassantSquare(); ep != lib.NoSquare {
		// The pawn that moved two squares stands in front of ep, seen
		// from its own side; ep and the square it came from are empty.
		pawn, rank, from, to := lib.BlackPawn, lib.Rank6, ep+8, ep-8
		if mover == Black {
			pawn, rank, from, to = lib.WhitePawn, lib.Rank3, ep-8, ep+8
		}
		if ep.Rank() != rank || b.Piece(to) != pawn || b.Piece(ep) != lib.NoPiece || b.Piece(from) != lib.NoPiece {
			return fmt.Errorf("en passant %v: no %v pawn has just moved two squares past it", ep, Color(1-mover))
		}
	}
	return nil
}

// side is the library's colour as ours.
func side(c lib.Color) Color {
	if c == lib.Black {
		return Black
	}
	return White
}

func (c Color) String() string {
	switch c {
	case White:
		return "white"
	case Black:
		return "black"
	}
	return "Color(" + strconv.Itoa(int(c)) + ")"
}

// Other is the opponent's colour.
func (c Color) Other() Color { return 1 - c }

// attacked reports whether a piece of side by attacks sq on board b: a
// square test, not a move generator (the library has no exported one).
func attacked(b *lib.Board, sq lib.Square, by Color) bool {
	f, r := int(sq.File()), int(sq.Rank())
	at := func(df, dr int) lib.Piece {
		nf, nr := f+df, r+dr
		if nf < 0 || nf > 7 || nr < 0 || nr > 7 {
			return lib.NoPiece
		}
		return b.Piece(lib.NewSquare(lib.File(nf), lib.Rank(nr)))
	}
	color := lib.White
	if by == Black {
		color = lib.Black
	}
	is := func(p lib.Piece, types ...lib.PieceType) bool {
		if p == lib.NoPiece || p.Color() != color {
			return false
		}
		for _, t := range types {
			if p.Type() == t {
				return true
			}
		}
		return false
	}
	// Pawns attack forward diagonally: a white pawn on a lower rank.
	dr := -1
	if by == Black {
		dr = 1
	}
	if is(at(-1, dr), lib.Pawn) || is(at(1, dr), lib.Pawn) {
		return true
	}
	for _, d := range [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
		if is(at(d[0], d[1]), lib.Knight) {
			return true
		}
	}
	for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
		if is(at(d[0], d[1]), lib.King) {
			return true
		}
		slider := lib.Rook
		if d[0] != 0 && d[1] != 0 {
			slider = lib.Bishop
		}
		for nf, nr := f+d[0], r+d[1]; nf >= 0 && nf <= 7 && nr >= 0 && nr <= 7; nf, nr = nf+d[0], nr+d[1] {
			p := b.Piece(lib.NewSquare(lib.File(nf), lib.Rank(nr)))
			if p == lib.NoPiece {
				continue
			}
			if is(p, slider, lib.Queen) {
				return true
			}
			break
		}
	}
	return false
}

// ParseEPD reads one line of an EPD book: the first four fields of a
// FEN, then either FEN's two counters or EPD operations separated by
// semicolons, of which hmvc (the half-move clock) and fmvn (the
// full-move number) are read and the others (id, c0, bm, ...) skipped.
// The position is checked as ParseFEN checks it.
func ParseEPD(line string) (*lib.Position, error) {
	f := strings.Fields(line)
	if len(f) < 4 {
		return nil, fmt.Errorf("want at least 4 fields (board, side, castling, en passant), got %d", len(f))
	}
	// A FEN: exactly two whole numbers follow, and nothing else.
	if len(f) == 6 && isUint(f[4]) && isUint(f[5]) {
		return parseFields(f[0], f[1], f[2], f[3], f[4], f[5])
	}
	half, full := "0", "1"
	ops, err := operations(afterFields(line, 4))
	if err != nil {
		return nil, err
	}
	for _, op := range ops {
		if !isOpcode(op[0]) {
			return nil, fmt.Errorf("operation %q: want an opcode (a letter, then letters, digits or _), its operands, and ;", clip(strings.Join(op, " ")))
		}
		if op[0] != "hmvc" && op[0] != "fmvn" {
			continue
		}
		if len(op) != 2 || !isUint(op[1]) {
			return nil, fmt.Errorf("%s %q: want a whole number", op[0], clip(strings.Join(op[1:], " ")))
		}
		if op[0] == "hmvc" {
			half = op[1]
		} else {
			full = op[1]
		}
	}
	return parseFields(f[0], f[1], f[2], f[3], half, full)
}

// operations splits an EPD line's operations: each an opcode and its
// operands, separated by spaces and ended by a semicolon (the last one's
// may be left out); a string operand in double quotes may hold spaces
// and semicolons.
func operations(s string) ([][]string, error) {
	var ops [][]string
	var op []string
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == ';':
			if len(op) == 0 {
				return nil, errors.New("an empty operation (;;)")
			}
			ops, op = append(ops, op), nil
			i++
		case c == '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				return nil, fmt.Errorf("operation %q: a string without its closing quote", clip(strings.TrimSpace(s[i:])))
			}
			if len(op) == 0 {
				return nil, fmt.Errorf("operation %q: a string where an opcode should be", clip(s[i:i+j+2]))
			}
			op = append(op, s[i:i+j+2])
			i += j + 2
		default:
			j := strings.IndexAny(s[i:], " \t;\"")
			if j < 0 {
				j = len(s) - i
			}
			op = append(op, s[i:i+j])
			i += j
		}
	}
	if len(op) > 0 {
		ops = append(ops, op)
	}
	return ops, nil
}

// afterFields is s after its first n space-separated fields.
func afterFields(s string, n int) string {
	for range n {
		s = strings.TrimLeft(s, " \t")
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			return ""
		}
		s = s[i:]
	}
	return s
}

func isUint(s string) bool {
	_, err := strconv.ParseUint(s, 10, 32)
	return err == nil
}

func isOpcode(s string) bool {
	if s == "" || len(s) > 15 || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// clip shortens text quoted in a message.
func clip(s string) string {
	const n = 40
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// Replay is the position after moves (UCI long algebraic, each legal in
// turn) from the position start (a FEN, checked as ParseFEN checks it).
// A UCI engine reads `position fen START moves ...` so; the fixture
// engine examples/tinyuci does.
func Replay(start string, moves []string) (*lib.Position, error) {
	pos, err := ParseFEN(start)
	if err != nil {
		return nil, fmt.Errorf("chess: start position: %w", err)
	}
	for i, s := range moves {
		m, ok := findMove(legal.Moves(pos), s)
		if !ok {
			return nil, fmt.Errorf("chess: move %d %q is not legal in %s", i+1, clip(s), pos)
		}
		pos = pos.Update(&m)
	}
	return pos, nil
}

// findMove is the legal move written s in UCI long algebraic notation
// (e2e4, e7e8q, e1g1 for castling), strictly: lower case, no spaces.
func findMove(legal []lib.Move, s string) (lib.Move, bool) {
	if len(s) != 4 && len(s) != 5 {
		return lib.Move{}, false
	}
	sq := func(f, r byte) (lib.Square, bool) {
		if f < 'a' || f > 'h' || r < '1' || r > '8' {
			return 0, false
		}
		return lib.NewSquare(lib.File(f-'a'), lib.Rank(r-'1')), true
	}
	s1, ok1 := sq(s[0], s[1])
	s2, ok2 := sq(s[2], s[3])
	if !ok1 || !ok2 {
		return lib.Move{}, false
	}
	promo := lib.NoPieceType
	if len(s) == 5 {
		switch s[4] {
		case 'q':
			promo = lib.Queen
		case 'r':
			promo = lib.Rook
		case 'b':
			promo = lib.Bishop
		case 'n':
			promo = lib.Knight
		default:
			return lib.Move{}, false
		}
	}
	for _, m := range legal {
		if m.S1() == s1 && m.S2() == s2 && m.Promo() == promo {
			return m, true
		}
	}
	return lib.Move{}, false
}

// uci writes m in UCI long algebraic notation.
func uci(m *lib.Move) string { return lib.UCINotation{}.Encode(nil, m) }
