// Package wire holds the messages of evotune's player protocol
// (docs/protocol.md) and their JSON forms, shared by evotune's side
// (fitness/external) and the program side for Go bots
// (fitness/external/program), so the two cannot drift apart.
package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/evotune/evotune/genome"
)

// Version is the protocol version this code speaks.
const Version = 1

// Line limits, in bytes including the newline. A longer line is a
// protocol error.
const (
	MaxHelloLine   = 8 << 20  // the program's hello: schemas may hold big grids
	MaxReplyLine   = 64 << 10 // one result or error reply
	MaxRequestLine = 8 << 20  // anything evotune sends
	// MaxInFlight is the most requests evotune leaves unanswered on one
	// process; a program must be able to buffer that many.
	MaxInFlight = 256
)

// Message types.
const (
	TypeHello  = "hello"
	TypePlay   = "play"
	TypeResult = "result"
	TypeError  = "error"
)

// Modes of a game: how a result is scored.
const (
	ModeTwoSeat = "two-seat" // outcome win, draw or loss seen from seat 0
	ModeSolo    = "solo"     // cost of seat 0, lower is better
)

// Outcomes of a two-seat game, seen from seat 0.
const (
	Win  = "win"
	Draw = "draw"
	Loss = "loss"
)

// Hello is evotune's first line.
type Hello struct {
	Type     string `json:"type"`
	Protocol int    `json:"protocol"`
}

// Offer is the program's answer to Hello: what it offers.
type Offer struct {
	Type     string   `json:"type"`
	Protocol int      `json:"protocol"`
	Error    string   `json:"error,omitempty"` // with type "error": why the program cannot go on
	Game     string   `json:"game"`
	Summary  string   `json:"summary,omitempty"`
	Mode     string   `json:"mode"`
	Measure  string   `json:"measure,omitempty"`  // solo: the cost's name ("turns")
	Opponent string   `json:"opponent,omitempty"` // solo: default opponent of seat 0, a player of another role
	Options  []Option `json:"options"`
	Roles    []string `json:"roles"`
	Players  []Player `json:"players"`
}

// Option is one rule option.
type Option struct {
	Name    string   `json:"name"`
	Default string   `json:"default"`
	Summary string   `json:"summary,omitempty"`
	Choices []string `json:"choices,omitempty"` // if set, the only legal values
}

// Player is one player the program offers.
type Player struct {
	Name    string  `json:"name"`
	Role    string  `json:"role"`
	Summary string  `json:"summary,omitempty"`
	Params  []Param `json:"params"`
	// Settings are the player's own settings (a search depth), in the
	// form of rule options; absent when it has none, which is what a
	// program written before settings existed says.
	Settings []Option `json:"settings,omitempty"`
}

// Param is one parameter of a player's schema, in the keys a config's
// space: section uses.
type Param struct {
	Name     string          `json:"name"`
	Type     string          `json:"type"` // float, int, bool, choice, grid
	Summary  string          `json:"summary,omitempty"`
	Min      *float64        `json:"min,omitempty"`
	Max      *float64        `json:"max,omitempty"`
	Log      bool            `json:"log,omitempty"`
	Choices  []string        `json:"choices,omitempty"`
	Rows     int             `json:"rows,omitempty"`
	Cols     int             `json:"cols,omitempty"`
	Symmetry string          `json:"symmetry,omitempty"`
	Default  json.RawMessage `json:"default"`
	OptIn    bool            `json:"opt_in,omitempty"` // genome.Param.OptIn
}

// Seat is one player of a game request.
type Seat struct {
	Player string                     `json:"player"`
	Params map[string]json.RawMessage `json:"params"`
	// Settings holds every setting the player declares, defaults filled
	// in; absent when it declares none.
	Settings map[string]string `json:"settings,omitempty"`
}

// Request asks for one game.
type Request struct {
	Type  string            `json:"type"`
	ID    uint64            `json:"id"`
	Seed  string            `json:"seed"`
	Rules map[string]string `json:"rules"`
	Seats []Seat            `json:"seats"`
}

