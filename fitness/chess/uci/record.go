package uci

import (
	"fmt"
	"strconv"
	"strings"
)

// Line writes the option as an engine declares it: a line ParseOption
// reads back to the same Option.
func (o Option) Line() string {
	var b strings.Builder
	b.WriteString("option name " + o.Name + " type " + o.Type.String())
	switch o.Type {
	case Spin:
		fmt.Fprintf(&b, " default %d min %d max %d", o.Def, o.Min, o.Max)
	case Check:
		b.WriteString(" default " + o.Default)
	case Combo:
		b.WriteString(" default " + o.Default)
		for _, v := range o.Vars {
			b.WriteString(" var " + v)
		}
	case String:
		d := o.Default
		if d == "" {
			d = "<empty>"
		}
		b.WriteString(" default " + d)
	}
	return b.String()
}

// Lines are what the engine said of itself, as it would say it again:
// its id lines and its options, one line each, in the order declared. A
// run records them, so that a reader of the run knows the engine's knobs
// without starting it (Recorded).
func (in EngineInfo) Lines() []string {
	out := []string{"id name " + in.Name, "id author " + in.Author}
	for _, o := range in.Options {
		out = append(out, o.Line())
	}
	return out
}

// ParseLines reads an engine's Lines back.
func ParseLines(lines []string) (EngineInfo, error) {
	var in EngineInfo
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "id name "):
			in.Name = strings.TrimPrefix(l, "id name ")
		case strings.HasPrefix(l, "id author "):
			in.Author = strings.TrimPrefix(l, "id author ")
		default:
			o, err := ParseOption(l)
			if err != nil {
				return EngineInfo{}, fmt.Errorf("uci: recorded line %s: %w", strconv.Itoa(i+1), err)
			}
			in.Options = append(in.Options, o)
		}
	}
	return in, nil
}

// Recorded is the engine of definition d as a run recorded it (its
// Lines, read by ParseLines): its knobs, its settings, its players, and
// no process. Its players describe and export; a seat asked of one
// fails with ErrNotStarted. Readers of a run build engines so, and start
// none.
func Recorded(d Definition, info EngineInfo) (*Engine, error) {
	name := Prefix + d.Name
	if err := d.check(); err != nil {
		return nil, &SetupError{Engine: name, Msg: err.Error()}
	}
	e := &Engine{def: d, name: name, info: info, live: map[*conn]bool{}, recorded: true}
	if err := e.checkOptions(); err != nil {
		return nil, &SetupError{Engine: name, Msg: err.Error(), Field: "options"}
	}
	var err error
	if e.knobs, err = knobsOf(&e.info, d.Options, d.Scale); err != nil {
		return nil, &SetupError{Engine: name, Msg: err.Error(), Field: "scale"}
	}
	e.schema = schemaOf(e.knobs)
	return e, nil
}
