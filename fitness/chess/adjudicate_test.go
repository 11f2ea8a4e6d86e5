package chess

import "testing"

// ply is one move's report for the adjudicator.
type ply struct {
	score, mate  int
	none         bool // no score reported
	irreversible bool // a capture or pawn move: the half-move clock is 0 after it
}

func cp(scores ...int) []ply {
	out := make([]ply, len(scores))
	for i, s := range scores {
		out[i] = ply{score: s}
	}
	return out
}

// alternate interleaves white's and black's plies, white first.
func alternate(white, black []ply) []ply {
	var out []ply
	for i := range max(len(white), len(black)) {
		if i < len(white) {
			out = append(out, white[i])
		}
		if i < len(black) {
			out = append(out, black[i])
		}
	}
	return out
}

func repeat(p ply, n int) []ply {
	out := make([]ply, n)
	for i := range out {
		out[i] = p
	}
	return out
}

func cat(parts ...[]ply) []ply {
	var out []ply
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// TestAdjudicator runs the rules at their exact boundaries: each case's
// adjudication comes at ply at (from 1; 0: never), and the nearest
// input that must not adjudicate is its neighbour case.
func TestAdjudicator(t *testing.T) {
	fishtest := Adjudication{ResignMoves: 3, ResignScore: 600, DrawFrom: 34, DrawMoves: 8, DrawScore: 20}
	resign := Adjudication{ResignMoves: 3, ResignScore: 600}
	twoSided := Adjudication{ResignMoves: 3, ResignScore: 600, ResignTwoSided: true}
	draw := Adjudication{DrawFrom: 34, DrawMoves: 8, DrawScore: 20}
	quiet := ply{score: 5}
	cases := []struct {
		name  string
		adj   Adjudication
		start int // the full-move number before the first ply (White's)
		plies []ply
		want  Termination
		at    int
		loser Color
	}{
		{"off", Adjudication{}, 1, alternate(cp(-5000, -5000, -5000, -5000), cp(5000, 5000, 5000, 5000)), 0, 0, 0},

		// One-sided resign: the loser's own score alone.
		{"resign at exactly the score on the third move", resign, 1, alternate(cp(0, 0, 0), cp(-600, -600, -600)), AdjudicatedResign, 6, Black},
		{"resign one move short", resign, 1, alternate(cp(0, 0, 0), cp(-600, -600, 0)), 0, 0, 0},
		{"resign one centipawn short", resign, 1, alternate(cp(0, 0, 0), cp(-600, -599, -600)), 0, 0, 0},
		{"resign after a broken run", resign, 1, alternate(cp(0, 0, 0, 0, 0), cp(-600, -500, -600, -600, -600)), AdjudicatedResign, 10, Black},
		{"white resigns", resign, 1, alternate(cp(-601, -700, -9000), cp(0, 0, 0)), AdjudicatedResign, 5, White},
		{"mates against count", resign, 1, alternate(cp(0, 0, 0), []ply{{mate: -3}, {score: -600}, {mate: -1}}), AdjudicatedResign, 6, Black},
		{"a mate for the mover does not", resign, 1, alternate(cp(0, 0, 0), []ply{{mate: 3}, {score: -600}, {score: -600}}), 0, 0, 0},
		{"no score breaks the run", resign, 1, alternate(cp(0, 0, 0, 0, 0), []ply{{score: -600}, {none: true}, {score: -600}, {score: -600}, {score: -600}}), AdjudicatedResign, 10, Black},
		{"the opponent's score does not matter one-sided", resign, 1, alternate(cp(-9000, 0, 0), cp(-600, -600, -600)), AdjudicatedResign, 6, Black},

		// Two-sided: the winner agrees on its own last three moves.
		{"two-sided, both agree", twoSided, 1, alternate(cp(600, 600, 600), cp(-600, -600, -600)), AdjudicatedResign, 6, Black},
		{"two-sided, the winner a centipawn short", twoSided, 1, alternate(cp(599, 600, 600), cp(-600, -600, -600)), 0, 0, 0},
		{"two-sided, the winner agrees a move later", twoSided, 1, alternate(cp(599, 600, 600, 600), cp(-600, -600, -600, -600)), AdjudicatedResign, 8, Black},
		{"two-sided, the winner mates", twoSided, 1, alternate([]ply{{mate: 5}, {score: 600}, {mate: 2}}, cp(-600, -600, -600)), AdjudicatedResign, 6, Black},
		{"two-sided, the winner unsure", twoSided, 1, alternate(cp(0, 0, 0), cp(-600, -600, -600)), 0, 0, 0},
		{"two-sided, the loser a centipawn short", twoSided, 1, alternate(cp(600, 600, 600), cp(-600, -600, -599)), 0, 0, 0},

		// Draw: 8 moves of each side (16 plies) within 20 cp, from move 34.
		{"draw once the run is long enough", draw, 30, repeat(quiet, 16), AdjudicatedDraw, 16, 0},
		{"draw one ply short", draw, 30, cat(repeat(quiet, 15), cp(21)), 0, 0, 0},
		{"draw at exactly the score", draw, 30, cat(cp(20, -20), repeat(quiet, 14)), AdjudicatedDraw, 16, 0},
		{"draw one centipawn short", draw, 30, cat(cp(20, -21), repeat(quiet, 14)), 0, 0, 0},
		{"draw from move 34 exactly", draw, 20, repeat(quiet, 30), AdjudicatedDraw, 30, 0},
		{"draw a ply before move 34", draw, 20, repeat(quiet, 29), 0, 0, 0},
		{"a mate breaks the draw run", draw, 30, cat(repeat(quiet, 8), []ply{{mate: 9}}, repeat(quiet, 16)), AdjudicatedDraw, 25, 0},
		{"no score breaks the draw run", draw, 30, cat(repeat(quiet, 8), []ply{{none: true}}, repeat(quiet, 16)), AdjudicatedDraw, 25, 0},
		// A capture or pawn move restarts the run, and counts in it.
		{"an irreversible move restarts the run", draw, 30, cat(repeat(quiet, 7), []ply{{score: 5, irreversible: true}}, repeat(quiet, 15)), AdjudicatedDraw, 23, 0},

		{"max moves", Adjudication{MaxMoves: 10}, 1, repeat(quiet, 20), MaxMoves, 20, 0},
		{"max moves a ply short", Adjudication{MaxMoves: 10}, 1, repeat(quiet, 19), 0, 0, 0},

		// Order at one ply: resign, then draw, then max moves.
		{"resign before draw", Adjudication{ResignMoves: 1, ResignScore: 10, DrawMoves: 1, DrawScore: 10}, 1, cp(0, -10), AdjudicatedResign, 2, Black},
		{"draw before max moves", Adjudication{DrawMoves: 1, DrawScore: 10, MaxMoves: 1}, 1, cp(0, 0), AdjudicatedDraw, 2, 0},
		{"fishtest's rules, resign first", fishtest, 1, alternate(cp(0, 0, 0), cp(-600, -600, -600)), AdjudicatedResign, 6, Black},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := adjudicator{Adjudication: tc.adj}
			mover, full, halfmove := White, tc.start, 10
			for i, p := range tc.plies {
				if mover == Black {
					full++
				}
				halfmove++
				if p.irreversible {
					halfmove = 0
				}
				r := Reply{Score: p.score, Mate: p.mate, HasScore: !p.none}
				term, loser := a.after(mover, r, halfmove, full)
				want := Termination(0)
				if i+1 == tc.at {
					want = tc.want
				}
				if term != want {
					t.Fatalf("after ply %d (%v %+v, move %d): %v, want %v", i+1, mover, p, full, term, want)
				}
				if term == AdjudicatedResign && loser != tc.loser {
					t.Fatalf("after ply %d: %v resigns, want %v", i+1, loser, tc.loser)
				}
				if term != 0 {
					return
				}
				mover = mover.Other()
			}
			if tc.at != 0 {
				t.Fatalf("no adjudication in %d plies, want one at ply %d", len(tc.plies), tc.at)
			}
		})
	}
}
