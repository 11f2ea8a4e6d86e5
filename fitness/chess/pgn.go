package chess

import (
	"fmt"
	"strconv"
	"strings"

	lib "github.com/corentings/chess/v2"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/chess/internal/legal"
)

// Tag is a PGN tag pair: [Name "Value"].
type Tag struct {
	Name, Value string
}

// PGN writes the game in PGN's export format: the Seven Tag Roster
// (Event, Site, Date, Round, White, Black, Result; the date unknown, so
// that a replayed game writes the same bytes), then SetUp and FEN when
// the game did not start from the standard position, Termination and
// PlyCount, then tags in their order (knobs, opening, seed: whatever the
// caller wants a reader to see). A tag named like one of the roster's
// replaces its value. The moves are in SAN; the opening's are marked
// {book} or {random}, the players' carry what they said
// ({+0.35/12 1500N}: not the time, so that a game replayed writes the
// same bytes), and a last comment says why the game ended.
// A tag name that PGN cannot hold is an error.
func (r Record) PGN(tags ...Tag) (string, error) {
	roster := []Tag{{"Event", "evotune"}, {"Site", "?"}, {"Date", "????.??.??"}, {"Round", "?"},
		{"White", r.White}, {"Black", r.Black}, {"Result", r.Result()}}
	var extra []Tag
	if r.StartFEN != StartFEN {
		extra = append(extra, Tag{"SetUp", "1"}, Tag{"FEN", r.StartFEN})
	}
	extra = append(extra, Tag{"Termination", r.pgnTermination()}, Tag{"PlyCount", strconv.Itoa(len(r.Moves))})
	for _, t := range tags {
		if !tagName(t.Name) {
			return "", fmt.Errorf("chess: PGN tag name %q: want letters, digits and _, starting with a letter or digit", clip(t.Name))
		}
		replaced := false
		for i := range roster {
			if roster[i].Name == t.Name {
				roster[i].Value, replaced = t.Value, true
			}
		}
		if !replaced {
			extra = append(extra, t)
		}
	}
	var sb strings.Builder
	for _, t := range append(roster, extra...) {
		fmt.Fprintf(&sb, "[%s \"%s\"]\n", t.Name, tagValue(t.Value))
	}
	sb.WriteByte('\n')
	tokens, err := r.movetext()
	if err != nil {
		return "", err
	}
	wrap(&sb, tokens, 79)
	return sb.String(), nil
}

// movetext is the game's move tokens: numbers, SAN, comments, result.
func (r Record) movetext() ([]string, error) {
	pos, err := decode(r.StartFEN)
	if err != nil {
		return nil, fmt.Errorf("chess: record's start position %q: %w", r.StartFEN, err)
	}
	var out []string
	for i, s := range r.Moves {
		m, ok := findMove(legal.Moves(pos), s)
		if !ok {
			return nil, fmt.Errorf("chess: record's move %d %q is not legal in %s", i+1, clip(s), pos)
		}
		white := pos.Turn() == lib.White
		switch {
		case white:
			out = append(out, strconv.Itoa(fullMove(pos))+".")
		case i == 0 || out[len(out)-1][0] == '{':
			out = append(out, strconv.Itoa(fullMove(pos))+"...")
		}
		out = append(out, lib.AlgebraicNotation{}.Encode(pos, &m))
		switch {
		case i < r.Opening.BookPlies:
			out = append(out, "{book}")
		case i < r.Opening.Plies:
			out = append(out, "{random}")
		case i-r.Opening.Plies < len(r.Replies):
			if c := r.Replies[i-r.Opening.Plies].comment(); c != "" {
				out = append(out, "{"+c+"}")
			}
		}
		pos = pos.Update(&m)
	}
	out = append(out, "{"+comment(r.reason())+"}", r.Result())
	return out, nil
}

// comment is what a reply says, as cutechess writes it: the score in
// pawns from the mover's side (or M and the moves to mate), the depth and
// the nodes. Not the time: a game replayed at a fixed limit writes the
// same bytes.
func (rp Reply) comment() string {
	var parts []string
	if rp.HasScore {
		s := fmt.Sprintf("%+.2f", float64(rp.Score)/100)
		if rp.Mate > 0 {
			s = fmt.Sprintf("+M%d", rp.Mate)
		} else if rp.Mate < 0 {
			s = fmt.Sprintf("-M%d", -rp.Mate)
		}
		if rp.Depth > 0 {
			s += "/" + strconv.Itoa(rp.Depth)
		}
		parts = append(parts, s)
	}
	if rp.Nodes > 0 {
		parts = append(parts, strconv.FormatInt(rp.Nodes, 10)+"N")
	}
	return strings.Join(parts, " ")
}

// reason says in words why the game ended.
func (r Record) reason() string {
	winner := "White"
	if r.Outcome == fitness.Loss {
		winner = "Black"
	}
	switch r.Termination {
	case Checkmate:
		return winner + " mates"
	case AdjudicatedResign:
		return winner + " wins by adjudication: the other side's score stayed lost"
	case AdjudicatedDraw:
		return "Draw by adjudication: both scores stayed near zero"
	case MaxMoves:
		return "Draw by adjudication: the most moves a game may have"
	case ByFault:
		if r.Fault != nil {
			return fmt.Sprintf("%s wins: %v", winner, r.Fault)
		}
		return winner + " wins by the other side's fault"
	case 0:
		return "Unfinished"
	}
	return "Draw by " + r.Termination.String()
}

// pgnTermination is the PGN standard's Termination value.
func (r Record) pgnTermination() string {
	switch r.Termination {
	case AdjudicatedResign, AdjudicatedDraw, MaxMoves:
		return "adjudication"
	case ByFault:
		if r.Fault != nil {
			switch r.Fault.Kind {
			case fitness.FaultTime:
				return "time forfeit"
			case fitness.FaultIllegal:
				return "rules infraction"
			}
		}
		return "abandoned"
	case 0:
		return "unterminated"
	}
	return "normal"
}

// tagName reports whether s is a PGN symbol fit for a tag name.
func tagName(s string) bool {
	if s == "" || len(s) > 255 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isLetter(c) && (c < '0' || c > '9') && (c != '_' || i == 0) {
			return false
		}
	}
	return true
}

// tagValue escapes a tag's value: backslashes and quotes escaped, other
// control characters and line ends turned into spaces.
func tagValue(s string) string {
	var sb strings.Builder
	for _, r := range s {
		switch {
		case r == '\\' || r == '"':
			sb.WriteByte('\\')
			sb.WriteRune(r)
		case r < ' ' || r == 0x7f:
			sb.WriteByte(' ')
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// comment makes s fit inside {...}: no closing brace, no line ends.
func comment(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '}':
			return ')'
		case r < ' ' || r == 0x7f:
			return ' '
		}
		return r
	}, s)
}

// wrap writes tokens separated by spaces in lines of at most width
// characters (a longer token alone on its line), then a blank line.
func wrap(sb *strings.Builder, tokens []string, width int) {
	n := 0
	for _, t := range tokens {
		if n > 0 && n+1+len(t) > width {
			sb.WriteByte('\n')
			n = 0
		}
		if n > 0 {
			sb.WriteByte(' ')
			n++
		}
		sb.WriteString(t)
		n += len(t)
	}
	sb.WriteString("\n\n")
}
