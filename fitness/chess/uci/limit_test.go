package uci

import (
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
)

func TestParseTC(t *testing.T) {
	tests := []struct {
		in   string
		want TC
		err  string
	}{
		{"40/60+0.5", TC{Moves: 40, Base: 60000, Inc: 500}, ""},
		{"10+0.1", TC{Base: 10000, Inc: 100}, ""},
		{"60", TC{Base: 60000}, ""},
		{"0.5", TC{Base: 500}, ""},
		{"40/60", TC{Moves: 40, Base: 60000}, ""},
		{"1/0.001+0", TC{Moves: 1, Base: 1}, ""},
		{"0", TC{}, "want seconds above 0"},
		{"0+1", TC{}, "want seconds above 0"},
		{"0/60", TC{}, "want a whole number of moves from 1"},
		{"x/60", TC{}, "moves"},
		{"60+", TC{}, "increment"},
		{"60+-1", TC{}, "increment"},
		{"-60", TC{}, "base"},
		{"0.0001", TC{}, "base"}, // below a millisecond
		{"60+0.0005", TC{}, "increment"},
		{"", TC{}, "base"},
		{"inf", TC{}, "base"},
		{"NaN", TC{}, "base"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseTC(tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ParseTC(%q) = %+v, %v; want an error with %q", tc.in, got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("ParseTC(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			}
			if back, err := ParseTC(got.String()); err != nil || back != got {
				t.Errorf("%v does not read back: %+v, %v", got, back, err)
			}
		})
	}
}

func TestLimitCheck(t *testing.T) {
	tests := []struct {
		name string
		l    Limit
		err  string
	}{
		{"nodes", Limit{Nodes: 1000}, ""},
		{"tc with margin", Limit{TC: TC{Base: 1000}, Margin: 50}, ""},
		{"movetime with margin", Limit{MoveTime: 100, Margin: 50}, ""},
		{"none", Limit{}, "none given"},
		{"two", Limit{Nodes: 1, Depth: 2}, "nodes and depth given together"},
		{"margin without a clock", Limit{Depth: 3, Margin: 10}, "a margin belongs to movetime or tc"},
		{"negative nodes", Limit{Nodes: -1}, "nodes -1"},
		{"negative depth", Limit{Depth: -1}, "depth -1"},
		{"negative margin", Limit{MoveTime: 5, Margin: -1}, "margin -1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.l.Check()
			if (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Check(%+v) = %v, want %q", tc.l, err, tc.err)
			}
		})
	}
}

func TestLimitWith(t *testing.T) {
	depth3 := Limit{Depth: 3}
	clock := Limit{TC: TC{Moves: 40, Base: 10000, Inc: 100}, Margin: 50}
	tests := []struct {
		name string
		l    Limit
		s    fitness.Settings
		want Limit
		err  string
	}{
		{"none", depth3, nil, depth3, ""},
		{"another kind replaces it", depth3, fitness.Settings{"nodes": "4000"}, Limit{Nodes: 4000}, ""},
		{"the same kind", depth3, fitness.Settings{"depth": "5"}, Limit{Depth: 5}, ""},
		{"defaults written play as none", depth3, fitness.Settings{"nodes": "0", "depth": "3", "movetime": "0", "tc": "none", "margin": "0"}, depth3, ""},
		{"a clock", depth3, fitness.Settings{"tc": "10+0.1"}, Limit{TC: TC{Base: 10000, Inc: 100}}, ""},
		{"a clock's margin goes with it", clock, fitness.Settings{"depth": "2"}, Limit{Depth: 2}, ""},
		{"a margin for the clock", clock, fitness.Settings{"margin": "200"}, Limit{TC: clock.TC, Margin: 200}, ""},
		{"two kinds", depth3, fitness.Settings{"nodes": "10", "movetime": "10"}, Limit{}, "nodes and movetime given together"},
		{"margin without a clock", depth3, fitness.Settings{"margin": "20"}, Limit{}, "a margin belongs"},
		{"bad number", depth3, fitness.Settings{"nodes": "1e3"}, Limit{}, "setting nodes=1e3"},
		{"negative", depth3, fitness.Settings{"depth": "-1"}, Limit{}, "setting depth=-1"},
		{"bad clock", depth3, fitness.Settings{"tc": "fast"}, Limit{}, "setting tc"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.l.With(tc.s)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %+v, %v; want an error with %q", got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
	// Every setting declared has its default as the limit has it.
	for _, l := range []Limit{depth3, clock, {Nodes: 1000}, {MoveTime: 100}} {
		s := fitness.Settings{}
		for _, st := range limitSettings(l) {
			s[st.Name] = st.Default
		}
		if got, err := l.With(s); err != nil || got != l {
			t.Errorf("%v with its settings' defaults: %+v, %v", l, got, err)
		}
	}
}

func TestGoCmd(t *testing.T) {
	ck := &chessClock
	tests := []struct {
		l    Limit
		want string
	}{
		{Limit{Nodes: 1000}, "go nodes 1000"},
		{Limit{Depth: 3}, "go depth 3"},
		{Limit{MoveTime: 250}, "go movetime 250"},
		{Limit{TC: TC{Base: 1}}, "go wtime 9000 btime 8000 winc 100 binc 100 movestogo 12"},
	}
	for _, tc := range tests {
		if got := goCmd(tc.l, ck); got != tc.want {
			t.Errorf("goCmd(%v) = %q, want %q", tc.l, got, tc.want)
		}
	}
}
