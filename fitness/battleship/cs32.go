package battleship

import (
	"math/rand/v2"
	"strconv"
)

// The Mediocre and Good players of seed 002 (a CS 32 project report) are
// small state machines: hunt for a ship, then work around the first hit.
//
// Both learn a sinking only from the rules' sunk notice (reveal: sunk or
// ship). Under reveal: hits-only they never learn one: they stay in target
// mode until its points are used up and only then return to hunting, and
// Good keeps hunting every 2nd cell and keeps its longest reach for the
// whole game.

// cs32State is the attack state of a Mediocre or Good gunner.
type cs32State uint8

// The states, numbered as in the write-up.
const (
	stateHunt  cs32State = iota + 1 // state 1: no live hit; hunt
	stateCross                      // state 2: one hit; try the cross around it
	stateLine                       // state 3 (Good only): two hits; try their line
)

// cs32States is the one table of attack states.
var cs32States = [...]struct {
	name    string
	summary string
}{
	stateHunt:  {"hunt", "look for a ship: at random (Mediocre) or on a parity lattice (Good)"},
	stateCross: {"cross", "after a first hit: the points up to a ship's reach in each direction"},
	stateLine:  {"line", "after a second hit: the points along that line through the first hit"},
}

func (s cs32State) String() string {
	if int(s) < len(cs32States) && cs32States[s].name != "" {
		return cs32States[s].name
	}
	return "cs32State(" + strconv.Itoa(int(s)) + ")"
}

// compassDirs are north, east, south, west.
var compassDirs = [4][2]int{{-1, 0}, {0, 1}, {1, 0}, {0, -1}}

// longestAfloat returns the longest ship length among the ships still afloat.
func longestAfloat(g *Geometry, afloat []bool) int {
	m := 0
	for i, L := range g.Fleet {
		if afloat[i] {
			m = max(m, L)
		}
	}
	return m
}

// shortestAfloat returns the shortest ship length among the ships still afloat,
// or 0 if none is.
func shortestAfloat(g *Geometry, afloat []bool) int {
	m := 0
	for i, L := range g.Fleet {
		if afloat[i] && (m == 0 || L < m) {
			m = L
		}
	}
	return m
}

// randomUnfired returns a uniformly random cell not yet fired at.
func randomUnfired(g *Geometry, checked Bits, rng *rand.Rand) int {
	left := g.All.AndNot(checked)
	return left.Nth(rng.IntN(left.Count()))
}

// mediocreShooter is seed 002's Mediocre player.
//
// State 1 fires at a random unchecked cell. A hit that sinks nothing in
// state 1 moves to state 2 and records, once, the cross of cells up to 4
// steps in each direction from that hit (4 = the Carrier's length less one
// in the standard fleet; in general the longest ship of the fleet less
// one). State 2 fires at a random unchecked cell of that cross (the
// write-up says "a unique unchecked point from the list"; the random pick
// is the CS 32 assignment's rule and leaves "closest first" to Good);
// further hits keep the same cross. When the cross is used up it fires at
// a random unchecked cell and goes back to state 1. A sinking notice in
// any state goes back to state 1.
type mediocreShooter struct{}

func (mediocreShooter) Name() string { return "mediocre" }

func (mediocreShooter) Start(g *Geometry, rng *rand.Rand) Gunner {
	reach := 0
	for _, L := range g.Fleet {
		reach = max(reach, L-1)
	}
	return &mediocreGunner{g: g, rng: rng, state: stateHunt, reach: reach}
}

type mediocreGunner struct {
	g       *Geometry
	rng     *rand.Rand
	state   cs32State
	reach   int
	checked Bits
	cross   []int
}

func (m *mediocreGunner) Fire() int {
	if m.state == stateCross {
		// Drop the points fired at since they were recorded.
		keep := m.cross[:0]
		for _, c := range m.cross {
			if !m.checked.Has(c) {
				keep = append(keep, c)
			}
		}
		m.cross = keep
		if len(m.cross) > 0 {
			i := m.rng.IntN(len(m.cross))
			c := m.cross[i]
			m.cross[i] = m.cross[len(m.cross)-1]
			m.cross = m.cross[:len(m.cross)-1]
			return c
		}
		m.state = stateHunt
	}
	return randomUnfired(m.g, m.checked, m.rng)
}

func (m *mediocreGunner) Observe(s Shot) {
	m.checked = m.checked.Set(s.Cell)
	switch {
	case s.Sunk >= 0:
		m.state, m.cross = stateHunt, m.cross[:0]
	case s.Hit && m.state == stateHunt:
		m.state, m.cross = stateCross, m.cross[:0]
		for _, d := range compassDirs {
			for k := 1; k <= m.reach; k++ {
				if n := neighbourAt(m.g, s.Cell, k*d[0], k*d[1]); n >= 0 {
					m.cross = append(m.cross, n)
				}
			}
		}
	}
}