// Reply answers one Request.
type Reply struct {
	Type    string   `json:"type"`
	ID      *uint64  `json:"id,omitempty"`
	Outcome string   `json:"outcome,omitempty"`
	Cost    *float64 `json:"cost,omitempty"`
	Error   string   `json:"error,omitempty"`
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}$`)

// CheckName reports whether s is a legal game, role, player, option or
// parameter name: 1 to 64 of letters, digits and _ . + -, not starting
// with a punctuation mark.
func CheckName(s string) error {
	if !nameRE.MatchString(s) {
		return fmt.Errorf("bad name %q (want 1 to 64 letters, digits, _ . + -)", s)
	}
	return nil
}

// ParamOf turns a parameter of the wire into a genome parameter and checks
// it (range, default inside it).
func ParamOf(w Param) (genome.Param, error) {
	p := genome.Param{Name: w.Name, Summary: w.Summary, Log: w.Log, Choices: w.Choices, Rows: w.Rows, Cols: w.Cols, OptIn: w.OptIn}
	if err := CheckName(w.Name); err != nil {
		return p, err
	}
	k, err := genome.ParseKind(w.Type)
	if err != nil {
		return p, fmt.Errorf("type: %s", strings.TrimPrefix(err.Error(), "genome: "))
	}
	p.Kind = k
	ranged := k == genome.Float || k == genome.Int || k == genome.Grid
	if ranged {
		if w.Min == nil || w.Max == nil {
			return p, errors.New("a " + w.Type + " needs min and max")
		}
		p.Min, p.Max = *w.Min, *w.Max
	}
	if w.Log && k != genome.Float && k != genome.Int {
		return p, errors.New("log applies to float and int only")
	}
	if k == genome.Grid {
		sym := w.Symmetry
		if sym == "" {
			sym = "full"
		}
		if p.Symmetry, err = genome.ParseSymmetry(sym); err != nil {
			return p, err
		}
		if p.Rows < 1 || p.Cols < 1 || p.Rows > 1024 || p.Cols > 1024 || p.Rows*p.Cols > 1<<16 {
			return p, fmt.Errorf("grid of %dx%d (want 1 to 1024 a side, at most 65536 cells)", p.Rows, p.Cols)
		}
	}
	if len(w.Default) == 0 {
		return p, errors.New("no default")
	}
	var a any
	if err := json.Unmarshal(w.Default, &a); err != nil {
		return p, fmt.Errorf("default: %w", err)
	}
	vals, err := genome.Schema{p}.FromMap(map[string]any{p.Name: a})
	if err != nil {
		// A default outside a broken range is the range's fault: report
		// the schema's own problem first, with a legal stand-in default.
		q := p
		q.Default = genome.Value{Num: p.Min, Cells: make([]float64, max(0, p.Rows*p.Cols))}
		for i := range q.Default.Cells {
			q.Default.Cells[i] = p.Min
		}
		if len(p.Choices) > 0 {
			q.Default.Str = p.Choices[0]
		}
		if k == genome.Bool {
			q.Default.Num = 0
		}
		if verr := (genome.Schema{q}).Validate(); verr != nil {
			return p, verr
		}
		return p, fmt.Errorf("default: %w", err)
	}
	p.Default = vals.Get(p.Name)
	if err := (genome.Schema{p}).Validate(); err != nil {
		return p, err
	}
	return p, nil
}

// WireParam is the inverse of ParamOf.
func WireParam(p genome.Param) Param {
	w := Param{Name: p.Name, Type: p.Kind.String(), Summary: p.Summary, Log: p.Log, Choices: p.Choices, OptIn: p.OptIn}
	if p.Kind == genome.Float || p.Kind == genome.Int || p.Kind == genome.Grid {
		lo, hi := p.Min, p.Max
		w.Min, w.Max = &lo, &hi
	}
	if p.Kind == genome.Grid {
		w.Rows, w.Cols, w.Symmetry = p.Rows, p.Cols, p.Symmetry.String()
	}
	w.Default = EncodeValue(&p, p.Default)
	return w
}

// EncodeValue is the JSON of one parameter value: a number (float, int),
// true or false (bool), a string (choice) or a flat row-major list of
// numbers (grid).
func EncodeValue(p *genome.Param, v genome.Value) json.RawMessage {
	var b []byte
	switch p.Kind {
	case genome.Int:
		b = strconv.AppendInt(nil, int64(v.Num), 10)
	case genome.Bool:
		b = strconv.AppendBool(nil, v.Num != 0)
	case genome.Choice:
		b, _ = json.Marshal(v.Str)
	case genome.Grid:
		b = append(b, '[')
		for i, x := range v.Cells {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendFloat(b, x)
		}
		b = append(b, ']')
	default:
		b = appendFloat(b, v.Num)
	}
	return b
}

// appendFloat writes x as JSON does: the shortest decimal that reads back
// as exactly x.
func appendFloat(b []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, x, 'g', -1, 64)
}

// EncodeSeat is the JSON of one seat: the player, every parameter of its
// schema, in schema order, and its settings (every one it declares), in
// name order; no settings key when it declares none.
func EncodeSeat(player string, v genome.Values, settings map[string]string) []byte {
	b := []byte(`{"player":`)
	name, _ := json.Marshal(player)
	b = append(b, name...)
	b = append(b, `,"params":{`...)
	s := v.Schema()
	for i := range s {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(s[i].Name)
		b = append(b, k...)
		b = append(b, ':')
		b = append(b, EncodeValue(&s[i], v.Get(s[i].Name))...)
	}
	b = append(b, '}')
	if len(settings) > 0 {
		set, _ := json.Marshal(settings) // sorted keys
		b = append(b, `,"settings":`...)
		b = append(b, set...)
	}
	return append(b, '}')
}

// DecodeValues reads a seat's parameters against the player's schema:
// every parameter must be present and legal, and no other may be.
func DecodeValues(s genome.Schema, params map[string]json.RawMessage) (genome.Values, error) {
	m := make(map[string]any, len(params))
	for name, raw := range params {
		var a any
		if err := json.Unmarshal(raw, &a); err != nil {
			return genome.Values{}, fmt.Errorf("%s: %w", name, err)
		}
		m[name] = a
	}
	for i := range s {
		if _, ok := m[s[i].Name]; !ok {
			return genome.Values{}, fmt.Errorf("%s: missing", s[i].Name)
		}
	}
	return s.FromMap(m)
}

// FormatSeed writes a seed as the protocol does: a decimal string, since
// JSON numbers lose precision above 2^53 in many languages.
func FormatSeed(seed uint64) string { return strconv.FormatUint(seed, 10) }

// ParseSeed reads a seed written by FormatSeed.
func ParseSeed(s string) (uint64, error) {
	x, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("seed %q is not a decimal uint64", s)
	}
	return x, nil
}