// goodShooter is seed 002's Good player.
//
// State 1 hunts systematically: the first unchecked cell in row-major
// order on a parity lattice, every 2nd cell ((row+col) mod 2 = k) while
// the Destroyer floats and every 3rd once it is sunk. Generalised to any
// fleet: the lattice step is the shortest ship length still afloat, so
// every ship left must cover a lattice cell; the offset k is drawn at
// random each time the step changes. With no lattice cell left it fires at
// random.
//
// The first hit that sinks nothing moves to state 2: a stack is loaded
// with the cells up to "largest ship size left" less one steps from the
// hit in each direction (north, east, south, west), closest popped first,
// and popped (skipping checked cells). If it runs out, state 2 fires at
// random and goes back to state 1.
//
// A second hit that sinks nothing moves to state 3: a second stack holds
// the cells up to the same reach from the first hit along the line of the
// two hits (horizontal if they share a row, else vertical), closest first.
// Further hits stay in state 3. When that stack runs out, it goes back to
// state 2's stack; and when that runs out too, to a random cell and state
// 1. As the write-up says, it doesn't take advantage of the fact that it
// found two ships if state 3's stack was emptied without a sinking. Any
// sinking notice empties both stacks and goes back to state 1, even with
// other hits still unresolved.
//
// The write-up tracks the largest ship left only for the standard fleet
// (5 sunk: 4 left; then 4 sunk: 3 left); here it is the longest ship still
// afloat, which agrees with it there except that it does not claim the
// Battleship gone when the Carrier sinks after it.
type goodShooter struct{}

func (goodShooter) Name() string { return "good" }

func (goodShooter) Start(g *Geometry, rng *rand.Rand) Gunner {
	gg := &goodGunner{g: g, rng: rng, state: stateHunt, afloat: make([]bool, len(g.Fleet))}
	for i := range gg.afloat {
		gg.afloat[i] = true
	}
	gg.reparity()
	return gg
}

type goodGunner struct {
	g       *Geometry
	rng     *rand.Rand
	state   cs32State
	checked Bits
	afloat  []bool // by fleet index, as far as sunk notices tell
	step    int    // lattice step of the hunt
	lattice Bits   // the hunt's cells
	first   int    // the hit that started state 2
	cross   []int  // state 2's stack
	line    []int  // state 3's stack
}

// reparity recomputes the hunt lattice after the shortest ship afloat
// changed.
func (gg *goodGunner) reparity() {
	step := max(shortestAfloat(gg.g, gg.afloat), 1)
	if step == gg.step {
		return
	}
	gg.step = step
	k := gg.rng.IntN(step)
	gg.lattice = Bits{}
	for c := range gg.g.Cells {
		if (c/gg.g.W+c%gg.g.W)%step == k {
			gg.lattice = gg.lattice.Set(c)
		}
	}
}

// pop returns the top unchecked cell of the stack, or -1 when there is
// none left.
func (gg *goodGunner) pop(stack *[]int) int {
	for s := *stack; len(s) > 0; {
		c := s[len(s)-1]
		s = s[:len(s)-1]
		*stack = s
		if !gg.checked.Has(c) {
			return c
		}
	}
	return -1
}

// load pushes the cells up to reach steps from c in the directions dirs,
// farthest first, so that the closest pop first.
func (gg *goodGunner) load(stack []int, c int, dirs [][2]int) []int {
	reach := longestAfloat(gg.g, gg.afloat) - 1
	stack = stack[:0]
	for k := reach; k >= 1; k-- {
		for _, d := range dirs {
			if n := neighbourAt(gg.g, c, k*d[0], k*d[1]); n >= 0 {
				stack = append(stack, n)
			}
		}
	}
	return stack
}

func (gg *goodGunner) Fire() int {
	if gg.state == stateLine {
		if c := gg.pop(&gg.line); c >= 0 {
			return c
		}
		gg.state = stateCross
	}
	if gg.state == stateCross {
		if c := gg.pop(&gg.cross); c >= 0 {
			return c
		}
		gg.state = stateHunt
		gg.cross, gg.line = gg.cross[:0], gg.line[:0]
		return randomUnfired(gg.g, gg.checked, gg.rng)
	}
	if c := gg.lattice.AndNot(gg.checked).First(); c >= 0 {
		return c
	}
	return randomUnfired(gg.g, gg.checked, gg.rng)
}

func (gg *goodGunner) Observe(s Shot) {
	gg.checked = gg.checked.Set(s.Cell)
	switch {
	case s.Sunk >= 0:
		gg.afloat[s.Sunk] = false
		gg.reparity()
		gg.state = stateHunt
		gg.cross, gg.line = gg.cross[:0], gg.line[:0]
	case !s.Hit:
	case gg.state == stateHunt:
		gg.state, gg.first = stateCross, s.Cell
		gg.cross = gg.load(gg.cross, s.Cell, compassDirs[:])
	case gg.state == stateCross:
		gg.state = stateLine
		dirs := [][2]int{{0, 1}, {0, -1}} // east, west
		if s.Cell/gg.g.W != gg.first/gg.g.W {
			dirs = [][2]int{{1, 0}, {-1, 0}} // south, north
		}
		gg.line = gg.load(gg.line, gg.first, dirs)
	}
}
